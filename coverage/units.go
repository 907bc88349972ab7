package coverage

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// Unit is the coverage of one RTL file (a design unit) under one configuration, merged over every environment
// (top) whose model elaborates it: rtl/path_sel.v is measured by the path_sel block runs and by the nic_transport
// runs, on the same RTL with the same parameters, so a point hit in either is hit in the design. This is the
// figure the line and toggle targets are about (docs/coverage.md "Design units"); the per-top entries stay as the
// view of each environment.
type Unit struct {
	// File is the RTL file (relative to the repository); Config the configuration.
	File   string `json:"file"`
	Config string `json:"config"`
	// Tops are the environments whose data it merges, sorted.
	Tops []string `json:"tops"`
	// Line, Toggle, ToggleNet, ToggleExcluded, Holes and ToggleHoles mean what they mean in Entry.
	Line           Count         `json:"line"`
	Toggle         Count         `json:"toggle"`
	ToggleNet      Count         `json:"toggle_net"`
	ToggleExcluded int           `json:"toggle_excluded"`
	Holes          []int         `json:"holes"`
	ToggleHoles    []SignalHoles `json:"toggle_holes,omitempty"`
}

// Env is the merged coverage data of one environment: a top under a configuration.
type Env struct {
	Top, Config string
	Points      []Point
}

// Units merges the environments into design units, per configuration and RTL file. A point's instance is named
// relative to the instance of the nearest enclosing module that is itself a top (the file rtl/<top>.v of one of
// the environments): path_sel's points are "path_sel" + the path below it whether the model is path_sel's or
// nic_transport's. The instances of one such root module must elaborate the same points in every environment
// (same RTL, same parameters); if they do not, or a model holds two instances of a root module, the merge would
// be wrong and Units returns an error naming the environments. Exclusions apply as in Summarize.
func Units(envs []Env, root string, ex []Exclusion) ([]Unit, error) {
	byConfig := map[string][]Env{}
	var configs []string
	for _, e := range envs {
		if _, ok := byConfig[e.Config]; !ok {
			configs = append(configs, e.Config)
		}
		byConfig[e.Config] = append(byConfig[e.Config], e)
	}
	sort.Strings(configs)
	var out []Unit
	for _, cfg := range configs {
		us, err := configUnits(byConfig[cfg], cfg, root, ex)
		if err != nil {
			return nil, err
		}
		out = append(out, us...)
	}
	return out, nil
}

// rootFile is the RTL file of a top's module, by the project's one-module-per-file rule.
func rootFile(top string) string { return "rtl/" + top + ".v" }

// configUnits merges the environments of one configuration into its design units, sorted by file.
func configUnits(envs []Env, cfg, root string, ex []Exclusion) ([]Unit, error) {
	m := unitMerge{cfg: cfg, root: root, roots: map[string]string{}, files: map[string]*unitAcc{},
		sig: map[string]map[string][]string{}}
	for _, e := range envs {
		m.roots[rootFile(e.Top)] = e.Top
	}
	for _, e := range envs {
		if err := m.addEnv(e); err != nil {
			return nil, err
		}
	}
	if err := sameElaboration(m.sig, cfg); err != nil {
		return nil, err
	}
	return m.units(ex)
}

// unitAcc is the merged points of one design unit.
type unitAcc struct {
	// pts are the unit's points with their hits summed; idx maps a point's key to its index in pts.
	pts []Point
	idx map[string]int
	// tops are the environments that elaborate the unit.
	tops map[string]bool
}

// unitMerge merges the environments of one configuration into design units.
type unitMerge struct {
	// cfg is the configuration, root the repository.
	cfg, root string
	// roots maps the RTL file of each environment's top module to that top.
	roots map[string]string
	// files are the units by RTL file.
	files map[string]*unitAcc
	// sig[root top][env top] is the list of normalized keys of the points under that root, for the
	// same-elaboration check.
	sig map[string]map[string][]string
}

// addEnv adds the points of environment e, each renamed below the nearest enclosing root module, to the unit of
// its file. An environment with two instances of a root module, or a point outside every root module, is an
// error.
func (m *unitMerge) addEnv(e Env) error {
	hierFile := map[string]string{}
	for _, p := range e.Points {
		hierFile[p.Hier] = relFile(p.File, m.root)
	}
	if err := m.checkRootInstances(e, hierFile); err != nil {
		return err
	}
	for _, p := range e.Points {
		rt, rel, ok := unitRoot(p.Hier, hierFile, m.roots)
		if !ok {
			return fmt.Errorf("design units (config %s): point %s:%d (%s) of environment %s lies outside "+
				"every top's module", m.cfg, p.File, p.Line, p.Hier, e.Top)
		}
		f := relFile(p.File, m.root)
		np := unitPoint(p, f, rt+rel)
		if m.sig[rt] == nil {
			m.sig[rt] = map[string][]string{}
		}
		m.sig[rt][e.Top] = append(m.sig[rt][e.Top], np.Key)
		a := m.files[f]
		if a == nil {
			a = &unitAcc{idx: map[string]int{}, tops: map[string]bool{}}
			m.files[f] = a
		}
		a.tops[e.Top] = true
		if i, seen := a.idx[np.Key]; seen {
			a.pts[i].Count += np.Count
			continue
		}
		a.idx[np.Key] = len(a.pts)
		a.pts = append(a.pts, np)
	}
	return nil
}

// checkRootInstances checks that environment e, whose instances lie in the files hierFile names, has at most
// one instance of each root module.
func (m *unitMerge) checkRootInstances(e Env, hierFile map[string]string) error {
	rootInst := map[string]string{} // root top -> its instance in this environment
	for h, f := range hierFile {
		top, ok := m.roots[f]
		if !ok {
			continue
		}
		if prev, dup := rootInst[top]; dup && prev != h {
			return fmt.Errorf("design units (config %s): environment %s has two instances of %s (%s, %s); "+
				"merging by instance needs one", m.cfg, e.Top, top, prev, h)
		}
		rootInst[top] = h
	}
	return nil
}

// unitPoint is point p of file f renamed to the instance hier (below its root module), without its module, and
// keyed by everything that identifies it in the unit.
func unitPoint(p Point, f, hier string) Point {
	np := p
	np.Hier = hier
	np.Module = ""
	np.Key = strings.Join([]string{f, string(p.Kind), strconv.Itoa(p.Line), strconv.Itoa(p.Column), p.Comment,
		fmt.Sprint(p.Lines), np.Hier}, "\x00")
	return np
}

// units summarizes each unit, sorted by file.
func (m *unitMerge) units(ex []Exclusion) ([]Unit, error) {
	var names []string
	for f := range m.files {
		names = append(names, f)
	}
	sort.Strings(names)
	var out []Unit
	for _, f := range names {
		a := m.files[f]
		e, err := Summarize(f, m.cfg, 0, a.pts, m.root, ex)
		if err != nil {
			return nil, err
		}
		u := Unit{File: f, Config: m.cfg, Line: e.Line, Toggle: e.Toggle, ToggleNet: e.ToggleNet,
			ToggleExcluded: e.ToggleExcluded, Holes: []int{}, ToggleHoles: e.ToggleHoles}
		for _, fc := range e.Files {
			u.Holes = append(u.Holes, fc.Holes...)
		}
		for t := range a.tops {
			u.Tops = append(u.Tops, t)
		}
		sort.Strings(u.Tops)
		out = append(out, u)
	}
	return out, nil
}

// unitRoot finds the nearest enclosing instance (h itself or a prefix at a '.') whose file is a root's and
// returns that root's top and the rest of h below it.
func unitRoot(h string, hierFile map[string]string, roots map[string]string) (string, string, bool) {
	for cut := len(h); cut > 0; {
		if top, ok := roots[hierFile[h[:cut]]]; ok {
			return top, h[cut:], true
		}
		cut = strings.LastIndex(h[:cut], ".")
	}
	return "", "", false
}

// sameElaboration checks that each root module has the same points in every environment that contains it.
func sameElaboration(sig map[string]map[string][]string, cfg string) error {
	var rts []string
	for rt := range sig {
		rts = append(rts, rt)
	}
	sort.Strings(rts)
	for _, rt := range rts {
		var tops []string
		for t := range sig[rt] {
			tops = append(tops, t)
		}
		sort.Strings(tops)
		ref := sig[rt][tops[0]]
		sort.Strings(ref)
		for _, t := range tops[1:] {
			ks := sig[rt][t]
			sort.Strings(ks)
			if d := firstDifference(ref, ks); d != "" {
				return fmt.Errorf("design units (config %s): %s is elaborated differently in environments "+
					"%s (%d points) and %s (%d points), e.g. %s; a design unit can only merge the same RTL with "+
					"the same parameters", cfg, rt, tops[0], len(ref), t, len(ks), d)
			}
		}
	}
	return nil
}

// firstDifference describes the first key in one sorted list and not the other ("" when equal).
func firstDifference(a, b []string) string {
	show := func(k string) string { return strings.ReplaceAll(k, "\x00", " ") }
	for i := 0; i < len(a) || i < len(b); i++ {
		switch {
		case i >= len(a):
			return "only in the second: " + show(b[i])
		case i >= len(b):
			return "only in the first: " + show(a[i])
		case a[i] < b[i]:
			return "only in the first: " + show(a[i])
		case a[i] > b[i]:
			return "only in the second: " + show(b[i])
		}
	}
	return ""
}
