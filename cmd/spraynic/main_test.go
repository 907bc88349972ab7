package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

func runApp(t *testing.T, args ...string) (string, error) {
	var out bytes.Buffer
	a := app()
	a.Writer = &out
	a.ErrWriter = &out
	err := a.Run(append([]string{"spraynic"}, args...))
	return out.String(), err
}

func TestConfigCommands(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.json")
	require.NoError(
		t,
		os.WriteFile(bad, []byte(`{"conns": 16, "window": 48, "paths": 8, "sack_bits": 64, "psn_width": 24, `+
			`"pseq_width": 16, "handle_width": 16, "ack_every": 4, "ack_fifo_depth": 16, "tick_cycles": 256, `+
			`"cwnd_init": 16, "cwnd_max": 64, "ai_16ths": 2, "fail_k": 3, "holdoff_ticks": 40, "rto_ticks": 8, `+
			`"rto_max_ticks": 64, "max_retries": 7, "gbn": 0, "qpn_base": 256, "ack_req_ticks": 1, `+
			`"early_cycles": 950, "data_width": 256, "mtu": 4096}`), 0o644),
	)
	tests := []struct {
		name    string
		args    []string
		want    string
		wantErr string
	}{
		{name: "show default", args: []string{"config", "show", "default"}, want: `"window": 64`},
		{name: "params verilator", args: []string{"config", "params", "ice40"}, want: "-GCONNS=4 -GWINDOW=32"},
		{name: "params yosys", args: []string{"config", "params", "--format", "yosys", "u250"}, want: "-set CONNS 64"},
		{
			name: "params of the frame-level top",
			args: []string{"config", "params", "--format", "yosys", "--top", "nic_roce", "u250"},
			want: "-set ACK_REQ_TICKS 1 -set EARLY_CYCLES 1450 -set DATA_WIDTH 512 -set MTU 4096\n",
		},
		{
			name: "params of a module outside the manifest",
			args: []string{"config", "params", "--top", "roce_icrc", "u250"},
			want: "-GDATA_WIDTH=512\n",
		},
		{
			name: "params as a Verilog instance's parameter list",
			args: []string{"config", "params", "--format", "verilog", "--top", "nic_roce", "u250"},
			want: ".EARLY_CYCLES(1450), .DATA_WIDTH(512), .MTU(4096))\n",
		},
		{
			name:    "params bad format",
			args:    []string{"config", "params", "--format", "vivado", "u250"},
			wantErr: `--format "vivado": allowed verilator, yosys, verilog`,
		},
		{name: "list", args: []string{"config", "list"}, want: "default\nice40\nu250\n"},
		{
			name:    "check bad file",
			args:    []string{"config", "check", bad},
			wantErr: `key "window": value 48 is not a power of two`,
		},
		{
			name:    "check missing file",
			args:    []string{"config", "check", filepath.Join(dir, "nope.json")},
			wantErr: "no such file",
		},
		{name: "show unknown preset", args: []string{"config", "show", "nope"}, wantErr: `unknown config "nope"`},
		{name: "run unknown test", args: []string{"run", "--test", "nope"}, wantErr: `unknown test "nope"`},
		{
			name:    "regress unknown suite",
			args:    []string{"regress", "--suite", "nope"},
			wantErr: `--suite "nope": unknown`,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out, err := runApp(t, tc.args...)
			if tc.wantErr != "" {
				require.ErrorContains(t, err, tc.wantErr)
				return
			}
			require.NoError(t, err)
			require.Contains(t, out, tc.want)
		})
	}
}

func TestRunGoldenOnly(t *testing.T) {
	out, err := runApp(t, "run", "--test", "rx_dir_window_edge", "--golden", "--seed", "4")
	require.NoError(t, err)
	require.Contains(t, out, "PASS rx_dir_window_edge config=default seed=4")
}
