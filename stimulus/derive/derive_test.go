package derive_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/spraynic/spraynic/stimulus/derive"
)

// shape is a profile-like struct.
type shape struct {
	// Name, Cycles, Load, Wrap and Events stand for the kinds of profile fields.
	Name   string
	Cycles int64
	Load   float64
	Wrap   bool
	Events []int
}

func TestFrom(t *testing.T) {
	base := shape{Cycles: 30000, Load: 1, Events: []int{1}}
	tests := []struct {
		name string
		diff shape
		want shape
	}{
		{name: "empty diff: the base", diff: shape{}, want: base},
		{name: "set fields replace the base's", diff: shape{Name: "loss", Load: 0.5, Wrap: true},
			want: shape{Name: "loss", Cycles: 30000, Load: 0.5, Wrap: true, Events: []int{1}}},
		{name: "a slice replaces the base's", diff: shape{Events: []int{2, 3}},
			want: shape{Cycles: 30000, Load: 1, Events: []int{2, 3}}},
		{name: "zero fields keep the base's", diff: shape{Cycles: 0, Load: 0},
			want: shape{Cycles: 30000, Load: 1, Events: []int{1}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			require.Equal(t, tc.want, derive.From(base, tc.diff), "base with the diff's fields")
		})
	}
	require.Equal(t, shape{Cycles: 30000, Load: 1, Events: []int{1}}, base, "the base is not changed")
}
