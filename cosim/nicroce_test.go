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
	"github.com/spraynic/spraynic/stimulus/dmahost"
	"github.com/spraynic/spraynic/testseed"
	"github.com/spraynic/spraynic/tops"
)

// TestNicRoCELockstep runs two nic_roce RTL instances (rtl/tb/nic_roce_tb.v), each in cycle lockstep with its
// twin golden/nicroce on the roce_rx and roce_tx outputs of its RTL, joined by a seeded frame channel at 0% and
// 1% loss (and 1% corrupted frames), under the default preset: messages both ways on two connections, with the
// independent checks (MAC TX frames, transfer scoreboard, completions, counters).
func TestNicRoCELockstep(t *testing.T) {
	sd := testseed.Seed(t)
	fmt.Printf("cosim: TestNicRoCELockstep seed=%d (SEED=N to change)\n", sd)
	cfg, lib := nicRoCEModel(t)
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

// nicRoCEModel skips without verilator, else returns the preset of presetOr("default") and the nic_roce
// testbench model built for it (cached under $SPRAYNIC_CACHE or build/models).
func nicRoCEModel(t *testing.T) (config.Config, string) {
	t.Helper()
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
	return cfg, lib
}

// presetOr is $NICROCE_PRESET, else def: the lockstep on another preset (a model build each).
func presetOr(def string) string {
	if p := os.Getenv("NICROCE_PRESET"); p != "" {
		return p
	}
	return def
}

// TestNicRoCELint runs verilator --lint-only -Wall on nic_roce's testbench at every preset, with the waivers of
// rtl/lint.vlt: the testbench is not a top of rtl/manifest.json, so `make lint` (which lints nic_roce) does not
// reach it.
func TestNicRoCELint(t *testing.T) {
	if _, err := exec.LookPath("verilator"); err != nil {
		t.Skip("verilator not installed (make deps)")
	}
	r := root(t)
	for _, name := range config.PresetNames() {
		cfg, err := config.Preset(name)
		require.NoError(t, err)
		ps, err := tops.Params(r, "nic_roce", cfg)
		require.NoError(t, err)
		files, err := cosim.NicRoCESources(r)
		require.NoError(t, err)
		args := append([]string{"--lint-only", "-Wall", "-Irtl", "rtl/lint.vlt"}, files...)
		args = append(args, "--top-module", "nic_roce_tb")
		for _, p := range ps {
			args = append(args, fmt.Sprintf("-G%s=%v", p.Name, p.Value))
		}
		cmd := exec.Command("verilator", args...)
		cmd.Dir = r
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, "verilator -Wall nic_roce_tb (%s):\n%s", name, out)
	}
}

// TestNicRoCELockstepChaos runs two nic_roce instances in lockstep with their twins under chaos
// (cosim.RunNicRoCEChaos): closes and reopens mid-traffic, CTRL.enable toggles, CNT_CLEAR, requests longer than
// MAX_MSG, short and late posted receives, blackouts to retry exhaustion, m_cpl_ready back-pressure, and DMA
// read and write errors, with a mild host and with an extreme one (long latencies, stalls, 2 outstanding).
func TestNicRoCELockstepChaos(t *testing.T) {
	sd := testseed.Seed(t)
	fmt.Printf("cosim: TestNicRoCELockstepChaos seed=%d (SEED=N to change)\n", sd)
	cfg, lib := nicRoCEModel(t)
	for _, c := range []struct {
		name string
		loss float64
		host dmahost.Config
	}{
		{"mild", 0.01, dmahost.Config{MaxOutstanding: 256, LatencyMin: 2, LatencyMax: 20, Stall: 0.1,
			RdErrorRate: 0.005, WrErrorRate: 0.005}},
		{"extreme", 0.03, dmahost.Config{MaxOutstanding: 2, LatencyMin: 1, LatencyMax: 200, Stall: 0.4,
			RdErrorRate: 0.01, WrErrorRate: 0.01}},
	} {
		t.Run(c.name, func(t *testing.T) {
			repro := fmt.Sprintf("SEED=%d go test ./cosim -run 'TestNicRoCELockstepChaos/%s$' -count=1", sd, c.name)
			start := time.Now()
			res, err := cosim.RunNicRoCEChaos(cosim.NicRoCEChaosOptions{Lib: lib, Config: cfg, Seed: sd, Conns: 3,
				Cycles: 300000, Loss: c.loss, Host: c.host, EventEvery: 3000, Repro: repro})
			require.NoError(t, err, "seed %d", sd)
			t.Logf("%s: %d cycles per top, completions by status (OK, CONN_ERROR, CLOSED, DMA_ERROR, TOO_LONG) %v, "+
				"events %v, %d DMA writes, %d frames (%d lost), %v", c.name, res.Cycles, res.Status, res.Events,
				res.Writes, res.Frames, res.Lost, time.Since(start).Round(time.Millisecond))
			require.NotZero(t, res.Status[0], "some requests complete OK")
		})
	}
}
