package scenario

import (
	"fmt"
	"math"

	"github.com/spraynic/spraynic/system"
)

// Figure is one figure of a run that a target can bound.
type Figure int

// The figures.
const (
	// Goodput is the payload delivered as a fraction of the port.
	Goodput Figure = iota + 1
	// P99Ratio is the p99 message completion time over that of the baseline run of the same seed.
	P99Ratio
	// NoRTO is the share of the data packets the network lost that were recovered without a timeout.
	NoRTO
	// SpuriousShare is the share of retransmissions that resent a packet the receiver already had.
	SpuriousShare
	// Spurious is the number of spurious retransmissions.
	Spurious
	// RecoveryUS is the time from a path failure until goodput is back above 85% of the port, microseconds.
	RecoveryUS
)

// String names the figure.
func (f Figure) String() string {
	switch f {
	case Goodput:
		return "goodput"
	case P99Ratio:
		return "p99/base"
	case NoRTO:
		return "no-RTO recovery"
	case SpuriousShare:
		return "spurious share"
	case Spurious:
		return "spurious"
	case RecoveryUS:
		return "recovery us"
	}
	return fmt.Sprintf("Figure(%d)", int(f))
}

// format renders a value of the figure.
func (f Figure) format(v float64) string {
	switch f {
	case Goodput, NoRTO, SpuriousShare:
		return fmt.Sprintf("%.2f%%", 100*v)
	case P99Ratio:
		return fmt.Sprintf("%.2fx", v)
	case Spurious:
		return fmt.Sprintf("%.0f", v)
	}
	return fmt.Sprintf("%.1f", v)
}

// value is the figure of run r, given the baseline run base (nil when the scenario has none). ok is false when
// the figure is undefined for the run (a ratio without a baseline).
func (f Figure) value(r, base *system.Result) (v float64, ok bool) {
	switch f {
	case Goodput:
		return r.Goodput, true
	case P99Ratio:
		if base == nil || base.MCTP99US == 0 {
			return 0, false
		}
		return r.MCTP99US / base.MCTP99US, true
	case NoRTO:
		if r.Lost == 0 {
			return 1, true
		}
		return 1 - float64(r.RetxTimeoutNeeded)/float64(r.Lost), true
	case SpuriousShare:
		if r.Retransmissions == 0 {
			return 0, true
		}
		return float64(r.Spurious) / float64(r.Retransmissions), true
	case Spurious:
		return float64(r.Spurious), true
	case RecoveryUS:
		if r.RecoveryUS < 0 {
			return math.Inf(1), true // never back above the mark in the measured time
		}
		return r.RecoveryUS, true
	}
	return 0, false
}
