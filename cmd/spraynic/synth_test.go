package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/urfave/cli/v2"
)

// runSynthApp runs an app holding only the FPGA commands (main.go registers them in the real app).
func runSynthApp(args ...string) (string, error) {
	var out bytes.Buffer
	a := &cli.App{Name: "spraynic", Commands: []*cli.Command{synthCommand(), fpgaBaselineCommand()},
		Writer: &out, ErrWriter: &out}
	err := a.Run(append([]string{"spraynic"}, args...))
	return out.String(), err
}

// TestSynthArgumentErrors covers the refusals that come before any tool runs.
func TestSynthArgumentErrors(t *testing.T) {
	tests := []struct {
		name    string
		args    []string
		wantErr string
	}{
		{name: "unknown board", args: []string{"synth", "--board", "arty-a7"},
			wantErr: `unknown board "arty-a7" (allowed: ice40-hx8k, ecp5-85k, gowin-gw2a55, xcu250)`},
		{name: "no board", args: []string{"synth"},
			wantErr: "name a board with --board (allowed: ice40-hx8k, ecp5-85k, gowin-gw2a55, xcu250), " +
				"or --all, or --check"},
		{name: "unknown top", args: []string{"synth", "--board", "ice40-hx8k", "--top", "nope"},
			wantErr: `--top nope: top "nope" is not in rtl/manifest.json`},
		{name: "check with another config", args: []string{"synth", "--check", "--config", "default"},
			wantErr: "drop --config"},
		{name: "unknown config", args: []string{"synth", "--board", "ice40-hx8k", "--config", "nope"},
			wantErr: `board ice40-hx8k: unknown config "nope"`},
		{name: "partial baseline", args: []string{"fpga-baseline", "--top", "rx_reorder"},
			wantErr: "flag provided but not defined: -top"},
		{name: "check of one top", args: []string{"synth", "--check", "--top", "rx_reorder"},
			wantErr: "synth --check compares every top that has a baseline with fpga/baseline.json: drop --top " +
				"(one top alone: --board)"},
		{name: "no vivado scripts for iCE40", args: []string{"synth", "--vivado-only", "--board", "ice40-hx8k"},
			wantErr: "no Vivado scripts for ice40-hx8k (only for xcu250)"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := runSynthApp(tc.args...)
			require.ErrorContains(t, err, tc.wantErr)
		})
	}
}

// TestSynthVivadoOnly writes the Vivado scripts of every top and checks them with tclsh, without yosys: the
// frame-level top nic_roce, which yosys runs only when named, has them too, with the 250 MHz clock.
func TestSynthVivadoOnly(t *testing.T) {
	if _, err := exec.LookPath("tclsh"); err != nil {
		t.Skip("tclsh not installed (make deps-fpga)")
	}
	out := t.TempDir()
	stdout, err := runSynthApp("synth", "--vivado-only", "--out", out)
	require.NoError(t, err)
	for _, top := range []string{"rx_reorder", "nic_transport", "nic_roce"} {
		require.Contains(t, stdout,
			"vivado scripts for "+top+" on xcu250 (config u250), checked with tclsh (Vivado not run)")
		require.FileExists(t, filepath.Join(out, "xcu250", top, "vivado", "project.tcl"))
	}
	xdc, err := os.ReadFile(filepath.Join(out, "xcu250", "nic_roce", "vivado", "constraints.xdc"))
	require.NoError(t, err)
	require.Contains(t, string(xdc), "create_clock -period 4.000 -name clk [get_ports clk]")
	tcl, err := os.ReadFile(filepath.Join(out, "xcu250", "nic_roce", "vivado", "project.tcl"))
	require.NoError(t, err)
	require.Contains(t, string(tcl), "set top nic_roce")
	require.Contains(t, string(tcl), "DATA_WIDTH=512")
}
