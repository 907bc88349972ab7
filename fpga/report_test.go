package fpga_test

import (
	"testing"

	"github.com/spraynic/spraynic/config"
	"github.com/spraynic/spraynic/fpga"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestSummary(t *testing.T) {
	ecp5 := fpga.Report{Board: "ecp5-85k", Top: "rx_reorder", Device: "LFE5U-85F",
		Config:    fpga.ConfigInfo{Name: "default", ParamsHash: "f9d8"},
		Resources: fpga.Resources{LUT: 9122, LUTRAM: 112, FF: 2142, Carry: 341, BRAM: 7, DSP: 2},
		Percent:   map[string]float64{"lut": 11.04, "ff": 2.56, "bram": 3.37, "dsp": 1.28},
		Memories:  []fpga.Memory{{Name: "path_ram_inst.mem", SyncRead: true, Mapping: fpga.BlockRAM}},
		Seconds:   map[string]float64{"lint": 0.2, "synth": 29.4}}
	ice40 := fpga.Report{Board: "ice40-hx8k", Top: "rx_reorder",
		Resources: fpga.Resources{LUT: 2101, FF: 1164, BRAM: 5},
		Percent:   map[string]float64{"lut": 27.36, "ff": 15.16, "bram": 15.63},
		PnR: &fpga.PnR{Seed: 1, Package: "ct256", FmaxMHz: 35.72, TargetMHz: 100,
			Packing: fpga.Packing{Utilization: map[string]fpga.Use{
				"ICESTORM_LC": {Used: 3409, Available: 7680}, "ICESTORM_PLL": {Available: 2}}},
			CriticalPath: fpga.CriticalPath{From: "a", To: "b", DelayNS: 28,
				Through: []string{"rx_reorder.v:487  d = s1_psn_reg - c_cum;"}}}}
	tests := []struct {
		name    string
		r       fpga.Report
		want    []string
		notWant []string
	}{
		{name: "no place and route", r: ecp5, want: []string{
			"ecp5-85k  rx_reorder  (LFE5U-85F, config default, params f9d8)",
			"lut 9122 (11.04%)  lutram 112  ff 2142 (2.56%)  bram 7 (3.37%)  dsp 2 (1.28%)  carry 341",
			"path_ram_inst.mem -> block RAM (registered read)", "no place-and-route for this board", "synth 29.4s"},
			notWant: []string{"uram"}},
		{name: "over the device", r: fpga.Report{Device: "GW2A-LV55", Resources: fpga.Resources{LUT: 60000},
			Percent: map[string]float64{"lut": 109.65, "ff": 19.08}},
			want: []string{"DOES NOT FIT GW2A-LV55: lut 109.65% of the device"}},
		{name: "does not fit: place-and-route skipped, by how much", r: fpga.Report{Board: "ice40-hx8k",
			Device:     "iCE40HX8K-CT256",
			Tools:      map[string]string{"nextpnr": "nextpnr-ice40 0.4"},
			Resources:  fpga.Resources{LUT: 14466, FF: 6000, BRAM: 10},
			Percent:    map[string]float64{"lut": 188.36, "ff": 78.13, "bram": 31.25},
			OverDevice: []fpga.Overage{{Kind: "lut", Used: 14466, Available: 7680, Excess: 6786, Percent: 188.36}}},
			want: []string{"DOES NOT FIT iCE40HX8K-CT256: lut 188.36% of the device\n",
				"over the device: lut 14466 used, 7680 on the device (6786 over)",
				"place-and-route skipped: the block does not fit the device"},
			notWant: []string{"ff 78.13% of the device", "no place-and-route for this board", "nextpnr (seed"}},
		{name: "does not fit by a kind the device lacks", r: fpga.Report{Device: "iCE40HX8K-CT256",
			Resources: fpga.Resources{LUT: 10, DSP: 1}, Percent: map[string]float64{"lut": 0.13},
			OverDevice: []fpga.Overage{{Kind: "dsp", Used: 1, Excess: 1}}},
			want: []string{"DOES NOT FIT iCE40HX8K-CT256\n", "over the device: dsp 1 used, 0 on the device (1 over)"}},
		{name: "fits by yosys's count, not after packing: nextpnr stopped", r: fpga.Report{Board: "ice40-hx8k",
			Device: "iCE40HX8K-CT256", Tools: map[string]string{"nextpnr": "nextpnr-ice40 0.4"},
			Resources: fpga.Resources{LUT: 5482, FF: 2686, BRAM: 17},
			Percent:   map[string]float64{"lut": 71.38, "ff": 34.97},
			OverDevice: []fpga.Overage{
				{Kind: "ICESTORM_LC", Used: 8374, Available: 7680, Excess: 694, Percent: 109.04}},
			Packing: &fpga.Packing{Utilization: map[string]fpga.Use{"ICESTORM_LC": {Used: 8374, Available: 7680},
				"ICESTORM_PLL": {Available: 2}}, Harness: fpga.Resources{LUT: 282, FF: 1327}}},
			want: []string{
				"DOES NOT FIT iCE40HX8K-CT256 after packing, with its I/O harness (yosys's counts are within it)\n",
				"over the device: ICESTORM_LC 8374 used, 7680 on the device (694 over)",
				"packed with I/O harness: ICESTORM_LC 8374/7680 (harness: 282 LUT, 1327 FF)",
				"place-and-route stopped after packing"},
			notWant: []string{"place-and-route skipped", "ICESTORM_PLL", "nextpnr (seed", "% of the device"}},
		{name: "logic depth and LUT levels, each with its RTL lines", r: fpga.Report{Depth: &fpga.Depth{Levels: 15,
			WideMux: 2, Path: []string{"LUT6 (/r/rtl/a.v:3.1-3.9)", "MUXF7 (/usr/share/yosys/x.v:1)"}, LUTLevels: 13,
			LUTPath: []string{"CARRY4 (/r/rtl/b.v:7.2-7.8)", "LUT2 (/usr/share/yosys/x.v:2)"}}},
			want: []string{"logic depth 15 levels (2 of them wide-mux cells; register to register) through a.v:3.1-3.9\n",
				"LUT and carry levels 13 (wide-mux cells not counted) through b.v:7.2-7.8\n"}},
		{name: "iCE40 with Fmax", r: ice40, want: []string{
			"Fmax 35.72 MHz, target 100 MHz FAILED", "ICESTORM_LC 3409/7680", "critical path 28.0 ns",
			"    rx_reorder.v:487  d = s1_psn_reg - c_cum;"},
			notWant: []string{"ICESTORM_PLL", "dsp", "no place-and-route"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := fpga.Summary(tt.r, "report.json")
			for _, w := range tt.want {
				assert.Contains(t, s, w)
			}
			for _, w := range tt.notWant {
				assert.NotContains(t, s, w)
			}
		})
	}
}

func TestReportRoundTrip(t *testing.T) {
	dir := t.TempDir()
	r := fpga.Report{Board: "xcu250", Top: "rx_reorder", Resources: fpga.Resources{LUT: 26735, BRAM: 72.5},
		Memories: []fpga.Memory{{Name: "m", Mapping: fpga.LUTRAM, Cell: "$__XILINX_LUTRAM_SDP_"}}, Fits: true}
	require.NoError(t, fpga.WriteReport(dir, r))
	got, err := fpga.ReadReport(dir)
	require.NoError(t, err)
	assert.Equal(t, r, got, "a report survives a write and a read (the cache reuses it)")

	r.Fits = false
	r.OverDevice = []fpga.Overage{{Kind: "lut", Used: 14466, Available: 7680, Excess: 6786, Percent: 188.36}}
	require.NoError(t, fpga.WriteReport(dir, r))
	got, err = fpga.ReadReport(dir)
	require.NoError(t, err)
	assert.Equal(t, r, got, "a does-not-fit report survives a write and a read")

	var m fpga.Mapping
	assert.ErrorContains(t, m.UnmarshalText([]byte("flash")), `unknown memory mapping "flash"`)
}

func TestParamsHash(t *testing.T) {
	a := fpga.ParamsHash([]config.Param{{Name: "CONNS", Value: 4}, {Name: "WINDOW", Value: 32}})
	assert.Len(t, a, 16)
	same := fpga.ParamsHash([]config.Param{{Name: "CONNS", Value: 4}, {Name: "WINDOW", Value: 32}})
	assert.Equal(t, a, same, "stable")
	other := fpga.ParamsHash([]config.Param{{Name: "CONNS", Value: 8}, {Name: "WINDOW", Value: 32}})
	assert.NotEqual(t, a, other, "value matters")
}
