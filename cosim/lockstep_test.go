package cosim

import (
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/spraynic/spraynic/config"
	"github.com/spraynic/spraynic/cosim/bridge"
	"github.com/spraynic/spraynic/golden/rxreorder"
	"github.com/spraynic/spraynic/stimulus/rxtraffic"
	"github.com/spraynic/spraynic/tops"
	"github.com/stretchr/testify/require"
)

// corrupt is a golden model that lies about one port from one cycle on, to prove the compare looks.
type corrupt struct {
	inner *rxreorder.Model
	cycle int64
	at    int64
	field func(*rxreorder.Out)
}

func (c *corrupt) Step(in *rxreorder.In, out *rxreorder.Out) {
	c.inner.Step(in, out)
	if c.cycle >= c.at {
		c.field(out)
	}
	c.cycle++
}

func TestLockstepCatchesEveryKindOfPort(t *testing.T) {
	cfg, err := config.Preset("default")
	require.NoError(t, err)
	root, err := tops.Root()
	require.NoError(t, err)
	lib, err := BuildTop(root, "rx_reorder", cfg, bridge.Plain, os.Stderr)
	require.NoError(t, err)
	prof, err := rxtraffic.Lookup("reorder")
	require.NoError(t, err)
	tests := []struct {
		name, port string
		field      func(*rxreorder.Out)
	}{
		{name: "ready", port: "s_pkt_ready", field: func(o *rxreorder.Out) { o.PktReady = !o.PktReady }},
		{name: "payload while valid", port: "m_cpl_handle", field: func(o *rxreorder.Out) {
			if o.CplValid {
				o.CplHandle ^= 1
			}
		}},
		{name: "wide port bit 40", port: "m_ack_sack", field: func(o *rxreorder.Out) {
			if o.AckValid {
				o.AckSack = o.AckSack.Set(40)
			}
		}},
		{name: "counter", port: "cnt_accepted", field: func(o *rxreorder.Out) { o.CntAccepted++ }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dut, err := bridge.Open(lib)
			require.NoError(t, err)
			defer dut.Close()
			g, err := rxreorder.New(cfg)
			require.NoError(t, err)
			// Traffic until cycle 5000, then the drain: the corruption from 1500 meets every kind of output.
			cycles := 5000 + rxtraffic.DrainCycles(cfg, prof)
			drv, err := rxtraffic.New(cfg, prof, 3, cycles)
			require.NoError(t, err)
			_, err = Lockstep[rxreorder.In, rxreorder.Out](dut, &corrupt{inner: g, at: 1500, field: tc.field}, drv, nil,
				rxreorder.Valid, Options{Cycles: cycles, Batch: 1024, Repro: "test"})
			var m *Mismatch
			require.True(t, errors.As(err, &m), "a corrupted golden %s must be a mismatch, got %v", tc.port, err)
			require.Equal(t, tc.port, m.Port)
			require.GreaterOrEqual(t, m.Cycle, int64(1500), "no mismatch before the corruption starts")
			require.Contains(t, m.Error(), "reproduce: test")
		})
	}
}

func TestPortCheckRefusesMismatch(t *testing.T) {
	cfg, err := config.Preset("default")
	require.NoError(t, err)
	root, err := tops.Root()
	require.NoError(t, err)
	lib, err := BuildTop(root, "rx_reorder", cfg, bridge.Plain, os.Stderr)
	require.NoError(t, err)
	dut, err := bridge.Open(lib)
	require.NoError(t, err)
	defer dut.Close()
	// The golden model of another config expects other widths: the load-time check must refuse it.
	other, err := config.Preset("ice40")
	require.NoError(t, err)
	want, err := portsOf[rxreorder.In, rxreorder.Out](rxreorder.Widths(other))
	require.NoError(t, err)
	err = dut.CheckPorts(want)
	require.ErrorContains(t, err, "port s_pkt_conn: width 4 in the model, 2 expected")
}

// TestMismatchWaveformCommand: the waveform command is the reproduce command plus the trace flags, with the same
// run length (a random driver's stimulus depends on it).
func TestMismatchWaveformCommand(t *testing.T) {
	repro := "spraynic run --test rx_random --config ice40 --seed 1 --cycles 32000"
	msg := (&Mismatch{Cycle: 6218, Port: "cnt_duplicate", Repro: repro}).Error()
	require.Contains(t, msg, "\n  waveform:  "+repro+" --waves mismatch.fst --waves-from 6154")
	require.Equal(t, 2, strings.Count(msg, "--cycles"), "once in each command")
}
