package main

import (
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// TestOutputsCheckedFirst: every command that writes files refuses a path it cannot write before its work, and
// leaves no file behind.
func TestOutputsCheckedFirst(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "afile")
	require.NoError(t, os.WriteFile(file, nil, 0o644))
	bad := filepath.Join(file, "r.json")
	res := filepath.Join(dir, "res.json")
	require.NoError(t, os.WriteFile(res, []byte(`{"suite": "smoke", "first_seed": 1, "total": 0, "runs": []}`), 0o644))
	notDir := "cannot be written: " + file + " is not a directory"
	checkCases(t, []cliCase{
		{name: "sim --json", args: []string{"sim", "--json", bad}, code: 1,
			stderr: "spraynic: --json " + bad + ": " + notDir},
		{name: "sim --pcap", args: []string{"sim", "--pcap", bad}, code: 1,
			stderr: "spraynic: --pcap " + bad + ": " + notDir},
		{name: "sweep chart format", args: []string{"sim", "sweep", "--plot", filepath.Join(dir, "x.gif"),
			"--csv", filepath.Join(dir, "s.csv")}, code: 2,
			stderr: "spraynic: --plot " + filepath.Join(dir, "x.gif") + `: unknown chart format ".gif" (allowed: .svg, ` +
				".png); see 'spraynic sim sweep --help'"},
		{name: "sweep same file twice", args: []string{"sim", "sweep", "--csv", filepath.Join(dir, "s.csv"),
			"--json", filepath.Join(dir, "s.csv")}, code: 2,
			stderr: "spraynic: --csv and --json name the same file " + filepath.Join(dir, "s.csv") +
				" (allowed: a file of its own for each); see 'spraynic sim sweep --help'"},
		{name: "sweep --json", args: []string{"sim", "sweep", "--json", bad}, code: 1,
			stderr: "spraynic: --json " + bad + ": " + notDir},
		{name: "gen into a directory", args: []string{"gen", "--out", dir}, code: 1,
			stderr: "spraynic: --out " + dir + ": cannot be written: " + dir + " is a directory"},
		{name: "regress --junit", args: []string{"regress", "--golden", "--junit", bad}, code: 1,
			stderr: "spraynic: --junit " + bad + ": " + notDir},
		{name: "merge --json", args: []string{"merge", res, "--json", bad}, code: 1,
			stderr: "spraynic: --json " + bad + ": " + notDir},
		{name: "bench --json", args: []string{"bench", "--json", bad}, code: 1,
			stderr: "spraynic: --json " + bad + ": " + notDir},
		{name: "run --waves", args: []string{"run", "--test", "rx_inorder", "--waves", bad}, code: 1,
			stderr: "spraynic: --waves " + bad + ": " + notDir},
		{name: "cov run --out", args: []string{"cov", "run", "--golden", "--out", file}, code: 1,
			stderr: "spraynic: --out " + file + ": cannot be written: " + file + " is not a directory"},
	})
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	require.Len(t, entries, 2, "only afile and res.json: nothing written")
}

// TestOutputsWhole: a finished sweep renames its files into place; no temporary file stays.
func TestOutputsWhole(t *testing.T) {
	dir := t.TempDir()
	out, errs, code := runCLI(t, nil, "sim", "sweep", "--duration-us", "5", "--losses", "0", "--path-counts", "4",
		"--quiet", "--csv", filepath.Join(dir, "s.csv"), "--plot", filepath.Join(dir, "c.png"), "--tail-plot",
		filepath.Join(dir, "t.svg"), "--conns-plot", filepath.Join(dir, "n.svg"), "--json", filepath.Join(dir, "s.json"))
	require.Equal(t, 0, code, errs)
	require.Contains(t, out, "seed 1, 2 runs on")
	var names []string
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	for _, e := range entries {
		names = append(names, e.Name())
	}
	require.Equal(t, []string{"c.png", "s.csv", "s.json", "t.svg"}, names, "no conns chart of a single count")
}

// TestSignalLeavesNoFile: SIGINT or SIGTERM during 'sim --pcap' removes the unfinished capture, leaves an earlier
// file of that name as it was, and exits 128+N.
func TestSignalLeavesNoFile(t *testing.T) {
	for _, tc := range []struct {
		name string
		sig  syscall.Signal
		old  bool
	}{
		{name: "SIGINT, new file", sig: syscall.SIGINT},
		{name: "SIGTERM, earlier file", sig: syscall.SIGTERM, old: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			bin, err := cliBinary()
			require.NoError(t, err)
			dir := t.TempDir()
			pcap := filepath.Join(dir, "c.pcap")
			if tc.old {
				require.NoError(t, os.WriteFile(pcap, []byte("earlier"), 0o644))
			}
			cmd := exec.Command(bin, "sim", "--duration-us", "100000", "--quiet", "--pcap", pcap)
			stderrPipe, err := cmd.StderrPipe()
			require.NoError(t, err)
			require.NoError(t, cmd.Start())
			time.Sleep(time.Second) // well inside the simulation (tens of seconds)
			require.NoError(t, cmd.Process.Signal(tc.sig))
			stderr, err := io.ReadAll(stderrPipe)
			require.NoError(t, err)
			err = cmd.Wait()
			ee, ok := err.(*exec.ExitError)
			require.True(t, ok, "exit status, got %v", err)
			require.Equal(t, 128+int(tc.sig), ee.ExitCode(), "stderr: %s", stderr)
			require.Equal(t, "spraynic: stopped by "+tc.sig.String()+"\n", string(stderr))
			entries, err := os.ReadDir(dir)
			require.NoError(t, err)
			if !tc.old {
				require.Empty(t, entries, "no capture, no temporary file")
				return
			}
			require.Len(t, entries, 1, "no temporary file")
			b, err := os.ReadFile(pcap)
			require.NoError(t, err)
			require.Equal(t, "earlier", string(b), "the earlier file is untouched")
		})
	}
}
