package bench

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"

	"github.com/spraynic/spraynic/cosim"
	"github.com/spraynic/spraynic/regress"
	"github.com/spraynic/spraynic/system"
)

// Report is every figure of a bench run (the --json output of spraynic bench).
type Report struct {
	// Blocks are the per-block speeds (the nic_transport top included); System the two-endpoint system in
	// lockstep beside both Verilator models stepped alone; Rx the rx_reorder lockstep modes (limit, batches, golden).
	Blocks []BlockBench `json:"blocks"`
	System *SystemBench `json:"system,omitempty"`
	// Frames is the frame-level system (two nic_roce tops) beside its two Verilator models alone.
	Frames *FramesBench `json:"frames,omitempty"`
	Rx     []Speed      `json:"rx_modes"`
	// SeedsPerMinute is the smoke suite's throughput on one config with Jobs workers over Runs runs.
	SeedsPerMinute float64 `json:"seeds_per_minute"`
	ThroughputCfg  string  `json:"throughput_config"`
	Runs, Jobs     int
	// Figures are the rx_reorder throughput and latency lines.
	Figures []string `json:"rx_figures"`
	// E2ECyclesPerSec is the golden end-to-end simulation's speed (two endpoints, network, hosts).
	E2ECyclesPerSec float64 `json:"e2e_cycles_per_sec"`
}

// Options steer a bench run.
type Options struct {
	// Req is the rx_reorder test, config, seed and cycles of the rx modes section; its Config and Seed are those
	// of every section.
	Req cosim.Request
	// BlockCycles are the cycles per mode and block; IcarusCycles those Icarus runs (the first of the recording).
	BlockCycles, IcarusCycles int64
	// Jobs are the workers of the seeds-per-minute run (> 0).
	Jobs int
	// Quick skips the seeds-per-minute run and the rx sections.
	Quick bool
	// Log receives model builds.
	Log io.Writer
}

// Run measures every figure, printing the tables to w as it goes.
func Run(w io.Writer, o Options) (Report, error) {
	var rep Report
	req := o.Req
	if req.Cycles <= 0 {
		return rep, fmt.Errorf("--cycles %d: must be > 0", req.Cycles)
	}
	if o.BlockCycles <= 0 {
		return rep, fmt.Errorf("--block-cycles %d: must be > 0", o.BlockCycles)
	}
	if err := runBlocks(w, o, &rep); err != nil {
		return rep, err
	}
	start := time.Now()
	er, err := system.Run(system.Options{Config: req.Config, Loss: 0.01, DurationUS: 1000, Seed: req.Seed})
	if err != nil {
		return rep, fmt.Errorf("end-to-end bench: %w", err)
	}
	rep.E2ECyclesPerSec = float64(er.Cycles) / time.Since(start).Seconds()
	fmt.Fprintf(
		w,
		"\nend-to-end golden simulation (spraynic sim --loss 0.01 --duration-us 1000: two endpoints of golden "+
			"blocks, network, hosts, scoreboard): %.0f cycles/s, goodput %.2f%%\n",
		rep.E2ECyclesPerSec,
		100*er.Goodput,
	)
	if o.Quick {
		return rep, nil
	}
	if err := runThroughput(w, o, &rep); err != nil {
		return rep, err
	}
	return rep, runFigures(w, req, &rep)
}

// runBlocks measures and prints the per-block table and the two-endpoint system.
func runBlocks(w io.Writer, o Options, rep *Report) error {
	req := o.Req
	fmt.Fprintf(w, "bench per block: config=%s seed=%d cycles=%d, every mode on the same RTL and recorded stimulus\n",
		req.Config.Name, req.Seed, o.BlockCycles)
	blocks, err := BenchBlocks(req.Root, req.Config, req.Seed, o.BlockCycles, o.IcarusCycles,
		filepath.Join(req.Root, "build", "bench"), o.Log)
	if err != nil {
		return err
	}
	rep.Blocks = blocks
	fmt.Fprintf(w, "%-13s %-12s %12s %12s %12s %12s %10s %10s\n", "block", "test", "(1) raw", "(2) lockstep",
		"(3) icarus", "golden", "(2)/(1)", "(2)/(3)")
	for _, b := range blocks {
		printBlock(w, b)
	}
	sys, err := BenchSystem(req.Root, req.Config, req.Seed, o.BlockCycles, o.Log)
	if err != nil {
		return fmt.Errorf("bench two-endpoint system: %w", err)
	}
	rep.System = &sys
	fmt.Fprintf(w, "%-13s %-12s %12.0f %12.0f %12s %12.0f %10.3f %10s\n", "2 endpoints", sys.Scenario+" A+B", sys.Raw,
		sys.Lockstep, "-", sys.GoldenE2E, sys.LockstepVsRaw(), "-")
	fmt.Fprintf(w, "  2 endpoints: one golden run of scenario %s records both endpoints (%d cycles, replayed %dx); "+
		"lockstep A %.0f, B %.0f; raw A %.0f, B %.0f cycles/s\n",
		sys.Scenario, sys.Recorded, sys.Reps, sys.LockstepA, sys.LockstepB, sys.RawA, sys.RawB)
	fmt.Fprintf(w, "  2 endpoints: (2) = cycles / (golden run + lockstep A + lockstep B): the closed loop of two RTL "+
		"endpoints (spraynic sim --rtl); (1) = cycles / (raw A + raw B); golden = the run alone\n")
	fr, err := BenchFrames(req.Root, req.Config, req.Seed, framesBenchUS)
	if err != nil {
		return fmt.Errorf("bench frame-level system: %w", err)
	}
	rep.Frames = &fr
	printFrames(w, fr)
	fmt.Fprintf(
		w,
		"cycles/s; (1) Verilator model from its C++ loop, (2) Go lockstep RTL+golden+scoreboard, (3) Icarus "+
			"vvp (incl. $readmemh load) over the first %d cycles\n",
		blocks[0].IcarusCycles,
	)
	return nil
}

// printBlock prints one row of the per-block table and its notes.
func printBlock(w io.Writer, b BlockBench) {
	fmt.Fprintf(w, "%-13s %-12s %12.0f %12.0f %12.0f %12.0f %10.3f %10.1f\n", b.Block, b.Test, b.Raw, b.Lockstep,
		b.Icarus, b.Golden, b.LockstepVsRaw(), b.LockstepVsIcarus())
	if b.Recorded > 0 {
		what := fmt.Sprintf("%d recorded inputs", b.Recorded)
		if n := b.Cycles / b.Reps; n < b.Recorded {
			what = fmt.Sprintf("the first %d of %d recorded inputs", n, b.Recorded)
		}
		fmt.Fprintf(w, "  %s: %s of endpoint %s replayed %dx (%d cycles, a fresh model each time); golden = "+
			"nictransport.NewTop alone\n", b.Block, what, strings.ToUpper(b.Test[len(b.Test)-1:]), b.Reps, b.Cycles)
		fmt.Fprintf(w, "  %s: the golden two-endpoint simulation that records them (both endpoints, network, hosts, "+
			"transfer scoreboard), timed alone: %.0f cycles/s\n", b.Block, b.E2EGolden)
	}
	if b.Note != "" {
		fmt.Fprintf(w, "  %s: %s\n", b.Block, b.Note)
	}
}

// runThroughput measures the regression throughput and the rx_reorder lockstep modes.
func runThroughput(w io.Writer, o Options, rep *Report) error {
	req := o.Req
	spm, runs, err := SeedsPerMinute(req.Root, regress.Suites["smoke"], req.Config.Name, o.Jobs)
	if err != nil {
		return err
	}
	rep.SeedsPerMinute, rep.ThroughputCfg, rep.Runs, rep.Jobs = spm, req.Config.Name, runs, o.Jobs
	fmt.Fprintf(w, "\nregression throughput: smoke suite on config %s, %d runs on %d workers: %.0f seeds/minute\n",
		req.Config.Name, runs, o.Jobs, spm)
	speeds, err := BenchRx(req)
	if err != nil {
		return err
	}
	rep.Rx = speeds
	fmt.Fprintf(w, "\nbench %s config=%s seed=%d cycles=%d\n", req.Test, req.Config.Name, req.Seed, req.Cycles)
	fmt.Fprintf(w, "%-52s %14s %8s\n", "mode", "cycles/s", "vs limit")
	for _, s := range speeds {
		fmt.Fprintf(w, "%-52s %14.0f %8.2f\n", s.Mode, s.CyclesPerSec, s.CyclesPerSec/speeds[0].CyclesPerSec)
	}
	return nil
}

// runFigures measures the throughput and latency figures of the blocks (lockstep-checked runs).
func runFigures(w io.Writer, req cosim.Request, rep *Report) error {
	fmt.Fprintf(w, "\nrx_reorder throughput and release latency (lockstep-checked runs, seed %d)\n", req.Seed)
	for _, t := range MeasureTests {
		r := req
		r.Test, r.Cycles = t, 0
		f, err := MeasureRx(r)
		if err != nil {
			return err
		}
		rep.Figures = append(rep.Figures, f.String())
		fmt.Fprintln(w, f)
	}
	fmt.Fprintf(w, "\npath_sel decisions per cycle and traffic on an ECN-congested link (lockstep-checked, seed %d)\n",
		req.Seed)
	pf, err := MeasurePathSel(req)
	if err != nil {
		return err
	}
	rep.Figures = append(rep.Figures, pf.String())
	fmt.Fprintln(w, pf)
	fmt.Fprintf(w, "\nretx new packets per cycle and SACK-to-retransmission latency (lockstep-checked, seed %d)\n",
		req.Seed)
	for _, t := range RetxMeasureTests {
		r := req
		r.Test, r.Cycles = t, 0
		f, err := MeasureRetx(r)
		if err != nil {
			return err
		}
		rep.Figures = append(rep.Figures, f.String())
		fmt.Fprintln(w, f)
	}
	return nil
}
