package fpga_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spraynic/spraynic/config"
	"github.com/spraynic/spraynic/fpga"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// needTools skips the test when a tool of the flow is missing.
func needTools(t *testing.T, tools ...string) {
	t.Helper()
	for _, tool := range tools {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s not installed (make deps-fpga)", tool)
		}
	}
}

// runOne runs one job of the flow on a top written into root/rtl.
func runOne(t *testing.T, root string, board string, top fpga.Top, force bool) fpga.Result {
	t.Helper()
	b, err := fpga.LookupBoard(board)
	require.NoError(t, err)
	cfg, err := config.Preset(b.Config)
	require.NoError(t, err)
	o := fpga.Options{Root: root, OutDir: filepath.Join(root, "build", "fpga"), Force: force}
	res := fpga.RunJobs(context.Background(), o, []fpga.Job{{Board: b, Top: top, Config: cfg}}, 1)
	require.Len(t, res, 1)
	return res[0]
}

// TestFlowICE40 runs the whole iCE40 flow (lint, harness, yosys, nextpnr, icepack) on a small counter.
func TestFlowICE40(t *testing.T) {
	needTools(t, "verilator", "yosys", "nextpnr-ice40", "icepack")
	root, top := writeRTL(t)
	r := runOne(t, root, "ice40-hx8k", top, false)
	require.NoError(t, r.Err)
	assert.False(t, r.Cached, "first run")
	rep := r.Report
	assert.Equal(t, "counter", rep.Top)
	assert.Equal(t, 12, rep.Config.Params["WIDTH"], "parameters applied")
	assert.Equal(t, 12, rep.Resources.FF, "one flip-flop per counter bit, none of the harness")
	assert.Positive(t, rep.Resources.LUT, "LUTs")
	require.NotNil(t, rep.PnR, "place-and-route ran")
	assert.Greater(t, rep.PnR.FmaxMHz, 50.0, "a 12-bit counter is fast on iCE40")
	assert.Equal(t, 3, rep.PnR.Utilization["SB_IO"].Used, "three pins: clk, din, dout")
	assert.NotEmpty(t, rep.PnR.CriticalPath.From, "critical path named")
	assert.FileExists(t, filepath.Join(r.Dir, "design.bin"), "bitstream")
	assert.Contains(t, rep.Tools["nextpnr"], "nextpnr-ice40")
	assert.True(t, rep.Fits, "a counter fits the HX8K")
	assert.Empty(t, rep.OverDevice)

	onDisk, err := fpga.ReadReport(r.Dir)
	require.NoError(t, err)
	assert.Equal(t, rep.Resources, onDisk.Resources, "report.json holds the resources")
	assert.Contains(t, fpga.Summary(rep, "report.json"), "Fmax", "summary shows the Fmax")

	again := runOne(t, root, "ice40-hx8k", top, false)
	require.NoError(t, again.Err)
	assert.True(t, again.Cached, "same inputs: the report is reused")

	require.NoError(t,
		os.WriteFile(top.Files[0], []byte(strings.Replace(counterV, "&count_reg", "|count_reg", 1)), 0o644))
	changed := runOne(t, root, "ice40-hx8k", top, false)
	require.NoError(t, changed.Err)
	assert.False(t, changed.Cached, "changed source: the flow runs again")
}

// TestFlowDoesNotFit runs the iCE40 flow on a board too small for the counter: a reported result, not an error,
// with place-and-route skipped.
func TestFlowDoesNotFit(t *testing.T) {
	needTools(t, "verilator", "yosys")
	root, top := writeRTL(t)
	b, err := fpga.LookupBoard("ice40-hx8k")
	require.NoError(t, err)
	b.Capacity = fpga.Resources{LUT: 7680, FF: 8, BRAM: 32} // the counter has 12 flip-flops
	cfg, err := config.Preset(b.Config)
	require.NoError(t, err)
	res := fpga.RunJobs(context.Background(), fpga.Options{Root: root, OutDir: filepath.Join(root, "build", "fpga")},
		[]fpga.Job{{Board: b, Top: top, Config: cfg}}, 1)
	require.Len(t, res, 1)
	r := res[0]
	require.NoError(t, r.Err, "not fitting is a result")
	assert.False(t, r.Report.Fits)
	assert.Equal(t, []fpga.Overage{{Kind: "ff", Used: 12, Available: 8, Excess: 4, Percent: 150}}, r.Report.OverDevice)
	assert.Nil(t, r.Report.PnR, "no place-and-route")
	assert.NoFileExists(t, filepath.Join(r.Dir, "pnr.log"), "nextpnr did not run")
	assert.NoFileExists(t, filepath.Join(r.Dir, "design.bin"), "icepack did not run")
	onDisk, err := fpga.ReadReport(r.Dir)
	require.NoError(t, err)
	assert.Equal(t, r.Report.OverDevice, onDisk.OverDevice, "report.json says by how much")
	s := fpga.Summary(r.Report, "report.json")
	assert.Contains(t, s, "DOES NOT FIT iCE40HX8K-CT256: ff 150.00% of the device")
	assert.Contains(t, s, "place-and-route skipped")
}

// TestFlowFailures checks that problems stop the flow before they cost a run, with a message naming them.
func TestFlowFailures(t *testing.T) {
	needTools(t, "verilator", "yosys")
	tests := []struct {
		name    string
		from    string
		to      string
		wantErr []string
	}{
		{name: "width truncation is a lint error", from: "assign wrap = &count_reg;", to: "assign wrap = count_reg;",
			wantErr: []string{"lint: verilator --lint-only -Wall counter failed", "WIDTH"}},
		{name: "a latch waived for Verilator is still refused by the yosys check",
			from: "assign wrap = &count_reg;",
			to: "reg wrap_l;\nassign wrap = wrap_l;\n/* verilator lint_off LATCH */\n" +
				"always @* begin\n    if (en) begin\n        wrap_l = &count_reg;\n    end\nend\n" +
				"/* verilator lint_on LATCH */",
			wantErr: []string{"yosys found problems", "latch: latch inferred for counter.wrap_l"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root, top := writeRTL(t)
			src := strings.Replace(counterV, tt.from, tt.to, 1)
			require.NotEqual(t, counterV, src, "the test edits the source")
			require.NoError(t, os.WriteFile(top.Files[0], []byte(src), 0o644))
			r := runOne(t, root, "ecp5-85k", top, true)
			require.Error(t, r.Err)
			for _, w := range tt.wantErr {
				assert.Contains(t, r.Err.Error(), w)
			}
		})
	}
}
