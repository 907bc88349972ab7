package retx

import (
	"math/bits"

	"github.com/spraynic/spraynic/config"
	"github.com/spraynic/spraynic/golden/seqnum"
	"github.com/spraynic/spraynic/golden/wide"
)

// Fixed port widths of docs/retx.md.
const (
	// entropyMask keeps the 16 bits of s_path_entropy.
	entropyMask = 0xFFFF
	// countMax caps the region of one ACK: r = min(d, SACK_BITS, 255) (m_fb_count is 8 bits).
	countMax = 255
	// arqMax is the saturation value of the 4-bit arq (ticks since a transmission asked for an ACK).
	arqMax = 15
	// nowMask keeps the 16 bits of now and lts.
	nowMask = 0xFFFF
)

// kind is the kind of a retransmission candidate in L1 / L2.
type kind uint8

// Candidate kinds.
const (
	// kindHole is a SACK hole: {c, p, q} from the hole scanner.
	kindHole kind = iota
	// kindRTO is a timeout of connection c (selective mode): resend una[c].
	kindRTO
	// kindEarly is an early loss check of connection c (selective mode): una[c]'s path has been quiet for
	// EARLY_CYCLES; it never sends, it loads the hole scanner (S) and a loss event (E).
	kindEarly
	// kindGBN is a go-back-N resend of PSN psn of connection c.
	kindGBN
)

// txEntry is one tx table entry: the latest transmission of a PSN.
type txEntry struct {
	// psn is the connection PSN (24 bits).
	psn uint32
	// path and pseq are the path taken and the path sequence it got.
	path, pseq uint32
	// handle is the payload handle.
	handle uint32
	// retries is the number of transmissions of this packet before this one (4 bits).
	retries uint32
	// first and last are the message flags.
	first, last bool
}

// conn is the flip-flop row of one connection (rto_pend, gbn_act and early_pend are kept as bitsets in Model).
type conn struct {
	// open and err are open[c] and err[c].
	open, err bool
	// una is the oldest unacknowledged PSN, nxt the next new PSN (24 bits each).
	una, nxt uint32
	// rtoCnt counts the ticks since the timer was last restarted, rtoLim is the current timeout (16 bits each).
	rtoCnt, rtoLim uint32
	// rw is the next PSN a go-back-N rewind resends (24 bits).
	rw uint32
	// arq counts the ticks since a transmission asked for an ACK, saturating at 15 (4 bits).
	arq uint32
}

// ackReg is the A register: one ACK.
type ackReg struct {
	// valid is A_valid.
	valid bool
	// conn, psn, path and pseq are s_ack_conn, s_ack_psn, s_ack_path and s_ack_pseq (n).
	conn, psn, path, pseq uint32
	// sack is s_ack_sack.
	sack wide.Vec
	// ecn and nak are s_ack_ecn and s_ack_nak.
	ecn, nak bool
}

// scanReg is the S register, the hole scanner; it is empty when mask is zero.
type scanReg struct {
	// conn, path and n are the ACK's connection, path and s_ack_pseq.
	conn, path, n uint32
	// mask has bit i set for a hole at path sequence n-1-i not yet looked up.
	mask wide.Vec
}

// lookup is the L1 or L2 register: one retransmission candidate.
type lookup struct {
	// valid is L1_valid / L2_valid.
	valid bool
	// kind is HOLE, RTO, EARLY or GBN.
	kind kind
	// conn is the candidate's connection.
	conn uint32
	// path and pseq are p and q of a HOLE candidate.
	path, pseq uint32
	// psn is the PSN of a GBN candidate.
	psn uint32
}

// evReg is the E register: the feedback events of one ACK, emptied field by field.
type evReg struct {
	// valid is E_valid: some field is non-zero.
	valid bool
	// conn and path are the ACK's connection and path.
	conn, path uint32
	// deliv and loss are packet counts (8 bits); ecn is the echoed CE mark.
	deliv, loss uint32
	// ecn is the ACK's ECN flag.
	ecn bool
}

// toReg is the T register: one timeout event.
type toReg struct {
	// valid is T_valid.
	valid bool
	// conn and path are the connection and the path of the timed-out transmission.
	conn, path uint32
}

// pktReg is the m_pkt output register.
type pktReg struct {
	// valid is m_pkt_valid.
	valid bool
	// conn, psn, path, pseq, entropy, handle and retries are the m_pkt payload fields.
	conn, psn, path, pseq, entropy, handle, retries uint32
	// first, last, ackReq and retx are the m_pkt flags.
	first, last, ackReq, retx bool
}

// fbReg is the m_fb output register.
type fbReg struct {
	// valid is m_fb_valid.
	valid bool
	// conn, path, kind and count are the m_fb payload fields.
	conn, path, kind, count uint32
}

// bitset is a CONNS-bit flip-flop vector (rto_pend, gbn_act, early_pend).
type bitset []uint64

// get reports bit c.
func (b bitset) get(c uint32) bool { return b[c>>6]>>(c&63)&1 != 0 }

// set sets bit c.
func (b bitset) set(c uint32) { b[c>>6] |= 1 << (c & 63) }

// clr clears bit c.
func (b bitset) clr(c uint32) { b[c>>6] &^= 1 << (c & 63) }

// lowest returns the lowest set bit, or false when none is set.
func (b bitset) lowest() (uint32, bool) {
	for w, v := range b {
		if v != 0 {
			return uint32(w<<6 + bits.TrailingZeros64(v)), true
		}
	}
	return 0, false
}

// Model is the retx golden model. All storage is sized in New; Step does not allocate.
//
// The tx table and the path map are modelled as arrays with the read timing of docs/retx.md: the path map is
// read in the cycle L1 is loaded with a HOLE (result kept in pmRd), the tx table in the cycle L1 moves into L2
// (result kept in l2e); both reads happen after the same cycle's transmission has written the memories, which is
// the document's write-first forwarding. Neither read register changes while adv is 0 (no load, and no memory
// write can happen then).
type Model struct {
	// cfg is the configuration the model was built for.
	cfg config.Config
	// conns, window, paths and sackBits are CONNS, WINDOW, PATHS and SACK_BITS.
	conns, window, paths, sackBits uint32
	// connMask, pathMask, pseqMask and handleMask truncate input ports to CONN_W, PATH_W, PSEQ_WIDTH and
	// HANDLE_WIDTH bits.
	connMask, pathMask, pseqMask, handleMask uint32
	// rtoTicks, rtoMax and maxRetries are RTO_TICKS, RTO_MAX_TICKS and MAX_RETRIES.
	rtoTicks, rtoMax, maxRetries uint32
	// tickCycles is TICK_CYCLES.
	tickCycles uint32
	// gbn is GBN == 1.
	gbn bool
	// ackReqTicks is ACK_REQ_TICKS (0: no ACK request by age).
	ackReqTicks uint32
	// earlyCycles is EARLY_CYCLES (0: no early loss detection).
	earlyCycles uint32

	// cs holds the flip-flops of each connection.
	cs []conn
	// rtoPend, gbnAct and earlyPend are rto_pend[c], gbn_act[c] and early_pend[c].
	rtoPend, gbnAct, earlyPend bitset
	// pnx and ahi are pnx and ahi of (c,p) at index c*PATHS+p (PSEQ_WIDTH bits).
	pnx, ahi []uint32
	// lts is lts of (c,p) at index c*PATHS+p: now at the last transmission on that path (16 bits).
	lts []uint32
	// now counts the cycles since reset, wrapping (16 bits).
	now uint32

	// tx is the tx table, index c*WINDOW + psn mod WINDOW. Not reset.
	tx []txEntry
	// pmap is the path map, index (c*PATHS+p)*SACK_BITS + pseq mod SACK_BITS: a tx slot. Not reset.
	pmap []uint16

	// a is the A register.
	a ackReg
	// s is the S register.
	s scanReg
	// l1 and l2 are the L1 and L2 registers.
	l1, l2 lookup
	// pmRd is the path map read data of L1 (a tx slot), valid when L1 holds a HOLE.
	pmRd uint32
	// l2e is the tx table read data of L2: the entry e it is validated against.
	l2e txEntry
	// ev is the E register.
	ev evReg
	// t is the T register.
	t toReg
	// pkt, fb are the m_pkt and m_fb output registers.
	pkt pktReg
	// fb is the m_fb output register.
	fb fbReg
	// errValid and errConn are the m_err output register.
	errValid bool
	// errConn is m_err_conn.
	errConn uint32
	// unaValid, unaConn and unaPSN are the m_una output register: una of unaConn moved forward to unaPSN.
	unaValid        bool
	unaConn, unaPSN uint32
	// tick is the tick counter, 0..TICK_CYCLES-1.
	tick uint32

	// cntSent .. cntAckIgnored are the 32-bit counters, wrapping.
	cntSent, cntRetxLoss, cntRetxTimeout, cntRetxGBN, cntTimeouts, cntErrors, cntTxDropped, cntAckIgnored uint32
}

// New returns a model of retx under cfg, in the reset state; it returns cfg.Validate's error (which holds
// TICK_CYCLES >= CONNS: retx visits one connection timer per cycle).
func New(cfg config.Config) (*Model, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	words := (cfg.Conns + 63) / 64
	m := &Model{
		cfg:         cfg,
		conns:       uint32(cfg.Conns),
		window:      uint32(cfg.Window),
		paths:       uint32(cfg.Paths),
		sackBits:    uint32(cfg.SackBits),
		connMask:    uint32(cfg.Conns - 1),
		pathMask:    uint32(cfg.Paths - 1),
		pseqMask:    uint32(uint64(1)<<uint(cfg.PseqWidth) - 1),
		handleMask:  uint32(uint64(1)<<uint(cfg.HandleWidth) - 1),
		rtoTicks:    uint32(cfg.RTOTicks),
		rtoMax:      uint32(cfg.RTOMaxTicks),
		maxRetries:  uint32(cfg.MaxRetries),
		tickCycles:  uint32(cfg.TickCycles),
		gbn:         cfg.GBN == 1,
		ackReqTicks: uint32(cfg.AckReqTicks),
		earlyCycles: uint32(cfg.EarlyCycles),
		cs:          make([]conn, cfg.Conns),
		rtoPend:     make(bitset, words),
		gbnAct:      make(bitset, words),
		earlyPend:   make(bitset, words),
		pnx:         make([]uint32, cfg.Conns*cfg.Paths),
		ahi:         make([]uint32, cfg.Conns*cfg.Paths),
		lts:         make([]uint32, cfg.Conns*cfg.Paths),
		tx:          make([]txEntry, cfg.Conns*cfg.Window),
		pmap:        make([]uint16, cfg.Conns*cfg.Paths*cfg.SackBits),
	}
	m.reset()
	return m, nil
}

// Config returns the configuration the model was built for.
func (m *Model) Config() config.Config { return m.cfg }

// inRange reports x in [a, b) on 24-bit PSNs: (x - a) mod 2^24 < (b - a) mod 2^24.
func inRange(x, a, b uint32) bool {
	return seqnum.PSN(x).InRange(seqnum.PSN(a), seqnum.PSN(b))
}

// psnAdd returns a + k modulo 2^24.
func psnAdd(a uint32, k int32) uint32 { return seqnum.PSN(a).Add(k).Uint32() }

// psnDiff returns (a - b) mod 2^24.
func psnDiff(a, b uint32) uint32 { return uint32(seqnum.PSN(b).Size(seqnum.PSN(a))) }

// send is a transmission decided in the current cycle (l2_send or new_send).
type send struct {
	// conn is the connection, psn the PSN sent.
	conn, psn uint32
	// entry is the tx table entry it writes {psn, P, Q, retries, handle, first, last}.
	entry txEntry
	// txIdx and pmIdx are the tx table and path map addresses it writes.
	txIdx, pmIdx int
	// ackReq and retx are m_pkt_ack_req and m_pkt_retx.
	ackReq, retx bool
	// restart is a new packet sent while nothing was outstanding: the timer restarts.
	restart bool
}

// cycle holds the decisions of one cycle: the combinational logic of docs/retx.md, all of it evaluated on the
// start-of-cycle state and this cycle's inputs before Step updates any register.
type cycle struct {
	// frozen is s_ctl_valid: control has the cycle (nothing moves in A, S, L1, L2, nothing is sent).
	frozen bool
	// ctlConn is s_ctl_conn.
	ctlConn uint32
	// l2Drop, l2Err and l2Send are l2_drop, l2_err and l2_send (all 0 in a frozen cycle).
	l2Drop, l2Err, l2Send bool
	// txConn is s_tx_conn.
	txConn uint32
	// newSend is new_send.
	newSend bool
	// txDropped is an s_tx handshake with drop_tx: the packet is discarded.
	txDropped bool
	// sending is l2_send || new_send: a transmission takes the send slot.
	sending bool
	// tx is the transmission when sending.
	tx send
	// aFire is a_fire: the ACK in A is processed.
	aFire bool
	// ack is the decision of ACK processing when aFire.
	ack ackResult
	// adv is adv: the lookup pipeline moves.
	adv bool
	// l2Addr is the tx table address read for the candidate moving from L1 into L2.
	l2Addr int
	// issue is the candidate L1 loads when adv (valid 0: L1 empties).
	issue lookup
	// issuePm is the path map address a HOLE issue reads.
	issuePm int
	// holeBit is the S.mask bit a HOLE issue clears.
	holeBit int
	// visit is the timer visit of connection tick, not discarded.
	visit bool
	// age is the ACK request ageing of connection tick: it is open and without error.
	age bool
	// earlyLoad is early_load: the EARLY candidate in L2 loads S and E.
	earlyLoad bool
	// earlyK is k = (pnx[c][e.path] - e.pseq) mod 2^PSEQ_WIDTH of an early load; earlyN is that pnx.
	earlyK, earlyN uint32
}

// l2Check validates the L2 candidate on the start-of-cycle state (docs/retx.md "The send slot"):
//
//	live = open && !err; outst = e.psn in [una, nxt)
//	HOLE:  ok = live && outst && e.path == p && e.pseq == q
//	RTO:   ok = live && una != nxt && e.psn == una
//	EARLY: ok = live && una != nxt && e.psn == una && ((now - lts[c][e.path]) mod 2^16) >= EARLY_CYCLES && !later
//	GBN:   ok = live && outst && e.psn == psn
//
// and returns ok and whether the entry is at MAX_RETRIES (l2_err before the frozen and L2_valid terms; it applies
// to every kind but EARLY, which never sends). Both are false when L2 is empty.
func (m *Model) l2Check() (ok, atMax bool) {
	l2, e := &m.l2, &m.l2e
	if !l2.valid {
		return false, false
	}
	c := &m.cs[l2.conn]
	live := c.open && !c.err
	switch l2.kind {
	case kindHole:
		ok = live && inRange(e.psn, c.una, c.nxt) && e.path == l2.path && e.pseq == l2.pseq
	case kindRTO:
		ok = live && c.una != c.nxt && e.psn == c.una
	case kindEarly:
		return live && c.una != c.nxt && e.psn == c.una && m.earlyAged(l2.conn, e), false
	case kindGBN:
		ok = live && inRange(e.psn, c.una, c.nxt) && e.psn == l2.psn
	}
	return ok, ok && e.retries == m.maxRetries
}

// earlyAged is the age part of the EARLY validation of entry e of connection c:
//
//	((now - lts[c][e.path]) mod 2^16) >= EARLY_CYCLES && !later
//
// where later = (ahi[c][e.path] - e.pseq) mod 2^PSEQ_WIDTH in [1, 2^(PSEQ_WIDTH-1)): an ACK has reported that
// sequence, so a SACK hole owns it.
func (m *Model) earlyAged(c uint32, e *txEntry) bool {
	pi := c*m.paths + e.path
	later := (m.ahi[pi] - e.pseq) & m.pseqMask
	return (m.now-m.lts[pi])&nowMask >= m.earlyCycles && (later == 0 || later > m.pseqMask>>1)
}

// txRoom returns drop_tx = !open || err and room = !drop_tx && !gbn_act && (nxt - una) < WINDOW of connection c
// on the start-of-cycle state.
func (m *Model) txRoom(c uint32) (dropTx, room bool) {
	tc := &m.cs[c]
	dropTx = !tc.open || tc.err
	room = !dropTx && !m.gbnAct.get(c) && psnDiff(tc.nxt, tc.una) < m.window
	return dropTx, room
}

// Preq returns the combinational selector hint m_preq_{valid, conn, retx, avoid} of this cycle for the inputs in,
// without changing any state (Step returns the same values). It depends on neither s_path_valid nor s_path_path,
// so a top can decide s_path from it in the same cycle:
//
//	if L2_valid && kind != EARLY && ok && !l2_err && !frozen: {1, c, 1, e.path}
//	else if s_tx_valid && room && slot_free && !frozen: {1, s_tx_conn, 0, 0}
//	else all 0 (also in reset).
//
// slot_free = !L2_valid || l2_drop || kind == EARLY; outside a frozen cycle l2_drop of a non-EARLY candidate is
// !ok.
func (m *Model) Preq(in *In) (valid bool, conn uint32, retx bool, avoid uint32) {
	if in.Rst || in.CtlValid {
		return false, 0, false, 0
	}
	ok, atMax := m.l2Check()
	early := m.l2.kind == kindEarly
	if m.l2.valid && !early && ok && !atMax {
		return true, m.l2.conn, true, m.l2e.path
	}
	c := in.TxConn & m.connMask
	if _, room := m.txRoom(c); in.TxValid && room && (!m.l2.valid || !ok || early) {
		return true, c, false, 0
	}
	return false, 0, false, 0
}

// Step fills *out with this cycle's output ports (from the state at the start of the cycle and *in), then
// applies the rising clock edge that ends the cycle. Input values are truncated to their port widths, as the RTL
// would see them. Registered payload outputs whose valid is low keep their last loaded values (0 after reset);
// the combinational m_preq payload is 0 when m_preq_valid is 0.
//
// It follows docs/retx.md "Cycle structure": every decision of the cycle is taken first, on the start-of-cycle
// state and this cycle's inputs; then the updates land, in the document's order for one connection ("Same cycle,
// one connection": timer visit, ACK processing, lookup issue, transmission, error, control; a later one
// overrides an earlier one).
func (m *Model) Step(in *In, out *Out) {
	m.registerOutputs(out)
	// s_ctl_ready = !rst.
	out.CtlReady = !in.Rst
	// Reset: nothing but the reset happens; every ready, s_path_ready and m_preq_valid are 0 in that cycle
	// (registerOutputs left them 0).
	if in.Rst {
		m.reset()
		return
	}

	// Decisions (combinational), on the start-of-cycle state; nothing is written before the updates.
	var cy cycle
	m.decideSendSlot(in, out, &cy) // L2 validation, new packet, s_tx_ready, s_path_ready
	// Selector hint m_preq (independent of s_path).
	out.PreqValid, out.PreqConn, out.PreqRetx, out.PreqAvoid = m.Preq(in)
	m.decideAck(out, &cy)         // a_fire, s_ack_ready, ACK processing of A
	m.decideLookup(&cy)           // adv, the tx table read address, the L1 issue
	m.decideTransmission(in, &cy) // the m_pkt load and the memory writes
	m.decideTimerVisit(&cy)       // the visit of connection tick, or its discard

	// Updates (clock edge). m_fb first: it unloads the start-of-cycle E and T, which ACK processing and an RTO
	// retransmission below load only when they were empty.
	m.updateFeedback(in.FbReady) // E and T -> m_fb
	m.updateEarly(&cy)           // early_load: S and E
	m.updateTimer(&cy)           // timer visit, arq, tick
	// m_una: the progress of this cycle's ACK (a_fire is 0 in a control cycle: no open overrides it).
	m.unaValid = cy.aFire && cy.ack.progress
	if cy.aFire {
		if cy.ack.progress {
			m.unaConn, m.unaPSN = m.a.conn, m.a.psn
		}
		m.ackApply(&cy.ack) // ACK processing (A): una, ahi, E, S
	}
	m.updateIssue(&cy)            // lookup issue: S bit, rto_pend, rw / gbn_act
	m.updateTransmission(in, &cy) // m_pkt, tx table, path map, pnx, nxt, T
	m.updateError(&cy)            // l2_err: err, m_err
	m.updateLookup(&cy)           // S -> L1 -> L2 with write-first reads
	if cy.frozen {
		m.control(in.CtlOpen, cy.ctlConn, in.CtlPSN&seqnum.Mask)
	}
	m.updateA(in, out, &cy) // s_ack -> A, after control
	if cy.txDropped {
		m.cntTxDropped++
	}
	m.now = (m.now + 1) & nowMask // now counts the cycles since reset, wrapping at 2^16
}

// registerOutputs drives the register outputs (m_pkt_*, m_fb_*, m_err_* and the counters) from the
// start-of-cycle state and leaves every combinational output 0 (the readies, s_path_ready, m_preq_*).
func (m *Model) registerOutputs(out *Out) {
	p, fb := &m.pkt, &m.fb
	*out = Out{
		PktValid:       p.valid,
		PktConn:        p.conn,
		PktPSN:         p.psn,
		PktPath:        p.path,
		PktPseq:        p.pseq,
		PktEntropy:     p.entropy,
		PktHandle:      p.handle,
		PktFirst:       p.first,
		PktLast:        p.last,
		PktAckReq:      p.ackReq,
		PktRetx:        p.retx,
		PktRetries:     p.retries,
		FbValid:        fb.valid,
		FbConn:         fb.conn,
		FbPath:         fb.path,
		FbKind:         fb.kind,
		FbCount:        fb.count,
		ErrValid:       m.errValid,
		ErrConn:        m.errConn,
		UnaValid:       m.unaValid,
		UnaConn:        m.unaConn,
		UnaPSN:         m.unaPSN,
		CntSent:        m.cntSent,
		CntRetxLoss:    m.cntRetxLoss,
		CntRetxTimeout: m.cntRetxTimeout,
		CntRetxGBN:     m.cntRetxGBN,
		CntTimeouts:    m.cntTimeouts,
		CntErrors:      m.cntErrors,
		CntTxDropped:   m.cntTxDropped,
		CntAckIgnored:  m.cntAckIgnored,
	}
}

// decideSendSlot decides the send slot (docs/retx.md "The send slot"): L2's candidate and a new packet of s_tx;
// it drives s_tx_ready and s_path_ready.
func (m *Model) decideSendSlot(in *In, out *Out, cy *cycle) {
	// frozen = s_ctl_valid (s_ctl_ready is 1 outside reset, so it is also the control handshake).
	cy.frozen = in.CtlValid
	cy.ctlConn = in.CtlConn & m.connMask
	// out_free = !m_pkt_valid || m_pkt_ready.
	outFree := !m.pkt.valid || in.PktReady

	// L2 validation (l2Check): live = open && !err; outst = e.psn in [una, nxt); HOLE, RTO, EARLY, GBN rules.
	// l2_drop = L2_valid && !ok; l2_err = L2_valid && ok && e.retries == MAX_RETRIES;
	// l2_send = L2_valid && ok && !l2_err && out_free && s_path_valid && (kind != RTO || !T_valid);
	// all three 0 in a frozen cycle.
	l2 := &m.l2
	ok, atMax := m.l2Check()
	switch {
	case !l2.valid || cy.frozen:
	case l2.kind == kindEarly:
		m.decideEarly(ok, cy)
	default:
		cy.l2Drop = !ok
		cy.l2Err = atMax
		cy.l2Send = ok && !atMax && outFree && in.PathValid && (l2.kind != kindRTO || !m.t.valid)
	}
	// slot_free = !L2_valid || l2_drop || kind == EARLY: the send slot is not owned by L2.
	slotFree := !l2.valid || cy.l2Drop || l2.kind == kindEarly

	// New packet, c = s_tx_conn: drop_tx = !open || err; room = !drop_tx && !gbn_act && (nxt - una) < WINDOW.
	//   new_send = s_tx_valid && room && slot_free && out_free && s_path_valid && !frozen
	//   s_tx_ready = !rst && !frozen && (drop_tx || (room && slot_free && out_free && s_path_valid))
	// A handshake with drop_tx discards the packet and counts cnt_tx_dropped.
	cy.txConn = in.TxConn & m.connMask
	dropTx, room := m.txRoom(cy.txConn)
	cy.newSend = in.TxValid && room && slotFree && outFree && in.PathValid && !cy.frozen
	out.TxReady = !cy.frozen && (dropTx || (room && slotFree && outFree && in.PathValid))
	cy.txDropped = in.TxValid && out.TxReady && dropTx

	// s_path_ready = l2_send || new_send (at most one of them is 1).
	out.PathReady = cy.l2Send || cy.newSend
	cy.sending = out.PathReady
}

// decideEarly decides an EARLY candidate in L2 outside a frozen cycle (docs/retx.md "The send slot"): it never
// sends and never errors;
//
//	early_load = L2_valid && kind == EARLY && ok && S.mask == 0 && !E_valid && !frozen
//
// loads S and E from k = (pnx[c][e.path] - e.pseq) mod 2^PSEQ_WIDTH (start-of-cycle pnx); a candidate that is
// not ok, or finds S or E busy, is dropped (l2_drop). An early load is not l2_done: L2 keeps the candidate for a
// cycle, and the next cycle drops it (S is busy then).
func (m *Model) decideEarly(ok bool, cy *cycle) {
	cy.earlyLoad = ok && m.s.mask.IsZero() && !m.ev.valid
	cy.l2Drop = !cy.earlyLoad
	if cy.earlyLoad {
		e := &m.l2e
		cy.earlyN = m.pnx[m.l2.conn*m.paths+e.path]
		cy.earlyK = (cy.earlyN - e.pseq) & m.pseqMask
	}
}

// decideAck decides the A stage (docs/retx.md "ACK processing (A)"):
//
//	a_fire = A_valid && !frozen && S.mask == 0 && !E_valid && !early_load
//	s_ack_ready = !rst && (!A_valid || a_fire)
//
// and, when A fires, ACK processing on the start-of-cycle state (ackDecide).
func (m *Model) decideAck(out *Out, cy *cycle) {
	cy.aFire = m.a.valid && !cy.frozen && m.s.mask.IsZero() && !m.ev.valid && !cy.earlyLoad
	out.AckReady = !m.a.valid || cy.aFire
	if cy.aFire {
		cy.ack = m.ackDecide()
	}
}

// decideLookup decides the lookup pipeline S -> L1 -> L2 (docs/retx.md "The lookup pipeline"):
// adv = !frozen && (!L2_valid || l2_done), l2_done = l2_drop || l2_err || l2_send. When adv is 1, L2 <- L1 with
// the tx table read at L1's address, and L1 <- the first of hole, timeout, early, rewind, empty. updateIssue
// applies the issue's state parts (S bit, rto_pend, early_pend, rw / gbn_act), updateLookup the move.
func (m *Model) decideLookup(cy *cycle) {
	cy.adv = !cy.frozen && (!m.l2.valid || cy.l2Drop || cy.l2Err || cy.l2Send)
	if !cy.adv {
		return
	}
	// The tx table is read at L1's address: HOLE: c*WINDOW + slot (L1's path map read data); RTO and EARLY:
	// una[c] mod WINDOW (start-of-cycle); GBN: psn mod WINDOW.
	if l1 := &m.l1; l1.valid {
		base := l1.conn * m.window
		switch l1.kind {
		case kindHole:
			cy.l2Addr = int(base + m.pmRd)
		case kindRTO, kindEarly:
			cy.l2Addr = int(base + m.cs[l1.conn].una&(m.window-1))
		default:
			cy.l2Addr = int(base + l1.psn&(m.window-1))
		}
	}
	// L1 <- the first of:
	//   1. hole: if S.mask != 0: i = highest set bit (the oldest hole), q = S.n - 1 - i; read the path map at
	//      [S.c][S.p][q]; clear bit i; L1 <- {HOLE, S.c, S.p, q}.
	//   2. timeout (selective mode): the lowest c with rto_pend[c]: L1 <- {RTO, c}, rto_pend[c] = 0.
	//   3. early (selective mode): the lowest c with early_pend[c]: L1 <- {EARLY, c}, early_pend[c] = 0.
	//   4. rewind (GBN mode), only in a cycle where A does not fire: the lowest c with gbn_act[c]:
	//      L1 <- {GBN, c, psn = rw[c]}, rw[c] += 1, and gbn_act[c] = 0 if rw[c] + 1 == nxt[c].
	//   5. else L1 empty.
	if !m.s.mask.IsZero() {
		cy.holeBit = highestBit(&m.s.mask)
		q := (m.s.n - 1 - uint32(cy.holeBit)) & m.pseqMask
		cy.issue = lookup{valid: true, kind: kindHole, conn: m.s.conn, path: m.s.path, pseq: q}
		cy.issuePm = int((m.s.conn*m.paths+m.s.path)*m.sackBits + q&(m.sackBits-1))
	} else if c, found := m.rtoPend.lowest(); found && !m.gbn {
		cy.issue = lookup{valid: true, kind: kindRTO, conn: c}
	} else if c, found := m.earlyPend.lowest(); found && !m.gbn {
		cy.issue = lookup{valid: true, kind: kindEarly, conn: c}
	} else if c, found := m.gbnAct.lowest(); found && m.gbn && !cy.aFire {
		cy.issue = lookup{valid: true, kind: kindGBN, conn: c, psn: m.cs[c].rw}
	}
}

// decideTransmission builds the transmission of this cycle (docs/retx.md "A transmission"), l2_send or
// new_send, with path P = s_path_path and Q = pnx[c][P]. For a new packet psn = nxt[c], handle/first/last from
// s_tx, retx = 0, retries = 0,
//
//	ack_req = last || (nxt[c] + 1 - una[c] == WINDOW) || (ACK_REQ_TICKS != 0 && arq[c] >= ACK_REQ_TICKS)
//
// (start-of-cycle arq: a new packet in its connection's visit cycle sees arq before the visit); for a
// retransmission psn = e.psn, handle/first/last from e, retx = 1, retries = e.retries + 1, ack_req = 1.
func (m *Model) decideTransmission(in *In, cy *cycle) {
	if !cy.sending {
		return
	}
	var tx send
	if cy.l2Send {
		e := &m.l2e
		tx = send{
			conn:   m.l2.conn,
			psn:    e.psn,
			entry:  txEntry{psn: e.psn, retries: e.retries + 1, handle: e.handle, first: e.first, last: e.last},
			ackReq: true,
			retx:   true,
		}
	} else {
		c := &m.cs[cy.txConn]
		tx = send{
			conn:  cy.txConn,
			psn:   c.nxt,
			entry: txEntry{psn: c.nxt, handle: in.TxHandle & m.handleMask, first: in.TxFirst, last: in.TxLast},
			ackReq: in.TxLast || psnDiff(psnAdd(c.nxt, 1), c.una) == m.window ||
				(m.ackReqTicks != 0 && c.arq >= m.ackReqTicks),
			restart: c.una == c.nxt,
		}
	}
	pathP := in.PathPath & m.pathMask
	pi := tx.conn*m.paths + pathP
	tx.entry.path = pathP
	tx.entry.pseq = m.pnx[pi]
	tx.txIdx = int(tx.conn*m.window + tx.psn&(m.window-1))
	tx.pmIdx = int(pi*m.sackBits + tx.entry.pseq&(m.sackBits-1))
	cy.tx = tx
}

// decideTimerVisit decides the timer visit of connection c = tick (docs/retx.md "Timers"), when tick < CONNS:
// c is visited if open && !err && una != nxt && !rto_pend && !gbn_act. The visit is discarded when this cycle has
// control for c, progress for c, a new transmission of c restarting the timer, or an error of c.
// (A visit needs una != nxt and a timer restart needs una == nxt, so the restart case never arises; it is kept
// as written.) Every visit of an open connection without error also ages its ACK request, whatever the RTO
// terms and discards say; control for c wins over it (unobservable: arq ages only while open, and an open sets
// it to 15).
func (m *Model) decideTimerVisit(cy *cycle) {
	vc := m.tick
	if vc >= m.conns {
		return
	}
	c := &m.cs[vc]
	cy.age = c.open && !c.err && !(cy.frozen && cy.ctlConn == vc)
	cy.visit = c.open && !c.err && c.una != c.nxt && !m.rtoPend.get(vc) && !m.gbnAct.get(vc) &&
		!(cy.frozen && cy.ctlConn == vc) &&
		!(cy.ack.progress && m.a.conn == vc) &&
		!(cy.newSend && cy.tx.restart && cy.txConn == vc) &&
		!(cy.l2Err && m.l2.conn == vc)
}

// updateFeedback is the feedback output (docs/retx.md "Feedback output"): m_fb loads when !m_fb_valid ||
// m_fb_ready, first of T (kind 3, count 1; T empties), else E's first non-zero field in the order deliv
// (kind 0), ecn (kind 1, count 1), loss (kind 2) (the field clears; E empties with its last one). Otherwise, on
// m_fb_ready, m_fb_valid drops. It sees the start-of-cycle E and T: an ACK loads E only when E was empty, an RTO
// send loads T only when T was empty, so the loads that follow in Step never meet an unload.
func (m *Model) updateFeedback(fbReady bool) {
	if m.fb.valid && !fbReady {
		return
	}
	switch ev := &m.ev; {
	case m.t.valid:
		m.fb = fbReg{valid: true, conn: m.t.conn, path: m.t.path, kind: FbTimeout, count: 1}
		m.t.valid = false
	case ev.valid:
		switch {
		case ev.deliv != 0:
			m.fb = fbReg{valid: true, conn: ev.conn, path: ev.path, kind: FbDelivered, count: ev.deliv}
			ev.deliv = 0
		case ev.ecn:
			m.fb = fbReg{valid: true, conn: ev.conn, path: ev.path, kind: FbECN, count: 1}
			ev.ecn = false
		default:
			m.fb = fbReg{valid: true, conn: ev.conn, path: ev.path, kind: FbLoss, count: ev.loss}
			ev.loss = 0
		}
		ev.valid = ev.deliv != 0 || ev.ecn || ev.loss != 0
	default:
		m.fb.valid = false
	}
}

// updateTimer applies the timer visit and moves the tick counter (docs/retx.md "Timers"). A visit with
// rto_cnt >= rto_lim is an expiry (at least rto_lim whole ticks since the restart): rto_cnt = 0,
// rto_lim = min(2*rto_lim, RTO_MAX_TICKS), cnt_timeouts++, and rto_pend = 1 in selective mode, gbn_act = 1,
// rw = una in GBN mode; else rto_cnt += 1. The visit of an open connection without error ages its ACK request:
// arq = min(arq + 1, 15) (a transmission with ack_req, applied later, wins). tick counts 0..TICK_CYCLES-1 and
// wraps.
func (m *Model) updateTimer(cy *cycle) {
	if cy.age {
		c := &m.cs[m.tick]
		c.arq = min(c.arq+1, arqMax)
	}
	if cy.visit {
		vc := m.tick
		c := &m.cs[vc]
		if c.rtoCnt >= c.rtoLim {
			c.rtoCnt = 0
			c.rtoLim = min(2*c.rtoLim, m.rtoMax)
			m.cntTimeouts++
			if m.gbn {
				m.gbnAct.set(vc)
				c.rw = c.una
			} else {
				m.rtoPend.set(vc)
			}
		} else {
			c.rtoCnt = (c.rtoCnt + 1) & 0xFFFF
		}
	}
	if m.tick+1 == m.tickCycles {
		m.tick = 0
	} else {
		m.tick++
	}
}

// updateEarly applies early_load (docs/retx.md "The send slot"), with k = (pnx[c][e.path] - e.pseq) mod
// 2^PSEQ_WIDTH:
//
//	S <- {c, e.path, n = pnx[c][e.path], mask = (1 << min(k, SACK_BITS)) - 1}
//	E <- {c, e.path, deliv 0, ecn 0, loss = min(k, 255)}
//
// Every sequence sent on that path from the oldest outstanding packet on goes through the hole scan. S and E
// were empty (early_load's terms), A does not fire, so nothing else writes them in this cycle.
func (m *Model) updateEarly(cy *cycle) {
	if !cy.earlyLoad {
		return
	}
	c, p := m.l2.conn, m.l2e.path
	m.s = scanReg{conn: c, path: p, n: cy.earlyN, mask: lowMask(int(min(cy.earlyK, m.sackBits)))}
	m.ev = evReg{valid: true, conn: c, path: p, loss: min(cy.earlyK, countMax)}
}

// updateIssue applies the state parts of the lookup issue decided by decideLookup: a HOLE clears its S.mask bit,
// an RTO clears rto_pend[c], an EARLY clears early_pend[c], a GBN rewind steps rw[c] += 1 and clears
// gbn_act[c] when rw[c] + 1 == nxt[c]. The memory reads come after the transmission's writes (updateLookup).
func (m *Model) updateIssue(cy *cycle) {
	if !cy.issue.valid {
		return
	}
	cc := cy.issue.conn
	switch cy.issue.kind {
	case kindHole:
		clearBit(&m.s.mask, cy.holeBit)
	case kindRTO:
		m.rtoPend.clr(cc)
	case kindEarly:
		m.earlyPend.clr(cc)
	case kindGBN:
		c := &m.cs[cc]
		c.rw = psnAdd(c.rw, 1)
		if c.rw == c.nxt {
			m.gbnAct.clr(cc)
		}
	}
}

// updateTransmission applies the transmission (docs/retx.md "A transmission"): m_pkt loads; tx table [c][psn]
// <- {psn, P, Q, retries, handle, first, last}; path map [c][P][Q] <- psn mod WINDOW; pnx[c][P] += 1;
// lts[c][P] = now; if ack_req, arq[c] = 0. New: nxt[c] += 1, cnt_sent++, and the timer restarts (rto_cnt = 0)
// if nothing was outstanding.
// Retransmission: cnt_retx_loss++ (HOLE), cnt_retx_timeout++ and T <- {c, e.path} (RTO), cnt_retx_gbn++ (GBN).
// If no transmission and m_pkt_ready, m_pkt_valid drops.
func (m *Model) updateTransmission(in *In, cy *cycle) {
	if !cy.sending {
		if in.PktReady {
			m.pkt.valid = false
		}
		return
	}
	tx := &cy.tx
	m.pkt = pktReg{
		valid:   true,
		conn:    tx.conn,
		psn:     tx.psn,
		path:    tx.entry.path,
		pseq:    tx.entry.pseq,
		entropy: in.PathEntropy & entropyMask,
		handle:  tx.entry.handle,
		first:   tx.entry.first,
		last:    tx.entry.last,
		ackReq:  tx.ackReq,
		retx:    tx.retx,
		retries: tx.entry.retries,
	}
	m.tx[tx.txIdx] = tx.entry
	m.pmap[tx.pmIdx] = uint16(tx.psn & (m.window - 1))
	pi := tx.conn*m.paths + tx.entry.path
	m.pnx[pi] = (m.pnx[pi] + 1) & m.pseqMask
	m.lts[pi] = m.now
	c := &m.cs[tx.conn]
	if tx.ackReq {
		c.arq = 0
	}
	if cy.newSend {
		c.nxt = psnAdd(c.nxt, 1)
		m.cntSent++
		if tx.restart {
			c.rtoCnt = 0
		}
		return
	}
	switch m.l2.kind {
	case kindHole:
		m.cntRetxLoss++
	case kindRTO:
		// T <- {c, e.path}: the path of the transmission that timed out (L2's entry, before this write).
		// Only selective RTO resends load T: go-back-N timeouts and resends report no feedback.
		m.cntRetxTimeout++
		m.t = toReg{valid: true, conn: m.l2.conn, path: m.l2e.path}
	default:
		m.cntRetxGBN++
	}
}

// updateError applies l2_err (docs/retx.md "Error"): err = 1, rto_pend = 0, gbn_act = 0, early_pend = 0,
// m_err <- {1, c}, cnt_errors++. m_err_valid is 0 in every other cycle.
func (m *Model) updateError(cy *cycle) {
	m.errValid = cy.l2Err
	if !cy.l2Err {
		return
	}
	c := m.l2.conn
	m.cs[c].err = true
	m.rtoPend.clr(c)
	m.gbnAct.clr(c)
	m.earlyPend.clr(c)
	m.errConn = c
	m.cntErrors++
}

// updateLookup moves the lookup pipeline when adv (docs/retx.md "The lookup pipeline"): L2 <- L1 (or empty)
// with the tx table read at L1's address, L1 <- the issue with the path map read of a HOLE. It runs after this
// cycle's memory writes, so the reads are write-first (forwarding).
func (m *Model) updateLookup(cy *cycle) {
	if !cy.adv {
		return
	}
	if m.l1.valid {
		m.l2 = m.l1
		m.l2e = m.tx[cy.l2Addr]
	} else {
		m.l2.valid = false
	}
	m.l1 = cy.issue
	if cy.issue.valid && cy.issue.kind == kindHole {
		m.pmRd = uint32(m.pmap[cy.issuePm])
	}
}

// updateA updates the A register: an s_ack handshake loads it; a fire without a handshake empties it. It runs
// after control: an ACK taken in the control cycle itself (A was empty) is kept, whatever its connection.
func (m *Model) updateA(in *In, out *Out, cy *cycle) {
	switch {
	case in.AckValid && out.AckReady:
		m.a = ackReg{
			valid: true,
			conn:  in.AckConn & m.connMask,
			psn:   in.AckPSN & seqnum.Mask,
			path:  in.AckPath & m.pathMask,
			pseq:  in.AckPseq & m.pseqMask,
			sack:  in.AckSack.Trunc(int(m.sackBits)),
			ecn:   in.AckECN,
			nak:   in.AckNak,
		}
	case cy.aFire:
		m.a.valid = false
	}
}

// ackResult is the decision of ACK processing for the ACK in A, taken on the start-of-cycle state.
type ackResult struct {
	// ignored: the connection is closed or in error (step 1), or nothing changed (step 5).
	ignored bool
	// progress is adv_ok: psn in (una, nxt] (step 2).
	progress bool
	// pathOK is path_ok: 1 <= d <= sent (step 3, selective mode).
	pathOK bool
	// deliv, loss and holes describe the new region of a path_ok ACK.
	deliv, loss uint32
	// holes is R & ~sack.
	holes wide.Vec
	// nak is step 4: a NAK whose PSN is in [una, nxt) after step 2 (GBN mode).
	nak bool
	// early is step 5: a duplicate ACK sets early_pend (selective mode, EARLY_CYCLES != 0).
	early bool
}

// ackDecide evaluates the ACK in A on the start-of-cycle state.
func (m *Model) ackDecide() ackResult {
	a := &m.a
	c := &m.cs[a.conn]
	var r ackResult
	// 1. Closed or errored connection: cnt_ack_ignored++, nothing else.
	if !c.open || c.err {
		r.ignored = true
		return r
	}
	// 2. adv_ok = 0 < psn - una <= nxt - una.
	dp := psnDiff(a.psn, c.una)
	r.progress = dp != 0 && dp <= psnDiff(c.nxt, c.una)
	una := c.una
	if r.progress {
		una = a.psn
	}
	if m.gbn {
		// 4. nak: psn in [una, nxt) after step 2.
		r.nak = a.nak && inRange(a.psn, una, c.nxt)
	} else {
		// 3. d = n - ahi, sent = pnx - ahi (PSEQ_WIDTH bits); path_ok = 1 <= d <= sent.
		pi := a.conn*m.paths + a.path
		d := (a.pseq - m.ahi[pi]) & m.pseqMask
		sent := (m.pnx[pi] - m.ahi[pi]) & m.pseqMask
		if d >= 1 && d <= sent {
			r.pathOK = true
			n := min(d, m.sackBits, countMax)
			mask := lowMask(int(n))
			r.deliv = popcount(andVec(&a.sack, &mask))
			r.loss = n - r.deliv
			r.holes = andNotVec(&mask, &a.sack)
		}
		// 5. EARLY_CYCLES != 0: the path part applied, no progress, psn == una and una != nxt: early_pend = 1.
		r.early = m.earlyCycles != 0 && r.pathOK && !r.progress && a.psn == c.una && c.una != c.nxt
	}
	// 6. Nothing changed. Step 4 is read as changing something whenever its condition holds (it (re)starts the
	// rewind), even if gbn_act and rw already had those values.
	r.ignored = !r.progress && !r.pathOK && !r.nak
	return r
}

// ackApply applies the ACK in A as decided by ackDecide.
//
// It reads gbn_act and rw of the connection only on progress, and a timer visit of the same connection is
// discarded on progress, so they are still the start-of-cycle values.
func (m *Model) ackApply(r *ackResult) {
	a := &m.a
	if r.ignored {
		m.cntAckIgnored++
		return
	}
	c := &m.cs[a.conn]
	if r.progress {
		// una = psn; progress: rto_cnt = 0, rto_lim = RTO_TICKS, rto_pend = 0; GBN: if gbn_act and rw not in
		// [psn, nxt): rw = psn, and gbn_act = 0 if psn == nxt.
		c.una = a.psn
		c.rtoCnt = 0
		c.rtoLim = m.rtoTicks
		m.rtoPend.clr(a.conn)
		m.earlyPend.clr(a.conn)
		if m.gbn && m.gbnAct.get(a.conn) && !inRange(c.rw, a.psn, c.nxt) {
			c.rw = a.psn
			if a.psn == c.nxt {
				m.gbnAct.clr(a.conn)
			}
		}
	}
	if r.pathOK {
		// ahi = n; E <- {c, p, deliv, ecn, loss} if any is non-zero; S <- {c, p, n, holes}.
		m.ahi[a.conn*m.paths+a.path] = a.pseq
		if r.deliv != 0 || a.ecn || r.loss != 0 {
			m.ev = evReg{valid: true, conn: a.conn, path: a.path, deliv: r.deliv, ecn: a.ecn, loss: r.loss}
		}
		m.s = scanReg{conn: a.conn, path: a.path, n: a.pseq, mask: r.holes}
	}
	if r.nak {
		// gbn_act = 1, rw = psn (a rewind restarts).
		m.gbnAct.set(a.conn)
		c.rw = a.psn
	}
	if r.early {
		m.earlyPend.set(a.conn)
	}
}

// control applies an s_ctl handshake for connection cc (docs/retx.md "Control"): open or close, winning over
// every other update of that connection in the cycle; it invalidates A, S, L1 and L2 if they hold that connection
// (E and T stay). In a frozen cycle nothing in A, S, L1 or L2 moved, so these are their start-of-cycle contents.
// Reading of docs/retx.md "Both invalidate A, S, L1 and L2 if they hold that connection": the test is on the
// start-of-cycle registers. s_ack_ready has no frozen term, so an ACK can be taken into an empty A in the control
// cycle; updateA loads it after control and keeps it even when it is for the controlled connection.
func (m *Model) control(open bool, cc, psn uint32) {
	c := &m.cs[cc]
	if open {
		// open = 1, err = 0, una = nxt = psn, rto_cnt = 0, rto_lim = RTO_TICKS, rto_pend = 0, gbn_act = 0,
		// rw = psn, arq = 15 (the first packet asks for an ACK), early_pend = 0, pnx = ahi = lts = 0 for every
		// path.
		*c = conn{open: true, una: psn, nxt: psn, rtoLim: m.rtoTicks, rw: psn, arq: arqMax}
		clear(m.pnx[cc*m.paths : (cc+1)*m.paths])
		clear(m.ahi[cc*m.paths : (cc+1)*m.paths])
		clear(m.lts[cc*m.paths : (cc+1)*m.paths])
	} else {
		// open = 0, rto_pend = 0, gbn_act = 0, early_pend = 0.
		c.open = false
	}
	m.rtoPend.clr(cc)
	m.gbnAct.clr(cc)
	m.earlyPend.clr(cc)
	if m.a.valid && m.a.conn == cc {
		m.a.valid = false
	}
	if !m.s.mask.IsZero() && m.s.conn == cc {
		m.s.mask = wide.Vec{}
	}
	if m.l1.valid && m.l1.conn == cc {
		m.l1.valid = false
	}
	if m.l2.valid && m.l2.conn == cc {
		m.l2.valid = false
	}
}

// reset clears every flip-flop at the clock edge of a reset cycle, payload registers included ("every flip-flop
// is cleared": m_pkt_*, m_fb_*, m_err_conn read 0 after a reset). The tx table, the path map and their read data
// registers (pmRd, l2e) keep their contents: they are only used after a load, and validated.
func (m *Model) reset() {
	clear(m.cs)
	clear(m.rtoPend)
	clear(m.gbnAct)
	clear(m.earlyPend)
	clear(m.pnx)
	clear(m.ahi)
	clear(m.lts)
	m.now = 0
	m.a = ackReg{}
	m.s = scanReg{}
	m.l1 = lookup{}
	m.l2 = lookup{}
	m.ev = evReg{}
	m.t = toReg{}
	m.pkt = pktReg{}
	m.fb = fbReg{}
	m.errValid = false
	m.errConn = 0
	m.unaValid = false
	m.unaConn = 0
	m.unaPSN = 0
	m.tick = 0
	m.cntSent = 0
	m.cntRetxLoss = 0
	m.cntRetxTimeout = 0
	m.cntRetxGBN = 0
	m.cntTimeouts = 0
	m.cntErrors = 0
	m.cntTxDropped = 0
	m.cntAckIgnored = 0
}

// lowMask returns a vector with bits 0..n-1 set (0 <= n <= 256).
func lowMask(n int) wide.Vec {
	var v wide.Vec
	for i := range v {
		switch lo := i * 64; {
		case n >= lo+64:
			v[i] = ^uint64(0)
		case n > lo:
			v[i] = 1<<uint(n-lo) - 1
		}
	}
	return v
}

// andVec returns a & b.
func andVec(a, b *wide.Vec) wide.Vec {
	var v wide.Vec
	for i := range v {
		v[i] = a[i] & b[i]
	}
	return v
}

// andNotVec returns a & ~b.
func andNotVec(a, b *wide.Vec) wide.Vec {
	var v wide.Vec
	for i := range v {
		v[i] = a[i] &^ b[i]
	}
	return v
}

// popcount returns the number of set bits of v.
func popcount(v wide.Vec) uint32 {
	n := 0
	for _, w := range v {
		n += bits.OnesCount64(w)
	}
	return uint32(n)
}

// highestBit returns the index of the highest set bit of a non-zero vector.
func highestBit(v *wide.Vec) int {
	for i := len(v) - 1; i >= 0; i-- {
		if v[i] != 0 {
			return i*64 + 63 - bits.LeadingZeros64(v[i])
		}
	}
	return 0
}

// clearBit clears bit i of v.
func clearBit(v *wide.Vec, i int) { v[i>>6] &^= 1 << (uint(i) & 63) }
