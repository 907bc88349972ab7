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
	// Conns is the number of active connections, at least 1.
	Conns int
	// Loss is the random loss probability per packet, 0..1.
	Loss float64
	// Goodput is the payload delivered divided by the link capacity, 0..1.
	Goodput float64
	// P50US, P99US and P999US are the 50th, 99th and 99.9th percentile message completion times in microseconds,
	// P50US <= P99US <= P999US; all 0 when no message completed.
	P50US, P99US, P999US float64
	// Retx is the number of retransmissions, Spurious the retransmissions of packets the receiver already had.
	Retx, Spurious int64
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
	case p.Conns < 1:
		return &fieldError{"conns", fmt.Sprintf("is %d, want at least 1", p.Conns)}
	}
	if msg := checkFraction(p.Loss); msg != "" {
		return &fieldError{"loss", msg}
	}
	if msg := checkFraction(p.Goodput); msg != "" {
		return &fieldError{"goodput", msg}
	}
	for _, t := range []struct {
		field  string
		v, low float64
		lowIs  string
	}{
		{field: "p50_us", v: p.P50US},
		{field: "p99_us", v: p.P99US, low: p.P50US, lowIs: "p50_us"},
		{field: "p999_us", v: p.P999US, low: p.P99US, lowIs: "p99_us"},
	} {
		switch {
		case math.IsNaN(t.v) || math.IsInf(t.v, 0) || t.v < 0:
			return &fieldError{t.field, fmt.Sprintf("is %g, want a finite value >= 0", t.v)}
		case t.v < t.low:
			return &fieldError{t.field, fmt.Sprintf("is %g, want at least %s %g", t.v, t.lowIs, t.low)}
		}
	}
	switch {
	case p.Retx < 0:
		return &fieldError{"retx", fmt.Sprintf("is %d, want at least 0", p.Retx)}
	case p.Spurious < 0 || p.Spurious > p.Retx:
		return &fieldError{"spurious", fmt.Sprintf("is %d, want 0..retx %d", p.Spurious, p.Retx)}
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
