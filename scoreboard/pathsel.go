package scoreboard

import (
	"fmt"

	"github.com/spraynic/spraynic/config"
	"github.com/spraynic/spraynic/golden/pathsel"
	"github.com/spraynic/spraynic/golden/wide"
)

// pathSB is the scoreboard's own view of one (connection, path), kept from the feedback and decision streams.
type pathSB struct {
	// failed and probing are the exclusion states; consec counts losses/timeouts since the last delivery.
	failed, probing bool
	consec          int
	// inflight, cwnd (1/16 packets) and guard as the spec's AIMD defines them; holdoff in ticks.
	inflight, cwnd, guard, holdoff int
	// entropy is the last one seen on m_sel (seen says whether there is one); mustChange is set by a failure.
	entropy          uint32
	seen, mustChange bool
	// decisions counts decisions on the path (fairness).
	decisions int64
}

// selReq is a request waiting for its decision.
type selReq struct {
	// conn, retx and avoid are the request fields.
	conn, avoid uint32
	retx        bool
	// aged: the request waited in stage 1 through a tick cycle (the starvation guard applies).
	aged bool
}

// PathSel checks path_sel by its policy's invariants: no failed path except as a probe, never beyond a path's
// window, probes only after the hold-off and always once it is over, retransmissions avoid the losing path when
// another is usable, a failed path comes back with a new entropy and keeps it otherwise, no request waits while a
// path is usable, the all-failed status, the counters, and round-robin fairness on healthy paths.
type PathSel struct {
	// cfg is the configuration; fair enables the fairness check.
	cfg  config.Config
	fair bool
	// paths is [conn][path]; reqs the requests in order; phase the tick counter.
	paths [][]pathSB
	reqs  []selReq
	phase int
	// prevIn, prevOut hold the cycle not yet processed; have says whether there is one.
	prevIn  pathsel.In
	prevOut pathsel.Out
	have    bool
	// decisions, probes, failures, recoveries are the expected counters.
	decisions, probes, failures, recoveries uint32
	// Failures and Probes count what happened (for reports).
	Failures, Probes int64
	// steady counts the decisions the fairness check judged.
	steady int64
}

// NewPathSel returns a checker; fair asks for the fairness bound (healthy traffic only).
func NewPathSel(cfg config.Config, fair bool) *PathSel {
	s := &PathSel{cfg: cfg, fair: fair}
	s.reset()
	return s
}

func (s *PathSel) reset() {
	s.paths = make([][]pathSB, s.cfg.Conns)
	for c := range s.paths {
		s.paths[c] = make([]pathSB, s.cfg.Paths)
		s.open(c)
	}
	s.reqs = s.reqs[:0]
	s.phase = 0
	s.decisions = 0
	s.probes = 0
	s.failures = 0
	s.recoveries = 0
}

func (s *PathSel) open(c int) {
	for p := range s.paths[c] {
		d := s.paths[c][p].decisions
		s.paths[c][p] = pathSB{cwnd: s.cfg.CwndInit * 16, decisions: d}
	}
}

// Observe takes cycle t and judges cycle t-1, whose decision is visible now.
func (s *PathSel) Observe(cycle int64, in *pathsel.In, out *pathsel.Out) error {
	var err error
	if s.have {
		err = s.process(cycle-1, &s.prevIn, &s.prevOut, out)
	}
	s.prevIn = *in
	s.prevOut = *out
	s.have = true
	return err
}

func (p *pathSB) room() bool { return p.inflight < p.cwnd>>4 }

// process judges cycle k: in and out are its ports, next the outputs of cycle k+1 (the decision S1 made in k,
// the status and counters after k). It checks the status, the decision and the counters and then applies the
// effects of cycle k to the scoreboard's state.
func (s *PathSel) process(k int64, in *pathsel.In, out, next *pathsel.Out) error {
	if in.Rst {
		if out.ReqReady || out.FbReady || out.CtlReady {
			return fmt.Errorf("cycle %d: a ready is high during reset", k)
		}
		s.reset()
		return nil
	}
	if err := s.checkStatus(k, next); err != nil {
		return err
	}
	fired := next.SelValid && (!out.SelValid || in.SelReady)
	if err := s.decision(k, fired, !out.SelValid || in.SelReady, next); err != nil {
		return err
	}
	if !fired && len(s.reqs) > 0 && s.phase == s.cfg.TickCycles-1 {
		s.reqs[0].aged = true
	}
	if in.ReqValid && out.ReqReady {
		s.reqs = append(s.reqs, selReq{conn: in.ReqConn, retx: in.ReqRetx, avoid: in.ReqAvoid})
	}
	// Effects of cycle k in the spec's order: tick, feedback, the decision, control.
	s.tick()
	if in.FbValid && out.FbReady {
		s.feedback(&s.paths[in.FbConn][in.FbPath], in.FbKind, int(in.FbCount))
	}
	if fired {
		s.decided(next)
	}
	if in.CtlValid && out.CtlReady {
		s.open(int(in.CtlConn))
	}
	return s.checkCounters(k, next)
}

// checkStatus checks m_status_all_failed / m_status_conn / m_status_af of cycle k+1 (next), which show the state
// at the start of cycle k: whether a connection has every path failed or probing, the lowest such connection, and
// per connection whether it has (connections 0..wide.MaxBits-1, the bits a Go value holds).
func (s *PathSel) checkStatus(k int64, next *pathsel.Out) error {
	anyAll, lowest := false, uint32(0)
	var af wide.Vec
	for c := len(s.paths) - 1; c >= 0; c-- {
		all := true
		for p := range s.paths[c] {
			all = all && (s.paths[c][p].failed || s.paths[c][p].probing)
		}
		if all {
			anyAll = true
			lowest = uint32(c)
			if c < wide.MaxBits {
				af = af.Set(c)
			}
		}
	}
	if next.StatusAllFail != anyAll || (anyAll && next.StatusConn != lowest) {
		return fmt.Errorf("cycle %d: m_status_all_failed/conn = %v/%d, expected %v/%d",
			k+1, next.StatusAllFail, next.StatusConn, anyAll, lowest)
	}
	if next.StatusAF != af {
		return fmt.Errorf("cycle %d: m_status_af = %x, expected %x", k+1, next.StatusAF, af)
	}
	return nil
}

// tick advances the tick counter by one cycle; in the last cycle of a tick every failed path's hold-off counts
// down by one.
func (s *PathSel) tick() {
	if s.phase == s.cfg.TickCycles-1 {
		for c := range s.paths {
			for p := range s.paths[c] {
				if ps := &s.paths[c][p]; ps.failed && ps.holdoff > 0 {
					ps.holdoff--
				}
			}
		}
	}
	s.phase = (s.phase + 1) % s.cfg.TickCycles
}

// decided applies a decision shown on m_sel (next): one more packet in flight on the path, and a probe moves a
// failed path to probing.
func (s *PathSel) decided(next *pathsel.Out) {
	ps := &s.paths[next.SelConn][next.SelPath]
	ps.inflight = min(ps.inflight+1, 255)
	s.decisions++
	if next.SelProbe {
		ps.failed = false
		ps.probing = true
		s.probes++
		s.Probes++
	}
}

// checkCounters compares the counters of cycle k+1 (next) with the expected ones after cycle k.
func (s *PathSel) checkCounters(k int64, next *pathsel.Out) error {
	got := [4]uint32{next.CntDecisions, next.CntProbes, next.CntFailures, next.CntRecoveries}
	if want := [4]uint32{s.decisions, s.probes, s.failures, s.recoveries}; got != want {
		return fmt.Errorf("cycle %d: counters decisions/probes/failures/recoveries = %v, expected %v", k+1, got, want)
	}
	return nil
}

// selChoice is what the policy allows for one request, judged from the state at the start of its cycle.
type selChoice struct {
	// act are the active paths with room (no loss since the last delivery), sus the suspect ones with room, prb
	// the failed paths past their hold-off (probe-ready).
	act, sus, prb uint64
	// usable is act|sus, without the avoided path of a retransmission when another remains; mayProbe says a
	// probe is allowed (a failed path is ready and the request is new, or nothing is usable).
	usable   uint64
	mayProbe bool
	// guard are the paths the starvation guard allows (0: the guard does not apply), guardProbe whether it
	// probes; possible says the request can be decided in this cycle.
	guard      uint64
	guardProbe bool
	possible   bool
}

// choices classifies the paths of request r's connection and works out what the policy allows for it.
func (s *PathSel) choices(r selReq) selChoice {
	paths := s.paths[r.conn]
	var ch selChoice
	for p := range paths {
		ps := &paths[p]
		switch {
		case ps.failed:
			if ps.holdoff == 0 {
				ch.prb |= 1 << p
			}
		case ps.probing:
		case ps.room() && ps.consec == 0:
			ch.act |= 1 << p
		case ps.room():
			ch.sus |= 1 << p
		}
	}
	ch.usable = ch.act | ch.sus
	if r.retx && ch.usable&^(1<<r.avoid) != 0 {
		ch.usable &^= 1 << r.avoid
	}
	ch.mayProbe = ch.prb != 0 && (!r.retx || ch.usable == 0)
	ch.possible = ch.usable != 0 || ch.mayProbe
	if !ch.possible && r.aged {
		s.starvationGuard(r, &ch)
	}
	return ch
}

// starvationGuard applies to an aged request with nothing usable: it takes any path that is not FAILED, whatever
// its window (not the avoided one for a retransmission if another remains), or probes any path if all are FAILED.
func (s *PathSel) starvationGuard(r selReq, ch *selChoice) {
	paths := s.paths[r.conn]
	for p := range paths {
		if !paths[p].failed {
			ch.guard |= 1 << p
		}
	}
	if ch.guard == 0 {
		ch.guard = 1<<len(paths) - 1
		ch.guardProbe = true
	}
	if r.retx && ch.guard&^(1<<r.avoid) != 0 {
		ch.guard &^= 1 << r.avoid
	}
	ch.possible = true
}

// decision judges the decision S1 made in cycle k (fired), against the state at the start of k: a request waits
// only while nothing is possible (or m_sel is held), and a decision takes an allowed path with the right entropy.
func (s *PathSel) decision(k int64, fired, outFree bool, next *pathsel.Out) error {
	if len(s.reqs) == 0 {
		if fired {
			return fmt.Errorf("cycle %d: a decision without a request", k)
		}
		return nil
	}
	r := s.reqs[0]
	ch := s.choices(r)
	if !fired {
		if ch.possible && outFree {
			return fmt.Errorf("cycle %d: request for conn %d waits although a path is usable "+
				"(usable %#x, probe-ready %#x, aged %v)", k, r.conn, ch.usable, ch.prb, r.aged)
		}
		return nil
	}
	s.reqs = s.reqs[1:]
	if next.SelConn != r.conn {
		return fmt.Errorf("cycle %d: decision for conn %d, the request was for conn %d", k, next.SelConn, r.conn)
	}
	if err := checkPath(k, r, &ch, next); err != nil {
		return err
	}
	ps := &s.paths[r.conn][next.SelPath]
	if err := checkEntropy(k, r, ps, next); err != nil {
		return err
	}
	ps.entropy = next.SelEntropy
	ps.seen = true
	ps.mustChange = false
	s.countFair(r.conn, ps)
	return nil
}

// checkPath checks that the path (and probe flag) of decision next is one the policy allows for request r.
func checkPath(k int64, r selReq, ch *selChoice, next *pathsel.Out) error {
	p := next.SelPath
	switch {
	case ch.guard != 0:
		if ch.guard&(1<<p) == 0 || next.SelProbe != ch.guardProbe {
			return fmt.Errorf("cycle %d: conn %d starvation guard chose path %d probe %v, allowed paths %#x probe %v",
				k, r.conn, p, next.SelProbe, ch.guard, ch.guardProbe)
		}
	case next.SelProbe:
		if !ch.mayProbe || ch.prb&(1<<p) == 0 {
			return fmt.Errorf("cycle %d: probe on conn %d path %d: not a failed path past its hold-off, "+
				"or a retransmission with a usable path (retx %v, usable %#x, probe-ready %#x)",
				k, r.conn, p, r.retx, ch.usable, ch.prb)
		}
	case ch.mayProbe:
		return fmt.Errorf("cycle %d: conn %d has failed paths past their hold-off (%#x) but was not probed",
			k, r.conn, ch.prb)
	case ch.usable&(1<<p) == 0:
		return fmt.Errorf("cycle %d: conn %d path %d chosen but not usable (failed, probing, at its window, "+
			"or the avoided path %d with another usable; usable %#x)", k, r.conn, p, r.avoid, ch.usable)
	case ch.act&ch.usable != 0 && ch.act&(1<<p) == 0:
		return fmt.Errorf("cycle %d: conn %d path %d is suspect while active paths %#x had room",
			k, r.conn, p, ch.act&ch.usable)
	}
	return nil
}

// checkEntropy checks decision next's entropy on path ps: a new one after a failure, the same one otherwise.
func checkEntropy(k int64, r selReq, ps *pathSB, next *pathsel.Out) error {
	p := next.SelPath
	switch {
	case ps.mustChange && ps.seen && next.SelEntropy == ps.entropy:
		return fmt.Errorf("cycle %d: conn %d path %d failed but kept its entropy %#x", k, r.conn, p, ps.entropy)
	case !ps.mustChange && ps.seen && next.SelEntropy != ps.entropy:
		return fmt.Errorf("cycle %d: conn %d path %d changed entropy %#x -> %#x without a failure",
			k, r.conn, p, ps.entropy, next.SelEntropy)
	}
	return nil
}

// countFair counts a decision on path ps of connection conn for the fairness check, which judges steady state
// only: every path of the connection at CWND_MAX, so all quanta are equal.
func (s *PathSel) countFair(conn uint32, ps *pathSB) {
	paths := s.paths[conn]
	steady := true
	for q := range paths {
		steady = steady && paths[q].cwnd == s.cfg.CwndMax*16
	}
	if s.fair && steady {
		ps.decisions++
		s.steady++
	}
}

func (s *PathSel) feedback(ps *pathSB, kind uint32, n int) {
	switch kind {
	case pathsel.FbDelivered:
		ps.inflight = max(0, ps.inflight-n)
		ps.cwnd = min(ps.cwnd+n*s.cfg.AI16ths, s.cfg.CwndMax*16)
		ps.guard = max(0, ps.guard-n)
		if n > 0 {
			ps.consec = 0
			if ps.probing {
				ps.probing = false
				s.recoveries++
			}
		}
	case pathsel.FbECN:
		if n > 0 && ps.guard == 0 {
			ps.guard = ps.cwnd >> 4
			ps.cwnd = max(ps.cwnd>>1, 16)
		}
	default: // loss, timeout
		ps.inflight = max(0, ps.inflight-n)
		if n == 0 || ps.failed {
			return
		}
		if !ps.probing {
			ps.consec = min(ps.consec+n, 15)
			if ps.consec < s.cfg.FailK {
				return
			}
		}
		*ps = pathSB{failed: true, cwnd: ps.cwnd, guard: ps.guard, holdoff: s.cfg.HoldoffTicks,
			entropy: ps.entropy, seen: ps.seen, mustChange: true, decisions: ps.decisions}
		s.failures++
		s.Failures++
	}
}

// Finish checks the fairness bound when asked: in steady state (every path of the connection at CWND_MAX, so every
// quantum is CWND_MAX/4), decisions of a connection over its healthy paths differ by at most one quantum: whole
// turns of the weighted round robin plus one partial turn at the start and one at the end.
func (s *PathSel) Finish() error {
	if !s.fair {
		return nil
	}
	if s.steady == 0 {
		return fmt.Errorf("fairness: no decision was made in steady state (all windows at cwnd_max); " +
			"the run is too short to judge")
	}
	bound := int64(max(1, s.cfg.CwndMax/4))
	for c := range s.paths {
		total := int64(0)
		for p := range s.paths[c] {
			total += s.paths[c][p].decisions
		}
		if total == 0 {
			continue // a connection that never reached steady state
		}
		lo, hi := int64(-1), int64(0)
		for p := range s.paths[c] {
			n := s.paths[c][p].decisions
			if lo < 0 || n < lo {
				lo = n
			}
			hi = max(hi, n)
		}
		if hi-lo > bound {
			return fmt.Errorf("conn %d: decisions per path range %d..%d on healthy paths "+
				"(weighted round robin allows %d)", c, lo, hi, bound)
		}
	}
	return nil
}
