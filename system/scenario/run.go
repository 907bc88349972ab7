package scenario

import (
	"fmt"
	"slices"
	"sync"

	"github.com/spraynic/spraynic/system"
)

// Run is one scenario run of one seed.
type Run struct {
	// Scenario and Seed name it; Result holds its figures (nil when it failed); Err why it failed.
	Scenario string
	Seed     uint64
	Result   *system.Result
	Err      error
}

// Row is the runs of one scenario over every seed, with the figures its targets bound.
type Row struct {
	// Scenario is what ran; Runs its runs, in seed order.
	Scenario Scenario
	Runs     []Run
	// Values holds, per figure that a target bounds or the table shows, the value of each run (NaN-free: a run
	// without the figure is left out).
	Values map[Figure][]float64
	// Missed lists the targets a run missed, each with the run: "p99/base <= 1.30x: 1.45x (seed 3)".
	Missed []string
}

// Report is a scenario set run over seeds.
type Report struct {
	// Set ran over Seeds; Rows are its scenarios in order.
	Set   string
	Seeds []uint64
	Rows  []Row
}

// shown are the figures every row reports, besides those its targets bound.
var shown = []Figure{Goodput, P99Ratio, NoRTO, SpuriousShare}

// RunSet runs every scenario of set (only the named ones and their baselines when only is not empty) for every
// seed on jobs workers. A run that fails is a row's error, not the report's.
func RunSet(set Set, seeds []uint64, jobs int, only []string) (Report, error) {
	scs, err := selected(set, only)
	if err != nil {
		return Report{}, err
	}
	runs := runAll(scs, seeds, max(1, jobs))
	rep := Report{Set: set.Name, Seeds: seeds}
	byName := map[string][]Run{}
	for i, sc := range scs {
		byName[sc.Name] = runs[i]
	}
	for i, sc := range scs {
		rep.Rows = append(rep.Rows, judge(sc, runs[i], byName[sc.Baseline]))
	}
	return rep, nil
}

// selected are the scenarios of set named in only (every one when only is empty), with the baselines they need.
func selected(set Set, only []string) ([]Scenario, error) {
	if len(only) == 0 {
		return set.Scenarios, nil
	}
	want := map[string]bool{}
	for _, n := range only {
		found := false
		for _, sc := range set.Scenarios {
			if sc.Name == n {
				found = true
				want[n] = true
				if sc.Baseline != "" {
					want[sc.Baseline] = true
				}
			}
		}
		if !found {
			return nil, fmt.Errorf("scenario %q is not in set %s (allowed: %s)", n, set.Name, names(set))
		}
	}
	var scs []Scenario
	for _, sc := range set.Scenarios {
		if want[sc.Name] {
			scs = append(scs, sc)
		}
	}
	return scs, nil
}

// names lists the scenarios of a set.
func names(set Set) string {
	var ns []string
	for _, sc := range set.Scenarios {
		ns = append(ns, sc.Name)
	}
	return fmt.Sprint(ns)
}

// runAll runs every (scenario, seed) on jobs workers: runs[i][k] is scenario i's run of seeds[k].
func runAll(scs []Scenario, seeds []uint64, jobs int) [][]Run {
	runs := make([][]Run, len(scs))
	type job struct{ i, k int }
	work := make(chan job)
	var wg sync.WaitGroup
	for w := 0; w < jobs; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range work {
				runs[j.i][j.k] = runOne(scs[j.i], seeds[j.k])
			}
		}()
	}
	for i := range scs {
		runs[i] = make([]Run, len(seeds))
		for k := range seeds {
			work <- job{i: i, k: k}
		}
	}
	close(work)
	wg.Wait()
	return runs
}

// runOne runs a scenario for one seed.
func runOne(sc Scenario, seed uint64) Run {
	r := Run{Scenario: sc.Name, Seed: seed}
	o, err := sc.Options(seed)
	if err == nil {
		o = o.Defaults()
		err = o.Validate()
	}
	if err == nil {
		r.Result, err = system.Run(o)
	}
	if err != nil {
		r.Result = nil
		r.Err = fmt.Errorf("scenario %s seed %d: %w", sc.Name, seed, err)
	}
	return r
}

// judge collects a scenario's figures and checks its targets on every run; base are its baseline's runs (same
// seed order), nil when it has none.
func judge(sc Scenario, runs, base []Run) Row {
	row := Row{Scenario: sc, Runs: runs, Values: map[Figure][]float64{}}
	figs := slices.Clone(shown)
	for _, t := range sc.Targets {
		if !slices.Contains(figs, t.Figure) {
			figs = append(figs, t.Figure)
		}
	}
	for k, r := range runs {
		if r.Err != nil {
			row.Missed = append(row.Missed, r.Err.Error())
			continue
		}
		var b *system.Result
		if base != nil {
			b = base[k].Result
		}
		for _, f := range figs {
			if v, ok := f.value(r.Result, b); ok {
				row.Values[f] = append(row.Values[f], v)
			}
		}
		for _, t := range sc.Targets {
			v, ok := t.Figure.value(r.Result, b)
			if !ok {
				row.Missed = append(row.Missed, fmt.Sprintf("%s: no value (seed %d; baseline failed)", t, r.Seed))
			} else if !t.Met(v) {
				row.Missed = append(row.Missed, fmt.Sprintf("%s: %s (seed %d)", t, t.Figure.format(v), r.Seed))
			}
		}
	}
	return row
}

// Failed reports whether a run failed or missed a target.
func (r Report) Failed() bool {
	for _, row := range r.Rows {
		if len(row.Missed) > 0 {
			return true
		}
	}
	return false
}
