package coverage

import (
	"bytes"
	"fmt"
	"os"
	"path"
	"path/filepath"
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

// Testplan is coverage/testplan.yaml.
type Testplan struct {
	Testpoints []Testpoint `yaml:"testpoints"`
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
// group.point that is not in groups (functional.Catalog).
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
	return errs
}

// readHeadings returns the markdown headings of a file (text after the #s), or nil.
func readHeadings(file string) map[string]bool {
	b, err := os.ReadFile(file)
	if err != nil {
		return nil
	}
	h := map[string]bool{}
	for _, l := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(l, "#") {
			h[strings.TrimSpace(strings.TrimLeft(l, "#"))] = true
		}
	}
	return h
}
