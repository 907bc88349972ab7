package pathsel

import (
	"math/bits"

	"github.com/spraynic/spraynic/config"
	"github.com/spraynic/spraynic/golden/wide"
)

// Reset and entropy constants of docs/path_sel.md.
const (
	// lfsrReset is the LFSR value after reset.
	lfsrReset = 0xACE1
	// lfsrTaps is the Galois feedback mask XORed in when the shifted-out bit is 1.
	lfsrTaps = 0xB400
	// entropyBase is OR-ed into every entropy: UDP source ports 0xC000..0xFFFF.
	entropyBase = 0xC000
	// entropyLow keeps the 14 variable bits of an entropy.
	entropyLow = 0x3FFF
	// e0Mult is the multiplier of E0(c,p).
	e0Mult = 997
	// consecMax is the saturation value of the 4-bit consec field.
	consecMax = 15
	// inflightMax is the saturation value of the 8-bit inflight field.
	inflightMax = 255
	// credMax is the saturation value of the 8-bit per-connection cred field.
	credMax = 255
)

// path is the flip-flop row of one (connection, path).
type path struct {
	// state is ACTIVE, SUSPECT, FAILED or PROBING (StateActive..StateProbing).
	state uint8
	// cwnd is the congestion window, fixed point 8.4 (12 bits); cwnd_int = cwnd >> 4.
	cwnd uint16
	// inflight is the number of packets in flight (8 bits).
	inflight uint8
	// consec is the number of consecutive losses/timeouts (4 bits, saturating at 15).
	consec uint8
	// guard is the number of delivered packets before another ECN decrease is allowed (8 bits).
	guard uint8
	// holdoff is the number of ticks a FAILED path still waits before it may be probed (8 bits).
	holdoff uint8
	// entropy is the UDP source port of the path.
	entropy uint16
	// decisions and losses are the per-path counters (16 bits, wrapping): decisions on the path, and lost or
	// timed-out packets reported for it.
	decisions, losses uint16
}

// room reports inflight < cwnd_int.
func (r *path) room() bool { return uint16(r.inflight) < r.cwnd>>4 }

// down reports state FAILED or PROBING.
func (r *path) down() bool { return r.state == StateFailed || r.state == StateProbing }

// request is the stage-1 request register.
type request struct {
	// valid is s1_valid: a request waits in stage 1.
	valid bool
	// conn is s_req_conn of the request.
	conn uint32
	// retx is s_req_retx.
	retx bool
	// avoid is s_req_avoid.
	avoid uint32
	// aged is s1_aged: the request has waited through a tick cycle without firing (starvation guard).
	aged bool
}

// decision is the m_sel output register.
type decision struct {
	// valid is m_sel_valid.
	valid bool
	// conn is m_sel_conn.
	conn uint32
	// path is m_sel_path.
	path uint32
	// entropy is m_sel_entropy: the path's entropy at the start of the deciding cycle.
	entropy uint32
	// probe is m_sel_probe.
	probe bool
}

// rdReg holds the registers of the status read port.
type rdReg struct {
	// state, cwnd, inflight and entropy are rd_state, rd_cwnd, rd_inflight and rd_entropy.
	state, cwnd, inflight, entropy uint32
	// allFailed is rd_all_failed.
	allFailed bool
	// decisions and losses are rd_decisions and rd_losses.
	decisions, losses uint32
}

// statusReg holds the m_status_* registers.
type statusReg struct {
	// allFailed is m_status_all_failed.
	allFailed bool
	// conn is m_status_conn.
	conn uint32
	// af is m_status_af: bit c = all_failed(c) (connections 0..wide.MaxBits-1; the port of a wider CONNS has no
	// Go value).
	af wide.Vec
}

// Model is the path_sel golden model. All storage is sized in New; Step does not allocate.
//
// Besides the flip-flops of the document it keeps per-connection bit masks derived from the path rows (the
// combinational act/sus/prb vectors of stage 1, the FAILED-or-PROBING vector of the status logic): every write to
// a row is followed by refresh, so the masks always equal what the RTL computes from the registers.
type Model struct {
	// cfg is the configuration the model was built for.
	cfg config.Config
	// paths is PATHS.
	paths int
	// connMask and pathMask truncate input ports to CONN_W and PATH_W bits.
	connMask, pathMask uint32
	// fullMask has the PATHS low bits set: every path of a connection.
	fullMask uint64
	// cwndInit is CWND_INIT<<4, cwndMax is CWND_MAX<<4 (8.4 fixed point).
	cwndInit, cwndMax uint16
	// ai is AI_16THS.
	ai uint32
	// failK is FAIL_K.
	failK uint8
	// holdoffTicks is HOLDOFF_TICKS.
	holdoffTicks uint8
	// tickLast is TICK_CYCLES-1, the tick counter value of a tick cycle.
	tickLast uint32

	// rows holds the row of (c,p) at index c*PATHS+p.
	rows []path
	// rr is rr[c], the round-robin pointer of each connection.
	rr []uint32
	// cred is cred[c] (8 bits): decisions made in a row on the path at rr[c] (window-weighted round robin).
	cred []uint8
	// lfsr is the 16-bit Galois LFSR, never zero.
	lfsr uint16
	// tick is the tick counter, 0..TICK_CYCLES-1.
	tick uint32
	// s1 is the stage-1 request register.
	s1 request
	// sel is the m_sel output register.
	sel decision

	// act is act[c] without the retx mask: bit p set when (c,p) is ACTIVE with room.
	act []uint64
	// sus is bit p set when (c,p) is SUSPECT with room.
	sus []uint64
	// prb is bit p set when (c,p) is FAILED with holdoff == 0.
	prb []uint64
	// down is bit p set when (c,p) is FAILED or PROBING.
	down []uint64
	// wait is bit p set when (c,p) is FAILED with holdoff > 0 (the paths a tick decrements).
	wait []uint64
	// nWait is the number of bits set over all wait masks: a tick cycle with none has nothing to do.
	nWait int
	// allDown has bit c set when all_failed(c): down[c] covers every path.
	allDown []uint64

	// rd holds the rd_* registers.
	rd rdReg
	// status holds the m_status_* registers.
	status statusReg

	// cntDecisions is cnt_decisions.
	cntDecisions uint32
	// cntProbes is cnt_probes.
	cntProbes uint32
	// cntFailures is cnt_failures.
	cntFailures uint32
	// cntRecoveries is cnt_recoveries.
	cntRecoveries uint32
}

// New returns a model of path_sel under cfg, in the reset state; it returns cfg.Validate's error.
func New(cfg config.Config) (*Model, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	m := &Model{
		cfg:          cfg,
		paths:        cfg.Paths,
		connMask:     uint32(cfg.Conns - 1),
		pathMask:     uint32(cfg.Paths - 1),
		fullMask:     ^uint64(0) >> uint(64-cfg.Paths),
		cwndInit:     uint16(cfg.CwndInit) << 4,
		cwndMax:      uint16(cfg.CwndMax) << 4,
		ai:           uint32(cfg.AI16ths),
		failK:        uint8(cfg.FailK),
		holdoffTicks: uint8(cfg.HoldoffTicks),
		tickLast:     uint32(cfg.TickCycles - 1),
		rows:         make([]path, cfg.Conns*cfg.Paths),
		rr:           make([]uint32, cfg.Conns),
		cred:         make([]uint8, cfg.Conns),
		act:          make([]uint64, cfg.Conns),
		sus:          make([]uint64, cfg.Conns),
		prb:          make([]uint64, cfg.Conns),
		down:         make([]uint64, cfg.Conns),
		wait:         make([]uint64, cfg.Conns),
		allDown:      make([]uint64, (cfg.Conns+63)/64),
	}
	m.reset()
	return m, nil
}

// Config returns the configuration the model was built for.
func (m *Model) Config() config.Config { return m.cfg }

// E0 returns the open-state entropy of path p of connection c under a configuration with the given number of
// paths: 16'hC000 | (((c*PATHS + p) * 997) mod 2^14).
func E0(paths int, c, p uint32) uint32 {
	return entropyBase | ((c*uint32(paths)+p)*e0Mult)&entropyLow
}

// lfsrNext returns the Galois LFSR after one step: lfsr = (lfsr >> 1) ^ (lfsr[0] ? 16'hB400 : 0).
func lfsrNext(lfsr uint32) uint32 {
	lfsr &= 0xFFFF
	if lfsr&1 != 0 {
		return lfsr>>1 ^ lfsrTaps
	}
	return lfsr >> 1
}

// s1Decision is the stage-1 decision of one cycle (docs/path_sel.md "Stage 1 decision"), on the start-of-cycle
// state.
type s1Decision struct {
	// fire is s1_fire = s1_valid && found && (!m_sel_valid || m_sel_ready).
	fire bool
	// path is the chosen path.
	path uint32
	// probe marks a probe.
	probe bool
	// entropy is the chosen path's start-of-cycle entropy (m_sel_entropy).
	entropy uint32
	// cwnd is the chosen path's start-of-cycle window (the quantum of the round robin).
	cwnd uint16
}

// Step fills *out with this cycle's output ports (from the state at the start of the cycle and *in), then
// applies the rising clock edge that ends the cycle. Input values are truncated to their port widths, as the RTL
// would see them. m_sel payload outputs whose valid is low carry stale but deterministic values.
//
// The updates follow docs/path_sel.md "Same cycle": the status registers (from the start-of-cycle state), the
// tick decrement, feedback, the stage-1 fire (on top of the feedback result), control (overrides all), and the
// stage-1 register.
func (m *Model) Step(in *In, out *Out) {
	s1 := m.decideStage1(in.SelReady)
	m.drivePorts(in, out, s1.fire)
	// Reset: every (c,p) in the open state, lfsr=16'hACE1, tick counter 0, no request held, m_sel_valid=0,
	// counters 0, rd_*/m_status_* registers 0.
	if in.Rst {
		m.reset()
		return
	}

	m.updateStatus(in)
	tickCycle := m.updateTick()
	// Feedback (s_fb handshake; s_fb_ready is 1 outside reset) on the tick result.
	if in.FbValid {
		m.feedback(in.FbConn&m.connMask, in.FbPath&m.pathMask, in.FbKind&3, in.FbCount&0xFF)
	}
	m.updateFire(in.SelReady, &s1)
	// Control (s_ctl handshake): every path of s_ctl_conn goes to the open state, rr and cred to 0; it wins over
	// the feedback and the stage-1 update of the same cycle (the decision itself is still emitted).
	// Read here as overriding the path flops, rr and cred only: a same-cycle failure still counts in cnt_failures
	// and keeps its LFSR step, a recovery its cnt_recoveries, the decision its cnt_decisions / cnt_probes.
	if in.CtlValid {
		m.open(int(in.CtlConn & m.connMask))
	}
	m.updateS1(in, out, s1.fire, tickCycle)
}

// decideStage1 takes the stage-1 decision for the request in S1 (decide) on the start-of-cycle state.
func (m *Model) decideStage1(selReady bool) s1Decision {
	var d s1Decision
	if !m.s1.valid {
		return d
	}
	var found bool
	d.path, d.probe, found = m.decide()
	d.fire = found && (!m.sel.valid || selReady)
	r := &m.rows[int(m.s1.conn)*m.paths+int(d.path)]
	d.entropy = uint32(r.entropy)
	d.cwnd = r.cwnd
	return d
}

// drivePorts drives the output ports: s_fb_ready = !rst, s_ctl_ready = !rst,
// s_req_ready = !rst && (!s1_valid || s1_fire); m_sel_*, rd_*, m_status_* and the counters are registers.
func (m *Model) drivePorts(in *In, out *Out, fire bool) {
	*out = Out{
		ReqReady:      !in.Rst && (!m.s1.valid || fire),
		SelValid:      m.sel.valid,
		SelConn:       m.sel.conn,
		SelPath:       m.sel.path,
		SelEntropy:    m.sel.entropy,
		SelProbe:      m.sel.probe,
		FbReady:       !in.Rst,
		CtlReady:      !in.Rst,
		RdState:       m.rd.state,
		RdCwnd:        m.rd.cwnd,
		RdInflight:    m.rd.inflight,
		RdEntropy:     m.rd.entropy,
		RdAllFailed:   m.rd.allFailed,
		RdDecisions:   m.rd.decisions,
		RdLosses:      m.rd.losses,
		StatusAllFail: m.status.allFailed,
		StatusConn:    m.status.conn,
		StatusAF:      m.status.af,
		CntDecisions:  m.cntDecisions,
		CntProbes:     m.cntProbes,
		CntFailures:   m.cntFailures,
		CntRecoveries: m.cntRecoveries,
	}
}

// updateStatus loads the status registers from the start-of-cycle state (docs/path_sel.md "Status"): rd_*
// register the state of (rd_conn, rd_path) and rd_all_failed = all_failed(rd_conn); m_status_all_failed /
// m_status_conn / m_status_af register any c / the lowest c with all_failed(c) / the vector of all_failed(c).
// Nothing else in the cycle reads these
// registers, so Step loads them before the cycle's other updates.
func (m *Model) updateStatus(in *In) {
	rdConn := in.RdConn & m.connMask
	rdPath := in.RdPath & m.pathMask
	r := &m.rows[int(rdConn)*m.paths+int(rdPath)]
	m.rd = rdReg{
		state:     uint32(r.state),
		cwnd:      uint32(r.cwnd),
		inflight:  uint32(r.inflight),
		entropy:   uint32(r.entropy),
		allFailed: m.allDown[rdConn>>6]>>(rdConn&63)&1 != 0,
		decisions: uint32(r.decisions),
		losses:    uint32(r.losses),
	}
	m.status.allFailed, m.status.conn = m.lowestAllDown()
	for w := 0; w < len(m.status.af) && w < len(m.allDown); w++ {
		m.status.af[w] = m.allDown[w]
	}
}

// updateTick moves the tick counter (docs/path_sel.md "Ticks") and reports a tick cycle (counter ==
// TICK_CYCLES-1), in which every FAILED path with holdoff > 0 decrements it, before feedback and stage 1 act on
// the path.
func (m *Model) updateTick() bool {
	if m.tick != m.tickLast {
		m.tick++
		return false
	}
	m.tickAll()
	m.tick = 0
	return true
}

// updateFire applies the stage-1 fire: m_sel loads {c, path, entropy of that path (start-of-cycle), probe};
// rr[c]/cred[c] move by the window-weighted round robin rule (advance, from the start-of-cycle window of the
// path); inflight[c][path] += 1 (saturating at 255) on top of the feedback result; if probe, state = PROBING (the
// path is still FAILED after feedback); cnt_decisions++, and cnt_probes++ for a probe.
// If not fire and m_sel_ready, m_sel_valid drops.
func (m *Model) updateFire(selReady bool, d *s1Decision) {
	if !d.fire {
		if selReady {
			m.sel.valid = false
		}
		return
	}
	c := m.s1.conn
	m.sel = decision{valid: true, conn: c, path: d.path, entropy: d.entropy, probe: d.probe}
	m.advance(c, d.path, d.probe, d.cwnd)
	r := &m.rows[int(c)*m.paths+int(d.path)]
	if r.inflight < inflightMax {
		r.inflight++
	}
	if d.probe && r.state == StateFailed {
		r.state = StateProbing
	}
	r.decisions++
	m.refresh(int(c), int(d.path))
	m.cntDecisions++
	if d.probe {
		m.cntProbes++
	}
}

// updateS1 updates the stage-1 register: a request handshake loads it (s1_aged cleared); a fire without a new
// request empties it; a request that waits through a tick cycle without firing is aged (s1_aged).
func (m *Model) updateS1(in *In, out *Out, fire, tickCycle bool) {
	switch {
	case in.ReqValid && out.ReqReady:
		m.s1 = request{valid: true, conn: in.ReqConn & m.connMask, retx: in.ReqRetx, avoid: in.ReqAvoid & m.pathMask}
	case fire:
		m.s1.valid = false
	case m.s1.valid && tickCycle:
		m.s1.aged = true
	}
}

// reset puts the model in its reset state.
func (m *Model) reset() {
	for c := range m.rr {
		m.open(c)
	}
	m.lfsr = lfsrReset
	m.tick = 0
	m.s1.valid = false
	m.sel.valid = false
	m.rd = rdReg{}
	m.status = statusReg{}
	m.cntDecisions = 0
	m.cntProbes = 0
	m.cntFailures = 0
	m.cntRecoveries = 0
}

// open puts every path of connection c in the open state and rr[c], cred[c] to 0:
// state=ACTIVE, cwnd=CWND_INIT<<4, inflight=0, consec=0, guard=0, holdoff=0, entropy=E0(c,p).
func (m *Model) open(c int) {
	rows := m.rows[c*m.paths : (c+1)*m.paths]
	for p := range rows {
		rows[p] = path{state: StateActive, cwnd: m.cwndInit, entropy: uint16(E0(m.paths, uint32(c), uint32(p)))}
	}
	m.rr[c] = 0
	m.cred[c] = 0
	// Every path ACTIVE with room (CWND_INIT >= 1, inflight 0).
	m.nWait -= bits.OnesCount64(m.wait[c])
	m.act[c] = m.fullMask
	m.sus[c] = 0
	m.prb[c] = 0
	m.down[c] = 0
	m.wait[c] = 0
	m.allDown[c>>6] &^= 1 << (uint(c) & 63)
}

// decide is the stage-1 decision for the request in S1, on the start-of-cycle state. For every path p of c,
// with room = inflight < cwnd_int:
//
//	act[p] = state==ACTIVE && room, sus[p] = state==SUSPECT && room, prb[p] = state==FAILED && holdoff==0
//	usable = act | sus; if retx and (usable & ~bit(avoid)) != 0: usable &= ~bit(avoid)
//	choice, first that applies:
//	  1. prb != 0 and (not retx or usable == 0): probe on rrpick(prb)
//	  2. (act & usable) != 0: rrpick(act & usable)
//	  3. (sus & usable) != 0: rrpick(sus & usable)
//	  4. none: found = 0
func (m *Model) decide() (p uint32, probe, found bool) {
	c := m.s1.conn
	act, sus, prb := m.act[c], m.sus[c], m.prb[c]
	usable := act | sus
	if m.s1.retx {
		if u := usable &^ (1 << m.s1.avoid); u != 0 {
			usable = u
		}
	}
	rr := m.rr[c]
	switch {
	case prb != 0 && (!m.s1.retx || usable == 0):
		return rrpick(prb, rr), true, true
	case act&usable != 0:
		return rrpick(act&usable, rr), false, true
	case sus&usable != 0:
		return rrpick(sus&usable, rr), false, true
	case m.s1.aged:
		// Starvation guard: any path that is not FAILED, whatever its window; if every path is FAILED, a probe.
		cand, probe := m.fullMask&^(m.prb[c]|m.wait[c]), false
		if cand == 0 {
			cand, probe = m.fullMask, true
		}
		if m.s1.retx {
			if u := cand &^ (1 << m.s1.avoid); u != 0 {
				cand = u
			}
		}
		return rrpick(cand, rr), probe, true
	}
	return 0, false, false
}

// advance moves rr[c] and cred[c] after a decision of connection c on path p (window-weighted round robin), with
// cwnd the start-of-cycle window of (c, p):
//
//	n = (p == rr[c]) ? cred[c] + 1 : 1 (saturating at 255); quantum = max(1, cwnd_int >> 2)
//	if probe or n >= quantum: rr[c] = p+1 (mod PATHS), cred[c] = 0; else rr[c] = p, cred[c] = n
func (m *Model) advance(c, p uint32, probe bool, cwnd uint16) {
	n := uint8(1)
	if p == m.rr[c] {
		n = m.cred[c]
		if n < credMax {
			n++
		}
	}
	quantum := max(1, cwnd>>4>>2)
	if probe || uint16(n) >= quantum {
		m.rr[c] = (p + 1) & m.pathMask
		m.cred[c] = 0
		return
	}
	m.rr[c] = p
	m.cred[c] = n
}

// rrpick returns the first set bit of mask (non-zero) at or after rr, wrapping.
func rrpick(mask uint64, rr uint32) uint32 {
	if hi := mask & (^uint64(0) << rr); hi != 0 {
		return uint32(bits.TrailingZeros64(hi))
	}
	return uint32(bits.TrailingZeros64(mask))
}

// lowestAllDown returns whether some connection has all_failed(c) (every path FAILED or PROBING), and the lowest
// such c (0 when none).
func (m *Model) lowestAllDown() (bool, uint32) {
	for w, v := range m.allDown {
		if v != 0 {
			return true, uint32(w<<6 + bits.TrailingZeros64(v))
		}
	}
	return false, 0
}

// tickAll is the tick-cycle effect: every FAILED path with holdoff > 0 decrements it.
func (m *Model) tickAll() {
	if m.nWait == 0 {
		return
	}
	for c, w := range m.wait {
		for w != 0 {
			p := bits.TrailingZeros64(w)
			w &= w - 1
			m.rows[c*m.paths+p].holdoff--
			m.refresh(c, p)
		}
	}
}

// feedback applies one s_fb handshake of kind on (c, p) with n = s_fb_count, on top of the tick decrement.
func (m *Model) feedback(c, p, kind, n uint32) {
	r := &m.rows[int(c)*m.paths+int(p)]
	// losses counts the packets of loss and timeout reports (16 bits, wrapping).
	if kind == FbLoss || kind == FbTimeout {
		r.losses += uint16(n)
	}
	switch kind {
	case FbDelivered:
		// inflight -= n (floor 0); cwnd = min(cwnd + n*AI_16THS, CWND_MAX<<4); guard -= n (floor 0);
		// if n > 0: consec = 0; SUSPECT -> ACTIVE; PROBING -> ACTIVE and cnt_recoveries++. FAILED stays FAILED.
		r.inflight = uint8(floorSub(uint32(r.inflight), n))
		r.cwnd = uint16(min(uint32(r.cwnd)+n*m.ai, uint32(m.cwndMax)))
		r.guard = uint8(floorSub(uint32(r.guard), n))
		if n > 0 {
			r.consec = 0
			switch r.state {
			case StateSuspect:
				r.state = StateActive
			case StateProbing:
				r.state = StateActive
				m.cntRecoveries++
			}
		}
	case FbECN:
		// If n > 0 and guard == 0: guard = cwnd_int (before the decrease), cwnd = max(cwnd >> 1, 16).
		if n > 0 && r.guard == 0 {
			r.guard = uint8(r.cwnd >> 4)
			r.cwnd = max(r.cwnd>>1, 16)
		}
	default: // FbLoss, FbTimeout
		// inflight -= n (floor 0). If n > 0:
		//   ACTIVE or SUSPECT: consec = min(consec + n, 15); if consec >= FAIL_K fail, else state = SUSPECT.
		//   PROBING: fail. FAILED: nothing more.
		r.inflight = uint8(floorSub(uint32(r.inflight), n))
		if n > 0 {
			switch r.state {
			case StateActive, StateSuspect:
				r.consec = uint8(min(uint32(r.consec)+n, consecMax))
				if r.consec >= m.failK {
					m.fail(r)
				} else {
					r.state = StateSuspect
				}
			case StateProbing:
				m.fail(r)
			}
		}
	}
	m.refresh(int(c), int(p))
}

// fail is the failure of a path: state = FAILED, inflight = 0, consec = 0, holdoff = HOLDOFF_TICKS (no tick
// decrement in the cycle of the failure), new entropy, cnt_failures++.
// New entropy: advance the LFSR one step first, then entropy = 16'hC000 | lfsr[13:0], and if that equals the
// path's old entropy, flip bit 0.
func (m *Model) fail(r *path) {
	r.state = StateFailed
	r.inflight = 0
	r.consec = 0
	r.holdoff = m.holdoffTicks
	m.lfsr = uint16(lfsrNext(uint32(m.lfsr)))
	e := entropyBase | m.lfsr&entropyLow
	if e == r.entropy {
		e ^= 1
	}
	r.entropy = e
	m.cntFailures++
}

// floorSub returns a - b, or 0 when b > a.
func floorSub(a, b uint32) uint32 {
	if b > a {
		return 0
	}
	return a - b
}

// refresh recomputes the derived mask bits of (c, p) from its row.
func (m *Model) refresh(c, p int) {
	r := &m.rows[c*m.paths+p]
	bit := uint64(1) << uint(p)
	room := r.room()
	m.act[c] = setBit(m.act[c], bit, r.state == StateActive && room)
	m.sus[c] = setBit(m.sus[c], bit, r.state == StateSuspect && room)
	m.prb[c] = setBit(m.prb[c], bit, r.state == StateFailed && r.holdoff == 0)
	waiting := r.state == StateFailed && r.holdoff > 0
	if was := m.wait[c]&bit != 0; was != waiting {
		if waiting {
			m.nWait++
		} else {
			m.nWait--
		}
		m.wait[c] ^= bit
	}
	m.down[c] = setBit(m.down[c], bit, r.down())
	m.allDown[c>>6] = setBit(m.allDown[c>>6], 1<<(uint(c)&63), m.down[c] == m.fullMask)
}

// setBit returns v with bit (a one-bit mask) set when on, cleared otherwise.
func setBit(v, bit uint64, on bool) uint64 {
	if on {
		return v | bit
	}
	return v &^ bit
}
