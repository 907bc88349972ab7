package main

import (
	"fmt"
	"os"

	"github.com/spraynic/spraynic/system"
	"github.com/urfave/cli/v2"
	"golang.org/x/term"
)

// simFlags are the options of one end-to-end run (docs/e2e.md), shared by sim, sim sweep and gen.
func simFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "config", Value: "default", Usage: "preset name or config file (block parameters)"},
		&cli.StringFlag{Name: "mode", Value: "spray",
			Usage: "spray (selective, sprayed) or gbn (RoCEv2 go-back-N, one path per connection)"},
		&cli.IntFlag{Name: "paths", Usage: "paths per connection and fabric paths (0: the config's paths)"},
		&cli.IntFlag{Name: "net-paths", Usage: "fabric paths when different from --paths"},
		&cli.IntFlag{Name: "conns", Usage: "active connections (0: min(8, config conns))"},
		&cli.StringFlag{Name: "msg", Value: "fixed:65536",
			Usage: "message sizes: fixed:N, uniform:MIN:MAX, exp:MEAN (bytes)"},
		&cli.IntFlag{Name: "backlog", Value: 4, Usage: "messages each connection keeps posted"},
		&cli.IntFlag{Name: "mtu", Value: 4096, Usage: "payload bytes per packet"},
		&cli.IntFlag{Name: "port-gbps", Value: 400, Usage: "endpoint port rate, Gb/s"},
		&cli.IntFlag{Name: "path-gbps", Usage: "fabric path rate, Gb/s (0: the port rate)"},
		&cli.IntFlag{Name: "clock-mhz", Value: 250, Usage: "NIC clock, MHz (one cycle of the models)"},
		&cli.Float64Flag{Name: "delay-ns", Value: 1000, Usage: "one-way propagation delay of path 0, ns (above 0)"},
		&cli.Float64Flag{Name: "skew-ns", Value: 100, Usage: "extra delay per path index, ns (above 0)"},
		&cli.Float64Flag{Name: "jitter-ns", Value: 200,
			Usage: "uniform jitter per packet, ns, above 0 (never reorders within a path)"},
		&cli.Float64Flag{Name: "loss", Usage: "random loss per data packet, 0..0.5"},
		&cli.StringFlag{Name: "loss-model", Value: "bernoulli", Usage: "bernoulli or gilbert (bursty)"},
		&cli.Float64Flag{Name: "burst", Value: 4, Usage: "mean loss burst length of the gilbert model, packets"},
		&cli.Float64Flag{Name: "ack-loss", Usage: "random loss per ACK packet, 0..0.5"},
		&cli.BoolFlag{Name: "bidir", Usage: "endpoint B sends the same traffic to A (both directions then use --loss)"},
		&cli.IntFlag{Name: "queue-kb", Value: 1024, Usage: "path queue capacity, KiB (tail drop beyond)"},
		&cli.IntFlag{Name: "ecn-kb", Value: 128, Usage: "ECN marking threshold, KiB (above 0)"},
		&cli.StringSliceFlag{Name: "fail", Usage: "path failure PATH@AT_US[-UNTIL_US] (repeatable; no UNTIL: stays down)"},
		&cli.StringSliceFlag{Name: "slow",
			Usage: "slow fabric path PATH:GBPS, both directions (repeatable): congestion and ECN marks on it"},
		&cli.StringSliceFlag{Name: "reset",
			Usage: "reset an endpoint mid-traffic SIDE@AT_US, SIDE A or B (repeatable); connections reopen"},
		&cli.Float64Flag{Name: "quiet-us",
			Usage: "connection manager's wait before a reopen, us (0: twice the longest one-way trip)"},
		&cli.StringSliceFlag{
			Name: "reconnect",
			Usage: "connection manager closes connection CONN at AT_US and reopens it after the quiet time: " +
				"CONN@AT_US (repeatable)",
		},
		&cli.Float64Flag{
			Name: "all-failed-reconnect-us",
			Usage: "connection manager reconnects (close, reopen) a connection m_status shows all-failed this long, " +
				"us (0: never)",
		},
		&cli.Float64Flag{
			Name: "host-lag-us",
			Usage: "sending hosts learn of a disconnect this late, us (below the quiet time): " +
				"until then the NIC drops what they hand",
		},
		&cli.Float64Flag{Name: "cpl-stall",
			Usage: "probability the receiving host holds m_cpl_ready low in a cycle, 0..0.9 " +
				"(completion back-pressure)"},
		&cli.Float64Flag{Name: "duration-us", Value: 500, Usage: "measured simulated time, us"},
		&cli.Float64Flag{Name: "drain-us", Value: 5000, Usage: "longest drain after it, us"},
		&cli.Float64Flag{Name: "bin-us", Value: 10, Usage: "goodput time series bin, us"},
		&cli.Uint64Flag{Name: "seed", Value: defaultSeed, Usage: "seed of every random choice"},
		&cli.BoolFlag{Name: "quiet", Usage: "no progress line on a terminal"},
	}
}

// simOptions reads the flags of simFlags.
func simOptions(c *cli.Context) (system.Options, error) {
	cfg, err := configFlag("config", c.String("config"))
	if err != nil {
		return system.Options{}, err
	}
	if p := c.Int("paths"); p != 0 {
		cfg.Paths = p
		if err := cfg.Validate(); err != nil {
			return system.Options{}, usageErr("--paths %d: %v", p, err)
		}
	}
	o := system.Options{
		Config: cfg, Mode: system.Mode(c.String("mode")), NetPaths: c.Int("net-paths"), Conns: c.Int("conns"),
		Msg: c.String("msg"), Backlog: c.Int("backlog"), MTU: c.Int("mtu"), ClockMHz: c.Int("clock-mhz"),
		PortGbps: c.Int("port-gbps"), PathGbps: c.Int("path-gbps"), DelayNS: c.Float64("delay-ns"),
		SkewNS: c.Float64("skew-ns"), JitterNS: c.Float64("jitter-ns"), Loss: c.Float64("loss"),
		LossModel: c.String("loss-model"), Burst: c.Float64("burst"), AckLoss: c.Float64("ack-loss"),
		Bidir: c.Bool("bidir"), QueueKB: c.Int("queue-kb"), ECNKB: c.Int("ecn-kb"),
		DurationUS: c.Float64("duration-us"), DrainUS: c.Float64("drain-us"), BinUS: c.Float64("bin-us"),
		Seed: c.Uint64("seed"), QuietUS: c.Float64("quiet-us"),
		AllFailedReconnectUS: c.Float64("all-failed-reconnect-us"), HostLagUS: c.Float64("host-lag-us"),
		CplStall: c.Float64("cpl-stall"),
	}
	sched := system.Schedule{Failures: c.StringSlice("fail"), Reconnects: c.StringSlice("reconnect"),
		Slow: c.StringSlice("slow"), Resets: c.StringSlice("reset")}
	if err := sched.Apply(&o); err != nil {
		return system.Options{}, asUsage(err)
	}
	d := o.Defaults()
	if err := explicitZeros(o, d); err != nil {
		return system.Options{}, err
	}
	return d, asUsage(d.Validate())
}

// explicitZeros refuses the zero (or empty) values that system.Options.Defaults would silently replace by a
// default (o as the flags gave it, d after Defaults): out of range ones with the option's range, in-range ones
// (delays, jitter, the ECN threshold) saying that 0 cannot be simulated. The zeros whose meaning the flags
// document (--paths, --net-paths, --conns, --path-gbps) pass.
func explicitZeros(o, d system.Options) error {
	v := d
	v.Mode, v.Msg, v.LossModel = o.Mode, o.Msg, o.LossModel
	v.Backlog, v.MTU, v.ClockMHz, v.PortGbps, v.QueueKB = o.Backlog, o.MTU, o.ClockMHz, o.PortGbps, o.QueueKB
	v.Burst, v.DurationUS, v.DrainUS, v.BinUS = o.Burst, o.DurationUS, o.DrainUS, o.BinUS
	if err := v.Validate(); err != nil {
		return asUsage(err)
	}
	for _, z := range []struct {
		name     string
		set, def float64
		unit     string
		instead  string
	}{
		{name: "delay-ns", set: o.DelayNS, def: d.DelayNS, unit: "ns", instead: "0.001 for almost none"},
		{name: "skew-ns", set: o.SkewNS, def: d.SkewNS, unit: "ns", instead: "0.001 for almost none"},
		{name: "jitter-ns", set: o.JitterNS, def: d.JitterNS, unit: "ns", instead: "0.001 for almost none"},
		{name: "ecn-kb", set: float64(o.ECNKB), def: float64(d.ECNKB), unit: "KiB",
			instead: "1 to mark nearly every packet"},
	} {
		if z.set == 0 {
			return usageErr("option %s: value 0 not supported: the simulator reads 0 as its default %g %s "+
				"(allowed: above 0; %s)", z.name, z.def, z.unit, z.instead)
		}
	}
	return nil
}

// progressTo returns a progress printer for w when it is a terminal and not quiet, else nil.
func progressTo(w *os.File, quiet bool, clockMHz int) func(system.Progress) {
	if quiet {
		return nil
	}
	if !term.IsTerminal(int(w.Fd())) {
		return nil
	}
	return func(p system.Progress) {
		fmt.Fprintf(w, "\r%8.1f of %.1f us simulated, %d data packets, goodput so far %.2f%%   ",
			float64(p.Cycle)/float64(clockMHz), float64(p.Cycles)/float64(clockMHz), p.Packets, 100*p.Goodput)
	}
}
