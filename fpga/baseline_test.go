package fpga_test

import (
	"path/filepath"
	"testing"

	"github.com/spraynic/spraynic/fpga"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// report builds a report of rx_reorder on a board with the given resources and Fmax (0: no place-and-route), at a
// logic depth of 6 levels, 5 of them LUT levels.
func report(board string, res fpga.Resources, fmax float64) fpga.Report {
	r := fpga.Report{Board: board, Top: "rx_reorder", Resources: res,
		Config: fpga.ConfigInfo{Name: "ice40", ParamsHash: "p1"}, Tools: map[string]string{"yosys": "Yosys 0.23"},
		Depth: &fpga.Depth{Levels: 6, Path: []string{"LUT6 (a.v:1)"}, LUTLevels: 5, LUTPath: []string{"LUT6 (a.v:1)"}}}
	if fmax > 0 {
		r.PnR = &fpga.PnR{FmaxMHz: fmax}
	}
	return r
}

func TestCompare(t *testing.T) {
	baseRes := fpga.Resources{LUT: 2000, FF: 1000, BRAM: 5}
	base := fpga.NewBaseline([]fpga.Report{report("ice40-hx8k", baseRes, 40), report("ecp5-85k", baseRes, 0)})
	with := func(f func(*fpga.Resources)) fpga.Resources {
		r := baseRes
		f(&r)
		return r
	}
	type verdict struct {
		board, kind string
		verdict     fpga.Verdict
	}
	tests := []struct {
		name    string
		reports []fpga.Report
		boards  []string
		fail    bool
		zeroLUT bool      // the baseline has no LUT levels (written before they were recorded)
		want    []verdict // the non-ok verdicts
	}{
		{name: "identical", reports: []fpga.Report{report("ice40-hx8k", baseRes, 40)}, boards: []string{"ice40-hx8k"}},
		{name: "LUT +5.0% passes (the limit is more than 5%)",
			reports: []fpga.Report{report("ice40-hx8k", with(func(r *fpga.Resources) { r.LUT = 2100 }), 40)},
			boards:  []string{"ice40-hx8k"}},
		{name: "LUT +5.05% fails",
			reports: []fpga.Report{report("ice40-hx8k", with(func(r *fpga.Resources) { r.LUT = 2101 }), 40)},
			boards:  []string{"ice40-hx8k"}, fail: true,
			want: []verdict{{board: "ice40-hx8k", kind: "lut", verdict: fpga.Worse}}},
		{name: "one more BRAM of five fails",
			reports: []fpga.Report{report("ice40-hx8k", with(func(r *fpga.Resources) { r.BRAM = 6 }), 40)},
			boards:  []string{"ice40-hx8k"}, fail: true,
			want: []verdict{{board: "ice40-hx8k", kind: "bram", verdict: fpga.Worse}}},
		{name: "a DSP where the baseline had none fails",
			reports: []fpga.Report{report("ecp5-85k", with(func(r *fpga.Resources) { r.DSP = 1 }), 0)},
			boards:  []string{"ecp5-85k"}, fail: true,
			want: []verdict{{board: "ecp5-85k", kind: "dsp", verdict: fpga.Worse}}},
		{name: "FF -20% is better, passes",
			reports: []fpga.Report{report("ice40-hx8k", with(func(r *fpga.Resources) { r.FF = 800 }), 40)},
			boards:  []string{"ice40-hx8k"},
			want:    []verdict{{board: "ice40-hx8k", kind: "ff", verdict: fpga.Better}}},
		{name: "Fmax -4% passes", reports: []fpga.Report{report("ice40-hx8k", baseRes, 38.4)},
			boards: []string{"ice40-hx8k"}},
		{name: "Fmax -6% fails",
			reports: []fpga.Report{report("ice40-hx8k", baseRes, 37.6)},
			boards:  []string{"ice40-hx8k"}, fail: true,
			want: []verdict{{board: "ice40-hx8k", kind: "fmax_mhz", verdict: fpga.Worse}}},
		{name: "Fmax +10% is better",
			reports: []fpga.Report{report("ice40-hx8k", baseRes, 44)},
			boards:  []string{"ice40-hx8k"},
			want:    []verdict{{board: "ice40-hx8k", kind: "fmax_mhz", verdict: fpga.Better}}},
		{name: "Fmax missing where the baseline has one fails",
			reports: []fpga.Report{report("ice40-hx8k", baseRes, 0)}, boards: []string{"ice40-hx8k"},
			fail: true, want: []verdict{{board: "ice40-hx8k", kind: "fmax_mhz", verdict: fpga.Worse}}},
		{name: "a block without a baseline entry fails",
			reports: []fpga.Report{report("ice40-hx8k", baseRes, 40), func() fpga.Report {
				r := report("ice40-hx8k", baseRes, 40)
				r.Top = "nic_transport"
				return r
			}()},
			boards: []string{"ice40-hx8k"}, fail: true,
			want: []verdict{{board: "ice40-hx8k", kind: "entry", verdict: fpga.Worse}}},
		{name: "changed parameters fail",
			reports: []fpga.Report{func() fpga.Report {
				r := report("ice40-hx8k", baseRes, 40)
				r.Config.ParamsHash = "p2"
				return r
			}()},
			boards: []string{"ice40-hx8k"}, fail: true,
			want: []verdict{{board: "ice40-hx8k", kind: "entry", verdict: fpga.Worse}}},
		{name: "a baseline entry of a board that ran, without a report, fails",
			reports: nil, boards: []string{"ice40-hx8k"}, fail: true,
			want: []verdict{{board: "ice40-hx8k", kind: "entry", verdict: fpga.Worse}}},
		{name: "boards that did not run are not compared",
			reports: []fpga.Report{report("ice40-hx8k", baseRes, 40)}, boards: []string{"ice40-hx8k"}},
		{name: "one more logic level fails",
			reports: []fpga.Report{func() fpga.Report {
				r := report("ecp5-85k", baseRes, 0)
				r.Depth = &fpga.Depth{Levels: 7, LUTLevels: 5}
				return r
			}()},
			boards: []string{"ecp5-85k"}, fail: true,
			want: []verdict{{board: "ecp5-85k", kind: "depth", verdict: fpga.Worse}}},
		{name: "one less logic level is better",
			reports: []fpga.Report{func() fpga.Report {
				r := report("ecp5-85k", baseRes, 0)
				r.Depth = &fpga.Depth{Levels: 5, LUTLevels: 5}
				return r
			}()},
			boards: []string{"ecp5-85k"},
			want:   []verdict{{board: "ecp5-85k", kind: "depth", verdict: fpga.Better}}},
		{name: "a report without a logic depth fails",
			reports: []fpga.Report{func() fpga.Report {
				r := report("ecp5-85k", baseRes, 0)
				r.Depth = nil
				return r
			}()},
			boards: []string{"ecp5-85k"}, fail: true,
			want: []verdict{{board: "ecp5-85k", kind: "depth", verdict: fpga.Worse},
				{board: "ecp5-85k", kind: "lut_levels", verdict: fpga.Worse}}},
		{name: "one more LUT level fails, the same total passes",
			reports: []fpga.Report{func() fpga.Report {
				r := report("ecp5-85k", baseRes, 0)
				r.Depth = &fpga.Depth{Levels: 6, LUTLevels: 6, LUTPath: []string{"LUT6 (a.v:2)"}}
				return r
			}()},
			boards: []string{"ecp5-85k"}, fail: true,
			want: []verdict{{board: "ecp5-85k", kind: "lut_levels", verdict: fpga.Worse}}},
		{name: "a baseline without LUT levels fails", reports: []fpga.Report{report("ecp5-85k", baseRes, 0)},
			boards: []string{"ecp5-85k"}, fail: true, zeroLUT: true,
			want: []verdict{{board: "ecp5-85k", kind: "lut_levels", verdict: fpga.Worse}}},
		{name: "other tool versions are noted, not failed",
			reports: []fpga.Report{func() fpga.Report {
				r := report("ice40-hx8k", baseRes, 40)
				r.Tools = map[string]string{"yosys": "Yosys 0.40"}
				return r
			}()},
			boards: []string{"ice40-hx8k"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := base
			if tt.zeroLUT {
				b.Entries = append([]fpga.BaselineEntry(nil), base.Entries...)
				for i := range b.Entries {
					b.Entries[i].LUTLevels = 0
				}
			}
			fs := fpga.Compare(b, tt.reports, tt.boards)
			assert.Equal(t, tt.fail, fpga.Failed(fs), "check verdict; findings: %v", fs)
			var got []verdict
			for _, f := range fs {
				if f.Verdict != fpga.Same {
					got = append(got, verdict{board: f.Board, kind: f.Kind, verdict: f.Verdict})
					assert.NotEmpty(t, f.Detail, "a non-ok finding explains itself")
				}
			}
			assert.Equal(t, tt.want, got, "non-ok findings")
		})
	}
}

func TestBaselineRoundTrip(t *testing.T) {
	path := filepath.Join(t.TempDir(), "baseline.json")
	b := fpga.NewBaseline([]fpga.Report{
		report("xcu250", fpga.Resources{LUT: 10, BRAM: 0.5}, 0),
		report("ice40-hx8k", fpga.Resources{LUT: 20}, 35.72),
	})
	require.NoError(t, fpga.WriteBaseline(path, b))
	got, err := fpga.ReadBaseline(path)
	require.NoError(t, err)
	assert.Equal(t, b, got, "baseline survives a write and a read")
	require.Len(t, got.Entries, 2)
	assert.Equal(t, "ice40-hx8k", got.Entries[0].Board, "entries sorted by board")
	assert.InDelta(t, 35.72, got.Entries[0].FmaxMHz, 1e-9)

	_, err = fpga.ReadBaseline(filepath.Join(t.TempDir(), "none.json"))
	assert.ErrorContains(t, err, "make fpga-baseline", "a missing baseline says how to make one")
}

func TestFindingString(t *testing.T) {
	f := fpga.Finding{Board: "ice40-hx8k", Top: "rx_reorder", Kind: "lut", Base: 2000, Now: 2101, Verdict: fpga.Worse,
		Detail: "grew 5.0% (more than 5%)"}
	assert.Equal(t, "ice40-hx8k    rx_reorder     lut              2000       2101  FAIL  grew 5.0% (more than 5%)",
		f.String())
	f = fpga.Finding{Board: "ecp5-85k", Top: "roce_rx", Kind: "lut_levels", Base: 18, Now: 18, Verdict: fpga.Same}
	assert.Equal(t, "ecp5-85k      roce_rx        lut_levels         18         18  ok", f.String(),
		"the longest kind keeps the columns")
	assert.Equal(t, "Verdict(0)", fpga.Verdict(0).String())
}

// TestCompareDoesNotFit: a block too big for the device has a baseline entry like any other, without an Fmax
// (no place-and-route ran); its yosys resources are compared.
func TestCompareDoesNotFit(t *testing.T) {
	big := func(lut int) fpga.Report {
		r := report("ice40-hx8k", fpga.Resources{LUT: lut, FF: 6000, BRAM: 10}, 0)
		r.Top = "nic_transport"
		r.OverDevice = []fpga.Overage{{Kind: "lut", Used: float64(lut), Available: 7680, Excess: float64(lut - 7680)}}
		return r
	}
	base := fpga.NewBaseline([]fpga.Report{big(14466)})
	require.Len(t, base.Entries, 1)
	assert.Zero(t, base.Entries[0].FmaxMHz, "no Fmax recorded")

	fs := fpga.Compare(base, []fpga.Report{big(14466)}, []string{"ice40-hx8k"})
	assert.False(t, fpga.Failed(fs), "unchanged: passes; findings %v", fs)
	for _, f := range fs {
		assert.NotEqual(t, "fmax_mhz", f.Kind, "no Fmax comparison without place-and-route")
	}
	fs = fpga.Compare(base, []fpga.Report{big(15300)}, []string{"ice40-hx8k"})
	assert.True(t, fpga.Failed(fs), "LUT +5.8%% fails like any other entry; findings %v", fs)
}
