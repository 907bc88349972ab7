package pathtraffic

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/spraynic/spraynic/config"
	"github.com/spraynic/spraynic/golden/pathsel"
)

// TestEveryConnRotates: on every preset the every_conn profile's requests come from one connection at a time, in
// order, each connection in its equal share of the traffic cycles, and every connection's windows fill (a request
// waits) during its share.
func TestEveryConnRotates(t *testing.T) {
	prof, err := Lookup("every_conn")
	require.NoError(t, err)
	for _, name := range config.PresetNames() {
		cfg, err := config.Preset(name)
		require.NoError(t, err)
		cycles := prof.Cycles + DrainCycles(prof)
		d := New(cfg, prof, 1, cycles)
		g, err := pathsel.New(cfg)
		require.NoError(t, err)
		var in pathsel.In
		var out pathsel.Out
		reqs := make([]int, cfg.Conns)
		waited := make([]bool, cfg.Conns)
		held := false // a request is waiting from an earlier cycle
		for c := int64(0); c < cycles; c++ {
			d.Drive(c, &in)
			g.Step(&in, &out)
			d.Observe(c, &in, &out)
			if in.ReqValid && !in.Rst {
				if !held {
					want := int(c * int64(cfg.Conns) / prof.Cycles)
					require.Equal(t, want, int(in.ReqConn), "preset %s cycle %d: a new request is of this share's connection", name, c)
				}
				held = !out.ReqReady
				if out.ReqReady {
					reqs[in.ReqConn]++
				} else {
					waited[in.ReqConn] = true
				}
			} else {
				held = false
			}
		}
		for k := range reqs {
			require.Positive(t, reqs[k], "preset %s: connection %d requested", name, k)
			require.True(t, waited[k], "preset %s: connection %d filled its windows (a request waited)", name, k)
		}
	}
}

// TestSprayLongWrapsDecisionCounters: with up to 8 paths, spray_long makes more than 2^16 decisions on every path
// of connection 0, so each per-path 16-bit decision counter (rd_decisions) wraps; the golden model's readout shows
// the wrapped value.
func TestSprayLongWrapsDecisionCounters(t *testing.T) {
	prof, err := Lookup("spray_long")
	require.NoError(t, err)
	for _, name := range config.PresetNames() {
		cfg, err := config.Preset(name)
		require.NoError(t, err)
		if cfg.Paths > 8 {
			continue
		}
		cycles := prof.Cycles + DrainCycles(prof)
		d := New(cfg, prof, 1, cycles)
		g, err := pathsel.New(cfg)
		require.NoError(t, err)
		var in pathsel.In
		var out pathsel.Out
		per := make([]int, cfg.Paths)
		for c := int64(0); c < cycles; c++ {
			d.Drive(c, &in)
			g.Step(&in, &out)
			d.Observe(c, &in, &out)
			if out.SelValid && in.SelReady && !in.Rst {
				require.Zero(t, out.SelConn, "preset %s: connection 0 only", name)
				per[out.SelPath]++
			}
		}
		for p, n := range per {
			require.Greater(t, n, 1<<16, "preset %s: decisions on path %d", name, p)
		}
	}
}
