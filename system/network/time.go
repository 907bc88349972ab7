package network

// Cycles is the serialisation time of bytes at gbps Gb/s with a clockMHz MHz clock, bytes*8*clockMHz /
// (gbps*1000) cycles, as the exact reduced fraction num/den.
func Cycles(bytes, gbps, clockMHz int) (num, den int64) {
	num, den = int64(bytes)*8*int64(clockMHz), int64(gbps)*1000
	g := gcd(num, den)
	return num / g, den / g
}

// gcd is the greatest common divisor of a and b (b > 0).
func gcd(a, b int64) int64 {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

// instant is a point in time, cyc + frac/den cycles, for a denominator den fixed by the link that owns it.
type instant struct {
	// cyc is the whole cycles; frac the fraction in units of 1/den cycle, 0 <= frac < den.
	cyc, frac int64
}

// add returns t advanced by ticks units of 1/den cycle.
func (t instant) add(ticks, den int64) instant {
	t.frac += ticks
	if t.frac >= den {
		if t.frac < 2*den { // the common case: less than a cycle, no division
			t.cyc++
			t.frac -= den
		} else {
			t.cyc += t.frac / den
			t.frac %= den
		}
	}
	return t
}

// before reports whether t is earlier than u (same denominator).
func (t instant) before(u instant) bool { return t.cyc < u.cyc || (t.cyc == u.cyc && t.frac < u.frac) }

// ceil is the first whole cycle at or after t.
func (t instant) ceil() int64 {
	if t.frac > 0 {
		return t.cyc + 1
	}
	return t.cyc
}
