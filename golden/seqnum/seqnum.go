package seqnum

import "fmt"

const (
	// Bits is the width of a PSN.
	Bits = 24
	// Modulus is the number of distinct PSNs, 2^24.
	Modulus = 1 << Bits
	// Mask keeps the low 24 bits.
	Mask = Modulus - 1
	// Half is 2^23, the magnitude of the most negative difference.
	Half = 1 << (Bits - 1)
)

// PSN is a 24-bit packet sequence number; its value is always below 2^24.
type PSN uint32

// Size is a number of consecutive PSNs, e.g. a window.
type Size uint32

// New returns v truncated to 24 bits.
func New(v uint32) PSN { return PSN(v & Mask) }

// Uint32 returns the PSN as a port value.
func (p PSN) Uint32() uint32 { return uint32(p) }

// Add returns p+n modulo 2^24; n may be negative.
func (p PSN) Add(n int32) PSN { return PSN((uint32(p) + uint32(n)) & Mask) }

// Sub returns the signed 24-bit difference p-o, in [-2^23, 2^23-1]: the two's complement of the wrapped difference.
func (p PSN) Sub(o PSN) int32 { return int32((uint32(p)-uint32(o))<<(32-Bits)) >> (32 - Bits) }

// LessThan reports whether p comes before o (p-o < 0 as a signed 24-bit difference).
func (p PSN) LessThan(o PSN) bool { return p.Sub(o) < 0 }

// LessThanEq reports whether p comes before o or equals it.
func (p PSN) LessThanEq(o PSN) bool { return p.Sub(o) <= 0 }

// InRange reports whether p lies in [a, b) walking forward from a; an empty range (a == b) holds nothing.
func (p PSN) InRange(a, b PSN) bool { return a.Size(p) < a.Size(b) }

// InWindow reports whether p lies in [first, first+size) walking forward from first.
func (p PSN) InWindow(first PSN, size Size) bool { return Size(first.Size(p)) < size }

// Size returns the number of PSNs in [p, end) walking forward from p, in [0, 2^24).
func (p PSN) Size(end PSN) Size { return Size((uint32(end) - uint32(p)) & Mask) }

// IsDuplicate reports whether p lies in the IBTA duplicate region of the expected PSN epsn:
// [epsn-2^23+1, epsn), i.e. -(2^23-1) <= p-epsn <= -1. The difference -2^23 is not a duplicate (it is invalid).
func (p PSN) IsDuplicate(epsn PSN) bool {
	d := p.Sub(epsn)
	return d < 0 && d != -Half
}

// Space is an n-bit sequence space (1 <= n <= 32) with wrap-aware arithmetic on uint32 values.
// The zero Space is invalid; build one with NewSpace.
type Space struct {
	// bits is the width n.
	bits uint
	// mask keeps the low n bits.
	mask uint32
}

// NewSpace returns the n-bit sequence space; n must be in 1..32.
func NewSpace(n int) (Space, error) {
	if n < 1 || n > 32 {
		return Space{}, fmt.Errorf("sequence width %d out of range (allowed 1..32)", n)
	}
	return Space{bits: uint(n), mask: uint32(1<<uint(n) - 1)}, nil
}

// Bits returns the width n.
func (s Space) Bits() int { return int(s.bits) }

// Wrap returns v truncated to n bits.
func (s Space) Wrap(v uint32) uint32 { return v & s.mask }

// Add returns a+k modulo 2^n; k may be negative.
func (s Space) Add(a uint32, k int32) uint32 { return (a + uint32(k)) & s.mask }

// Sub returns the signed n-bit difference a-b, in [-2^(n-1), 2^(n-1)-1].
func (s Space) Sub(a, b uint32) int32 { return int32((a-b)<<(32-s.bits)) >> (32 - s.bits) }

// LessThan reports whether a comes before b (a-b < 0 as a signed n-bit difference).
func (s Space) LessThan(a, b uint32) bool { return s.Sub(a, b) < 0 }

// LessThanEq reports whether a comes before b or equals it.
func (s Space) LessThanEq(a, b uint32) bool { return s.Sub(a, b) <= 0 }
