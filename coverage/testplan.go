package coverage

import (
	"bytes"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/spraynic/spraynic/coverage/functional"
	"gopkg.in/yaml.v3"
)

// Testpoint is one feature of a block's specification with the tests that exercise it and the functional cover
// groups (or group.point) that measure it.
type Testpoint struct {
	// Feature says what is verified; Doc is the specification file (relative to the repository) and Section the
	// heading in it (without the leading #s).
	Feature string `yaml:"feature"`
	Doc     string `yaml:"doc"`
	Section string `yaml:"section"`
	// Tests are test names or path.Match patterns over 'spraynic tests'.
	Tests []string `yaml:"tests"`
	// Groups are functional cover group names or group.point names.
	Groups []string `yaml:"groups"`
}

// SpecDoc is a specification the plan covers: every section of it (heading of level 2 or deeper) is the section
// of a testpoint, or one of NotFeatures with the reason it describes no behaviour to verify.
type SpecDoc struct {
	Doc         string       `yaml:"doc"`
	NotFeatures []NotFeature `yaml:"not_features"`
}

// NotFeature is a section of a spec doc that is not a feature (ports list, measured figures, history).
type NotFeature struct {
	Section string `yaml:"section"`
	Reason  string `yaml:"reason"`
}

// UnreachableBin is a functional bin the plan calls unreachable at one top, with the argument: 'cov check' leaves
// it out of the bins target, and fails if it is ever hit (the argument was wrong).
type UnreachableBin struct {
	// Top is the RTL top; Bin is "group.point.bin".
	Top    string `yaml:"top"`
	Bin    string `yaml:"bin"`
	Reason string `yaml:"reason"`
}

// Testplan is coverage/testplan.yaml.
type Testplan struct {
	Testpoints  []Testpoint      `yaml:"testpoints"`
	Docs        []SpecDoc        `yaml:"docs"`
	Unreachable []UnreachableBin `yaml:"unreachable"`
}

// LoadTestplan reads a testplan; unknown fields are errors naming the file.
func LoadTestplan(file string) (Testplan, error) {
	b, err := os.ReadFile(file)
	if err != nil {
		return Testplan{}, fmt.Errorf("testplan: %w", err)
	}
	var tp Testplan
	dec := yaml.NewDecoder(bytes.NewReader(b))
	dec.KnownFields(true)
	if err := dec.Decode(&tp); err != nil {
		return Testplan{}, fmt.Errorf("testplan %s: %w", file, err)
	}
	if len(tp.Testpoints) == 0 {
		return Testplan{}, fmt.Errorf("testplan %s: field testpoints: empty", file)
	}
	return tp, nil
}

// Check returns every problem of the plan: a testpoint without a feature, doc section, test or group; a doc file
// or section that does not exist under root; a test name or pattern that matches no test of tests; a group or
// group.point that is not in groups (functional.Catalog, keyed by top); a testpoint doc that is not one of Docs;
// a section of a spec doc that is neither a testpoint's section nor a not-feature with a reason (a feature
// without a testpoint); an unreachable bin that does not exist at its top or has no reason.
func (tp Testplan) Check(root string, tests []string, groups map[string][]*functional.Group) []error {
	known := map[string]bool{}
	for _, gs := range groups {
		for _, g := range gs {
			known[g.Name] = true
			for _, p := range g.Points {
				known[g.Name+"."+p.Name] = true
			}
		}
	}
	headings := map[string]map[string]bool{}
	var errs []error
	for i, t := range tp.Testpoints {
		where := fmt.Sprintf("testpoints[%d] (%q)", i, t.Feature)
		fail := func(f string, a ...any) { errs = append(errs, fmt.Errorf("%s: %s", where, fmt.Sprintf(f, a...))) }
		if strings.TrimSpace(t.Feature) == "" {
			fail("field feature: empty")
		}
		if t.Doc == "" || t.Section == "" {
			fail("fields doc and section: both needed (doc %q, section %q)", t.Doc, t.Section)
		} else {
			if headings[t.Doc] == nil {
				headings[t.Doc] = readHeadings(filepath.Join(root, t.Doc))
			}
			if len(headings[t.Doc]) == 0 {
				fail("field doc: %s has no headings or does not exist", t.Doc)
			} else if !headings[t.Doc][t.Section] {
				fail("field section: %q is not a heading of %s", t.Section, t.Doc)
			}
		}
		if len(t.Tests) == 0 {
			fail("field tests: empty (every feature needs a test)")
		}
		for _, p := range t.Tests {
			if _, err := path.Match(p, ""); err != nil {
				fail("field tests: %q is not a valid pattern: %v", p, err)
				continue
			}
			n := 0
			for _, name := range tests {
				if ok, _ := path.Match(p, name); ok {
					n++
				}
			}
			if n == 0 {
				fail("field tests: %q matches no test of 'spraynic tests'", p)
			}
		}
		if len(t.Groups) == 0 {
			fail("field groups: empty (every feature needs a functional cover group or point)")
		}
		for _, g := range t.Groups {
			if !known[g] {
				fail("field groups: %q is no functional cover group or group.point", g)
			}
		}
	}
	errs = append(errs, tp.checkDocs(root, headings)...)
	errs = append(errs, tp.checkUnreachable(groups)...)
	return errs
}

// checkDocs checks that every section of every spec doc is a feature with a testpoint or a not-feature with its
// reason, and that every testpoint's doc is a spec doc. headings caches readHeadings per doc.
func (tp Testplan) checkDocs(root string, headings map[string]map[string]bool) []error {
	var errs []error
	if len(tp.Docs) == 0 {
		return []error{fmt.Errorf("field docs: empty (list the spec docs whose every section the plan covers)")}
	}
	tested := map[string]map[string]bool{}
	for _, t := range tp.Testpoints {
		if tested[t.Doc] == nil {
			tested[t.Doc] = map[string]bool{}
		}
		tested[t.Doc][t.Section] = true
	}
	listed := map[string]bool{}
	for i, d := range tp.Docs {
		where := fmt.Sprintf("docs[%d] (%s)", i, d.Doc)
		listed[d.Doc] = true
		secs := readSections(filepath.Join(root, d.Doc))
		if len(secs) == 0 {
			errs = append(errs,
				fmt.Errorf("%s: field doc: no sections (## headings) or the file does not exist", where))
			continue
		}
		skip := map[string]bool{}
		for j, n := range d.NotFeatures {
			w := fmt.Sprintf("%s.not_features[%d] (%q)", where, j, n.Section)
			switch {
			case strings.TrimSpace(n.Reason) == "":
				errs = append(errs, fmt.Errorf("%s: field reason: empty (say why the section is no feature)", w))
			case !secs[n.Section]:
				errs = append(errs, fmt.Errorf("%s: field section: not a section of %s", w, d.Doc))
			case tested[d.Doc][n.Section]:
				errs = append(errs,
					fmt.Errorf("%s: the section has a testpoint, so it is a feature: remove it here", w))
			}
			skip[n.Section] = true
		}
		var missing []string
		for s := range secs {
			if !skip[s] && !tested[d.Doc][s] {
				missing = append(missing, s)
			}
		}
		sort.Strings(missing)
		for _, s := range missing {
			errs = append(errs, fmt.Errorf("%s: section %q has no testpoint (a feature without tests) and is not "+
				"listed in not_features", where, s))
		}
	}
	var docs []string
	for d := range tested {
		if !listed[d] {
			docs = append(docs, d)
		}
	}
	sort.Strings(docs)
	for _, d := range docs {
		errs = append(errs,
			fmt.Errorf("field docs: %s has testpoints but is not listed (its other sections would go unchecked)", d))
	}
	return errs
}

// checkUnreachable checks that every unreachable bin names an existing top, group, point and bin, and its reason.
func (tp Testplan) checkUnreachable(groups map[string][]*functional.Group) []error {
	var errs []error
	for i, u := range tp.Unreachable {
		where := fmt.Sprintf("unreachable[%d] (%s %s)", i, u.Top, u.Bin)
		if strings.TrimSpace(u.Reason) == "" {
			errs = append(errs, fmt.Errorf("%s: field reason: empty (the argument why no stimulus can hit it)", where))
		}
		gs, ok := groups[u.Top]
		if !ok {
			errs = append(errs, fmt.Errorf("%s: field top: %q has no cover groups", where, u.Top))
			continue
		}
		parts := strings.SplitN(u.Bin, ".", 3)
		found := false
		if len(parts) == 3 {
			for _, g := range gs {
				if p := g.Find(parts[1]); g.Name == parts[0] && p != nil && p.Has(parts[2]) {
					found = true
				}
			}
		}
		if !found {
			errs = append(errs, fmt.Errorf("%s: field bin: no bin group.point.bin %q at top %s", where, u.Bin, u.Top))
		}
	}
	return errs
}

// readHeadings returns the markdown headings of a file (text after the #s), or nil.
func readHeadings(file string) map[string]bool { return headingsFrom(file, 1) }

// readSections returns the headings of level 2 and deeper (the sections; level 1 is the title), or nil.
func readSections(file string) map[string]bool { return headingsFrom(file, 2) }

func headingsFrom(file string, minLevel int) map[string]bool {
	b, err := os.ReadFile(file)
	if err != nil {
		return nil
	}
	h := map[string]bool{}
	inCode := false
	for _, l := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(l, "```") {
			inCode = !inCode
		}
		if inCode || !strings.HasPrefix(l, "#") {
			continue
		}
		text := strings.TrimLeft(l, "#")
		if len(l)-len(text) >= minLevel {
			h[strings.TrimSpace(text)] = true
		}
	}
	return h
}
