package formal

import (
	"context"
	"fmt"
	"io"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"text/tabwriter"
	"time"

	"github.com/spraynic/spraynic/regress"
)

// Options of Run.
type Options struct {
	// Root is the repository; RTL the directory of the Verilog (default Root/rtl); Out the build directory.
	Root, RTL, Out string
	// Jobs is the number of yosys or solver processes at once (at least 1).
	Jobs int
	// Timeout bounds each solver run; a run stopped by it is unknown.
	Timeout time.Duration
}

// Tools lists the external programs Run needs for solver, and the ones missing from PATH.
func Tools(solver string) (missing []string) {
	for _, t := range []string{"yosys", "yosys-smtbmc", solver} {
		if _, err := exec.LookPath(t); err != nil {
			missing = append(missing, t)
		}
	}
	return missing
}

// Run checks every check: one model each, then its methods (BMC to the induction or BMC depth, the induction
// step, cover), at most o.Jobs processes at a time. Results come in check order, methods in that order.
func Run(ctx context.Context, f File, checks []Check, o Options) ([]Result, error) {
	if o.RTL == "" {
		o.RTL = filepath.Join(o.Root, "rtl")
	}
	if o.Jobs < 1 {
		o.Jobs = 1
	}
	sem := make(chan struct{}, o.Jobs)
	results := make([][]Result, len(checks))
	var wg sync.WaitGroup
	for i, c := range checks {
		i, c := i, c
		wg.Add(1)
		go func() {
			defer wg.Done()
			results[i] = runCheck(ctx, f, c, o, sem)
		}()
	}
	wg.Wait()
	var all []Result
	for _, rs := range results {
		all = append(all, rs...)
	}
	return all, ctx.Err()
}

// runCheck builds c's model and runs its methods.
func runCheck(ctx context.Context, f File, c Check, o Options, sem chan struct{}) []Result {
	dir := filepath.Join(o.Out, c.Block+"-"+c.Preset+"-"+c.Set)
	repro := fmt.Sprintf("spraynic formal --block %s --set %s", c.Block, c.Set)
	sem <- struct{}{}
	start := time.Now()
	smt2, err := Model(ctx, o.Root, o.RTL, dir, f, c)
	<-sem
	if err != nil {
		return []Result{{Check: c, Method: MethodBMC, Verdict: Error, Detail: oneLine(err.Error()),
			Seconds: time.Since(start).Seconds(), Repro: repro}}
	}
	type job struct {
		m     Method
		depth int
	}
	var jobs []job
	if c.Induction > 0 {
		jobs = append(jobs, job{MethodBMC, c.Induction}, job{MethodInduction, c.Induction})
	} else {
		jobs = append(jobs, job{MethodBMC, c.BMC})
	}
	if c.Cover > 0 {
		jobs = append(jobs, job{MethodCover, c.Cover})
	}
	rs := make([]Result, len(jobs))
	var wg sync.WaitGroup
	for i, j := range jobs {
		i, j := i, j
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			rctx := ctx
			if o.Timeout > 0 {
				var cancel context.CancelFunc
				rctx, cancel = context.WithTimeout(ctx, o.Timeout)
				defer cancel()
			}
			t0 := time.Now()
			r, err := Solve(rctx, f.Solver, smt2, j.m, j.depth)
			if err != nil {
				r.Verdict, r.Detail = Error, oneLine(err.Error())
			}
			if r.Verdict == Reached || r.Verdict == Proved || r.Verdict == Bounded {
				r.VCD = "" // a cover trace is not a counterexample
			}
			r.Check, r.Seconds, r.Repro = c, time.Since(t0).Seconds(), repro
			rs[i] = r
		}()
	}
	wg.Wait()
	// k-induction proves the set only when the base case (BMC to k) passed too
	if c.Induction > 0 && rs[0].Verdict == Bounded && rs[1].Verdict == Proved {
		rs[0].Verdict = Proved
	}
	return rs
}

func oneLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return s
}

// Passed says whether every result passed.
func Passed(rs []Result) bool {
	for _, r := range rs {
		if !r.Verdict.Pass() {
			return false
		}
	}
	return true
}

// PrintTable writes the results as a table: block, preset, property set, method, depth, result, time.
func PrintTable(w io.Writer, rs []Result) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "block\tpreset\tproperty set\tmethod\tdepth\tresult\ttime")
	for _, r := range rs {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%d\t%s\t%.1fs\n", r.Check.Block, r.Check.Preset, r.Check.Set, r.Method,
			r.Depth, r.Text(), r.Seconds)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, r := range rs {
		if r.Verdict == Failed && r.VCD != "" {
			fmt.Fprintf(w, "%s %s: counterexample %s (%s)\n", r.Check.Name(), r.Method, r.VCD, r.Text())
		}
	}
	return nil
}

// Records converts results to regression records (test = block/set/method, config = preset), for JUnit.
func Records(rs []Result) regress.Results {
	out := regress.Results{Suite: "formal", Total: len(rs)}
	for _, r := range rs {
		rec := regress.Record{Test: r.Check.Block + "/" + r.Check.Set + "/" + string(r.Method),
			Config: r.Check.Preset, Cycles: int64(r.Depth), Detail: r.Text(), Status: regress.StatusPass,
			Repro: r.Repro, Seconds: r.Seconds}
		if !r.Verdict.Pass() {
			rec.Status = regress.StatusFail
			rec.Error = r.Text()
			if r.Verdict == Failed && r.VCD != "" {
				rec.Error += "\ncounterexample: " + r.VCD
			}
			rec.Error += "\nsolver log: " + r.Log
		}
		out.Runs = append(out.Runs, rec)
	}
	return out
}
