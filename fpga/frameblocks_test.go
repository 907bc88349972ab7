package fpga_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/spraynic/spraynic/fpga"
	"github.com/spraynic/spraynic/tops"
)

// frameBlocks are the RoCEv2 frame blocks with their files (the top last): roce_icrc alone (not a top), roce_rx
// and roce_tx as rtl/manifest.json lists them.
func frameBlocks(t *testing.T, root string) map[string][]string {
	blocks := map[string][]string{"roce_icrc": {filepath.Join(root, "rtl", "roce_icrc.v")}}
	for _, top := range []string{"roce_rx", "roce_tx"} {
		srcs, err := tops.Sources(root, top)
		require.NoError(t, err)
		blocks[top] = srcs
	}
	return blocks
}

// TestFrameBlocksYosysCheck elaborates each frame block at 64 and 512 bits with yosys and requires what the FPGA flows
// require of a manifest top (docs/fpga.md, "Problems found before they cost a run"): `check -assert` passes (no
// signal with two drivers, no combinational loop, nothing undriven) and the log holds none of the flow's
// problems. The flows run the tops at their presets' widths (64 and 256 bits); this adds 512 and the ICRC engine
// alone. Verilator and Icarus simulate a register written by two always blocks as intended; synthesis does not.
func TestFrameBlocksYosysCheck(t *testing.T) {
	if _, err := exec.LookPath("yosys"); err != nil {
		t.Skip("yosys not installed (make deps)")
	}
	root, err := tops.Root()
	require.NoError(t, err)
	for top, paths := range frameBlocks(t, root) {
		for _, w := range []int{64, 512} {
			t.Run(top+"/"+strconv.Itoa(w), func(t *testing.T) {
				t.Parallel()
				log := filepath.Join(t.TempDir(), "yosys.log")
				script := "read_verilog -defer"
				for _, p := range paths {
					script += " " + p
				}
				script += "; chparam -set DATA_WIDTH " + strconv.Itoa(w) + " " + top +
					"; hierarchy -check -top " + top + "; log " + fpga.SynthMarker + "; proc; opt_clean; check -assert"
				out, err := exec.Command("yosys", "-q", "-l", log, "-p", script).CombinedOutput()
				require.NoError(t, err, "yosys check of %s at %d bits:\n%s", top, w, out)
				data, err := os.ReadFile(log)
				require.NoError(t, err)
				require.Empty(t, fpga.ParseYosysLog(data).Problems, "yosys log problems of %s at %d bits", top, w)
			})
		}
	}
}
