package cosim_test

import (
	"fmt"
	"os"
	"testing"

	"github.com/spraynic/spraynic/config"
	"github.com/spraynic/spraynic/cosim"
	"github.com/spraynic/spraynic/testseed"
	"github.com/spraynic/spraynic/tops"
	"github.com/stretchr/testify/require"
)

func root(t *testing.T) string {
	r, err := tops.Root()
	require.NoError(t, err)
	return r
}

// TestSmoke runs every co-simulation test (every block) in lockstep on every preset.
func TestSmoke(t *testing.T) {
	sd := testseed.Seed(t)
	fmt.Printf("cosim: TestSmoke seed=%d (SEED=N to change)\n", sd)
	for _, cname := range config.PresetNames() {
		cfg, err := config.Preset(cname)
		require.NoError(t, err)
		for _, tc := range cosim.Tests() {
			t.Run(cname+"/"+tc.Name, func(t *testing.T) {
				t.Parallel()
				req := cosim.Request{Test: tc.Name, Config: cfg, Seed: sd, Root: root(t), Log: os.Stderr}
				res, err := cosim.Run(req)
				require.NoError(t, err, "seed %d; reproduce: %s", sd, req.Repro())
				require.Positive(t, res.Packets, "the test must move packets")
			})
		}
	}
}
