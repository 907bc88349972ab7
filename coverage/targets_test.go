package coverage

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/spraynic/spraynic/coverage/functional"
	"github.com/stretchr/testify/require"
)

func TestCheckTargets(t *testing.T) {
	g := functional.NewGroup("nic_path_sel", "")
	p := g.Point("all_failed", "", "status_rise", "status_fall")
	q := g.Point("cwnd", "", "min", "max", "never")
	q.Unreachable("never", "static")
	q.Hit("min")
	q.Hit("max")
	rep := Report{Version: Version, Suite: "nightly",
		Entries: []Entry{
			{Top: "nic_transport", Config: "default", Line: newCount(96, 100), ToggleNet: newCount(95, 100)},
			{Top: "retx", Config: "default", Line: newCount(94, 100), ToggleNet: newCount(89, 100)},
		},
		Functional: []functional.Entry{{Top: "nic_transport", Config: "default", Runs: 1,
			Groups: []*functional.Group{g}}},
	}
	// two bins missing of four reachable: 50%
	ss := Check(rep, DefaultTargets, Testplan{})
	require.Len(t, ss, 3)
	require.Equal(t, "retx/default: line 94.00% < target 95.00%: 94 of 100 lines", ss[0].String())
	require.Equal(t, "retx/default: toggle net 89.00% < target 90.00%: 89 of 100 bits", ss[1].String())
	require.Equal(t, "nic_transport/default: functional nic_path_sel 50.00% < target 100.00%: 2 of 4 reachable bins; "+
		"holes: all_failed.status_rise all_failed.status_fall", ss[2].String())

	// the testplan calls both all_failed bins unreachable at this top: met; at another top it changes nothing
	plan := Testplan{Unreachable: []UnreachableBin{
		{Top: "nic_transport", Bin: "nic_path_sel.all_failed.status_rise", Reason: "why"},
		{Top: "nic_transport", Bin: "nic_path_sel.all_failed.status_fall", Reason: "why"},
		{Top: "path_sel", Bin: "nic_path_sel.cwnd.min", Reason: "other top"},
	}}
	require.Len(t, Check(rep, DefaultTargets, plan), 2)
	// a hit on a bin the plan calls unreachable is a shortfall of its own
	p.Hit("status_rise")
	ss = Check(rep, DefaultTargets, plan)
	require.Len(t, ss, 3)
	require.Contains(t, ss[2].String(),
		"unreachable nic_path_sel.all_failed.status_rise: hit 1 times, but the testplan calls it unreachable (why)")

	var b bytes.Buffer
	PrintCheck(&b, rep, DefaultTargets, ss)
	require.Contains(t, b.String(), "MISSED retx/default: line")
	b.Reset()
	PrintCheck(&b, rep, Targets{}, nil)
	require.Contains(t, b.String(), "every target met")

	require.ErrorContains(t, Targets{Line: 101}.Validate(), "target line 101: allowed 0..100")
	require.ErrorContains(t, Targets{Bins: -1}.Validate(), "target bins -1")
}

func TestCheckTargetsOnUnits(t *testing.T) {
	rep := Report{Version: Version, Suite: "nightly",
		// the endpoint's own view misses both targets; its design units are what the targets are about
		Entries: []Entry{{Top: "nic_transport", Config: "default", Line: newCount(50, 100),
			ToggleNet: newCount(50, 100)}},
		Units: []Unit{
			{File: "rtl/retx.v", Config: "default", Line: newCount(100, 100), ToggleNet: newCount(95, 100)},
			{File: "rtl/nic_transport.v", Config: "default", Line: newCount(94, 100), ToggleNet: newCount(91, 100)},
		},
	}
	ss := Check(rep, DefaultTargets, Testplan{})
	require.Len(t, ss, 1)
	require.Equal(t, "rtl/nic_transport.v/default: line 94.00% < target 95.00%: 94 of 100 lines", ss[0].String())
}

func TestPercent(t *testing.T) {
	for _, tc := range []struct {
		name       string
		hit, total int
		want       float64
	}{
		{name: "32 of 44 bins", hit: 32, total: 44, want: 72.72},
		{name: "exact", hit: 57, total: 100, want: 57},
		{name: "two thirds", hit: 2, total: 3, want: 66.66},
		{name: "one short of all never shows 100", hit: 19999, total: 20000, want: 99.99},
		{name: "all", hit: 44, total: 44, want: 100},
		{name: "none", hit: 0, total: 44, want: 0},
		{name: "nothing to hit", hit: 0, total: 0, want: 100},
		{name: "large", hit: 57998, total: 67885, want: 85.43},
	} {
		t.Run(tc.name, func(t *testing.T) {
			require.Equal(t, tc.want, Percent(tc.hit, tc.total), "%d of %d", tc.hit, tc.total)
		})
	}
}

// TestRunAndCheckAgree: the functional line of cov run's report and cov check's shortfall show one figure for
// 32 of 44 reachable bins (they used to print 72.73% and 72.72%).
func TestRunAndCheckAgree(t *testing.T) {
	g := functional.NewGroup("rx_reorder", "")
	var bins []string
	for i := 0; i < 44; i++ {
		bins = append(bins, fmt.Sprintf("b%d", i))
	}
	p := g.Point("p", "", bins...)
	for _, b := range bins[:32] {
		p.Hit(b)
	}
	es := []functional.Entry{{Top: "rx_reorder", Config: "default", Runs: 2, Groups: []*functional.Group{g}}}
	var run bytes.Buffer
	PrintFunctional(&run, es, 40)
	require.Contains(t, run.String(), " 72.72% (  32/  44) ", "cov run's line for the group")
	ss := Check(Report{Version: Version, Functional: es}, DefaultTargets, Testplan{})
	require.Len(t, ss, 1)
	require.Equal(t, 72.72, ss[0].Got, "cov check's figure for the group")
	require.Contains(t, ss[0].String(), "functional rx_reorder 72.72% < target 100.00%")
}
