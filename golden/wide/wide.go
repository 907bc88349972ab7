package wide

// MaxBits is the widest vector a Vec holds.
const MaxBits = 256

// Vec holds bits 0..255, bit i in word i/64; bits beyond a port's width are always zero.
type Vec [MaxBits / 64]uint64

// One returns a vector with only bit 0 set.
func One() Vec { return Vec{1} }

// Bit reports bit i.
func (v Vec) Bit(i int) bool { return v[i>>6]>>(uint(i)&63)&1 == 1 }

// Set returns v with bit i set.
func (v Vec) Set(i int) Vec {
	v[i>>6] |= 1 << (uint(i) & 63)
	return v
}

// Shl returns v shifted left by s, truncated to width bits.
func (v Vec) Shl(s, width int) Vec {
	var r Vec
	if s < MaxBits {
		ws, bs := s>>6, uint(s)&63
		for i := len(v) - 1; i >= ws; i-- {
			r[i] = v[i-ws] << bs
			if bs != 0 && i-ws-1 >= 0 {
				r[i] |= v[i-ws-1] >> (64 - bs)
			}
		}
	}
	return r.Trunc(width)
}

// Trunc clears every bit at or above width.
func (v Vec) Trunc(width int) Vec {
	for i := range v {
		lo := i * 64
		switch {
		case width <= lo:
			v[i] = 0
		case width < lo+64:
			v[i] &= 1<<uint(width-lo) - 1
		}
	}
	return v
}

// IsZero reports whether no bit is set.
func (v Vec) IsZero() bool { return v == Vec{} }
