package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/spraynic/spraynic/config"
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
		Name:  "regress",
		Usage: "run a regression suite in parallel and print a table; exit 1 on any failure",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "suite", Value: "smoke", Usage: "suite: " + strings.Join(regress.SuiteNames(), ", ") + ", or one from --suite-file", EnvVars: []string{"SPRAYNIC_SUITE"}},
			&cli.StringFlag{Name: "suite-file", Usage: "JSON file of user suites: {\"suites\": [{\"name\", \"configs\", \"seeds\", \"cycle_scale\", \"tests\"}]}", EnvVars: []string{"SPRAYNIC_SUITE_FILE"}},
			&cli.IntFlag{Name: "jobs", Usage: "parallel runs (0: one per core)", EnvVars: []string{"SPRAYNIC_JOBS"}},
			&cli.Uint64Flag{Name: "seed", Value: defaultSeed, Usage: "first seed", EnvVars: []string{"SPRAYNIC_SEED", "SEED"}},
			&cli.StringSliceFlag{Name: "config", Usage: "restrict to these configs (repeatable)"},
			&cli.DurationFlag{Name: "timeout", Value: 10 * time.Minute, Usage: "wall-clock budget per run (0: none); over it the run is reported as TIMEOUT", EnvVars: []string{"SPRAYNIC_TIMEOUT"}},
			&cli.BoolFlag{Name: "stop-on-failure", Usage: "start no further runs after the first failure"},
			&cli.BoolFlag{Name: "golden", Usage: "golden models and scoreboards only, no RTL (no Verilator needed)"},
			&cli.StringFlag{Name: "junit", Usage: "write JUnit XML here (one testcase per run)", EnvVars: []string{"SPRAYNIC_JUNIT"}},
			&cli.StringFlag{Name: "json", Usage: "write every outcome as JSON here", EnvVars: []string{"SPRAYNIC_JSON"}},
			&cli.StringFlag{Name: "rerun-failed", Usage: "re-run only the failed runs of an earlier --json file"},
			&cli.StringFlag{Name: "shard", Usage: "run only shard i/n of the suite (1 <= i <= n)", EnvVars: []string{"SPRAYNIC_SHARD"}},
			&cli.BoolFlag{Name: "slurm", Usage: "run the suite as a Slurm job array (one task per shard), wait, merge"},
			&cli.StringFlag{Name: "partition", Usage: "Slurm partition (--slurm)", EnvVars: []string{"SPRAYNIC_PARTITION"}},
			&cli.StringFlag{Name: "account", Usage: "Slurm account (--slurm)", EnvVars: []string{"SPRAYNIC_ACCOUNT"}},
			&cli.StringFlag{Name: "time", Value: "01:00:00", Usage: "Slurm time limit per task (--slurm)"},
			&cli.IntFlag{Name: "shards", Value: 4, Usage: "array tasks (--slurm)"},
			&cli.StringFlag{Name: "shared-dir", Usage: "directory every node sees, for the script, logs and shard results (--slurm; default build/slurm)", EnvVars: []string{"SPRAYNIC_SHARED_DIR"}},
			&cli.DurationFlag{Name: "slurm-wait", Value: 24 * time.Hour, Usage: "give up waiting for the job after this long (--slurm)"},
		},
		Action: regressAction,
	}
}

func regressAction(c *cli.Context) error {
	if c.Int("jobs") < 0 {
		return fmt.Errorf("--jobs %d: must be >= 0", c.Int("jobs"))
	}
	if c.Duration("timeout") < 0 {
		return fmt.Errorf("--timeout %s: must be >= 0", c.Duration("timeout"))
	}
	root, err := tops.Root()
	if err != nil {
		return err
	}
	s, reqs, err := selectRuns(c, root)
	if err != nil {
		return err
	}
	if c.Bool("slurm") {
		return regressSlurm(c, root, s, reqs)
	}
	rs := regress.Results{Suite: s.Name, FirstSeed: c.Uint64("seed"), Total: len(reqs)}
	if sh := c.String("shard"); sh != "" {
		i, n, err := regress.ParseShard(sh)
		if err != nil {
			return fmt.Errorf("--shard: %w", err)
		}
		reqs = regress.Shard(reqs, i, n)
		rs.Shard = fmt.Sprintf("%d/%d", i, n)
	}
	for i := range reqs {
		reqs[i].Log = os.Stderr
		reqs[i].Golden = c.Bool("golden")
	}
	w := c.App.Writer
	shard := ""
	if rs.Shard != "" {
		shard = " shard=" + rs.Shard
	}
	fmt.Fprintf(w, "regress suite=%s%s runs=%d first seed=%d jobs=%d timeout=%s\n", s.Name, shard, len(reqs), rs.FirstSeed, c.Int("jobs"), c.Duration("timeout"))
	prog := newProgress(w, len(reqs))
	outs, err := regress.RegressWith(reqs, regress.RegressOptions{Jobs: c.Int("jobs"), Timeout: c.Duration("timeout"),
		StopOnFailure: c.Bool("stop-on-failure"), Progress: prog.update})
	prog.finish()
	if err != nil {
		return err
	}
	for _, o := range outs {
		rs.Runs = append(rs.Runs, regress.RecordOf(o))
	}
	if len(outs) < len(reqs) {
		fmt.Fprintf(w, "stopped on failure: %d of %d runs not started\n", len(reqs)-len(outs), len(reqs))
	}
	return report(c, rs)
}

// selectRuns resolves the suite (built-in, from --suite-file, or the failures of --rerun-failed) and expands it.
func selectRuns(c *cli.Context, root string) (regress.Suite, []cosim.Request, error) {
	if f := c.String("rerun-failed"); f != "" {
		prev, err := regress.ReadResults(f)
		if err != nil {
			return regress.Suite{}, nil, fmt.Errorf("--rerun-failed: %w", err)
		}
		var reqs []cosim.Request
		for _, r := range prev.Runs {
			if r.Status == regress.StatusPass {
				continue
			}
			cfg, err := config.Resolve(r.Config)
			if err != nil {
				return regress.Suite{}, nil, fmt.Errorf("--rerun-failed %s: run %s: %w", f, r.Key(), err)
			}
			if _, err := cosim.Lookup(r.Test); err != nil {
				return regress.Suite{}, nil, fmt.Errorf("--rerun-failed %s: %w", f, err)
			}
			reqs = append(reqs, cosim.Request{Test: r.Test, Config: cfg, Seed: r.Seed, Cycles: r.RequestedCycles, Root: root})
		}
		if len(reqs) == 0 {
			return regress.Suite{}, nil, fmt.Errorf("--rerun-failed %s: no failed runs to re-run (%d runs, all PASS)", f, len(prev.Runs))
		}
		return regress.Suite{Name: prev.Suite + "-rerun"}, reqs, nil
	}
	suites := regress.Suites
	names := regress.SuiteNames()
	if f := c.String("suite-file"); f != "" {
		user, err := regress.LoadSuites(f)
		if err != nil {
			return regress.Suite{}, nil, err
		}
		suites = map[string]regress.Suite{}
		for k, v := range regress.Suites {
			suites[k] = v
		}
		for _, u := range user {
			suites[u.Name] = u
			names = append(names, u.Name)
		}
		if !c.IsSet("suite") && len(user) == 1 {
			if err := c.Set("suite", user[0].Name); err != nil {
				return regress.Suite{}, nil, err
			}
		}
	}
	s, ok := suites[c.String("suite")]
	if !ok {
		return regress.Suite{}, nil, fmt.Errorf("--suite %q: unknown (suites: %s)", c.String("suite"), strings.Join(names, ", "))
	}
	if cs := c.StringSlice("config"); len(cs) > 0 {
		s.Configs = cs
	}
	reqs, err := s.Expand(root, c.Uint64("seed"))
	if err != nil {
		return regress.Suite{}, nil, err
	}
	if len(reqs) == 0 {
		return regress.Suite{}, nil, fmt.Errorf("suite %s selects no runs", s.Name)
	}
	return s, reqs, nil
}

// report prints failures and the table, writes --json and --junit, and returns an error on any failure.
func report(c *cli.Context, rs regress.Results) error {
	w := c.App.Writer
	for _, r := range rs.Runs {
		if r.Status != regress.StatusPass {
			fmt.Fprintf(w, "\n%s %s config=%s seed=%d\n%s\n", r.Status, r.Test, r.Config, r.Seed, r.Error)
		}
	}
	table, failed := regress.Table(rs.Outcomes())
	fmt.Fprint(w, "\n"+table)
	if f := c.String("json"); f != "" {
		if err := regress.WriteResults(f, rs); err != nil {
			return fmt.Errorf("--json: %w", err)
		}
		fmt.Fprintf(w, "results: %s\n", f)
	}
	if f := c.String("junit"); f != "" {
		if err := regress.WriteJUnitFile(f, rs); err != nil {
			return fmt.Errorf("--junit: %w", err)
		}
		fmt.Fprintf(w, "junit: %s\n", f)
	}
	if failed > 0 {
		return fmt.Errorf("%d of %d runs failed", failed, len(rs.Runs))
	}
	return nil
}

// progress shows regression progress: on a terminal one rewritten line (done/total, failures, ETA); otherwise (or
// with CI=true) one plain line per finished run.
type progress struct {
	w      io.Writer
	live   bool
	total  int
	failed int
	start  time.Time
}

func newProgress(w io.Writer, total int) *progress {
	live := false
	if f, ok := w.(*os.File); ok && os.Getenv("CI") != "true" && os.Getenv("TERM") != "dumb" {
		if st, err := f.Stat(); err == nil && st.Mode()&os.ModeCharDevice != 0 {
			live = true
		}
	}
	return &progress{w: w, live: live, total: total, start: time.Now()}
}

func (p *progress) update(done, total int, o regress.Outcome) {
	v := o.Verdict()
	if v != regress.StatusPass {
		p.failed++
	}
	if !p.live {
		fmt.Fprintf(p.w, "[%d/%d] %s %s config=%s seed=%d %.1fs\n", done, total, v, o.Req.Test, o.Req.Config.Name, o.Req.Seed, o.Elapsed.Seconds())
		return
	}
	if v != regress.StatusPass {
		fmt.Fprintf(p.w, "\r\033[K%s %s config=%s seed=%d\n", v, o.Req.Test, o.Req.Config.Name, o.Req.Seed)
	}
	el := time.Since(p.start)
	eta := time.Duration(float64(el) / float64(done) * float64(total-done)).Round(time.Second)
	fmt.Fprintf(p.w, "\r\033[K[%d/%d] %d failed, elapsed %s, ETA %s, last %s/%s/%d", done, total, p.failed,
		el.Round(time.Second), eta, o.Req.Test, o.Req.Config.Name, o.Req.Seed)
}

func (p *progress) finish() {
	if p.live {
		fmt.Fprintln(p.w)
	}
}

// regressSlurm runs the suite as a Slurm job array: one task per shard, each writing shared-dir/shard-<i>.json;
// it waits for the job and merges the shards.
func regressSlurm(c *cli.Context, root string, s regress.Suite, reqs []cosim.Request) error {
	if c.String("shard") != "" || c.String("rerun-failed") != "" {
		return fmt.Errorf("--slurm: cannot be combined with --shard or --rerun-failed")
	}
	n := c.Int("shards")
	if n < 1 || n > regress.MaxShards {
		return fmt.Errorf("--shards %d: must be in 1..%d", n, regress.MaxShards)
	}
	n = min(n, len(reqs))
	dir := c.String("shared-dir")
	if dir == "" {
		dir = filepath.Join(root, "build", "slurm", s.Name)
	}
	dir, err := filepath.Abs(dir)
	if err != nil {
		return err
	}
	bin, err := os.Executable()
	if err != nil {
		return err
	}
	args := []string{"regress", "--suite", s.Name, "--seed", fmt.Sprint(c.Uint64("seed")), "--timeout", c.Duration("timeout").String(),
		"--jobs", fmt.Sprint(c.Int("jobs"))}
	if f := c.String("suite-file"); f != "" {
		abs, err := filepath.Abs(f)
		if err != nil {
			return err
		}
		args = append(args, "--suite-file", abs)
	}
	for _, cfg := range c.StringSlice("config") {
		args = append(args, "--config", cfg)
	}
	if c.Bool("stop-on-failure") {
		args = append(args, "--stop-on-failure")
	}
	if c.Bool("golden") {
		args = append(args, "--golden")
	}
	job := regress.SlurmJob{Name: "spraynic-" + s.Name, Partition: c.String("partition"), Account: c.String("account"),
		Time: c.String("time"), Shards: n, Dir: dir, Root: root, Command: append([]string{bin}, args...), CPUs: c.Int("jobs")}
	// Build every model once here, so the array tasks only load them (the cache lives under the shared root).
	for i := range reqs {
		reqs[i].Log = os.Stderr
	}
	if err := regress.BuildModels(reqs); err != nil {
		return err
	}
	w := c.App.Writer
	parts, names, err := job.Run(c.Context, w, 2*time.Second, c.Duration("slurm-wait"))
	if err != nil {
		return err
	}
	rs, err := regress.Merge(parts, names)
	if err != nil {
		return err
	}
	return report(c, rs)
}
