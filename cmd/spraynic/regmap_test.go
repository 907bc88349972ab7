package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/spraynic/spraynic/regmap"
)

func TestRegmapCommand(t *testing.T) {
	out, errs, code := runCLI(t, nil, "regmap", "--check")
	require.Equal(t, 0, code, "the checked-in files are not as generated: %s", errs)
	require.Contains(t, out, "as generated")

	dir := t.TempDir()
	doc := filepath.Join(dir, "doc.md")
	require.NoError(t, os.WriteFile(doc, []byte("x\n"+regmap.BeginMarker+"\n"+regmap.EndMarker+"\ny\n"), 0o644))
	vh := filepath.Join(dir, "sub", "regs.vh")
	_, errs, code = runCLI(t, nil, "regmap", "--vh", vh, "--doc", doc)
	require.Equal(t, 0, code, errs)
	got, err := os.ReadFile(vh)
	require.NoError(t, err)
	require.Equal(t, string(regmap.NicRoCE().Verilog()), string(got))
	got, err = os.ReadFile(doc)
	require.NoError(t, err)
	require.Contains(t, string(got), "`CONN_PEER_IP`")
	_, _, code = runCLI(t, nil, "regmap", "--check", "--vh", vh, "--doc", doc)
	require.Equal(t, 0, code)

	require.NoError(t, os.WriteFile(vh, []byte("stale\n"), 0o644))
	_, errs, code = runCLI(t, nil, "regmap", "--check", "--vh", vh, "--doc", doc)
	require.Equal(t, 1, code)
	require.Equal(t, "spraynic: "+vh+": not as generated from package regmap; run spraynic regmap\n", errs)
}

func TestRegmapCommandErrors(t *testing.T) {
	dir := t.TempDir()
	plain := filepath.Join(dir, "plain.md")
	require.NoError(t, os.WriteFile(plain, []byte("no markers\n"), 0o644))
	good := filepath.Join(dir, "good.md")
	goodText := "x\n" + regmap.BeginMarker + "\n" + regmap.EndMarker + "\n"
	require.NoError(t, os.WriteFile(good, []byte(goodText), 0o644))
	vh := filepath.Join(dir, "regs.vh")
	cases := []struct {
		name string
		args []string
		code int
		want string
	}{
		{name: "argument", args: []string{"regmap", "extra"}, code: 2, want: "extra"},
		{name: "unknown flag", args: []string{"regmap", "--vhd", "x"}, code: 2, want: "vhd"},
		{name: "no markers", args: []string{"regmap", "--vh", vh, "--doc", plain}, code: 1,
			want: "no register table markers"},
		{name: "missing doc", args: []string{"regmap", "--vh", vh, "--doc", filepath.Join(dir, "none.md")},
			code: 1, want: "--doc"},
		{name: "vh is a directory", args: []string{"regmap", "--vh", dir, "--doc", good}, code: 1,
			want: "--vh " + dir + ": cannot be written"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, errs, code := runCLI(t, nil, tc.args...)
			require.Equal(t, tc.code, code, errs)
			require.Contains(t, errs, tc.want)
			require.Equal(t, 1, strings.Count(errs, "\n"), "one line: %q", errs)
		})
	}
	_, err := os.Stat(vh)
	require.True(t, os.IsNotExist(err), "a failed run wrote %s", vh)
	got, err := os.ReadFile(good)
	require.NoError(t, err)
	require.Equal(t, goodText, string(got), "a failed run wrote the doc")
}
