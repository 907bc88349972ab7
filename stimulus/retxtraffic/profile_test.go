package retxtraffic

import (
	"fmt"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/spraynic/spraynic/config"
	"github.com/spraynic/spraynic/golden/retx"
	"github.com/spraynic/spraynic/scoreboard"
)

// playProfile runs profile name with seed 1 on the golden model of every preset against the scoreboard: start(cfg)
// before each preset's run returns the function called after every cycle, done(cfg, drv, cycles) follows the run.
func playProfile(t *testing.T, name string, start func(cfg config.Config) func(in *retx.In, out *retx.Out),
	done func(cfg config.Config, drv *Driver, cycles int64)) {
	t.Helper()
	prof, err := Lookup(name)
	require.NoError(t, err)
	for _, cfg := range presets(t) {
		cfg = ConfigFor(cfg, prof)
		cycles := prof.TrafficCycles(cfg) + DrainCycles(cfg, prof)
		g, err := retx.New(cfg)
		require.NoError(t, err)
		drv, err := New(cfg, prof, 1, cycles)
		require.NoError(t, err)
		board := scoreboard.NewRetx(cfg)
		f := start(cfg)
		var in retx.In
		var out retx.Out
		for c := int64(0); c < cycles; c++ {
			drv.Drive(c, &in)
			g.Step(&in, &out)
			drv.Observe(c, &in, &out)
			require.NoError(t, board.Observe(c, &in, &out), "preset %s cycle %d", cfg.Name, c)
			f(&in, &out)
		}
		require.NoError(t, board.Finish(), "preset %s", cfg.Name)
		done(cfg, drv, cycles)
	}
}

// TestPseqWrapProfile: on every preset, the pseq_wrap profile sends more than 2^PSEQ_WIDTH packets on connection 0,
// path 0 (its path sequence wraps), on no other path, with losses resent, and the scoreboard passes.
func TestPseqWrapProfile(t *testing.T) {
	var onPath0, wraps int64
	var last uint32
	playProfile(t, "pseq_wrap", func(cfg config.Config) func(in *retx.In, out *retx.Out) {
		onPath0, wraps, last = 0, 0, 0
		return func(in *retx.In, out *retx.Out) {
			if out.PktValid && in.PktReady {
				require.Zero(t, out.PktPath, "preset %s: only path 0 is offered", cfg.Name)
				if out.PktPseq < last {
					wraps++
				}
				last = out.PktPseq
				onPath0++
			}
		}
	}, func(cfg config.Config, drv *Driver, cycles int64) {
		require.Greater(t, onPath0, int64(1)<<uint(cfg.PseqWidth), "preset %s: packets on (0, 0)", cfg.Name)
		require.Positive(t, wraps, "preset %s: the path sequence wrapped", cfg.Name)
		require.Positive(t, drv.Stats.Retx, "preset %s: losses were resent", cfg.Name)
		t.Logf("preset %s: %d packets on (0, 0) in %d cycles, %d wraps, %d retransmissions",
			cfg.Name, onPath0, cycles, wraps, drv.Stats.Retx)
	})
}

// TestPathMaskOutsideConfig: a profile whose path mask names no path of the configuration is an error that
// names the test, the mask and the configuration's paths.
func TestPathMaskOutsideConfig(t *testing.T) {
	prof, err := Lookup("pseq_wrap")
	require.NoError(t, err)
	prof.Paths = 1 << 20
	cfg := presets(t)[0]
	_, err = New(ConfigFor(cfg, prof), prof, 1, 1000)
	require.EqualError(t, err,
		fmt.Sprintf("test pseq_wrap: path mask 0x100000 has no path of config %s (paths 0..%d)", cfg.Name, cfg.Paths-1))
}

// TestEveryPairProfile: on every preset, the every_pair profile sends more than 2^8 packets on every (connection,
// path) and the engine takes an ACK naming each pair's path sequence 2^8 or above (so bits 0-7 of every pair's
// next-to-send and highest-acknowledged sequences count both ways), and the scoreboard passes.
func TestEveryPairProfile(t *testing.T) {
	var sent []int
	var acked []uint32
	playProfile(t, "every_pair", func(cfg config.Config) func(in *retx.In, out *retx.Out) {
		sent, acked = make([]int, cfg.Conns*cfg.Paths), make([]uint32, cfg.Conns*cfg.Paths)
		return func(in *retx.In, out *retx.Out) {
			if out.PktValid && in.PktReady && !out.PktRetx {
				sent[int(out.PktConn)*cfg.Paths+int(out.PktPath)]++
			}
			if in.AckValid && out.AckReady {
				k := int(in.AckConn)*cfg.Paths + int(in.AckPath)
				acked[k] = max(acked[k], in.AckPseq)
			}
		}
	}, func(cfg config.Config, drv *Driver, cycles int64) {
		for k := range sent {
			c, p := k/cfg.Paths, k%cfg.Paths
			require.Greater(t, sent[k], 1<<8, "preset %s: packets on (connection %d, path %d)", cfg.Name, c, p)
			require.GreaterOrEqual(t, acked[k], uint32(1<<8),
				"preset %s: highest ACKed sequence of (connection %d, path %d)", cfg.Name, c, p)
		}
		t.Logf("preset %s: %d cycles, packets per pair %d..%d, %d retransmissions",
			cfg.Name, cycles, slices.Min(sent), slices.Max(sent), drv.Stats.Retx)
	})
}
