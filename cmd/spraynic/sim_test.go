package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
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
		"--quiet", "--csv", csv, "--plot", svg, "--tail-plot", filepath.Join(dir, "t.svg"), "--json", sj)
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
	require.Contains(t, out, fmt.Sprintf("%s: frame %d: rejected: roce: IPv4 header: truncated: 16 bytes present, "+
		"20 needed", rp, n+1))
	require.Contains(t, out, fmt.Sprintf("%s: frame %d: rejected: roce: UDP dst port: not RoCEv2: value 4660", rp, n+2))
	require.Contains(t, out, fmt.Sprintf("%s: frame %d: rejected: roce: BTH dest qp: outside the configuration: "+
		"value 99 (0x63), allowed 256..271 (qpn_base 256, conns 16)", rp, n+3))
	require.Contains(t, out, "RTL and golden model equal on every output port")

	for _, tc := range []struct {
		args []string
		want string
	}{
		{args: []string{"sim", "--loss", "0.9"}, want: "option loss: value 0.9 out of range (allowed 0..0.5)"},
		{args: []string{"sim", "--fail", "1@x"}, want: `--fail "1@x": want PATH@AT_US`},
		{args: []string{"sim", "--reconnect", "1"}, want: `--reconnect "1": want CONN@AT_US`},
		{args: []string{"sim", "--reconnect", "9@10"},
			want: "option reconnect[0]: connection 9 out of range (allowed 0..7, the active connections)"},
		{args: []string{"sim", "--cpl-stall", "1"}, want: "option cpl-stall: value 1 out of range (allowed 0..0.9)"},
		{args: []string{"sim", "--host-lag-us", "3", "--quiet-us", "1"},
			want: "option host-lag-us: value 3 out of range (allowed 0 <= LAG < the quiet time 1 us)"},
		{args: []string{"sim", "--all-failed-reconnect-us", "-1"},
			want: "option all-failed-reconnect-us: value -1 out of range"},
		{args: []string{"sim", "--paths", "6"},
			want: `--paths 6: config default: key "paths": value 6 is not a power of two`},
		{args: []string{"sim", "sweep", "--losses", "0,abc"}, want: `--losses: value "abc"`},
		{args: []string{"sim", "sweep", "--path-counts", "4,5", "--duration-us", "5"},
			want: `sweep point mode spray, 5 paths`},
		{args: []string{"replay"}, want: "replay: want one FILE argument (pcap or pcapng), got 0"},
		{args: []string{"replay", filepath.Join(dir, "missing.pcap")}, want: "no such file"},
		{args: []string{"replay", "--mode", "x", rp}, want: `--mode "x": allowed spray, gbn`},
	} {
		_, err := runApp(t, tc.args...)
		require.ErrorContains(t, err, tc.want)
	}
}

func TestParseConnCounts(t *testing.T) {
	const allowed = " (allowed: connection counts 1..64, comma-separated, each once)"
	tests := []struct {
		name string
		in   string
		want []int
		err  string
	}{
		{name: "one", in: "8", want: []int{8}},
		{name: "several, spaces", in: "8, 16,32 ,64", want: []int{8, 16, 32, 64}},
		{name: "any order, not powers of two", in: "3,1,64", want: []int{3, 1, 64}},
		{name: "zero", in: "8,0", err: `--conn-counts 8,0: value "0" is below 1` + allowed},
		{name: "negative", in: "-8", err: `--conn-counts -8: value "-8" is below 1` + allowed},
		{name: "not an integer", in: "8,16.5", err: `--conn-counts 8,16.5: value "16.5" is not a whole number` + allowed},
		{name: "a word", in: "eight", err: `--conn-counts eight: value "eight" is not a whole number` + allowed},
		{name: "empty entry", in: "8,,16", err: `--conn-counts 8,,16: value "" is not a whole number` + allowed},
		{name: "empty", in: "", err: `--conn-counts : value "" is not a whole number` + allowed},
		{name: "above conns", in: "8,128",
			err: `--conn-counts 8,128: value "128" is above the config's 64 connections` + allowed},
		{name: "duplicate", in: "8,16,8", err: `--conn-counts 8,16,8: value "8" is given twice` + allowed},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := parseConnCounts(tc.in, 64)
			if tc.err != "" {
				var ue *usageError
				require.ErrorAs(t, err, &ue, "a bad --conn-counts is a usage error")
				require.Equal(t, tc.err, ue.msg, "the message names the flag, the value, the fault and the range")
				require.Nil(t, got, "no counts with an error")
				return
			}
			require.NoError(t, err, "valid counts")
			require.Equal(t, tc.want, got, "the counts in the order given")
		})
	}
}

// TestSweepConnCountsUsage: bad --conn-counts, and --conns beside it, exit 2 with one line before any run.
func TestSweepConnCountsUsage(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name string
		args []string
		want string
	}{
		{name: "above the preset's conns", args: []string{"--conn-counts", "8,32"},
			want: `spraynic: --conn-counts 8,32: value "32" is above the config's 16 connections (allowed: ` +
				`connection counts 1..16, comma-separated, each once); see 'spraynic sim sweep --help'`},
		{name: "zero", args: []string{"--conn-counts", "0"}, want: `--conn-counts 0: value "0" is below 1`},
		{name: "duplicate", args: []string{"--conn-counts", "4,4"}, want: `value "4" is given twice`},
		{name: "not an integer", args: []string{"--conn-counts", "4,x"}, want: `value "x" is not a whole number`},
		{name: "above u250's conns", args: []string{"--config", "u250", "--conn-counts", "64,65"},
			want: `value "65" is above the config's 64 connections (allowed: connection counts 1..64`},
		{name: "--conns beside it", args: []string{"--conns", "4", "--conn-counts", "4,8"},
			want: "--conns 4: sim sweep runs each connection count of --conn-counts; use --conn-counts 4"},
		{name: "tail chart format", args: []string{"--tail-plot", filepath.Join(dir, "t.pdf")},
			want: `--tail-plot ` + filepath.Join(dir, "t.pdf") + `: unknown chart format ".pdf"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			args := append([]string{"spraynic", "sim", "sweep", "--duration-us", "5", "--csv", filepath.Join(dir, "s.csv"),
				"--json", "", "--plot", "", "--tail-plot", "", "--conns-plot", ""}, tc.args...)
			require.Equal(t, 2, run(args, &stdout, &stderr), "exit status of a usage error")
			require.Equal(t, 1, strings.Count(stderr.String(), "\n"), "one line: %q", stderr.String())
			require.Contains(t, stderr.String(), tc.want, "the line names the flag, the value and what is allowed")
			require.Empty(t, stdout.String(), "nothing ran")
			_, err := os.Stat(filepath.Join(dir, "s.csv"))
			require.True(t, os.IsNotExist(err), "no CSV written")
		})
	}
}

// TestSweepConnCounts: a sweep over two connection counts writes the CSV with every column and sane values, the
// table, and the three charts; one count writes no connection chart.
func TestSweepConnCounts(t *testing.T) {
	for _, tc := range []struct {
		name   string
		counts string
		conns  []int
	}{
		{name: "two counts", counts: "2,4", conns: []int{2, 4}},
		{name: "one count", counts: "4", conns: []int{4}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			csvPath, connsPath := filepath.Join(dir, "s.csv"), filepath.Join(dir, "conns.svg")
			out, err := runApp(t, "sim", "sweep", "--duration-us", "15", "--losses", "0,0.02", "--path-counts", "4",
				"--conn-counts", tc.counts, "--quiet", "--csv", csvPath, "--plot", filepath.Join(dir, "goodput.svg"),
				"--tail-plot", filepath.Join(dir, "tail.svg"), "--conns-plot", connsPath, "--json", "")
			require.NoError(t, err, "the sweep runs: %s", out)
			require.Contains(t, out, "mode  paths  conns  loss%  goodput%  lossless%  p50_us  p99_us  p99.9_us  "+
				"retx  spurious", "the table's heading")
			b, err := os.ReadFile(csvPath)
			require.NoError(t, err, "the CSV is written")
			require.True(t, strings.HasPrefix(string(b),
				"mode,paths,conns,loss,goodput,p50_us,p99_us,p999_us,retx,spurious\n"), "CSV header, got %q", b)
			pts, err := sweep.ReadCSV(bytes.NewReader(b))
			require.NoError(t, err, "the CSV reads back")
			require.Len(t, pts, 2*len(tc.conns)*2, "2 modes x counts x 2 losses")
			var conns []int
			for _, p := range pts {
				if !slices.Contains(conns, p.Conns) {
					conns = append(conns, p.Conns)
				}
				require.Equal(t, 4, p.Paths, "paths of %+v", p)
				require.True(t, p.Goodput > 0 && p.Goodput <= 1, "goodput in (0, 1]: %+v", p)
				require.True(t, 0 < p.P50US && p.P50US <= p.P99US && p.P99US <= p.P999US, "0 < p50 <= p99 <= p99.9: %+v", p)
				require.LessOrEqual(t, p.Spurious, p.Retx, "spurious retransmissions are retransmissions: %+v", p)
			}
			require.Equal(t, tc.conns, conns, "the swept connection counts, in order")
			for _, f := range []string{"goodput.svg", "tail.svg"} {
				st, err := os.Stat(filepath.Join(dir, f))
				require.NoError(t, err, "%s is written", f)
				require.Positive(t, st.Size(), "%s is not empty", f)
			}
			_, err = os.Stat(connsPath)
			if len(tc.conns) > 1 {
				require.NoError(t, err, "conns.svg is written with more than one count")
				require.Contains(t, out, connsPath, "the written files are named")
			} else {
				require.True(t, os.IsNotExist(err), "no conns.svg with one count: %v", err)
				require.NotContains(t, out, connsPath, "the conns chart is not named as written")
			}
		})
	}
}
