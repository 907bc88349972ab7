package main

import (
	"os"
	"strings"
	"testing"

	"github.com/spraynic/spraynic/english"
	"github.com/stretchr/testify/require"
)

// TestTestsTable: 'spraynic tests' has a header and its columns line up, nic_transport included.
func TestTestsTable(t *testing.T) {
	out, errs, code := runCLI(t, nil, "tests")
	require.Equal(t, 0, code, errs)
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	require.True(t, strings.HasPrefix(lines[0], "test "), "header first: %q", lines[0])
	col := strings.Index(lines[0], "cycles (default)")
	doc := strings.Index(lines[0], "what it does")
	for _, l := range lines[1:] {
		require.NotEqual(t, ' ', rune(l[col]), "cycles column starts at %d: %q", col, l)
		require.Equal(t, "  ", l[doc-2:doc], "what it does starts at %d: %q", doc, l)
	}
	require.Contains(t, out, "\nnic_dir_counters         nic_transport  1572880           directed:")
}

// TestPlural: counts agree with their nouns.
func TestPlural(t *testing.T) {
	for n, want := range map[int]string{0: "0 jobs", 1: "1 job", 2: "2 jobs"} {
		require.Equal(t, want, english.Plural(n, "job"))
	}
	require.Equal(t, "3 entries", english.Plural(3, "entry"))
	require.Equal(t, "1 directory", english.Plural(1, "directory"))
}

// TestProgressNotOnDevNull: sim's progress line goes to terminals only; /dev/null is a character device, not one.
func TestProgressNotOnDevNull(t *testing.T) {
	f, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	require.NoError(t, err)
	defer f.Close()
	require.Nil(t, progressTo(f, false, 250))
}

// TestSweepJobsSingular: "1 job", not "1 jobs".
func TestSweepJobsSingular(t *testing.T) {
	out, errs, code := runCLI(t, nil, "sim", "sweep", "--duration-us", "5", "--losses", "0", "--path-counts", "4",
		"--modes", "spray", "--jobs", "1", "--quiet", "--csv", "", "--plot", "", "--tail-plot", "", "--json", "")
	require.Equal(t, 0, code, errs)
	require.Contains(t, out, "seed 1, 1 run on 1 job\n")
}
