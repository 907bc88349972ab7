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
	// Every doc the plan must cover has testpoints.
	docs := map[string]int{}
	for _, p := range tp.Testpoints {
		docs[p.Doc]++
	}
	for _, d := range []string{"docs/rx_reorder.md", "docs/retx.md", "docs/path_sel.md", "docs/nic_transport.md", "docs/e2e.md"} {
		require.NotZero(t, docs[d], "no testpoint for %s", d)
	}
}

// TestTestplanCheckBites proves the check finds each kind of problem.
func TestTestplanCheckBites(t *testing.T) {
	cfg, err := config.Resolve("default")
	require.NoError(t, err)
	root, err := filepath.Abs("..")
	require.NoError(t, err)
	tp := Testplan{Testpoints: []Testpoint{
		{Feature: "ok", Doc: "docs/rx_reorder.md", Section: "Reset", Tests: []string{"rx_reset", "rx_*"}, Groups: []string{"rx_reorder", "rx_reorder.reset"}},
		{Feature: "bad test", Doc: "docs/rx_reorder.md", Section: "Reset", Tests: []string{"rx_no_such_test"}, Groups: []string{"rx_reorder"}},
		{Feature: "bad group", Doc: "docs/rx_reorder.md", Section: "Reset", Tests: []string{"rx_reset"}, Groups: []string{"rx_reorder.no_such_point"}},
		{Feature: "no tests", Doc: "docs/rx_reorder.md", Section: "Reset", Groups: []string{"rx_reorder"}},
		{Feature: "no groups", Doc: "docs/rx_reorder.md", Section: "Reset", Tests: []string{"rx_reset"}},
		{Feature: "bad section", Doc: "docs/rx_reorder.md", Section: "No such heading", Tests: []string{"rx_reset"}, Groups: []string{"rx_reorder"}},
	}}
	errs := tp.Check(root, testNames(), functional.Catalog(cfg))
	var msgs []string
	for _, e := range errs {
		msgs = append(msgs, e.Error())
	}
	all := strings.Join(msgs, "\n")
	require.Len(t, errs, 5, all)
	for _, want := range []string{`"rx_no_such_test" matches no test`, `"rx_reorder.no_such_point" is no functional cover group`,
		`"no tests"): field tests: empty`, `"no groups"): field groups: empty`, `"No such heading" is not a heading`} {
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
