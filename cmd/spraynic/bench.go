package main

import (
	"fmt"

	"github.com/spraynic/spraynic/cosim"
	"github.com/urfave/cli/v2"
)

func benchCommand() *cli.Command {
	return &cli.Command{
		Name:  "bench",
		Usage: "measure co-simulation speed against raw Verilator stepping, side by side in one run",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "test", Value: "rx_inorder", Usage: "test whose stimulus is used"},
			&cli.StringFlag{Name: "config", Value: "default", Usage: "preset name or config file"},
			&cli.Uint64Flag{Name: "seed", Value: defaultSeed, Usage: "stimulus seed", EnvVars: []string{"SPRAYNIC_SEED", "SEED"}},
			&cli.Int64Flag{Name: "cycles", Value: 400000, Usage: "cycles per mode"},
		},
		Action: func(c *cli.Context) error {
			req, err := request(c.String("test"), c.String("config"), c.Uint64("seed"), c.Int64("cycles"))
			if err != nil {
				return err
			}
			if req.Cycles <= 0 {
				return fmt.Errorf("--cycles %d: must be > 0", req.Cycles)
			}
			speeds, err := cosim.BenchRx(req)
			if err != nil {
				return err
			}
			fmt.Fprintf(c.App.Writer, "bench %s config=%s seed=%d cycles=%d\n", req.Test, req.Config.Name, req.Seed, req.Cycles)
			fmt.Fprintf(c.App.Writer, "%-52s %14s %8s\n", "mode", "cycles/s", "vs limit")
			for _, s := range speeds {
				fmt.Fprintf(c.App.Writer, "%-52s %14.0f %8.2f\n", s.Mode, s.CyclesPerSec, s.CyclesPerSec/speeds[0].CyclesPerSec)
			}
			fmt.Fprintf(c.App.Writer, "\nrx_reorder throughput and release latency (lockstep-checked runs, seed %d)\n", req.Seed)
			for _, t := range cosim.MeasureTests {
				r := req
				r.Test, r.Cycles = t, 0
				f, err := cosim.MeasureRx(r)
				if err != nil {
					return err
				}
				fmt.Fprintln(c.App.Writer, f)
			}
			return nil
		},
	}
}
