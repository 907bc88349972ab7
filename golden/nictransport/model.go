package nictransport

import (
	"fmt"

	"github.com/spraynic/spraynic/config"
	"github.com/spraynic/spraynic/golden/pathsel"
	"github.com/spraynic/spraynic/golden/retx"
	"github.com/spraynic/spraynic/golden/rxreorder"
	"github.com/spraynic/spraynic/golden/seqnum"
	"github.com/spraynic/spraynic/golden/wide"
)

// RxDesc is a received data packet descriptor (its payload is already placed; Handle names where).
type RxDesc struct {
	// Conn, PSN, Path and Pseq are the connection, connection PSN, path id and path sequence.
	Conn, PSN, Path, Pseq uint32
	// First, Last, AckReq and ECN are the message flags, the ACK request and the CE mark.
	First, Last, AckReq, ECN bool
	// Handle is the receive handle returned on the completion.
	Handle uint32
}

// AckDesc is an ACK or NAK descriptor (the retx s_ack / rx_reorder m_ack fields).
type AckDesc struct {
	// Conn, PSN, Path and Pseq are the connection, cumulative PSN, path and one past its highest path sequence.
	Conn, PSN, Path, Pseq uint32
	// Sack is the path's SACK bitmap.
	Sack wide.Vec
	// ECN echoes a CE mark on the path; Nak marks a NAK "PSN sequence error" (PSN = expected).
	ECN, Nak bool
}

// Verdict is the receive verdict of one data descriptor (docs/nic_transport.md "Receive verdicts").
type Verdict struct {
	// Conn and PSN are the descriptor's; Code is rxreorder.Verdict* or VerdictGBNDropped.
	Conn, PSN, Code uint32
}

// In holds the endpoint's inputs for one cycle.
type In struct {
	// Rst is the synchronous reset.
	Rst bool
	// TxValid, TxConn, TxHandle, TxFirst and TxLast are the host TX work (retx s_tx).
	TxValid          bool
	TxConn, TxHandle uint32
	TxFirst, TxLast  bool
	// CtlValid, CtlOpen, CtlConn, CtlTxPSN and CtlRxPSN are host control: open (initial PSNs of both
	// directions) or close.
	CtlValid, CtlOpen           bool
	CtlConn, CtlTxPSN, CtlRxPSN uint32
	// CplReady takes completions; PktReady takes packet descriptors; AckOutReady takes ACK descriptors.
	CplReady, PktReady, AckOutReady bool
	// RxValid and Rx are a received data descriptor.
	RxValid bool
	Rx      RxDesc
	// AckInValid and AckIn are a received ACK descriptor.
	AckInValid bool
	AckIn      AckDesc
	// RdConn and RdPath address path_sel's status read port.
	RdConn, RdPath uint32
}

// Out holds the endpoint's outputs for one cycle. Completions, packet descriptors, errors and counters are
// the blocks' own outputs (Retx, Rx, PathSel); TxReady is Retx.TxReady.
type Out struct {
	// CtlReady, RxReady and AckInReady are the readies of control, received data and received ACKs.
	CtlReady, RxReady, AckInReady bool
	// AckOutValid and AckOut are the ACK descriptor to send.
	AckOutValid bool
	AckOut      AckDesc
	// RxFiltered: the data descriptor on the input this cycle is one the go-back-N filter drops (not a port of
	// the RTL top; the simulation's spurious-retransmission count uses it).
	RxFiltered bool
	// GBNDropped counts data packets the go-back-N filter dropped; Naks NAKs sent (32 bits, wrapping).
	GBNDropped, Naks uint32
	// RxvValid and Rxv are the receive verdict of the data descriptor taken the cycle before: rx_reorder's, or the
	// go-back-N filter's drop.
	RxvValid bool
	Rxv      Verdict
	// Retx, Rx and PathSel are the blocks' outputs of this cycle.
	Retx    retx.Out
	Rx      rxreorder.Out
	PathSel pathsel.Out
}

// kindDepth is the depth of the request-kind FIFO: path_sel holds at most two requests (S1 and m_sel).
const kindDepth = 4

// slot is one decision slot.
type slot struct {
	// valid holds a decision; pending has a request for it in flight.
	valid, pending bool
	// path and entropy are the decision.
	path, entropy uint32
}

// request is the request register R, or retx's m_preq hint it loads from.
type request struct {
	// valid holds a request; retx is its kind.
	valid, retx bool
	// conn and avoid are its connection and the path to avoid.
	conn, avoid uint32
}

// nakReg is the NAK register of the go-back-N filter.
type nakReg struct {
	// valid holds a NAK.
	valid bool
	// conn and psn are the NAK's connection and expected PSN.
	conn, psn uint32
}

// cycle holds the glue's combinational values of one cycle, from the start-of-cycle state and the inputs.
type cycle struct {
	// hint is retx's selector hint m_preq of this cycle.
	hint request
	// slot is the index of the decision slot offered on retx s_path, -1 for none.
	slot int
	// rxConn is the connection of the received data descriptor.
	rxConn uint32
	// pass: the go-back-N filter passes the descriptor to rx_reorder (always, in selective mode).
	pass bool
	// needNak: the filter drops the descriptor and owes its connection a NAK.
	needNak bool
}

// Model is one endpoint.
type Model struct {
	// cfg is the configuration.
	cfg config.Config
	// gbn is GBN == 1.
	gbn bool
	// tx is the retx model.
	tx *retx.Model
	// ps is the path_sel model.
	ps *pathsel.Model
	// rx is the rx_reorder model.
	rx *rxreorder.Model
	// txIn is retx's input, reused every cycle (as are psIn and rxIn).
	txIn retx.In
	// psIn is path_sel's input.
	psIn pathsel.In
	// rxIn is rx_reorder's input.
	rxIn rxreorder.In
	// slots is the decision slot of (connection c, kind k) at index 2c+k (k = 1: retransmission).
	slots []slot
	// req is the request register.
	req request
	// kinds is the FIFO of the retx flags of the requests inside path_sel: kindN flags from kindHead on (a ring).
	kinds [kindDepth]bool
	// kindHead is the index of the FIFO's oldest flag; kindN the number of flags.
	kindHead, kindN int
	// exp is the go-back-N filter's expected PSN per connection.
	exp []uint32
	// nakSent is the filter's NAK-sent flag per connection.
	nakSent []bool
	// nak is the NAK register.
	nak nakReg
	// gbnV is the verdict register of the go-back-N filter: the descriptor it dropped last cycle.
	gbnV Verdict
	// gbnVValid: gbnV holds a verdict.
	gbnVValid bool
	// gbnDropped counts data packets the filter dropped; naks counts NAKs sent (32 bits, wrapping).
	gbnDropped, naks uint32
	// connMask is CONNS-1.
	connMask uint32
	// paths is PATHS.
	paths int
	// tap, when set, sees every block's inputs of every cycle.
	tap Tap
}

// Tap receives the inputs each block got in one cycle (valid during the call only).
type Tap func(tx *retx.In, ps *pathsel.In, rx *rxreorder.In)

// SetTap makes the endpoint call t every cycle with the three blocks' inputs: what a block-level lockstep
// replays to check the RTL blocks under end-to-end traffic.
func (m *Model) SetTap(t Tap) { m.tap = t }

// New returns an endpoint under cfg, in the reset state. It returns the blocks' configuration errors.
func New(cfg config.Config) (*Model, error) {
	tx, err := retx.New(cfg)
	if err != nil {
		return nil, err
	}
	ps, err := pathsel.New(cfg)
	if err != nil {
		return nil, err
	}
	rx, err := rxreorder.New(cfg)
	if err != nil {
		return nil, err
	}
	if cfg.Conns > 1<<24 {
		return nil, fmt.Errorf("config %s: key %q: value %d too large", cfg.Name, "conns", cfg.Conns)
	}
	m := &Model{
		cfg:      cfg,
		gbn:      cfg.GBN == 1,
		tx:       tx,
		ps:       ps,
		rx:       rx,
		slots:    make([]slot, 2*cfg.Conns),
		exp:      make([]uint32, cfg.Conns),
		nakSent:  make([]bool, cfg.Conns),
		connMask: uint32(cfg.Conns - 1),
		paths:    cfg.Paths,
	}
	return m, nil
}

// Config returns the configuration the model was built for.
func (m *Model) Config() config.Config { return m.cfg }

// Step fills *out with this cycle's outputs (from the start-of-cycle state and *in) and applies the clock edge.
//
// The blocks step in the order their inputs become known (docs/nic_transport.md "Wiring"): retx, whose s_path
// comes from a decision slot; path_sel, fed by the request register and retx's m_fb register; the go-back-N
// filter and rx_reorder. The glue's outputs follow, then its clock edge.
func (m *Model) Step(in *In, out *Out) {
	var cy cycle
	m.stepRetx(in, out, &cy)
	m.stepPathSel(in, out)
	m.stepRx(in, out, &cy)
	m.glueOutputs(in, out, &cy)
	if m.tap != nil {
		m.tap(&m.txIn, &m.psIn, &m.rxIn)
	}
	if in.Rst {
		m.reset()
		return
	}

	// Clock edge of the glue.
	m.updateFilter(in, out, &cy) // NAK register, go-back-N filter
	m.updateSlots(out, &cy)      // decision slots, kind FIFO pop
	m.updateRequest(out, &cy)    // request register, kind FIFO push
	m.updateControl(in)          // filter restart on control
}

// stepRetx drives and steps retx. Every input is known at the start of the cycle (m_fb_ready = path_sel
// s_fb_ready = !rst). With h = m_preq of this cycle (independent of s_path), s_path offers the slot
// (h.conn, h.retx) when h.valid and that slot is full (docs/nic_transport.md "Decision slots"); in go-back-N
// mode path 0 with its open entropy E0(c, 0) ("Go-back-N path choice").
func (m *Model) stepRetx(in *In, out *Out, cy *cycle) {
	a := &in.AckIn
	t := &m.txIn
	*t = retx.In{
		Rst:      in.Rst,
		TxValid:  in.TxValid,
		TxConn:   in.TxConn,
		TxHandle: in.TxHandle,
		TxFirst:  in.TxFirst,
		TxLast:   in.TxLast,
		PktReady: in.PktReady,
		AckValid: in.AckInValid,
		AckConn:  a.Conn,
		AckPSN:   a.PSN,
		AckPath:  a.Path,
		AckPseq:  a.Pseq,
		AckSack:  a.Sack,
		AckECN:   a.ECN,
		AckNak:   a.Nak,
		CtlValid: in.CtlValid,
		CtlOpen:  in.CtlOpen,
		CtlConn:  in.CtlConn,
		CtlPSN:   in.CtlTxPSN,
		FbReady:  !in.Rst,
	}
	// s_path (left 0 above) from the slot of this cycle's hint.
	h := &cy.hint
	h.valid, h.conn, h.retx, h.avoid = m.tx.Preq(t)
	cy.slot = -1
	if h.valid {
		switch {
		case m.gbn:
			t.PathValid = true
			t.PathEntropy = pathsel.E0(m.paths, h.conn, 0)
		default:
			cy.slot = slotIndex(h.conn, h.retx)
			if s := &m.slots[cy.slot]; s.valid {
				t.PathValid = true
				t.PathPath = s.path
				t.PathEntropy = s.entropy
			}
		}
	}
	m.tx.Step(t, &out.Retx)
}

// stepPathSel drives and steps path_sel: s_req from the request register, m_sel_ready = 1, s_fb from retx's m_fb
// register, s_ctl on an open only (a close leaves the path state, which the next open resets), the status read
// port passed through.
func (m *Model) stepPathSel(in *In, out *Out) {
	fb := &out.Retx
	m.psIn = pathsel.In{
		Rst:      in.Rst,
		ReqValid: m.req.valid,
		ReqConn:  m.req.conn,
		ReqRetx:  m.req.retx,
		ReqAvoid: m.req.avoid,
		SelReady: true,
		FbValid:  fb.FbValid,
		FbConn:   fb.FbConn,
		FbPath:   fb.FbPath,
		FbKind:   fb.FbKind,
		FbCount:  fb.FbCount,
		CtlValid: in.CtlValid && in.CtlOpen,
		CtlConn:  in.CtlConn,
		RdConn:   in.RdConn,
		RdPath:   in.RdPath,
	}
	m.ps.Step(&m.psIn, &out.PathSel)
}

// stepRx applies the go-back-N receive filter (docs/nic_transport.md "Go-back-N receive filter"; a wire in
// selective mode) and steps rx_reorder. For a data descriptor of connection c, d = psn - exp[c] (signed 24-bit):
// d <= 0 passes to rx_reorder (d == 0 in order, d < 0 a duplicate); d > 0 is dropped and needs a NAK if
// !nak_sent.
func (m *Model) stepRx(in *In, out *Out, cy *cycle) {
	cy.rxConn = in.Rx.Conn & m.connMask
	cy.pass = in.RxValid
	if m.gbn && in.RxValid {
		d := seqnum.New(in.Rx.PSN).Sub(seqnum.PSN(m.exp[cy.rxConn]))
		cy.pass = d <= 0
		cy.needNak = d > 0 && !m.nakSent[cy.rxConn]
	}
	m.rxIn = rxreorder.In{
		Rst:       in.Rst,
		PktValid:  cy.pass,
		PktConn:   in.Rx.Conn,
		PktPSN:    in.Rx.PSN,
		PktPath:   in.Rx.Path,
		PktPseq:   in.Rx.Pseq,
		PktFirst:  in.Rx.First,
		PktLast:   in.Rx.Last,
		PktAckReq: in.Rx.AckReq,
		PktECN:    in.Rx.ECN,
		PktHandle: in.Rx.Handle,
		CtlValid:  in.CtlValid,
		CtlOpen:   in.CtlOpen,
		CtlConn:   in.CtlConn,
		CtlPSN:    in.CtlRxPSN,
		CplReady:  in.CplReady,
		AckReady:  in.AckOutReady,
	}
	m.rx.Step(&m.rxIn, &out.Rx)
}

// glueOutputs drives the endpoint's own outputs: CtlReady = !Rst (each block has s_ctl_ready = !rst);
// AckInReady is retx's s_ack_ready; RxReady is rx_reorder's s_pkt_ready for a descriptor that passes, else 1
// unless it needs a NAK and the NAK register is full; the ACK merge (docs/nic_transport.md "ACK merge":
// rx_reorder's m_ack when valid, else the NAK register, path fields 0); the filter's counters.
func (m *Model) glueOutputs(in *In, out *Out, cy *cycle) {
	out.CtlReady = !in.Rst
	out.AckInReady = out.Retx.AckReady
	switch {
	case in.Rst:
		out.RxReady = false
	case cy.pass:
		out.RxReady = out.Rx.PktReady
	default:
		// A dropped packet goes at once unless it needs a NAK and the NAK register is full.
		out.RxReady = !(cy.needNak && m.nak.valid)
	}
	out.AckOutValid = out.Rx.AckValid || m.nak.valid
	if r := &out.Rx; r.AckValid {
		out.AckOut = AckDesc{Conn: r.AckConn, PSN: r.AckPSN, Path: r.AckPath, Pseq: r.AckPseq, Sack: r.AckSack,
			ECN: r.AckECN}
	} else {
		out.AckOut = AckDesc{Conn: m.nak.conn, PSN: m.nak.psn, Nak: m.nak.valid}
	}
	out.GBNDropped = m.gbnDropped
	out.Naks = m.naks
	// Receive verdict: rx_reorder's (codes 0..3), else the filter's drop register (none in a reset cycle).
	switch r := &out.Rx; {
	case r.RxvValid:
		out.RxvValid = true
		out.Rxv = Verdict{Conn: r.RxvConn, PSN: r.RxvPSN, Code: r.RxvCode}
	case m.gbnVValid && !in.Rst:
		out.RxvValid = true
		out.Rxv = m.gbnV
	default:
		out.RxvValid = false
		out.Rxv = Verdict{}
	}
	out.RxFiltered = in.RxValid && !cy.pass
}

// updateFilter is the clock edge of the NAK register and the go-back-N filter. The NAK register pops when shown
// (no rx_reorder ACK before it) and taken. For a data descriptor taken: d == 0 moves exp on and clears nak_sent;
// a drop counts gbn_dropped and, if it needs a NAK, loads {c, exp} into the NAK register and sets nak_sent.
func (m *Model) updateFilter(in *In, out *Out, cy *cycle) {
	if !out.Rx.AckValid && m.nak.valid && in.AckOutReady {
		m.nak.valid = false
	}
	m.gbnVValid = false
	if !m.gbn || !in.RxValid || !out.RxReady {
		return
	}
	rc := cy.rxConn
	switch {
	case cy.pass && seqnum.New(in.Rx.PSN) == seqnum.PSN(m.exp[rc]):
		m.exp[rc] = seqnum.PSN(m.exp[rc]).Add(1).Uint32()
		m.nakSent[rc] = false
	case !cy.pass:
		m.gbnDropped++
		m.gbnVValid = true
		m.gbnV = Verdict{Conn: rc, PSN: in.Rx.PSN & (1<<24 - 1), Code: VerdictGBNDropped}
		if cy.needNak {
			m.nak = nakReg{valid: true, conn: rc, psn: m.exp[rc]}
			m.nakSent[rc] = true
			m.naks++
		}
	}
}

// updateSlots is the clock edge of the decision slots (docs/nic_transport.md "Decision slots"): the
// transmission empties the slot it took its path from; a decision on m_sel fills slot (m_sel_conn, kind) and
// clears its pending flag, where kind is the retx flag of the oldest request inside path_sel (the kind FIFO's
// head, which it pops).
func (m *Model) updateSlots(out *Out, cy *cycle) {
	if cy.slot >= 0 && out.Retx.PathReady {
		m.slots[cy.slot].valid = false
	}
	sel := &out.PathSel
	if !sel.SelValid {
		return
	}
	k := m.kinds[m.kindHead]
	m.kindHead = (m.kindHead + 1) % kindDepth
	m.kindN--
	m.slots[slotIndex(sel.SelConn, k)] = slot{valid: true, path: sel.SelPath, entropy: sel.SelEntropy}
}

// updateRequest is the clock edge of the request register R: taken by path_sel, its retx flag joins the kind
// FIFO; then it loads from the hint when empty, the hint is valid, no transmission took a path this cycle (that
// one was the hint's packet: no decision is fetched ahead) and the slot (h.conn, h.retx) is empty and not
// pending; loading sets the slot's pending flag. path_sel is not asked in go-back-N mode.
func (m *Model) updateRequest(out *Out, cy *cycle) {
	if m.req.valid && out.PathSel.ReqReady {
		m.kinds[(m.kindHead+m.kindN)%kindDepth] = m.req.retx
		m.kindN++
		m.req.valid = false
	}
	h := &cy.hint
	if m.req.valid || !h.valid || m.gbn || out.Retx.PathReady {
		return
	}
	if s := &m.slots[slotIndex(h.conn, h.retx)]; !s.valid && !s.pending {
		m.req = request{valid: true, retx: h.retx, conn: h.conn, avoid: h.avoid}
		s.pending = true
	}
}

// updateControl: on control the go-back-N filter of the connection restarts at the RX initial PSN (exp =
// CtlRxPSN, nak_sent = 0) and a NAK waiting for that connection is dropped. Control leaves the slots alone.
func (m *Model) updateControl(in *In) {
	if !in.CtlValid {
		return
	}
	c := in.CtlConn & m.connMask
	m.exp[c] = in.CtlRxPSN & (1<<24 - 1)
	m.nakSent[c] = false
	if m.nak.valid && m.nak.conn == c {
		m.nak.valid = false
	}
}

// slotIndex is the index of the decision slot of connection c and kind retx.
func slotIndex(c uint32, retx bool) int {
	if retx {
		return int(2*c + 1)
	}
	return int(2 * c)
}

// reset clears the glue (the blocks reset themselves in their Step).
func (m *Model) reset() {
	clear(m.slots)
	clear(m.exp)
	clear(m.nakSent)
	m.req = request{}
	m.kindHead = 0
	m.kindN = 0
	m.nak = nakReg{}
	m.gbnVValid = false
	m.gbnV = Verdict{}
	m.gbnDropped = 0
	m.naks = 0
}
