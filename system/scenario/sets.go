package scenario

import (
	"github.com/spraynic/spraynic/config"
	"github.com/spraynic/spraynic/system"
)

// tailBase is the traffic of the tail scenarios: the default preset, 8 paths, 8 connections of 64 KiB messages,
// 1000 us; goodput in 2 us bins so that a recovery time reads to 2 us.
func tailBase(seed uint64) (system.Options, error) {
	cfg, err := preset("default", nil)
	return system.Options{Config: cfg, Seed: seed, DurationUS: 1000, BinUS: 2}, err
}

// tailWith is tailBase edited by edit.
func tailWith(edit func(*system.Options)) func(uint64) (system.Options, error) {
	return func(seed uint64) (system.Options, error) {
		o, err := tailBase(seed)
		edit(&o)
		return o, err
	}
}

// at bounds a figure from below; atMost from above.
func at(f Figure, v float64) Target     { return Target{Figure: f, Bound: v} }
func atMost(f Figure, v float64) Target { return Target{Figure: f, Max: true, Bound: v} }

// tailSet: losses, bursts, a dead path and a slow path on the default preset, each against the lossless run.
func tailSet() Set {
	return Set{Name: "tail", Doc: "default preset, 8 paths, 8 connections, 1000 us: the tail under loss and failure",
		Scenarios: []Scenario{
			{Name: "lossless", Doc: "no loss: the baseline", Options: tailBase,
				Targets: []Target{atMost(Spurious, 0)}},
			{Name: "loss-1", Doc: "1% random loss", Baseline: "lossless",
				Options: tailWith(func(o *system.Options) { o.Loss = 0.01 }),
				Targets: []Target{atMost(P99Ratio, 1.3), at(Goodput, 0.96), at(NoRTO, 0.99),
					atMost(SpuriousShare, 0.01)}},
			{Name: "bursty-1", Doc: "1% bursty loss (Gilbert-Elliott, mean burst 4)", Baseline: "lossless",
				Options: tailWith(func(o *system.Options) {
					o.Loss = 0.01
					o.LossModel = "gilbert"
					o.Burst = 4
				}),
				Targets: []Target{atMost(P99Ratio, 1.6)}},
			{Name: "path-dies", Doc: "one of 8 paths dies at 100 us", Baseline: "lossless",
				Options: tailWith(func(o *system.Options) {
					o.Failures = []system.Failure{{Path: 3, AtUS: 100}}
				}),
				Targets: []Target{atMost(RecoveryUS, 10), atMost(P99Ratio, 2.5)}},
			{Name: "slow-path", Doc: "one path at 1/16 of the rate (25 Gb/s)", Baseline: "lossless",
				Options: tailWith(func(o *system.Options) { o.Slow = []system.SlowPath{{Path: 0, Gbps: 25}} }),
				Targets: []Target{atMost(P99Ratio, 2)}},
			{Name: "ack-loss", Doc: "1% ACK loss on top of 1% data loss, against 1% data loss alone",
				Baseline: "loss-1",
				Options: tailWith(func(o *system.Options) {
					o.Loss = 0.01
					o.AckLoss = 0.01
				}),
				Targets: []Target{atMost(P99Ratio, 1.1)}},
			{Name: "gbn-loss-1", Doc: "go-back-N at 1% random loss (the RoCEv2 baseline, no target)",
				Baseline: "lossless",
				Options: tailWith(func(o *system.Options) {
					o.Mode = system.ModeGBN
					o.Loss = 0.01
				})},
		}}
}

// scaleBase is the traffic of the scale scenarios: the u250 preset, 400 Gb/s, conns active connections of 64 KiB
// messages, 600 us, no loss.
func scaleBase(conns int, mode system.Mode) func(uint64) (system.Options, error) {
	return func(seed uint64) (system.Options, error) {
		cfg, err := preset("u250", nil)
		return system.Options{Config: cfg, Mode: mode, Conns: conns, Seed: seed, DurationUS: 600}, err
	}
}

// wide1024 is the u250 preset with 1024 connections and the same timer times in cycles (the tick stretched to
// 1024 cycles, the tick counts cut by four), one 16 KiB message posted per connection, 1000 us.
func wide1024(mode system.Mode) func(uint64) (system.Options, error) {
	return func(seed uint64) (system.Options, error) {
		cfg, err := preset("u250", func(c *config.Config) {
			c.Conns = 1024
			c.TickCycles = 1024 // the same times in cycles as the preset's 256-cycle tick:
			c.RTOTicks = 2      // 8 ticks of 256 cycles
			c.RTOMaxTicks = 16  // 64 ticks
			c.HoldoffTicks = 10 // 40 ticks
		})
		return system.Options{Config: cfg, Mode: mode, Conns: 1024, Backlog: 1, Msg: "fixed:16384",
			DurationUS: 1000, Seed: seed}, err
	}
}

// lossless is the targets of a lossless scale run: most of the port, nothing resent for nothing.
var lossless = []Target{at(Goodput, 0.95), atMost(Spurious, 0)}

// scaleSet: goodput from 8 to 1024 connections on a lossless network, both modes, and 64 at 1% loss.
func scaleSet() Set {
	loss64 := func(seed uint64) (system.Options, error) {
		o, err := scaleBase(64, system.ModeSpray)(seed)
		o.Loss = 0.01
		return o, err
	}
	return Set{Name: "scale", Doc: "u250 preset, 400 Gb/s, 8 to 1024 connections: goodput does not depend on them",
		Scenarios: []Scenario{
			{Name: "conns-8", Doc: "8 connections", Options: scaleBase(8, system.ModeSpray), Targets: lossless},
			{Name: "conns-16", Doc: "16 connections", Options: scaleBase(16, system.ModeSpray), Targets: lossless},
			{Name: "conns-32", Doc: "32 connections", Options: scaleBase(32, system.ModeSpray), Targets: lossless},
			{Name: "conns-64", Doc: "64 connections (the preset's CONNS)", Options: scaleBase(64, system.ModeSpray),
				Targets: lossless},
			{Name: "conns-1024", Doc: "1024 connections, one 16 KiB message each posted", Options: wide1024(
				system.ModeSpray), Targets: lossless},
			{Name: "gbn-conns-8", Doc: "go-back-N, 8 connections", Options: scaleBase(8, system.ModeGBN),
				Targets: lossless},
			{Name: "gbn-conns-64", Doc: "go-back-N, 64 connections", Options: scaleBase(64, system.ModeGBN),
				Targets: lossless},
			{Name: "gbn-conns-1024", Doc: "go-back-N, 1024 connections", Options: wide1024(system.ModeGBN),
				Targets: lossless},
			{Name: "conns-64-loss-1", Doc: "64 connections, 1% random loss", Options: loss64,
				Targets: []Target{at(Goodput, 0.94)}},
		}}
}
