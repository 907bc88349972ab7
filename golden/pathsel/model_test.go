package pathsel_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/spraynic/spraynic/config"
	"github.com/spraynic/spraynic/golden/pathsel"
	"github.com/spraynic/spraynic/golden/wide"
)

func TestNewRejectsBadConfig(t *testing.T) {
	tests := []struct {
		name string
		edit func(*config.Config)
	}{
		{name: "paths not a power of two", edit: func(c *config.Config) { c.Paths = 6 }},
		{name: "paths above 64", edit: func(c *config.Config) { c.Paths = 128 }},
		{name: "tick cycles zero", edit: func(c *config.Config) { c.TickCycles = 0 }},
		{name: "cwnd init above max", edit: func(c *config.Config) { c.CwndInit = 5 }},
		{name: "ai above 16", edit: func(c *config.Config) { c.AI16ths = 17 }},
		{name: "fail k above 15", edit: func(c *config.Config) { c.FailK = 16 }},
		{name: "holdoff zero", edit: func(c *config.Config) { c.HoldoffTicks = 0 }},
		{name: "zero config", edit: func(c *config.Config) { *c = config.Config{} }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cfg := smallCfg(tc.edit)
			m, err := pathsel.New(cfg)
			require.Error(t, err, "New must reject %+v", cfg)
			require.Nil(t, m, "no model on error")
		})
	}
}

// TestPipeline: back-to-back requests are accepted every cycle and each is decided 2 cycles after its
// handshake, round robin over the paths with a pointer per connection; cnt_decisions shows each m_sel load in
// the same cycle as m_sel (it is incremented at the same edge).
func TestPipeline(t *testing.T) {
	tests := []struct {
		name  string
		conns []uint32 // connection of each request
		want  []uint32 // path of each decision
	}{
		// default: CWND_INIT 16, so the quantum is 4 decisions per path
		{name: "one connection repeats each path quantum times", conns: []uint32{1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1},
			want: []uint32{0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2}},
		{name: "connections keep their own pointer and credit", conns: []uint32{0, 0, 0, 3, 0, 3, 0, 3},
			want: []uint32{0, 0, 0, 0, 0, 0, 1, 0}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b := newTB(t, presetCfg(t, "default"))
			var want []sel
			for i, c := range tc.conns {
				require.Equal(t, i, b.req(c, false, 0), "request %d accepted in cycle %d", i, i)
				require.Equal(t, uint32(len(b.sels)), b.out.CntDecisions, "cycle %d: cnt_decisions", b.cycle-1)
				want = append(want, sel{cycle: i + 2, conn: c, path: tc.want[i], entropy: e0(8, c, tc.want[i])})
			}
			for range 3 {
				b.step()
				require.Equal(t, uint32(len(b.sels)), b.out.CntDecisions, "cycle %d: cnt_decisions", b.cycle-1)
			}
			require.Equal(t, want, b.sels, "one decision per cycle, 2 cycles after each request")
			require.Zero(t, b.out.CntProbes, "no probes")
		})
	}
}

// TestBackpressure: m_sel holds while !m_sel_ready, the next decision waits in S1 (s1_fire needs the output
// free), s_req_ready drops in the same cycle, and everything moves again the cycle m_sel_ready returns.
func TestBackpressure(t *testing.T) {
	cfg := presetCfg(t, "default")
	cfg.CwndInit = 4 // quantum 1: one decision per path, so the order shows in the paths
	b := newTB(t, cfg)
	b.req(0, false, 0) // A, cycle 0
	b.req(0, false, 0) // B, cycle 1: A fires in the same cycle
	b.in.SelReady = false
	b.drive(0, false, 0) // C
	for c := 2; c <= 4; c++ {
		o := b.step()
		require.True(t, o.SelValid, "cycle %d: A on m_sel", c)
		require.False(t, o.ReqReady, "cycle %d: B cannot fire into a full m_sel, so s_req_ready is low", c)
		require.Equal(t, uint32(1), o.CntDecisions, "cycle %d: only A decided", c)
	}
	b.in.SelReady = true
	o := b.step() // cycle 5: A leaves, B fires, C is accepted
	require.True(t, o.ReqReady, "cycle 5: s_req_ready follows s1_fire")
	b.in.ReqValid = false
	b.idle(3)
	require.Equal(t, []sel{
		{cycle: 5, conn: 0, path: 0, entropy: e0(8, 0, 0)},
		{cycle: 6, conn: 0, path: 1, entropy: e0(8, 0, 1)},
		{cycle: 7, conn: 0, path: 2, entropy: e0(8, 0, 2)},
	}, b.sels, "decisions in order, none lost")
}

// TestWindow: a path at its window is skipped; with every path at its window the request is held in S1 and
// s_req_ready stays low; delivered feedback frees room and the held request is decided the next cycle.
func TestWindow(t *testing.T) {
	// 4 paths, CWND_INIT 1, AI 4/16; ticks far apart, so the starvation guard stays out of the way.
	b := newTB(t, smallCfg(func(c *config.Config) { c.TickCycles = 1000 }))
	for range 4 {
		b.req(0, false, 0) // paths 0..3, each now at its window
	}
	e := b.req(0, false, 0)
	require.Equal(t, 4, e, "fifth request accepted while the fourth fires")
	b.drive(0, false, 0) // sixth request
	for range 6 {
		o := b.step()
		require.False(t, o.ReqReady, "cycle %d: every path at its window, request held", b.cycle-1)
	}
	require.Len(t, b.sels, 4, "no decision while every path is full")

	b.driveFb(0, 2, pathsel.FbDelivered, 1)
	f := b.cycle
	require.False(t, b.step().ReqReady, "cycle %d: the decision uses the start-of-cycle state", f)
	b.in.FbValid = false
	require.True(t, b.step().ReqReady, "cycle %d: held request fires, sixth accepted", f+1)
	b.in.ReqValid = false
	b.step()
	require.Equal(t, sel{cycle: f + 2, conn: 0, path: 2, entropy: e0(4, 0, 2)}, b.sels[4],
		"paths 0 and 1 (full) skipped from rr=0, freed path 2 chosen")
	b.idle(4)
	require.Len(t, b.sels, 5, "sixth request waits again")
	require.Equal(t, view{state: pathsel.StateActive, cwnd: 16 + 4, inflight: 1, entropy: e0(4, 0, 2)}, b.read(0, 2),
		"path 2: inflight 1-1+1, cwnd + AI")
}

// TestWeightedRoundRobin: the pointer stays on a path for quantum = max(1, cwnd_int >> 2) decisions in a row,
// the quantum taken from the chosen path's start-of-cycle window; a probe always moves the pointer on; control
// clears the credit with rr. Conn 0 of smallCfg with CWND_INIT 8 (quantum 2), CWND_MAX 16.
func TestWeightedRoundRobin(t *testing.T) {
	cfg := smallCfg(func(c *config.Config) { c.CwndInit = 8; c.CwndMax = 16 })
	t.Run("each path its own quantum", func(t *testing.T) {
		b := newTB(t, cfg)
		b.fb(0, 1, pathsel.FbECN, 1) // path 1: cwnd_int 4, quantum 1
		for range 8 {
			b.req(0, false, 0)
		}
		b.idle(2)
		require.Equal(t, []uint32{0, 0, 1, 2, 2, 3, 3, 0}, b.paths(0), "quanta 2, 1, 2, 2")
	})
	t.Run("quantum from the start-of-cycle window", func(t *testing.T) {
		b := newTB(t, cfg)
		b.req(0, false, 0)
		b.fb(0, 0, pathsel.FbECN, 1) // the request decides path 0 in this cycle: quantum 2, not the new 1
		for range 2 {
			b.req(0, false, 0)
		}
		b.idle(2)
		require.Equal(t, []uint32{0, 0, 1}, b.paths(0), "second decision on path 0, then quantum 1 moves on")
	})
	t.Run("a probe moves the pointer on", func(t *testing.T) {
		b := newTB(t, cfg)
		b.fail(0, 0)
		b.idle(4 * 3)
		b.req(0, false, 0)
		b.idle(2)
		b.fb(0, 0, pathsel.FbDelivered, 1) // recovery: path 0 usable again
		b.req(0, false, 0)
		b.idle(2)
		require.Equal(t, []uint32{0, 1}, b.paths(0), "rr at 1 after the probe, not back on path 0")
		require.Equal(t, []bool{true, false}, []bool{b.sels[0].probe, b.sels[1].probe}, "the first was the probe")
	})
	t.Run("control clears the credit", func(t *testing.T) {
		b := newTB(t, cfg)
		b.req(0, false, 0)
		b.idle(2) // rr 0, cred 1
		b.ctl(0)
		for range 3 {
			b.req(0, false, 0)
		}
		b.idle(2)
		require.Equal(t, []uint32{0, 0, 0, 1}, b.paths(0), "a full quantum on path 0 after the reopen")
	})
}

// TestChoice: the stage-1 choice among ACTIVE, SUSPECT and probe-able paths, with and without retx/avoid. Conn 0
// of smallCfg (4 paths, CWND_INIT 1, FAIL_K 2); "fill" puts one packet on each path (rr back to 0), "free p"
// delivers it.
func TestChoice(t *testing.T) {
	fill := func(b *tb) {
		for range 4 {
			b.req(0, false, 0)
		}
		b.idle(2)
	}
	free := func(b *tb, ps ...uint32) {
		for _, p := range ps {
			b.fb(0, p, pathsel.FbDelivered, 1)
		}
	}
	suspect := func(b *tb, p uint32) { b.fb(0, p, pathsel.FbLoss, 1) }
	failed := func(b *tb, ps ...uint32) {
		for _, p := range ps {
			b.fail(0, p)
		}
		b.idle(4 * 3) // TICK_CYCLES * HOLDOFF_TICKS: every hold-off is over
	}
	tests := []struct {
		name  string
		setup func(*tb)
		retx  bool
		avoid uint32
		path  uint32
		probe bool
	}{
		{name: "ACTIVE before SUSPECT at rr", setup: func(b *tb) { fill(b); suspect(b, 0); free(b, 3) }, path: 3},
		{name: "SUSPECT when no ACTIVE has room", setup: func(b *tb) { fill(b); suspect(b, 1) }, path: 1},
		{name: "retx avoid honoured", setup: func(b *tb) { fill(b); free(b, 0, 2) }, retx: true, avoid: 0, path: 2},
		{name: "retx avoid beats ACTIVE preference", setup: func(b *tb) { fill(b); free(b, 0); suspect(b, 1) },
			retx: true, avoid: 0, path: 1},
		{name: "avoid ignored without retx", setup: func(b *tb) { fill(b); free(b, 0, 2) }, avoid: 0, path: 0},
		{name: "retx avoid ignored when nothing else usable", setup: func(b *tb) { fill(b); free(b, 2) },
			retx: true, avoid: 2, path: 2},
		{name: "retx avoid ignored when the others are failed", setup: func(b *tb) { failed(b, 1, 2, 3) },
			retx: true, avoid: 0, path: 0},
		{name: "probe before ACTIVE", setup: func(b *tb) { failed(b, 2) }, path: 2, probe: true},
		{name: "probe round robin from rr", setup: func(b *tb) { failed(b, 1, 3) }, path: 1, probe: true},
		{name: "retx never probes", setup: func(b *tb) { failed(b, 2) }, retx: true, avoid: 3, path: 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b := newTB(t, smallCfg())
			tc.setup(b)
			n := len(b.sels)
			c := b.req(0, tc.retx, tc.avoid)
			b.idle(3)
			require.Len(t, b.sels, n+1, "one decision")
			got := b.sels[n]
			require.Equal(t, c+2, got.cycle, "decided 2 cycles after the request")
			require.Equal(t, [2]any{tc.path, tc.probe}, [2]any{got.path, got.probe}, "path and probe")
		})
	}
}

// TestFailure: FAIL_K consecutive losses/timeouts fail a path (inflight 0, new entropy, cnt_failures); fewer
// make it SUSPECT; a delivery (n > 0) clears the run; n = 0 is a no-op; a FAILED path ignores more feedback.
// Path 0 of conn 1 in smallCfg with FAIL_K 3, CWND_INIT 4, after 16 requests put 4 packets on every path.
func TestFailure(t *testing.T) {
	type ev struct{ kind, n uint32 }
	// loss, tmo and dlv are one loss, timeout or delivered feedback of n packets.
	loss := func(n uint32) ev { return ev{kind: pathsel.FbLoss, n: n} }
	tmo := func(n uint32) ev { return ev{kind: pathsel.FbTimeout, n: n} }
	dlv := func(n uint32) ev { return ev{kind: pathsel.FbDelivered, n: n} }
	old := e0(4, 1, 0)
	tests := []struct {
		name     string
		evs      []ev
		want     view
		failures uint32
	}{
		{name: "K-1 losses: SUSPECT", evs: []ev{loss(1), loss(1)},
			want: view{state: pathsel.StateSuspect, cwnd: 64, inflight: 2, entropy: old}},
		{name: "K losses: FAILED, inflight 0", evs: []ev{loss(1), loss(1), loss(1)},
			want: view{state: pathsel.StateFailed, cwnd: 64, entropy: newEntropy1}, failures: 1},
		{name: "timeouts count like losses", evs: []ev{tmo(1), loss(1), tmo(1)},
			want: view{state: pathsel.StateFailed, cwnd: 64, entropy: newEntropy1}, failures: 1},
		{name: "one feedback of n >= K", evs: []ev{loss(3)},
			want: view{state: pathsel.StateFailed, cwnd: 64, entropy: newEntropy1}, failures: 1},
		{name: "consec saturates", evs: []ev{loss(255)},
			want: view{state: pathsel.StateFailed, cwnd: 64, entropy: newEntropy1}, failures: 1},
		{name: "n = 0 is a no-op", evs: []ev{loss(0), tmo(0), loss(0), loss(0)},
			want: view{state: pathsel.StateActive, cwnd: 64, inflight: 4, entropy: old}},
		{name: "delivery clears consec", evs: []ev{loss(1), loss(0), tmo(1), dlv(1), loss(1), loss(1)},
			want: view{state: pathsel.StateSuspect, cwnd: 64 + 4, entropy: old}},
		{name: "delivery of 0 keeps consec", evs: []ev{tmo(1), loss(1), dlv(0), loss(1)},
			want: view{state: pathsel.StateFailed, cwnd: 64, entropy: newEntropy1}, failures: 1},
		{name: "FAILED ignores losses and deliveries", evs: []ev{loss(3), loss(5), dlv(2), tmo(1)},
			want: view{state: pathsel.StateFailed, cwnd: 64 + 8, entropy: newEntropy1}, failures: 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b := newTB(t, smallCfg(func(c *config.Config) { c.FailK = 3; c.CwndInit = 4; c.CwndMax = 8 }))
			for range 16 {
				b.req(1, false, 0)
			}
			b.idle(2)
			for _, e := range tc.evs {
				b.fb(1, 0, e.kind, e.n)
			}
			require.Equal(t, tc.want, b.read(1, 0), "rd of (1,0)")
			require.Equal(t, tc.failures, b.out.CntFailures, "cnt_failures")
		})
	}
}

// TestFailureTiming: the K-th loss at cycle t fails the path from t+1: a request deciding at t still picks it
// (start-of-cycle state, old entropy), one deciding at t+1 does not; cnt_failures shows at t+1. Successive
// failures take successive LFSR steps.
func TestFailureTiming(t *testing.T) {
	b := newTB(t, smallCfg(func(c *config.Config) { c.FailK = 1; c.CwndInit = 4 }))
	b.req(0, false, 0)   // cycle 0, decides at 1: path 0
	b.drive(0, false, 0) // cycle 1: decides at 2 with rr=1 -> path 1, the path failing at 2
	b.step()             // cycle 1
	b.drive(0, false, 0) // cycle 2: decides at 3, path 1 FAILED by then -> path 2
	b.driveFb(0, 1, pathsel.FbLoss, 1)
	require.Zero(t, b.step().CntFailures, "cycle 2: not yet visible")
	b.in.FbValid = false
	b.in.ReqValid = false
	require.Equal(t, uint32(1), b.step().CntFailures, "cycle 3: cnt_failures visible one cycle later")
	b.idle(2)
	require.Equal(t, []sel{
		{cycle: 2, conn: 0, path: 0, entropy: e0(4, 0, 0)},
		{cycle: 3, conn: 0, path: 1, entropy: e0(4, 0, 1)},
		{cycle: 4, conn: 0, path: 2, entropy: e0(4, 0, 2)},
	}, b.sels, "decision at t uses the old state and entropy, at t+1 skips the failed path")
	require.Equal(t, view{state: pathsel.StateFailed, cwnd: 64, inflight: 1, entropy: newEntropy1}, b.read(0, 1),
		"same-cycle fail and fire: inflight 0 + 1")

	b.fb(3, 3, pathsel.FbTimeout, 1)
	b.fb(2, 0, pathsel.FbLoss, 9)
	require.Equal(t, uint32(newEntropy2), b.read(3, 3).entropy, "second failure: second LFSR step")
	require.Equal(t, uint32(newEntropy3), b.read(2, 0).entropy, "third failure: third LFSR step")
}

// TestEntropyCollision: a new entropy equal to the old one has bit 0 flipped. E0(70,48) with 64 paths is
// 16'hC000 | (4528*997 mod 2^14) = 16'hE270, the first LFSR entropy after reset.
func TestEntropyCollision(t *testing.T) {
	b := newTB(t, smallCfg(func(c *config.Config) { c.Conns = 128; c.Paths = 64; c.FailK = 1; c.TickCycles = 128 }))
	require.Equal(t, uint32(newEntropy1), b.read(70, 48).entropy, "E0(70,48)")
	b.fb(70, 48, pathsel.FbLoss, 1)
	require.Equal(t, uint32(newEntropy1^1), b.read(70, 48).entropy, "equal to the old entropy: bit 0 flipped")
	b.fb(70, 47, pathsel.FbLoss, 1)
	require.Equal(t, uint32(newEntropy2), b.read(70, 47).entropy, "the LFSR still moved one step per failure")
}

// holdoffEnd returns the first cycle in which a path failed in cycle f may be probed: the cycle after the H-th
// tick cycle after f, tick cycles being those with (k - origin) mod T == T-1 (origin: first cycle after reset).
func holdoffEnd(f, origin, tickCycles, holdoff int) int {
	k := f
	for n := 0; n < holdoff; {
		k++
		if (k-origin)%tickCycles == tickCycles-1 {
			n++
		}
	}
	return k + 1
}

// requestUntilProbe sends a request on conn every cycle until a probe decision shows on m_sel (at most limit
// cycles), flushes the pipeline, and returns the probe.
func (b *tb) requestUntilProbe(conn uint32, limit int) sel {
	b.t.Helper()
	b.drive(conn, false, 0)
	for range limit {
		if o := b.step(); o.SelValid && o.SelProbe {
			break
		}
	}
	b.in.ReqValid = false
	b.idle(2)
	for _, s := range b.sels {
		if s.probe {
			return s
		}
	}
	require.FailNow(b.t, "no probe", "within %d cycles", limit)
	return sel{}
}

// TestHoldoffProbe: a failed path waits HOLDOFF_TICKS ticks (TICK_CYCLES cycles each, counted from reset), is
// then probed exactly once (m_sel_probe, state PROBING, cnt_probes); a delivery recovers it (ACTIVE, entropy kept,
// cnt_recoveries), a loss or timeout fails it again with the next entropy and a new hold-off.
func TestHoldoffProbe(t *testing.T) {
	timers := []struct{ tick, holdoff int }{
		{tick: 4, holdoff: 3},
		{tick: 6, holdoff: 2},
		{tick: 7, holdoff: 1},
		{tick: 5, holdoff: 4},
	}
	outcomes := []struct {
		name string
		kind uint32
	}{
		{name: "delivered recovers", kind: pathsel.FbDelivered},
		{name: "loss fails again", kind: pathsel.FbLoss},
		{name: "timeout fails again", kind: pathsel.FbTimeout},
	}
	for _, tm := range timers {
		for _, oc := range outcomes {
			t.Run(oc.name, func(t *testing.T) {
				b := newTB(t, smallCfg(func(c *config.Config) {
					c.TickCycles = tm.tick
					c.HoldoffTicks = tm.holdoff
					c.CwndInit = 16
					c.CwndMax = 16
				}))
				b.idle(2) // phase the failure away from cycle 0
				f := b.fail(2, 1)
				p := b.requestUntilProbe(2, 40)
				want := holdoffEnd(f, 0, tm.tick, tm.holdoff) + 1
				require.Equal(t, sel{cycle: want, conn: 2, path: 1, entropy: newEntropy1, probe: true}, p,
					"probe decided the first cycle the hold-off is over (tick %d, holdoff %d)", tm.tick, tm.holdoff)
				for _, s := range b.sels {
					if !s.probe {
						require.NotEqual(t, uint32(1), s.path, "failed path only used by its probe")
						require.Equal(t, e0(4, 2, s.path), s.entropy, "ACTIVE path entropy")
					}
				}
				n := len(b.sels)
				for range 8 {
					b.req(2, false, 0)
				}
				b.idle(2)
				require.NotContains(t, b.paths(n), uint32(1), "PROBING path not chosen again")
				require.Equal(t, view{state: pathsel.StateProbing, cwnd: 256, inflight: 1, entropy: newEntropy1},
					b.read(2, 1), "probe in flight")
				require.Equal(t, uint32(1), b.out.CntProbes, "cnt_probes")

				d := b.fb(2, 1, oc.kind, 1)
				o := b.step()
				if oc.kind == pathsel.FbDelivered {
					require.Equal(t, [2]uint32{1, 1}, [2]uint32{o.CntRecoveries, o.CntFailures},
						"cnt_recoveries, cnt_failures one cycle after the delivery")
					require.Equal(t, view{state: pathsel.StateActive, cwnd: 256, entropy: newEntropy1}, b.read(2, 1),
						"recovered with the new entropy")
					return
				}
				require.Equal(t, [2]uint32{0, 2}, [2]uint32{o.CntRecoveries, o.CntFailures},
					"cnt_recoveries, cnt_failures one cycle after the loss")
				require.Equal(t, view{state: pathsel.StateFailed, cwnd: 256, entropy: newEntropy2}, b.read(2, 1),
					"failed again with the next entropy")
				b.sels = nil
				start := b.cycle
				p = b.requestUntilProbe(2, 40)
				require.Equal(t, sel{cycle: max(holdoffEnd(d, 0, tm.tick, tm.holdoff), start+1) + 1, conn: 2, path: 1,
					entropy: newEntropy2, probe: true}, p, "second probe after a full new hold-off")
			})
		}
	}
}

// TestAllFailed: with every path of a connection FAILED or PROBING, m_status_all_failed / m_status_conn (lowest
// such connection) / m_status_af (its bit) and rd_all_failed show it, registered; a request to it waits
// (s_req_ready low) for the first hold-off to end and then probes; a delivery to the probe brings the connection
// back.
func TestAllFailed(t *testing.T) {
	b := newTB(t, smallCfg(func(c *config.Config) { c.FailK = 1 })) // TICK_CYCLES 4, HOLDOFF_TICKS 3
	b.in.RdConn = 2
	for p := range uint32(4) {
		b.fb(2, p, pathsel.FbLoss, 1) // cycles 0..3
	}
	require.Equal(t, 4, b.req(2, false, 0), "request accepted in cycle 4")
	o := b.out
	require.False(t, o.StatusAllFail, "cycle 4: status shows the start of cycle 3")
	o = b.step() // 5
	require.Equal(t, [3]any{true, uint32(2), true}, [3]any{o.StatusAllFail, o.StatusConn, o.RdAllFailed},
		"cycle 5: all_failed, conn 2, rd_all_failed")
	require.Equal(t, wide.Vec{}.Set(2), o.StatusAF, "cycle 5: m_status_af bit 2")
	require.False(t, o.ReqReady, "cycle 5: request held, every hold-off running")
	for p := range uint32(4) {
		b.fb(1, p, pathsel.FbTimeout, 1) // cycles 6..9
	}
	o = b.step() // 10
	require.Equal(t, uint32(2), o.StatusConn, "cycle 10: conn 1 not yet all failed at the start of 9")
	o = b.step() // 11
	require.Equal(t, uint32(1), o.StatusConn, "cycle 11: lowest all-failed connection")
	require.Equal(t, wide.Vec{}.Set(1).Set(2), o.StatusAF, "cycle 11: m_status_af bits 1 and 2")

	// Paths 0..2 failed at 0..2 see ticks 3, 7, 11 and are probe-able from 12; path 3 failed at 3 (a tick cycle,
	// no decrement) from 16.
	require.Equal(t, 12, holdoffEnd(0, 0, 4, 3), "hold-off of path 0")
	o = b.step() // 12
	require.True(t, o.ReqReady, "cycle 12: the held request probes")
	o = b.step() // 13
	require.Equal(t, sel{cycle: 13, conn: 2, path: 0, entropy: newEntropy1, probe: true}, selOf(o, 13), "probe")
	b.ctl(1) // 14: conn 1 reopened
	o = b.step()
	require.Equal(t, [2]any{true, uint32(1)}, [2]any{o.StatusAllFail, o.StatusConn}, "cycle 15: shows start of 14")
	require.Equal(t, wide.Vec{}.Set(1).Set(2), o.StatusAF, "cycle 15: m_status_af shows the start of 14")
	o = b.step()
	require.Equal(t, [2]any{true, uint32(2)}, [2]any{o.StatusAllFail, o.StatusConn},
		"cycle 16: conn 2 (PROBING counts as failed)")
	require.Equal(t, wide.Vec{}.Set(2), o.StatusAF, "cycle 16: m_status_af bit 2 only")
	b.fb(2, 0, pathsel.FbDelivered, 1) // 17
	b.step()
	o = b.step() // 19
	require.Equal(t, [3]any{false, uint32(0), false}, [3]any{o.StatusAllFail, o.StatusConn, o.RdAllFailed},
		"no connection all failed: m_status_conn 0")
	require.True(t, o.StatusAF.IsZero(), "cycle 19: m_status_af 0")
	require.Equal(t, uint32(1), o.CntRecoveries, "cnt_recoveries")
	n := len(b.sels)
	for range 4 {
		b.req(2, false, 0)
	}
	b.idle(2)
	require.Equal(t, []uint32{1, 2, 3, 0}, b.paths(n), "the other probe-able paths first, then the recovered one")
	for i, s := range b.sels[n:] {
		require.Equal(t, i < 3, s.probe, "decision %d probe", i)
	}
}

// TestRetxAllFailed documents the stage-1 rule as written: a retransmission never probes, so a retx request to a
// connection whose paths are all FAILED waits in S1 (blocking every later request) until something other than
// the hold-off changes the connection: here a reopen.
func TestRetxAllFailed(t *testing.T) {
	// Every path failed and past its hold-off: a retransmission request must probe (it may not wait for a usable
	// path, which only a probe can bring back), so no request is blocked for good.
	b := newTB(t, smallCfg(func(c *config.Config) { c.FailK = 1 }))
	for p := range uint32(4) {
		b.fb(0, p, pathsel.FbLoss, 1)
	}
	b.idle(20) // every hold-off over
	b.req(0, true, 1)
	b.drive(1, false, 0)
	b.in.ReqValid = false
	b.idle(2)
	require.Len(t, b.sels, 1, "the retx request is decided")
	require.True(t, b.sels[0].probe, "as a probe: nothing else is usable")
	require.Equal(t, uint32(0), b.sels[0].path, "round robin from 0 over the probe-ready paths")
}

// TestECN: an ECN report halves cwnd (not below 1 packet) and sets guard = cwnd_int; later ECN reports are
// ignored until guard delivered packets; deliveries add n*AI_16THS up to CWND_MAX. Path (3,2), CWND_INIT 16,
// CWND_MAX 20, AI 4/16; steps are cumulative.
func TestECN(t *testing.T) {
	b := newTB(t, smallCfg(func(c *config.Config) { c.CwndInit = 16; c.CwndMax = 20 }))
	ecn, dlv := uint32(pathsel.FbECN), uint32(pathsel.FbDelivered)
	steps := []struct {
		name string
		kind uint32
		n    uint32
		cwnd uint32
	}{
		{name: "halve 16 -> 8, guard 16", kind: ecn, n: 1, cwnd: 128},
		{name: "guard blocks", kind: ecn, n: 4, cwnd: 128},
		{name: "15 delivered, guard 1", kind: dlv, n: 15, cwnd: 188},
		{name: "guard still blocks", kind: ecn, n: 1, cwnd: 188},
		{name: "16th delivered, guard 0", kind: dlv, n: 1, cwnd: 192},
		{name: "ECN n=0 no-op", kind: ecn, n: 0, cwnd: 192},
		{name: "halve 12 -> 6, guard 12", kind: ecn, n: 2, cwnd: 96},
		{name: "12 delivered", kind: dlv, n: 12, cwnd: 144},
		{name: "halve 9 -> 4.5", kind: ecn, n: 1, cwnd: 72},
		{name: "9 delivered", kind: dlv, n: 9, cwnd: 108},
		{name: "halve 6.75 -> 3.375", kind: ecn, n: 1, cwnd: 54},
		{name: "6 delivered", kind: dlv, n: 6, cwnd: 78},
		{name: "halve 4.875", kind: ecn, n: 1, cwnd: 39},
		{name: "4 delivered", kind: dlv, n: 4, cwnd: 55},
		{name: "halve 3.4375", kind: ecn, n: 1, cwnd: 27},
		{name: "3 delivered", kind: dlv, n: 3, cwnd: 39},
		{name: "halve 2.4375", kind: ecn, n: 1, cwnd: 19},
		{name: "2 delivered", kind: dlv, n: 2, cwnd: 27},
		{name: "halve 1.6875 floors at 1 packet", kind: ecn, n: 1, cwnd: 16},
		{name: "1 delivered", kind: dlv, n: 1, cwnd: 20},
		{name: "halve 1.25 floors at 1 packet", kind: ecn, n: 1, cwnd: 16},
		{name: "large delivery capped at CWND_MAX", kind: dlv, n: 255, cwnd: 320},
		{name: "stays at the cap", kind: dlv, n: 3, cwnd: 320},
	}
	for _, s := range steps {
		b.fb(3, 2, s.kind, s.n)
		require.Equal(t, view{state: pathsel.StateActive, cwnd: s.cwnd, entropy: e0(4, 3, 2)}, b.read(3, 2),
			"after %q", s.name)
	}
}

// TestSameCycle: feedback and a stage-1 fire on the same path in the same cycle. The decision (and m_sel's
// entropy) uses the start-of-cycle state; the fire's inflight+1 lands on the feedback result; a probe sets
// PROBING over same-cycle feedback on the FAILED path. Conn 0 of smallCfg with 2 paths, CWND_INIT 8, FAIL_K 2;
// six requests (quantum 2: paths 0, 0, 1, 1, 0, 0) leave path 1 with inflight 2 and rr at 1.
func TestSameCycle(t *testing.T) {
	tests := []struct {
		name       string
		failFirst  bool // fail path 1 and wait out its hold-off, so the decision is a probe
		kind, n    uint32
		want       view
		wantProbe  bool
		wantSelEnt uint32
	}{
		{name: "delivered 1", kind: pathsel.FbDelivered, n: 1,
			want: view{state: pathsel.StateActive, cwnd: 132, inflight: 2, entropy: e0(2, 0, 1)}},
		{name: "delivered floors at 0", kind: pathsel.FbDelivered, n: 9,
			want: view{state: pathsel.StateActive, cwnd: 164, inflight: 1, entropy: e0(2, 0, 1)}},
		{name: "loss makes SUSPECT", kind: pathsel.FbLoss, n: 1,
			want: view{state: pathsel.StateSuspect, cwnd: 128, inflight: 2, entropy: e0(2, 0, 1)}},
		{name: "loss fails", kind: pathsel.FbTimeout, n: 2,
			want: view{state: pathsel.StateFailed, cwnd: 128, inflight: 1, entropy: newEntropy1}},
		{name: "ECN", kind: pathsel.FbECN, n: 1,
			want: view{state: pathsel.StateActive, cwnd: 64, inflight: 3, entropy: e0(2, 0, 1)}},
		{name: "probe with late delivery", failFirst: true, kind: pathsel.FbDelivered, n: 1, wantProbe: true,
			want: view{state: pathsel.StateProbing, cwnd: 132, inflight: 1, entropy: newEntropy1}},
		{name: "probe with loss", failFirst: true, kind: pathsel.FbLoss, n: 1, wantProbe: true,
			want: view{state: pathsel.StateProbing, cwnd: 128, inflight: 1, entropy: newEntropy1}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b := newTB(t, smallCfg(func(c *config.Config) { c.Paths = 2; c.CwndInit = 8; c.CwndMax = 16 }))
			for range 6 {
				b.req(0, false, 0)
			}
			b.idle(2)
			selEnt := e0(2, 0, 1)
			if tc.failFirst {
				b.fail(0, 1)
				b.idle(4 * 3)
				selEnt = newEntropy1
			}
			before := b.out
			b.req(0, false, 0) // decides in the next cycle
			b.driveFb(0, 1, tc.kind, tc.n)
			f := b.cycle
			b.step()
			b.in.FbValid = false
			b.step()
			got := b.sels[len(b.sels)-1]
			require.Equal(t, sel{cycle: f + 1, conn: 0, path: 1, entropy: selEnt, probe: tc.wantProbe}, got,
				"decision on the start-of-cycle state")
			require.Equal(t, tc.want, b.read(0, 1), "path 1 after feedback then fire")
			require.Equal(t, before.CntRecoveries, b.out.CntRecoveries, "no recovery")
		})
	}
}

// TestControl: s_ctl reopens a connection (every path to the open state, entropy back to E0, rr 0) and wins over
// same-cycle feedback and the same-cycle stage-1 update, while the decision is still emitted and counted. Other
// connections are untouched.
func TestControl(t *testing.T) {
	cfg := smallCfg(func(c *config.Config) { c.CwndInit = 4; c.CwndMax = 8; c.FailK = 2 })
	open := func(p uint32) view {
		return view{state: pathsel.StateActive, cwnd: 64, entropy: e0(4, 1, p)}
	}
	t.Run("reopen restores the open state", func(t *testing.T) {
		b := newTB(t, cfg)
		b.fail(1, 1)
		b.fb(1, 2, pathsel.FbECN, 1)
		b.fb(1, 3, pathsel.FbLoss, 1)
		b.fail(2, 0)
		for range 3 {
			b.req(1, false, 0)
		}
		b.idle(2)
		b.ctl(1)
		for p := range uint32(4) {
			require.Equal(t, open(p), b.read(1, p), "path %d of conn 1", p)
		}
		require.Equal(t, pathsel.StateFailed, int(b.read(2, 0).state), "conn 2 untouched")
		n := len(b.sels)
		b.req(1, false, 0)
		b.idle(2)
		require.Equal(t, []uint32{0}, b.paths(n), "rr back to 0")
		require.Equal(t, uint32(2), b.out.CntFailures, "counters untouched")
	})
	t.Run("wins over same-cycle feedback", func(t *testing.T) {
		b := newTB(t, cfg)
		b.driveFb(1, 2, pathsel.FbLoss, 7)
		b.ctl(1)
		b.in.FbValid = false
		require.Equal(t, open(2), b.read(1, 2), "reopened, not failed")
		// The failure itself still happened: counted, and it took an LFSR step.
		require.Equal(t, uint32(1), b.out.CntFailures, "cnt_failures")
		b.fail(0, 0)
		require.Equal(t, uint32(newEntropy2), b.read(0, 0).entropy, "next failure takes the second LFSR step")
	})
	t.Run("wins over the same-cycle fire", func(t *testing.T) {
		b := newTB(t, cfg)
		b.req(1, false, 0)
		c := b.ctl(1) // the request decides (path 0) in this cycle
		b.step()
		require.Equal(t, []sel{{cycle: c + 1, conn: 1, path: 0, entropy: e0(4, 1, 0)}}, b.sels, "decision emitted")
		require.Equal(t, uint32(1), b.out.CntDecisions, "and counted")
		require.Equal(t, open(0), b.read(1, 0), "inflight back to 0")
		b.req(1, false, 0)
		b.idle(2)
		require.Equal(t, uint32(0), b.sels[1].path, "rr back to 0")
	})
	t.Run("wins over a same-cycle probe", func(t *testing.T) {
		b := newTB(t, cfg)
		b.fail(1, 3)
		b.idle(4 * 3)
		b.req(1, false, 0)
		c := b.ctl(1)
		b.step()
		require.Equal(t, []sel{{cycle: c + 1, conn: 1, path: 3, entropy: newEntropy1, probe: true}}, b.sels,
			"probe emitted")
		require.Equal(t, uint32(1), b.out.CntProbes, "and counted")
		require.Equal(t, open(3), b.read(1, 3), "ACTIVE, not PROBING")
	})
}

// TestReset: rst (2 cycles) drops every handshake, clears m_sel_valid, the held request, the counters and the
// rd_*/m_status_* registers (visible after the first rst edge), reopens every path, and restarts the LFSR and
// the tick counter.
func TestReset(t *testing.T) {
	cfg := smallCfg(func(c *config.Config) { c.FailK = 1; c.TickCycles = 5 })
	b := newTB(t, cfg)
	b.in.RdConn = 3
	for p := range uint32(4) {
		b.fb(3, p, pathsel.FbLoss, 1)
	}
	b.req(0, false, 0)
	b.in.SelReady = false
	b.req(0, false, 0)
	b.idle(3)
	o := b.out
	require.Equal(t, [4]any{true, true, true, uint32(4)},
		[4]any{o.SelValid, o.StatusAllFail, o.RdAllFailed, o.CntFailures}, "busy before reset")

	b.in.Rst = true
	b.in.FbValid = true
	b.in.FbKind = pathsel.FbLoss
	b.in.FbCount = 1
	b.in.CtlValid = true
	b.drive(1, false, 0)
	o = b.step()
	require.Equal(t, [2]any{true, uint32(4)}, [2]any{o.SelValid, o.CntFailures}, "registers change at the rst edge")
	// The m_sel payload is not reset: it is qualified by m_sel_valid.
	require.Equal(t, pathsel.Out{}, noPayload(b.step()), "second rst cycle: every output 0")
	b.in = pathsel.In{SelReady: true, RdConn: 3}
	origin := b.cycle
	require.Equal(t, pathsel.Out{ReqReady: true, FbReady: true, CtlReady: true}, noPayload(b.step()),
		"first cycle after rst")
	require.Equal(t, view{state: pathsel.StateActive, cwnd: 16, entropy: e0(4, 3, 0)}, viewOf(b.step()),
		"(3,0) reopened")
	b.idle(3)
	require.Empty(t, b.sels, "the unaccepted decision and the held request dropped by rst")

	f := b.fb(0, 2, pathsel.FbLoss, 1)
	require.Equal(t, uint32(newEntropy1), b.read(0, 2).entropy, "LFSR restarted")
	p := b.requestUntilProbe(0, 40)
	require.Equal(t, holdoffEnd(f, origin, cfg.TickCycles, 3)+1, p.cycle, "tick counter restarted at rst")
}

// noPayload returns o with the m_sel payload cleared.
func noPayload(o pathsel.Out) pathsel.Out {
	o.SelConn = 0
	o.SelPath = 0
	o.SelEntropy = 0
	o.SelProbe = false
	return o
}

// TestReadRegistered: rd_* in cycle t+1 show (rd_conn, rd_path) of cycle t as it was at the start of cycle t.
func TestReadRegistered(t *testing.T) {
	b := newTB(t, smallCfg(func(c *config.Config) { c.FailK = 1 }))
	b.req(2, false, 0)
	b.in.RdConn = 2
	b.in.RdPath = 0
	b.step() // the request decides: path 0 of conn 2
	b.in.RdConn = 0
	b.in.RdPath = 1
	b.driveFb(0, 1, pathsel.FbLoss, 1)
	o := b.step()
	require.Equal(t, view{cwnd: 16, entropy: e0(4, 2, 0)}, viewOf(o), "(2,0) at the start of the deciding cycle")
	b.in.FbValid = false
	o = b.step()
	require.Equal(t, view{cwnd: 16, entropy: e0(4, 0, 1)}, viewOf(o), "(0,1) at the start of the loss cycle")
	o = b.step()
	require.Equal(t, view{state: pathsel.StateFailed, cwnd: 16, entropy: newEntropy1}, viewOf(o), "(0,1) failed")
	require.Equal(t, view{cwnd: 16, inflight: 1, entropy: e0(4, 2, 0)}, b.read(2, 0), "(2,0) inflight 1")
	for p := range uint32(4) {
		b.fb(3, p, pathsel.FbLoss, 1)
	}
	require.True(t, b.read(3, 1).allFailed, "rd_all_failed follows rd_conn 3")
	require.False(t, b.read(0, 1).allFailed, "not for conn 0 with one path failed")
}

// TestNoAlloc: Step does not allocate.
func TestNoAlloc(t *testing.T) {
	m, err := pathsel.New(presetCfg(t, "default"))
	require.NoError(t, err, "New")
	in := pathsel.In{ReqValid: true, SelReady: true, FbValid: true, FbKind: pathsel.FbLoss, FbCount: 1}
	var out pathsel.Out
	i := uint32(0)
	allocs := testing.AllocsPerRun(1000, func() {
		i++
		in.ReqConn = i & 15
		in.FbConn = i & 15
		in.FbPath = i >> 4 & 7
		in.FbKind = i & 3
		in.CtlValid = i%97 == 0
		m.Step(&in, &out)
	})
	require.Zero(t, allocs, "allocations per Step")
}

// BenchmarkStep: the default config with a request every cycle, round robin over the connections, and a delivery
// feedback every cycle for the decision on m_sel, every ready high.
func BenchmarkStep(b *testing.B) {
	cfg, err := config.Preset("default")
	if err != nil {
		b.Fatal(err)
	}
	m, err := pathsel.New(cfg)
	if err != nil {
		b.Fatal(err)
	}
	in := pathsel.In{ReqValid: true, SelReady: true, FbKind: pathsel.FbDelivered, FbCount: 1}
	var out pathsel.Out
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		in.ReqConn = uint32(i) & uint32(cfg.Conns-1)
		in.FbValid = out.SelValid
		in.FbConn = out.SelConn
		in.FbPath = out.SelPath
		in.RdConn = in.ReqConn
		in.RdPath = uint32(i) & uint32(cfg.Paths-1)
		m.Step(&in, &out)
	}
	b.StopTimer()
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N), "ns/cycle")
}

// TestStarvationGuard: a request that waits through a tick cycle with nothing usable takes a path that is not
// FAILED whatever its window; with every path FAILED and in hold-off it probes one.
func TestStarvationGuard(t *testing.T) {
	b := newTB(t, smallCfg()) // 4 paths, CWND_INIT 1, TICK_CYCLES 4, FAIL_K 2, HOLDOFF 3
	for range 4 {
		b.req(0, false, 0) // every path at its window
	}
	e := b.req(0, false, 0) // fifth: waits in S1
	for len(b.sels) < 5 {
		b.step()
		require.Less(t, b.cycle, e+3*4, "the guard must fire within two ticks")
	}
	require.Greater(t, b.sels[4].cycle, e+2, "the request waits for a tick first (a free path decides at e+2)")
	require.False(t, b.sels[4].probe, "a path that is not failed, not a probe")
	b.idle(2)

	// Fail every path of connection 1 (two losses each), so all are FAILED with hold-off running.
	for p := uint32(0); p < 4; p++ {
		for range 2 {
			b.driveFb(1, p, pathsel.FbLoss, 1)
			b.step()
		}
	}
	b.in.FbValid = false
	n := len(b.sels)
	b.drive(1, false, 0)
	for len(b.sels) == n {
		b.step()
		require.Less(t, b.cycle, 200, "the guard must probe")
	}
	b.in.ReqValid = false
	require.True(t, b.sels[n].probe, "every path failed and in hold-off: the guard probes")
	require.Equal(t, uint32(pathsel.StateProbing), b.read(1, b.sels[n].path).state, "the probed path is PROBING")
}
