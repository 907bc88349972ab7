package fpga_test

import (
	"os"
	"testing"

	"github.com/spraynic/spraynic/fpga"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestClassify(t *testing.T) {
	tests := []struct {
		name      string
		family    fpga.Family
		cells     map[string]int
		want      fpga.Resources
		uncounted []string
		wantErr   string
	}{
		{
			name: "ice40 rx_reorder (yosys 0.23, config ice40)", family: fpga.ICE40,
			cells: map[string]int{"SB_CARRY": 322, "SB_DFF": 49, "SB_DFFE": 763, "SB_DFFESR": 301, "SB_DFFESS": 1,
				"SB_DFFSR": 50, "SB_LUT4": 2101, "SB_RAM40_4K": 5},
			want: fpga.Resources{LUT: 2101, FF: 1164, Carry: 322, BRAM: 5},
		},
		{
			name: "xilinx u250: LUTRAM in LUTs, RAMB18 is half a RAMB36", family: fpga.Xilinx,
			cells: map[string]int{"LUT1": 10, "LUT6": 100, "INV": 3, "FDRE": 50, "FDSE": 1, "RAM32M16": 2, "SRLC32E": 3,
				"RAMB36E2": 4, "RAMB18E2": 3, "URAM288": 1, "DSP48E2": 2, "CARRY8": 5, "MUXF7": 9, "BUFG": 1},
			want:      fpga.Resources{LUT: 113, LUTRAM: 19, FF: 51, Carry: 5, BRAM: 5.5, URAM: 1, DSP: 2},
			uncounted: []string{"BUFG", "MUXF7"},
		},
		{
			name: "ecp5: a CCU2C is two LUT4s", family: fpga.ECP5,
			cells: map[string]int{"LUT4": 8440, "CCU2C": 341, "TRELLIS_FF": 2142, "TRELLIS_DPR16X4": 28,
				"DP16KD": 6, "PDPW16KD": 1, "MULT18X18D": 2, "PFUMX": 2862, "L6MUX21": 1538},
			want:      fpga.Resources{LUT: 9122, LUTRAM: 112, FF: 2142, Carry: 341, BRAM: 7, DSP: 2},
			uncounted: []string{"L6MUX21", "PFUMX"},
		},
		{
			name: "gowin: ALU counts as a LUT, RAM16SDP4 as four", family: fpga.Gowin,
			cells: map[string]int{"LUT1": 7898, "LUT2": 1599, "LUT3": 1234, "LUT4": 2249, "ALU": 703, "DFF": 89,
				"DFFE": 481, "DFFR": 274, "DFFRE": 1298, "DPX9": 4, "SDPX9": 3, "RAM16SDP4": 28, "MUX2_LUT5": 5256,
				"GND": 1, "VCC": 1},
			want:      fpga.Resources{LUT: 13683, LUTRAM: 112, FF: 2142, Carry: 703, BRAM: 7},
			uncounted: []string{"GND", "MUX2_LUT5", "VCC"},
		},
		{
			name: "xilinx latch is an error", family: fpga.Xilinx,
			cells:   map[string]int{"LUT2": 1, "LDCE": 2},
			wantErr: "latch cells after synthesis: LDCE",
		},
		{
			name: "gowin latch is an error", family: fpga.Gowin,
			cells:   map[string]int{"DLCE": 1},
			wantErr: "latch cells after synthesis: DLCE",
		},
		{
			name: "invalid family", family: fpga.Family(0),
			cells:   map[string]int{"LUT4": 1},
			wantErr: "invalid family",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, uncounted, err := fpga.Classify(tt.family, tt.cells)
			if tt.wantErr != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tt.wantErr)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, got, "resources")
			assert.Equal(t, tt.uncounted, uncounted, "cell types left uncounted")
		})
	}
}

func TestParseStat(t *testing.T) {
	data, err := os.ReadFile("testdata/stat_ice40_harness.json")
	require.NoError(t, err)
	tests := []struct {
		name    string
		top     string
		lut4    int
		wantErr string
	}{
		{name: "parameterised block", top: "rx_reorder", lut4: 2101},
		{name: "harness by plain name", top: "spraynic_harness", lut4: 82},
		{name: "absent module", top: "retx", wantErr: "no module retx"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cells, err := fpga.ParseStat(data, tt.top)
			if tt.wantErr != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tt.wantErr)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.lut4, cells["SB_LUT4"], "SB_LUT4 cells of %s", tt.top)
		})
	}
	_, err = fpga.ParseStat([]byte("not json"), "x")
	assert.ErrorContains(t, err, "yosys stat -json", "bad JSON names its source")
}

func TestPercent(t *testing.T) {
	tests := []struct {
		name     string
		used     fpga.Resources
		capacity fpga.Resources
		want     map[string]float64
	}{
		{
			name: "ice40: no DSP on the device, no dsp percentage",
			used: fpga.Resources{LUT: 2101, FF: 1164, BRAM: 5}, capacity: fpga.Resources{LUT: 7680, FF: 7680, BRAM: 32},
			want: map[string]float64{"lut": 27.36, "ff": 15.16, "bram": 15.63},
		},
		{
			name:     "LUTRAM counts against the LUTs",
			used:     fpga.Resources{LUT: 900, LUTRAM: 100, URAM: 1, DSP: 3},
			capacity: fpga.Resources{LUT: 10000, URAM: 4, DSP: 12},
			want:     map[string]float64{"lut": 10, "uram": 25, "dsp": 25},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, fpga.Percent(tt.used, tt.capacity))
		})
	}
}

// TestOverDevice covers the does-not-fit decision: a kind fits up to 100% of the device, one more unit does not.
func TestOverDevice(t *testing.T) {
	hx8k := fpga.Resources{LUT: 7680, FF: 7680, BRAM: 32}
	tests := []struct {
		name     string
		used     fpga.Resources
		capacity fpga.Resources
		want     []fpga.Overage
	}{
		{name: "well inside", used: fpga.Resources{LUT: 2101, FF: 1164, BRAM: 5, Carry: 9999}, capacity: hx8k},
		{name: "exactly full fits", used: fpga.Resources{LUT: 7680, FF: 7680, BRAM: 32}, capacity: hx8k},
		{name: "one LUT over", used: fpga.Resources{LUT: 7681}, capacity: hx8k,
			want: []fpga.Overage{{Kind: "lut", Used: 7681, Available: 7680, Excess: 1, Percent: 100.01}}},
		{name: "LUTRAM counts against the LUTs", used: fpga.Resources{LUT: 7000, LUTRAM: 700}, capacity: hx8k,
			want: []fpga.Overage{{Kind: "lut", Used: 7700, Available: 7680, Excess: 20, Percent: 100.26}}},
		{name: "several kinds, in table order", used: fpga.Resources{LUT: 14466, FF: 8000, BRAM: 40.5}, capacity: hx8k,
			want: []fpga.Overage{
				{Kind: "lut", Used: 14466, Available: 7680, Excess: 6786, Percent: 188.36},
				{Kind: "ff", Used: 8000, Available: 7680, Excess: 320, Percent: 104.17},
				{Kind: "bram", Used: 40.5, Available: 32, Excess: 8.5, Percent: 126.56},
			}},
		{name: "a kind the device lacks does not fit when used", used: fpga.Resources{LUT: 10, DSP: 2}, capacity: hx8k,
			want: []fpga.Overage{{Kind: "dsp", Used: 2, Available: 0, Excess: 2}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, fpga.OverDevice(tt.used, tt.capacity))
		})
	}
}

// TestOverDeviceNICTransport: the endpoint top with the ice40 preset (yosys 0.23 stat of the real run, I/O harness
// around it) needs more LUTs than the HX8K has; the flow reports it instead of running nextpnr.
func TestOverDeviceNICTransport(t *testing.T) {
	data, err := os.ReadFile("testdata/stat_ice40_nic_transport.json")
	require.NoError(t, err)
	cells, err := fpga.ParseStat(data, "nic_transport")
	require.NoError(t, err)
	used, _, err := fpga.Classify(fpga.ICE40, cells)
	require.NoError(t, err)
	b, err := fpga.LookupBoard("ice40-hx8k")
	require.NoError(t, err)
	assert.Equal(t, []fpga.Overage{{Kind: "lut", Used: 11299, Available: 7680, Excess: 3619, Percent: 147.12}},
		fpga.OverDevice(used, b.Capacity), "LUTs over the device; FF (4465) and EBR (10) fit")

	hcells, err := fpga.ParseStat(data, fpga.HarnessModule)
	require.NoError(t, err)
	harness, _, err := fpga.Classify(fpga.ICE40, hcells)
	require.NoError(t, err)
	assert.Empty(t, fpga.OverDevice(harness, b.Capacity), "the harness alone fits; the decision is the block's")
}
