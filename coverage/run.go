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
	s, err := selectSuite(o)
	if err != nil {
		return Report{}, nil, err
	}
	if o.Golden {
		o.Functional = true
	} else if _, err := exec.LookPath("verilator_coverage"); err != nil {
		return Report{}, nil, fmt.Errorf("verilator_coverage not found (install the Debian package verilator)")
	}
	reqs, shard, err := expandRuns(o, s)
	if err != nil {
		return Report{}, nil, err
	}
	if err := makeRunDirs(o); err != nil {
		return Report{}, nil, err
	}
	collectors, groups, err := prepareRuns(o, reqs)
	if err != nil {
		return Report{}, nil, err
	}
	if err := buildCoverageModels(o, reqs); err != nil {
		return Report{}, nil, err
	}
	failed, err := runAll(o, reqs)
	if err != nil {
		return Report{}, nil, err
	}
	rep := Report{Version: Version, Suite: s.Name, Shard: shard, Entries: []Entry{}}
	envs, err := mergeGroups(o, groups, &rep)
	if err != nil {
		return Report{}, nil, err
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

// selectSuite returns o.Suite narrowed to o.Configs and o.Tests, when set; a config the suite does not have, or
// a test pattern that matches nothing, is an error.
func selectSuite(o Options) (regress.Suite, error) {
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
			return regress.Suite{}, fmt.Errorf("--config %s: not a config of suite %s (configs: %s)",
				c, s.Name, strings.Join(s.Configs, ", "))
		}
		s.Configs = cs
	}
	if len(o.Tests) > 0 {
		s.Tests = o.Tests
		if err := s.Validate(); err != nil {
			return regress.Suite{}, fmt.Errorf("--test: %w", err)
		}
	}
	return s, nil
}

// expandRuns expands suite s from o.FirstSeed into its runs and keeps shard o.Shard/o.Shards of them when o.Shards
// is set; it also returns the shard label ("i/n", or "" for the whole suite).
func expandRuns(o Options, s regress.Suite) ([]cosim.Request, string, error) {
	reqs, err := s.Expand(o.Root, o.FirstSeed)
	if err != nil {
		return nil, "", err
	}
	if o.Shards <= 0 {
		return reqs, "", nil
	}
	reqs = regress.Shard(reqs, o.Shard, o.Shards)
	shard := fmt.Sprintf("%d/%d", o.Shard, o.Shards)
	if len(reqs) == 0 {
		return nil, "", fmt.Errorf("shard %s of suite %s has no runs (fewer runs than shards)", shard, s.Name)
	}
	return reqs, shard, nil
}

// makeRunDirs creates the output directories: dat/, merged/ and info/ under o.Out, or o.Out alone for a golden
// run.
func makeRunDirs(o Options) error {
	dirs := []string{"dat", "merged", "info"}
	if o.Golden {
		dirs = []string{"."}
	}
	for _, d := range dirs {
		if err := os.MkdirAll(filepath.Join(o.Out, d), 0o755); err != nil {
			return err
		}
	}
	return nil
}

// prepareRuns sets up each request for a coverage run: the log, the golden flag or the Verilator data file, and
// the functional collector. It returns one functional collector slot per request (cosim.Request.Functional fills
// it during the run; merged afterwards) and the runs' data files grouped by (top, config).
func prepareRuns(o Options, reqs []cosim.Request) ([]functional.Collector, map[string]*group, error) {
	collectors := make([]functional.Collector, len(reqs))
	groups := map[string]*group{}
	for i := range reqs {
		r := &reqs[i]
		t, err := cosim.Lookup(r.Test)
		if err != nil {
			return nil, nil, err
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
	return collectors, groups, nil
}

// buildCoverageModels builds each coverage model once, one at a time, before the parallel runs (regress.Regress
// prebuilds only the plain variant; without this, parallel workers would build the same coverage model side by
// side). Golden runs need no model.
func buildCoverageModels(o Options, reqs []cosim.Request) error {
	built := map[string]bool{}
	for _, r := range reqs {
		if r.Golden {
			break
		}
		t, _ := cosim.Lookup(r.Test)
		if k := t.Block + "/" + r.Config.Hash(); !built[k] {
			if _, err := cosim.BuildTop(o.Root, t.Block, r.Config, bridge.Coverage, o.Log); err != nil {
				return err
			}
			built[k] = true
		}
	}
	return nil
}

// runAll runs the requests, o.Jobs at a time, logging one line per finished run, and returns the reproduce
// lines of the runs that did not pass.
func runAll(o Options, reqs []cosim.Request) ([]string, error) {
	outs, err := regress.Regress(reqs, o.Jobs, func(done, total int, oc regress.Outcome) {
		fmt.Fprintf(o.Log, "[%d/%d] %-5s %s config=%s seed=%d %.1fs\n", done, total, oc.Verdict(),
			oc.Req.Test, oc.Req.Config.Name, oc.Req.Seed, oc.Elapsed.Seconds())
	})
	if err != nil {
		return nil, err
	}
	var failed []string
	for _, oc := range outs {
		if oc.Verdict() != regress.StatusPass {
			failed = append(failed, fmt.Sprintf("%s: %v", oc.Req.Repro(), oc.Err))
		}
	}
	return failed, nil
}

// mergeGroups merges the Verilator data of each (top, config) group, in key order, into an entry of rep, leaving
// out data files a run did not write (and a group with none); it returns the merged points of each group (for
// the design units).
func mergeGroups(o Options, groups map[string]*group, rep *Report) ([]Env, error) {
	var keys []string
	for k := range groups {
		keys = append(keys, k)
	}
	sort.Strings(keys)
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
			return nil, err
		}
		rep.Entries = append(rep.Entries, e)
		envs = append(envs, env)
	}
	return envs, nil
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
		if err := tool(o.Log, "genhtml", "--quiet", "--output-directory", dir, "--prefix", o.Root, "--title", name,
			info); err != nil {
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
