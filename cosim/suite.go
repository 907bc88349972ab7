package cosim

import (
	"fmt"
	"runtime"
	"sort"
	"strings"
	"sync"

	"github.com/spraynic/spraynic/config"
	"github.com/spraynic/spraynic/cosim/bridge"
)

// Suite is a named set of runs: tests x configs x seeds.
type Suite struct {
	// Name, Doc describe it; Configs, Seeds and CycleScale shape every test of the suite.
	Name, Doc string
	Configs   []string
	Seeds     int
	// CycleScale multiplies each test's default length.
	CycleScale int64
}

// Suites are the built-in regressions.
var Suites = map[string]Suite{
	"smoke":   {Name: "smoke", Doc: "every test, presets default/ice40/u250, 2 seeds: each commit", Configs: []string{"default", "ice40", "u250"}, Seeds: 2, CycleScale: 1},
	"nightly": {Name: "nightly", Doc: "every test, every preset, 20 seeds, 5x longer", Configs: []string{"default", "ice40", "u250"}, Seeds: 20, CycleScale: 5},
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

// Outcome is one finished run of a regression.
type Outcome struct {
	// Req is what ran; Res what it counted; Err nil on a pass.
	Req Request
	Res Result
	Err error
}

// Expand lists the requests of a suite, seeds 1..Seeds starting at firstSeed.
func (s Suite) Expand(root string, firstSeed uint64) ([]Request, error) {
	var reqs []Request
	for _, cname := range s.Configs {
		cfg, err := config.Resolve(cname)
		if err != nil {
			return nil, err
		}
		for _, t := range Tests() {
			for k := 0; k < s.Seeds; k++ {
				reqs = append(reqs, Request{Test: t.Name, Config: cfg, Seed: firstSeed + uint64(k), Cycles: t.CyclesFor(cfg) * s.CycleScale, Root: root})
			}
		}
	}
	return reqs, nil
}

// Regress runs reqs on jobs workers (0: one per core); models are built first, one at a time. progress is called
// after each run from the collecting goroutine.
func Regress(reqs []Request, jobs int, progress func(done, total int, o Outcome)) ([]Outcome, error) {
	if jobs <= 0 {
		jobs = runtime.NumCPU()
	}
	built := map[string]bool{}
	for _, r := range reqs {
		t, err := Lookup(r.Test)
		if err != nil {
			return nil, err
		}
		key := t.Block + "/" + r.Config.Hash()
		if !r.Golden && !built[key] {
			if _, err := BuildTop(r.Root, t.Block, r.Config, bridge.Plain, r.Log); err != nil {
				return nil, err
			}
			built[key] = true
		}
	}
	outs := make([]Outcome, len(reqs))
	work := make(chan int)
	done := make(chan int)
	var wg sync.WaitGroup
	for w := 0; w < jobs; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range work {
				res, err := Run(reqs[i])
				outs[i] = Outcome{Req: reqs[i], Res: res, Err: err}
				done <- i
			}
		}()
	}
	go func() {
		for i := range reqs {
			work <- i
		}
		close(work)
		wg.Wait()
		close(done)
	}()
	n := 0
	for i := range done {
		n++
		if progress != nil {
			progress(n, len(reqs), outs[i])
		}
	}
	return outs, nil
}

// Table summarises outcomes per (test, config): seeds, cycles, packets, result; and the pass/fail total.
func Table(outs []Outcome) (string, int) {
	type row struct {
		test, cfg       string
		seeds, pass     int
		cycles, packets int64
	}
	var keys []string
	rows := map[string]*row{}
	failed := 0
	for _, o := range outs {
		k := o.Req.Test + "\x00" + o.Req.Config.Name
		r, ok := rows[k]
		if !ok {
			r = &row{test: o.Req.Test, cfg: o.Req.Config.Name}
			rows[k] = r
			keys = append(keys, k)
		}
		r.seeds++
		r.cycles += o.Res.Cycles
		r.packets += o.Res.Packets
		if o.Err == nil {
			r.pass++
		} else {
			failed++
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%-22s %-8s %5s %10s %12s  %s\n", "test", "config", "seeds", "cycles", "transactions", "result")
	for _, k := range keys {
		r := rows[k]
		res := "PASS"
		if r.pass != r.seeds {
			res = fmt.Sprintf("FAIL (%d/%d)", r.seeds-r.pass, r.seeds)
		}
		fmt.Fprintf(&b, "%-22s %-8s %5d %10d %12d  %s\n", r.test, r.cfg, r.seeds, r.cycles, r.packets, res)
	}
	fmt.Fprintf(&b, "%d passed, %d failed\n", len(outs)-failed, failed)
	return b.String(), failed
}
