package bench

import (
	"os/exec"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/spraynic/spraynic/config"
	"github.com/spraynic/spraynic/tops"
)

// TestBenchFrames runs the frame-level bench row: the run carried traffic, and every speed is measured from the
// recorded inputs of both tops (no speed is compared: the machines are noisy).
func TestBenchFrames(t *testing.T) {
	if _, err := exec.LookPath("verilator"); err != nil {
		t.Skip("verilator not installed (make deps)")
	}
	root, err := tops.Root()
	require.NoError(t, err)
	cfg, err := config.Preset("default")
	require.NoError(t, err)
	f, err := BenchFrames(root, cfg, 1, framesBenchUS)
	require.NoError(t, err)
	t.Logf("%+v lockstep/raw %.3f", f, f.LockstepVsRaw())
	require.Greater(t, f.Cycles, int64(framesBenchUS*250), "the measured time and more")
	require.Positive(t, f.Goodput)
	for _, v := range []float64{f.Lockstep, f.RawA, f.RawB, f.Raw} {
		require.Positive(t, v)
	}
	_, err = rawRun("/nonexistent/model.so", nil)
	require.Error(t, err)
}
