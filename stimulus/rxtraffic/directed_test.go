package rxtraffic_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/spraynic/spraynic/config"
	"github.com/spraynic/spraynic/golden/rxreorder"
	"github.com/spraynic/spraynic/scoreboard"
	"github.com/spraynic/spraynic/stimulus/rxtraffic"
)

// playScript runs s on the golden model of cfg for cycles cycles with the scoreboard watching and returns the
// script's check and the scoreboard's verdict.
func playScript(t *testing.T, cfg config.Config, s rxtraffic.Script, cycles int64) (check, sb error) {
	t.Helper()
	g, err := rxreorder.New(cfg)
	require.NoError(t, err)
	d := rxtraffic.NewScript(cfg, s)
	board := scoreboard.NewRx(cfg)
	var in rxreorder.In
	var out rxreorder.Out
	for c := int64(0); c < cycles; c++ {
		d.Drive(c, &in)
		g.Step(&in, &out)
		if sb == nil {
			sb = board.Observe(c, &in, &out)
		}
		d.Observe(c, &in, &out)
	}
	if sb == nil {
		sb = board.Finish()
	}
	return d.Check(), sb
}

// TestScriptsGolden: on every preset every directed script runs to its end on the golden model with the counters
// it expects and the scoreboard's approval, at the length the rx_dir tests give it; cut to 8 cycles it stops
// before its end and its check says so.
func TestScriptsGolden(t *testing.T) {
	for _, name := range config.PresetNames() {
		cfg, err := config.Preset(name)
		require.NoError(t, err)
		for _, s := range rxtraffic.Scripts() {
			t.Run(name+"/"+s.Name, func(t *testing.T) {
				check, sb := playScript(t, cfg, s, int64(12*cfg.Window+4*cfg.AckFifoDepth+1000))
				require.NoError(t, sb, "scoreboard")
				require.NoError(t, check, "script check")
				check, _ = playScript(t, cfg, s, 8)
				require.ErrorContains(t, check, "script stopped at step", "a run too short must not pass")
			})
		}
	}
}
