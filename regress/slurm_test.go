package regress_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/spraynic/spraynic/regress"
	"github.com/stretchr/testify/require"
)

// TestSlurmArray submits 2 shards of a tiny suite to the local Slurm cluster (slurm/start-local.sh), waits, merges,
// and checks the merged result equals the local run of the same suite. It builds the spraynic CLI for the tasks.
func TestSlurmArray(t *testing.T) {
	// make slurm-test sets SPRAYNIC_REQUIRE_SLURM: there a missing cluster is a failure, not a skip.
	skip := t.Skipf
	if os.Getenv("SPRAYNIC_REQUIRE_SLURM") != "" {
		skip = t.Fatalf
	}
	if _, err := exec.LookPath("sbatch"); err != nil {
		skip("sbatch is not on PATH: no Slurm here (as root: slurm/start-local.sh installs and starts a local cluster)")
	}
	out, err := exec.Command("sinfo", "-h", "-o", "%T").Output()
	if err != nil ||
		!(strings.Contains(string(out), "idle") || strings.Contains(string(out), "mixed") ||
			strings.Contains(string(out), "allocated")) {
		skip("the local Slurm cluster is not up (sinfo: %q, %v): run slurm/start-local.sh as root",
			strings.TrimSpace(string(out)), err)
	}
	r := root(t)
	dir := t.TempDir()
	suiteFile := filepath.Join(dir, "suites.json")
	require.NoError(
		t,
		os.WriteFile(
			suiteFile,
			[]byte(
				`{"suites":[{"name":"slurmtiny","configs":["default"],"seeds":2,"cycle_scale":1,`+
					`"tests":["rx_inorder","path_spray"]}]}`,
			),
			0o644,
		),
	)
	bin := filepath.Join(dir, "spraynic")
	build := exec.Command("go", "build", "-o", bin, "./cmd/spraynic")
	build.Dir = r
	b, err := build.CombinedOutput()
	require.NoError(t, err, "go build: %s", b)

	suites, err := regress.LoadSuites(suiteFile)
	require.NoError(t, err)
	reqs, err := suites[0].Expand(r, 1)
	require.NoError(t, err)
	require.NoError(t, regress.BuildModels(reqs))
	outs, err := regress.RegressWith(reqs, regress.RegressOptions{})
	require.NoError(t, err)
	local := regress.Results{Suite: "slurmtiny", FirstSeed: 1, Total: len(reqs)}
	for _, o := range outs {
		local.Runs = append(local.Runs, regress.RecordOf(o))
	}

	start := time.Now()
	job := regress.SlurmJob{Name: "spraynic-test", Shards: 2, Dir: filepath.Join(dir, "shared"), Root: r,
		Command: []string{bin, "regress", "--suite-file", suiteFile, "--suite", "slurmtiny", "--seed", "1",
			"--jobs", "1"}}
	var log strings.Builder
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	parts, names, err := job.Run(ctx, &log, 500*time.Millisecond, 4*time.Minute)
	require.NoError(t, err, "slurm log:\n%s", log.String())
	merged, err := regress.Merge(parts, names)
	require.NoError(t, err)
	t.Logf("slurm: 2 array tasks submitted, finished and merged in %s\n%s", time.Since(start).Round(time.Millisecond),
		log.String())

	strip := func(rs regress.Results) regress.Results {
		m, err := regress.Merge([]regress.Results{rs}, []string{"x"})
		require.NoError(t, err)
		for i := range m.Runs {
			m.Runs[i].Seconds = 0
		}
		return m
	}
	require.Equal(t, strip(local), strip(merged), "the merged Slurm shards equal the local run of the same suite")
	require.Zero(t, merged.Failed())
}
