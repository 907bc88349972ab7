package main

import (
	"fmt"
	"os"
	"strings"

	"github.com/spraynic/spraynic/cosim"
	"github.com/urfave/cli/v2"
)

func regressCommand() *cli.Command {
	return &cli.Command{
		Name:  "regress",
		Usage: "run a regression suite in parallel and print a table; exit 1 on any failure",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "suite", Value: "smoke", Usage: "suite: " + strings.Join(cosim.SuiteNames(), ", "), EnvVars: []string{"SPRAYNIC_SUITE"}},
			&cli.IntFlag{Name: "jobs", Usage: "parallel runs (0: one per core)", EnvVars: []string{"SPRAYNIC_JOBS"}},
			&cli.Uint64Flag{Name: "seed", Value: defaultSeed, Usage: "first seed", EnvVars: []string{"SPRAYNIC_SEED", "SEED"}},
			&cli.StringSliceFlag{Name: "config", Usage: "restrict to these configs (repeatable)"},
		},
		Action: func(c *cli.Context) error {
			s, ok := cosim.Suites[c.String("suite")]
			if !ok {
				return fmt.Errorf("--suite %q: unknown (suites: %s)", c.String("suite"), strings.Join(cosim.SuiteNames(), ", "))
			}
			if cs := c.StringSlice("config"); len(cs) > 0 {
				s.Configs = cs
			}
			if c.Int("jobs") < 0 {
				return fmt.Errorf("--jobs %d: must be >= 0", c.Int("jobs"))
			}
			root, err := cosim.Root()
			if err != nil {
				return err
			}
			reqs, err := s.Expand(root, c.Uint64("seed"))
			if err != nil {
				return err
			}
			for i := range reqs {
				reqs[i].Log = os.Stderr
			}
			fmt.Fprintf(c.App.Writer, "regress suite=%s runs=%d first seed=%d\n", s.Name, len(reqs), c.Uint64("seed"))
			outs, err := cosim.Regress(reqs, c.Int("jobs"), func(done, total int, o cosim.Outcome) {
				status := "pass"
				if o.Err != nil {
					status = "FAIL"
				}
				fmt.Fprintf(c.App.Writer, "[%d/%d] %s %s config=%s seed=%d\n", done, total, status, o.Req.Test, o.Req.Config.Name, o.Req.Seed)
			})
			if err != nil {
				return err
			}
			table, failed := cosim.Table(outs)
			for _, o := range outs {
				if o.Err != nil {
					fmt.Fprintf(c.App.Writer, "\nFAIL %s config=%s seed=%d\n%v\n", o.Req.Test, o.Req.Config.Name, o.Req.Seed, o.Err)
				}
			}
			fmt.Fprint(c.App.Writer, "\n"+table)
			if failed > 0 {
				return fmt.Errorf("%d of %d runs failed", failed, len(outs))
			}
			return nil
		},
	}
}
