package rxreorder

import (
	"math/bits"

	"github.com/spraynic/spraynic/config"
	"github.com/spraynic/spraynic/golden/seqnum"
	"github.com/spraynic/spraynic/golden/wide"
)

// slot is one handle-RAM entry: {first, last, handle}.
type slot struct {
	// first is the packet's first-of-message flag.
	first bool
	// last is the packet's last-of-message flag.
	last bool
	// handle is the opaque payload handle.
	handle uint32
}

// stage1 is the stage-1 input register, loaded by a handshake on s_pkt or s_ctl.
type stage1 struct {
	// valid is s1_valid: an operation waits in stage 1.
	valid bool
	// isCtl is s1_is_ctl: the operation is a control operation, not a packet.
	isCtl bool
	// open is s_ctl_open of a control operation (1 = open, 0 = close).
	open bool
	// conn is s_pkt_conn or s_ctl_conn.
	conn uint32
	// psn is s_pkt_psn or s_ctl_psn.
	psn seqnum.PSN
	// path is s_pkt_path.
	path uint32
	// pseq is s_pkt_pseq.
	pseq uint32
	// first is s_pkt_first.
	first bool
	// last is s_pkt_last.
	last bool
	// ackReq is s_pkt_ack_req.
	ackReq bool
	// ecn is s_pkt_ecn.
	ecn bool
	// handle is s_pkt_handle.
	handle uint32
}

// cplReg is the completion output register driving m_cpl_*.
type cplReg struct {
	// valid is m_cpl_valid.
	valid bool
	// conn is m_cpl_conn.
	conn uint32
	// psn is m_cpl_psn.
	psn seqnum.PSN
	// data is {m_cpl_first, m_cpl_last, m_cpl_handle}, read from the handle RAM.
	data slot
}

// ackEntry is one ACK FIFO entry, driving m_ack_* when at the head.
type ackEntry struct {
	// conn is m_ack_conn.
	conn uint32
	// psn is m_ack_psn: cum of the connection after the packet's stage-1 update.
	psn seqnum.PSN
	// path is m_ack_path.
	path uint32
	// pseq is m_ack_pseq: pnext of the path after the update.
	pseq uint32
	// sack is m_ack_sack: psack of the path after the update.
	sack wide.Vec
	// ecn is m_ack_ecn: pecn of the path after the update.
	ecn bool
}

// Model is the rx_reorder golden model. All storage is sized in New; Step does not allocate.
type Model struct {
	// cfg is the configuration the model was built for.
	cfg config.Config
	// window is WINDOW.
	window int
	// sackBits is SACK_BITS.
	sackBits int
	// connMask, pathMask and handleMask truncate input ports to CONN_W, PATH_W and HANDLE_WIDTH bits.
	connMask, pathMask, handleMask uint32
	// pseq is the PSEQ_WIDTH-bit path sequence space.
	pseq seqnum.Space
	// slotMask is 4*WINDOW-1: the handle-RAM slot of a PSN is psn[SLOT_W-1:0].
	slotMask uint32
	// lagMask keeps lag to its SLOT_W+1 bits.
	lagMask uint32
	// bmWords is the number of 64-bit words of one connection's bitmap.
	bmWords int

	// open is open[c].
	open []bool
	// cum is cum[c]: next expected PSN; every PSN before it was accepted.
	cum []seqnum.PSN
	// bitmap is bitmap[c], bmWords words per connection: bit i set = PSN cum+i accepted; bit 0 always clear.
	bitmap []uint64
	// lag is lag[c]: accepted PSNs before cum not released yet; the release pointer is cum-lag.
	lag []uint32
	// ackcnt is ackcnt[c]: accepted packets since the connection's last ACK.
	ackcnt []uint32
	// pending has bit c set when lag[c] != 0 (the release candidates before the control exclusion).
	pending []uint64
	// over counts the connections with lag[c] > WINDOW; lag_ok is over == 0.
	over int

	// pnext is pnext of (c,p) at index c*PATHS+p: one past the highest path sequence received.
	pnext []uint32
	// psack is psack of (c,p): bit i = path sequence pnext-1-i received.
	psack []wide.Vec
	// pecn is pecn of (c,p): a CE-marked packet arrived since the path's last ACK.
	pecn []bool

	// handles is the handle RAM, 4*WINDOW slots per connection, at index c*4*WINDOW + psn[SLOT_W-1:0].
	handles []slot

	// s1 is the stage-1 register.
	s1 stage1
	// rr is the release round-robin pointer.
	rr int
	// cpl is the completion output register.
	cpl cplReg

	// fifo is the ACK FIFO ring of ACK_FIFO_DEPTH entries.
	fifo []ackEntry
	// head is the index of the FIFO's oldest entry (the m_ack_* output).
	head int
	// count is the number of FIFO entries.
	count int

	// cntAccepted is cnt_accepted.
	cntAccepted uint32
	// cntDuplicate is cnt_duplicate.
	cntDuplicate uint32
	// cntOutOfWin is cnt_out_of_window.
	cntOutOfWin uint32
	// cntClosed is cnt_closed.
	cntClosed uint32
}

// New returns a model of rx_reorder under cfg, in the reset state; it returns cfg.Validate's error.
func New(cfg config.Config) (*Model, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	pseq, err := seqnum.NewSpace(cfg.PseqWidth)
	if err != nil {
		return nil, err
	}
	slots := 4 * cfg.Window
	bmWords := (cfg.Window + 63) / 64
	m := &Model{
		cfg:        cfg,
		window:     cfg.Window,
		sackBits:   cfg.SackBits,
		connMask:   uint32(cfg.Conns - 1),
		pathMask:   uint32(cfg.Paths - 1),
		handleMask: uint32(1<<uint(cfg.HandleWidth) - 1),
		pseq:       pseq,
		slotMask:   uint32(slots - 1),
		lagMask:    uint32(2*slots - 1),
		bmWords:    bmWords,
		open:       make([]bool, cfg.Conns),
		cum:        make([]seqnum.PSN, cfg.Conns),
		bitmap:     make([]uint64, cfg.Conns*bmWords),
		lag:        make([]uint32, cfg.Conns),
		ackcnt:     make([]uint32, cfg.Conns),
		pending:    make([]uint64, (cfg.Conns+63)/64),
		pnext:      make([]uint32, cfg.Conns*cfg.Paths),
		psack:      make([]wide.Vec, cfg.Conns*cfg.Paths),
		pecn:       make([]bool, cfg.Conns*cfg.Paths),
		handles:    make([]slot, cfg.Conns*slots),
		fifo:       make([]ackEntry, cfg.AckFifoDepth),
	}
	return m, nil
}

// Config returns the configuration the model was built for.
func (m *Model) Config() config.Config { return m.cfg }

// release is the release decision of one cycle (docs/rx_reorder.md "Release"), on the start-of-cycle state.
type release struct {
	// fire: a candidate exists and (!m_cpl_valid || m_cpl_ready).
	fire bool
	// conn is the granted connection g.
	conn int
	// cpl is what m_cpl loads on fire: g, psn = cum[g] - lag[g] and the handle RAM data at {g, psn}.
	cpl cplReg
}

// Step fills *out with this cycle's output ports (from the state at the start of the cycle and *in), then
// applies the rising clock edge that ends the cycle. Input values are truncated to their port widths, as the RTL
// would see them. Payload outputs whose valid is low carry stale but deterministic values.
//
// It follows docs/rx_reorder.md "Pipeline": the release decision on the start-of-cycle state, the ACK FIFO pop,
// stage 1 (one control operation or packet), the release's update, and the input handshake loading stage 1.
func (m *Model) Step(in *In, out *Out) {
	m.drivePorts(in, out)
	// rst clears open, lag, bitmap, ackcnt, pvalid, s1_valid, m_cpl_valid, the ACK FIFO, rr and the counters.
	if in.Rst {
		m.reset()
		return
	}

	rel := m.decideRelease(in.CplReady)
	// Pop on m_ack_valid && m_ack_ready (before stage 1 pushes: push and pop in one cycle keep the count).
	if out.AckValid && in.AckReady {
		m.head = (m.head + 1) & (len(m.fifo) - 1)
		m.count--
	}
	// Stage 1 on the state at the start of the cycle (the release decision only read it).
	if m.s1.valid {
		if m.s1.isCtl {
			m.control()
		} else {
			// The verdict of the packet in stage 1 (docs/rx_reorder.md "Verdict output").
			out.RxvValid = true
			out.RxvConn = m.s1.conn
			out.RxvPSN = m.s1.psn.Uint32()
			out.RxvCode = m.packet()
		}
	}
	m.updateRelease(in.CplReady, &rel)
	m.loadStage1(in, out)
}

// drivePorts drives the output ports (docs/rx_reorder.md "Input", "ACK output"): s_ctl_ready = !rst;
// s_pkt_ready = !rst && !s_ctl_valid && ack_room && lag_ok, where ack_room = (ack FIFO count <=
// ACK_FIFO_DEPTH-2) and lag_ok = (lag[c] <= WINDOW for every c); m_cpl_* is the completion output register;
// m_ack_* is the head of the ACK FIFO, m_ack_valid = (count != 0); the counters are registers.
func (m *Model) drivePorts(in *In, out *Out) {
	h := &m.fifo[m.head]
	*out = Out{
		PktReady:     !in.Rst && !in.CtlValid && m.count <= len(m.fifo)-2 && m.over == 0,
		CtlReady:     !in.Rst,
		CplValid:     m.cpl.valid,
		CplConn:      m.cpl.conn,
		CplPSN:       m.cpl.psn.Uint32(),
		CplFirst:     m.cpl.data.first,
		CplLast:      m.cpl.data.last,
		CplHandle:    m.cpl.data.handle,
		AckValid:     m.count != 0,
		AckConn:      h.conn,
		AckPSN:       h.psn.Uint32(),
		AckPath:      h.path,
		AckPseq:      h.pseq,
		AckSack:      h.sack,
		AckECN:       h.ecn,
		CntAccepted:  m.cntAccepted,
		CntDuplicate: m.cntDuplicate,
		CntOutOfWin:  m.cntOutOfWin,
		CntClosed:    m.cntClosed,
	}
}

// decideRelease decides the release on the start-of-cycle state: candidates rdy[c] = lag[c] != 0, except the
// connection of a control operation in stage 1 this cycle; grant the first candidate at or after rr (wrapping);
// fire when a candidate exists and (!m_cpl_valid || m_cpl_ready). On fire for g: psn = cum[g] - lag[g]; read
// handle RAM[{g, psn}].
func (m *Model) decideRelease(cplReady bool) release {
	var rel release
	if m.cpl.valid && !cplReady {
		return rel
	}
	exclude := -1
	if m.s1.valid && m.s1.isCtl {
		exclude = int(m.s1.conn)
	}
	g := m.arbitrate(exclude)
	if g < 0 {
		return rel
	}
	psn := m.cum[g].Add(-int32(m.lag[g]))
	rel.fire = true
	rel.conn = g
	rel.cpl = cplReg{valid: true, conn: uint32(g), psn: psn, data: m.handles[m.slotIndex(uint32(g), psn)]}
	return rel
}

// updateRelease applies the release after stage 1: on fire, next cycle m_cpl_valid=1 with g, psn and the RAM
// data; lag[g]--; rr = g+1 (mod CONNS). (With an accept on g in stage 1 this cycle, lag[g] is already lag+L, so
// it becomes lag+L-1.) Otherwise, if m_cpl_ready, m_cpl_valid drops; the output holds while valid && !ready.
func (m *Model) updateRelease(cplReady bool, rel *release) {
	if !rel.fire {
		if cplReady {
			m.cpl.valid = false
		}
		return
	}
	g := rel.conn
	m.setLag(g, m.lag[g]-1)
	m.rr = (g + 1) & int(m.connMask)
	m.cpl = rel.cpl
}

// loadStage1 applies the input handshake: one on either stream loads stage 1; at most one per cycle (s_pkt_ready
// is low while s_ctl_valid).
func (m *Model) loadStage1(in *In, out *Out) {
	switch {
	case in.CtlValid && out.CtlReady:
		m.s1 = stage1{
			valid: true,
			isCtl: true,
			open:  in.CtlOpen,
			conn:  in.CtlConn & m.connMask,
			psn:   seqnum.New(in.CtlPSN),
		}
	case in.PktValid && out.PktReady:
		m.s1 = stage1{
			valid:  true,
			conn:   in.PktConn & m.connMask,
			psn:    seqnum.New(in.PktPSN),
			path:   in.PktPath & m.pathMask,
			pseq:   m.pseq.Wrap(in.PktPseq),
			first:  in.PktFirst,
			last:   in.PktLast,
			ackReq: in.PktAckReq,
			ecn:    in.PktECN,
			handle: in.PktHandle & m.handleMask,
		}
	default:
		m.s1.valid = false
	}
}

// reset applies rst at the clock edge. cum and the RAM contents are not cleared (the doc leaves them alone; they
// are never read before written). Clearing the path state stands for clearing pvalid. The payload of the
// completion register and of the FIFO ring stays, as in the RTL: only the valids and pointers reset.
func (m *Model) reset() {
	clear(m.open)
	clear(m.bitmap)
	clear(m.lag)
	clear(m.ackcnt)
	clear(m.pending)
	m.over = 0
	clear(m.pnext)
	clear(m.psack)
	clear(m.pecn)
	m.s1.valid = false
	m.cpl.valid = false
	m.head = 0
	m.count = 0
	m.rr = 0
	m.cntAccepted = 0
	m.cntDuplicate = 0
	m.cntOutOfWin = 0
	m.cntClosed = 0
}

// control executes a control operation in stage 1.
func (m *Model) control() {
	c := int(m.s1.conn)
	// open:  open=1, cum=s_ctl_psn, bitmap=0, lag=0, ackcnt=0, all paths of c cleared (pvalid=0).
	// close: open=0, bitmap=0, lag=0, ackcnt=0, all paths cleared. Unreleased completions of c are discarded.
	// No ACK, no counter.
	m.open[c] = m.s1.open
	if m.s1.open {
		m.cum[c] = m.s1.psn
	}
	clear(m.bitmap[c*m.bmWords : (c+1)*m.bmWords])
	m.setLag(c, 0)
	m.ackcnt[c] = 0
	paths := int(m.pathMask) + 1
	clear(m.pnext[c*paths : (c+1)*paths])
	clear(m.psack[c*paths : (c+1)*paths])
	clear(m.pecn[c*paths : (c+1)*paths])
}

// packet executes a packet in stage 1 (docs/rx_reorder.md "Stage 1", steps 1 to 5) and returns its verdict
// (Verdict*).
func (m *Model) packet() uint32 {
	s := &m.s1
	c := int(s.conn)

	// 1. open[c]==0: drop, cnt_closed++. Nothing else changes; no ACK.
	if !m.open[c] {
		m.cntClosed++
		return VerdictClosed
	}
	cum := m.cum[c]
	// 2. Classify: accept, duplicate or out of window.
	accept, duplicate, d := m.classify(c)
	// 3. Path update of (c, p), for every class.
	pi := c*(int(m.pathMask)+1) + int(s.path)
	gap := m.pathUpdate(pi)

	// 4. Accept: b = bitmap | (1<<d); L = trailing ones of b; bitmap = b >> L; cum += L; lag += L;
	//    handle RAM[{c, psn}] = {first, last, handle}; cnt_accepted++.
	//    Duplicate: cnt_duplicate++. Out of window: cnt_out_of_window++.
	verdict := uint32(VerdictAccepted)
	switch {
	case accept:
		l := m.acceptBit(c, int(d))
		m.cum[c] = cum.Add(int32(l))
		m.setLag(c, m.lag[c]+uint32(l))
		m.handles[m.slotIndex(s.conn, s.psn)] = slot{first: s.first, last: s.last, handle: s.handle}
		m.cntAccepted++
	case duplicate:
		m.cntDuplicate++
		verdict = VerdictDuplicate
	default:
		m.cntOutOfWin++
		// 5. ACK decision: not for out of window.
		return VerdictOutOfWindow
	}
	// 5. ACK decision.
	m.ackDecision(c, pi, accept, duplicate, gap)
	return verdict
}

// classify is step 2 of a packet of connection c, with d = signed24(psn - cum[c]):
//
//	0 <= d < WINDOW and bitmap[c][d]==0: accept;
//	0 <= d < WINDOW and bit set, or -(2^23-1) <= d <= -1: duplicate;
//	otherwise (d >= WINDOW or d == -2^23): out of window.
//
// It returns d with the class.
func (m *Model) classify(c int) (accept, duplicate bool, d int32) {
	psn, cum := m.s1.psn, m.cum[c]
	d = psn.Sub(cum)
	switch {
	case psn.InWindow(cum, seqnum.Size(m.window)):
		if m.bitTest(c, int(d)) {
			duplicate = true
		} else {
			accept = true
		}
	case psn.IsDuplicate(cum):
		duplicate = true
	}
	return accept, duplicate, d
}

// pathUpdate is step 3 of a packet, on the path state at index pi (accept, duplicate and out of window alike),
// with e = signed(pseq - pnext) over PSEQ_WIDTH bits:
//
//	e >= 0: s = e+1; psack = (s >= SACK_BITS) ? 1 : (psack << s) | 1; pnext = pseq+1; gap = (e > 0).
//	e < 0 and -e-1 < SACK_BITS: set bit -e-1; gap = 0.
//	otherwise: too old, no change; gap = 0.
//	pecn |= s_pkt_ecn.
//
// It returns gap.
func (m *Model) pathUpdate(pi int) (gap bool) {
	s := &m.s1
	e := m.pseq.Sub(s.pseq, m.pnext[pi])
	switch {
	case e >= 0:
		switch sh := int(e) + 1; {
		case sh >= m.sackBits:
			m.psack[pi] = wide.One()
		case m.sackBits <= 64: // fast path, same result: the whole bitmap is in word 0
			m.psack[pi][0] = (m.psack[pi][0]<<uint(sh) | 1) & (^uint64(0) >> uint(64-m.sackBits))
		default:
			m.psack[pi] = m.psack[pi].Shl(sh, m.sackBits).Set(0)
		}
		m.pnext[pi] = m.pseq.Add(s.pseq, 1)
		gap = e > 0
	case int(-e-1) < m.sackBits:
		m.psack[pi] = m.psack[pi].Set(int(-e - 1))
	}
	m.pecn[pi] = m.pecn[pi] || s.ecn
	return gap
}

// ackDecision is step 5 of an accepted or duplicate packet of connection c on the path state at index pi:
// ack = ack_req || duplicate || gap || (accept && ackcnt+1 == ACK_EVERY). If ack: push {c, cum (after step 4),
// p, pnext, psack, pecn} (path values after step 3), then clear pecn of (c,p) and ackcnt[c]. Else if accept:
// ackcnt++.
func (m *Model) ackDecision(c, pi int, accept, duplicate, gap bool) {
	s := &m.s1
	if !s.ackReq && !duplicate && !gap && !(accept && int(m.ackcnt[c])+1 == m.cfg.AckEvery) {
		if accept {
			m.ackcnt[c]++
		}
		return
	}
	m.push(ackEntry{
		conn: s.conn,
		psn:  m.cum[c],
		path: s.path,
		pseq: m.pnext[pi],
		sack: m.psack[pi],
		ecn:  m.pecn[pi],
	})
	m.pecn[pi] = false
	m.ackcnt[c] = 0
}

// push appends e to the ACK FIFO. s_pkt_ready's ack_room keeps the FIFO from overflowing (at most one packet in
// flight besides the one in stage 1); were it full, the entry would overwrite the head, as a bare RAM ring would.
func (m *Model) push(e ackEntry) {
	m.fifo[(m.head+m.count)&(len(m.fifo)-1)] = e
	if m.count < len(m.fifo) {
		m.count++
	}
}

// slotIndex is the handle-RAM index of {c, psn[SLOT_W-1:0]}.
func (m *Model) slotIndex(c uint32, psn seqnum.PSN) int {
	return int(c)*(int(m.slotMask)+1) + int(psn.Uint32()&m.slotMask)
}

// setLag writes lag[c] (truncated to SLOT_W+1 bits) and keeps pending and over in step with it.
func (m *Model) setLag(c int, v uint32) {
	v &= m.lagMask
	if m.lag[c] > uint32(m.window) {
		m.over--
	}
	if v > uint32(m.window) {
		m.over++
	}
	m.lag[c] = v
	if v != 0 {
		m.pending[c>>6] |= 1 << (uint(c) & 63)
	} else {
		m.pending[c>>6] &^= 1 << (uint(c) & 63)
	}
}

// arbitrate returns the first connection at or after rr (wrapping) with lag != 0, skipping exclude; -1 if none.
func (m *Model) arbitrate(exclude int) int {
	n := len(m.pending)
	sw, sb := m.rr>>6, uint(m.rr)&63
	for i := 0; i <= n; i++ {
		w := (sw + i) % n
		b := m.pending[w]
		if exclude >= 0 && exclude>>6 == w {
			b &^= 1 << (uint(exclude) & 63)
		}
		switch i {
		case 0:
			b &= ^uint64(0) << sb
		case n:
			b &= 1<<sb - 1
		}
		if b != 0 {
			return w<<6 + bits.TrailingZeros64(b)
		}
	}
	return -1
}

// bitTest reports bitmap[c][d].
func (m *Model) bitTest(c, d int) bool {
	return m.bitmap[c*m.bmWords+(d>>6)]>>(uint(d)&63)&1 == 1
}

// acceptBit computes b = bitmap[c] | (1<<d), L = trailing ones of b, bitmap[c] = b >> L, and returns L (1..WINDOW).
// Bits at and above WINDOW are always zero, so the trailing-ones count never passes WINDOW.
func (m *Model) acceptBit(c, d int) int {
	bm := m.bitmap[c*m.bmWords : (c+1)*m.bmWords]
	bm[d>>6] |= 1 << (uint(d) & 63)
	l := 0
	for _, w := range bm {
		t := bits.TrailingZeros64(^w)
		l += t
		if t < 64 {
			break
		}
	}
	ws, bs := l>>6, uint(l)&63
	for i := range bm {
		var v uint64
		if src := i + ws; src < len(bm) {
			v = bm[src] >> bs
			if bs != 0 && src+1 < len(bm) {
				v |= bm[src+1] << (64 - bs)
			}
		}
		bm[i] = v
	}
	return l
}
