package cosim_test

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/spraynic/spraynic/config"
	"github.com/spraynic/spraynic/cosim"
	"github.com/stretchr/testify/require"
)

// defaultSeed is the fixed seed of the co-simulation tests; SEED=N reproduces another.
const defaultSeed = 1

func seed(t *testing.T) uint64 {
	s := os.Getenv("SEED")
	if s == "" {
		return defaultSeed
	}
	v, err := strconv.ParseUint(s, 10, 64)
	require.NoError(t, err, "SEED=%q must be an unsigned integer", s)
	return v
}

func root(t *testing.T) string {
	r, err := cosim.Root()
	require.NoError(t, err)
	return r
}

// TestRxSmoke runs every rx_reorder test in lockstep on every preset.
func TestRxSmoke(t *testing.T) {
	sd := seed(t)
	fmt.Printf("cosim: TestRxSmoke seed=%d (SEED=N to change)\n", sd)
	for _, cname := range []string{"default", "ice40", "u250"} {
		cfg, err := config.Preset(cname)
		require.NoError(t, err)
		for _, tc := range cosim.Tests() {
			if !strings.HasPrefix(tc.Name, "rx_") {
				continue
			}
			t.Run(cname+"/"+tc.Name, func(t *testing.T) {
				req := cosim.Request{Test: tc.Name, Config: cfg, Seed: sd, Root: root(t), Log: os.Stderr}
				res, err := cosim.Run(req)
				require.NoError(t, err, "seed %d; reproduce: %s", sd, req.Repro())
				require.Positive(t, res.Packets, "the test must move packets")
			})
		}
	}
}
