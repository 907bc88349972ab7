package fpga_test

import (
	"os"
	"testing"

	"github.com/spraynic/spraynic/fpga"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The testdata logs are excerpts of real yosys 0.23 and nextpnr-ice40 0.4 runs: rx_reorder through this flow, and
// two small faulty designs (a latch with truncated port connections; a registered-read memory forced out of
// block RAM with -nobram, next to a doubly driven net).

func TestParseYosysLog(t *testing.T) {
	type mem struct {
		name    string
		sync    bool
		mapping fpga.Mapping
	}
	tests := []struct {
		name     string
		file     string
		mems     []mem
		rules    []string
		warnings int
		library  int
	}{
		{
			name: "ice40 rx_reorder: clean, parameterised module names",
			file: "testdata/yosys_ice40.log",
			mems: []mem{
				{name: "ack_mem", sync: false, mapping: fpga.Registers},
				{name: "handle_ram_inst.mem", sync: true, mapping: fpga.BlockRAM},
				{name: "path_ram_inst.mem", sync: true, mapping: fpga.BlockRAM},
			},
		},
		{
			name: "xcup rx_reorder: memory_dff runs twice, FIFO in LUTRAM, RAMB36E2 resizing is yosys's own",
			file: "testdata/yosys_xcup.log", library: 3,
			mems: []mem{
				{name: "ack_mem", sync: false, mapping: fpga.LUTRAM},
				{name: "handle_ram_inst.mem", sync: true, mapping: fpga.BlockRAM},
				{name: "path_ram_inst.mem", sync: true, mapping: fpga.BlockRAM},
			},
		},
		{
			name:  "latch and truncated port connections fail; registered address counts as registered read",
			file:  "testdata/yosys_latch_resize.log",
			mems:  []mem{{name: "mem", sync: true, mapping: fpga.BlockRAM}},
			rules: []string{"port-width", "port-width", "latch"},
		},
		{
			name:  "registered-read memory in registers and a check problem fail",
			file:  "testdata/yosys_nobram.log",
			mems:  []mem{{name: "mem", sync: true, mapping: fpga.Registers}},
			rules: []string{"multiple-drivers", "check", "memory-not-bram"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			data, err := os.ReadFile(tt.file)
			require.NoError(t, err)
			got := fpga.ParseYosysLog(data)
			assert.Equal(t, "Yosys 0.23 (git sha1 7ce5011c24b)", got.Version, "version banner")
			var mems []mem
			for _, m := range got.Memories {
				mems = append(mems, mem{name: m.Name, sync: m.SyncRead, mapping: m.Mapping})
			}
			assert.Equal(t, tt.mems, mems, "memories")
			var rules []string
			for _, p := range got.Problems {
				rules = append(rules, p.Rule)
			}
			assert.Equal(t, tt.rules, rules, "problems that fail the flow")
			assert.Len(t, got.Warnings, tt.warnings, "non-fatal warnings (ABC's own notes are not yosys warnings)")
			assert.Equal(t, tt.library, got.LibraryResizes, "port resizing of library cells after the marker")
		})
	}
}

func TestParseYosysLogDetails(t *testing.T) {
	data, err := os.ReadFile("testdata/yosys_nobram.log")
	require.NoError(t, err)
	got := fpga.ParseYosysLog(data)
	require.Len(t, got.Problems, 3)
	assert.Equal(t, "memory-not-bram: memory mem has a registered read (block RAM style) "+
		"but yosys mapped it to registers", got.Problems[2].String())

	data, err = os.ReadFile("testdata/yosys_latch_resize.log")
	require.NoError(t, err)
	got = fpga.ParseYosysLog(data)
	require.Len(t, got.Problems, 3)
	assert.Equal(t, "latch: latch inferred for bad.lat", got.Problems[2].String())
	assert.Equal(t, "port-width: Resizing cell port bad.u.y from 8 bits to 4 bits.", got.Problems[0].String())

	twice := "Warning: Literal has a width of 8 bit(s).\nWarning: Literal has a width of 8 bit(s).\n"
	other := fpga.ParseYosysLog([]byte(twice))
	assert.Equal(t, []string{"Literal has a width of 8 bit(s)."}, other.Warnings, "non-fatal warnings kept once each")
	assert.Empty(t, other.Problems)
}

func TestMappingString(t *testing.T) {
	tests := []struct {
		name string
		m    fpga.Mapping
		want string
	}{
		{name: "bram", m: fpga.BlockRAM, want: "block RAM"},
		{name: "lutram", m: fpga.LUTRAM, want: "LUTRAM"},
		{name: "registers", m: fpga.Registers, want: "registers"},
		{name: "zero", m: fpga.Mapping(0), want: "Mapping(0)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, tt.m.String())
		})
	}
}

func TestParseNextpnrReport(t *testing.T) {
	data, err := os.ReadFile("testdata/nextpnr_report.json")
	require.NoError(t, err)
	tests := []struct {
		name    string
		data    []byte
		fmax    float64
		target  float64
		lc      fpga.Use
		wantErr string
	}{
		{name: "ice40 rx_reorder", data: data, fmax: 35.72, target: 100, lc: fpga.Use{Used: 3409, Available: 7680}},
		{name: "lowest clock wins",
			data: []byte(`{"fmax":{"a":{"achieved":80.123,"constraint":100},` +
				`"b":{"achieved":50.5,"constraint":60}},"utilization":{}}`),
			fmax: 50.5, target: 60},
		{name: "no clock", data: []byte(`{"fmax":{},"utilization":{}}`), wantErr: "no clock"},
		{name: "not json", data: []byte(`Info: hello`), wantErr: "nextpnr report"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fmax, target, util, err := fpga.ParseNextpnrReport(tt.data)
			if tt.wantErr != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tt.wantErr)
				return
			}
			require.NoError(t, err)
			assert.InDelta(t, tt.fmax, fmax, 1e-9, "fmax")
			assert.Equal(t, tt.target, target, "constraint")
			if tt.lc.Available > 0 {
				assert.Equal(t, tt.lc, util["ICESTORM_LC"], "logic cells")
			}
		})
	}
}

func TestParseCriticalPath(t *testing.T) {
	data, err := os.ReadFile("testdata/nextpnr_critical_path.log")
	require.NoError(t, err)
	tests := []struct {
		name    string
		log     []byte
		rtlDir  string
		want    fpga.CriticalPath
		wantErr string
	}{
		{
			name: "ice40 rx_reorder: clock domain, not the <async> ones", log: data, rtlDir: "/work/main/rtl",
			want: fpga.CriticalPath{
				From: "dut.s1_conn_next_SB_LUT4_O_LC.O", To: "dut.cum_reg_SB_DFFE_Q_49_DFFLC.I0",
				DelayNS: 28.0, LogicNS: 11.1, RoutingNS: 16.9,
				Through: []string{"rx_reorder.v:233", "rx_reorder.v:513", "rx_reorder.v:298", "rx_reorder.v:395"},
			},
		},
		{name: "other rtl directory: no locations", log: data, rtlDir: "/elsewhere/rtl",
			want: fpga.CriticalPath{From: "dut.s1_conn_next_SB_LUT4_O_LC.O", To: "dut.cum_reg_SB_DFFE_Q_49_DFFLC.I0",
				DelayNS: 28.0, LogicNS: 11.1, RoutingNS: 16.9}},
		{name: "no report", log: []byte("Info: Routing complete.\n"), wantErr: "no clock critical path report"},
		{name: "cut short",
			log:     []byte("Info: Critical path report for clock 'clk' (posedge -> posedge):\nInfo: curr total\n"),
			wantErr: "not terminated"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := fpga.ParseCriticalPath(tt.log, tt.rtlDir)
			if tt.wantErr != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tt.wantErr)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
		})
	}
}

func TestNextpnrVersion(t *testing.T) {
	assert.Equal(t, "nextpnr-ice40 0.4-1+b1",
		fpga.NextpnrVersion("nextpnr-ice40 -- Next Generation Place and Route (Version 0.4-1+b1)\n"))
	assert.Equal(t, "something else", fpga.NextpnrVersion(" something else\n"), "unknown banner kept as is")
}

func TestParseUtilisation(t *testing.T) {
	data, err := os.ReadFile("testdata/nextpnr_over_after_packing.log")
	require.NoError(t, err)
	fits := []byte("Info: Device utilisation:\nInfo: \t         ICESTORM_LC:  3177/ 7680    41%\n" +
		"Info: \t        ICESTORM_RAM:     9/   32    28%\n\nInfo: Placed 0 cells based on constraints.\n" +
		"Info: \t        SB_IO:     3/  256     1%\n")
	tests := []struct {
		name    string
		log     []byte
		want    map[string]fpga.Use
		over    []fpga.Overage
		wantErr string
	}{
		{name: "nic_transport (conns 2, paths 2) with its I/O harness: over the HX8K after packing", log: data,
			want: map[string]fpga.Use{"ICESTORM_LC": {Used: 8374,
				Available: 7680}, "ICESTORM_RAM": {Used: 17, Available: 32},
				"SB_IO": {Used: 3, Available: 256}, "SB_GB": {Used: 8, Available: 8}, "ICESTORM_PLL": {Available: 2},
				"SB_WARMBOOT": {Available: 1}},
			over: []fpga.Overage{{Kind: "ICESTORM_LC", Used: 8374, Available: 7680, Excess: 694, Percent: 109.04}}},
		{name: "within the device; the table ends at its blank line", log: fits,
			want: map[string]fpga.Use{"ICESTORM_LC": {Used: 3177, Available: 7680},
				"ICESTORM_RAM": {Used: 9, Available: 32}}},
		{name: "no table", log: []byte("Info: Packing constants..\nERROR: something else\n"),
			wantErr: "no \"Device utilisation\" table"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := fpga.ParseUtilisation(tt.log)
			if tt.wantErr != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tt.wantErr)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
			assert.Equal(t, tt.over, fpga.OverAfterPacking(got))
		})
	}
}

// TestParseYosysLogFIFO: a memory read at a registered address alone (a FIFO at its pointer: memory_dff merged
// its address register, no output register) is a registered read that may go to LUTRAM; one whose output
// register merged (ram_sdp's style) may not.
func TestParseYosysLogFIFO(t *testing.T) {
	data, err := os.ReadFile("testdata/yosys_fifo_lutram.log")
	require.NoError(t, err)
	got := fpga.ParseYosysLog(data)
	require.Len(t, got.Memories, 2)
	for _, m := range got.Memories {
		assert.True(t, m.SyncRead, m.Name)
		assert.Equal(t, fpga.LUTRAM, m.Mapping, m.Name)
	}
	require.Len(t, got.Problems, 1)
	assert.Equal(t, "memory-not-bram: memory ram has a registered read (block RAM style) but yosys mapped it to "+
		"LUTRAM", got.Problems[0].String())
}
