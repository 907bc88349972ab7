package bench

import (
	"fmt"
	"time"
	"unsafe"

	"github.com/spraynic/spraynic/cosim"
	"github.com/spraynic/spraynic/cosim/bridge"
	"github.com/spraynic/spraynic/golden/rxreorder"
	"github.com/spraynic/spraynic/scoreboard"
	"github.com/spraynic/spraynic/stimulus/rxtraffic"
)

// Speed is one measured mode of a benchmark.
type Speed struct {
	// Mode names what ran; CyclesPerSec is its speed.
	Mode         string
	CyclesPerSec float64
}

// BenchRx measures, in one process and one after the other on the same model, stimulus and config: the Verilator
// model stepped from a C++ loop over the recorded inputs (the limit), lockstep co-simulation (RTL + golden +
// scoreboard) at 1024 and at 1 cycle per call, and the golden model with the scoreboard alone. Wall-clock time is
// used here only, to measure; never inside a model.
func BenchRx(r cosim.Request) ([]Speed, error) {
	t, err := cosim.Lookup(r.Test)
	if err != nil {
		return nil, err
	}
	if t.Block != "rx_reorder" {
		return nil, fmt.Errorf("bench: test %s is not an rx_reorder test", r.Test)
	}
	prof, err := rxtraffic.Lookup(r.Test[len("rx_"):])
	if err != nil {
		return nil, err
	}
	lib, err := cosim.BuildTop(r.Root, t.Block, r.Config, bridge.Plain, r.Log)
	if err != nil {
		return nil, err
	}
	open := func() (*bridge.Model, error) { return bridge.Open(lib) }
	var speeds []Speed
	measure := func(mode string, f func() error) error {
		start := time.Now()
		if err := f(); err != nil {
			return fmt.Errorf("bench %s: %w", mode, err)
		}
		speeds = append(speeds, Speed{Mode: mode, CyclesPerSec: float64(r.Cycles) / time.Since(start).Seconds()})
		return nil
	}
	// Record the stimulus once (golden-driven, as in lockstep) for the raw C++ loop.
	dut, err := open()
	if err != nil {
		return nil, err
	}
	defer dut.Close()
	inL, err := cosim.NewLayout(typeOf[rxreorder.In](), dut.Ports(), bridge.In, func(string) string { return "" })
	if err != nil {
		return nil, err
	}
	gold, err := rxreorder.New(r.Config)
	if err != nil {
		return nil, err
	}
	drv, err := rxtraffic.New(r.Config, prof, r.Seed, r.Cycles)
	if err != nil {
		return nil, err
	}
	pattern := make([]uint32, r.Cycles*int64(inL.Words()))
	var in rxreorder.In
	var out rxreorder.Out
	for c := int64(0); c < r.Cycles; c++ {
		drv.Drive(c, &in)
		gold.Step(&in, &out)
		drv.Observe(c, &in, &out)
		inL.Pack(unsafe.Pointer(&in), pattern[c*int64(inL.Words()):])
	}
	if err := measure("verilator C++ loop (limit)", func() error { return dut.RunRaw(r.Cycles, pattern) }); err != nil {
		return nil, err
	}
	lockstep := func(batch int, withDUT bool) func() error {
		return func() error {
			var d *bridge.Model
			if withDUT {
				var err error
				if d, err = open(); err != nil {
					return err
				}
				defer d.Close()
			}
			g, err := rxreorder.New(r.Config)
			if err != nil {
				return err
			}
			dr, err := rxtraffic.New(r.Config, prof, r.Seed, r.Cycles)
			if err != nil {
				return err
			}
			_, err = cosim.Lockstep[rxreorder.In, rxreorder.Out](d, g, dr, scoreboard.NewRx(r.Config), rxreorder.Valid,
				cosim.Options{Cycles: r.Cycles, Batch: batch, Repro: r.Repro()})
			return err
		}
	}
	if err := measure("lockstep rtl+golden+scoreboard, 1024 cycles/call", lockstep(1024, true)); err != nil {
		return nil, err
	}
	if err := measure("lockstep rtl+golden+scoreboard, 1 cycle/call", lockstep(1, true)); err != nil {
		return nil, err
	}
	if err := measure("golden+scoreboard, no rtl", lockstep(0, false)); err != nil {
		return nil, err
	}
	return speeds, nil
}
