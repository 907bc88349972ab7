package main

import (
	"fmt"
	"runtime"

	"github.com/spraynic/spraynic/system/scenario"
	"github.com/urfave/cli/v2"
)

func simScenariosCommand() *cli.Command {
	return &cli.Command{
		Name:  "scenarios",
		Usage: "the tail and scale scenarios over several seeds, each against its baseline and its targets",
		Description: "Sets: tail (default preset: 1% random and bursty loss, a dead path, a slow path, ACK loss, " +
			"go-back-N)\nand scale (u250: 8 to 1024 connections, both modes). Exit 1 when a run fails or misses a " +
			"target (docs/e2e.md, \"Scenarios\").",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "set", Value: "tail", Usage: "scenario set: tail or scale"},
			&cli.StringSliceFlag{Name: "only", Usage: "only these scenarios of the set, with their baselines"},
			&cli.IntFlag{Name: "seeds", Value: 5, Usage: "seeds per scenario, from --seed"},
			&cli.Uint64Flag{Name: "seed", Value: defaultSeed, Usage: "first seed"},
			&cli.IntFlag{Name: "jobs", Usage: "parallel runs (0: one per core)"},
		},
		Action: func(c *cli.Context) error {
			set, err := scenario.Lookup(c.String("set"))
			if err != nil {
				return err
			}
			if c.Int("seeds") < 1 {
				return fmt.Errorf("--seeds %d: allowed 1 or more", c.Int("seeds"))
			}
			var seeds []uint64
			for k := 0; k < c.Int("seeds"); k++ {
				seeds = append(seeds, c.Uint64("seed")+uint64(k))
			}
			jobs := c.Int("jobs")
			if jobs <= 0 {
				jobs = runtime.NumCPU()
			}
			rep, err := scenario.RunSet(set, seeds, jobs, c.StringSlice("only"))
			if err != nil {
				return err
			}
			if err := rep.Write(c.App.Writer); err != nil {
				return err
			}
			if rep.Failed() {
				return fmt.Errorf("scenario set %s: a run failed or missed a target (see above)", set.Name)
			}
			return nil
		},
	}
}
