package fpga

import (
	"fmt"
	"strings"
)

// Family is an FPGA family: it decides the yosys synthesis command and how cells are counted as resources.
type Family int

// The families. The zero value is invalid.
const (
	// ICE40 is Lattice iCE40 (synth_ice40, nextpnr-ice40).
	ICE40 Family = iota + 1
	// Xilinx is AMD/Xilinx UltraScale+ (synth_xilinx -family xcup).
	Xilinx
	// ECP5 is Lattice ECP5 (synth_ecp5).
	ECP5
	// Gowin is Gowin GW1N/GW2A (synth_gowin).
	Gowin
)

// String returns the family's short name.
func (f Family) String() string {
	switch f {
	case ICE40:
		return "ice40"
	case Xilinx:
		return "xilinx"
	case ECP5:
		return "ecp5"
	case Gowin:
		return "gowin"
	default:
		return fmt.Sprintf("Family(%d)", int(f))
	}
}

// Board is one synthesis target: a device, the config preset it is built with and the flow steps it runs.
type Board struct {
	// Name is what --board and BOARD= take.
	Name string
	// Family selects the yosys command and the cell classification.
	Family Family
	// Device is the part the numbers refer to.
	Device string
	// Config is the preset of config/presets.json this board is built with.
	Config string
	// Capacity holds the device's totals, for the percentages.
	Capacity Resources
	// TargetMHz is the clock the place-and-route (or the Vivado constraints) aim at.
	TargetMHz float64
	// PnR is true when the board runs nextpnr-ice40 and icepack after yosys (real Fmax and utilisation).
	PnR bool
	// NextpnrDevice is the nextpnr-ice40 device option without its dashes ("hx8k"; PnR boards only).
	NextpnrDevice string
	// Package is the nextpnr device package (PnR boards only).
	Package string
	// Seed is the fixed nextpnr placer seed (PnR boards only).
	Seed int
	// Check is true when `synth --check` and the baseline cover this board, every top.
	Check bool
	// CheckTops are the tops `synth --check` and the baseline cover on a board whose Check is false: the blocks
	// whose logic depth at this board's preset is a target and whose jobs take minutes, not an hour.
	CheckTops []string
	// Vivado is true when the flow also writes a Vivado project script and constraints for this part.
	Vivado bool
}

// Boards lists every board, in the order synth-all runs them.
var Boards = []Board{
	{
		Name: "ice40-hx8k", Family: ICE40, Device: "iCE40HX8K-CT256", Config: "ice40",
		// 7680 logic cells (LUT4 + FF each), 32 EBR of 4 kbit, no DSP.
		Capacity:  Resources{LUT: 7680, FF: 7680, BRAM: 32},
		TargetMHz: 100, PnR: true, NextpnrDevice: "hx8k", Package: "ct256", Seed: 1, Check: true,
	},
	{
		Name: "ecp5-85k", Family: ECP5, Device: "LFE5U-85F", Config: "default",
		// 83640 LUT4 and FF, 208 DP16KD (18 kbit), 156 MULT18X18D.
		Capacity:  Resources{LUT: 83640, FF: 83640, BRAM: 208, DSP: 156},
		TargetMHz: 100, Check: true,
	},
	{
		Name: "gowin-gw2a55", Family: Gowin, Device: "GW2A-LV55", Config: "default",
		// 54720 LUT4, 41040 FF, 140 BSRAM (18 kbit), 40 MULT18X18.
		Capacity:  Resources{LUT: 54720, FF: 41040, BRAM: 140, DSP: 40},
		TargetMHz: 100, Check: true,
	},
	{
		Name: "xcu250", Family: Xilinx, Device: "xcu250-figd2104-2L-e", Config: "u250",
		// Alveo U250: 1,728,000 LUT, 3,456,000 FF, 2688 RAMB36, 1280 URAM288, 12288 DSP48E2.
		Capacity:  Resources{LUT: 1728000, FF: 3456000, BRAM: 2688, URAM: 1280, DSP: 12288},
		TargetMHz: 250, Vivado: true, CheckTops: []string{"roce_rx", "roce_tx"},
	},
}

// BoardNames lists the board names in the order of Boards.
func BoardNames() []string {
	names := make([]string, 0, len(Boards))
	for _, b := range Boards {
		names = append(names, b.Name)
	}
	return names
}

// LookupBoard returns the named board; the error names the allowed boards.
func LookupBoard(name string) (Board, error) {
	for _, b := range Boards {
		if b.Name == name {
			return b, nil
		}
	}
	return Board{}, fmt.Errorf("unknown board %q (allowed: %s)", name, strings.Join(BoardNames(), ", "))
}

// CheckBoards lists the boards covered by the baseline check: every top (Check) or some (CheckTops).
func CheckBoards() []Board {
	var bs []Board
	for _, b := range Boards {
		if b.Check || len(b.CheckTops) > 0 {
			bs = append(bs, b)
		}
	}
	return bs
}

// Checks reports whether the baseline check covers top on b.
func (b Board) Checks(top string) bool {
	if b.Check {
		return true
	}
	for _, t := range b.CheckTops {
		if t == top {
			return true
		}
	}
	return false
}

// CheckScope names what the baseline check covers, for help texts: each check board, with its tops when it checks
// only some.
func CheckScope() string {
	var parts []string
	for _, b := range CheckBoards() {
		if b.Check {
			parts = append(parts, b.Name)
			continue
		}
		parts = append(parts, b.Name+" ("+strings.Join(b.CheckTops, ", ")+")")
	}
	return strings.Join(parts, ", ")
}
