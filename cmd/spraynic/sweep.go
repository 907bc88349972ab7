package main

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"

	"github.com/spraynic/spraynic/english"
	"github.com/spraynic/spraynic/system"
	"github.com/spraynic/spraynic/system/sweep"
	"github.com/urfave/cli/v2"
)

func simSweepCommand() *cli.Command {
	flags := append(simFlags(),
		&cli.StringFlag{Name: "losses", Value: "0,0.001,0.01,0.02,0.05,0.1", Usage: "loss rates, comma-separated"},
		&cli.StringFlag{Name: "path-counts", Value: "4,8", Usage: "path counts, comma-separated (powers of two)"},
		&cli.StringFlag{Name: "modes", Value: "spray,gbn", Usage: "modes, comma-separated"},
		&cli.IntFlag{Name: "jobs", Usage: "parallel runs (0: the number of cores)"},
		&cli.StringFlag{Name: "csv", Value: "build/sweep/sweep.csv", Usage: "CSV output"},
		&cli.StringFlag{Name: "plot", Value: "build/sweep/goodput.svg", Usage: "chart output (.svg or .png)"},
		&cli.StringFlag{Name: "json", Value: "build/sweep/sweep.json", Usage: "JSON output (every run's figures)"},
	)
	return &cli.Command{
		Name:   "sweep",
		Usage:  "goodput versus loss for both modes and several path counts: table, CSV, JSON and a chart",
		Flags:  flags,
		Action: sweepAction,
	}
}

func sweepAction(c *cli.Context) error {
	if err := sweepOverrides(c); err != nil {
		return err
	}
	if c.Int("jobs") < 0 {
		return usageErr("--jobs %d: out of range (allowed: 0 for one per core, or more)", c.Int("jobs"))
	}
	base, err := simOptions(c)
	if err != nil {
		return err
	}
	grid, err := sweepGrid(c)
	if err != nil {
		return err
	}
	if p := c.String("plot"); p != "" && !slices.Contains([]string{".svg", ".png"}, strings.ToLower(filepath.Ext(p))) {
		return usageErr("--plot %s: unknown chart format %q (allowed: .svg, .png)", p, filepath.Ext(p))
	}
	if err := checkOutputs(c, "csv", "plot", "json"); err != nil {
		return err
	}
	runs, err := grid.Runs(base)
	if err != nil {
		return asUsage(err)
	}
	jobs := c.Int("jobs")
	if jobs <= 0 {
		jobs = runtime.NumCPU()
	}
	fmt.Fprintf(c.App.Writer, "seed %d, %s on %s\n", base.Seed, english.Plural(len(runs), "run"),
		english.Plural(jobs, "job"))
	results, err := sweep.Run(runs, jobs, c.App.ErrWriter, c.Bool("quiet"))
	if err != nil {
		return err
	}
	if err := system.WriteRows(c.App.Writer, results); err != nil {
		return err
	}
	files := sweep.Files{CSV: c.String("csv"), Chart: c.String("plot"), JSON: c.String("json")}
	if err := sweep.Write(files, results); err != nil {
		return err
	}
	wrote := slices.DeleteFunc([]string{files.CSV, files.Chart, files.JSON}, func(s string) bool { return s == "" })
	if len(wrote) > 0 {
		fmt.Fprintf(c.App.Writer, "wrote %s\n", strings.Join(wrote, " "))
	}
	return nil
}

// sweepOverrides refuses the flags of one run that a sweep sets itself at every point, pointing to the sweep's own
// flag.
func sweepOverrides(c *cli.Context) error {
	for _, o := range []struct{ flag, axis, what string }{
		{flag: "mode", axis: "modes", what: "each mode"},
		{flag: "loss", axis: "losses", what: "each loss rate"},
		{flag: "paths", axis: "path-counts", what: "each path count"},
		{flag: "net-paths", axis: "path-counts", what: "the fabric paths of each path count"},
	} {
		if !c.IsSet(o.flag) {
			continue
		}
		v := fmt.Sprint(c.Value(o.flag))
		from := ""
		if env := flagEnv(o.flag)[0]; os.Getenv(env) != "" {
			from = " (from " + env + ")"
		}
		return usageErr("--%s %s%s: sim sweep runs %s of --%s; use --%s %s", o.flag, v, from, o.what, o.axis, o.axis, v)
	}
	return nil
}

// sweepGrid reads the axes of a sweep from --modes, --path-counts and --losses.
func sweepGrid(c *cli.Context) (sweep.Grid, error) {
	losses, err := parseList("losses", "a number", c.String("losses"), func(s string) (float64, error) {
		return strconv.ParseFloat(s, 64)
	})
	if err != nil {
		return sweep.Grid{}, err
	}
	counts, err := parseList("path-counts", "an integer", c.String("path-counts"), strconv.Atoi)
	if err != nil {
		return sweep.Grid{}, err
	}
	modes, err := parseList("modes", "a mode", c.String("modes"),
		func(s string) (system.Mode, error) { return system.Mode(s), nil })
	if err != nil {
		return sweep.Grid{}, err
	}
	return sweep.Grid{Modes: modes, Paths: counts, Losses: losses}, nil
}

// parseList parses a comma-separated list with parse, naming the flag and what each value must be (kind) on
// error.
func parseList[T any](flag, kind, s string, parse func(string) (T, error)) ([]T, error) {
	var out []T
	for _, f := range strings.Split(s, ",") {
		v, err := parse(strings.TrimSpace(f))
		if err != nil {
			return nil, usageErr("--%s: value %q in %q is not %s (allowed: a comma-separated list)", flag, f, s, kind)
		}
		out = append(out, v)
	}
	return out, nil
}
