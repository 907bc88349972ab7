package main

import (
	"fmt"
	"os"

	"github.com/spraynic/spraynic/cosim"
	"github.com/spraynic/spraynic/tops"
	"github.com/urfave/cli/v2"
)

// defaultSeed is the seed of every run that does not name one.
const defaultSeed = 1

func runCommand() *cli.Command {
	return &cli.Command{
		Name:     "run",
		Category: catCosim,
		Usage: "run one co-simulation test: RTL under Verilator in lockstep with the golden model, " +
			"plus the scoreboard",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "test", Required: true, Usage: "test name (see 'spraynic tests')",
				EnvVars: []string{"SPRAYNIC_TEST"}},
			&cli.StringFlag{Name: "config", Value: "default", Usage: "preset name or config file",
				EnvVars: []string{"SPRAYNIC_CONFIG"}},
			&cli.Uint64Flag{Name: "seed", Value: defaultSeed, Usage: "stimulus seed",
				EnvVars: []string{"SPRAYNIC_SEED", "SEED"}},
			&cli.Int64Flag{Name: "cycles", Usage: "run length (0: the test's default)",
				EnvVars: []string{"SPRAYNIC_CYCLES"}},
			&cli.StringFlag{Name: "waves", Usage: "write an FST waveform to this file",
				EnvVars: []string{"SPRAYNIC_WAVES"}},
			&cli.Int64Flag{Name: "waves-from", Usage: "first cycle in the waveform"},
			&cli.IntFlag{Name: "clock-mhz", Value: cosim.DefaultClockMHz,
				Usage:   "NIC clock of the waveform's time axis, MHz: one cycle is one period (as spraynic sim)",
				EnvVars: []string{"SPRAYNIC_CLOCK_MHZ"}},
			&cli.BoolFlag{Name: "golden", Usage: "golden model and scoreboard only, no RTL"},
			&cli.StringFlag{Name: "coverage",
				Usage: "run the line+toggle coverage model and write Verilator coverage data to this file"},
		},
		Action: func(c *cli.Context) error {
			req, err := request(c.String("test"), c.String("config"), c.Uint64("seed"), c.Int64("cycles"))
			if err != nil {
				return err
			}
			req.Golden = c.Bool("golden")
			req.Waves = c.String("waves")
			req.WavesFrom = c.Int64("waves-from")
			req.Coverage = c.String("coverage")
			req.ClockMHz = c.Int("clock-mhz")
			if req.Cycles < 0 {
				return usageErr("--cycles %d: out of range (allowed: 0 for the test's default, or more)", req.Cycles)
			}
			if err := checkOutputs(c, "waves", "coverage"); err != nil {
				return err
			}
			finish, err := waveform(&req)
			if err != nil {
				return err
			}
			fmt.Fprintf(c.App.Writer, "run %s config=%s seed=%d\n", req.Test, req.Config.Name, req.Seed)
			res, err := cosim.Run(req)
			if ferr := finish(); err == nil {
				err = ferr
			}
			if err != nil {
				return err
			}
			fmt.Fprintf(c.App.Writer, "PASS %s config=%s seed=%d cycles=%d transactions=%d %s\n",
				req.Test, req.Config.Name, req.Seed, res.Cycles, res.Packets, res.Detail)
			return nil
		},
	}
}

func request(test, cfgName string, seed uint64, cycles int64) (cosim.Request, error) {
	cfg, err := configFlag("config", cfgName)
	if err != nil {
		return cosim.Request{}, err
	}
	if err := testFlag(test); err != nil {
		return cosim.Request{}, err
	}
	root, err := tops.Root()
	if err != nil {
		return cosim.Request{}, err
	}
	return cosim.Request{Test: test, Config: cfg, Seed: seed, Cycles: cycles, Root: root, Log: os.Stderr}, nil
}
