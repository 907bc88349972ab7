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

// request is the request register R.
type request struct {
	// valid holds a request; retx is its kind; conn and avoid its connection and path to avoid.
	valid, retx bool
	conn, avoid uint32
}

// Model is one endpoint.
type Model struct {
	// cfg is the configuration; gbn is GBN == 1.
	cfg config.Config
	gbn bool
	// tx, ps and rx are the block models.
	tx *retx.Model
	ps *pathsel.Model
	rx *rxreorder.Model
	// txIn .. rxIn are the blocks' inputs, reused every cycle.
	txIn retx.In
	psIn pathsel.In
	rxIn rxreorder.In
	// slots is the decision slot of (connection c, kind k) at index 2c+k (k = 1: retransmission).
	slots []slot
	// req is the request register; kinds is the FIFO of the retx flags of requests inside path_sel.
	req request
	// kinds holds kindN flags from kindHead on (a ring of kindDepth).
	kinds           [kindDepth]bool
	kindHead, kindN int
	// exp and nakSent are the go-back-N filter state per connection.
	exp     []uint32
	nakSent []bool
	// nak is the NAK register.
	nakValid         bool
	nakConn, nakPSN  uint32
	gbnDropped, naks uint32
	// connMask and paths are CONNS-1 and PATHS.
	connMask uint32
	paths    int
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
		cfg: cfg, gbn: cfg.GBN == 1, tx: tx, ps: ps, rx: rx,
		slots: make([]slot, 2*cfg.Conns), exp: make([]uint32, cfg.Conns), nakSent: make([]bool, cfg.Conns),
		connMask: uint32(cfg.Conns - 1), paths: cfg.Paths,
	}
	return m, nil
}

// Config returns the configuration the model was built for.
func (m *Model) Config() config.Config { return m.cfg }

// Step fills *out with this cycle's outputs (from the start-of-cycle state and *in) and applies the clock edge.
func (m *Model) Step(in *In, out *Out) {
	rst := in.Rst

	// ---- retx: every input is known now (m_fb_ready = path_sel s_fb_ready = !rst).
	t := &m.txIn
	t.Rst = rst
	t.TxValid, t.TxConn, t.TxHandle, t.TxFirst, t.TxLast = in.TxValid, in.TxConn, in.TxHandle, in.TxFirst, in.TxLast
	t.PktReady = in.PktReady
	a := &in.AckIn
	t.AckValid, t.AckConn, t.AckPSN, t.AckPath, t.AckPseq = in.AckInValid, a.Conn, a.PSN, a.Path, a.Pseq
	t.AckSack, t.AckECN, t.AckNak = a.Sack, a.ECN, a.Nak
	t.CtlValid, t.CtlOpen, t.CtlConn, t.CtlPSN = in.CtlValid, in.CtlOpen, in.CtlConn, in.CtlTxPSN
	t.FbReady = !rst
	// s_path: the slot (h.conn, h.retx) of this cycle's hint; in go-back-N mode path 0 with its open entropy.
	hv, hc, hr, ha := m.tx.Preq(t)
	si := -1
	t.PathValid, t.PathPath, t.PathEntropy = false, 0, 0
	if hv {
		switch {
		case m.gbn:
			t.PathValid, t.PathEntropy = true, pathsel.E0(m.paths, hc, 0)
		default:
			si = slotIndex(hc, hr)
			if s := &m.slots[si]; s.valid {
				t.PathValid, t.PathPath, t.PathEntropy = true, s.path, s.entropy
			}
		}
	}
	m.tx.Step(t, &out.Retx)

	// ---- path_sel: s_req from R, s_fb from retx's m_fb register, control on open.
	p := &m.psIn
	p.Rst = rst
	p.ReqValid, p.ReqConn, p.ReqRetx, p.ReqAvoid = m.req.valid, m.req.conn, m.req.retx, m.req.avoid
	p.SelReady = true
	p.FbValid, p.FbConn, p.FbPath, p.FbKind, p.FbCount = out.Retx.FbValid, out.Retx.FbConn, out.Retx.FbPath, out.Retx.FbKind, out.Retx.FbCount
	p.CtlValid, p.CtlConn = in.CtlValid && in.CtlOpen, in.CtlConn
	p.RdConn, p.RdPath = in.RdConn, in.RdPath
	m.ps.Step(p, &out.PathSel)

	// ---- go-back-N filter, then rx_reorder.
	r := &m.rxIn
	r.Rst = rst
	rc := in.Rx.Conn & m.connMask
	pass, needNak := in.RxValid, false
	if m.gbn && in.RxValid {
		d := seqnum.New(in.Rx.PSN).Sub(seqnum.PSN(m.exp[rc]))
		pass = d <= 0
		needNak = d > 0 && !m.nakSent[rc]
	}
	r.PktValid = pass
	r.PktConn, r.PktPSN, r.PktPath, r.PktPseq = in.Rx.Conn, in.Rx.PSN, in.Rx.Path, in.Rx.Pseq
	r.PktFirst, r.PktLast, r.PktAckReq, r.PktECN, r.PktHandle = in.Rx.First, in.Rx.Last, in.Rx.AckReq, in.Rx.ECN, in.Rx.Handle
	r.CtlValid, r.CtlOpen, r.CtlConn, r.CtlPSN = in.CtlValid, in.CtlOpen, in.CtlConn, in.CtlRxPSN
	r.CplReady = in.CplReady
	r.AckReady = in.AckOutReady
	m.rx.Step(r, &out.Rx)

	out.CtlReady = !rst
	out.AckInReady = out.Retx.AckReady
	switch {
	case rst:
		out.RxReady = false
	case pass:
		out.RxReady = out.Rx.PktReady
	default:
		// A dropped packet goes at once unless it needs a NAK and the NAK register is full.
		out.RxReady = !(needNak && m.nakValid)
	}
	// ACK merge: rx_reorder's ACK first, else the NAK register.
	out.AckOutValid = out.Rx.AckValid || m.nakValid
	if out.Rx.AckValid {
		out.AckOut = AckDesc{Conn: out.Rx.AckConn, PSN: out.Rx.AckPSN, Path: out.Rx.AckPath, Pseq: out.Rx.AckPseq,
			Sack: out.Rx.AckSack, ECN: out.Rx.AckECN}
	} else {
		out.AckOut = AckDesc{Conn: m.nakConn, PSN: m.nakPSN, Nak: m.nakValid}
	}
	out.GBNDropped, out.Naks = m.gbnDropped, m.naks
	out.RxFiltered = in.RxValid && !pass
	if m.tap != nil {
		m.tap(&m.txIn, &m.psIn, &m.rxIn)
	}

	if rst {
		m.reset()
		return
	}

	// ---- clock edge of the glue.
	// NAK register: pops when shown and taken; then a filter NAK loads.
	if !out.Rx.AckValid && m.nakValid && in.AckOutReady {
		m.nakValid = false
	}
	if m.gbn && in.RxValid && out.RxReady {
		switch {
		case pass && seqnum.New(in.Rx.PSN) == seqnum.PSN(m.exp[rc]):
			m.exp[rc] = seqnum.PSN(m.exp[rc]).Add(1).Uint32()
			m.nakSent[rc] = false
		case !pass:
			m.gbnDropped++
			if needNak {
				m.nakValid, m.nakConn, m.nakPSN = true, rc, m.exp[rc]
				m.nakSent[rc] = true
				m.naks++
			}
		}
	}
	// Decision slots: the transmission empties its slot; m_sel fills the oldest request's slot.
	if si >= 0 && out.Retx.PathReady {
		m.slots[si].valid = false
	}
	if out.PathSel.SelValid {
		k := m.kinds[m.kindHead]
		m.kindHead, m.kindN = (m.kindHead+1)%kindDepth, m.kindN-1
		s := &m.slots[slotIndex(out.PathSel.SelConn, k)]
		s.valid, s.pending, s.path, s.entropy = true, false, out.PathSel.SelPath, out.PathSel.SelEntropy
	}
	// Request register: taken, then loaded from the hint when its slot is empty and not pending and no
	// transmission took a path this cycle (that one was the hint's packet: no decision is fetched ahead).
	if m.req.valid && out.PathSel.ReqReady {
		m.kinds[(m.kindHead+m.kindN)%kindDepth] = m.req.retx
		m.kindN++
		m.req.valid = false
	}
	if !m.req.valid && hv && !m.gbn && !out.Retx.PathReady {
		if s := &m.slots[slotIndex(hc, hr)]; !s.valid && !s.pending {
			m.req = request{valid: true, retx: hr, conn: hc, avoid: ha}
			s.pending = true
		}
	}
	// Control: the go-back-N filter of the connection restarts at the RX initial PSN.
	if in.CtlValid {
		c := in.CtlConn & m.connMask
		m.exp[c], m.nakSent[c] = in.CtlRxPSN&(1<<24-1), false
		if m.nakValid && m.nakConn == c {
			m.nakValid = false
		}
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
	m.kindHead, m.kindN = 0, 0
	m.nakValid, m.nakConn, m.nakPSN = false, 0, 0
	m.gbnDropped, m.naks = 0, 0
}
