package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/spraynic/spraynic/coverage"
	"github.com/spraynic/spraynic/english"
	"github.com/spraynic/spraynic/outfile"
	"github.com/spraynic/spraynic/regress"
	"github.com/spraynic/spraynic/tops"
	"github.com/urfave/cli/v2"
)

// baselineFile is the committed coverage baseline, testplanFile the testplan, relative to the repository.
const (
	baselineFile = "coverage/baseline.json"
	testplanFile = "coverage/testplan.yaml"
)

// exclusionsFlag is the toggle exclusions file flag of cov run, merge and baseline.
func exclusionsFlag() cli.Flag {
	return &cli.StringFlag{Name: "exclusions", Value: "coverage/exclusions.yaml",
		Usage: "toggle exclusions (each with its reason), relative to the repository"}
}

// covRunFlags are the flags of cov run and cov baseline.
func covRunFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "suite", Value: "smoke", Usage: "suite: " + strings.Join(regress.SuiteNames(), ", ")},
		&cli.StringSliceFlag{Name: "config", Usage: "restrict to these configs of the suite (repeatable)"},
		&cli.IntFlag{Name: "jobs", Usage: "parallel runs (0: one per core)"},
		&cli.Uint64Flag{Name: "seed", Value: defaultSeed, Usage: "first seed"},
		&cli.StringFlag{Name: "out", Value: "build/coverage",
			Usage: "output directory: dat/, merged/, info/, html/, coverage.json"},
		&cli.StringSliceFlag{Name: "test",
			Usage: "keep only the suite's tests matching these names or path.Match patterns (repeatable)"},
		&cli.BoolFlag{Name: "no-functional",
			Usage: "do not collect functional coverage (cover groups) beside Verilator's"},
		&cli.BoolFlag{Name: "golden",
			Usage: "golden models and scoreboards only, no RTL: functional coverage alone (seconds, no Verilator)"},
		exclusionsFlag(),
		&cli.StringFlag{Name: "shard",
			Usage: "run only shard i/n of the suite (1 <= i <= n); 'cov merge' combines the shards' --out directories"},
	}
}

// covCommand groups the Verilator code coverage commands: run, diff, baseline.
func covCommand() *cli.Command {
	return &cli.Command{
		Name:     "cov",
		Category: catMeasure,
		Usage: "Verilator line + toggle coverage and functional cover groups: run a suite with coverage, " +
			"compare with a baseline",
		Subcommands: []*cli.Command{
			covRunCommand(),
			covDiffCommand(),
			covCheckCommand(),
			covMergeCommand(),
			covBaselineCommand(),
		},
	}
}

func covRunCommand() *cli.Command {
	return &cli.Command{Name: "run",
		Usage: "run a suite on the coverage model, merge per (top, config), write lcov/HTML and coverage.json",
		Flags: covRunFlags(), Action: covRunAction}
}

func covDiffCommand() *cli.Command {
	return &cli.Command{
		Name:      "diff",
		Usage:     "compare two coverage.json files; exit 1 on a drop beyond --tolerance or a missing (top, config)",
		ArgsUsage: "BASE.json NEW.json",
		Flags: []cli.Flag{
			&cli.Float64Flag{
				Name:  "tolerance",
				Value: coverage.DefaultTolerance,
				Usage: "allowed drop of line or toggle coverage, percentage points",
			},
		},
		Action: covDiffAction,
	}
}

func covCheckCommand() *cli.Command {
	return &cli.Command{
		Name: "check",
		Usage: "exit 1 when a coverage.json misses a target: line, toggle net of exclusions, functional bins the " +
			"testplan does not call unreachable",
		ArgsUsage: "REPORT.json",
		Flags: []cli.Flag{
			&cli.Float64Flag{Name: "line", Value: coverage.DefaultTargets.Line,
				Usage: "line coverage target per design unit (RTL file, config), percent"},
			&cli.Float64Flag{Name: "toggle", Value: coverage.DefaultTargets.ToggleNet,
				Usage: "toggle coverage target net of exclusions per design unit (RTL file, config), percent"},
			&cli.Float64Flag{Name: "bins", Value: coverage.DefaultTargets.Bins,
				Usage: "functional target per cover group: percent of reachable bins hit"},
			&cli.StringFlag{Name: "testplan", Value: testplanFile,
				Usage: "testplan whose 'unreachable' list takes bins out of the target, relative to the repository"},
		},
		Action: covCheckAction,
	}
}

func covMergeCommand() *cli.Command {
	return &cli.Command{
		Name: "merge",
		Usage: "merge the output directories of 'cov run --shard i/n' (or of several runs) " +
			"into one report under --out",
		ArgsUsage: "DIR DIR ...",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "out", Value: "build/coverage",
				Usage: "output directory of the merged report: merged/, info/, html/, coverage.json"},
			exclusionsFlag(),
		},
		Action: covMergeAction,
	}
}

func covBaselineCommand() *cli.Command {
	return &cli.Command{
		Name:  "baseline",
		Usage: "rewrite " + baselineFile + " (or --file) from OUT/coverage.json (with --run: run 'cov run' first)",
		Flags: append(
			covRunFlags(),
			&cli.BoolFlag{Name: "run",
				Usage: "run 'cov run' first (default suite smoke; use --config default for the committed baseline)"},
			&cli.StringFlag{
				Name:  "file",
				Value: baselineFile,
				Usage: "the baseline to write, relative to the repository (`make cov-baseline CONFIG=ice40` writes " +
					"coverage/baseline-ice40.json)",
			},
		),
		Action: covBaselineAction,
	}
}

func covBaselineAction(c *cli.Context) error {
	root, err := tops.Root()
	if err != nil {
		return err
	}
	if err := outfile.Check(inRepo(root, c.String("file"))); err != nil {
		return fmt.Errorf("--file %s: cannot be written: %w", c.String("file"), err)
	}
	if c.Bool("run") {
		if err := covRunAction(c); err != nil {
			return err
		}
	}
	rep, err := coverage.LoadReport(filepath.Join(c.String("out"), "coverage.json"))
	if err != nil {
		return err
	}
	dst := inRepo(root, c.String("file"))
	if err := rep.WriteBaseline(dst); err != nil {
		return err
	}
	fmt.Fprintf(c.App.Writer, "wrote %s (%s)\n", dst, english.Plural(len(rep.Entries), "entry"))
	return nil
}

func covRunAction(c *cli.Context) error {
	if c.Int("jobs") < 0 {
		return usageErr("--jobs %d: out of range (allowed: 0 for one per core, or more)", c.Int("jobs"))
	}
	root, err := tops.Root()
	if err != nil {
		return err
	}
	s, ok := regress.Suites[c.String("suite")]
	if !ok {
		return usageErr("--suite %q: unknown (suites: %s)", c.String("suite"), strings.Join(regress.SuiteNames(), ", "))
	}
	out, err := filepath.Abs(c.String("out"))
	if err != nil {
		return err
	}
	if err := checkOutDir("out", out); err != nil {
		return err
	}
	ex, err := loadExclusions(c, root)
	if err != nil {
		return err
	}
	var shard, shards int
	if sh := c.String("shard"); sh != "" {
		if shard, shards, err = regress.ParseShard(sh); err != nil {
			return usageErr("--shard: %v", err)
		}
	}
	start := time.Now()
	rep, failed, err := coverage.Run(coverage.Options{Root: root, Out: out, Suite: s, Configs: c.StringSlice("config"),
		FirstSeed: c.Uint64("seed"), Jobs: c.Int("jobs"), Log: os.Stderr, Tests: c.StringSlice("test"),
		Functional: !c.Bool("no-functional"), Golden: c.Bool("golden"), Exclusions: ex, Shard: shard, Shards: shards})
	if err != nil {
		return err
	}
	rep.PrintSummary(c.App.Writer, 10)
	if c.Bool("golden") {
		fmt.Fprintf(c.App.Writer, "wrote %s (functional coverage only) in %s\n", filepath.Join(out, "coverage.json"),
			time.Since(start).Round(time.Second))
	} else {
		fmt.Fprintf(c.App.Writer, "wrote %s (lcov: %s, html: %s) in %s\n", filepath.Join(out, "coverage.json"),
			filepath.Join(out, "info"), filepath.Join(out, "html"), time.Since(start).Round(time.Second))
	}
	if len(failed) > 0 {
		return fmt.Errorf("%s failed (their coverage is included when written):\n  %s", english.Plural(len(failed), "run"),
			strings.Join(failed, "\n  "))
	}
	return nil
}

func covDiffAction(c *cli.Context) error {
	if c.NArg() != 2 {
		return usageErr("cov diff takes two files, BASE.json NEW.json, got %s", english.Plural(c.NArg(), "argument"))
	}
	tol := c.Float64("tolerance")
	if tol < 0 {
		return usageErr("--tolerance %g: out of range (allowed: 0 or more percentage points)", tol)
	}
	base, err := coverage.LoadReport(c.Args().Get(0))
	if errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("%w (the baseline of a preset is recorded by `make cov-baseline CONFIG=<preset>`)", err)
	}
	if err != nil {
		return err
	}
	cur, err := coverage.LoadReport(c.Args().Get(1))
	if err != nil {
		return err
	}
	if err := coverage.Comparable(c.Args().Get(0), base, c.Args().Get(1), cur); err != nil {
		return err
	}
	cs := coverage.Diff(base, cur, tol)
	coverage.PrintDiff(c.App.Writer, cs)
	fd := coverage.DiffFunctional(base, cur)
	coverage.PrintFunctionalDiff(c.App.Writer, fd)
	if len(base.Functional) == 0 && len(cur.Functional) > 0 {
		fmt.Fprintf(c.App.Writer,
			"note: %s has no functional coverage: every group is new (run 'make cov-baseline' once to record it)\n",
			c.Args().Get(0))
	}
	switch {
	case coverage.Failed(cs) && coverage.FunctionalFailed(fd):
		return fmt.Errorf("coverage dropped beyond %.2f points or a (top, config) is missing, "+
			"and functional bins were lost (see above)", tol)
	case coverage.Failed(cs):
		return fmt.Errorf("coverage dropped beyond %.2f points or a (top, config) is missing (see above)", tol)
	case coverage.FunctionalFailed(fd):
		return fmt.Errorf(
			"functional coverage: reachable bins hit in the base are not hit in the new report, " +
				"or a group is missing (see above)",
		)
	}
	return nil
}

// loadExclusions reads the --exclusions file (relative to the repository unless absolute).
func loadExclusions(c *cli.Context, root string) ([]coverage.Exclusion, error) {
	return coverage.LoadExclusions(inRepo(root, c.String("exclusions")))
}

// inRepo resolves a path given relative to the repository root (absolute paths stay as they are).
func inRepo(root, f string) string {
	if filepath.IsAbs(f) {
		return f
	}
	return filepath.Join(root, f)
}

func covCheckAction(c *cli.Context) error {
	if c.NArg() != 1 {
		return usageErr("cov check takes one file, REPORT.json, got %s", english.Plural(c.NArg(), "argument"))
	}
	t := coverage.Targets{Line: c.Float64("line"), ToggleNet: c.Float64("toggle"), Bins: c.Float64("bins")}
	if err := t.Validate(); err != nil {
		return asUsage(err)
	}
	root, err := tops.Root()
	if err != nil {
		return err
	}
	plan, err := coverage.LoadTestplan(inRepo(root, c.String("testplan")))
	if err != nil {
		return err
	}
	rep, err := coverage.LoadReport(c.Args().Get(0))
	if err != nil {
		return err
	}
	ss := coverage.Check(rep, t, plan)
	coverage.PrintCheck(c.App.Writer, rep, t, ss)
	if len(ss) > 0 {
		return fmt.Errorf("%s: %s missed (see above)", c.Args().Get(0), english.Plural(len(ss), "coverage target"))
	}
	return nil
}

func covMergeAction(c *cli.Context) error {
	dirs := c.Args().Slice()
	if len(dirs) == 0 {
		return usageErr("cov merge takes one or more directories of 'cov run --out', got none")
	}
	root, err := tops.Root()
	if err != nil {
		return err
	}
	ex, err := loadExclusions(c, root)
	if err != nil {
		return err
	}
	out, err := filepath.Abs(c.String("out"))
	if err != nil {
		return err
	}
	if err := checkOutDir("out", out); err != nil {
		return err
	}
	rep, err := coverage.Merge(coverage.Options{Root: root, Out: out, Exclusions: ex, Log: os.Stderr}, dirs)
	if err != nil {
		return err
	}
	rep.PrintSummary(c.App.Writer, 10)
	fmt.Fprintf(c.App.Writer, "merged %s into %s\n", english.Plural(len(dirs), "directory"),
		filepath.Join(out, "coverage.json"))
	return nil
}
