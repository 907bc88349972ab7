package main

import (
	"fmt"
	"strings"

	"github.com/spraynic/spraynic/bench"
	"github.com/urfave/cli/v2"
)

func measureCommand() *cli.Command {
	return &cli.Command{
		Name:     "measure",
		Category: catMeasure,
		Usage: "the throughput and latency figures of one lockstep-checked run (rx_*, retx_* tests; path_sel: " +
			"path_congested)",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "test", Required: true, Usage: "test name"},
			&cli.StringFlag{Name: "config", Value: "default", Usage: "preset name or config file"},
			&cli.Uint64Flag{Name: "seed", Value: defaultSeed, Usage: "stimulus seed"},
			&cli.Int64Flag{Name: "cycles", Usage: "cycles (0: the test's default length)"},
		},
		Action: func(c *cli.Context) error {
			req, err := request(c.String("test"), c.String("config"), c.Uint64("seed"), c.Int64("cycles"))
			if err != nil {
				return err
			}
			var fig fmt.Stringer
			switch t := req.Test; {
			case strings.HasPrefix(t, "retx_") && !strings.HasPrefix(t, "retx_dir_"):
				fig, err = bench.MeasureRetx(req)
			case strings.HasPrefix(t, "rx_") && !strings.HasPrefix(t, "rx_dir_"):
				fig, err = bench.MeasureRx(req)
			case t == "path_congested":
				fig, err = bench.MeasurePathSel(req)
			default:
				return usageErr("--test %s: no figures for it (allowed: rx_<profile>, retx_<profile>, path_congested)", t)
			}
			if err != nil {
				return err
			}
			fmt.Fprintf(c.App.Writer, "seed %d\n%s\n", req.Seed, fig)
			return nil
		},
	}
}
