package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/spraynic/spraynic/system"
	"github.com/spraynic/spraynic/system/roce"
	sweep "github.com/spraynic/spraynic/system/sweep"
)

// TestSimCommands: sim writes its table and JSON, sim sweep its CSV, chart and JSON, gen its capture; bad flags
// are named.
func TestSimCommands(t *testing.T) {
	dir := t.TempDir()
	js := filepath.Join(dir, "r.json")
	out, err := runApp(t, "sim", "--duration-us", "20", "--loss", "0.02", "--fail", "2@5-10", "--quiet", "--json", js,
		"--reconnect", "1@8", "--host-lag-us", "0.5", "--cpl-stall", "0.3", "--all-failed-reconnect-us", "5")
	require.NoError(t, err)
	require.Contains(t, out, "seed 1 (--seed N")
	require.Contains(t, out, "goodput (% of port)")
	var r system.Result
	b, err := os.ReadFile(js)
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(b, &r))
	require.Equal(t, "spray", r.Mode)
	require.Positive(t, r.Messages)
	require.EqualValues(t, 1, r.Reconnects, "--reconnect 1@8")

	csv, svg, sj := filepath.Join(dir, "s.csv"), filepath.Join(dir, "s.svg"), filepath.Join(dir, "s.json")
	out, err = runApp(t, "sim", "sweep", "--duration-us", "15", "--losses", "0,0.05", "--path-counts", "4",
		"--quiet", "--csv", csv, "--plot", svg, "--json", sj)
	require.NoError(t, err)
	require.Contains(t, out, "goodput%")
	f, err := os.Open(csv)
	require.NoError(t, err)
	defer f.Close()
	pts, err := sweep.ReadCSV(f)
	require.NoError(t, err)
	require.Len(t, pts, 4, "2 modes x 1 path count x 2 losses")
	st, err := os.Stat(svg)
	require.NoError(t, err)
	require.Positive(t, st.Size())

	out, err = runApp(t, "sim", "--rtl", "--duration-us", "10", "--loss", "0.02", "--quiet")
	require.NoError(t, err)
	require.Contains(t, out, "RTL endpoint A:", "endpoint A checked as RTL")
	require.Contains(t, out, "RTL endpoint B:", "endpoint B checked as RTL")
	require.Contains(t, out, "the figures below are the RTL's")

	pc := filepath.Join(dir, "g.pcap")
	out, err = runApp(t, "gen", "--out", pc, "--duration-us", "5")
	require.NoError(t, err)
	require.Contains(t, out, "data packets arrived at B")

	// replay: the capture plus a truncated frame, a frame of another UDP port and one for a connection the
	// config does not have; those three are rejected by number, the rest is fed to the RTL in lockstep.
	f2, err := os.Open(pc)
	require.NoError(t, err)
	frames, stamps, err := roce.ReadPcap(f2)
	f2.Close()
	require.NoError(t, err)
	require.NotEmpty(t, frames)
	bad := append([][]byte(nil), frames...)
	wrongPort := append([]byte(nil), frames[0]...)
	wrongPort[36], wrongPort[37] = 0x12, 0x34 // UDP destination port
	bigQP := append([]byte(nil), frames[0]...)
	bigQP[42+5], bigQP[42+6], bigQP[42+7] = 0, 0, 99 // BTH DestQP = 99
	require.NoError(t, roce.FixICRC(bigQP))
	bad = append(bad, frames[0][:30], wrongPort, bigQP)
	stamps = append(stamps, stamps[0], stamps[0], stamps[0])
	rp := filepath.Join(dir, "bad.pcap")
	f3, err := os.Create(rp)
	require.NoError(t, err)
	require.NoError(t, roce.WritePcap(f3, bad, stamps))
	require.NoError(t, f3.Close())
	out, err = runApp(t, "replay", rp)
	require.NoError(t, err)
	n := len(frames)
	require.Contains(t, out, fmt.Sprintf("%d frames: %d data and 0 ACK packets fed", n+3, n))
	require.Contains(t, out, fmt.Sprintf("frame %d rejected:", n+1))
	require.Contains(t, out, fmt.Sprintf("frame %d rejected:", n+2))
	require.Contains(t, out,
		fmt.Sprintf("frame %d rejected: connection (BTH DestQP) 99 beyond the configuration's 16", n+3))
	require.Contains(t, out, "RTL and golden model equal on every output port")

	for _, tc := range []struct {
		args []string
		want string
	}{
		{args: []string{"sim", "--loss", "0.9"},
			want: "option loss: value 0.9 out of range (allowed 0..0.5)"},
		{args: []string{"sim", "--fail", "1@x"},
			want: `--fail "1@x": want PATH@AT_US`},
		{args: []string{"sim", "--reconnect", "1"},
			want: `--reconnect "1": want CONN@AT_US`},
		{args: []string{"sim", "--reconnect", "9@10"},
			want: "option reconnect[0]: connection 9 out of range (allowed 0..7, the active " +
				"connections)"},
		{args: []string{"sim", "--cpl-stall", "1"},
			want: "option cpl-stall: value 1 out of range (allowed 0..0.9)"},
		{args: []string{"sim", "--host-lag-us", "3", "--quiet-us", "1"},
			want: "option host-lag-us: value 3 out of range (allowed 0 <= " +
				"LAG < the quiet time 1 us)"},
		{args: []string{"sim", "--all-failed-reconnect-us", "-1"},
			want: "option all-failed-reconnect-us: value -1 out of range"},
		{args: []string{"sim", "--paths", "6"},
			want: `--paths 6: config default: key "paths": value 6 is not a power of two`},
		{args: []string{"sim", "sweep", "--losses", "0,abc"},
			want: `--losses: value "abc"`},
		{args: []string{"sim", "sweep", "--path-counts", "4,5", "--duration-us", "5"},
			want: `sweep point mode spray, 5 paths`},
		{args: []string{"replay"},
			want: "replay: want one FILE.pcap argument, got 0"},
		{args: []string{"replay", filepath.Join(dir, "missing.pcap")},
			want: "no such file"},
		{args: []string{"replay", "--mode", "x", rp},
			want: `--mode "x": allowed spray, gbn`},
	} {
		_, err := runApp(t, tc.args...)
		require.ErrorContains(t, err, tc.want)
	}
}
