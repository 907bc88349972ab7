package seqnum_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/spraynic/spraynic/golden/seqnum"
)

const top = seqnum.Modulus - 1 // 2^24-1

func TestNew(t *testing.T) {
	tests := []struct {
		name string
		in   uint32
		want seqnum.PSN
	}{
		{name: "zero", in: 0, want: 0},
		{name: "max", in: top, want: top},
		{name: "2^24 wraps to 0", in: 1 << 24, want: 0},
		{name: "high bits dropped", in: 0xff123456, want: 0x123456},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			require.Equal(t, tc.want, seqnum.New(tc.in), "New(%#x)", tc.in)
		})
	}
}

func TestAdd(t *testing.T) {
	tests := []struct {
		name string
		p    seqnum.PSN
		n    int32
		want seqnum.PSN
	}{
		{name: "plain", p: 5, n: 3, want: 8},
		{name: "wrap forward at 2^24-1", p: top, n: 1, want: 0},
		{name: "wrap forward by 3", p: top - 2, n: 5, want: 2},
		{name: "wrap backward at 0", p: 0, n: -1, want: top},
		{name: "half from 0", p: 0, n: seqnum.Half, want: seqnum.Half},
		{name: "half from 2^23", p: seqnum.Half, n: seqnum.Half, want: 0},
		{name: "across 2^23", p: seqnum.Half - 1, n: 2, want: seqnum.Half + 1},
		{name: "full circle", p: 1234, n: seqnum.Modulus, want: 1234},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			require.Equal(t, tc.want, tc.p.Add(tc.n), "%d.Add(%d)", tc.p, tc.n)
		})
	}
}

func TestSubAndOrder(t *testing.T) {
	tests := []struct {
		name string
		a, b seqnum.PSN
		want int32
	}{
		{name: "equal", a: 7, b: 7, want: 0},
		{name: "ahead", a: 10, b: 7, want: 3},
		{name: "behind", a: 7, b: 10, want: -3},
		{name: "ahead across wrap", a: 1, b: top, want: 2},
		{name: "behind across wrap", a: top, b: 1, want: -2},
		{name: "max positive", a: seqnum.Half - 1, b: 0, want: seqnum.Half - 1},
		{name: "most negative is -2^23", a: seqnum.Half, b: 0, want: -seqnum.Half},
		{name: "most negative from 2^23", a: 0, b: seqnum.Half, want: -seqnum.Half},
		{name: "-(2^23-1)", a: 1, b: seqnum.Half, want: -(seqnum.Half - 1)},
		{name: "around 2^23", a: seqnum.Half + 1, b: seqnum.Half - 1, want: 2},
		{name: "0 minus max", a: 0, b: top, want: 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := tc.a.Sub(tc.b)
			require.Equal(t, tc.want, got, "%d.Sub(%d)", tc.a, tc.b)
			require.Equal(t, tc.want < 0, tc.a.LessThan(tc.b), "%d.LessThan(%d)", tc.a, tc.b)
			require.Equal(t, tc.want <= 0, tc.a.LessThanEq(tc.b), "%d.LessThanEq(%d)", tc.a, tc.b)
			require.Equal(t, tc.a, tc.b.Add(got), "%d.Add(%d.Sub(%d))", tc.b, tc.a, tc.b)
		})
	}
}

func TestWindow(t *testing.T) {
	tests := []struct {
		name     string
		p, first seqnum.PSN
		size     seqnum.Size
		want     bool
	}{
		{name: "first", p: 100, first: 100, size: 8, want: true},
		{name: "last", p: 107, first: 100, size: 8, want: true},
		{name: "one past", p: 108, first: 100, size: 8, want: false},
		{name: "one before", p: 99, first: 100, size: 8, want: false},
		{name: "empty window", p: 100, first: 100, size: 0, want: false},
		{name: "across wrap inside", p: 1, first: top - 2, size: 8, want: true},
		{name: "across wrap end", p: 5, first: top - 2, size: 8, want: false},
		{name: "across wrap first", p: top - 2, first: top - 2, size: 8, want: true},
		{name: "across 2^23", p: seqnum.Half, first: seqnum.Half - 1, size: 2, want: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			require.Equal(t, tc.want, tc.p.InWindow(tc.first, tc.size), "%d.InWindow(%d, %d)", tc.p, tc.first, tc.size)
			require.Equal(t, tc.want, tc.p.InRange(tc.first, tc.first.Add(int32(tc.size))),
				"%d.InRange(%d, %d+%d)", tc.p, tc.first, tc.first, tc.size)
		})
	}
}

func TestSize(t *testing.T) {
	tests := []struct {
		name     string
		from, to seqnum.PSN
		want     seqnum.Size
	}{
		{name: "empty", from: 9, to: 9, want: 0},
		{name: "forward", from: 9, to: 12, want: 3},
		{name: "across wrap", from: top, to: 2, want: 3},
		{name: "almost everything", from: 1, to: 0, want: top},
		{name: "half", from: 0, to: seqnum.Half, want: seqnum.Half},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			require.Equal(t, tc.want, tc.from.Size(tc.to), "%d.Size(%d)", tc.from, tc.to)
		})
	}
}

func TestIsDuplicate(t *testing.T) {
	tests := []struct {
		name    string
		p, epsn seqnum.PSN
		want    bool
	}{
		{name: "expected itself", p: 50, epsn: 50, want: false},
		{name: "just behind", p: 49, epsn: 50, want: true},
		{name: "ahead", p: 51, epsn: 50, want: false},
		{name: "behind across wrap", p: top, epsn: 0, want: true},
		{name: "oldest duplicate -(2^23-1)", p: 1, epsn: seqnum.Half, want: true},
		{name: "d == -2^23 is not a duplicate", p: 0, epsn: seqnum.Half, want: false},
		{name: "d == -2^23 across wrap", p: seqnum.Half + 5, epsn: 5, want: false},
		{name: "d == 2^23-1 is ahead", p: seqnum.Half - 1, epsn: 0, want: false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			require.Equal(t, tc.want, tc.p.IsDuplicate(tc.epsn), "%d.IsDuplicate(%d)", tc.p, tc.epsn)
		})
	}
}

func TestSpace(t *testing.T) {
	s8, err := seqnum.NewSpace(8)
	require.NoError(t, err, "8-bit space")
	s24, err := seqnum.NewSpace(24)
	require.NoError(t, err, "24-bit space")
	s32, err := seqnum.NewSpace(32)
	require.NoError(t, err, "32-bit space")
	tests := []struct {
		name    string
		s       seqnum.Space
		a, b    uint32
		wantSub int32
	}{
		{name: "8: equal", s: s8, a: 3, b: 3, wantSub: 0},
		{name: "8: ahead across wrap", s: s8, a: 1, b: 255, wantSub: 2},
		{name: "8: behind across wrap", s: s8, a: 255, b: 1, wantSub: -2},
		{name: "8: max positive", s: s8, a: 127, b: 0, wantSub: 127},
		{name: "8: most negative", s: s8, a: 128, b: 0, wantSub: -128},
		{name: "24: matches PSN", s: s24, a: 0, b: seqnum.Half, wantSub: -seqnum.Half},
		{name: "32: wrap", s: s32, a: 0, b: 0xffffffff, wantSub: 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := tc.s.Sub(tc.a, tc.b)
			require.Equal(t, tc.wantSub, got, "Sub(%d, %d) over %d bits", tc.a, tc.b, tc.s.Bits())
			require.Equal(t, tc.wantSub < 0, tc.s.LessThan(tc.a, tc.b), "LessThan(%d, %d)", tc.a, tc.b)
			require.Equal(t, tc.wantSub <= 0, tc.s.LessThanEq(tc.a, tc.b), "LessThanEq(%d, %d)", tc.a, tc.b)
			require.Equal(t, tc.a, tc.s.Add(tc.b, got), "Add(%d, Sub)", tc.b)
		})
	}
	require.Equal(t, uint32(0), s8.Add(255, 1), "8-bit 255+1 wraps")
	require.Equal(t, uint32(255), s8.Add(0, -1), "8-bit 0-1 wraps")
	require.Equal(t, uint32(0x34), s8.Wrap(0x1234), "8-bit Wrap")
}

func TestNewSpaceErrors(t *testing.T) {
	tests := []struct {
		name string
		n    int
	}{
		{name: "zero", n: 0},
		{name: "negative", n: -1},
		{name: "too wide", n: 33},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := seqnum.NewSpace(tc.n)
			require.Error(t, err, "NewSpace(%d) must fail", tc.n)
		})
	}
}
