package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/spraynic/spraynic/bench"
	"github.com/spraynic/spraynic/regress"
	"github.com/spraynic/spraynic/system"
	"github.com/urfave/cli/v2"
)

// benchReport is the --json output of bench.
type benchReport struct {
	// Blocks are the per-block speeds (the nic_transport top included); System the two-endpoint system in
	// lockstep beside both Verilator models stepped alone; Rx the rx_reorder lockstep modes (limit, batches, golden).
	Blocks []bench.BlockBench `json:"blocks"`
	System *bench.SystemBench `json:"system,omitempty"`
	Rx     []bench.Speed      `json:"rx_modes"`
	// SeedsPerMinute is the smoke suite's throughput on one config with Jobs workers over Runs runs.
	SeedsPerMinute float64 `json:"seeds_per_minute"`
	ThroughputCfg  string  `json:"throughput_config"`
	Runs, Jobs     int
	// Figures are the rx_reorder throughput and latency lines.
	Figures []string `json:"rx_figures"`
	// E2ECyclesPerSec is the golden end-to-end simulation's speed (two endpoints, network, hosts).
	E2ECyclesPerSec float64 `json:"e2e_cycles_per_sec"`
}

func benchCommand() *cli.Command {
	return &cli.Command{
		Name: "bench",
		Usage: "measure, side by side in one run, per block: raw Verilator C++ loop, Go lockstep, Icarus Verilog and the golden " +
			"model on the same RTL, config and stimulus (the nic_transport top on recorded end-to-end inputs; the two-endpoint system in lockstep " +
			"beside both Verilator models alone); regression seeds per minute; rx_reorder throughput and latency",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "test", Value: "rx_inorder", Usage: "rx_reorder test whose stimulus the rx modes section uses"},
			&cli.StringFlag{Name: "config", Value: "default", Usage: "preset name or config file"},
			&cli.Uint64Flag{Name: "seed", Value: defaultSeed, Usage: "stimulus seed", EnvVars: []string{"SPRAYNIC_SEED", "SEED"}},
			&cli.Int64Flag{Name: "cycles", Value: 400000, Usage: "cycles per mode (rx modes section)"},
			&cli.Int64Flag{Name: "block-cycles", Value: 200000, Usage: "cycles per mode and block (block table, Icarus included)"},
			&cli.Int64Flag{Name: "icarus-cycles", Value: 10000, Usage: "cycles Icarus runs: the first ones of the same recording (0: --block-cycles; Icarus is ~1000x slower)"},
			&cli.IntFlag{Name: "jobs", Usage: "workers for the seeds-per-minute run (0: one per core)", EnvVars: []string{"SPRAYNIC_JOBS"}},
			&cli.StringFlag{Name: "json", Usage: "also write every figure as JSON here"},
			&cli.BoolFlag{Name: "quick", Usage: "skip the seeds-per-minute run and the rx sections"},
		},
		Action: func(c *cli.Context) error {
			req, err := request(c.String("test"), c.String("config"), c.Uint64("seed"), c.Int64("cycles"))
			if err != nil {
				return err
			}
			if req.Cycles <= 0 {
				return fmt.Errorf("--cycles %d: must be > 0", req.Cycles)
			}
			if c.Int64("block-cycles") <= 0 {
				return fmt.Errorf("--block-cycles %d: must be > 0", c.Int64("block-cycles"))
			}
			w := c.App.Writer
			var rep benchReport
			fmt.Fprintf(w, "bench per block: config=%s seed=%d cycles=%d, every mode on the same RTL and recorded stimulus\n",
				req.Config.Name, req.Seed, c.Int64("block-cycles"))
			blocks, err := bench.BenchBlocks(req.Root, req.Config, req.Seed, c.Int64("block-cycles"), c.Int64("icarus-cycles"), filepath.Join(req.Root, "build", "bench"), os.Stderr)
			if err != nil {
				return err
			}
			rep.Blocks = blocks
			fmt.Fprintf(w, "%-13s %-12s %12s %12s %12s %12s %10s %10s\n", "block", "test", "(1) raw", "(2) lockstep", "(3) icarus", "golden", "(2)/(1)", "(2)/(3)")
			for _, b := range blocks {
				fmt.Fprintf(w, "%-13s %-12s %12.0f %12.0f %12.0f %12.0f %10.3f %10.1f\n", b.Block, b.Test, b.Raw, b.Lockstep, b.Icarus, b.Golden, b.LockstepVsRaw(), b.LockstepVsIcarus())
				if b.Recorded > 0 {
					what := fmt.Sprintf("%d recorded inputs", b.Recorded)
					if n := b.Cycles / b.Reps; n < b.Recorded {
						what = fmt.Sprintf("the first %d of %d recorded inputs", n, b.Recorded)
					}
					fmt.Fprintf(w, "  %s: %s of endpoint %s replayed %dx (%d cycles, a fresh model each time); golden = nictransport.NewTop alone\n",
						b.Block, what, strings.ToUpper(b.Test[len(b.Test)-1:]), b.Reps, b.Cycles)
					fmt.Fprintf(w, "  %s: the golden two-endpoint simulation that records them (both endpoints, network, hosts, transfer scoreboard), timed alone: %.0f cycles/s\n",
						b.Block, b.E2EGolden)
				}
				if b.Note != "" {
					fmt.Fprintf(w, "  %s: %s\n", b.Block, b.Note)
				}
			}
			sys, err := bench.BenchSystem(req.Root, req.Config, req.Seed, c.Int64("block-cycles"), os.Stderr)
			if err != nil {
				return fmt.Errorf("bench two-endpoint system: %w", err)
			}
			rep.System = &sys
			fmt.Fprintf(w, "%-13s %-12s %12.0f %12.0f %12s %12.0f %10.3f %10s\n", "2 endpoints", sys.Scenario+" A+B", sys.Raw, sys.Lockstep, "-", sys.GoldenE2E, sys.LockstepVsRaw(), "-")
			fmt.Fprintf(w, "  2 endpoints: one golden run of scenario %s records both endpoints (%d cycles, replayed %dx); lockstep A %.0f, B %.0f; raw A %.0f, B %.0f cycles/s\n",
				sys.Scenario, sys.Recorded, sys.Reps, sys.LockstepA, sys.LockstepB, sys.RawA, sys.RawB)
			fmt.Fprintf(w, "  2 endpoints: (2) = cycles / (golden run + lockstep A + lockstep B): the closed loop of two RTL endpoints (spraynic sim --rtl); (1) = cycles / (raw A + raw B); golden = the run alone\n")
			fmt.Fprintf(w, "cycles/s; (1) Verilator model from its C++ loop, (2) Go lockstep RTL+golden+scoreboard, (3) Icarus vvp (incl. $readmemh load) over the first %d cycles\n", blocks[0].IcarusCycles)
			start := time.Now()
			er, err := system.Run(system.Options{Config: req.Config, Loss: 0.01, DurationUS: 1000, Seed: req.Seed})
			if err != nil {
				return fmt.Errorf("end-to-end bench: %w", err)
			}
			rep.E2ECyclesPerSec = float64(er.Cycles) / time.Since(start).Seconds()
			fmt.Fprintf(w, "\nend-to-end golden simulation (spraynic sim --loss 0.01 --duration-us 1000: two endpoints of golden blocks, network, hosts, scoreboard): %.0f cycles/s, goodput %.2f%%\n",
				rep.E2ECyclesPerSec, 100*er.Goodput)
			if !c.Bool("quick") {
				jobs := c.Int("jobs")
				if jobs <= 0 {
					jobs = runtime.NumCPU()
				}
				spm, runs, err := bench.SeedsPerMinute(req.Root, regress.Suites["smoke"], req.Config.Name, jobs)
				if err != nil {
					return err
				}
				rep.SeedsPerMinute, rep.ThroughputCfg, rep.Runs, rep.Jobs = spm, req.Config.Name, runs, jobs
				fmt.Fprintf(w, "\nregression throughput: smoke suite on config %s, %d runs on %d workers: %.0f seeds/minute\n", req.Config.Name, runs, jobs, spm)

				speeds, err := bench.BenchRx(req)
				if err != nil {
					return err
				}
				rep.Rx = speeds
				fmt.Fprintf(w, "\nbench %s config=%s seed=%d cycles=%d\n", req.Test, req.Config.Name, req.Seed, req.Cycles)
				fmt.Fprintf(w, "%-52s %14s %8s\n", "mode", "cycles/s", "vs limit")
				for _, s := range speeds {
					fmt.Fprintf(w, "%-52s %14.0f %8.2f\n", s.Mode, s.CyclesPerSec, s.CyclesPerSec/speeds[0].CyclesPerSec)
				}
				fmt.Fprintf(w, "\nrx_reorder throughput and release latency (lockstep-checked runs, seed %d)\n", req.Seed)
				for _, t := range bench.MeasureTests {
					r := req
					r.Test, r.Cycles = t, 0
					f, err := bench.MeasureRx(r)
					if err != nil {
						return err
					}
					rep.Figures = append(rep.Figures, f.String())
					fmt.Fprintln(w, f)
				}
				fmt.Fprintf(w, "\npath_sel decisions per cycle and traffic on an ECN-congested link (lockstep-checked, seed %d)\n", req.Seed)
				pf, err := bench.MeasurePathSel(req)
				if err != nil {
					return err
				}
				rep.Figures = append(rep.Figures, pf.String())
				fmt.Fprintln(w, pf)
				fmt.Fprintf(w, "\nretx new packets per cycle and SACK-to-retransmission latency (lockstep-checked, seed %d)\n", req.Seed)
				for _, t := range bench.RetxMeasureTests {
					r := req
					r.Test, r.Cycles = t, 0
					f, err := bench.MeasureRetx(r)
					if err != nil {
						return err
					}
					rep.Figures = append(rep.Figures, f.String())
					fmt.Fprintln(w, f)
				}
			}
			if f := c.String("json"); f != "" {
				b, err := json.MarshalIndent(rep, "", "  ")
				if err != nil {
					return err
				}
				if err := os.WriteFile(f, append(b, '\n'), 0o644); err != nil {
					return fmt.Errorf("--json: %w", err)
				}
				fmt.Fprintf(w, "json: %s\n", f)
			}
			return nil
		},
	}
}
