package bench

import (
	"fmt"
	"io"
	"time"

	"github.com/spraynic/spraynic/config"
	"github.com/spraynic/spraynic/cosim"
	"github.com/spraynic/spraynic/cosim/bridge"
	"github.com/spraynic/spraynic/system"
)

// FramesBench is the frame-level system (spraynic sim --rtl --frames) beside its two Verilator models alone.
type FramesBench struct {
	// Config, Seed, DurationUS and Loss give the run; Cycles its length.
	Config     string  `json:"config"`
	Seed       uint64  `json:"seed"`
	DurationUS float64 `json:"duration_us"`
	Loss       float64 `json:"loss"`
	Cycles     int64   `json:"cycles"`
	// Goodput is the run's goodput (a check that the run carried traffic).
	Goodput float64 `json:"goodput"`
	// Lockstep is the whole run: two nic_roce RTL tops each in lockstep with its twin, the independent checks,
	// the networks, the hosts and the transfer scoreboard, cycles/s.
	Lockstep float64 `json:"lockstep_cps"`
	// RawA/B are each top's Verilator model from its C++ loop over the inputs it had in the run, cycles/s; Raw
	// = Cycles / (raw A time + raw B time).
	RawA float64 `json:"verilator_raw_a_cps"`
	RawB float64 `json:"verilator_raw_b_cps"`
	Raw  float64 `json:"verilator_raw_cps"`
}

// LockstepVsRaw is Lockstep/Raw.
func (f FramesBench) LockstepVsRaw() float64 { return ratio(f.Lockstep, f.Raw) }

// BenchFrames runs the frame-level system at 1% loss for durationUS, recording each top's inputs, then replays
// each recording once from the C++ loop of a fresh model instance (opening it is not timed). Cycles counts the
// whole run (reset, programming, measured time and drain), as each top stepped it.
func BenchFrames(root string, cfg config.Config, seed uint64, durationUS float64) (FramesBench, error) {
	f := FramesBench{Config: cfg.Name, Seed: seed, DurationUS: durationUS, Loss: 0.01}
	o := system.Options{Config: cfg, Loss: f.Loss, DurationUS: durationUS, Seed: seed}
	start := time.Now()
	r, st, err := cosim.SimFrames(cosim.FrameSimOptions{Root: root, Sim: o, Record: true,
		Repro: fmt.Sprintf("spraynic sim --rtl --frames --loss 0.01 --duration-us %g --seed %d", durationUS, seed)})
	secs := time.Since(start).Seconds()
	if err != nil {
		return f, fmt.Errorf("frame-level system: %w", err)
	}
	f.Cycles, f.Goodput = st.Sides[0].Cycles, r.Goodput
	var raw [2]float64
	for side, in := range st.Inputs {
		if raw[side], err = rawRun(st.Lib, in); err != nil {
			return f, fmt.Errorf("top %c: %w", 'A'+side, err)
		}
	}
	n := float64(f.Cycles)
	f.Lockstep = n / secs
	f.RawA, f.RawB, f.Raw = n/raw[0], n/raw[1], n/(raw[0]+raw[1])
	return f, nil
}

// rawRun runs the packed inputs once through a fresh instance of the model at lib and returns the seconds.
func rawRun(lib string, pattern []uint32) (float64, error) {
	m, err := bridge.Open(lib)
	if err != nil {
		return 0, err
	}
	defer m.Close()
	start := time.Now()
	err = m.RunRaw(int64(len(pattern)/m.InWords()), pattern)
	return time.Since(start).Seconds(), err
}

// printFrames prints the frame-level system's row and note.
func printFrames(w io.Writer, f FramesBench) {
	fmt.Fprintf(w, "%-13s %-12s %12.0f %12.0f %12s %12s %10.3f %10s\n", "2 nic_roce", "frames A+B", f.Raw,
		f.Lockstep, "-", "-", f.LockstepVsRaw(), "-")
	fmt.Fprintf(w, "  2 nic_roce: spraynic sim --rtl --frames --loss %g --duration-us %g (%d cycles, goodput %.2f%%); "+
		"(2) = the whole run (two tops in lockstep with their twins, networks, hosts, scoreboard); ",
		f.Loss, f.DurationUS, f.Cycles, 100*f.Goodput)
	fmt.Fprintf(w, "(1) = cycles / (raw A + raw B) over the inputs each top had; raw A %.0f, B %.0f cycles/s\n",
		f.RawA, f.RawB)
}

// framesBenchUS is the measured time of the frame-level bench run: 50 us is 12,500 cycles at 250 MHz plus the
// programming and drain, a few seconds in lockstep.
const framesBenchUS = 50
