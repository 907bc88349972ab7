package coverage

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spraynic/spraynic/regress"
	"github.com/stretchr/testify/require"
)

// TestMergeShardsEqualsWholeRun: the functional coverage of shards 1/2 and 2/2 merged is that of the whole suite
// run at once (same runs, same hits per bin), and the merge has no shard label.
func TestMergeShardsEqualsWholeRun(t *testing.T) {
	root, err := filepath.Abs("..")
	require.NoError(t, err)
	tests := []string{"rx_inorder", "rx_dup_oow", "path_flap"}
	run := func(shard, shards int) string {
		out := t.TempDir()
		_, failed, err := Run(Options{Root: root, Out: out, Suite: regress.Suites["smoke"],
			Configs: []string{"default"}, FirstSeed: 1, Jobs: 2, Log: io.Discard, Tests: tests, Golden: true,
			Shard: shard, Shards: shards})
		require.NoError(t, err)
		require.Empty(t, failed)
		return out
	}
	whole, s1, s2 := run(0, 0), run(1, 2), run(2, 2)
	r1, err := LoadReport(filepath.Join(s1, "coverage.json"))
	require.NoError(t, err)
	require.Equal(t, "1/2", r1.Shard)

	out := t.TempDir()
	merged, err := Merge(Options{Root: root, Out: out, Log: io.Discard}, []string{s1, s2})
	require.NoError(t, err)
	require.Equal(t, "", merged.Shard, "both shards: the whole suite")
	want, err := LoadReport(filepath.Join(whole, "coverage.json"))
	require.NoError(t, err)
	require.Equal(t, want.Functional, merged.Functional)
	back, err := LoadReport(filepath.Join(out, "coverage.json"))
	require.NoError(t, err)
	require.Equal(t, merged.Functional, back.Functional)

	half, err := Merge(Options{Root: root, Out: t.TempDir(), Log: io.Discard}, []string{s2})
	require.NoError(t, err)
	require.Equal(t, "2 of 2", half.Shard, "a partial merge says which shards it has")

	_, err = Merge(Options{Root: root, Out: t.TempDir(), Log: io.Discard}, []string{s1, s1})
	require.ErrorContains(t, err, "shard 1/2 is already merged from "+s1)
}

// TestMergeCodeCoverage merges the Verilator data of two directories: counts add up, runs add up.
func TestMergeCodeCoverage(t *testing.T) {
	root, err := filepath.Abs("..")
	require.NoError(t, err)
	b, err := os.ReadFile(filepath.Join("testdata", "snippet.dat"))
	require.NoError(t, err)
	// the snippet mixes points of two models; as one path_sel model, its RAM points lie below path_sel
	dat := strings.ReplaceAll(strings.ReplaceAll(string(b), "/work/main/", root+"/"), "TOP.rx_reorder.",
		"TOP.path_sel.")
	var dirs []string
	for i, runs := range []int{3, 4} {
		d := t.TempDir()
		require.NoError(t, os.MkdirAll(filepath.Join(d, "merged"), 0o755))
		content := dat
		if i == 1 {
			// the second shard hits the branch the first missed
			var lines []string
			for _, l := range strings.Split(content, "\n") {
				if strings.Contains(l, "518-519") && strings.HasSuffix(l, "' 0") {
					l = strings.TrimSuffix(l, "0") + "5"
				}
				lines = append(lines, l)
			}
			content = strings.Join(lines, "\n")
		}
		require.NoError(t, os.WriteFile(filepath.Join(d, "merged", "path_sel-default.dat"), []byte(content), 0o644))
		pts, err := ParseDatFile(filepath.Join(d, "merged", "path_sel-default.dat"))
		require.NoError(t, err)
		e, err := Summarize("path_sel", "default", runs, pts, root, nil)
		require.NoError(t, err)
		require.NoError(t, Report{Version: Version, Suite: "smoke", Shard: []string{"1/2", "2/2"}[i],
			Entries: []Entry{e}}.Write(filepath.Join(d, "coverage.json")))
		dirs = append(dirs, d)
	}
	out := t.TempDir()
	rep, err := Merge(Options{Root: root, Out: out, Log: io.Discard}, dirs)
	require.NoError(t, err)
	require.Len(t, rep.Entries, 1)
	e := rep.Entries[0]
	require.Equal(t, 7, e.Runs)
	require.Equal(t, Count{Hit: 3, Total: 3, Pct: 100}, e.Line, "line 518-519 covered by the second shard")
	require.Len(t, rep.Units, 2, "design units rtl/path_sel.v and rtl/ram_sdp.v")
	require.Equal(t, "rtl/path_sel.v", e.Files[0].File)
	require.Equal(t, e.Files[0].Line, rep.Units[0].Line, "one environment: the unit of path_sel.v is its entry's file")
	require.FileExists(t, filepath.Join(out, "merged", "path_sel-default.dat"))
	require.FileExists(t, filepath.Join(out, "info", "path_sel-default.info"))

	// mismatched suites
	other := t.TempDir()
	require.NoError(t,
		Report{Version: Version, Suite: "nightly", Entries: []Entry{e}}.Write(filepath.Join(other, "coverage.json")))
	_, err = Merge(Options{Root: root, Out: t.TempDir(), Log: io.Discard}, []string{dirs[0], other})
	require.ErrorContains(t, err, `field suite: "nightly"`)
	// an entry without its data
	_, err = Merge(Options{Root: root, Out: t.TempDir(), Log: io.Discard}, []string{other})
	require.ErrorContains(t, err, "has no merged data")
}

func TestMergedShardLabels(t *testing.T) {
	dirs := []string{"a", "b", "c"}
	for _, tc := range []struct {
		labels []string
		want   string
		err    string
	}{
		{labels: []string{"1/3", "2/3", "3/3"}, want: "", err: ""},
		{labels: []string{"", "", ""}, want: "", err: ""},
		{labels: []string{"1/3", "3/3", ""}, want: "1,3 of 3", err: ""},
		{labels: []string{"1/3", "1/2", ""}, want: "", err: `"1/2", but another input is a shard of 3`},
		{labels: []string{"0/3", "", ""}, want: "", err: `field shard: "0/3"`},
		{labels: []string{"2/3", "2/3", ""}, want: "", err: "shard 2/3 is already merged from a"},
	} {
		got, err := mergedShard(dirs, func(i int) string { return tc.labels[i] })
		if tc.err != "" {
			require.ErrorContains(t, err, tc.err, "%v", tc.labels)
			continue
		}
		require.NoError(t, err, "%v", tc.labels)
		require.Equal(t, tc.want, got, "%v", tc.labels)
	}
}
