package registry_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/spraynic/spraynic/stimulus/registry"
)

// shape is a registered value.
type shape struct {
	// name identifies it; n is its payload.
	name string
	n    int
}

func newShapes() *registry.Registry[shape] {
	return registry.New("retx test", func(s shape) string { return s.name },
		shape{name: "loss", n: 2}, shape{name: "clean", n: 1}, shape{name: "wrap", n: 3})
}

func TestLookup(t *testing.T) {
	tests := []struct {
		name    string
		lookup  string
		want    shape
		wantErr string
	}{
		{name: "known", lookup: "loss", want: shape{name: "loss", n: 2}},
		{name: "unknown names it and lists the known ones", lookup: "lossy",
			wantErr: `unknown retx test "lossy" (tests: clean, loss, wrap)`},
		{name: "empty name", lookup: "", wantErr: `unknown retx test "" (tests: clean, loss, wrap)`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := newShapes().Lookup(tc.lookup)
			if tc.wantErr != "" {
				require.EqualError(t, err, tc.wantErr)
				return
			}
			require.NoError(t, err)
			require.Equal(t, tc.want, got, "the value registered under %q", tc.lookup)
		})
	}
}

func TestNamesAndAllSorted(t *testing.T) {
	r := newShapes()
	r.Register(shape{name: "backpressure", n: 4})
	require.Equal(t, []string{"backpressure", "clean", "loss", "wrap"}, r.Names(), "names in order")
	var ns []int
	for _, s := range r.All() {
		ns = append(ns, s.n)
	}
	require.Equal(t, []int{4, 1, 2, 3}, ns, "values in name order")
}

func TestRegisterTwicePanics(t *testing.T) {
	r := newShapes()
	require.PanicsWithValue(t, `registry: retx test "wrap" registered twice`,
		func() { r.Register(shape{name: "wrap"}) },
		"a second value under a taken name is refused")
}

func TestEmpty(t *testing.T) {
	r := registry.New[shape]("test", func(s shape) string { return s.name })
	require.Empty(t, r.Names(), "no names")
	require.Empty(t, r.All(), "no values")
	_, err := r.Lookup("x")
	require.EqualError(t, err, `unknown test "x" (tests: )`)
}
