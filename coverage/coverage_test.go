package coverage

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestParseDatSnippet(t *testing.T) {
	pts, err := ParseDatFile(filepath.Join("testdata", "snippet.dat"))
	require.NoError(t, err)
	require.Len(t, pts, 9, "the repeated else point is summed, not listed twice")
	kinds := map[Kind]int{}
	for _, p := range pts {
		kinds[p.Kind]++
	}
	require.Equal(t, map[Kind]int{KindBranch: 2, KindToggle: 5, KindLine: 2}, kinds)
	require.Equal(t, Point{File: "/work/main/rtl/path_sel.v", Line: 518, Column: 5, Kind: KindBranch,
		Module: "path_sel", Comment: "if", Hier: "TOP.path_sel", Lines: []int{518, 519}, Count: 0, Key: pts[0].Key},
		pts[0])
	require.Equal(t, uint64(1089124+6), pts[1].Count)

	e, err := Summarize("path_sel", "default", 1, pts, "/work/main", nil)
	require.NoError(t, err)
	require.Equal(t, Count{Hit: 1, Total: 3, Pct: 33.33}, e.Line)
	require.Equal(t, Count{Hit: 2, Total: 5, Pct: 40}, e.Toggle)
	require.Equal(t, []FileCov{
		{File: "rtl/path_sel.v", Line: Count{Hit: 0, Total: 2, Pct: 0}, Toggle: Count{Hit: 2, Total: 4, Pct: 50},
			Holes: []int{518, 519}},
		{File: "rtl/ram_sdp.v", Line: Count{Hit: 1, Total: 1, Pct: 100}, Toggle: Count{Hit: 0, Total: 1, Pct: 0},
			Holes: []int{}},
	}, e.Files)
}

func TestParseDatErrors(t *testing.T) {
	for _, tc := range []struct{ name, in, err string }{
		{name: "empty", in: "", err: "empty file"},
		{name: "header", in: "hello\n", err: "not a Verilator coverage file"},
		{name: "no C", in: "# SystemC::Coverage-3\nX 'a' 1\n", err: "line 2: want C"},
		{name: "count", in: "# SystemC::Coverage-3\nC '\x01f\x02a.v\x01page\x02v_line/m' x\n",
			err: "line 2: bad count"},
		{name: "span", in: "# SystemC::Coverage-3\nC '\x01f\x02a.v\x01page\x02v_line/m\x01S\x029-3' 1\n",
			err: "field S: bad line range"},
		{name: "no file", in: "# SystemC::Coverage-3\nC '\x01page\x02v_line/m' 1\n", err: "point without file"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseDat(strings.NewReader(tc.in))
			require.ErrorContains(t, err, tc.err)
		})
	}
}

func entry(top, cfg string, line, toggle float64, holes ...int) Entry {
	return Entry{Top: top, Config: cfg, Runs: 1, Line: Count{Hit: int(line), Total: 100, Pct: line},
		Toggle: Count{Hit: int(toggle), Total: 100, Pct: toggle}, Files: []FileCov{{File: "rtl/x.v", Holes: holes}}}
}

func TestDiff(t *testing.T) {
	base := Report{Version: 1, Entries: []Entry{entry("rx", "default", 90, 80, 5, 6), entry("ps", "default", 95, 75)}}
	for _, tc := range []struct {
		name     string
		cur      []Entry
		fail     bool
		why      string
		newHoles map[string][]int
	}{
		{name: "gain", cur: []Entry{entry("rx", "default", 92, 81, 5), entry("ps", "default", 95, 75)},
			newHoles: map[string][]int{}},
		{name: "loss within tolerance",
			cur:      []Entry{entry("rx", "default", 89.6, 80, 5, 6, 7), entry("ps", "default", 95, 75)},
			newHoles: map[string][]int{"rtl/x.v": {7}}},
		{name: "line loss beyond", cur: []Entry{entry("rx", "default", 89, 80, 5, 6), entry("ps", "default", 95, 75)},
			fail: true, why: "line coverage dropped 1.00 points", newHoles: map[string][]int{}},
		{name: "toggle loss beyond", cur: []Entry{entry("rx", "default", 90, 79, 5, 6), entry("ps", "default", 95, 75)},
			fail: true, why: "toggle coverage dropped 1.00 points", newHoles: map[string][]int{}},
		{name: "missing entry", cur: []Entry{entry("rx", "default", 90, 80, 5, 6)},
			fail: true, why: "missing from the new report"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cs := Diff(base, Report{Version: 1, Entries: tc.cur}, DefaultTolerance)
			require.Equal(t, tc.fail, Failed(cs))
			var rx Change
			for _, c := range cs {
				if c.Fail {
					require.Contains(t, strings.Join(c.Why, "; "), tc.why)
				}
				if c.Top == "rx" {
					rx = c
				}
			}
			if tc.newHoles != nil {
				require.Equal(t, tc.newHoles, rx.NewHoles)
			}
		})
	}
	added := Diff(base, Report{Version: 1, Entries: append(base.Entries, entry("new", "u250", 10, 10))},
		DefaultTolerance)
	require.False(t, Failed(added), "a new (top, config) is reported, not a failure")
	require.True(t, added[0].Added)
}

func TestComparable(t *testing.T) {
	a, b := Report{Version: 1, Suite: "smoke"}, Report{Version: 1, Suite: "nightly"}
	require.NoError(t, Comparable("a.json", a, "b.json", a))
	require.EqualError(t, Comparable("a.json", a, "b.json", b),
		`field suite: a.json has "smoke", b.json has "nightly" (compare reports of the same suite)`)
}

func TestLoadReportErrors(t *testing.T) {
	dir := t.TempDir()
	good := `{"version":1,"suite":"smoke","entries":[{"top":"rx","config":"default","runs":1,` +
		`"line":{"hit":1,"total":2,"pct":50},"toggle":{"hit":0,"total":0,"pct":100},"files":[]}]}`
	for _, tc := range []struct{ name, body, err string }{
		{name: "good", body: good, err: ""},
		{name: "not json", body: "{", err: "not a coverage.json"},
		{name: "unknown field", body: `{"version":1,"bogus":2}`, err: `unknown field "bogus"`},
		{name: "version", body: strings.Replace(good, `"version":1`, `"version":7`, 1), err: "field version: value 7"},
		{name: "no entries", body: `{"version":1,"entries":[]}`, err: "field entries: empty"},
		{name: "no top", body: strings.Replace(good, `"top":"rx"`, `"top":""`, 1), err: "field entries[0].top: empty"},
		{name: "hit > total", body: strings.Replace(good, `"hit":1,"total":2`, `"hit":3,"total":2`, 1),
			err: "field entries[0].line: hit 3, total 2"},
		{name: "duplicate", body: strings.Replace(good, `}]}`, `},{"top":"rx","config":"default"}]}`, 1),
			err: "field entries[1]: (top rx, config default) repeats"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := filepath.Join(dir, strings.ReplaceAll(tc.name, " ", "_")+".json")
			require.NoError(t, os.WriteFile(f, []byte(tc.body), 0o644))
			_, err := LoadReport(f)
			if tc.err == "" {
				require.NoError(t, err)
				return
			}
			require.ErrorContains(t, err, tc.err)
			require.ErrorContains(t, err, f, "the error names the file")
		})
	}
	_, err := LoadReport(filepath.Join(dir, "missing.json"))
	require.ErrorContains(t, err, "missing.json")
}

func TestRewriteSF(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{name: "relative", in: "TN:x\nSF:rtl/a.v\nDA:1,0\nend_of_record\n",
			want: "TN:x\nSF:/repo/rtl/a.v\nDA:1,0\nend_of_record\n"},
		{name: "absolute kept", in: "SF:/abs/rtl/a.v\nDA:1,1\n", want: "SF:/abs/rtl/a.v\nDA:1,1\n"},
		{name: "dot segments", in: "SF:./rtl/../rtl/b.v\n", want: "SF:/repo/rtl/b.v\n"},
		{name: "crlf and no final newline", in: "SF:rtl/a.v\r\nSF:rtl/b.v", want: "SF:/repo/rtl/a.v\nSF:/repo/rtl/b.v"},
		{name: "other lines untouched", in: "DA:3,SF:x\n", want: "DA:3,SF:x\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			require.Equal(t, tc.want, RewriteSF(tc.in, "/repo"))
		})
	}
}

func TestDiffUnits(t *testing.T) {
	u := func(line, tog float64, holes ...int) Unit {
		return Unit{File: "rtl/x.v", Config: "default", Line: Count{Pct: line}, Toggle: Count{Pct: tog}, Holes: holes}
	}
	e := []Entry{entry("rx", "default", 90, 80)}
	base := Report{Version: 1, Entries: e, Units: []Unit{u(100, 90)}}
	cs := Diff(base, Report{Version: 1, Entries: e, Units: []Unit{u(98, 90, 12)}}, DefaultTolerance)
	require.True(t, Failed(cs))
	require.Len(t, cs, 2)
	require.True(t, cs[1].Unit)
	require.Equal(t, map[string][]int{"rtl/x.v": {12}}, cs[1].NewHoles)
	var b strings.Builder
	PrintDiff(&b, cs)
	require.Contains(t, b.String(), "FAIL unit rtl/x.v/default: line 100.00% -> 98.00% (-2.00)")
	// a unit missing from the new report fails; a base without units compares entries only
	require.True(t, Failed(Diff(base, Report{Version: 1, Entries: e}, DefaultTolerance)))
	withUnits := Report{Version: 1, Entries: e, Units: []Unit{u(1, 1)}}
	require.False(t, Failed(Diff(Report{Version: 1, Entries: e}, withUnits, DefaultTolerance)))
}
