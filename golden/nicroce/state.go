package nicroce

import "github.com/spraynic/spraynic/golden/wide"

// QueueDepth is SQ_DEPTH = RQ_DEPTH: the send work requests outstanding and the receives posted per connection
// (docs/nic_roce.md).
const QueueDepth = sqDepth

// Localparams of the structure (docs/nic_roce_rtl.md).
const (
	sqDepth  = 16
	slotMask = sqDepth - 1
	ptrMask  = 2*sqDepth - 1
	txqDepth = 32
	txqBeats = 256
	paqDepth = 16
	tags     = 256
	seqMask  = 1<<10 - 1
	genMask  = 1<<8 - 1
	psnMask  = 1<<24 - 1
)

// sqTx is an sq_tx_mem entry; sqCpl an sq_cpl_mem entry.
type sqTx struct {
	addr     uint64
	len, psn uint32
}

type sqCpl struct{ id, len, end uint32 }

// rqChk is an rq_chk_mem entry.
type rqChk struct {
	addr uint64
	len  uint32
}

// peer is a peer_mem entry.
type peer struct {
	mac   uint64
	check bool
	ip    uint32
}

// imm is the imm_wr or imm_rq register.
type imm struct {
	valid bool
	cpl   Cpl
}

// gateUnit is the enable gate of MAC RX and the TX gate.
type gateUnit struct{ inFrame, gdrop, inTxFrame, txHeld bool }

// connUnit is the connection state of the top: cs and gen per connection.
type connUnit struct {
	cs  []uint8
	gen []uint32
}

// sqUnit is the SQ intake with the SQ pointers and RAMs.
type sqUnit struct {
	head, tail, seqTail, allocPSN []uint32
	segMem                        []uint32
	txMem                         []sqTx
	cplMem                        []sqCpl
	imm                           imm
}

// rqUnit is the RQ intake with the RQ pointers and rq_chk_mem, rq_id_mem.
type rqUnit struct {
	rhead, rtail []uint32
	chkMem       []rqChk
	idMem        []uint32
	imm          imm
}

// s2Reg is the segmentation stage S2; len is sq_seg_mem's read output.
type s2Reg struct {
	valid bool
	c     int
	len   uint32
}

// segUnit is segmentation S1/S2 with the per-connection seg pointer and packet index.
type segUnit struct {
	seg, segK []uint32
	// rr is where S1's round robin starts; fair is the connection after the last one s_tx took, where it starts
	// instead while m_pkt waits.
	rr, fair int
	s2       s2Reg
}

// pktDesc is a packet descriptor of nic_transport's m_pkt.
type pktDesc struct {
	conn, psn, path, pseq, entropy, handle uint32
	first, last, ackReq                    bool
}

// txqEnt is a TXQ entry (T2's register has the same fields and the read address).
type txqEnt struct {
	pkt       pktDesc
	off, plen uint32
	gen       uint32
	drop      bool
	addr      uint64
}

// t1Reg is T1: the m_pkt descriptor, its gen and sq_tx_mem's read output.
type t1Reg struct {
	valid bool
	pkt   pktDesc
	gen   uint32
	ent   sqTx
}

// rdTagEnt is an rdtag_mem entry.
type rdTagEnt struct {
	c           int
	handle, gen uint32
}

// txUnit is the TX path: T1, T2, the read tags, TXQ and its pointers (tail, descriptor, payload).
type txUnit struct {
	t1 t1Reg
	t2 struct {
		valid bool
		e     txqEnt
	}
	rdTag         uint32
	rdOut         [tags]bool
	rdtagMem      [tags]rdTagEnt
	txq           [txqDepth]txqEnt
	txt, txd, txp uint32
	// beats: the payload beats of T2 and TXQ (T1's packet added at T2's load, the router's entry released at its
	// end).
	beats uint32
}

// rdsUnit is the registered read status.
type rdsUnit struct {
	valid, err bool
	ent        rdTagEnt
}

// rxDesc is a roce_rx data or ACK descriptor.
type rxDesc struct {
	conn, psn, path, pseq, handle, offset, len uint32
	first, last, ackReq, ecn, nak              bool
	sack                                       wide.Vec
	srcMAC                                     uint64
	srcIP                                      uint32
}

// c2Reg is C2: the descriptor, the peer entry, rq_chk_mem's output and nobuf.
type c2Reg struct {
	valid, data, nobuf bool
	d                  rxDesc
	peer               peer
	ent                rqChk
}

// chkUnit is the RX check C1/C2 with peer_mem; lastData: the last descriptor C1 took was data.
type chkUnit struct {
	lastData bool
	c2       c2Reg
	peerMem  []peer
}

// vReg is the verdict stage V.
type vReg struct {
	valid, last, passed bool
	c                   int
	gen, slot, len      uint32
	addr                uint64
	mlen                uint32
}

// paqEnt is a PAQ entry; isWrite is the issue decision.
type paqEnt struct {
	write, isWrite bool
	c              int
	gen, slot, len uint32
	addr           uint64
}

// paqUnit is the PAQ with its push, issue and data pointers (sequence numbers); hold: the entry at the issue
// pointer was decided a write and waits for its descriptor handshake.
type paqUnit struct {
	ent                [paqDepth]paqEnt
	push, issued, dptr uint32
	hold               bool
}

// ledEnt is a ledger_mem entry.
type ledEnt struct {
	c         int
	slot, gen uint32
}

// ledgerUnit is the write ledger: done/err bits, ledger_mem, ret, R and the retire stage.
type ledgerUnit struct {
	done, err [tags]bool
	mem       [tags]ledEnt
	ret, r    uint32
	rv        struct {
		valid, err bool
		ent        ledEnt
	}
}

// e2Reg is E2 (the three RAM outputs); rcuUnit the receive completion unit.
type e2Reg struct {
	valid    bool
	c        int
	id, l, w uint32
}

type rcuUnit struct {
	rh, rel      []uint32
	rqErr        []uint16
	lenMem, wMem []uint32
	rr           int
	e2           e2Reg
}

// walkUnit is the send walker W1/W2.
type walkUnit struct {
	una  []uint32
	pend []bool
	rr   int
	w2   struct {
		valid bool
		c     int
		cpl   sqCpl
	}
}

// arbUnit is the completion arbiter and the m_cpl output register.
type arbUnit struct {
	valid bool
	out   Cpl
	last  int
}

// ctlUnit is the control unit: flush requests, kinds, deferred opens with their PSNs, internal closes, errors
// waiting for the CSR's conn_err port and sq_derr.
type ctlUnit struct {
	flReq, pendOpen, icPend, cePend []bool
	kind                            []uint32
	txPSN, rxPSN                    []uint32
	sqDerr                          []uint16
}

// Flush phases.
const (
	phSQ = iota
	phRQWait
	phRQ
)

// flushUnit is the flush engine.
type flushUnit struct {
	active bool
	c      int
	phase  int
	ptr    uint32
	wf     uint32
	out    imm
	rr     int
}

// Own counters of the top, in map order.
const (
	cPeerClosed = iota
	cPeerIP
	cPeerMAC
	cDisabled
	cRxNoBuffer
	cRxOverrun
	cTxData
	cTxAck
	cWrTaken
	cCplSend
	cCplRecv
	cCplError
	cDmaRdError
	cDmaWrError
	nOwn
)

// cntUnit holds the top's counters, the bases of the 27 block counters and af_q.
type cntUnit struct {
	own  [nOwn]uint32
	base [27]uint32
	afQ  []bool
}
