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

// frameBlocks are the RoCEv2 frame blocks outside rtl/manifest.json, each with its files (the top last).
var frameBlocks = map[string][]string{
	"roce_icrc": {"roce_icrc.v"},
	"roce_rx":   {"roce_icrc.v", "roce_rx.v"},
	"roce_tx":   {"roce_icrc.v", "roce_tx.v"},
}

// TestFrameBlocksYosysCheck elaborates each frame block at 64 and 512 bits with yosys and requires what the FPGA flows
// require of a manifest top (docs/fpga.md, "Problems found before they cost a run"): `check -assert` passes (no
// signal with two drivers, no combinational loop, nothing undriven) and the log holds none of the flow's
// problems. Verilator and Icarus simulate a register written by two always blocks as intended; synthesis does
// not.
func TestFrameBlocksYosysCheck(t *testing.T) {
	if _, err := exec.LookPath("yosys"); err != nil {
		t.Skip("yosys not installed (make deps)")
	}
	root, err := tops.Root()
	require.NoError(t, err)
	for top, files := range frameBlocks {
		for _, w := range []int{64, 512} {
			t.Run(top+"/"+strconv.Itoa(w), func(t *testing.T) {
				t.Parallel()
				var paths []string
				for _, f := range files {
					paths = append(paths, filepath.Join(root, "rtl", f))
				}
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
