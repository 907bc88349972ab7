package fpga_test

import (
	"path/filepath"
	"testing"

	"github.com/spraynic/spraynic/config"
	"github.com/spraynic/spraynic/fpga"
	"github.com/spraynic/spraynic/tops"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestLookupBoard(t *testing.T) {
	tests := []struct {
		name    string
		board   string
		family  fpga.Family
		wantErr string
	}{
		{name: "ice40", board: "ice40-hx8k", family: fpga.ICE40},
		{name: "ultrascale+", board: "xcu250", family: fpga.Xilinx},
		{name: "ecp5", board: "ecp5-85k", family: fpga.ECP5},
		{name: "gowin", board: "gowin-gw2a55", family: fpga.Gowin},
		{name: "unknown", board: "de10-nano",
			wantErr: `unknown board "de10-nano" (allowed: ice40-hx8k, ecp5-85k, gowin-gw2a55, xcu250)`},
		{name: "empty", board: "", wantErr: `unknown board "" (allowed: ice40-hx8k, ecp5-85k, gowin-gw2a55, xcu250)`},
		{name: "case matters", board: "ICE40-HX8K", wantErr: "allowed: ice40-hx8k"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, err := fpga.LookupBoard(tt.board)
			if tt.wantErr != "" {
				require.Error(t, err, "board %q should be refused", tt.board)
				assert.Contains(t, err.Error(), tt.wantErr, "the error should name the allowed boards")
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.family, b.Family, "family of %s", tt.board)
		})
	}
}

func TestBoardsAreConsistent(t *testing.T) {
	seen := map[string]bool{}
	for _, b := range fpga.Boards {
		t.Run(b.Name, func(t *testing.T) {
			assert.False(t, seen[b.Name], "board names are unique")
			seen[b.Name] = true
			_, err := config.Preset(b.Config)
			assert.NoError(t, err, "the board's config must be a preset")
			assert.Positive(t, b.Capacity.LUT, "device LUTs")
			assert.Positive(t, b.Capacity.FF, "device FFs")
			assert.Positive(t, b.TargetMHz, "target clock")
			assert.NotEqual(t, "Family(0)", b.Family.String(), "family set")
			if b.PnR {
				assert.Equal(t, fpga.ICE40, b.Family, "only iCE40 has place-and-route here")
				assert.NotEmpty(t, b.Package, "nextpnr package")
				assert.NotEmpty(t, b.NextpnrDevice, "nextpnr device")
			}
		})
	}
	assert.Equal(t, []string{"ice40-hx8k", "ecp5-85k", "gowin-gw2a55", "xcu250"}, fpga.BoardNames())
	for _, b := range fpga.CheckBoards() {
		assert.True(t, b.Check || len(b.CheckTops) > 0, "CheckBoards returns only checked boards")
	}
	assert.Equal(t, []string{"ice40-hx8k", "ecp5-85k", "gowin-gw2a55", "xcu250"}, fpga.Names(fpga.CheckBoards()))
}

// TestBoardChecks: a Check board checks every top, the others only their CheckTops, each a top of the manifest.
func TestBoardChecks(t *testing.T) {
	root, err := tops.Root()
	require.NoError(t, err)
	m, err := tops.LoadManifest(root)
	require.NoError(t, err)
	for _, b := range fpga.Boards {
		for _, top := range b.CheckTops {
			assert.Contains(t, m.SynthNames(), top, "%s: CheckTops names a top that synth --check runs", b.Name)
		}
	}
	ice40, err := fpga.LookupBoard("ice40-hx8k")
	require.NoError(t, err)
	assert.True(t, ice40.Checks("retx"))
	u250, err := fpga.LookupBoard("xcu250")
	require.NoError(t, err)
	assert.False(t, u250.Check, "xcu250 checks some tops only")
	assert.True(t, u250.Checks("roce_rx"))
	assert.True(t, u250.Checks("roce_tx"))
	assert.False(t, u250.Checks("retx"), "xcu250's retx takes minutes: not checked")
	assert.False(t, u250.Checks("nic_roce"))
	assert.Equal(t, "ice40-hx8k, ecp5-85k, gowin-gw2a55, xcu250 (roce_rx, roce_tx)", fpga.CheckScope())
}

func TestFamilyString(t *testing.T) {
	tests := []struct {
		name string
		f    fpga.Family
		want string
	}{
		{name: "ice40", f: fpga.ICE40, want: "ice40"},
		{name: "xilinx", f: fpga.Xilinx, want: "xilinx"},
		{name: "ecp5", f: fpga.ECP5, want: "ecp5"},
		{name: "gowin", f: fpga.Gowin, want: "gowin"},
		{name: "zero value", f: fpga.Family(0), want: "Family(0)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, tt.f.String())
		})
	}
}

// TestBaselineMatchesCheck: fpga/baseline.json has exactly one entry per job of the check (board, top, config and
// parameter hash), so `synth --check` finds every entry it compares and leaves none over.
func TestBaselineMatchesCheck(t *testing.T) {
	root, err := tops.Root()
	require.NoError(t, err)
	p, err := fpga.NewProject(root, nil)
	require.NoError(t, err)
	jobs, err := p.CheckJobs(fpga.CheckBoards())
	require.NoError(t, err)
	var want []string
	for _, j := range jobs {
		want = append(want, j.Board.Name+" "+j.Top.Name+" "+j.Config.Name+" "+fpga.ParamsHash(j.Top.Params))
	}
	base, err := fpga.ReadBaseline(filepath.Join(root, fpga.BaselineFile))
	require.NoError(t, err)
	var have []string
	for _, e := range base.Entries {
		have = append(have, e.Board+" "+e.Top+" "+e.Config+" "+e.ParamsHash)
	}
	assert.ElementsMatch(t, want, have, "baseline entries against the check's jobs (`make fpga-baseline` records them)")
}

// TestCheckJobsRefusesBoardWithoutChecks: a board that checks no top is an error, not a check of nothing.
func TestCheckJobsRefusesBoardWithoutChecks(t *testing.T) {
	root, err := tops.Root()
	require.NoError(t, err)
	p, err := fpga.NewProject(root, nil)
	require.NoError(t, err)
	u250, err := fpga.LookupBoard("xcu250")
	require.NoError(t, err)
	u250.CheckTops = nil
	_, err = p.CheckJobs([]fpga.Board{u250})
	require.EqualError(t, err, "board xcu250: the baseline check covers none of its tops (it covers "+
		fpga.CheckScope()+")")
	u250.CheckTops = []string{"roce_tx"}
	jobs, err := p.CheckJobs([]fpga.Board{u250})
	require.NoError(t, err)
	require.Len(t, jobs, 1)
	assert.Equal(t, "roce_tx", jobs[0].Top.Name)
}
