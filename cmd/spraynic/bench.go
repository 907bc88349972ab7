package main

import (
	"fmt"
	"os"
	"runtime"

	"github.com/spraynic/spraynic/bench"
	"github.com/urfave/cli/v2"
)

func benchCommand() *cli.Command {
	return &cli.Command{
		Name:     "bench",
		Category: catMeasure,
		Usage:    "speed of every mode side by side in one run, regression throughput, block throughput and latency",
		Description: "Per block: raw Verilator C++ loop, Go lockstep, Icarus Verilog and the golden model on the " +
			"same RTL, config and stimulus\n(the nic_transport top on recorded end-to-end inputs; the two-endpoint " +
			"system in lockstep beside both Verilator\nmodels alone); regression seeds per minute; rx_reorder, " +
			"path_sel and retx throughput and latency.",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "test", Value: "rx_inorder",
				Usage: "rx_reorder test whose stimulus the rx modes section uses"},
			&cli.StringFlag{Name: "config", Value: "default", Usage: "preset name or config file"},
			&cli.Uint64Flag{Name: "seed", Value: defaultSeed, Usage: "stimulus seed"},
			&cli.Int64Flag{Name: "cycles", Value: 400000, Usage: "cycles per mode (rx modes section)"},
			&cli.Int64Flag{Name: "block-cycles", Value: 200000,
				Usage: "cycles per mode and block (block table, Icarus included)"},
			&cli.Int64Flag{Name: "icarus-cycles", Value: 10000,
				Usage: "cycles Icarus runs: the first ones of the same recording (0: --block-cycles; Icarus is ~1000x slower)"},
			&cli.IntFlag{Name: "jobs", Usage: "workers for the seeds-per-minute run (0: one per core)"},
			&cli.StringFlag{Name: "json", Usage: "also write every figure as JSON here"},
			&cli.BoolFlag{Name: "quick", Usage: "skip the seeds-per-minute run and the rx sections"},
		},
		Action: func(c *cli.Context) error {
			req, err := request(c.String("test"), c.String("config"), c.Uint64("seed"), c.Int64("cycles"))
			if err != nil {
				return err
			}
			if err := checkOutputs(c, "json"); err != nil {
				return err
			}
			jobs := c.Int("jobs")
			if jobs < 0 {
				return usageErr("--jobs %d: out of range (allowed: 0 for one per core, or more)", jobs)
			}
			if jobs == 0 {
				jobs = runtime.NumCPU()
			}
			rep, err := bench.Run(c.App.Writer, bench.Options{Req: req, BlockCycles: c.Int64("block-cycles"),
				IcarusCycles: c.Int64("icarus-cycles"), Jobs: jobs, Quick: c.Bool("quick"), Log: os.Stderr})
			if err != nil {
				return err
			}
			if f := c.String("json"); f != "" {
				if err := writeJSON(f, rep); err != nil {
					return fmt.Errorf("--json: %w", err)
				}
				fmt.Fprintf(c.App.Writer, "json: %s\n", f)
			}
			return nil
		},
	}
}
