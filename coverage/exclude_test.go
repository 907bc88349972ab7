package coverage

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestExclusionsFile: the committed exclusion file loads and every entry has a reason.
func TestExclusionsFile(t *testing.T) {
	ex, err := LoadExclusions("exclusions.yaml")
	require.NoError(t, err)
	require.NotEmpty(t, ex)
	for _, e := range ex {
		require.NotEmpty(t, e.Reason, "%s %v", e.File, e.Signals)
	}
}

// TestExclusionsApply: an excluded bit leaves the net toggle figure, a bit outside the ranges stays, another
// config is not affected, and a hit on a bit called unreachable is an error.
func TestExclusionsApply(t *testing.T) {
	dir := t.TempDir()
	f := filepath.Join(dir, "ex.yaml")
	require.NoError(t, os.WriteFile(f, []byte(`exclusions:
  - file: rtl/retx.v
    signals: [rto_lim_reg]
    field: 16
    bits: "7-15"
    configs: [default]
    unreachable: true
    reason: capped at 64
`), 0o644))
	ex, err := LoadExclusions(f)
	require.NoError(t, err)
	pt := func(sig string, n uint64) Point {
		return Point{File: "/r/rtl/retx.v", Kind: KindToggle, Comment: sig, Hier: "TOP.retx", Count: n, Key: sig}
	}
	pts := []Point{pt("rto_lim_reg[3]", 5), pt("rto_lim_reg[8]", 0), pt("rto_lim_reg[24]", 0), pt("rto_lim_reg[19]", 4),
		pt("other[8]", 0)}
	e, err := Summarize("retx", "default", 1, pts, "/r", ex)
	require.NoError(t, err)
	require.Equal(t, 5, e.Toggle.Total)
	require.Equal(t, 2, e.ToggleExcluded, "bits 8 and 24 (field 1, bit 8) are excluded")
	require.Equal(t, Count{Hit: 2, Total: 3, Pct: 66.66}, e.ToggleNet)
	holes := []SignalHoles{{File: "rtl/retx.v", Signal: "other", Toggle: Count{Hit: 0, Total: 1, Pct: 0}, Bits: "8"}}
	require.Equal(t, holes, e.ToggleHoles, "only the never-toggled bits outside the exclusions are holes")
	e, err = Summarize("retx", "u250", 1, pts, "/r", ex)
	require.NoError(t, err)
	require.Zero(t, e.ToggleExcluded, "not for another config")
	require.Equal(t, []SignalHoles{
		{File: "rtl/retx.v", Signal: "rto_lim_reg", Toggle: Count{Hit: 2, Total: 4, Pct: 50}, Bits: "8,24"},
		{File: "rtl/retx.v", Signal: "other", Toggle: Count{Hit: 0, Total: 1, Pct: 0}, Bits: "8"},
	}, e.ToggleHoles, "most holes first")
	pts[1].Count = 1
	_, err = Summarize("retx", "default", 1, pts, "/r", ex)
	require.ErrorContains(t, err, "calls rto_lim_reg[8] of TOP.retx unreachable, but it toggled 1 times")
}

// TestExclusionFromField: from_field keeps the fields below it in the target.
func TestExclusionFromField(t *testing.T) {
	f := filepath.Join(t.TempDir(), "ex.yaml")
	body := "exclusions:\n  - file: rtl/p.v\n    signals: [pdec_reg]\n    field: 16\n    bits: \"13-15\"\n" +
		"    from_field: 2\n    reason: replicas\n"
	require.NoError(t, os.WriteFile(f, []byte(body), 0o644))
	ex, err := LoadExclusions(f)
	require.NoError(t, err)
	pt := func(sig string) Point {
		return Point{File: "/r/rtl/p.v", Kind: KindToggle, Comment: sig, Hier: "TOP.p", Key: sig}
	}
	// fields 0 and 1 (bits 0-31) stay; bit 45 is field 2, bit 13; bit 40 is field 2, bit 8 (not in the range).
	e, err := Summarize("p", "default", 1,
		[]Point{pt("pdec_reg[13]"), pt("pdec_reg[29]"), pt("pdec_reg[45]"), pt("pdec_reg[40]")}, "/r", ex)
	require.NoError(t, err)
	require.Equal(t, 1, e.ToggleExcluded)
	require.Equal(t, 3, e.ToggleNet.Total)
}

// TestBitRanges: hole positions are written as ascending ranges.
func TestBitRanges(t *testing.T) {
	set := func(bs ...int) map[int]bool {
		m := map[int]bool{}
		for _, b := range bs {
			m[b] = true
		}
		return m
	}
	require.Equal(t, "", bitRanges(set()))
	require.Equal(t, "5", bitRanges(set(5)))
	require.Equal(t, "0-3,7,9-10", bitRanges(set(10, 9, 7, 3, 2, 1, 0)))
}

// TestExclusionErrors: a bad entry is named with its field.
func TestExclusionErrors(t *testing.T) {
	for _, tc := range []struct{ body, want string }{
		{body: "exclusions:\n  - file: rtl/a.v\n    signals: [x]\n    bits: \"1\"\n",
			want: "entry 0: field reason: empty"},
		{body: "exclusions:\n  - file: rtl/a.v\n    signals: [x]\n    field: 4\n    bits: \"2-5\"\n    reason: r\n",
			want: `field bits: value "2-5": range "2-5" invalid`},
		{body: "exclusions:\n  - signals: [x]\n    bits: \"1\"\n    reason: r\n", want: "entry 0: field file: empty"},
		{body: "exclusions:\n  - file: rtl/a.v\n    signals: [x]\n    bits: \"1\"\n    from_field: 2\n    reason: r\n",
			want: "field from_field: value 2 (allowed: 0, or a field index >= 1 with field set)"},
		{body: "exclusions:\n  - file: rtl/a.v\n    signals: [x]\n    bits: \"1\"\n    reason: r\n    colour: red\n",
			want: "field colour not found"},
	} {
		f := filepath.Join(t.TempDir(), "ex.yaml")
		require.NoError(t, os.WriteFile(f, []byte(tc.body), 0o644))
		_, err := LoadExclusions(f)
		require.ErrorContains(t, err, tc.want)
	}
}

// TestExclusionStale: an entry whose signal pattern matches no toggle point of its file, or whose bits exclude
// none, is an error when the file is in the points and the entry holds for the config; otherwise it is not checked.
func TestExclusionStale(t *testing.T) {
	load := func(body string) []Exclusion {
		f := filepath.Join(t.TempDir(), "ex.yaml")
		require.NoError(t, os.WriteFile(f, []byte(body), 0o644))
		ex, err := LoadExclusions(f)
		require.NoError(t, err)
		return ex
	}
	pt := func(file, sig string) Point {
		return Point{File: "/r/" + file, Kind: KindToggle, Comment: sig, Hier: "TOP.x", Key: file + sig}
	}
	pts := []Point{pt("rtl/a.v", "cnt_reg[0]"), pt("rtl/a.v", "cnt_reg[1]"), pt("rtl/a.v", "cnt_next[1]")}

	renamed := load("exclusions:\n  - file: rtl/a.v\n    signals: [cnt_reg, old_name]\n    bits: \"1\"\n" +
		"    configs: [default]\n    reason: r\n")
	_, err := Summarize("a", "default", 1, pts, "/r", renamed)
	require.ErrorContains(t, err, `signal pattern "old_name" matches no toggle point of rtl/a.v`)
	_, err = Summarize("a", "ice40", 1, pts, "/r", renamed)
	require.NoError(t, err, "the entry does not hold for ice40")
	_, err = Summarize("b", "default", 1, []Point{pt("rtl/b.v", "x[0]")}, "/r", renamed)
	require.NoError(t, err, "rtl/a.v is not in the points")

	narrowed := load("exclusions:\n  - file: rtl/a.v\n    signals: [cnt_*]\n    bits: \"5-7\"\n    reason: r\n")
	_, err = Summarize("a", "default", 1, pts, "/r", narrowed)
	require.ErrorContains(t, err, `bits "5-7" (field 0) exclude no toggle point of rtl/a.v`)

	good := load("exclusions:\n  - file: rtl/a.v\n    signals: [cnt_*]\n    bits: \"1\"\n    reason: r\n")
	e, err := Summarize("a", "default", 1, pts, "/r", good)
	require.NoError(t, err)
	require.Equal(t, 2, e.ToggleExcluded)
}
