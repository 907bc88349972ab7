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
		&cli.StringFlag{Name: "conn-counts",
			Usage: "active connection counts, comma-separated, each 1..the config's conns (default: --conns)"},
		&cli.IntFlag{Name: "jobs", Usage: "parallel runs (0: the number of cores)"},
		&cli.StringFlag{Name: "csv", Value: "build/sweep/sweep.csv", Usage: "CSV output"},
		&cli.StringFlag{Name: "plot", Value: "build/sweep/goodput.svg",
			Usage: "goodput versus loss chart output (.svg or .png)"},
		&cli.StringFlag{Name: "tail-plot", Value: "build/sweep/tail.svg",
			Usage: "p99 message completion time versus loss chart output (.svg or .png)"},
		&cli.StringFlag{Name: "conns-plot", Value: "build/sweep/conns.svg",
			Usage: "goodput and p99 versus connections chart output (.svg or .png; only with several --conn-counts)"},
		&cli.StringFlag{Name: "json", Value: "build/sweep/sweep.json", Usage: "JSON output (every run's figures)"},
	)
	return &cli.Command{
		Name: "sweep",
		Usage: "goodput and tail versus loss and connections for both modes and several path counts: table, CSV, " +
			"JSON and charts",
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
	grid, err := sweepGrid(c, base)
	if err != nil {
		return err
	}
	for _, f := range []string{"plot", "tail-plot", "conns-plot"} {
		p := c.String(f)
		if p != "" && !slices.Contains([]string{".svg", ".png"}, strings.ToLower(filepath.Ext(p))) {
			return usageErr("--%s %s: unknown chart format %q (allowed: .svg, .png)", f, p, filepath.Ext(p))
		}
	}
	if err := checkOutputs(c, "csv", "plot", "tail-plot", "conns-plot", "json"); err != nil {
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
	if err := sweep.WriteTable(c.App.Writer, results); err != nil {
		return err
	}
	files := sweep.Files{CSV: c.String("csv"), Chart: c.String("plot"), Tail: c.String("tail-plot"),
		Conns: c.String("conns-plot"), JSON: c.String("json")}
	wrote, err := sweep.Write(files, results)
	if err != nil {
		return err
	}
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
		{flag: "conns", axis: "conn-counts", what: "each connection count"},
	} {
		if !c.IsSet(o.flag) || (o.flag == "conns" && !c.IsSet("conn-counts")) {
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

// sweepGrid reads the axes of a sweep from --modes, --path-counts, --conn-counts and --losses; base is the run
// every point starts from.
func sweepGrid(c *cli.Context, base system.Options) (sweep.Grid, error) {
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
	conns := []int{base.Conns}
	if c.IsSet("conn-counts") {
		if conns, err = parseConnCounts(c.String("conn-counts"), base.Config.Conns); err != nil {
			return sweep.Grid{}, err
		}
	}
	return sweep.Grid{Modes: modes, Paths: counts, Conns: conns, Losses: losses}, nil
}

// parseConnCounts parses the --conn-counts list s: distinct whole numbers of active connections, each 1..most
// (the config's conns).
func parseConnCounts(s string, most int) ([]int, error) {
	var out []int
	for _, f := range strings.Split(s, ",") {
		f = strings.TrimSpace(f)
		n, err := strconv.Atoi(f)
		var wrong string
		switch {
		case err != nil:
			wrong = "is not a whole number"
		case n < 1:
			wrong = "is below 1"
		case n > most:
			wrong = fmt.Sprintf("is above the config's %s", english.Plural(most, "connection"))
		case slices.Contains(out, n):
			wrong = "is given twice"
		}
		if wrong != "" {
			return nil, usageErr("--conn-counts %s: value %q %s (allowed: connection counts 1..%d, "+
				"comma-separated, each once)", s, f, wrong, most)
		}
		out = append(out, n)
	}
	return out, nil
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
