package coverage

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/spraynic/spraynic/coverage/functional"
)

// Version is the schema version of coverage.json.
const Version = 1

// Count is a hit/total pair with its percentage.
type Count struct {
	// Hit points (or lines) out of Total; Pct is Percent(Hit, Total).
	Hit   int     `json:"hit"`
	Total int     `json:"total"`
	Pct   float64 `json:"pct"`
}

func newCount(hit, total int) Count {
	return Count{Hit: hit, Total: total, Pct: Percent(hit, total)}
}

// Percent is hit out of total in percent, truncated to two decimals (100 when total is 0): the one rounding of
// every coverage figure, reported (cov run) and checked (cov check). Truncated, a figure never shows a target
// met that is not: 32 of 44 is 72.72, 19,999 of 20,000 is 99.99.
func Percent(hit, total int) float64 {
	if total <= 0 {
		return 100
	}
	return float64(10000*int64(hit)/int64(total)) / 100
}

// FileCov is the coverage of one RTL source file within one (top, config).
type FileCov struct {
	// File is relative to the repository when it lies inside it.
	File string `json:"file"`
	// Line counts source lines, Toggle counts signal bits of all instances.
	Line   Count `json:"line"`
	Toggle Count `json:"toggle"`
	// Holes are the lines with at least one line or branch point never hit, ascending.
	Holes []int `json:"holes"`
}

// Entry is the coverage of one RTL top under one configuration, merged over all its runs.
type Entry struct {
	// Top and Config identify the entry; Runs is how many runs were merged.
	Top    string `json:"top"`
	Config string `json:"config"`
	Runs   int    `json:"runs"`
	// Line and Toggle are the totals over Files.
	Line   Count     `json:"line"`
	Toggle Count     `json:"toggle"`
	Files  []FileCov `json:"files"`
	// ToggleNet is Toggle without the points coverage/exclusions.yaml excludes (ToggleExcluded of them): the
	// figure the toggle target is about.
	ToggleNet      Count `json:"toggle_net"`
	ToggleExcluded int   `json:"toggle_excluded"`
	// ToggleHoles are the signals with toggle points counted in ToggleNet and never toggled, most holes first:
	// where the toggle target is lost.
	ToggleHoles []SignalHoles `json:"toggle_holes,omitempty"`
}

// SignalHoles is the toggle coverage of one signal (all instances of its module), net of the exclusions.
type SignalHoles struct {
	// File is the RTL file, Signal the signal name without the bit index.
	File   string `json:"file"`
	Signal string `json:"signal"`
	// Toggle counts the signal's points in ToggleNet; Bits are the positions never toggled, as ranges ("4-15,20").
	Toggle Count  `json:"toggle"`
	Bits   string `json:"bits"`
}

// Report is the content of coverage.json.
type Report struct {
	// Version is the schema version; Suite the suite that produced the data.
	Version int    `json:"version"`
	Suite   string `json:"suite"`
	// Shard is "i/n" for the report of one shard ('cov run --shard'), "" for a whole suite or a complete merge.
	Shard   string  `json:"shard,omitempty"`
	Entries []Entry `json:"entries"`
	// Units are the design units: per (RTL file, config) the coverage merged over every top that elaborates the
	// file (absent in older reports). The line and toggle targets apply to them.
	Units []Unit `json:"units,omitempty"`
	// Functional is the functional coverage per (top, config), when collected (absent in older reports).
	Functional []functional.Entry `json:"functional,omitempty"`
}

// Summarize computes an entry from the points of one (top, config). A source line counts as covered when every
// line or branch point on it (summed over instances) was hit at least once; toggle coverage counts every signal
// bit of every instance. Files inside root are named relative to it. Toggle points an exclusion covers are left
// out of ToggleNet; a hit on a point an exclusion calls unreachable is an error.
func Summarize(top, config string, runs int, pts []Point, root string, ex []Exclusion) (Entry, error) {
	t := newTally(len(ex))
	for _, p := range pts {
		f := relFile(p.File, root)
		switch {
		case p.IsLine():
			t.addLine(f, p)
		case p.Kind == KindToggle:
			if err := t.addToggle(f, config, p, ex); err != nil {
				return Entry{}, err
			}
		}
	}
	if err := checkStale(config, ex, t.names, t.used); err != nil {
		return Entry{}, err
	}
	e := Entry{Top: top, Config: config, Runs: runs, Files: t.fileCovs()}
	var lineHit, lineTotal, toggleHit, toggleTotal int
	for _, fc := range e.Files {
		lineHit += fc.Line.Hit
		lineTotal += fc.Line.Total
		toggleHit += fc.Toggle.Hit
		toggleTotal += fc.Toggle.Total
	}
	e.Line = newCount(lineHit, lineTotal)
	e.Toggle = newCount(toggleHit, toggleTotal)
	e.ToggleNet = newCount(t.netHit, t.netTotal)
	e.ToggleExcluded = t.excluded
	e.ToggleHoles = t.toggleHoles()
	return e, nil
}

// lineKey is one source line of a file.
type lineKey struct {
	// file and line name it.
	file string
	line int
}

// pointGroup identifies the line or branch point that every instance of a module has at one place; its hits are
// summed over the instances.
type pointGroup struct {
	// file, kind, line and col say where the point is; comment and lines are its description and the source
	// lines it covers (fmt.Sprint of Point.Lines).
	file           string
	kind           Kind
	line, col      int
	comment, lines string
}

// sigKey is one signal of a file.
type sigKey struct {
	// file and name name it.
	file, name string
}

// sigCount is the net toggle coverage of one signal.
type sigCount struct {
	// hit of total bit points toggled; miss holds the bit positions never toggled.
	hit, total int
	miss       map[int]bool
}

// tally accumulates the points of one (top, config) for Summarize.
type tally struct {
	// groups sums the hits of each line or branch point group; groupLines are the source lines it covers.
	groups     map[pointGroup]uint64
	groupLines map[pointGroup][]int
	// toggle is per file the toggled and total toggle points: [hit, total].
	toggle map[string][2]int
	// sigs is the net toggle coverage per signal.
	sigs map[sigKey]*sigCount
	// names are the signal names per file (for the stale-exclusion check); used[i] is set once exclusion i
	// excluded a point.
	names map[string]map[string]bool
	used  []bool
	// netHit and netTotal count the toggle points not excluded; excluded counts the others.
	netHit, netTotal, excluded int
}

// newTally returns an empty tally for n exclusions.
func newTally(n int) *tally {
	return &tally{
		groups:     map[pointGroup]uint64{},
		groupLines: map[pointGroup][]int{},
		toggle:     map[string][2]int{},
		sigs:       map[sigKey]*sigCount{},
		names:      map[string]map[string]bool{},
		used:       make([]bool, n),
	}
}

// addLine counts a line or branch point p of file f.
func (t *tally) addLine(f string, p Point) {
	g := pointGroup{file: f, kind: p.Kind, line: p.Line, col: p.Column, comment: p.Comment, lines: fmt.Sprint(p.Lines)}
	t.groups[g] += p.Count
	t.groupLines[g] = p.Lines
}

// addToggle counts a toggle point p of file f: in the file's toggle figure, and, unless an exclusion for config
// covers it, in the net figure and its signal's holes. A hit on a point an exclusion calls unreachable is an
// error.
func (t *tally) addToggle(f, config string, p Point, ex []Exclusion) error {
	tg := t.toggle[f]
	tg[1]++
	if p.Count > 0 {
		tg[0]++
	}
	t.toggle[f] = tg
	name, bit := signalBit(p.Comment)
	if t.names[f] == nil {
		t.names[f] = map[string]bool{}
	}
	t.names[f][name] = true
	out := false
	for i := range ex {
		if ex[i].matches(f, config, p) {
			if ex[i].Unreachable && p.Count > 0 {
				return fmt.Errorf("coverage exclusion for %s %v (%q) calls %s of %s unreachable, "+
					"but it toggled %d times", ex[i].File, ex[i].Signals, ex[i].Reason, p.Comment, p.Hier, p.Count)
			}
			out = true
			t.used[i] = true
		}
	}
	if out {
		t.excluded++
		return nil
	}
	t.netTotal++
	sk := sigKey{file: f, name: name}
	sg := t.sigs[sk]
	if sg == nil {
		sg = &sigCount{miss: map[int]bool{}}
		t.sigs[sk] = sg
	}
	sg.total++
	if p.Count > 0 {
		t.netHit++
		sg.hit++
	} else {
		sg.miss[bit] = true
	}
	return nil
}

// coveredLines says for each source line whether it is covered: every point group on it was hit.
func (t *tally) coveredLines() map[lineKey]bool {
	lines := map[lineKey]bool{}
	for g, cnt := range t.groups {
		for _, l := range t.groupLines[g] {
			k := lineKey{file: g.file, line: l}
			cov, seen := lines[k]
			lines[k] = (cov || !seen) && cnt > 0
		}
	}
	return lines
}

// fileCovs returns the line and toggle coverage of each file, sorted by file, with its holes ascending.
func (t *tally) fileCovs() []FileCov {
	files := map[string]*FileCov{}
	get := func(f string) *FileCov {
		if files[f] == nil {
			files[f] = &FileCov{File: f, Holes: []int{}}
		}
		return files[f]
	}
	for k, cov := range t.coveredLines() {
		fc := get(k.file)
		fc.Line.Total++
		if cov {
			fc.Line.Hit++
		} else {
			fc.Holes = append(fc.Holes, k.line)
		}
	}
	for f, tg := range t.toggle {
		get(f).Toggle = Count{Hit: tg[0], Total: tg[1]}
	}
	out := []FileCov{}
	for _, fc := range files {
		sort.Ints(fc.Holes)
		fc.Line = newCount(fc.Line.Hit, fc.Line.Total)
		fc.Toggle = newCount(fc.Toggle.Hit, fc.Toggle.Total)
		out = append(out, *fc)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].File < out[j].File })
	return out
}

// toggleHoles returns the signals with net toggle points never toggled, most holes first, then by file and
// signal (nil when there are none).
func (t *tally) toggleHoles() []SignalHoles {
	var hs []SignalHoles
	for k, sg := range t.sigs {
		if sg.hit < sg.total {
			hs = append(hs, SignalHoles{File: k.file, Signal: k.name,
				Toggle: newCount(sg.hit, sg.total), Bits: bitRanges(sg.miss)})
		}
	}
	sort.Slice(hs, func(i, j int) bool {
		a, b := hs[i], hs[j]
		if ma, mb := a.Toggle.Total-a.Toggle.Hit, b.Toggle.Total-b.Toggle.Hit; ma != mb {
			return ma > mb
		}
		if a.File != b.File {
			return a.File < b.File
		}
		return a.Signal < b.Signal
	})
	return hs
}

// bitRanges writes a set of bit positions as ascending ranges: "0-3,7,9-15".
func bitRanges(bits map[int]bool) string {
	var bs []int
	for b := range bits {
		bs = append(bs, b)
	}
	sort.Ints(bs)
	var parts []string
	for i := 0; i < len(bs); {
		j := i
		for j+1 < len(bs) && bs[j+1] == bs[j]+1 {
			j++
		}
		if j == i {
			parts = append(parts, strconv.Itoa(bs[i]))
		} else {
			parts = append(parts, strconv.Itoa(bs[i])+"-"+strconv.Itoa(bs[j]))
		}
		i = j + 1
	}
	return strings.Join(parts, ",")
}

func relFile(f, root string) string {
	if root == "" || !filepath.IsAbs(f) {
		return f
	}
	if r, err := filepath.Rel(root, f); err == nil && !strings.HasPrefix(r, "..") {
		return filepath.ToSlash(r)
	}
	return f
}

// Write stores the report as indented JSON.
func (r Report) Write(file string) error {
	b, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(file, append(b, '\n'), 0o644)
}

// WriteBaseline writes r as a baseline: the figures 'cov diff' compares, without the per-signal hole lists (those
// stay in the run's own report).
func (r Report) WriteBaseline(file string) error {
	r.Entries = append([]Entry(nil), r.Entries...)
	for i := range r.Entries {
		r.Entries[i].ToggleHoles = nil
	}
	r.Units = append([]Unit(nil), r.Units...)
	for i := range r.Units {
		r.Units[i].ToggleHoles = nil
	}
	return r.Write(file)
}

// PrintSummary writes a human summary: one line per (top, config), then each file with its biggest holes; then
// the functional groups with their bins hit / reachable and their holes.
func (r Report) PrintSummary(w io.Writer, maxHoles int) {
	if len(r.Entries) > 0 {
		r.printCode(w, maxHoles)
	}
	if len(r.Units) > 0 {
		r.printUnits(w, maxHoles)
	}
	if len(r.Functional) > 0 {
		PrintFunctional(w, r.Functional, max(40, maxHoles))
	}
}

// PrintFunctional writes one line per cover group (bins hit / reachable, unreachable count), then its holes.
func PrintFunctional(w io.Writer, es []functional.Entry, maxHoles int) {
	fmt.Fprintf(w, "functional coverage (bins hit / reachable bins)\n")
	fmt.Fprintf(w, "%-14s %-8s %5s %-16s %20s %11s\n", "top", "config", "runs", "group", "bins", "unreachable")
	for _, e := range es {
		for _, g := range e.Groups {
			hit, reach := g.Count()
			all := 0
			for _, p := range g.Points {
				all += len(p.Bins)
			}
			fmt.Fprintf(w, "%-14s %-8s %5d %-16s %6.2f%% (%4d/%4d) %11d\n",
				e.Top, e.Config, e.Runs, g.Name, Percent(hit, reach), hit, reach, all-reach)
			if h := g.Holes(); len(h) > 0 {
				fmt.Fprintf(w, "  holes: %s\n", strList(h, maxHoles))
			}
		}
	}
}

func strList(s []string, n int) string {
	if n > 0 && len(s) > n {
		return strings.Join(s[:n], " ") + fmt.Sprintf(" ... (%d more)", len(s)-n)
	}
	return strings.Join(s, " ")
}

func (r Report) printCode(w io.Writer, maxHoles int) {
	fmt.Fprintf(w, "%-12s %-8s %5s %21s %23s %31s\n",
		"top", "config", "runs", "line", "toggle", "toggle net (excluded)")
	for _, e := range r.Entries {
		fmt.Fprintf(w, "%-12s %-8s %5d %6.2f%% (%5d/%5d) %6.2f%% (%6d/%6d) %6.2f%% (%6d/%6d) (%5d)\n",
			e.Top, e.Config, e.Runs, e.Line.Pct, e.Line.Hit, e.Line.Total, e.Toggle.Pct, e.Toggle.Hit, e.Toggle.Total,
			e.ToggleNet.Pct, e.ToggleNet.Hit, e.ToggleNet.Total, e.ToggleExcluded)
		for _, f := range e.Files {
			fmt.Fprintf(w, "  %-24s line %6.2f%% toggle %6.2f%%  uncovered lines: %s\n",
				f.File, f.Line.Pct, f.Toggle.Pct, holeList(f.Holes, maxHoles))
		}
		for i, h := range e.ToggleHoles {
			if maxHoles > 0 && i == maxHoles {
				fmt.Fprintf(w, "  ... %d more signals with toggle holes (coverage.json toggle_holes)\n",
					len(e.ToggleHoles)-maxHoles)
				break
			}
			fmt.Fprintf(w, "  toggle hole %-18s %-20s %6d/%6d bits never toggled: %s\n", h.File, h.Signal,
				h.Toggle.Total-h.Toggle.Hit, h.Toggle.Total, clip(h.Bits, 60))
		}
	}
}

func (r Report) printUnits(w io.Writer, maxHoles int) {
	fmt.Fprintf(w, "design units (each RTL file merged over the tops that elaborate it; the targets apply here)\n")
	fmt.Fprintf(w, "%-22s %-8s %21s %23s %31s  %s\n",
		"file", "config", "line", "toggle", "toggle net (excluded)", "tops")
	for _, u := range r.Units {
		fmt.Fprintf(w, "%-22s %-8s %6.2f%% (%5d/%5d) %6.2f%% (%6d/%6d) %6.2f%% (%6d/%6d) (%5d)  %s\n", u.File, u.Config,
			u.Line.Pct, u.Line.Hit, u.Line.Total, u.Toggle.Pct, u.Toggle.Hit, u.Toggle.Total,
			u.ToggleNet.Pct, u.ToggleNet.Hit, u.ToggleNet.Total, u.ToggleExcluded, strings.Join(u.Tops, ","))
		if len(u.Holes) > 0 {
			fmt.Fprintf(w, "  uncovered lines: %s\n", holeList(u.Holes, maxHoles))
		}
		for i, h := range u.ToggleHoles {
			if maxHoles > 0 && i == maxHoles {
				fmt.Fprintf(w, "  ... %d more signals with toggle holes (coverage.json units[].toggle_holes)\n",
					len(u.ToggleHoles)-maxHoles)
				break
			}
			fmt.Fprintf(w, "  toggle hole %-20s %6d/%6d bits never toggled: %s\n", h.Signal,
				h.Toggle.Total-h.Toggle.Hit, h.Toggle.Total, clip(h.Bits, 60))
		}
	}
}

// clip shortens s to n characters with a trailing "...".
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "..."
}

func holeList(h []int, n int) string {
	if len(h) == 0 {
		return "none"
	}
	var s []string
	for i, l := range h {
		if n > 0 && i == n {
			s = append(s, fmt.Sprintf("... (%d more)", len(h)-n))
			break
		}
		s = append(s, fmt.Sprint(l))
	}
	return strings.Join(s, " ")
}

// LoadReport reads and validates a coverage.json; every error names the file and the field.
func LoadReport(file string) (Report, error) {
	b, err := os.ReadFile(file)
	if err != nil {
		return Report{}, fmt.Errorf("coverage report: %w", err)
	}
	var r Report
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&r); err != nil {
		return Report{}, fmt.Errorf("coverage report %s: not a coverage.json: %w", file, err)
	}
	if err := r.Validate(); err != nil {
		return Report{}, fmt.Errorf("coverage report %s: %w", file, err)
	}
	return r, nil
}

// Validate checks the schema: version, non-empty unique (top, config) entries, consistent counts.
func (r Report) Validate() error {
	if r.Version != Version {
		return fmt.Errorf("field version: value %d (allowed: %d)", r.Version, Version)
	}
	if len(r.Entries) == 0 && len(r.Functional) == 0 {
		return fmt.Errorf("field entries: empty (allowed: one or more (top, config) entries, or functional entries)")
	}
	useen := map[string]bool{}
	for i, u := range r.Units {
		where := fmt.Sprintf("units[%d]", i)
		if u.File == "" || u.Config == "" {
			return fmt.Errorf("field %s: file %q, config %q (allowed: both non-empty)", where, u.File, u.Config)
		}
		if useen[u.File+"/"+u.Config] {
			return fmt.Errorf("field %s: (file %s, config %s) repeats an earlier unit", where, u.File, u.Config)
		}
		useen[u.File+"/"+u.Config] = true
		for name, c := range map[string]Count{"line": u.Line, "toggle": u.Toggle, "toggle_net": u.ToggleNet} {
			if err := c.check(); err != nil {
				return fmt.Errorf("field %s.%s: %w", where, name, err)
			}
		}
	}
	fseen := map[string]bool{}
	for i := range r.Functional {
		e := &r.Functional[i]
		where := fmt.Sprintf("functional[%d]", i)
		if err := e.Validate(where); err != nil {
			return err
		}
		if fseen[e.Top+"/"+e.Config] {
			return fmt.Errorf("field %s: (top %s, config %s) repeats an earlier entry", where, e.Top, e.Config)
		}
		fseen[e.Top+"/"+e.Config] = true
	}
	seen := map[string]bool{}
	for i, e := range r.Entries {
		where := fmt.Sprintf("entries[%d]", i)
		if e.Top == "" {
			return fmt.Errorf("field %s.top: empty", where)
		}
		if e.Config == "" {
			return fmt.Errorf("field %s.config: empty", where)
		}
		if seen[e.Top+"/"+e.Config] {
			return fmt.Errorf("field %s: (top %s, config %s) repeats an earlier entry", where, e.Top, e.Config)
		}
		seen[e.Top+"/"+e.Config] = true
		for name, c := range map[string]Count{"line": e.Line, "toggle": e.Toggle} {
			if err := c.check(); err != nil {
				return fmt.Errorf("field %s.%s: %w", where, name, err)
			}
		}
		for j, f := range e.Files {
			if f.File == "" {
				return fmt.Errorf("field %s.files[%d].file: empty", where, j)
			}
		}
	}
	return nil
}

func (c Count) check() error {
	if c.Hit < 0 || c.Total < 0 || c.Hit > c.Total {
		return fmt.Errorf("hit %d, total %d (allowed: 0 <= hit <= total)", c.Hit, c.Total)
	}
	if c.Pct < 0 || c.Pct > 100 {
		return fmt.Errorf("pct %g (allowed: 0..100)", c.Pct)
	}
	return nil
}
