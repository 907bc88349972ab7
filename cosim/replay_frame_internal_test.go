package cosim

import (
	"bytes"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/spraynic/spraynic/config"
	"github.com/spraynic/spraynic/system"
	"github.com/spraynic/spraynic/system/roce"
	"github.com/spraynic/spraynic/tops"
)

// TestFrameReplayBites replays a simulation capture into the roce_rx of the default preset (MTU 4096) while
// roce.Parse judges with an MTU of 1000: every data frame with more payload must be a verdict mismatch naming its
// frame.
func TestFrameReplayBites(t *testing.T) {
	if _, err := exec.LookPath("verilator"); err != nil {
		t.Skip("verilator not installed (make deps)")
	}
	cfg, err := config.Preset("default")
	require.NoError(t, err)
	var buf bytes.Buffer
	_, err = system.Run(system.Options{Config: cfg, Seed: 1, DurationUS: 3, DrainUS: 20, Msg: "fixed:1500",
		Capture: &buf})
	require.NoError(t, err)
	c, err := roce.ReadCapture("sim.pcap", &buf)
	require.NoError(t, err)
	root, err := tops.Root()
	require.NoError(t, err)
	res, err := frameReplay(root, cfg, roce.LimitsFor(cfg, 1000), c, os.Stderr)
	require.NoError(t, err)
	big := 0
	for i, f := range c.Frames {
		if p, err := roce.LimitsFor(cfg, cfg.MTU).Parse(f.Data); err == nil && !p.IsAck() && len(p.Data.Payload) > 1000 {
			if big == 0 {
				want := FrameMismatch{Frame: i + 1, Field: "verdict", RTL: "data", Parse: "limit (roce: Spray payload: " +
					"outside the configuration: 1500 bytes, allowed 0..1000 bytes (the MTU))"}
				require.Equal(t, want, res.Mismatches[0])
			}
			big++
		}
	}
	require.Positive(t, big)
	require.Equal(t, big, res.MismatchCount, "one mismatch per data frame above 1000 bytes")
	err = res.Err("sim.pcap")
	require.Error(t, err)
	require.True(t, strings.HasPrefix(err.Error(), "replay: sim.pcap: "), err.Error())
}
