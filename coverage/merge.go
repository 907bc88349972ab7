package coverage

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"

	"github.com/spraynic/spraynic/coverage/functional"
	"github.com/spraynic/spraynic/regress"
)

// Merge combines the output directories of several coverage runs of one suite (typically 'cov run --shard i/n'
// for i = 1..n) into o.Out: the merged Verilator data per (top, config) (verilator_coverage over each directory's
// merged/<top>-<config>.dat), lcov, HTML when genhtml is installed, and coverage.json with the functional groups
// merged too. The inputs must be reports of the same suite and schema; shard labels must be distinct and of the
// same n. The result has no shard label when every shard 1..n (or only unlabelled runs) were merged, else it
// names the shards it has ("1,3 of 4").
func Merge(o Options, dirs []string) (Report, error) {
	parts, err := loadParts(dirs)
	if err != nil {
		return Report{}, err
	}
	shard, err := mergedShard(dirs, func(i int) string { return parts[i].rep.Shard })
	if err != nil {
		return Report{}, err
	}
	if o.Log == nil {
		o.Log = os.Stderr
	}
	for _, d := range []string{"merged", "info"} {
		if err := os.MkdirAll(filepath.Join(o.Out, d), 0o755); err != nil {
			return Report{}, err
		}
	}
	if _, err := exec.LookPath("verilator_coverage"); err != nil {
		for _, p := range parts {
			if len(p.rep.Entries) > 0 {
				return Report{}, fmt.Errorf("verilator_coverage not found (install the Debian package verilator)")
			}
		}
	}
	code, fun, err := collectParts(parts)
	if err != nil {
		return Report{}, err
	}
	rep := Report{Version: Version, Suite: parts[0].rep.Suite, Shard: shard, Entries: []Entry{}}
	envs, err := mergeCode(o, code, &rep)
	if err != nil {
		return Report{}, err
	}
	if rep.Units, err = Units(envs, o.Root, o.Exclusions); err != nil {
		return Report{}, err
	}
	if len(fun) > 0 {
		rep.Functional = sortedFunctional(fun)
	}
	if err := rep.Write(filepath.Join(o.Out, "coverage.json")); err != nil {
		return Report{}, err
	}
	return rep, nil
}

// mergePart is one input of Merge.
type mergePart struct {
	// dir is the input directory, rep its coverage.json.
	dir string
	rep Report
}

// mergeAcc is the Verilator data of one (top, config) collected from the inputs of Merge.
type mergeAcc struct {
	// top and config name it.
	top, config string
	// runs sums the inputs' run counts; dats are their merged data files.
	runs int
	dats []string
}

// loadParts reads the coverage.json of each directory; every report must be of the first one's suite.
func loadParts(dirs []string) ([]mergePart, error) {
	var parts []mergePart
	for _, d := range dirs {
		f := filepath.Join(d, "coverage.json")
		r, err := LoadReport(f)
		if err != nil {
			return nil, err
		}
		if len(parts) > 0 && r.Suite != parts[0].rep.Suite {
			return nil, fmt.Errorf("%s: field suite: %q, but %s has %q (merge reports of one suite)",
				f, r.Suite, filepath.Join(parts[0].dir, "coverage.json"), parts[0].rep.Suite)
		}
		parts = append(parts, mergePart{dir: d, rep: r})
	}
	return parts, nil
}

// collectParts gathers the inputs' merged Verilator data files per (top, config) key "<top>-<config>" (each must
// exist) and merges their functional entries per key "<top>/<config>".
func collectParts(parts []mergePart) (map[string]*mergeAcc, map[string]*functional.Entry, error) {
	code := map[string]*mergeAcc{}
	fun := map[string]*functional.Entry{}
	for _, p := range parts {
		for _, e := range p.rep.Entries {
			k := e.Top + "-" + e.Config
			dat := filepath.Join(p.dir, "merged", k+".dat")
			if _, err := os.Stat(dat); err != nil {
				return nil, nil, fmt.Errorf("%s: entry (top %s, config %s) has no merged data: %w",
					p.dir, e.Top, e.Config, err)
			}
			if code[k] == nil {
				code[k] = &mergeAcc{top: e.Top, config: e.Config}
			}
			code[k].runs += e.Runs
			code[k].dats = append(code[k].dats, dat)
		}
		for _, e := range p.rep.Functional {
			k := e.Top + "/" + e.Config
			if fun[k] == nil {
				fun[k] = &functional.Entry{Top: e.Top, Config: e.Config}
			}
			if err := fun[k].Merge(e); err != nil {
				return nil, nil, fmt.Errorf("%s: %w", p.dir, err)
			}
		}
	}
	return code, fun, nil
}

// mergeCode merges the collected Verilator data of each (top, config), in key order, into an entry of rep with
// the summed run count; it returns the merged points of each (for the design units).
func mergeCode(o Options, code map[string]*mergeAcc, rep *Report) ([]Env, error) {
	var keys []string
	for k := range code {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	_, haveGenhtml := exec.LookPath("genhtml")
	var envs []Env
	for _, k := range keys {
		a := code[k]
		e, env, err := mergeGroup(o, k, a.top, a.config, a.dats, haveGenhtml == nil)
		if err != nil {
			return nil, err
		}
		e.Runs = a.runs
		rep.Entries = append(rep.Entries, e)
		envs = append(envs, env)
	}
	return envs, nil
}

// mergedShard checks the shard labels of the inputs (label(i) of dirs[i]) and returns the label of their merge.
func mergedShard(dirs []string, label func(int) string) (string, error) {
	n := 0
	have := map[int]string{}
	for i, d := range dirs {
		l := label(i)
		if l == "" {
			continue
		}
		si, sn, err := regress.ParseShard(l)
		if err != nil {
			return "", fmt.Errorf("%s: field shard: %q: %w", filepath.Join(d, "coverage.json"), l, err)
		}
		if n != 0 && sn != n {
			return "", fmt.Errorf("%s: field shard: %q, but another input is a shard of %d",
				filepath.Join(d, "coverage.json"), l, n)
		}
		if prev, ok := have[si]; ok {
			return "", fmt.Errorf("%s: shard %s is already merged from %s", d, l, prev)
		}
		n = sn
		have[si] = d
	}
	if n == 0 || len(have) == n {
		return "", nil
	}
	var got []string
	for i := 1; i <= n; i++ {
		if have[i] != "" {
			got = append(got, fmt.Sprint(i))
		}
	}
	return fmt.Sprintf("%s of %d", strings.Join(got, ","), n), nil
}
