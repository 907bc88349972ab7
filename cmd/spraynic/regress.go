package main

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/spraynic/spraynic/cosim"
	"github.com/spraynic/spraynic/regress"
	"github.com/spraynic/spraynic/tops"
	"github.com/urfave/cli/v2"
)

// regressCommand runs a suite locally (optionally one shard of it, or only the failures of an earlier run), or
// as a Slurm job array.
//
// Isolation: each run executes in its own goroutine of this process (sharing the model cache and the loaded
// libraries). A panic is recovered there and reported as PANIC. A run that exceeds --timeout is reported as
// TIMEOUT and abandoned: a cgo call into Verilator cannot be interrupted, so the goroutine runs on until its cycle
// budget ends (it always does: every run is bounded by its cycles), holding one core meanwhile.
func regressCommand() *cli.Command {
	return &cli.Command{
		Name:     "regress",
		Category: catCosim,
		Usage:    "run a regression suite in parallel and print a table; exit 1 on any failure",
		Flags:    regressFlags(),
		Action:   regressAction,
	}
}

// regressFlags are the flags of regress.
func regressFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "suite", Value: "smoke",
			Usage: "suite: " + strings.Join(regress.SuiteNames(), ", ") + ", or one from --suite-file"},
		&cli.StringFlag{Name: "suite-file",
			Usage: "JSON file of user suites: {\"suites\": [{\"name\", \"configs\", \"seeds\", \"cycle_scale\", \"tests\"}]}"},
		&cli.IntFlag{Name: "jobs", Usage: "parallel runs (0: one per core)"},
		&cli.Uint64Flag{Name: "seed", Value: defaultSeed, Usage: "first seed"},
		&cli.StringSliceFlag{Name: "config", Usage: "restrict to these configs (repeatable)"},
		&cli.DurationFlag{Name: "timeout", Value: 10 * time.Minute,
			Usage: "wall-clock budget per run (0: none); over it the run is reported as TIMEOUT"},
		&cli.BoolFlag{Name: "stop-on-failure", Usage: "start no further runs after the first failure"},
		&cli.BoolFlag{Name: "golden", Usage: "golden models and scoreboards only, no RTL (no Verilator needed)"},
		&cli.StringFlag{Name: "junit", Usage: "write JUnit XML here (one testcase per run)"},
		&cli.StringFlag{Name: "json", Usage: "write every outcome as JSON here"},
		&cli.StringFlag{Name: "rerun-failed", Usage: "re-run only the failed runs of an earlier --json file"},
		&cli.StringFlag{Name: "shard", Usage: "run only shard i/n of the suite (1 <= i <= n)"},
		&cli.BoolFlag{Name: "slurm", Usage: "run the suite as a Slurm job array (one task per shard), wait, merge"},
		&cli.StringFlag{Name: "partition", Usage: "Slurm partition (--slurm)"},
		&cli.StringFlag{Name: "account", Usage: "Slurm account (--slurm)"},
		&cli.StringFlag{Name: "time", Value: "01:00:00", Usage: "Slurm time limit per task (--slurm)"},
		&cli.IntFlag{Name: "shards", Value: 4, Usage: "array tasks (--slurm)"},
		&cli.StringFlag{Name: "shared-dir",
			Usage: "directory every node sees, for the script, logs and shard results (--slurm; default build/slurm)"},
		&cli.DurationFlag{Name: "slurm-wait", Value: 24 * time.Hour,
			Usage: "give up waiting for the job after this long (--slurm)"},
	}
}

func regressAction(c *cli.Context) error {
	if c.Int("jobs") < 0 {
		return usageErr("--jobs %d: out of range (allowed: 0 for one per core, or more)", c.Int("jobs"))
	}
	if c.Duration("timeout") < 0 {
		return usageErr("--timeout %s: out of range (allowed: 0 for none, or more)", c.Duration("timeout"))
	}
	if err := checkSuite(c); err != nil {
		return err
	}
	for _, v := range c.StringSlice("config") {
		if _, err := configFlag("config", v); err != nil {
			return err
		}
	}
	if sh := c.String("shard"); sh != "" {
		if _, _, err := regress.ParseShard(sh); err != nil {
			return usageErr("--shard: %v", err)
		}
	}
	if err := checkOutputs(c, "json", "junit"); err != nil {
		return err
	}
	root, err := tops.Root()
	if err != nil {
		return err
	}
	s, reqs, err := regress.Select(regress.Selection{Suite: c.String("suite"), SuiteGiven: c.IsSet("suite"),
		SuiteFile: c.String("suite-file"), RerunFailed: c.String("rerun-failed"), Configs: c.StringSlice("config"),
		FirstSeed: c.Uint64("seed"), Root: root})
	if err != nil {
		return err
	}
	var rs regress.Results
	if c.Bool("slurm") {
		rs, err = regressSlurm(c, root, s, reqs)
	} else {
		rs, err = regress.RunLocal(c.App.Writer, s, reqs, regress.LocalOptions{Jobs: c.Int("jobs"),
			Timeout: c.Duration("timeout"), StopOnFailure: c.Bool("stop-on-failure"), Shard: c.String("shard"),
			Golden: c.Bool("golden"), FirstSeed: c.Uint64("seed"), Log: os.Stderr})
	}
	if err != nil {
		return err
	}
	return regress.Report(c.App.Writer, rs, c.String("json"), c.String("junit"))
}

// checkSuite refuses an unknown --suite before any work; a suite file that cannot be read is a failure.
func checkSuite(c *cli.Context) error {
	if c.String("rerun-failed") != "" {
		return nil
	}
	names := regress.SuiteNames()
	if f := c.String("suite-file"); f != "" {
		user, err := regress.LoadSuites(f)
		if err != nil {
			return err
		}
		if !c.IsSet("suite") && len(user) == 1 {
			return nil
		}
		for _, u := range user {
			names = append(names, u.Name)
		}
	}
	if s := c.String("suite"); !slices.Contains(names, s) {
		return usageErr("--suite %q: unknown%s (suites: %s; more with --suite-file)", s, closest(s, names),
			strings.Join(names, ", "))
	}
	return nil
}

// regressSlurm runs the suite as a Slurm job array whose tasks run this binary with the same selection.
func regressSlurm(c *cli.Context, root string, s regress.Suite, reqs []cosim.Request) (regress.Results, error) {
	if c.String("shard") != "" || c.String("rerun-failed") != "" {
		return regress.Results{}, usageErr("--slurm: cannot be combined with --shard or --rerun-failed")
	}
	bin, err := os.Executable()
	if err != nil {
		return regress.Results{}, err
	}
	args := []string{bin, "regress", "--suite", s.Name, "--seed", fmt.Sprint(c.Uint64("seed")),
		"--timeout", c.Duration("timeout").String(), "--jobs", fmt.Sprint(c.Int("jobs"))}
	if f := c.String("suite-file"); f != "" {
		abs, err := filepath.Abs(f)
		if err != nil {
			return regress.Results{}, err
		}
		args = append(args, "--suite-file", abs)
	}
	for _, cfg := range c.StringSlice("config") {
		args = append(args, "--config", cfg)
	}
	for _, b := range []string{"stop-on-failure", "golden"} {
		if c.Bool(b) {
			args = append(args, "--"+b)
		}
	}
	return regress.RunSlurm(
		c.Context,
		c.App.Writer,
		root,
		s,
		reqs,
		regress.SlurmOptions{Partition: c.String("partition"),
			Account: c.String("account"), Time: c.String("time"), Shards: c.Int("shards"), CPUs: c.Int("jobs"),
			SharedDir: c.String("shared-dir"), Wait: c.Duration("slurm-wait"), Poll: 2 * time.Second, Command: args,
			Log: os.Stderr},
	)
}
