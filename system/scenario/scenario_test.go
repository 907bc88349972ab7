package scenario

import (
	"bytes"
	"errors"
	"math"
	"testing"

	"github.com/spraynic/spraynic/system"
	"github.com/stretchr/testify/require"
)

func TestFigureValues(t *testing.T) {
	r := &system.Result{Goodput: 0.9, MCTP99US: 15, Lost: 100, RetxTimeoutNeeded: 2, Retransmissions: 50,
		Spurious: 1, RecoveryUS: -1}
	base := &system.Result{MCTP99US: 12}
	for _, tc := range []struct {
		name string
		f    Figure
		base *system.Result
		want float64
		ok   bool
	}{
		{name: "goodput", f: Goodput, want: 0.9, ok: true},
		{name: "ratio", f: P99Ratio, base: base, want: 1.25, ok: true},
		{name: "ratio without a baseline", f: P99Ratio},
		{name: "no-RTO", f: NoRTO, want: 0.98, ok: true},
		{name: "spurious share", f: SpuriousShare, want: 0.02, ok: true},
		{name: "spurious", f: Spurious, want: 1, ok: true},
		{name: "never recovered", f: RecoveryUS, want: math.Inf(1), ok: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v, ok := tc.f.value(r, tc.base)
			require.Equal(t, tc.ok, ok)
			if ok {
				require.InDelta(t, tc.want, v, 1e-9)
			}
		})
	}
	v, ok := NoRTO.value(&system.Result{}, nil)
	require.True(t, ok)
	require.Equal(t, 1.0, v, "nothing lost: nothing left to a timeout")
}

func TestJudge(t *testing.T) {
	sc := Scenario{Name: "x", Baseline: "b", Targets: []Target{atMost(P99Ratio, 1.3), at(Goodput, 0.96)}}
	base := []Run{{Seed: 1, Result: &system.Result{MCTP99US: 10}}, {Seed: 2, Result: &system.Result{MCTP99US: 10}},
		{Seed: 3, Err: errors.New("boom")}}
	runs := []Run{{Seed: 1, Result: &system.Result{MCTP99US: 12, Goodput: 0.97}},
		{Seed: 2, Result: &system.Result{MCTP99US: 14, Goodput: 0.95}},
		{Seed: 3, Result: &system.Result{MCTP99US: 11, Goodput: 0.97}}}
	row := judge(sc, runs, base)
	require.Equal(t, []string{"p99/base <= 1.30x: 1.40x (seed 2)", "goodput >= 96.00%: 95.00% (seed 2)",
		"p99/base <= 1.30x: no value (seed 3; baseline failed)"}, row.Missed)
	require.Equal(t, []float64{0.97, 0.95, 0.97}, row.Values[Goodput])
	rep := Report{Set: "s", Seeds: []uint64{1, 2, 3}, Rows: []Row{row}}
	require.True(t, rep.Failed())
	var b bytes.Buffer
	require.NoError(t, rep.Write(&b))
	require.Contains(t, b.String(), "95.00% / 97.00% / 97.00%")
	require.Contains(t, b.String(), "MISS (3)")
}

func TestSelected(t *testing.T) {
	set := tailSet()
	scs, err := selected(set, []string{"ack-loss"})
	require.NoError(t, err)
	var got []string
	for _, sc := range scs {
		got = append(got, sc.Name)
	}
	require.Equal(t, []string{"loss-1", "ack-loss"}, got, "a scenario brings its baseline, in set order")
	_, err = selected(set, []string{"nope"})
	require.ErrorContains(t, err, `scenario "nope" is not in set tail`)
	_, err = Lookup("nope")
	require.ErrorContains(t, err, `unknown scenario set "nope" (allowed: [tail scale])`)
}

func TestSetsValid(t *testing.T) {
	for _, set := range Sets() {
		seen := map[string]bool{}
		for _, sc := range set.Scenarios {
			require.False(t, seen[sc.Name], "%s: %s twice", set.Name, sc.Name)
			if sc.Baseline != "" {
				require.True(t, seen[sc.Baseline], "%s: %s's baseline %s comes before it", set.Name, sc.Name,
					sc.Baseline)
			}
			seen[sc.Name] = true
			o, err := sc.Options(1)
			require.NoError(t, err, sc.Name)
			require.NoError(t, o.Defaults().Validate(), sc.Name)
		}
	}
}

func TestRunSetSmall(t *testing.T) {
	set := Set{Name: "t", Scenarios: []Scenario{
		{Name: "base", Options: func(seed uint64) (system.Options, error) {
			o, err := tailBase(seed)
			o.DurationUS = 40
			return o, err
		}, Targets: []Target{atMost(Spurious, 0)}},
		{Name: "lossy", Baseline: "base", Options: func(seed uint64) (system.Options, error) {
			o, err := tailBase(seed)
			o.DurationUS = 40
			o.Loss = 0.05
			return o, err
		}, Targets: []Target{at(NoRTO, 0)}},
	}}
	rep, err := RunSet(set, []uint64{1, 2}, 2, nil)
	require.NoError(t, err)
	require.False(t, rep.Failed(), "%v", rep.Rows)
	require.Len(t, rep.Rows[1].Values[P99Ratio], 2)
}
