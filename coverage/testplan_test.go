package coverage

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spraynic/spraynic/config"
	"github.com/spraynic/spraynic/cosim"
	"github.com/spraynic/spraynic/coverage/functional"
	"github.com/stretchr/testify/require"
)

func testNames() []string {
	var n []string
	for _, t := range cosim.Tests() {
		n = append(n, t.Name)
	}
	return n
}

// TestTestplan checks coverage/testplan.yaml against the registered tests, the cover groups and the docs.
func TestTestplan(t *testing.T) {
	tp, err := LoadTestplan("testplan.yaml")
	require.NoError(t, err)
	cfg, err := config.Resolve("default")
	require.NoError(t, err)
	root, err := filepath.Abs("..")
	require.NoError(t, err)
	errs := tp.Check(root, testNames(), functional.Catalog(cfg))
	for _, e := range errs {
		t.Error(e)
	}
	// The block and endpoint specs stay in the plan's section check.
	docs := map[string]bool{}
	for _, d := range tp.Docs {
		docs[d.Doc] = true
	}
	for _, d := range []string{"docs/rx_reorder.md", "docs/retx.md", "docs/path_sel.md", "docs/nic_transport.md",
		"docs/e2e.md"} {
		require.True(t, docs[d], "%s is not in the testplan's docs list", d)
	}
}

// TestTestplanSectionCheckBites proves the section and unreachable-bin checks fire.
func TestTestplanSectionCheckBites(t *testing.T) {
	cfg, err := config.Resolve("default")
	require.NoError(t, err)
	root := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(root, "docs"), 0o755))
	doc := "# blk\n## Ports\n## Feature A\n```sh\n# a shell comment, no heading\n```\n### Feature B\n## Notes\n"
	require.NoError(t, os.WriteFile(filepath.Join(root, "docs", "blk.md"), []byte(doc), 0o644))
	tp := Testplan{
		Testpoints: []Testpoint{
			{Feature: "a", Doc: "docs/blk.md", Section: "Feature A", Tests: []string{"rx_reset"},
				Groups: []string{"rx_reorder"}},
			{Feature: "other doc", Doc: "docs/unlisted.md", Section: "X", Tests: []string{"rx_reset"},
				Groups: []string{"rx_reorder"}},
		},
		Docs: []SpecDoc{{Doc: "docs/blk.md", NotFeatures: []NotFeature{
			{Section: "Ports", Reason: "port list"},
			{Section: "Notes"},
			{Section: "Feature A", Reason: "contradiction"},
			{Section: "Gone", Reason: "no such section"},
		}}},
		Unreachable: []UnreachableBin{
			{Top: "nic_transport", Bin: "nic_path_sel.all_failed.status_rise", Reason: "ok"},
			{Top: "nic_transport", Bin: "nic_path_sel.all_failed.no_such_bin", Reason: "bad bin"},
			{Top: "no_top", Bin: "x.y.z", Reason: "bad top"},
			{Top: "rx_reorder", Bin: "rx_reorder.verdict.closed"},
		},
	}
	errs := tp.Check(root, testNames(), functional.Catalog(cfg))
	var msgs []string
	for _, e := range errs {
		msgs = append(msgs, e.Error())
	}
	all := strings.Join(msgs, "\n")
	for _, want := range []string{
		`section "Feature B" has no testpoint`,
		`not_features[1] ("Notes"): field reason: empty`,
		`not_features[2] ("Feature A"): the section has a testpoint`,
		`not_features[3] ("Gone"): field section: not a section`,
		`field docs: docs/unlisted.md has testpoints but is not listed`,
		`unreachable[1] (nic_transport nic_path_sel.all_failed.no_such_bin): field bin`,
		`unreachable[2] (no_top x.y.z): field top`,
		`unreachable[3] (rx_reorder rx_reorder.verdict.closed): field reason: empty`,
	} {
		require.Contains(t, all, want)
	}
	require.NotContains(t, all, "a shell comment", "a # line in a code block is no heading")
	require.NotContains(t, all, `"Ports" has no testpoint`)
	require.NotContains(t, all, "unreachable[0]")
}

// TestTestplanCheckBites proves the check finds each kind of problem.
func TestTestplanCheckBites(t *testing.T) {
	cfg, err := config.Resolve("default")
	require.NoError(t, err)
	root, err := filepath.Abs("..")
	require.NoError(t, err)
	tp := Testplan{Testpoints: []Testpoint{
		{Feature: "ok", Doc: "docs/rx_reorder.md", Section: "Reset", Tests: []string{"rx_reset", "rx_*"},
			Groups: []string{"rx_reorder", "rx_reorder.reset"}},
		{Feature: "bad test", Doc: "docs/rx_reorder.md", Section: "Reset", Tests: []string{"rx_no_such_test"},
			Groups: []string{"rx_reorder"}},
		{Feature: "bad group", Doc: "docs/rx_reorder.md", Section: "Reset", Tests: []string{"rx_reset"},
			Groups: []string{"rx_reorder.no_such_point"}},
		{Feature: "no tests", Doc: "docs/rx_reorder.md", Section: "Reset", Groups: []string{"rx_reorder"}},
		{Feature: "no groups", Doc: "docs/rx_reorder.md", Section: "Reset", Tests: []string{"rx_reset"}},
		{Feature: "bad section", Doc: "docs/rx_reorder.md", Section: "No such heading", Tests: []string{"rx_reset"},
			Groups: []string{"rx_reorder"}},
	}}
	errs := tp.Check(root, testNames(), functional.Catalog(cfg))
	var msgs []string
	for _, e := range errs {
		msgs = append(msgs, e.Error())
	}
	all := strings.Join(msgs, "\n")
	require.Len(t, errs, 6, all)
	for _, want := range []string{
		`"rx_no_such_test" matches no test`, `"rx_reorder.no_such_point" is no functional cover group`,
		`"no tests"): field tests: empty`, `"no groups"): field groups: empty`, `"No such heading" is not a heading`,
		"field docs: empty",
	} {
		require.Contains(t, all, want)
	}
}

func TestLoadTestplanErrors(t *testing.T) {
	dir := t.TempDir()
	f := filepath.Join(dir, "tp.yaml")
	require.NoError(t, os.WriteFile(f, []byte("testpoints:\n  - feature: x\n    bogus: 1\n"), 0o644))
	_, err := LoadTestplan(f)
	require.ErrorContains(t, err, "field bogus not found")
	require.ErrorContains(t, err, f)
	require.NoError(t, os.WriteFile(f, []byte("testpoints: []\n"), 0o644))
	_, err = LoadTestplan(f)
	require.ErrorContains(t, err, "field testpoints: empty")
}
