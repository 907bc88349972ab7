package system

import (
	"math"

	"github.com/spraynic/spraynic/system/network"
)

// NetConfig is the network side idx (0: A, 1: B) sends into, under o after Defaults: one path per fabric path,
// each with its rate, delay, loss and failures.
func (o Options) NetConfig(idx int) network.Config {
	nc := network.Config{ClockMHz: o.ClockMHz, PortGbps: o.PortGbps, HashSeed: uint32(0x5eed0000 + idx),
		Seed: splitmix(o.Seed + uint64(idx)*0x9e3779b97f4a7c15)}
	for p := 0; p < o.NetPaths; p++ {
		nc.Paths = append(nc.Paths, o.pathConfig(idx, p))
	}
	return nc
}

// pathConfig is fabric path p of side idx's network: the path rate (or its --slow rate), delay plus skew,
// jitter, queue, the loss of the direction (data, or ACKs only), and its failures.
func (o Options) pathConfig(idx, p int) network.PathConfig {
	cyc := func(ns float64) int64 { return int64(math.Round(ns * float64(o.ClockMHz) / 1000)) }
	gbps := o.PathGbps
	for _, sp := range o.Slow {
		if sp.Path == p {
			gbps = sp.Gbps
		}
	}
	pc := network.PathConfig{Gbps: gbps, Delay: cyc(o.DelayNS + float64(p)*o.SkewNS), Jitter: cyc(o.JitterNS),
		QueueBytes: o.QueueKB << 10, ECNBytes: o.ECNKB << 10}
	loss := o.Loss
	if idx == 1 && !o.Bidir {
		loss = o.AckLoss
	}
	switch {
	case loss == 0:
		pc.Loss = network.Loss{Model: "none"}
	case o.LossModel == "gilbert":
		b2g := 1 / o.Burst
		pc.Loss = network.Loss{Model: "gilbert", BadToGood: b2g, GoodToBad: loss * b2g / (1 - loss), LossBad: 1}
	default:
		pc.Loss = network.Loss{Model: "bernoulli", P: loss}
	}
	for _, f := range o.Failures {
		if f.Path == p {
			iv := network.Interval{From: cyc(f.AtUS * 1000), To: math.MaxInt64}
			if f.UntilUS != 0 {
				iv.To = cyc(f.UntilUS * 1000)
			}
			pc.Down = append(pc.Down, iv)
		}
	}
	return pc
}
