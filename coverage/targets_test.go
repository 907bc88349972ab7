package coverage

import (
	"bytes"
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
