package regress

import (
	"fmt"
	"strings"

	"github.com/spraynic/spraynic/config"
	"github.com/spraynic/spraynic/cosim"
)

// Selection names the runs of a regression: a built-in suite, a suite of a suite file, or the failed runs of an
// earlier results file.
type Selection struct {
	// Suite is the suite's name; SuiteGiven says the user named it (a suite file holding one suite selects that
	// one otherwise).
	Suite      string
	SuiteGiven bool
	// SuiteFile, when set, adds the suites of a JSON suite file to the built-in ones.
	SuiteFile string
	// RerunFailed, when set, is an earlier results file whose failed runs are run again (Suite is then ignored).
	RerunFailed string
	// Configs, when not empty, replaces the suite's configurations.
	Configs []string
	// FirstSeed is the suite's first seed; Root the repository.
	FirstSeed uint64
	Root      string
}

// Select resolves the selection into its suite and the suite's requests.
func Select(sel Selection) (Suite, []cosim.Request, error) {
	if sel.RerunFailed != "" {
		return rerunFailed(sel.RerunFailed, sel.Root)
	}
	suites := Suites
	names := SuiteNames()
	name := sel.Suite
	if f := sel.SuiteFile; f != "" {
		user, err := LoadSuites(f)
		if err != nil {
			return Suite{}, nil, err
		}
		suites = map[string]Suite{}
		for k, v := range Suites {
			suites[k] = v
		}
		for _, u := range user {
			suites[u.Name] = u
			names = append(names, u.Name)
		}
		if !sel.SuiteGiven && len(user) == 1 {
			name = user[0].Name
		}
	}
	s, ok := suites[name]
	if !ok {
		return Suite{}, nil, fmt.Errorf("--suite %q: unknown (suites: %s)", name, strings.Join(names, ", "))
	}
	if len(sel.Configs) > 0 {
		s.Configs = sel.Configs
	}
	reqs, err := s.Expand(sel.Root, sel.FirstSeed)
	if err != nil {
		return Suite{}, nil, err
	}
	if len(reqs) == 0 {
		return Suite{}, nil, fmt.Errorf("suite %s selects no runs", s.Name)
	}
	return s, reqs, nil
}

// rerunFailed is the selection of the runs of results file f that did not pass.
func rerunFailed(f, root string) (Suite, []cosim.Request, error) {
	prev, err := ReadResults(f)
	if err != nil {
		return Suite{}, nil, fmt.Errorf("--rerun-failed: %w", err)
	}
	var reqs []cosim.Request
	for _, r := range prev.Runs {
		if r.Status == StatusPass {
			continue
		}
		cfg, err := config.Resolve(r.Config)
		if err != nil {
			return Suite{}, nil, fmt.Errorf("--rerun-failed %s: run %s: %w", f, r.Key(), err)
		}
		if _, err := cosim.Lookup(r.Test); err != nil {
			return Suite{}, nil, fmt.Errorf("--rerun-failed %s: %w", f, err)
		}
		reqs = append(reqs, cosim.Request{Test: r.Test, Config: cfg, Seed: r.Seed, Cycles: r.RequestedCycles,
			Root: root})
	}
	if len(reqs) == 0 {
		return Suite{}, nil, fmt.Errorf("--rerun-failed %s: no failed runs to re-run (%d runs, all PASS)", f,
			len(prev.Runs))
	}
	return Suite{Name: prev.Suite + "-rerun"}, reqs, nil
}
