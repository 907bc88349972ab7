package cosim

import (
	"testing"

	"github.com/spraynic/spraynic/config"
	"github.com/spraynic/spraynic/system"
	"github.com/stretchr/testify/require"
)

// TestWaveformClock: a waveform's default clock is the end-to-end simulation's, and a run with waves refuses a
// clock out of the simulation's range before it builds anything.
func TestWaveformClock(t *testing.T) {
	require.Equal(t, system.Options{}.Defaults().ClockMHz, DefaultClockMHz, "spraynic sim's default clock")
	cfg, err := config.Resolve("default")
	require.NoError(t, err)
	for _, tc := range []struct {
		name string
		mhz  int
		want string
	}{
		{name: "too fast", mhz: 2001, want: "--clock-mhz 2001: out of range (allowed 1..2000)"},
		{name: "negative", mhz: -250, want: "--clock-mhz -250: out of range (allowed 1..2000)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := Request{Test: "rx_loss", Config: cfg, Seed: 1, Waves: t.TempDir() + "/w.fst", ClockMHz: tc.mhz}
			_, err := Run(r)
			require.EqualError(t, err, tc.want)
		})
	}
}
