package pathtraffic

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/spraynic/spraynic/config"
	"github.com/spraynic/spraynic/golden/pathsel"
)

// play runs profile name with seed 1 on the golden model of cfg for its whole length and calls f after every
// cycle with that cycle's inputs and outputs.
func play(t *testing.T, cfg config.Config, name string,
	f func(cycle int64, prof Profile, in *pathsel.In, out *pathsel.Out)) {
	t.Helper()
	prof, err := Lookup(name)
	require.NoError(t, err)
	cycles := prof.TrafficCycles(cfg) + DrainCycles(prof)
	d := New(cfg, prof, 1, cycles)
	g, err := pathsel.New(cfg)
	require.NoError(t, err)
	var in pathsel.In
	var out pathsel.Out
	for c := int64(0); c < cycles; c++ {
		d.Drive(c, &in)
		g.Step(&in, &out)
		d.Observe(c, &in, &out)
		f(c, prof, &in, &out)
	}
}

// TestEveryConnRotates: on every preset the every_conn profile's requests come from one connection at a time, in
// order, each connection in its equal share of the traffic cycles, and every connection's windows fill (a request
// waits) during its share.
func TestEveryConnRotates(t *testing.T) {
	for _, name := range config.PresetNames() {
		cfg, err := config.Preset(name)
		require.NoError(t, err)
		reqs := make([]int, cfg.Conns)
		waited := make([]bool, cfg.Conns)
		held := false // a request is waiting from an earlier cycle
		play(t, cfg, "every_conn", func(c int64, prof Profile, in *pathsel.In, out *pathsel.Out) {
			if !in.ReqValid || in.Rst {
				held = false
				return
			}
			if !held {
				want := int(c * int64(cfg.Conns) / prof.Cycles)
				require.Equal(t, want, int(in.ReqConn),
					"preset %s cycle %d: a new request is of this share's connection", name, c)
			}
			held = !out.ReqReady
			if out.ReqReady {
				reqs[in.ReqConn]++
			} else {
				waited[in.ReqConn] = true
			}
		})
		for k := range reqs {
			require.Positive(t, reqs[k], "preset %s: connection %d requested", name, k)
			require.True(t, waited[k], "preset %s: connection %d filled its windows (a request waited)", name, k)
		}
	}
}

// TestSprayLongWrapsDecisionCounters: with up to 8 paths, spray_long makes more than 2^16 decisions on every path
// of connection 0, so each per-path 16-bit decision counter (rd_decisions) wraps.
func TestSprayLongWrapsDecisionCounters(t *testing.T) {
	for _, name := range config.PresetNames() {
		cfg, err := config.Preset(name)
		require.NoError(t, err)
		if cfg.Paths > 8 {
			continue
		}
		per := make([]int, cfg.Paths)
		play(t, cfg, "spray_long", func(_ int64, _ Profile, in *pathsel.In, out *pathsel.Out) {
			if out.SelValid && in.SelReady && !in.Rst {
				require.Zero(t, out.SelConn, "preset %s: connection 0 only", name)
				per[out.SelPath]++
			}
		})
		for p, n := range per {
			require.Greater(t, n, 1<<16, "preset %s: decisions on path %d", name, p)
		}
	}
}

// TestFbFloodWrapsLossCounters: on default and ice40, fb_flood reports more than 2^16 lost packets for every
// (connection, path), so each per-path 16-bit loss counter (rd_losses) wraps.
func TestFbFloodWrapsLossCounters(t *testing.T) {
	for _, name := range []string{"default", "ice40"} {
		cfg, err := config.Preset(name)
		require.NoError(t, err)
		lost := make([]int, cfg.Conns*cfg.Paths)
		play(t, cfg, "fb_flood", func(_ int64, _ Profile, in *pathsel.In, out *pathsel.Out) {
			if in.FbValid && out.FbReady && !in.Rst && (in.FbKind == pathsel.FbLoss || in.FbKind == pathsel.FbTimeout) {
				lost[int(in.FbConn)*cfg.Paths+int(in.FbPath)] += int(in.FbCount)
			}
		})
		for k, n := range lost {
			require.Greater(t, n, 1<<16, "preset %s: packets reported lost on (connection %d, path %d)",
				name, k/cfg.Paths, k%cfg.Paths)
		}
	}
}

// TestWindowFillReachesCwndMax: on every preset, window_fill takes every (connection, path) to cwnd_max in flight
// (rd_inflight, read for every pair in turn, shows it), one connection at a time asks PATHS x cwnd_max + 1 times,
// the last request of each finds every window full and is decided by the starvation guard (one path of it shows
// cwnd_max + 1 in flight), and in the drain every pair read shows nothing in flight.
func TestWindowFillReachesCwndMax(t *testing.T) {
	for _, name := range config.PresetNames() {
		cfg, err := config.Preset(name)
		require.NoError(t, err)
		_, perConn, _ := FillPhases(cfg)
		full := make([]bool, cfg.Conns*cfg.Paths)
		reqs := make([]int64, cfg.Conns)
		over := make([]bool, cfg.Conns)
		var rdConn, rdPath uint32 // the pair read in the previous cycle: rd_* show it now
		reads, next := 0, uint32(0)
		play(t, cfg, "window_fill", func(c int64, prof Profile, in *pathsel.In, out *pathsel.Out) {
			if int(out.RdInflight) >= cfg.CwndMax {
				full[int(rdConn)*cfg.Paths+int(rdPath)] = true
			}
			if int(out.RdInflight) == cfg.CwndMax+1 {
				over[rdConn] = true
			}
			if c > prof.TrafficCycles(cfg) {
				require.Zero(t, out.RdInflight, "preset %s cycle %d: (connection %d, path %d) in flight in the drain",
					name, c, rdConn, rdPath)
				reads++
			}
			rdConn, rdPath = in.RdConn, in.RdPath
			if in.ReqValid && out.ReqReady {
				require.Equal(t, next, in.ReqConn, "preset %s cycle %d: connections ask in turn", name, c)
				if reqs[in.ReqConn]++; reqs[in.ReqConn] == perConn {
					next++
				}
			}
		})
		for k, f := range full {
			require.True(t, f, "preset %s: (connection %d, path %d) reached cwnd_max = %d in flight",
				name, k/cfg.Paths, k%cfg.Paths, cfg.CwndMax)
		}
		require.Equal(t, uint32(cfg.Conns), next, "preset %s: every connection asked %d times", name, perConn)
		for c, o := range over {
			require.True(t, o, "preset %s: connection %d's last request went beyond a full window (starvation guard)",
				name, c)
		}
		require.Positive(t, reads, "preset %s: pairs read in the drain", name)
	}
}

// TestHoldoffIdlePauses: on every preset holdoff_idle makes no request in its pause, every path of its
// connections is FAILED when the pause ends (all_failed of a connection), and the first decisions after the
// pause are probes (the hold-offs ran out long ago).
func TestHoldoffIdlePauses(t *testing.T) {
	for _, name := range config.PresetNames() {
		cfg, err := config.Preset(name)
		require.NoError(t, err)
		probes, decisions := 0, 0
		allFailedAtEnd := false
		play(t, cfg, "holdoff_idle", func(c int64, prof Profile, in *pathsel.In, out *pathsel.Out) {
			end := prof.PauseAt + prof.PauseCycles(cfg)
			if c >= prof.PauseAt+int64(cfg.TickCycles) && c < end {
				require.False(t, in.ReqValid, "preset %s cycle %d: no request in the pause", name, c)
			}
			if c == end-1 {
				allFailedAtEnd = out.StatusAllFail
			}
			if c >= end && decisions < 4 && out.SelValid && in.SelReady {
				decisions++
				if out.SelProbe {
					probes++
				}
			}
		})
		require.True(t, allFailedAtEnd, "preset %s: a connection has every path FAILED when the pause ends", name)
		require.Equal(t, 4, decisions, "preset %s: decisions after the pause", name)
		require.Positive(t, probes, "preset %s: the first decisions after the pause probe", name)
	}
}
