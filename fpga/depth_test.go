package fpga_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/spraynic/spraynic/fpga"
)

// netlist builds a write_json module "m" from cells given as "name type in=bits... out=bits..." lines; bit
// lists are comma-separated ints, an input port name prefixed with '<', an output port with '>'.
func netlist(lines ...string) []byte {
	var cells []string
	for _, l := range lines {
		f := strings.Fields(l)
		var dirs, conns []string
		for _, p := range f[2:] {
			dir := "input"
			if p[0] == '>' {
				dir = "output"
			}
			kv := strings.SplitN(p[1:], "=", 2)
			dirs = append(dirs, `"`+kv[0]+`":"`+dir+`"`)
			conns = append(conns, `"`+kv[0]+`":[`+kv[1]+`]`)
		}
		cells = append(cells, `"`+f[0]+`":{"type":"`+f[1]+`","attributes":{"src":"x.v:1"},"port_directions":{`+
			strings.Join(dirs, ",")+`},"connections":{`+strings.Join(conns, ",")+`}}`)
	}
	return []byte(`{"modules":{"m":{"cells":{` + strings.Join(cells, ",") + `}}}}`)
}

func TestLogicDepth(t *testing.T) {
	cases := []struct {
		name    string
		cells   []string
		levels  int
		mux     int
		lut     int      // LUT and carry levels
		lutPath []string // the LUT walk's path, when the case names it
		wantErr string
	}{
		{name: "two LUTs between flip-flops", levels: 2, lut: 2, cells: []string{
			"f1 FDRE <C=1 <D=2 >Q=3", "l1 LUT2 <I0=3 <I1=4 >O=5", "l2 LUT1 <I0=5 >O=6", "f2 FDRE <C=1 <D=6 >Q=7"}},
		{name: "paths from ports do not count", levels: 1, lut: 1, cells: []string{
			"l1 LUT1 <I0=2 >O=3", "l2 LUT1 <I0=3 >O=4", "l3 LUT2 <I0=4 <I1=9 >O=5", "f1 FDRE <C=1 <D=5 >Q=9"}},
		{name: "paths to ports do not count", levels: 0, cells: []string{
			"f1 FDRE <C=1 <D=2 >Q=3", "l1 LUT1 <I0=3 >O=4", "l2 LUT1 <I0=4 >O=5"}},
		{name: "distributed RAM read is a level, its write ends a path", levels: 3, lut: 3, cells: []string{
			"f1 FDRE <C=1 <D=2 >Q=3", "r1 RAM64X1D <A0=8 <DPRA0=3 <D=4 <WE=5 <WCLK=1 >DPO=6 >SPO=7",
			"l1 LUT1 <I0=6 >O=10", "l2 LUT1 <I0=10 >O=11", "f2 FDRE <C=1 <D=11 >Q=12",
			"l3 LUT1 <I0=3 >O=4"}},
		{name: "carry chain counts each cell", levels: 3, lut: 3, cells: []string{
			"f1 FDRE <C=1 <D=2 >Q=3", "c1 CARRY4 <CI=3 <S=9 >CO=4", "c2 CARRY4 <CI=4 <S=9 >CO=5",
			"c3 CARRY4 <CI=5 <S=9 >O=6", "f2 FDRE <C=1 <D=6 >Q=7"}},
		{name: "wide-mux cells are levels, counted apart", levels: 3, mux: 2, lut: 1, cells: []string{
			"f1 FDRE <C=1 <D=2 >Q=3", "l1 LUT6 <I0=3 >O=4", "m1 MUXF7 <I0=4 <I1=4 <S=3 >O=5",
			"m2 MUXF8 <I0=5 <I1=5 <S=3 >O=6", "f2 FDRE <C=1 <D=6 >Q=7"}},
		{name: "block RAM is a register", levels: 1, lut: 1, cells: []string{
			"b1 RAMB36E2 <CLKARDCLK=1 <ADDRARDADDR=3 >DOUTADOUT=4", "l1 LUT1 <I0=4 >O=3"}},
		{name: "the most LUT levels are on another path than the most cells", levels: 4, mux: 3, lut: 2, cells: []string{
			"f1 FDRE <C=1 <D=2 >Q=3", "l1 LUT6 <I0=3 >O=4", "m1 MUXF7 <I0=4 <I1=4 <S=3 >O=5",
			"m2 MUXF8 <I0=5 <I1=5 <S=3 >O=6", "m3 MUXF9 <I0=6 <I1=6 <S=3 >O=7", "f2 FDRE <C=1 <D=7 >Q=8",
			"l2 LUT2 <I0=3 <I1=3 >O=9", "l3 LUT2 <I0=9 <I1=3 >O=10", "f3 FDRE <C=1 <D=10 >Q=11"},
			lutPath: []string{"LUT2 (x.v:1)", "LUT2 (x.v:1)"}},
		{name: "combinational loop", wantErr: "combinational loop", cells: []string{
			"f1 FDRE <C=1 <D=5 >Q=3", "l1 LUT2 <I0=3 <I1=5 >O=4", "l2 LUT1 <I0=4 >O=5"}},
		{name: "unknown cell", wantErr: "cell type FOO is not known for xilinx", cells: []string{"x FOO <A=1 >B=2"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d, err := fpga.LogicDepth(fpga.Xilinx, netlist(c.cells...), "m")
			if c.wantErr != "" {
				require.ErrorContains(t, err, c.wantErr)
				return
			}
			require.NoError(t, err)
			require.Equal(t, c.levels, d.Levels, "path %v", d.Path)
			require.Equal(t, c.mux, d.WideMux, "wide-mux levels of %v", d.Path)
			require.Len(t, d.Path, c.levels)
			require.Equal(t, c.lut, d.LUTLevels, "LUT levels of %v", d.LUTPath)
			require.GreaterOrEqual(t, len(d.LUTPath), c.lut)
			if c.lutPath != nil {
				require.Equal(t, c.lutPath, d.LUTPath)
			}
		})
	}
	_, err := fpga.LogicDepth(fpga.Xilinx, netlist("f1 FDRE <C=1 <D=2 >Q=3"), "other")
	require.ErrorContains(t, err, "module other is not in the netlist")
}

// TestLogicDepthYosys synthesises testdata/depth.v for every family and walks yosys's netlist: on Xilinx the
// add is a LUT and three carry cells between the flip-flops (4 levels); the RAM read leaves through a port.
func TestLogicDepthYosys(t *testing.T) {
	if _, err := exec.LookPath("yosys"); err != nil {
		t.Skip("yosys not installed (make deps)")
	}
	src, err := filepath.Abs("testdata/depth.v")
	require.NoError(t, err)
	synth := map[fpga.Family]string{fpga.Xilinx: "synth_xilinx -family xcup -flatten -noiopad",
		fpga.ECP5: "synth_ecp5", fpga.Gowin: "synth_gowin -noiopads", fpga.ICE40: "synth_ice40"}
	for f, cmd := range synth {
		t.Run(f.String(), func(t *testing.T) {
			dir := t.TempDir()
			out := filepath.Join(dir, "n.json")
			y := exec.Command("yosys", "-q", "-p", "read_verilog "+src+"; "+cmd+" -top depth; write_json "+out)
			b, err := y.CombinedOutput()
			require.NoError(t, err, "%s", b)
			data, err := os.ReadFile(out)
			require.NoError(t, err)
			d, err := fpga.LogicDepth(f, data, "depth")
			require.NoError(t, err)
			t.Logf("%s: %d levels: %v", f, d.Levels, d.Path)
			if f == fpga.Xilinx {
				require.Equal(t, 4, d.Levels, "LUT + 3 carry cells: %v", d.Path)
				require.Zero(t, d.WideMux, "no wide mux on the add's path")
				require.Equal(t, 4, d.LUTLevels, "LUT + 3 carry cells: %v", d.LUTPath)
			}
			require.Positive(t, d.Levels)
			require.Contains(t, strings.Join(d.Path, " "), "depth.v:17", "the path names the RTL line of the add")
		})
	}
}
