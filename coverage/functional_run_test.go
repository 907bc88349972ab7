package coverage

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spraynic/spraynic/config"
	"github.com/spraynic/spraynic/coverage/functional"
	"github.com/spraynic/spraynic/regress"
	"github.com/stretchr/testify/require"
)

func goldenCov(t *testing.T, tests ...string) Report { return goldenCovOn(t, "default", tests...) }

// goldenCovOn is a golden-only smoke run (seeds 1, 2) of tests on the preset cfg.
func goldenCovOn(t *testing.T, cfg string, tests ...string) Report {
	root, err := filepath.Abs("..")
	require.NoError(t, err)
	out := t.TempDir()
	rep, failed, err := Run(Options{Root: root, Out: out, Suite: regress.Suites["smoke"], Configs: []string{cfg},
		FirstSeed: 1, Jobs: 2, Log: io.Discard, Tests: tests, Golden: true})
	require.NoError(t, err)
	require.Empty(t, failed)
	back, err := LoadReport(filepath.Join(out, "coverage.json"))
	require.NoError(t, err, "the written report loads and validates")
	require.Equal(t, len(rep.Functional), len(back.Functional))
	return back
}

func coverGroup(t *testing.T, r Report, top, name string) *functional.Group {
	for _, e := range r.Functional {
		if e.Top == top {
			if g := e.Group(name); g != nil {
				return g
			}
		}
	}
	t.Fatalf("no group %s/%s in the report", top, name)
	return nil
}

// TestGoldenRunFindsHole: a golden-only run of one short test leaves listed holes that another test closes, and
// the diff of the two reports reports the bins lost and fails.
func TestGoldenRunFindsHole(t *testing.T) {
	one := goldenCov(t, "rx_inorder")
	g := coverGroup(t, one, "rx_reorder", "rx_reorder")
	require.Equal(t, 2, one.Functional[0].Runs, "two seeds merged")
	require.NotZero(t, g.Samples)
	require.NotZero(t, g.Find("verdict").Hits("accepted"))
	require.Contains(t, g.Holes(), "verdict.duplicate", "in-order traffic has no duplicates: a hole")
	require.Contains(t, g.Holes(), "reset.after_traffic")
	hit1, reach := g.Count()
	require.Less(t, hit1, reach)

	two := goldenCov(t, "rx_inorder", "rx_dup_oow")
	g2 := coverGroup(t, two, "rx_reorder", "rx_reorder")
	require.NotContains(t, g2.Holes(), "verdict.duplicate", "rx_dup_oow closes it")
	hit2, _ := g2.Count()
	require.Greater(t, hit2, hit1)

	ds := DiffFunctional(two, one)
	require.True(t, FunctionalFailed(ds))
	var buf bytes.Buffer
	PrintFunctionalDiff(&buf, ds)
	require.Contains(t, buf.String(), "FAIL rx_reorder/default rx_reorder")
	require.Contains(t, buf.String(), "verdict.duplicate")
	require.False(t, FunctionalFailed(DiffFunctional(one, two)), "gaining bins is no failure")

	buf.Reset()
	one.PrintSummary(&buf, 10)
	require.Contains(t, buf.String(), "rx_reorder     default      2 rx_reorder")
	require.Contains(t, buf.String(), "holes: ")
}

// TestWindowEndsOnEveryPreset: the endpoint's e2e_clean and e2e_bottleneck runs of the smoke suite read a pair's
// window at CWND_MAX and at 1 packet on every preset. On u250 (16 paths, CWND_INIT 32, CWND_MAX 128, AI 1/16)
// they take 4x and 5x their base length for it; shorter, both bins were holes of the u250 smoke baseline.
func TestWindowEndsOnEveryPreset(t *testing.T) {
	for _, cfg := range config.PresetNames() {
		r := goldenCovOn(t, cfg, "nic_e2e_clean_a", "nic_e2e_bottleneck_a")
		g := coverGroup(t, r, "nic_transport", "nic_path_sel")
		for _, bin := range []string{"min", "max"} {
			require.NotZero(t, g.Find("cwnd").Hits(bin),
				"%s: nic_path_sel.cwnd.%s not hit by nic_e2e_clean_a and nic_e2e_bottleneck_a (seeds 1, 2)", cfg, bin)
		}
	}
}

// TestBaselineBackwardCompatible: the committed baseline loads; a baseline without a functional part (as written
// before functional coverage existed) compared with a report that has one treats every group as new.
func TestBaselineBackwardCompatible(t *testing.T) {
	base, err := LoadReport("baseline.json")
	require.NoError(t, err)
	require.NotEmpty(t, base.Functional, "the committed baseline has functional coverage")
	base.Functional = nil
	cur := goldenCov(t, "path_spray")
	cur.Entries = base.Entries
	cur.Units = base.Units
	ds := DiffFunctional(base, cur)
	require.NotEmpty(t, ds)
	for _, d := range ds {
		require.True(t, d.New, d.Group)
	}
	require.False(t, FunctionalFailed(ds))
	require.False(t, Failed(Diff(base, cur, DefaultTolerance)))
}

// TestCommittedBaselines: every committed baseline loads and holds its own preset only, the smoke suite, every
// functional entry and design unit included: baseline.json is default, baseline-<preset>.json that preset (what
// `make cov CONFIG=<preset>` compares against).
func TestCommittedBaselines(t *testing.T) {
	files, err := filepath.Glob("baseline*.json")
	require.NoError(t, err)
	require.Contains(t, files, "baseline.json")
	for _, f := range files {
		want := strings.TrimSuffix(strings.TrimPrefix(strings.TrimPrefix(f, "baseline"), "-"), ".json")
		if want == "" {
			want = "default"
		}
		_, err := config.Preset(want)
		require.NoError(t, err, "%s: named after no preset", f)
		base, err := LoadReport(f)
		require.NoError(t, err)
		require.Equal(t, "smoke", base.Suite, f)
		require.NotEmpty(t, base.Entries, f)
		for _, e := range base.Entries {
			require.Equal(t, want, e.Config, "%s: entry %s", f, e.Top)
		}
		for _, u := range base.Units {
			require.Equal(t, want, u.Config, "%s: unit %s", f, u.File)
		}
		for _, fc := range base.Functional {
			require.Equal(t, want, fc.Config, "%s: functional %s", f, fc.Top)
		}
	}
}

func TestLoadReportFunctionalErrors(t *testing.T) {
	dir := t.TempDir()
	groups := `"groups":[{"name":"g","samples":3,"points":[{"name":"p","bins":[{"name":"a","hits":1}]}]}]`
	good := `{"version":1,"suite":"smoke","entries":[],"functional":[{"top":"rx_reorder","config":"default","runs":1,` +
		groups + `}]}`
	second := `{"top":"rx_reorder","config":"default","runs":1,` +
		`"groups":[{"name":"g","points":[{"name":"p","bins":[{"name":"a"}]}]}]}`
	for _, tc := range []struct{ name, body, err string }{
		{name: "good", body: good},
		{name: "no groups", body: strings.Replace(good, groups, `"groups":[]`, 1),
			err: "field functional[0].groups: empty"},
		{name: "negative hits", body: strings.Replace(good, `"hits":1`, `"hits":-1`, 1), err: "not a coverage.json"},
		{name: "unknown", body: strings.Replace(good, `"hits":1`, `"hits":1,"bogus":1`, 1),
			err: `unknown field "bogus"`},
		{name: "dup bin", body: strings.Replace(good, `{"name":"a","hits":1}`, `{"name":"a","hits":1},{"name":"a"}`, 1),
			err: "field functional[0].groups[0].points[0].bins[1].name: \"a\" repeats"},
		{name: "dup entry", body: strings.Replace(good, `}]}]}]}`, `}]}]}]},`+second+`]}`, 1),
			err: "field functional[1]: (top rx_reorder, config default) repeats"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := filepath.Join(dir, strings.ReplaceAll(tc.name, " ", "_")+".json")
			require.NoError(t, writeFile(f, tc.body))
			_, err := LoadReport(f)
			if tc.err == "" {
				require.NoError(t, err)
				return
			}
			require.ErrorContains(t, err, tc.err)
			require.ErrorContains(t, err, f)
		})
	}
}

func writeFile(f, s string) error { return os.WriteFile(f, []byte(s), 0o644) }
