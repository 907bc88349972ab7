package regress

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path"
	"runtime"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/spraynic/spraynic/config"
	"github.com/spraynic/spraynic/cosim"
)

// Suite is a named set of runs: tests x configs x seeds.
type Suite struct {
	// Name, Doc describe it; Configs, Seeds and CycleScale shape every test of the suite.
	Name    string   `json:"name"`
	Doc     string   `json:"doc,omitempty"`
	Configs []string `json:"configs"`
	Seeds   int      `json:"seeds"`
	// CycleScale multiplies each test's default length.
	CycleScale int64 `json:"cycle_scale"`
	// Tests, when not empty, keeps only the tests whose name matches one of these path.Match patterns
	// ("rx_*", "path_basic").
	Tests []string `json:"tests,omitempty"`
}

// Suites are the built-in regressions.
var Suites = map[string]Suite{
	"smoke": {
		Name:       "smoke",
		Doc:        "every test, presets default/ice40/u250, 2 seeds: each commit",
		Configs:    []string{"default", "ice40", "u250"},
		Seeds:      2,
		CycleScale: 1,
	},
	"nightly": {
		Name:       "nightly",
		Doc:        "every test, every preset, 20 seeds, 5x longer",
		Configs:    []string{"default", "ice40", "u250"},
		Seeds:      20,
		CycleScale: 5,
	},
}

// SuiteNames lists the suites.
func SuiteNames() []string {
	var n []string
	for k := range Suites {
		n = append(n, k)
	}
	sort.Strings(n)
	return n
}

// suiteFile is the JSON shape of a --suite-file: {"suites": [Suite, ...]}.
type suiteFile struct {
	// Suites are the user's suites.
	Suites []Suite `json:"suites"`
}

// LoadSuites reads user-defined suites from a JSON file {"suites": [{"name", "configs", "seeds", "cycle_scale",
// "tests"}]}. Every error names the file, the field, the value and what is allowed.
func LoadSuites(file string) ([]Suite, error) {
	b, err := os.ReadFile(file)
	if err != nil {
		return nil, fmt.Errorf("suite file: %w", err)
	}
	var sf suiteFile
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&sf); err != nil {
		return nil, fmt.Errorf(
			"suite file %s: %w (allowed: {\"suites\": [{\"name\", \"doc\", \"configs\", \"seeds\", \"cycle_scale\", "+
				"\"tests\"}]})",
			file,
			err,
		)
	}
	if len(sf.Suites) == 0 {
		return nil, fmt.Errorf("suite file %s: field suites: empty (allowed: one or more suites)", file)
	}
	seen := map[string]bool{}
	for i, s := range sf.Suites {
		where := fmt.Sprintf("suite file %s: suites[%d]", file, i)
		if err := s.Validate(); err != nil {
			return nil, fmt.Errorf("%s: %w", where, err)
		}
		if seen[s.Name] {
			return nil, fmt.Errorf("%s: field name: value %q repeats an earlier suite (allowed: unique names)", where,
				s.Name)
		}
		seen[s.Name] = true
	}
	return sf.Suites, nil
}

// Validate checks every field of s; the error names the field, its value and the allowed values.
func (s Suite) Validate() error {
	if s.Name == "" || strings.ContainsAny(s.Name, " /\t\n") {
		return fmt.Errorf("field name: value %q (allowed: a non-empty name without spaces or '/')", s.Name)
	}
	if len(s.Configs) == 0 {
		return fmt.Errorf("field configs: empty (allowed: preset names %s or config files)",
			strings.Join(config.PresetNames(), ", "))
	}
	for _, c := range s.Configs {
		if _, err := config.Resolve(c); err != nil {
			return fmt.Errorf("field configs: value %q: %w (allowed: presets %s or config files)", c, err,
				strings.Join(config.PresetNames(), ", "))
		}
	}
	if s.Seeds < 1 || s.Seeds > 1000000 {
		return fmt.Errorf("field seeds: value %d (allowed: 1..1000000)", s.Seeds)
	}
	if s.CycleScale < 1 || s.CycleScale > 10000 {
		return fmt.Errorf("field cycle_scale: value %d (allowed: 1..10000)", s.CycleScale)
	}
	var names []string
	for _, t := range cosim.Tests() {
		names = append(names, t.Name)
	}
	for _, p := range s.Tests {
		if _, err := path.Match(p, ""); err != nil {
			return fmt.Errorf("field tests: value %q: bad pattern (allowed: test names or path.Match patterns over %s)",
				p, strings.Join(names, ", "))
		}
		if !s.matchAny(names, p) {
			return fmt.Errorf("field tests: value %q matches no test (allowed: %s, or patterns such as rx_*)", p,
				strings.Join(names, ", "))
		}
	}
	return nil
}

func (s Suite) matchAny(names []string, p string) bool {
	for _, n := range names {
		if ok, _ := path.Match(p, n); ok {
			return true
		}
	}
	return false
}

// Selects reports whether the suite runs test name (every test when Tests is empty).
func (s Suite) Selects(name string) bool {
	if len(s.Tests) == 0 {
		return true
	}
	for _, p := range s.Tests {
		if ok, _ := path.Match(p, name); ok {
			return true
		}
	}
	return false
}

// Status is the verdict of one run.
type Status string

// The verdicts.
const (
	// StatusPass: the run finished without a mismatch or violation.
	StatusPass Status = "PASS"
	// StatusFail: the run returned an error (mismatch, scoreboard violation, build error).
	StatusFail Status = "FAIL"
	// StatusPanic: the run panicked; the runner recovered it.
	StatusPanic Status = "PANIC"
	// StatusTimeout: the run exceeded the wall-clock budget.
	StatusTimeout Status = "TIMEOUT"
)

// Outcome is one finished run of a regression.
type Outcome struct {
	// Req is what ran; Res what it counted; Err nil on a pass.
	Req cosim.Request
	Res cosim.Result
	Err error
	// Status is the verdict (derived from Err when empty); Elapsed the wall-clock time of the run.
	Status  Status
	Elapsed time.Duration
}

// Verdict is o.Status, or PASS/FAIL from Err when Status is not set.
func (o Outcome) Verdict() Status {
	if o.Status != "" {
		return o.Status
	}
	if o.Err != nil {
		return StatusFail
	}
	return StatusPass
}

// Expand lists the requests of a suite, seeds 1..Seeds starting at firstSeed, in a fixed order (configs as listed,
// tests by name, seeds ascending). The cycle scale lengthens every test but the directed ones; a test's MaxSeeds
// caps its seeds.
func (s Suite) Expand(root string, firstSeed uint64) ([]cosim.Request, error) {
	var reqs []cosim.Request
	scale := max(1, s.CycleScale)
	for _, cname := range s.Configs {
		cfg, err := config.Resolve(cname)
		if err != nil {
			return nil, err
		}
		for _, t := range cosim.Tests() {
			if !s.Selects(t.Name) {
				continue
			}
			cycles := t.Scaled(cfg, scale)
			seeds := s.Seeds
			if t.MaxSeeds > 0 {
				seeds = min(seeds, t.MaxSeeds)
			}
			for k := 0; k < seeds; k++ {
				reqs = append(reqs,
					cosim.Request{Test: t.Name, Config: cfg, Seed: firstSeed + uint64(k), Cycles: cycles, Root: root})
			}
		}
	}
	return reqs, nil
}

// RegressOptions steer a regression.
type RegressOptions struct {
	// Jobs is the number of parallel runs (0: one per core).
	Jobs int
	// Timeout is the wall-clock budget of one run (0: none). A run over budget is reported as TIMEOUT and left
	// running in its goroutine (a cgo call cannot be interrupted); it ends by itself at its cycle budget.
	Timeout time.Duration
	// StopOnFailure stops handing out runs after the first failure; runs never started are not reported.
	StopOnFailure bool
	// Progress is called after each run from the collecting goroutine.
	Progress func(done, total int, o Outcome)
}

// Regress runs reqs on jobs workers (0: one per core); models are built first, one at a time. progress is called
// after each run from the collecting goroutine.
func Regress(reqs []cosim.Request, jobs int, progress func(done, total int, o Outcome)) ([]Outcome, error) {
	return RegressWith(reqs, RegressOptions{Jobs: jobs, Progress: progress})
}

// runIsolated runs r in its own goroutine, turning a panic into a PANIC outcome and a run longer than timeout into
// a TIMEOUT outcome (the goroutine is then abandoned).
func runIsolated(r cosim.Request, timeout time.Duration, run func(cosim.Request) (cosim.Result, error)) Outcome {
	type ret struct {
		res cosim.Result
		err error
		st  Status
	}
	ch := make(chan ret, 1)
	start := time.Now()
	go func() {
		defer func() {
			if p := recover(); p != nil {
				buf := make([]byte, 4096)
				buf = buf[:runtime.Stack(buf, false)]
				ch <- ret{err: fmt.Errorf("panic: %v\n%s\n  reproduce: %s", p, buf, r.Repro()), st: StatusPanic}
			}
		}()
		res, err := run(r)
		ch <- ret{res: res, err: err}
	}()
	var timer <-chan time.Time
	if timeout > 0 {
		t := time.NewTimer(timeout)
		defer t.Stop()
		timer = t.C
	}
	select {
	case v := <-ch:
		o := Outcome{Req: r, Res: v.res, Err: v.err, Status: v.st, Elapsed: time.Since(start)}
		o.Status = o.Verdict()
		return o
	case <-timer:
		return Outcome{Req: r, Status: StatusTimeout, Elapsed: time.Since(start),
			Err: fmt.Errorf("timeout: no result after %s (wall-clock budget --timeout)\n  reproduce: %s", timeout,
				r.Repro())}
	}
}

// BuildModels builds (or finds in the cache) the plain model of every (block, config) that reqs need, one at a
// time.
func BuildModels(reqs []cosim.Request) error {
	built := map[string]bool{}
	for _, r := range reqs {
		t, err := cosim.Lookup(r.Test)
		if err != nil {
			return err
		}
		v := r.Variant()
		key := t.Block + "/" + r.Config.Hash() + "/" + v.String()
		if !r.Golden && !built[key] {
			if _, err := cosim.BuildTop(r.Root, t.Block, r.Config, v, r.Log); err != nil {
				return err
			}
			built[key] = true
		}
	}
	return nil
}

// runner is the function a regression runs per request; tests replace it.
var runner = cosim.Run

// RegressWith runs reqs as opt says; models are built first, one at a time. Each run is isolated: a panic or a
// timeout becomes that run's outcome. Outcomes come back in request order; with StopOnFailure only the runs that
// finished are returned.
func RegressWith(reqs []cosim.Request, opt RegressOptions) ([]Outcome, error) {
	jobs := opt.Jobs
	if jobs <= 0 {
		jobs = runtime.NumCPU()
	}
	if err := BuildModels(reqs); err != nil {
		return nil, err
	}
	outs := make([]Outcome, len(reqs))
	ran := make([]bool, len(reqs))
	work := make(chan int)
	done := make(chan int)
	stop := make(chan struct{})
	var stopOnce sync.Once
	var wg sync.WaitGroup
	for w := 0; w < jobs; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range work {
				outs[i] = runIsolated(reqs[i], opt.Timeout, runner)
				done <- i
			}
		}()
	}
	go func() {
	feed:
		for i := range reqs {
			select {
			case work <- i:
			case <-stop:
				break feed
			}
		}
		close(work)
		wg.Wait()
		close(done)
	}()
	n := 0
	for i := range done {
		n++
		ran[i] = true
		if opt.StopOnFailure && outs[i].Verdict() != StatusPass {
			stopOnce.Do(func() { close(stop) })
		}
		if opt.Progress != nil {
			opt.Progress(n, len(reqs), outs[i])
		}
	}
	if n == len(reqs) {
		return outs, nil
	}
	var got []Outcome
	for i, o := range outs {
		if ran[i] {
			got = append(got, o)
		}
	}
	return got, nil
}
