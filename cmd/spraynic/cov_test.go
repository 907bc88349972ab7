package main

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestCovFunctional: 'cov run --golden' collects functional coverage only; 'cov diff' fails on a lost bin and
// passes on gained ones; a malformed report names the file.
func TestCovFunctional(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a"), filepath.Join(dir, "b")
	out, err := runApp(t, "cov", "run", "--golden", "--config", "default", "--test", "rx_inorder", "--out", a, "--jobs",
		"1")
	require.NoError(t, err, out)
	require.Contains(t, out, "functional coverage (bins hit / reachable bins)")
	require.Contains(t, out, "holes: verdict.duplicate")
	out, err = runApp(t, "cov", "run", "--golden", "--config", "default", "--test", "rx_inorder",
		"--test", "rx_dup_oow", "--out", b, "--jobs", "1")
	require.NoError(t, err, out)

	out, err = runApp(t, "cov", "diff", filepath.Join(a, "coverage.json"), filepath.Join(b, "coverage.json"))
	require.NoError(t, err, out)
	require.Contains(t, out, "gained: verdict.duplicate")
	out, err = runApp(t, "cov", "diff", filepath.Join(b, "coverage.json"), filepath.Join(a, "coverage.json"))
	require.ErrorContains(t, err, "functional coverage")
	require.Contains(t, out, "lost: verdict.duplicate")

	_, err = runApp(t, "cov", "run", "--golden", "--config", "default", "--test", "no_such_test*", "--out", a)
	require.ErrorContains(t, err, `"no_such_test*" matches no test`)
}

// TestCovBaselineFile: 'cov baseline --file' writes the named baseline (a preset's own, as `make cov-baseline
// CONFIG=...` does), which 'cov diff' then compares; a missing baseline says how to record one.
func TestCovBaselineFile(t *testing.T) {
	dir := t.TempDir()
	out, err := runApp(t, "cov", "run", "--golden", "--config", "ice40", "--test", "rx_inorder", "--out", dir, "--jobs",
		"1")
	require.NoError(t, err, out)
	base := filepath.Join(dir, "baseline-ice40.json")
	out, err = runApp(t, "cov", "baseline", "--out", dir, "--file", base)
	require.NoError(t, err, out)
	require.Contains(t, out, "wrote "+base)
	out, err = runApp(t, "cov", "diff", base, filepath.Join(dir, "coverage.json"))
	require.NoError(t, err, out)

	_, err = runApp(t, "cov", "diff", filepath.Join(dir, "baseline-u250.json"), filepath.Join(dir, "coverage.json"))
	require.ErrorContains(t, err, "make cov-baseline CONFIG=<preset>")
}
