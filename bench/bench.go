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
	dut, err := bridge.Open(lib)
	if err != nil {
		return nil, err
	}
	defer dut.Close()
	pattern, err := recordRx(r, prof, dut)
	if err != nil {
		return nil, err
	}
	modes := []struct {
		name string
		run  func() error
	}{
		{name: "verilator C++ loop (limit)", run: func() error { return dut.RunRaw(r.Cycles, pattern) }},
		{name: "lockstep rtl+golden+scoreboard, 1024 cycles/call", run: rxLockstep(r, prof, lib, 1024)},
		{name: "lockstep rtl+golden+scoreboard, 1 cycle/call", run: rxLockstep(r, prof, lib, 1)},
		{name: "golden+scoreboard, no rtl", run: rxLockstep(r, prof, "", 0)},
	}
	var speeds []Speed
	for _, m := range modes {
		start := time.Now()
		if err := m.run(); err != nil {
			return nil, fmt.Errorf("bench %s: %w", m.name, err)
		}
		speeds = append(speeds, Speed{Mode: m.name, CyclesPerSec: float64(r.Cycles) / time.Since(start).Seconds()})
	}
	return speeds, nil
}

// recordRx records the stimulus of r once (golden-driven, as in lockstep) as the model's packed input words, for
// the raw C++ loop.
func recordRx(r cosim.Request, prof rxtraffic.Profile, dut *bridge.Model) ([]uint32, error) {
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
	return pattern, nil
}

// rxLockstep is one lockstep run of r on a fresh model of library lib at batch cycles per call, or of the golden
// model and scoreboard alone when lib is "".
func rxLockstep(r cosim.Request, prof rxtraffic.Profile, lib string, batch int) func() error {
	return func() error {
		var d *bridge.Model
		if lib != "" {
			var err error
			if d, err = bridge.Open(lib); err != nil {
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
