package cosim_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/spraynic/spraynic/config"
	"github.com/spraynic/spraynic/cosim"
	"github.com/spraynic/spraynic/testseed"
)

// TestNicRoCELockstep runs two nic_roce RTL instances (rtl/tb/nic_roce_tb.v), each in cycle lockstep with its
// twin golden/nicroce on the roce_rx and roce_tx outputs of its RTL, joined by a seeded frame channel at 0% and
// 1% loss (and 1% corrupted frames), under the default preset: messages both ways on two connections, with the
// independent checks (MAC TX frames, transfer scoreboard, completions, counters).
func TestNicRoCELockstep(t *testing.T) {
	sd := testseed.Seed(t)
	fmt.Printf("cosim: TestNicRoCELockstep seed=%d (SEED=N to change)\n", sd)
	if _, err := exec.LookPath("verilator"); err != nil {
		t.Skip("verilator not installed (make deps)")
	}
	cfg, err := config.Preset(presetOr("default"))
	require.NoError(t, err)
	r := root(t)
	cache := os.Getenv("SPRAYNIC_CACHE")
	if cache == "" {
		cache = filepath.Join(r, "build", "models")
	}
	lib, err := cosim.BuildNicRoCETB(r, cfg, cache)
	require.NoError(t, err)
	for _, c := range []struct {
		name      string
		loss, bad float64
	}{{"loss0", 0, 0}, {"loss1", 0.01, 0.01}} {
		// Every run has 5% spoofed data frames (a copy from a wrong source IP or MAC) for the peer check.
		t.Run(c.name, func(t *testing.T) {
			repro := fmt.Sprintf("SEED=%d go test ./cosim -run 'TestNicRoCELockstep/%s$' -count=1", sd, c.name)
			start := time.Now()
			res, err := cosim.RunNicRoCE(cosim.NicRoCEOptions{Lib: lib, Config: cfg, Seed: sd, Loss: c.loss,
				Bad: c.bad, Spoof: 0.05, Conns: 3, Msgs: 16, MaxCycles: 400000, Repro: repro})
			require.NoError(t, err, "seed %d", sd)
			t.Logf("%s: %d cycles per top, %d frames (%d data, %d ACK; %d lost, %d corrupted, %d spoofed added), "+
				"%d bytes, %d completions, %v", c.name, res.Cycles, res.Frames, res.DataFrames, res.AckFrms, res.Lost,
				res.Bad, res.Spoofed, res.Bytes, res.Completions, time.Since(start).Round(time.Millisecond))
		})
	}
}

// presetOr is $NICROCE_PRESET, else def: the lockstep on another preset (a model build each).
func presetOr(def string) string {
	if p := os.Getenv("NICROCE_PRESET"); p != "" {
		return p
	}
	return def
}
