package nicroce

import "github.com/spraynic/spraynic/golden/nicrocecsr"

// Sources of the completion arbiter, in grant order.
const (
	srcWalk = iota
	srcRCU
	srcFlush
	srcImmWr
	srcImmRq
	nSrc
)

// Error kinds of a connection in a cycle (bits of cyc.errs).
const (
	errTransport = 1 << iota
	errInternal
)

// cyc holds the combinational values of one cycle, computed from the start-of-cycle state and the inputs.
type cyc struct {
	co nicrocecsr.Out
	// ctlCmd: the CSR command pulse drives s_ctl; ctlDef / ctlIC: a deferred open / internal close of ctlConn.
	ctlCmd, ctlDef, ctlIC bool
	ctlConn               int
	// pktReady is nic_transport's m_pkt_ready; t1Moves, t2Moves, t2Take the TX stages' moves.
	pktReady, t1Moves, t2Moves, rdDescTake bool
	// segTook: s_tx took S2's packet of segConn this cycle.
	segTook bool
	segConn int
	// t1OK and t1Ent: T1's packet is sent, and its TXQ entry.
	t1OK  bool
	t1Ent txqEnt
	// cplReady is m_cpl_ready; rel* the RCU's release of this cycle; push the PAQ push pointer at the start.
	cplReady, relDo bool
	relConn         int
	push            uint32
	// pktDrop, pktTake: the TXQ descriptor head is passed dropped or taken by roce_tx; payDone: the router's
	// entry ends (tlast or plen 0).
	pktDrop, pktTake, payDone bool
	// c2Pass, c2Moves, c2Drop (own counter index, -1: none), c1Data, c1Ack: the RX check.
	c2Pass, c2Moves bool
	c2Drop          int
	c1Data, c1Ack   bool
	// paqDecide, paqWrite, paqIssue, paqDataDone: the PAQ issue and data pointers.
	paqDecide, paqWrite, paqIssue, paqDataDone bool
	// offer and cpl: each source's offer to the arbiter; granted: the source granted (-1: none).
	offer   [nSrc]bool
	cpl     [nSrc]Cpl
	granted int
	// ledR is the ledger's R at the start of the cycle (the flush engine's wait compares it with Wf); flSQ and
	// flRQ: the flush engine is in its SQ or RQ phase at the start of the cycle (W1 and E1 wait).
	ledR       uint32
	flSQ, flRQ bool
	w2Miss     bool
	// wrTake, rqTake: s_wr and s_rq handshakes.
	wrTake, rqTake bool
	// wrStatus, rqStatus: the immediate completion status of a taken request (-1: the connection is open).
	wrStatus, rqStatus int
	ev                 uint32
	// ce is the conn_err port's connection (-1: none); newV is V's next value.
	ce   int
	newV vReg
	// err is a violation of the blocks' contracts seen in the cycle.
	err  error
	inc  [nOwn]bool
	errs []uint8
}

// clear starts a cycle with the CSR's outputs co.
func (cy *cyc) clear(co nicrocecsr.Out) {
	errs := cy.errs
	for i := range errs {
		errs[i] = 0
	}
	*cy = cyc{co: co, c2Drop: -1, granted: -1, errs: errs}
}
