package main

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/spraynic/spraynic/formal"
	"github.com/spraynic/spraynic/regress"
	"github.com/spraynic/spraynic/tops"
	"github.com/urfave/cli/v2"
)

func formalCommand() *cli.Command {
	return &cli.Command{
		Name:     "formal",
		Category: catDesign,
		Usage:    "prove the RTL's property sets (yosys-smtbmc: BMC, k-induction, cover) on the proof presets",
		Description: "Each check of " + formal.PresetsFile + " (block, proof preset, property set) is written as an " +
			"SMT2 model by yosys\n" +
			"and checked by yosys-smtbmc: bounded model checking, the induction step, and cover (every cover\n" +
			"statement must be reached: a proof whose covers are unreachable fails). Prints a table, writes a\n" +
			"counterexample VCD per failure under --out, exits 1 on anything but proved. docs/formal.md.",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "suite", Value: "ci", Usage: "ci (make formal) or nightly (every check)"},
			&cli.StringSliceFlag{Name: "block", Usage: "only these blocks (default: every block of the suite)"},
			&cli.StringSliceFlag{Name: "set", Usage: "only these property sets"},
			&cli.IntFlag{Name: "jobs", Aliases: []string{"j"}, Value: 2,
				Usage: "yosys and solver processes at once"},
			&cli.DurationFlag{Name: "timeout", Value: 20 * time.Minute,
				Usage: "limit of each solver run (a run stopped by it is unknown)"},
			&cli.StringFlag{Name: "out", Value: filepath.Join("build", "formal"),
				Usage: "models, logs and counterexamples, relative to the repository"},
			&cli.StringFlag{Name: "junit", Usage: "write JUnit XML here (one testcase per check and method)"},
		},
		Action: formalAction,
	}
}

func formalAction(c *cli.Context) error {
	if c.NArg() > 0 {
		return usagef(c, "unexpected argument %q (formal takes flags only)", c.Args().First())
	}
	if c.Int("jobs") < 1 {
		return usagef(c, "--jobs %d: must be at least 1", c.Int("jobs"))
	}
	root, err := tops.Root()
	if err != nil {
		return err
	}
	f, err := formal.Load(root)
	if err != nil {
		return err
	}
	checks, err := f.Select(c.String("suite"), c.StringSlice("block"))
	if err != nil {
		return usagef(c, "%v", err)
	}
	if sets := c.StringSlice("set"); len(sets) > 0 {
		var keep []formal.Check
		for _, ch := range checks {
			for _, s := range sets {
				if ch.Set == s {
					keep = append(keep, ch)
				}
			}
		}
		if len(keep) == 0 {
			return usagef(c, "--set %s: no such property set in the selection", strings.Join(sets, ","))
		}
		checks = keep
	}
	if missing := formal.Tools(f.Solver); len(missing) > 0 {
		return fmt.Errorf("missing tools: %s (make deps installs them)", strings.Join(missing, ", "))
	}
	out := c.String("out")
	if !filepath.IsAbs(out) {
		out = filepath.Join(root, out)
	}
	if err := checkOutDir("out", out); err != nil {
		return err
	}
	if err := checkOutputs(c, "junit"); err != nil {
		return err
	}
	rs, err := formal.Run(c.Context, f, checks, formal.Options{Root: root, Out: out, Jobs: c.Int("jobs"),
		Timeout: c.Duration("timeout")})
	if perr := formal.PrintTable(c.App.Writer, rs); perr != nil {
		return perr
	}
	if err != nil {
		return err
	}
	if j := c.String("junit"); j != "" {
		if err := regress.WriteJUnitFile(j, formal.Records(rs)); err != nil {
			return err
		}
	}
	if !formal.Passed(rs) {
		return errors.New("formal: not every property set is proved and covered (table above)")
	}
	return nil
}
