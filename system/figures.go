package system

import (
	"math"
	"math/rand/v2"
	"slices"
)

// Tally is what a run observed, in cycles of the NIC clock: the figures Result.Figures derives from it. The
// frame-level simulation (cosim.SimFrames) fills it as this package's simulator does.
type Tally struct {
	// MCT holds each delivered message's completion time, Resend each retransmission's time since the packet's
	// previous transmission.
	MCT, Resend []int64
	// Bins holds the payload bytes delivered to the receiving host in each bin of BinCycles, from the start of the
	// measured time; Measured is the measured time's length.
	Bins                []int64
	BinCycles, Measured int64
}

// Capacity is the bytes a port of o.PortGbps carries in t cycles of o.ClockMHz.
func (o Options) Capacity(t int64) float64 {
	return float64(t) * float64(o.PortGbps) * 1000 / 8 / float64(o.ClockMHz)
}

// Figures sets r's MCT and resend percentiles (microseconds), the goodput series and, for a run with failures or
// resets, the recovery time, from t under o (after Defaults).
func (r *Result) Figures(o Options, t Tally) {
	us := func(c int64) float64 { return float64(c) / float64(o.ClockMHz) }
	if n := len(t.MCT); n > 0 {
		m := slices.Clone(t.MCT)
		slices.Sort(m)
		q := func(f float64) int64 { return m[min(n-1, int(math.Ceil(f*float64(n)))-1)] }
		r.MCTP50US, r.MCTP99US, r.MCTP999US, r.MCTMaxUS = us(q(0.5)), us(q(0.99)), us(q(0.999)), us(m[n-1])
	}
	if n := len(t.Resend); n > 0 {
		rs := slices.Clone(t.Resend)
		slices.Sort(rs)
		r.ResendP50US, r.ResendMaxUS = us(rs[(n-1)/2]), us(rs[n-1])
	}
	r.BinUS = o.BinUS
	r.Series = nil
	nb := int((t.Measured + t.BinCycles - 1) / t.BinCycles)
	for i := 0; i < nb; i++ {
		v := int64(0)
		if i < len(t.Bins) {
			v = t.Bins[i]
		}
		w := min(t.BinCycles, t.Measured-int64(i)*t.BinCycles)
		r.Series = append(r.Series, float64(v)/o.Capacity(w))
	}
	if len(o.Failures) > 0 || len(o.Resets) > 0 {
		r.RecoveryUS = recovery(o, r.Series)
	}
}

// RecoveryTarget is the goodput a run with a failure must return to.
const RecoveryTarget = 0.85

// recovery returns the time from the first failure or reset to the first bin whose goodput is back at RecoveryTarget
// after having dipped below it (0 if it never dipped, -1 if it never came back).
func recovery(o Options, series []float64) float64 {
	at := math.Inf(1)
	for _, f := range o.Failures {
		at = min(at, f.AtUS)
	}
	for _, r := range o.Resets {
		at = min(at, r.AtUS)
	}
	first := int(at / o.BinUS)
	dipped := false
	for i := first; i < len(series); i++ {
		g := series[i]
		if g < RecoveryTarget {
			dipped = true
			continue
		}
		if !dipped {
			continue
		}
		return float64(i)*o.BinUS - at
	}
	if !dipped {
		return 0
	}
	return -1
}

// WithMode returns o with its configuration's GBN set by the mode (go-back-N: 1, spray: 0).
func (o Options) WithMode() Options {
	o.Config.GBN = 0
	if o.Mode == ModeGBN {
		o.Config.GBN = 1
	}
	return o
}

// Fill writes bytes drawn from rng into b (a message's contents).
func Fill(rng *rand.Rand, b []byte) {
	for i := 0; i < len(b); i += 8 {
		v := rng.Uint64()
		for j := i; j < i+8 && j < len(b); j++ {
			b[j] = byte(v)
			v >>= 8
		}
	}
}

// MessageSizes parses spec (the form of Options.Msg) and returns a source of message sizes drawn from rng.
func MessageSizes(spec string, rng *rand.Rand) (func() int, error) {
	d, err := parseMsg(spec)
	if err != nil {
		return nil, err
	}
	return func() int { return d.draw(rng) }, nil
}

// draw draws one message size from rng.
func (d msgDist) draw(rng *rand.Rand) int {
	switch d.kind {
	case "uniform":
		return d.a + rng.IntN(d.b-d.a+1)
	case "exp":
		return min(maxMsg, max(1, int(rng.ExpFloat64()*float64(d.a))))
	}
	return d.a
}
