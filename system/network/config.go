package network

import (
	"errors"
	"fmt"
	"math"
	"strings"
)

// Limits of the configuration (docs/network.md, "Configuration").
const (
	// MinClockMHz and MaxClockMHz bound Config.ClockMHz.
	MinClockMHz, MaxClockMHz = 1, 2000
	// MinGbps and MaxGbps bound the port and path rates.
	MinGbps, MaxGbps = 1, 1600
	// MaxPaths is the largest number of paths.
	MaxPaths = 64
	// MaxDelay bounds PathConfig.Delay and PathConfig.Jitter, cycles.
	MaxDelay = 1_000_000_000
	// MaxQueueBytes bounds PathConfig.QueueBytes.
	MaxQueueBytes = 1 << 30
	// MinPacketBytes and MaxPacketBytes bound Packet.Bytes.
	MinPacketBytes, MaxPacketBytes = 1, 65535
)

// Loss model names (Loss.Model); the empty string means LossNone.
const (
	// LossNone loses nothing.
	LossNone = "none"
	// LossBernoulli loses each packet independently with probability P.
	LossBernoulli = "bernoulli"
	// LossGilbert is the Gilbert-Elliott two-state model.
	LossGilbert = "gilbert"
)

// lossModels lists the model names in the order the errors give them.
var lossModels = []string{LossNone, LossBernoulli, LossGilbert}

// Config is one direction of the network.
type Config struct {
	// ClockMHz is the NIC clock (1..2000 MHz); every time in the model is in cycles of it.
	ClockMHz int `json:"clock_mhz"`
	// PortGbps is the sender's egress port rate (1..1600 Gb/s): packets serialise on it one at a time.
	PortGbps int `json:"port_gbps"`
	// Paths are the 1..64 paths the ECMP hash spreads packets over.
	Paths []PathConfig `json:"paths"`
	// HashSeed is the ECMP hash seed.
	HashSeed uint32 `json:"hash_seed"`
	// Seed is the source of all randomness (loss, jitter).
	Seed uint64 `json:"seed"`
}

// PathConfig is one path: a queue in front of its bottleneck link, then the wire.
type PathConfig struct {
	// Gbps is the path's bottleneck link rate (1..1600 Gb/s): the queue drains at it.
	Gbps int `json:"gbps"`
	// Delay is the propagation delay (0..10^9 cycles) from the link to the far end.
	Delay int64 `json:"delay"`
	// Jitter adds a delay uniform in [0, Jitter] cycles (0..10^9); it never reorders packets of one path.
	Jitter int64 `json:"jitter"`
	// QueueBytes is the queue capacity (1..2^30 bytes): a packet that does not fit is tail-dropped.
	QueueBytes int `json:"queue_bytes"`
	// ECNBytes is the marking threshold (0..QueueBytes): a packet that finds more than ECNBytes bytes queued when
	// it enters is CE-marked; ECNBytes = QueueBytes never marks.
	ECNBytes int `json:"ecn_bytes"`
	// Loss is the random loss after the link.
	Loss Loss `json:"loss"`
	// Down are scheduled failures, ascending and not overlapping: a packet that reaches the path, or would start on
	// its link, at a cycle in [From, To) is dropped as down.
	Down []Interval `json:"down"`
}

// Loss is a random loss model, decided per packet that has crossed the path's link.
type Loss struct {
	// Model is "none" (or empty), "bernoulli" or "gilbert".
	Model string `json:"model"`
	// P is the Bernoulli drop probability (0..1).
	P float64 `json:"p"`
	// GoodToBad is the Gilbert-Elliott probability (0..1) of moving from the good to the bad state, per packet.
	GoodToBad float64 `json:"good_to_bad"`
	// BadToGood is the Gilbert-Elliott probability (0..1) of moving from the bad to the good state, per packet.
	BadToGood float64 `json:"bad_to_good"`
	// LossGood is the Gilbert-Elliott drop probability (0..1) in the good state.
	LossGood float64 `json:"loss_good"`
	// LossBad is the Gilbert-Elliott drop probability (0..1) in the bad state.
	LossBad float64 `json:"loss_bad"`
}

// Interval is the cycles [From, To).
type Interval struct {
	// From is the first cycle inside.
	From int64 `json:"from"`
	// To is the first cycle after.
	To int64 `json:"to"`
}

// Validate checks every field against its range. Each error names the field (with its index), the value and
// the allowed range; all errors are joined.
func (c Config) Validate() error {
	var errs []error
	intRange := func(name string, v, lo, hi int64, note string) {
		if v < lo || v > hi {
			errs = append(errs, fmt.Errorf("%s: value %d out of range (allowed %d..%d%s)", name, v, lo, hi, note))
		}
	}
	prob := func(name string, v float64) {
		if !(v >= 0 && v <= 1) { // also rejects NaN
			errs = append(errs, fmt.Errorf("%s: value %v out of range (allowed 0..1)", name, v))
		}
	}
	intRange("clock_mhz", int64(c.ClockMHz), MinClockMHz, MaxClockMHz, "")
	intRange("port_gbps", int64(c.PortGbps), MinGbps, MaxGbps, "")
	if len(c.Paths) < 1 || len(c.Paths) > MaxPaths {
		errs = append(errs, fmt.Errorf("paths: %d paths out of range (allowed 1..%d)", len(c.Paths), MaxPaths))
	}
	for i, p := range c.Paths {
		f := func(field string) string { return fmt.Sprintf("paths[%d].%s", i, field) }
		intRange(f("gbps"), int64(p.Gbps), MinGbps, MaxGbps, "")
		intRange(f("delay"), p.Delay, 0, MaxDelay, "")
		intRange(f("jitter"), p.Jitter, 0, MaxDelay, "")
		intRange(f("queue_bytes"), int64(p.QueueBytes), 1, MaxQueueBytes, "")
		if p.QueueBytes >= 1 && p.QueueBytes <= MaxQueueBytes {
			intRange(f("ecn_bytes"), int64(p.ECNBytes), 0, int64(p.QueueBytes), ", at most queue_bytes")
		}
		switch p.Loss.Model {
		case "", LossNone:
		case LossBernoulli:
			prob(f("loss.p"), p.Loss.P)
		case LossGilbert:
			prob(f("loss.good_to_bad"), p.Loss.GoodToBad)
			prob(f("loss.bad_to_good"), p.Loss.BadToGood)
			prob(f("loss.loss_good"), p.Loss.LossGood)
			prob(f("loss.loss_bad"), p.Loss.LossBad)
		default:
			errs = append(errs, fmt.Errorf("%s: unknown model %q (allowed %s)",
				f("loss.model"), p.Loss.Model, strings.Join(lossModels, ", ")))
		}
		prevTo := int64(0)
		for j, d := range p.Down {
			g := func(field string) string { return fmt.Sprintf("paths[%d].down[%d].%s", i, j, field) }
			switch {
			case d.From < prevTo:
				if j == 0 {
					errs = append(errs, fmt.Errorf("%s: value %d out of range (allowed 0..%d)",
						g("from"), d.From, int64(math.MaxInt64)))
				} else {
					errs = append(errs, fmt.Errorf("%s: value %d below down[%d].to %d "+
						"(allowed: intervals ascending, not overlapping)", g("from"), d.From, j-1, prevTo))
				}
			case d.To <= d.From:
				errs = append(errs, fmt.Errorf("%s: value %d not above from %d (allowed: from < to)",
					g("to"), d.To, d.From))
			}
			prevTo = max(prevTo, d.To)
		}
	}
	return errors.Join(errs...)
}
