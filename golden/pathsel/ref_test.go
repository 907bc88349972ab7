package pathsel_test

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/spraynic/spraynic/config"
	"github.com/spraynic/spraynic/golden/pathsel"
	"github.com/spraynic/spraynic/golden/wide"
)

// refPath is one (connection, path) of the reference.
type refPath struct{ state, cwnd, inflight, consec, guard, holdoff, entropy, decisions, losses int }

// ref is a deliberately naive second reading of docs/path_sel.md: plain loops over every path, a copy of the
// whole state as "start of cycle", no derived masks. It checks the model's incremental bookkeeping, not the
// reading of the document (both were written by the same hand).
type ref struct {
	cfg  config.Config
	p    [][]refPath
	rr   []int
	cred []int
	lfsr int
	tick int
	s1   struct {
		valid, retx, aged bool
		conn, avoid       int
	}
	sel struct {
		valid, probe        bool
		conn, path, entropy int
	}
	regs    pathsel.Out // rd_*, m_status_* and counter registers
	started bool
}

func newRef(cfg config.Config) *ref {
	r := &ref{cfg: cfg, p: make([][]refPath, cfg.Conns), rr: make([]int, cfg.Conns), cred: make([]int, cfg.Conns)}
	for c := range r.p {
		r.p[c] = make([]refPath, cfg.Paths)
	}
	r.reset()
	return r
}

func (r *ref) reset() {
	for c := range r.p {
		r.open(c)
	}
	r.lfsr = 0xACE1
	r.tick = 0
	r.s1.valid = false
	r.sel.valid = false
	r.regs = pathsel.Out{}
}

func (r *ref) open(c int) {
	for p := range r.p[c] {
		r.p[c][p] = refPath{cwnd: r.cfg.CwndInit * 16, entropy: int(e0(r.cfg.Paths, uint32(c), uint32(p)))}
	}
	r.rr[c] = 0
	r.cred[c] = 0
}

func (r *ref) allFailed(p [][]refPath, c int) bool {
	for _, x := range p[c] {
		if x.state != pathsel.StateFailed && x.state != pathsel.StateProbing {
			return false
		}
	}
	return true
}

func (r *ref) step(in pathsel.In) pathsel.Out {
	cm, pm := r.cfg.Conns-1, r.cfg.Paths-1
	old := make([][]refPath, len(r.p))
	for c := range r.p {
		old[c] = slices.Clone(r.p[c])
	}
	found, probe, choice := false, false, 0
	if r.s1.valid {
		c := r.s1.conn
		var act, sus, prb []bool
		usable := make([]bool, r.cfg.Paths)
		others := false
		for _, x := range old[c] {
			room := x.inflight < x.cwnd>>4
			act = append(act, x.state == pathsel.StateActive && room)
			sus = append(sus, x.state == pathsel.StateSuspect && room)
			prb = append(prb, x.state == pathsel.StateFailed && x.holdoff == 0)
		}
		for p := range usable {
			usable[p] = act[p] || sus[p]
			if usable[p] && p != r.s1.avoid {
				others = true
			}
		}
		if r.s1.retx && others {
			usable[r.s1.avoid] = false
		}
		pick := func(m func(p int) bool) bool {
			for i := range r.cfg.Paths {
				if p := (r.rr[c] + i) % r.cfg.Paths; m(p) {
					choice, found = p, true
					return true
				}
			}
			return false
		}
		anyUsable := false
		for _, u := range usable {
			anyUsable = anyUsable || u
		}
		if (!r.s1.retx || !anyUsable) && pick(func(p int) bool { return prb[p] }) {
			probe = true
		} else if !pick(func(p int) bool { return act[p] && usable[p] }) &&
			!pick(func(p int) bool { return sus[p] && usable[p] }) && r.s1.aged {
			// Starvation guard: a path that is not FAILED (not the avoided one if another), else a probe anywhere.
			nf := func(p int) bool { return old[c][p].state != pathsel.StateFailed }
			allFailed := !pick(nf)
			probe = allFailed
			ok := func(p int) bool { return allFailed || nf(p) }
			if !(r.s1.retx && pick(func(p int) bool { return ok(p) && p != r.s1.avoid })) {
				pick(ok)
			}
		}
	}
	fire := r.s1.valid && found && (!r.sel.valid || in.SelReady)
	out := r.regs
	out.ReqReady = !in.Rst && (!r.s1.valid || fire)
	out.FbReady = !in.Rst
	out.CtlReady = !in.Rst
	out.SelValid = r.sel.valid
	out.SelConn = uint32(r.sel.conn)
	out.SelPath = uint32(r.sel.path)
	out.SelEntropy = uint32(r.sel.entropy)
	out.SelProbe = r.sel.probe
	if in.Rst {
		r.reset()
		return out
	}
	next := r.regs
	rc, rp := int(in.RdConn)&cm, int(in.RdPath)&pm
	x := old[rc][rp]
	next.RdState = uint32(x.state)
	next.RdCwnd = uint32(x.cwnd)
	next.RdInflight = uint32(x.inflight)
	next.RdEntropy = uint32(x.entropy)
	next.RdAllFailed = r.allFailed(old, rc)
	next.RdDecisions = uint32(x.decisions)
	next.RdLosses = uint32(x.losses)
	next.StatusAllFail = false
	next.StatusConn = 0
	next.StatusAF = wide.Vec{}
	for c := len(old) - 1; c >= 0; c-- {
		if r.allFailed(old, c) {
			next.StatusAllFail = true
			next.StatusConn = uint32(c)
			next.StatusAF = next.StatusAF.Set(c)
		}
	}
	tickCycle := r.tick == r.cfg.TickCycles-1
	if tickCycle {
		for c := range r.p {
			for p := range r.p[c] {
				if y := &r.p[c][p]; y.state == pathsel.StateFailed && y.holdoff > 0 {
					y.holdoff--
				}
			}
		}
	}
	r.tick = (r.tick + 1) % r.cfg.TickCycles
	if in.FbValid {
		y := &r.p[int(in.FbConn)&cm][int(in.FbPath)&pm]
		n := int(in.FbCount & 255)
		fail := func() {
			r.lfsr = r.lfsr>>1 ^ (r.lfsr & 1 * 0xB400)
			e := 0xC000 | r.lfsr&0x3FFF
			if e == y.entropy {
				e ^= 1
			}
			*y = refPath{state: pathsel.StateFailed, cwnd: y.cwnd, guard: y.guard, holdoff: r.cfg.HoldoffTicks,
				entropy: e, decisions: y.decisions, losses: y.losses}
			next.CntFailures++
		}
		switch in.FbKind & 3 {
		case pathsel.FbDelivered:
			y.inflight = max(y.inflight-n, 0)
			y.cwnd = min(y.cwnd+n*r.cfg.AI16ths, r.cfg.CwndMax*16)
			y.guard = max(y.guard-n, 0)
			if n > 0 {
				y.consec = 0
				if y.state == pathsel.StateProbing {
					next.CntRecoveries++
				}
				if y.state != pathsel.StateFailed {
					y.state = pathsel.StateActive
				}
			}
		case pathsel.FbECN:
			if n > 0 && y.guard == 0 {
				// One parallel assignment: guard takes cwnd_int before the decrease.
				y.guard, y.cwnd = y.cwnd>>4, max(y.cwnd>>1, 16)
			}
		default:
			y.inflight = max(y.inflight-n, 0)
			y.losses = (y.losses + n) & 0xFFFF
			if n > 0 {
				switch y.state {
				case pathsel.StateActive, pathsel.StateSuspect:
					y.consec = min(y.consec+n, 15)
					if y.consec >= r.cfg.FailK {
						fail()
					} else {
						y.state = pathsel.StateSuspect
					}
				case pathsel.StateProbing:
					fail()
				}
			}
		}
	}
	if fire {
		c := r.s1.conn
		r.sel.valid = true
		r.sel.conn = c
		r.sel.path = choice
		r.sel.probe = probe
		r.sel.entropy = old[c][choice].entropy
		n := 1
		if choice == r.rr[c] {
			n = min(r.cred[c]+1, 255)
		}
		if quantum := max(1, old[c][choice].cwnd/16/4); probe || n >= quantum {
			r.rr[c] = (choice + 1) % r.cfg.Paths
			r.cred[c] = 0
		} else {
			r.rr[c] = choice
			r.cred[c] = n
		}
		y := &r.p[c][choice]
		y.inflight = min(y.inflight+1, 255)
		y.decisions = (y.decisions + 1) & 0xFFFF
		if probe && y.state == pathsel.StateFailed {
			y.state = pathsel.StateProbing
		}
		next.CntDecisions++
		if probe {
			next.CntProbes++
		}
	} else if in.SelReady {
		r.sel.valid = false
	}
	if in.CtlValid {
		r.open(int(in.CtlConn) & cm)
	}
	if in.ReqValid && out.ReqReady {
		r.s1.valid = true
		r.s1.conn = int(in.ReqConn) & cm
		r.s1.retx = in.ReqRetx
		r.s1.avoid = int(in.ReqAvoid) & pm
		r.s1.aged = false
	} else if fire {
		r.s1.valid = false
	} else if r.s1.valid && tickCycle {
		r.s1.aged = true
	}
	r.regs = next
	return out
}

// TestRandomAgainstReference drives the model and the naive reference with the same random inputs (rare resets
// and reopens, feedback biased to the paths just decided, bursts of losses so that whole connections fail) and
// compares every output port every cycle (m_sel payload only while m_sel_valid).
func TestRandomAgainstReference(t *testing.T) {
	tests := []struct {
		name   string
		cfg    config.Config
		cycles int
		seed   uint64
	}{
		{name: "small", cfg: smallCfg(), cycles: 40000, seed: 1},
		{name: "two connections fail_k 1 tick 2", cfg: smallCfg(func(c *config.Config) {
			c.Conns = 2
			c.FailK = 1
			c.TickCycles = 2
			c.HoldoffTicks = 1
			c.CwndInit = 2
			c.CwndMax = 3
			c.AI16ths = 16
		}), cycles: 40000, seed: 2},
		{name: "two paths saturating counts", cfg: smallCfg(func(c *config.Config) {
			c.Conns = 2
			c.Paths = 2
			c.CwndInit = 255
			c.CwndMax = 255
			c.FailK = 15
			c.HoldoffTicks = 255
			c.TickCycles = 2
		}), cycles: 20000, seed: 3},
		{name: "64 paths", cfg: smallCfg(func(c *config.Config) {
			c.Conns = 2
			c.Paths = 64
			c.TickCycles = 4
			c.HoldoffTicks = 255
			c.FailK = 1
		}), cycles: 20000, seed: 4},
		{name: "128 connections", cfg: smallCfg(func(c *config.Config) {
			c.Conns = 128
			c.Paths = 2
			c.FailK = 1
			c.TickCycles = 128
		}), cycles: 20000, seed: 5},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(tc.seed, 0x5EED))
			m, err := pathsel.New(tc.cfg)
			require.NoError(t, err, "New")
			r := newRef(tc.cfg)
			conns, paths := uint32(tc.cfg.Conns), uint32(tc.cfg.Paths)
			hot := uint32(0) // connection most traffic goes to
			var in pathsel.In
			var got pathsel.Out
			var lastSel pathsel.Out
			lossy := false
			var seen struct{ probe, recovery, allFailed, rdAllFailed, fullStall bool }
			for cyc := range tc.cycles {
				in.Rst = cyc < 2 || rng.IntN(5000) == 0
				if rng.IntN(200) == 0 {
					hot = rng.Uint32N(conns)
					lossy = rng.IntN(3) == 0
				}
				if !in.ReqValid || got.ReqReady || rng.IntN(8) == 0 {
					in.ReqValid = rng.IntN(4) != 0
					in.ReqConn = hot
					if rng.IntN(4) == 0 {
						in.ReqConn = rng.Uint32N(conns)
					}
					in.ReqRetx = rng.IntN(4) == 0
					in.ReqAvoid = rng.Uint32N(paths)
				}
				in.SelReady = rng.IntN(5) != 0
				in.FbValid = rng.IntN(3) != 0
				in.FbConn = rng.Uint32N(conns)
				in.FbPath = rng.Uint32N(paths)
				if lastSel.SelValid && rng.IntN(2) == 0 {
					in.FbConn = lastSel.SelConn
					in.FbPath = lastSel.SelPath
				}
				in.FbKind = rng.Uint32N(4)
				if lossy && rng.IntN(2) == 0 {
					in.FbKind = pathsel.FbLoss
				}
				in.FbCount = []uint32{0, 1, 1, 1, 2, 3, 17, 255}[rng.IntN(8)]
				in.CtlValid = rng.IntN(700) == 0
				in.CtlConn = rng.Uint32N(conns)
				in.RdConn = hot
				in.RdPath = rng.Uint32N(paths)
				if rng.IntN(3) == 0 {
					in.RdConn = rng.Uint32N(conns)
				}
				want := r.step(in)
				m.Step(&in, &got)
				if !want.SelValid {
					got, want = noPayload(got), noPayload(want)
				}
				require.Equal(t, want, got, "cycle %d, inputs %+v", cyc, in)
				if got.SelValid && in.SelReady {
					lastSel = got
				}
				seen.probe = seen.probe || got.CntProbes != 0
				seen.recovery = seen.recovery || got.CntRecoveries != 0
				seen.allFailed = seen.allFailed || got.StatusAllFail
				seen.rdAllFailed = seen.rdAllFailed || got.RdAllFailed
				seen.fullStall = seen.fullStall || (!in.Rst && in.SelReady && !got.SelValid && !got.ReqReady)
			}
			require.Equal(t, [5]bool{true, true, true, true, true},
				[5]bool{seen.probe, seen.recovery, seen.allFailed, seen.rdAllFailed, seen.fullStall},
				"stimulus reached probes, recoveries, all-failed status, rd_all_failed and a held request")
		})
	}
}
