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
	"github.com/spraynic/spraynic/tops"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// counterV is a tiny top in the project's style, for generator and flow tests.
const counterV = "`resetall\n`timescale 1ns / 1ps\n`default_nettype none\n" + `
module counter #(
    // Counter width; 1..32.
    parameter WIDTH = 8
) (
    input  wire             clk,
    input  wire             rst,
    input  wire             en,
    output wire [WIDTH-1:0] count,
    output wire             wrap
);
reg [WIDTH-1:0] count_reg = {WIDTH{1'b0}};
assign count = count_reg;
assign wrap = &count_reg;
always @(posedge clk) begin
    if (en) begin
        count_reg <= count_reg + {{WIDTH-1{1'b0}}, 1'b1};
    end
    if (rst) begin
        count_reg <= {WIDTH{1'b0}};
    end
end
endmodule
` + "`resetall\n"

// writeRTL makes root/rtl/counter.v and returns root and the top.
func writeRTL(t *testing.T) (string, fpga.Top) {
	t.Helper()
	root := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(root, "rtl"), 0o755))
	f := filepath.Join(root, "rtl", "counter.v")
	require.NoError(t, os.WriteFile(f, []byte(counterV), 0o644))
	return root, fpga.Top{Name: "counter", Files: []string{f}, Params: []config.Param{{Name: "WIDTH", Value: 12}}}
}

func TestParsePorts(t *testing.T) {
	data := []byte(`{"modules":{"$paramod$ab\\counter":{"ports":{
		"clk":{"direction":"input","bits":[2]},"count":{"direction":"output","bits":[3,4,5]},
		"en":{"direction":"input","bits":[6]}}}}}`)
	ports, err := fpga.ParsePorts(data, "counter")
	require.NoError(t, err)
	assert.Equal(t, []fpga.Port{{Name: "clk", Input: true, Width: 1}, {Name: "count", Width: 3},
		{Name: "en", Input: true, Width: 1}}, ports)

	_, err = fpga.ParsePorts([]byte(`{"modules":{"x":{"ports":{"io":{"direction":"inout","bits":[2]}}}}}`), "x")
	assert.ErrorContains(t, err, "port io is inout")
	_, err = fpga.ParsePorts([]byte(`{"modules":{}}`), "x")
	assert.ErrorContains(t, err, "no module x")
}

func TestHarness(t *testing.T) {
	ports := []fpga.Port{{Name: "clk", Input: true, Width: 1}, {Name: "count", Width: 12},
		{Name: "en", Input: true, Width: 1}, {Name: "rst", Input: true, Width: 1}, {Name: "wrap", Width: 1}}
	params := []config.Param{{Name: "WIDTH", Value: 12}}
	tests := []struct {
		name    string
		ports   []fpga.Port
		want    []string
		wantErr string
	}{
		{name: "counter", ports: ports, want: []string{
			"module spraynic_harness (", "reg  [1:0] in_reg", "wire [12:0] out_w;",
			"(* keep_hierarchy *)\ncounter #(\n    .WIDTH(12)\n)\ndut (",
			".clk(clk)", ".count(out_w[11:0])", ".en(in_reg[0:0])", ".rst(in_reg[1:1])", ".wrap(out_w[12:12])",
			"xor1_reg[3] <= ^out_reg[12:12];", "xor2_reg[0] <= ^xor1_reg[3:0];", "assign dout = xor2_reg[0];"}},
		{name: "no clock", ports: ports[1:], wantErr: "no clock port clk"},
		{name: "wide clock", ports: []fpga.Port{{Name: "clk", Input: true, Width: 2}, {Name: "q", Width: 1}},
			wantErr: "clock port clk must be a 1-bit input"},
		{name: "no outputs", ports: []fpga.Port{{Name: "clk", Input: true, Width: 1},
			{Name: "d", Input: true, Width: 1}},
			wantErr: "needs at least one input besides clk and one output"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v, err := fpga.Harness("counter", "clk", tt.ports, params)
			if tt.wantErr != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tt.wantErr)
				return
			}
			require.NoError(t, err)
			for _, w := range tt.want {
				assert.Contains(t, v, w)
			}
		})
	}
}

// TestHarnessCompiles elaborates the generated harness around the counter with Icarus (Verilog-2005).
func TestHarnessCompiles(t *testing.T) {
	if _, err := exec.LookPath("iverilog"); err != nil {
		t.Skip("iverilog not installed (make deps)")
	}
	root, top := writeRTL(t)
	ports := []fpga.Port{{Name: "clk", Input: true, Width: 1}, {Name: "count", Width: 12},
		{Name: "en", Input: true, Width: 1}, {Name: "rst", Input: true, Width: 1}, {Name: "wrap", Width: 1}}
	v, err := fpga.Harness("counter", "clk", ports, top.Params)
	require.NoError(t, err)
	h := filepath.Join(root, "harness.v")
	require.NoError(t, os.WriteFile(h, []byte(v), 0o644))
	out, err := exec.Command("iverilog", "-g2005", "-Wall", "-o", os.DevNull, "-s", fpga.HarnessModule, h,
		top.Files[0]).CombinedOutput()
	require.NoError(t, err, "iverilog: %s", out)
}

func TestVivado(t *testing.T) {
	if _, err := exec.LookPath("tclsh"); err != nil {
		t.Skip("tclsh not installed (make deps-fpga)")
	}
	b, err := fpga.LookupBoard("xcu250")
	require.NoError(t, err)
	root, top := writeRTL(t)
	dir := filepath.Join(root, "build", "fpga", "xcu250", "counter", "vivado")
	files, err := fpga.WriteVivado(dir, b, top, "u250")
	require.NoError(t, err)
	require.Len(t, files, 2)
	tcl, err := os.ReadFile(files[0])
	require.NoError(t, err)
	for _, want := range []string{
		"set part xcu250-figd2104-2L-e", "[file join $script_dir ../../../../../rtl/counter.v]",
		"set generics [list WIDTH=12]", "-mode out_of_context", "not run in this repository's CI",
		"set_property include_dirs [list [file join $script_dir ../../../../../rtl]] [get_filesets sources_1]",
	} {
		assert.Contains(t, strings.ToLower(string(tcl)), strings.ToLower(want))
	}
	xdc, err := os.ReadFile(files[1])
	require.NoError(t, err)
	assert.Contains(t, string(xdc), "create_clock -period 4.000 -name clk [get_ports clk]", "250 MHz clock")
	require.NoError(t, fpga.CheckVivado(context.Background(), dir), "the generated scripts run under the stub")

	// the check catches a source file that is not there, and a command Vivado does not have
	require.NoError(t, os.Remove(top.Files[0]))
	err = fpga.CheckVivado(context.Background(), dir)
	assert.ErrorContains(t, err, "no such file")
	require.NoError(t, os.WriteFile(top.Files[0], []byte(counterV), 0o644))
	require.NoError(t, os.WriteFile(files[1], append(xdc, []byte("set_clock_uncertainty_typo 0.1\n")...), 0o644))
	err = fpga.CheckVivado(context.Background(), dir)
	assert.ErrorContains(t, err, "unknown command \"set_clock_uncertainty_typo\"")
}

func TestCore(t *testing.T) {
	root, top := writeRTL(t)
	core, err := fpga.Core(root, []fpga.CoreTop{{Top: top, Boards: map[string][]config.Param{
		"ice40-hx8k": {{Name: "WIDTH", Value: 4}}, "xcu250": {{Name: "WIDTH", Value: 32}}}}})
	require.NoError(t, err)
	for _, want := range []string{
		"CAPI=2:\n", "name: spraynic:transport:spraynic:0.1.0", "Makefile is the source of truth",
		"  rtl_counter:\n    file_type: verilogSource\n    files:\n      - rtl/counter.v\n",
		"      - rtl/lint.vlt: {file_type: vlt}",
		"  lint_counter:\n", "    toplevel: counter\n", "        mode: lint-only\n",
		"  synth_counter_ice40_hx8k:\n", "    parameters: [WIDTH=4]\n", "        arch: ice40\n",
		"  synth_counter_xcu250:\n", "    parameters: [WIDTH=32]\n", "        part: xcu250-figd2104-2L-e\n",
	} {
		assert.Contains(t, core, want)
	}
	assert.NotContains(t, core, "synth_counter_ecp5_85k", "boards without parameters get no target")
	assert.NotContains(t, core, "\t", "YAML has no tabs")

	_, err = fpga.Core(root, []fpga.CoreTop{{Top: fpga.Top{Name: "x", Files: []string{"/elsewhere/x.v"}}}})
	assert.ErrorContains(t, err, "outside the repository")

	// an `include is listed as an include file of the top's fileset, and one that is missing is an error
	inc := filepath.Join(root, "rtl", "uses_inc.v")
	src := "`include \"regs.vh\"\nmodule uses_inc; endmodule\n"
	require.NoError(t, os.WriteFile(inc, []byte(src), 0o644))
	incTop := fpga.CoreTop{Top: fpga.Top{Name: "uses_inc", Files: []string{inc}}}
	_, err = fpga.Core(root, []fpga.CoreTop{incTop})
	assert.ErrorContains(t, err, "includes \"regs.vh\", which is not beside it")
	require.NoError(t, os.WriteFile(filepath.Join(root, "rtl", "regs.vh"), []byte("localparam A = 1;\n"), 0o644))
	core, err = fpga.Core(root, []fpga.CoreTop{incTop})
	require.NoError(t, err)
	assert.Contains(t, core, "      - rtl/uses_inc.v\n      - rtl/regs.vh: {is_include_file: true}\n")
}

func TestYosysScript(t *testing.T) {
	top := fpga.Top{Name: "rx_reorder", Files: []string{"/r/rtl/ram_sdp.v", "/r/rtl/rx_reorder.v"},
		Params: []config.Param{{Name: "CONNS", Value: 4}, {Name: "WINDOW", Value: 32}}}
	tests := []struct {
		board   string
		harness bool
		want    []string
		notWant []string
	}{
		{board: "ice40-hx8k", harness: true,
			want: []string{"read_verilog -defer /r/rtl/ram_sdp.v /r/rtl/rx_reorder.v /r/harness.v\n",
				"hierarchy -check -top spraynic_harness\n", "synth_ice40 -top spraynic_harness\n",
				"tee -q -o stat.json stat -json\n", "flatten\nwrite_json netlist.json\n"},
			notWant: []string{"chparam"}},
		{board: "xcu250", want: []string{"chparam -set CONNS 4 -set WINDOW 32 rx_reorder\n",
			"synth_xilinx -family xcup -flatten -noiopad -top rx_reorder\n", "flatten\nwrite_json netlist.json\n"}},
		{board: "ecp5-85k", want: []string{"synth_ecp5 -top rx_reorder\n"}},
		{board: "gowin-gw2a55", want: []string{"synth_gowin -noiopads -top rx_reorder\n"}},
	}
	for _, tt := range tests {
		t.Run(tt.board, func(t *testing.T) {
			b, err := fpga.LookupBoard(tt.board)
			require.NoError(t, err)
			sources, synthTop := top.Files, top.Name
			if tt.harness {
				sources, synthTop = append(append([]string(nil), top.Files...), "/r/harness.v"), fpga.HarnessModule
			}
			s := fpga.YosysScript(b, top, sources, synthTop)
			for _, w := range tt.want {
				assert.Contains(t, s, w)
			}
			for _, w := range tt.notWant {
				assert.NotContains(t, s, w)
			}
		})
	}
}

func TestLintRefusesBlanketWidthWaiver(t *testing.T) {
	root, top := writeRTL(t)
	vlt := "`verilator_config\n// hides every truncation\nlint_off -rule WIDTH\n"
	require.NoError(t, os.WriteFile(filepath.Join(root, "rtl", "lint.vlt"), []byte(vlt), 0o644))
	err := fpga.Lint(context.Background(), filepath.Join(root, "rtl"), top, filepath.Join(root, "lint.log"))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "lint.vlt:3: blanket WIDTH waiver")
}

// TestProjectNamedTops: with no --top, yosys runs every top but the ones marked synth_when_named (nic_roce) and
// the Vivado scripts take every top; naming nic_roce selects it for both.
func TestProjectNamedTops(t *testing.T) {
	root, err := tops.Root()
	require.NoError(t, err)
	p, err := fpga.NewProject(root, nil)
	require.NoError(t, err)
	require.NotContains(t, p.Tops, "nic_roce")
	require.Contains(t, p.Tops, "nic_transport")
	require.Equal(t, p.Manifest.Names(), p.Scripts)
	p, err = fpga.NewProject(root, []string{"nic_roce"})
	require.NoError(t, err)
	require.Equal(t, []string{"nic_roce"}, p.Tops)
	require.Equal(t, []string{"nic_roce"}, p.Scripts)
}
