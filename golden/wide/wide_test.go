package wide_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/spraynic/spraynic/golden/wide"
)

func TestSetBit(t *testing.T) {
	tests := []struct {
		name string
		bit  int
		want wide.Vec
	}{
		{name: "bit 0", bit: 0, want: wide.Vec{1}},
		{name: "bit 63", bit: 63, want: wide.Vec{1 << 63}},
		{name: "bit 64", bit: 64, want: wide.Vec{0, 1}},
		{name: "bit 255", bit: 255, want: wide.Vec{0, 0, 0, 1 << 63}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := wide.Vec{}.Set(tc.bit)
			require.Equal(t, tc.want, got, "Set(%d)", tc.bit)
			require.True(t, got.Bit(tc.bit), "Bit(%d) after Set", tc.bit)
			require.False(t, got.IsZero(), "not zero after Set")
		})
	}
	require.True(t, wide.Vec{}.IsZero(), "zero vector")
	require.Equal(t, wide.Vec{1}, wide.One(), "One")
}

func TestShl(t *testing.T) {
	tests := []struct {
		name  string
		v     wide.Vec
		s     int
		width int
		want  wide.Vec
	}{
		{name: "by 0", v: wide.Vec{5}, s: 0, width: 64, want: wide.Vec{5}},
		{name: "within word", v: wide.Vec{5}, s: 3, width: 64, want: wide.Vec{40}},
		{name: "truncated at width 8", v: wide.Vec{0xff}, s: 4, width: 8, want: wide.Vec{0xf0}},
		{name: "across a word", v: wide.Vec{1 << 63}, s: 1, width: 256, want: wide.Vec{0, 1}},
		{name: "bits split across words", v: wide.Vec{0xf << 60}, s: 2, width: 256, want: wide.Vec{0xc << 60, 0x3}},
		{name: "by a whole word", v: wide.Vec{7, 9}, s: 64, width: 256, want: wide.Vec{0, 7, 9}},
		{name: "by 65", v: wide.Vec{1}, s: 65, width: 256, want: wide.Vec{0, 2}},
		{name: "off the top of width 128", v: wide.Vec{1}, s: 128, width: 128, want: wide.Vec{}},
		{name: "to bit 255", v: wide.Vec{1}, s: 255, width: 256, want: wide.Vec{0, 0, 0, 1 << 63}},
		{name: "by 256", v: wide.Vec{1, 1, 1, 1}, s: 256, width: 256, want: wide.Vec{}},
		{name: "by more than 256", v: wide.Vec{1}, s: 300, width: 256, want: wide.Vec{}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			require.Equal(t, tc.want, tc.v.Shl(tc.s, tc.width), "%v.Shl(%d, %d)", tc.v, tc.s, tc.width)
		})
	}
}

func TestTrunc(t *testing.T) {
	all := wide.Vec{^uint64(0), ^uint64(0), ^uint64(0), ^uint64(0)}
	tests := []struct {
		name  string
		width int
		want  wide.Vec
	}{
		{name: "0", width: 0, want: wide.Vec{}},
		{name: "8", width: 8, want: wide.Vec{0xff}},
		{name: "64", width: 64, want: wide.Vec{^uint64(0)}},
		{name: "100", width: 100, want: wide.Vec{^uint64(0), 1<<36 - 1}},
		{name: "256", width: 256, want: all},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			require.Equal(t, tc.want, all.Trunc(tc.width), "Trunc(%d)", tc.width)
		})
	}
}
