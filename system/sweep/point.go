package sweep

import (
	"fmt"
	"math"
)

// Point is one simulation run of the sweep.
type Point struct {
	// Mode names the transport, e.g. "spray" or "gbn"; any non-empty string is allowed and names the series.
	Mode string
	// Paths is the path count, at least 1.
	Paths int
	// Loss is the random loss probability per packet, 0..1.
	Loss float64
	// Goodput is the payload delivered divided by the link capacity, 0..1.
	Goodput float64
	// P99US is the p99 message completion time in microseconds; 0 when unknown.
	P99US float64
	// Retx is the number of retransmissions.
	Retx int64
}

// fieldError is one bad field of a point; callers say which point or CSV line it came from.
type fieldError struct {
	// field is the CSV column name of the bad field.
	field string
	// msg says what is wrong with it.
	msg string
}

// check returns the first bad field of p, or nil when p is valid.
func (p Point) check() *fieldError {
	switch {
	case p.Mode == "":
		return &fieldError{"mode", "is empty"}
	case p.Paths < 1:
		return &fieldError{"paths", fmt.Sprintf("is %d, want at least 1", p.Paths)}
	}
	if msg := checkFraction(p.Loss); msg != "" {
		return &fieldError{"loss", msg}
	}
	if msg := checkFraction(p.Goodput); msg != "" {
		return &fieldError{"goodput", msg}
	}
	switch {
	case math.IsNaN(p.P99US) || math.IsInf(p.P99US, 0) || p.P99US < 0:
		return &fieldError{"p99_us", fmt.Sprintf("is %g, want a finite value >= 0", p.P99US)}
	case p.Retx < 0:
		return &fieldError{"retx", fmt.Sprintf("is %d, want at least 0", p.Retx)}
	}
	return nil
}

// checkFraction returns why v is not a probability in 0..1, or "" when it is one.
func checkFraction(v float64) string {
	if math.IsNaN(v) || v < 0 || v > 1 {
		return fmt.Sprintf("is %g, want 0..1", v)
	}
	return ""
}

// validate checks every point, naming the index and field of the first bad one.
func validate(pts []Point) error {
	for i, p := range pts {
		if fe := p.check(); fe != nil {
			return fmt.Errorf("point %d (%s): %s %s", i, seriesKey{mode: p.Mode, paths: p.Paths}, fe.field, fe.msg)
		}
	}
	return nil
}
