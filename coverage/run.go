package coverage

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"

	"github.com/spraynic/spraynic/config"
	"github.com/spraynic/spraynic/cosim"
	"github.com/spraynic/spraynic/cosim/bridge"
	"github.com/spraynic/spraynic/coverage/functional"
	"github.com/spraynic/spraynic/regress"
)

// Options steer a coverage run.
type Options struct {
	// Root is the repository; Out the output directory (dat/, merged/, info/, html/, coverage.json).
	Root, Out string
	// Suite is expanded from FirstSeed; Configs, when set, keeps only these configs of the suite.
	Suite     regress.Suite
	Configs   []string
	FirstSeed uint64
	// Tests, when set, keeps only the suite's tests matching these path.Match patterns.
	Tests []string
	// Jobs is the number of parallel runs (0: one per core).
	Jobs int
	// Functional also collects the functional cover groups of every run (merged per top and config).
	Functional bool
	// Golden runs the golden models and scoreboards alone (no RTL, no Verilator coverage): functional coverage
	// only, in seconds. It implies Functional.
	Golden bool
	// Exclusions take toggle points out of the net toggle figure (coverage/exclusions.yaml).
	Exclusions []Exclusion
	// Shard and Shards, when Shards > 0, run only shard Shard/Shards of the suite (regress.Shard); 'cov merge'
	// combines the shards' output directories.
	Shard, Shards int
	// Log receives progress and tool output.
	Log io.Writer
}

// group is the runs of one (top, config).
type group struct {
	top, config string
	dats        []string
}

// Run runs the suite with the Coverage model variant, merges the data per (top, config) with verilator_coverage,
// writes lcov and (when genhtml is installed) HTML reports, and writes Out/coverage.json. It returns the report
// and the reproduce lines of failed runs (their coverage data is still merged when written).
func Run(o Options) (Report, []string, error) {
	s := o.Suite
	if len(o.Configs) > 0 {
		keep := map[string]bool{}
		for _, c := range o.Configs {
			keep[c] = true
		}
		var cs []string
		for _, c := range s.Configs {
			if keep[c] {
				cs = append(cs, c)
				delete(keep, c)
			}
		}
		for c := range keep {
			return Report{}, nil, fmt.Errorf("--config %s: not a config of suite %s (configs: %s)", c, s.Name, strings.Join(s.Configs, ", "))
		}
		s.Configs = cs
	}
	if len(o.Tests) > 0 {
		s.Tests = o.Tests
		if err := s.Validate(); err != nil {
			return Report{}, nil, fmt.Errorf("--test: %w", err)
		}
	}
	if o.Golden {
		o.Functional = true
	} else if _, err := exec.LookPath("verilator_coverage"); err != nil {
		return Report{}, nil, fmt.Errorf("verilator_coverage not found (install the Debian package verilator)")
	}
	reqs, err := s.Expand(o.Root, o.FirstSeed)
	if err != nil {
		return Report{}, nil, err
	}
	shard := ""
	if o.Shards > 0 {
		reqs = regress.Shard(reqs, o.Shard, o.Shards)
		shard = fmt.Sprintf("%d/%d", o.Shard, o.Shards)
		if len(reqs) == 0 {
			return Report{}, nil, fmt.Errorf("shard %s of suite %s has no runs (fewer runs than shards)", shard, s.Name)
		}
	}
	dirs := []string{"dat", "merged", "info"}
	if o.Golden {
		dirs = []string{"."}
	}
	for _, d := range dirs {
		if err := os.MkdirAll(filepath.Join(o.Out, d), 0o755); err != nil {
			return Report{}, nil, err
		}
	}
	// One functional collector per request, filled by the run (cosim.Request.Functional), merged afterwards.
	collectors := make([]functional.Collector, len(reqs))
	groups := map[string]*group{}
	for i := range reqs {
		r := &reqs[i]
		t, err := cosim.Lookup(r.Test)
		if err != nil {
			return Report{}, nil, err
		}
		if o.Functional {
			r.Functional = func(block string, cfg config.Config) (any, error) {
				c, err := functional.New(block, cfg)
				collectors[i] = c
				return c, err
			}
		}
		r.Log = o.Log
		if o.Golden {
			r.Golden = true
			continue
		}
		r.Coverage = filepath.Join(o.Out, "dat", fmt.Sprintf("%s-%s-%d.dat", r.Test, r.Config.Name, r.Seed))
		_ = os.Remove(r.Coverage)
		k := t.Block + "-" + r.Config.Name
		if groups[k] == nil {
			groups[k] = &group{top: t.Block, config: r.Config.Name}
		}
		groups[k].dats = append(groups[k].dats, r.Coverage)
	}
	// Build each coverage model once, one at a time, before the parallel runs (regress.Regress prebuilds only the
	// plain variant; without this, parallel workers would build the same coverage model side by side).
	built := map[string]bool{}
	for _, r := range reqs {
		if r.Golden {
			break
		}
		t, _ := cosim.Lookup(r.Test)
		if k := t.Block + "/" + r.Config.Hash(); !built[k] {
			if _, err := cosim.BuildTop(o.Root, t.Block, r.Config, bridge.Coverage, o.Log); err != nil {
				return Report{}, nil, err
			}
			built[k] = true
		}
	}
	var failed []string
	outs, err := regress.Regress(reqs, o.Jobs, func(done, total int, oc regress.Outcome) {
		fmt.Fprintf(o.Log, "[%d/%d] %-5s %s config=%s seed=%d %.1fs\n", done, total, oc.Verdict(), oc.Req.Test, oc.Req.Config.Name, oc.Req.Seed, oc.Elapsed.Seconds())
	})
	if err != nil {
		return Report{}, nil, err
	}
	for _, oc := range outs {
		if oc.Verdict() != regress.StatusPass {
			failed = append(failed, fmt.Sprintf("%s: %v", oc.Req.Repro(), oc.Err))
		}
	}
	var keys []string
	for k := range groups {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	rep := Report{Version: Version, Suite: s.Name, Shard: shard, Entries: []Entry{}}
	_, haveGenhtml := exec.LookPath("genhtml")
	var envs []Env
	for _, k := range keys {
		g := groups[k]
		var dats []string
		for _, d := range g.dats {
			if _, err := os.Stat(d); err == nil {
				dats = append(dats, d)
			}
		}
		if len(dats) == 0 {
			continue
		}
		e, env, err := mergeGroup(o, k, g.top, g.config, dats, haveGenhtml == nil)
		if err != nil {
			return Report{}, nil, err
		}
		rep.Entries = append(rep.Entries, e)
		envs = append(envs, env)
	}
	if rep.Units, err = Units(envs, o.Root, o.Exclusions); err != nil {
		return Report{}, nil, err
	}
	if o.Functional {
		fe, err := mergeFunctional(reqs, collectors)
		if err != nil {
			return Report{}, nil, err
		}
		rep.Functional = fe
	}
	if len(rep.Entries) == 0 && len(rep.Functional) == 0 {
		return Report{}, nil, fmt.Errorf("no coverage data written (every run failed before writing it)")
	}
	if err := rep.Write(filepath.Join(o.Out, "coverage.json")); err != nil {
		return Report{}, nil, err
	}
	return rep, failed, nil
}

// mergeFunctional merges the cover groups of the runs per (top, config name), in the order of functional.Tops.
// The coverage of a failed run is merged too (up to where it stopped), as for Verilator's data.
func mergeFunctional(reqs []cosim.Request, cs []functional.Collector) ([]functional.Entry, error) {
	m := map[string]*functional.Entry{}
	for i, c := range cs {
		if c == nil {
			continue
		}
		t, _ := cosim.Lookup(reqs[i].Test)
		k := t.Block + "/" + reqs[i].Config.Name
		if m[k] == nil {
			m[k] = &functional.Entry{Top: t.Block, Config: reqs[i].Config.Name}
		}
		if err := m[k].Add(c.Groups()); err != nil {
			return nil, err
		}
	}
	return sortedFunctional(m), nil
}

// sortedFunctional returns the entries of m in the order of functional.Tops, then by config.
func sortedFunctional(m map[string]*functional.Entry) []functional.Entry {
	var keys []string
	for k := range m {
		keys = append(keys, k)
	}
	order := map[string]int{}
	for i, t := range functional.Tops {
		order[t] = i
	}
	sort.Slice(keys, func(i, j int) bool {
		a, b := m[keys[i]], m[keys[j]]
		if a.Top != b.Top {
			return order[a.Top] < order[b.Top]
		}
		return a.Config < b.Config
	})
	out := []functional.Entry{}
	for _, k := range keys {
		out = append(out, *m[k])
	}
	return out
}

// mergeGroup merges the .dat files of one (top, config), writes its lcov file and HTML, and summarizes it; it
// also returns the merged points (for the design units).
func mergeGroup(o Options, name, top, config string, dats []string, html bool) (Entry, Env, error) {
	merged := filepath.Join(o.Out, "merged", name+".dat")
	if err := tool(o.Log, "verilator_coverage", append([]string{"--write", merged}, dats...)...); err != nil {
		return Entry{}, Env{}, err
	}
	info := filepath.Join(o.Out, "info", name+".info")
	if err := tool(o.Log, "verilator_coverage", "--write-info", info, merged); err != nil {
		return Entry{}, Env{}, err
	}
	b, err := os.ReadFile(info)
	if err != nil {
		return Entry{}, Env{}, err
	}
	if err := os.WriteFile(info, []byte(RewriteSF(string(b), o.Root)), 0o644); err != nil {
		return Entry{}, Env{}, err
	}
	if html {
		dir := filepath.Join(o.Out, "html", name)
		if err := tool(o.Log, "genhtml", "--quiet", "--output-directory", dir, "--prefix", o.Root, "--title", name, info); err != nil {
			return Entry{}, Env{}, err
		}
	}
	pts, err := ParseDatFile(merged)
	if err != nil {
		return Entry{}, Env{}, err
	}
	e, err := Summarize(top, config, len(dats), pts, o.Root, o.Exclusions)
	return e, Env{Top: top, Config: config, Points: pts}, err
}

func tool(log io.Writer, name string, args ...string) error {
	cmd := exec.Command(name, args...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		return fmt.Errorf("%s %s: %w\n%s", name, strings.Join(args, " "), err, out)
	}
	return nil
}
