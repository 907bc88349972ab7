package outfile_test

import (
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/spraynic/spraynic/outfile"
)

// TestCheck: what can and cannot be written, and why.
func TestCheck(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "file")
	require.NoError(t, os.WriteFile(file, []byte("x"), 0o644))
	for _, tc := range []struct {
		name, path, want string
	}{
		{name: "new file", path: filepath.Join(dir, "r.json")},
		{name: "existing file", path: file},
		{name: "missing directories are created", path: filepath.Join(dir, "a", "b", "r.json")},
		{name: "device", path: os.DevNull},
		{name: "empty", path: "", want: "empty file name"},
		{name: "directory", path: dir, want: dir + " is a directory"},
		{name: "under a file", path: filepath.Join(file, "r.json"), want: file + " is not a directory"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := outfile.Check(tc.path)
			if tc.want == "" {
				require.NoError(t, err)
				return
			}
			require.EqualError(t, err, tc.want)
		})
	}
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	require.Len(t, entries, 1, "Check creates nothing")
}

// TestCheckReadOnly: a directory that takes no files is named with the reason.
func TestCheckReadOnly(t *testing.T) {
	if outfile.Check("/sys/r.json") == nil {
		t.Skip("/sys is writable here")
	}
	require.EqualError(t, outfile.Check("/sys/r.json"), "cannot create files in /sys: permission denied")
}

// TestCommitAbort: the final path changes only on Commit; Abort and AbortAll leave it and no temporary file.
func TestCommitAbort(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out", "chart.svg")
	o, err := outfile.Create(path)
	require.NoError(t, err)
	require.Equal(t, ".svg", filepath.Ext(o.Name()), "the temporary file keeps the extension")
	_, err = io.WriteString(o, "new")
	require.NoError(t, err)
	require.NoFileExists(t, path, "nothing at the final path before Commit")
	require.NoError(t, o.Commit())
	require.FileExists(t, path)
	o.Abort() // after Commit: nothing

	for _, stop := range []func(*outfile.File){(*outfile.File).Abort, func(*outfile.File) { outfile.AbortAll() }} {
		o, err = outfile.Create(path)
		require.NoError(t, err)
		_, err = io.WriteString(o, "half")
		require.NoError(t, err)
		stop(o)
		require.Error(t, o.Commit(), "no Commit after an abort")
		b, err := os.ReadFile(path)
		require.NoError(t, err)
		require.Equal(t, "new", string(b), "the final file is untouched")
		entries, err := os.ReadDir(filepath.Dir(path))
		require.NoError(t, err)
		require.Len(t, entries, 1, "no temporary file left")
	}
}

// TestModeAndLinks: a replaced file keeps its mode; a symbolic link keeps pointing at the new content; a device
// is written in place.
func TestModeAndLinks(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "target.json")
	require.NoError(t, os.WriteFile(target, []byte("old"), 0o600))
	link := filepath.Join(dir, "link.json")
	require.NoError(t, os.Symlink(target, link))
	require.NoError(t, outfile.WriteFile(link, []byte("new")))
	b, err := os.ReadFile(target)
	require.NoError(t, err)
	require.Equal(t, "new", string(b))
	st, err := os.Lstat(link)
	require.NoError(t, err)
	require.NotZero(t, st.Mode()&os.ModeSymlink, "the link is still a link")
	st, err = os.Stat(target)
	require.NoError(t, err)
	require.Equal(t, os.FileMode(0o600), st.Mode().Perm())
	require.NoError(t, outfile.WriteFile(os.DevNull, []byte("x")))
	st, err = os.Stat(os.DevNull)
	require.NoError(t, err)
	require.Zero(t, st.Mode()&os.ModeCharDevice^os.ModeCharDevice, "/dev/null is still a device")
}
