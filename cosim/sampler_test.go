package cosim

import (
	"fmt"
	"testing"

	"github.com/spraynic/spraynic/config"
	"github.com/spraynic/spraynic/golden/nictransport"
	"github.com/spraynic/spraynic/golden/pathsel"
	"github.com/spraynic/spraynic/golden/retx"
	"github.com/spraynic/spraynic/golden/rxreorder"
	"github.com/stretchr/testify/require"
)

type countSampler struct {
	n, pkts int64
}

func (s *countSampler) Sample(c int64, in *rxreorder.In, out *rxreorder.Out) {
	if c != s.n {
		panic("cycles out of order")
	}
	s.n++
	if in.PktValid && out.PktReady {
		s.pkts++
	}
}

// cycleCount counts the cycles a sampler of any port types sees, in order.
type cycleCount[I, O any] struct{ n int64 }

func (s *cycleCount[I, O]) Sample(c int64, _ *I, _ *O) {
	if c == s.n {
		s.n++
	}
}

// TestEveryTestFeedsTheSampler: every registered test passes Request.Functional's sampler to its lockstep run, so
// functional coverage sees every cycle of every test (golden-only runs, default preset).
func TestEveryTestFeedsTheSampler(t *testing.T) {
	cfg, err := config.Resolve("default")
	require.NoError(t, err)
	for _, tc := range Tests() {
		var n func() int64
		r := Request{Test: tc.Name, Config: cfg, Seed: 1, Golden: true,
			Functional: func(block string, _ config.Config) (any, error) {
				switch block {
				case "rx_reorder":
					s := &cycleCount[rxreorder.In, rxreorder.Out]{}
					n = func() int64 { return s.n }
					return s, nil
				case "retx":
					s := &cycleCount[retx.In, retx.Out]{}
					n = func() int64 { return s.n }
					return s, nil
				case "path_sel":
					s := &cycleCount[pathsel.In, pathsel.Out]{}
					n = func() int64 { return s.n }
					return s, nil
				case "nic_transport":
					s := &cycleCount[nictransport.TopIn, nictransport.TopOut]{}
					n = func() int64 { return s.n }
					return s, nil
				}
				return nil, fmt.Errorf("block %q unknown to this test", block)
			}}
		res, err := Run(r)
		require.NoError(t, err, tc.Name)
		require.NotNil(t, n, tc.Name)
		require.Equal(t, res.Cycles, n(), "%s: the sampler saw every cycle in order", tc.Name)
	}
}

// TestSamplerHook: Request.Functional's sampler sees every cycle of the run in order, a run without it has none
// registered, and a sampler of the wrong port types is an error.
func TestSamplerHook(t *testing.T) {
	cfg, err := config.Resolve("default")
	require.NoError(t, err)
	s := &countSampler{}
	var block string
	r := Request{Test: "rx_dir_same_path", Config: cfg, Seed: 1, Golden: true,
		Functional: func(b string, _ config.Config) (any, error) { block = b; return s, nil }}
	res, err := Run(r)
	require.NoError(t, err)
	require.Equal(t, "rx_reorder", block)
	require.Equal(t, res.Cycles, s.n)
	require.NotZero(t, s.pkts)

	r.Functional = func(string, config.Config) (any, error) { return &countSampler{}, nil }
	r.Test = "retx_dir_sack_hole"
	_, err = Run(r)
	require.ErrorContains(t, err, "does not sample")
}
