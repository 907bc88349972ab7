package rxtraffic_test

import (
	"testing"

	"github.com/spraynic/spraynic/config"
	"github.com/spraynic/spraynic/golden/rxreorder"
	"github.com/spraynic/spraynic/scoreboard"
	"github.com/spraynic/spraynic/stimulus/rxtraffic"
	"github.com/stretchr/testify/require"
)

// trace runs a profile against the golden model and returns every input of every cycle.
func trace(t *testing.T, name string, seed uint64, cycles int64) []rxreorder.In {
	cfg, err := config.Preset("default")
	require.NoError(t, err)
	prof, err := rxtraffic.Lookup(name)
	require.NoError(t, err)
	d, err := rxtraffic.New(cfg, prof, seed, cycles)
	require.NoError(t, err)
	g, err := rxreorder.New(cfg)
	require.NoError(t, err)
	var ins []rxreorder.In
	var in rxreorder.In
	var out rxreorder.Out
	for c := int64(0); c < cycles; c++ {
		d.Drive(c, &in)
		g.Step(&in, &out)
		d.Observe(c, &in, &out)
		ins = append(ins, in)
	}
	return ins
}

func TestDeterministicBySeed(t *testing.T) {
	for _, name := range rxtraffic.Names() {
		t.Run(name, func(t *testing.T) {
			a, b := trace(t, name, 5, 3000), trace(t, name, 5, 3000)
			require.Equal(t, a, b, "same seed, same stimulus")
			c := trace(t, name, 6, 3000)
			require.NotEqual(t, a, c, "another seed, other stimulus")
		})
	}
}

func TestProfilesExercise(t *testing.T) {
	tests := []struct {
		name string
		// check inspects the inputs of a run.
		check func(ins []rxreorder.In) bool
		what  string
	}{
		{name: "backpressure", check: func(ins []rxreorder.In) bool {
			return anyIn(ins, func(i rxreorder.In) bool { return !i.CplReady && !i.Rst })
		}, what: "m_cpl_ready low"},
		{name: "reset", check: func(ins []rxreorder.In) bool { return countRst(ins) > 2 },
			what: "a reset after the start"},
		{name: "churn", check: func(ins []rxreorder.In) bool {
			return anyIn(ins, func(i rxreorder.In) bool { return i.CtlValid && !i.CtlOpen })
		}, what: "a close"},
		{name: "wrap", check: func(ins []rxreorder.In) bool {
			return anyIn(ins, func(i rxreorder.In) bool { return i.PktValid && i.PktPSN < 100 })
		}, what: "PSNs after the wrap"},
		{name: "random", check: func(ins []rxreorder.In) bool {
			return anyIn(ins, func(i rxreorder.In) bool { return i.PktValid && i.PktECN })
		}, what: "ECN-marked packets"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			require.True(t, tc.check(trace(t, tc.name, 1, 20000)), "profile %s must produce %s", tc.name, tc.what)
		})
	}
}

func anyIn(ins []rxreorder.In, f func(rxreorder.In) bool) bool {
	for _, i := range ins {
		if f(i) {
			return true
		}
	}
	return false
}

func countRst(ins []rxreorder.In) int {
	n := 0
	for _, i := range ins {
		if i.Rst {
			n++
		}
	}
	return n
}

// TestPseqWrapProfile: on every preset the pseq_wrap profile sends only on path 0 of connection 0, more than
// 2^PSEQ_WIDTH packets, so the path sequence wraps, and the receiver's ACKs report that path across the wrap.
func TestPseqWrapProfile(t *testing.T) {
	prof, err := rxtraffic.Lookup("pseq_wrap")
	require.NoError(t, err)
	for _, name := range config.PresetNames() {
		cfg, err := config.Preset(name)
		require.NoError(t, err)
		cycles := prof.Cycles + rxtraffic.DrainCycles(cfg, prof)
		d, err := rxtraffic.New(cfg, prof, 1, cycles)
		require.NoError(t, err)
		g, err := rxreorder.New(cfg)
		require.NoError(t, err)
		var in rxreorder.In
		var out rxreorder.Out
		var pkts, wraps, ackWraps int64
		var last, lastAck uint32
		half := uint32(1) << uint(cfg.PseqWidth-1)
		for c := int64(0); c < cycles; c++ {
			d.Drive(c, &in)
			g.Step(&in, &out)
			d.Observe(c, &in, &out)
			if in.PktValid && out.PktReady && !in.Rst {
				require.Zero(t, in.PktPath, "preset %s: path 0 only", name)
				if last >= half && in.PktPseq < half {
					wraps++
				}
				last = in.PktPseq
				pkts++
			}
			if out.AckValid && in.AckReady {
				if lastAck >= half && out.AckPseq < half {
					ackWraps++
				}
				lastAck = out.AckPseq
			}
		}
		require.Greater(t, pkts, int64(1)<<uint(cfg.PseqWidth), "preset %s: packets on (0, 0)", name)
		require.Positive(t, wraps, "preset %s: the path sequence wrapped", name)
		require.Positive(t, ackWraps, "preset %s: ACKs report the path across the wrap", name)
		t.Logf("preset %s: %d packets in %d cycles, %d wraps, %d ACK wraps", name, pkts, cycles, wraps, ackWraps)
	}
}

// TestDrainCompletesLongRuns: at 5x its length (the nightly suite's scale) every profile's drain still completes
// everything received, on every preset: the golden model with the transaction scoreboard finds nothing left
// behind. The old bound (one WINDOW per connection) failed rx_backpressure on u250 from twice its length.
func TestDrainCompletesLongRuns(t *testing.T) {
	for _, cname := range config.PresetNames() {
		cfg, err := config.Preset(cname)
		require.NoError(t, err)
		for _, name := range rxtraffic.Names() {
			prof, err := rxtraffic.Lookup(name)
			require.NoError(t, err)
			if prof.Conns > cfg.Conns {
				continue
			}
			cycles := 5 * (prof.Cycles + rxtraffic.DrainCycles(cfg, prof))
			d, err := rxtraffic.New(cfg, prof, 1, cycles)
			require.NoError(t, err)
			g, err := rxreorder.New(cfg)
			require.NoError(t, err)
			sb := scoreboard.NewRx(cfg)
			var in rxreorder.In
			var out rxreorder.Out
			for c := int64(0); c < cycles; c++ {
				d.Drive(c, &in)
				g.Step(&in, &out)
				require.NoError(t, sb.Observe(c, &in, &out), "preset %s profile %s cycle %d", cname, name, c)
				d.Observe(c, &in, &out)
			}
			require.NoError(t, sb.Finish(), "preset %s profile %s, %d cycles", cname, name, cycles)
		}
	}
}
