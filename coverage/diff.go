package coverage

import (
	"fmt"
	"io"
	"sort"

	"github.com/spraynic/spraynic/coverage/functional"
)

// DefaultTolerance is the allowed drop of line or toggle coverage, in percentage points.
const DefaultTolerance = 0.5

// Change is the comparison of one (top, config) between a base and a new report.
type Change struct {
	// Top and Config identify it (Top is the RTL file of a design unit, Unit set); Missing is set when the new
	// report lacks it, Added when the base lacks it.
	Top, Config    string
	Unit           bool
	Missing, Added bool
	// LineDelta and ToggleDelta are new minus base, in percentage points.
	LineDelta, ToggleDelta float64
	// Base and New are the two entries (zero when absent).
	Base, New Entry
	// NewHoles are lines uncovered in the new report but not in the base, per file; Closed the reverse.
	NewHoles, Closed map[string][]int
	// Fail says this change breaks the tolerance; Why says how.
	Fail bool
	Why  []string
}

// Diff compares new against base, the (top, config) entries and then the design units: an entry or unit of base
// missing from new, or a line or toggle drop of more than tol percentage points, fails. A base without units
// (written before they existed) compares the entries only.
func Diff(base, cur Report, tol float64) []Change {
	idx := func(r Report) map[string]Entry {
		m := map[string]Entry{}
		for _, e := range r.Entries {
			m[e.Top+"/"+e.Config] = e
		}
		return m
	}
	out := diffEntries(idx(base), idx(cur), tol, false)
	uidx := func(r Report) map[string]Entry {
		m := map[string]Entry{}
		for _, u := range r.Units {
			m[u.File+"/"+u.Config] = Entry{Top: u.File, Config: u.Config, Line: u.Line, Toggle: u.Toggle,
				Files: []FileCov{{File: u.File, Line: u.Line, Toggle: u.Toggle, Holes: u.Holes}}}
		}
		return m
	}
	if len(base.Units) > 0 {
		out = append(out, diffEntries(uidx(base), uidx(cur), tol, true)...)
	}
	return out
}

// diffEntries compares two indexes of entries (units: design units as entries named by their file).
func diffEntries(b, n map[string]Entry, tol float64, units bool) []Change {
	var keys []string
	for k := range b {
		keys = append(keys, k)
	}
	for k := range n {
		if _, ok := b[k]; !ok {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	var out []Change
	for _, k := range keys {
		be, inBase := b[k]
		ne, inNew := n[k]
		c := Change{Base: be, New: ne, Top: be.Top, Config: be.Config, Unit: units}
		switch {
		case !inNew:
			c.Missing = true
			c.Fail = true
			c.Why = append(c.Why, "missing from the new report")
		case !inBase:
			c.Top = ne.Top
			c.Config = ne.Config
			c.Added = true
		default:
			c.LineDelta = round2(ne.Line.Pct - be.Line.Pct)
			c.ToggleDelta = round2(ne.Toggle.Pct - be.Toggle.Pct)
			if -c.LineDelta > tol {
				c.Fail = true
				c.Why = append(c.Why,
					fmt.Sprintf("line coverage dropped %.2f points (tolerance %.2f)", -c.LineDelta, tol))
			}
			if -c.ToggleDelta > tol {
				c.Fail = true
				c.Why = append(c.Why,
					fmt.Sprintf("toggle coverage dropped %.2f points (tolerance %.2f)", -c.ToggleDelta, tol))
			}
			c.NewHoles = holeDiff(be, ne)
			c.Closed = holeDiff(ne, be)
		}
		out = append(out, c)
	}
	return out
}

func round2(x float64) float64 {
	if x < 0 {
		return -float64(int(-x*100+0.5)) / 100
	}
	return float64(int(x*100+0.5)) / 100
}

// holeDiff lists the holes of b that a does not have, per file.
func holeDiff(a, b Entry) map[string][]int {
	had := map[string]map[int]bool{}
	for _, f := range a.Files {
		had[f.File] = map[int]bool{}
		for _, l := range f.Holes {
			had[f.File][l] = true
		}
	}
	out := map[string][]int{}
	for _, f := range b.Files {
		for _, l := range f.Holes {
			if !had[f.File][l] {
				out[f.File] = append(out[f.File], l)
			}
		}
	}
	return out
}

// Failed reports whether any change fails.
func Failed(cs []Change) bool {
	for _, c := range cs {
		if c.Fail {
			return true
		}
	}
	return false
}

// PrintDiff writes one block per (top, config): the deltas, new and closed holes, and the verdict.
func PrintDiff(w io.Writer, cs []Change) {
	for _, c := range cs {
		verdict := "ok"
		if c.Fail {
			verdict = "FAIL"
		}
		if c.Unit {
			verdict += " unit"
		}
		switch {
		case c.Missing:
			fmt.Fprintf(w, "%-4s %s/%s: in the base (line %.2f%%, toggle %.2f%%) but missing from the new report\n",
				verdict, c.Top, c.Config, c.Base.Line.Pct, c.Base.Toggle.Pct)
			continue
		case c.Added:
			fmt.Fprintf(w, "%-4s %s/%s: new (line %.2f%%, toggle %.2f%%), not in the base\n",
				verdict, c.Top, c.Config, c.New.Line.Pct, c.New.Toggle.Pct)
			continue
		}
		fmt.Fprintf(w, "%-4s %s/%s: line %.2f%% -> %.2f%% (%+.2f), toggle %.2f%% -> %.2f%% (%+.2f)\n",
			verdict, c.Top, c.Config,
			c.Base.Line.Pct, c.New.Line.Pct, c.LineDelta, c.Base.Toggle.Pct, c.New.Toggle.Pct, c.ToggleDelta)
		for _, why := range c.Why {
			fmt.Fprintf(w, "     %s\n", why)
		}
		printHoles(w, "newly uncovered", c.NewHoles)
		printHoles(w, "newly covered", c.Closed)
	}
}

func printHoles(w io.Writer, what string, m map[string][]int) {
	var files []string
	for f := range m {
		files = append(files, f)
	}
	sort.Strings(files)
	for _, f := range files {
		fmt.Fprintf(w, "     %s %s: lines %s\n", what, f, holeList(m[f], 20))
	}
}

// Comparable checks that two reports can be compared: same schema version and same suite. The error names both
// files and the field.
func Comparable(baseFile string, base Report, curFile string, cur Report) error {
	if base.Suite != cur.Suite {
		return fmt.Errorf("field suite: %s has %q, %s has %q (compare reports of the same suite)",
			baseFile, base.Suite, curFile, cur.Suite)
	}
	return nil
}

// DiffFunctional compares the functional cover groups of two reports (functional.Diff): a bin hit in base,
// reachable and not hit in cur is lost and fails; a group missing from cur fails; a group (or a whole report's
// functional part) missing from base is new, not a loss.
func DiffFunctional(base, cur Report) []functional.GroupDiff {
	return functional.Diff(base.Functional, cur.Functional)
}

// FunctionalFailed reports whether any group of the comparison fails.
func FunctionalFailed(ds []functional.GroupDiff) bool {
	for _, d := range ds {
		if d.Fail() {
			return true
		}
	}
	return false
}

// PrintFunctionalDiff writes one line per group (bins hit/reachable before and after), then its lost, gained and
// dropped bins.
func PrintFunctionalDiff(w io.Writer, ds []functional.GroupDiff) {
	if len(ds) == 0 {
		return
	}
	fmt.Fprintf(w, "functional coverage:\n")
	for _, d := range ds {
		verdict := "ok"
		if d.Fail() {
			verdict = "FAIL"
		}
		name := d.Top + "/" + d.Config + " " + d.Group
		switch {
		case d.New:
			fmt.Fprintf(w, "%-4s %s: new (%d/%d bins), not in the base\n", verdict, name, d.NewHit, d.NewReach)
			continue
		case d.Missing:
			fmt.Fprintf(w, "%-4s %s: in the base (%d/%d bins) but missing from the new report\n",
				verdict, name, d.BaseHit, d.BaseReach)
			continue
		}
		fmt.Fprintf(w, "%-4s %s: bins %d/%d -> %d/%d, %d lost, %d gained\n",
			verdict, name, d.BaseHit, d.BaseReach, d.NewHit, d.NewReach, len(d.Lost), len(d.Gained))
		for _, l := range []struct {
			what string
			bs   []functional.BinChange
		}{
			{what: "lost", bs: d.Lost},
			{what: "gained", bs: d.Gained},
			{what: "no longer reachable or defined (not a failure)", bs: d.Dropped},
		} {
			if len(l.bs) == 0 {
				continue
			}
			var s []string
			for _, b := range l.bs {
				s = append(s, b.Point+"."+b.Bin)
			}
			fmt.Fprintf(w, "     %s: %s\n", l.what, strList(s, 30))
		}
	}
}
