package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"

	"github.com/urfave/cli/v2"

	"github.com/spraynic/spraynic/config"
	"github.com/spraynic/spraynic/cosim"
	"github.com/spraynic/spraynic/system"
	sweep "github.com/spraynic/spraynic/system/sweep"
	"github.com/spraynic/spraynic/tops"
)

// simFlags are the options of one end-to-end run (docs/e2e.md), shared by sim, sim sweep and gen.
func simFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "config", Value: "default", Usage: "preset name or config file (block parameters)"},
		&cli.StringFlag{Name: "mode", Value: "spray", Usage: "spray (selective, sprayed) or gbn (RoCEv2 go-back-N, one path per connection)"},
		&cli.IntFlag{Name: "paths", Usage: "paths per connection and fabric paths (0: the config's paths)"},
		&cli.IntFlag{Name: "net-paths", Usage: "fabric paths when different from --paths"},
		&cli.IntFlag{Name: "conns", Usage: "active connections (0: min(8, config conns))"},
		&cli.StringFlag{Name: "msg", Value: "fixed:65536", Usage: "message sizes: fixed:N, uniform:MIN:MAX, exp:MEAN (bytes)"},
		&cli.IntFlag{Name: "backlog", Value: 4, Usage: "messages each connection keeps posted"},
		&cli.IntFlag{Name: "mtu", Value: 4096, Usage: "payload bytes per packet"},
		&cli.IntFlag{Name: "port-gbps", Value: 400, Usage: "endpoint port rate, Gb/s"},
		&cli.IntFlag{Name: "path-gbps", Usage: "fabric path rate, Gb/s (0: the port rate)"},
		&cli.IntFlag{Name: "clock-mhz", Value: 250, Usage: "NIC clock, MHz (one cycle of the models)"},
		&cli.Float64Flag{Name: "delay-ns", Value: 1000, Usage: "one-way propagation delay of path 0, ns"},
		&cli.Float64Flag{Name: "skew-ns", Value: 100, Usage: "extra delay per path index, ns"},
		&cli.Float64Flag{Name: "jitter-ns", Value: 200, Usage: "uniform jitter per packet, ns (never reorders within a path)"},
		&cli.Float64Flag{Name: "loss", Usage: "random loss per data packet, 0..0.5"},
		&cli.StringFlag{Name: "loss-model", Value: "bernoulli", Usage: "bernoulli or gilbert (bursty)"},
		&cli.Float64Flag{Name: "burst", Value: 4, Usage: "mean loss burst length of the gilbert model, packets"},
		&cli.Float64Flag{Name: "ack-loss", Usage: "random loss per ACK packet, 0..0.5"},
		&cli.BoolFlag{Name: "bidir", Usage: "endpoint B sends the same traffic to A (both directions then use --loss)"},
		&cli.IntFlag{Name: "queue-kb", Value: 1024, Usage: "path queue capacity, KiB (tail drop beyond)"},
		&cli.IntFlag{Name: "ecn-kb", Value: 128, Usage: "ECN marking threshold, KiB"},
		&cli.StringSliceFlag{Name: "fail", Usage: "path failure PATH@AT_US[-UNTIL_US] (repeatable; no UNTIL: stays down)"},
		&cli.StringSliceFlag{Name: "slow", Usage: "slow fabric path PATH:GBPS, both directions (repeatable): congestion and ECN marks on it"},
		&cli.StringSliceFlag{Name: "reset", Usage: "reset an endpoint mid-traffic SIDE@AT_US, SIDE A or B (repeatable); connections reopen"},
		&cli.Float64Flag{Name: "quiet-us", Usage: "connection manager's wait before a reopen, us (0: twice the longest one-way trip)"},
		&cli.StringSliceFlag{Name: "reconnect", Usage: "connection manager closes connection CONN at AT_US and reopens it after the quiet time: CONN@AT_US (repeatable)"},
		&cli.Float64Flag{Name: "all-failed-reconnect-us", Usage: "connection manager reconnects (close, reopen) a connection m_status shows all-failed this long, us (0: never)"},
		&cli.Float64Flag{Name: "host-lag-us", Usage: "sending hosts learn of a disconnect this late, us (below the quiet time): until then the NIC drops what they hand"},
		&cli.Float64Flag{Name: "cpl-stall", Usage: "probability the receiving host holds m_cpl_ready low in a cycle, 0..0.9 (completion back-pressure)"},
		&cli.Float64Flag{Name: "duration-us", Value: 500, Usage: "measured simulated time, us"},
		&cli.Float64Flag{Name: "drain-us", Value: 5000, Usage: "longest drain after it, us"},
		&cli.Float64Flag{Name: "bin-us", Value: 10, Usage: "goodput time series bin, us"},
		&cli.Uint64Flag{Name: "seed", Value: defaultSeed, Usage: "seed of every random choice", EnvVars: []string{"SPRAYNIC_SEED", "SEED"}},
		&cli.BoolFlag{Name: "quiet", Usage: "no progress line on a terminal"},
	}
}

// simOptions reads the flags of simFlags.
func simOptions(c *cli.Context) (system.Options, error) {
	cfg, err := config.Resolve(c.String("config"))
	if err != nil {
		return system.Options{}, err
	}
	if p := c.Int("paths"); p != 0 {
		cfg.Paths = p
		if err := cfg.Validate(); err != nil {
			return system.Options{}, fmt.Errorf("--paths %d: %w", p, err)
		}
	}
	o := system.Options{
		Config: cfg, Mode: system.Mode(c.String("mode")), NetPaths: c.Int("net-paths"), Conns: c.Int("conns"),
		Msg: c.String("msg"), Backlog: c.Int("backlog"), MTU: c.Int("mtu"), ClockMHz: c.Int("clock-mhz"),
		PortGbps: c.Int("port-gbps"), PathGbps: c.Int("path-gbps"), DelayNS: c.Float64("delay-ns"),
		SkewNS: c.Float64("skew-ns"), JitterNS: c.Float64("jitter-ns"), Loss: c.Float64("loss"),
		LossModel: c.String("loss-model"), Burst: c.Float64("burst"), AckLoss: c.Float64("ack-loss"), Bidir: c.Bool("bidir"),
		QueueKB: c.Int("queue-kb"), ECNKB: c.Int("ecn-kb"), DurationUS: c.Float64("duration-us"),
		DrainUS: c.Float64("drain-us"), BinUS: c.Float64("bin-us"), Seed: c.Uint64("seed"), QuietUS: c.Float64("quiet-us"),
		AllFailedReconnectUS: c.Float64("all-failed-reconnect-us"), HostLagUS: c.Float64("host-lag-us"), CplStall: c.Float64("cpl-stall"),
	}
	for _, v := range c.StringSlice("reconnect") {
		conn, at, ok := strings.Cut(v, "@")
		var r system.Reconnect
		var err1, err2 error
		r.Conn, err1 = strconv.Atoi(conn)
		r.AtUS, err2 = strconv.ParseFloat(at, 64)
		if !ok || err1 != nil || err2 != nil {
			return system.Options{}, fmt.Errorf("--reconnect %q: want CONN@AT_US, e.g. 3@100", v)
		}
		o.Reconnects = append(o.Reconnects, r)
	}
	for _, v := range c.StringSlice("slow") {
		p, g, ok := strings.Cut(v, ":")
		sp := system.SlowPath{}
		var err1, err2 error
		sp.Path, err1 = strconv.Atoi(p)
		sp.Gbps, err2 = strconv.Atoi(g)
		if !ok || err1 != nil || err2 != nil {
			return system.Options{}, fmt.Errorf("--slow %q: want PATH:GBPS, e.g. 0:50", v)
		}
		o.Slow = append(o.Slow, sp)
	}
	for _, v := range c.StringSlice("reset") {
		side, at, ok := strings.Cut(v, "@")
		r := system.Reset{Side: strings.Index("AB", strings.ToUpper(side))}
		var err error
		if r.AtUS, err = strconv.ParseFloat(at, 64); !ok || err != nil || len(side) != 1 || r.Side < 0 {
			return system.Options{}, fmt.Errorf("--reset %q: want SIDE@AT_US with SIDE A or B, e.g. B@100", v)
		}
		o.Resets = append(o.Resets, r)
	}
	for _, f := range c.StringSlice("fail") {
		fl, err := parseFailure(f)
		if err != nil {
			return system.Options{}, err
		}
		o.Failures = append(o.Failures, fl)
	}
	o = o.Defaults()
	return o, o.Validate()
}

// parseFailure parses PATH@AT_US[-UNTIL_US].
func parseFailure(s string) (system.Failure, error) {
	bad := fmt.Errorf("--fail %q: want PATH@AT_US or PATH@AT_US-UNTIL_US, e.g. 3@100 or 3@100-250", s)
	path, when, ok := strings.Cut(s, "@")
	if !ok {
		return system.Failure{}, bad
	}
	p, err := strconv.Atoi(path)
	if err != nil {
		return system.Failure{}, bad
	}
	at, until, healed := strings.Cut(when, "-")
	f := system.Failure{Path: p}
	if f.AtUS, err = strconv.ParseFloat(at, 64); err != nil {
		return system.Failure{}, bad
	}
	if healed {
		if f.UntilUS, err = strconv.ParseFloat(until, 64); err != nil {
			return system.Failure{}, bad
		}
	}
	return f, nil
}

// progressTo returns a progress printer for w when it is a terminal and not quiet, else nil.
func progressTo(w *os.File, quiet bool, clockMHz int) func(system.Progress) {
	if quiet {
		return nil
	}
	if st, err := w.Stat(); err != nil || st.Mode()&os.ModeCharDevice == 0 {
		return nil
	}
	return func(p system.Progress) {
		fmt.Fprintf(w, "\r%8.1f of %.1f us simulated, %d data packets, goodput so far %.2f%%   ",
			float64(p.Cycle)/float64(clockMHz), float64(p.Cycles)/float64(clockMHz), p.Packets, 100*p.Goodput)
	}
}

// writeJSON writes v to path as indented JSON.
func writeJSON(path string, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, append(b, '\n'), 0o644)
}

func simCommand() *cli.Command {
	flags := append(simFlags(),
		&cli.StringFlag{Name: "json", Usage: "write the figures as JSON to this file"},
		&cli.StringFlag{Name: "pcap", Usage: "write every packet both ports sent to this pcap file (opens in Wireshark)"},
		&cli.BoolFlag{Name: "rtl", Usage: "check both endpoints as nic_transport RTL (Verilator), each in lockstep with its golden twin"},
	)
	return &cli.Command{
		Name:  "sim",
		Usage: "end-to-end transport simulation: two endpoints of golden block models over the multipath network",
		Flags: flags,
		Action: func(c *cli.Context) error {
			o, err := simOptions(c)
			if err != nil {
				return err
			}
			var capture *os.File
			if p := c.String("pcap"); p != "" {
				if capture, err = os.Create(p); err != nil {
					return err
				}
				defer capture.Close()
				o.Capture = capture
			}
			o.Progress = progressTo(os.Stderr, c.Bool("quiet"), o.ClockMHz)
			fmt.Fprintf(c.App.Writer, "seed %d (--seed N or SEED=N to reproduce)\n", o.Seed)
			var r *system.Result
			var runErr error
			if c.Bool("rtl") {
				root, err := tops.Root()
				if err != nil {
					return err
				}
				var sides []cosim.EndpointRTL
				r, sides, runErr = cosim.SimRTL(root, o, "spraynic "+strings.Join(os.Args[1:], " "), os.Stderr)
				for _, sd := range sides {
					fmt.Fprintf(c.App.Writer, "RTL endpoint %s: %d cycles in lockstep with its golden twin, every output port equal (%.0f cycles/s)\n",
						sd.Side, sd.Cycles, float64(sd.Cycles)/sd.Seconds)
				}
				if len(sides) == 2 {
					fmt.Fprintln(c.App.Writer, "the figures below are the RTL's")
				}
			} else {
				r, runErr = system.Run(o)
			}
			if o.Progress != nil {
				fmt.Fprintln(os.Stderr)
			}
			if r != nil {
				if err := system.WriteTable(c.App.Writer, []*system.Result{r}); err != nil {
					return err
				}
				if p := c.String("json"); p != "" {
					if err := writeJSON(p, r); err != nil {
						return err
					}
				}
			}
			if capture != nil && runErr == nil {
				if err := capture.Close(); err != nil {
					return err
				}
			}
			return runErr
		},
		Subcommands: []*cli.Command{simSweepCommand()},
	}
}

// parseList parses a comma-separated list with parse, naming the flag on error.
func parseList[T any](flag, s string, parse func(string) (T, error)) ([]T, error) {
	var out []T
	for _, f := range strings.Split(s, ",") {
		v, err := parse(strings.TrimSpace(f))
		if err != nil {
			return nil, fmt.Errorf("--%s: value %q in %q: %w", flag, f, s, err)
		}
		out = append(out, v)
	}
	return out, nil
}

func simSweepCommand() *cli.Command {
	flags := append(simFlags(),
		&cli.StringFlag{Name: "losses", Value: "0,0.001,0.01,0.02,0.05,0.1", Usage: "loss rates, comma-separated"},
		&cli.StringFlag{Name: "path-counts", Value: "4,8", Usage: "path counts, comma-separated (powers of two)"},
		&cli.StringFlag{Name: "modes", Value: "spray,gbn", Usage: "modes, comma-separated"},
		&cli.IntFlag{Name: "jobs", Usage: "parallel runs (0: the number of cores)"},
		&cli.StringFlag{Name: "csv", Value: "build/sweep/sweep.csv", Usage: "CSV output"},
		&cli.StringFlag{Name: "plot", Value: "build/sweep/goodput.svg", Usage: "chart output (.svg or .png)"},
		&cli.StringFlag{Name: "json", Value: "build/sweep/sweep.json", Usage: "JSON output (every run's figures)"},
	)
	return &cli.Command{
		Name:  "sweep",
		Usage: "goodput versus loss for both modes and several path counts: table, CSV, JSON and a chart",
		Flags: flags,
		Action: func(c *cli.Context) error {
			base, err := simOptions(c)
			if err != nil {
				return err
			}
			losses, err := parseList("losses", c.String("losses"), func(s string) (float64, error) { return strconv.ParseFloat(s, 64) })
			if err != nil {
				return err
			}
			counts, err := parseList("path-counts", c.String("path-counts"), strconv.Atoi)
			if err != nil {
				return err
			}
			modes, err := parseList("modes", c.String("modes"), func(s string) (system.Mode, error) { return system.Mode(s), nil })
			if err != nil {
				return err
			}
			var runs []system.Options
			for _, m := range modes {
				for _, n := range counts {
					for _, l := range losses {
						o := base
						o.Mode, o.Loss, o.NetPaths = m, l, n
						o.Config.Paths = n
						if err := o.Validate(); err != nil {
							return fmt.Errorf("sweep point mode %s, %d paths, loss %g: %w", m, n, l, err)
						}
						runs = append(runs, o)
					}
				}
			}
			jobs := c.Int("jobs")
			if jobs <= 0 {
				jobs = runtime.NumCPU()
			}
			fmt.Fprintf(c.App.Writer, "seed %d, %d runs on %d jobs\n", base.Seed, len(runs), jobs)
			results, err := runSweep(runs, jobs, c.App.ErrWriter, c.Bool("quiet"))
			if err != nil {
				return err
			}
			if err := system.WriteRows(c.App.Writer, results); err != nil {
				return err
			}
			pts := make([]sweep.Point, len(results))
			for i, r := range results {
				pts[i] = sweep.Point{Mode: r.Mode, Paths: r.Paths, Loss: r.Loss, Goodput: min(1, r.Goodput), P99US: r.MCTP99US, Retx: r.Retransmissions}
			}
			return writeSweep(c, pts, results)
		},
	}
}

// runSweep runs every option set on jobs goroutines and returns the results in order; the first error wins.
func runSweep(runs []system.Options, jobs int, log io.Writer, quiet bool) ([]*system.Result, error) {
	results := make([]*system.Result, len(runs))
	errs := make([]error, len(runs))
	var wg sync.WaitGroup
	next := make(chan int)
	var mu sync.Mutex
	done := 0
	for j := 0; j < jobs; j++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				results[i], errs[i] = system.Run(runs[i])
				mu.Lock()
				done++
				if !quiet {
					o := runs[i]
					fmt.Fprintf(log, "sweep: %d/%d done (%s, %d paths, loss %g)\n", done, len(runs), o.Mode, o.NetPaths, o.Loss)
				}
				mu.Unlock()
			}
		}()
	}
	for i := range runs {
		next <- i
	}
	close(next)
	wg.Wait()
	for i, err := range errs {
		o := runs[i]
		var lost *system.ConnLostError
		switch {
		case err == nil:
		case errors.As(err, &lost) && o.Mode == system.ModeGBN && results[i] != nil:
			// The baseline giving up is a figure of the baseline (docs/retx.md, go-back-N retries), kept.
			fmt.Fprintf(log, "sweep: note: gbn, %d paths, loss %g: %v\n", o.NetPaths, o.Loss, err)
		default:
			return nil, fmt.Errorf("sweep run mode %s, %d paths, loss %g, seed %d: %w", o.Mode, o.NetPaths, o.Loss, o.Seed, err)
		}
	}
	return results, nil
}

// writeSweep writes the CSV, chart and JSON of a sweep, creating their directories.
func writeSweep(c *cli.Context, pts []sweep.Point, results []*system.Result) error {
	for _, p := range []string{c.String("csv"), c.String("plot"), c.String("json")} {
		if p == "" {
			continue
		}
		if err := os.MkdirAll(dirOf(p), 0o755); err != nil {
			return err
		}
	}
	if p := c.String("csv"); p != "" {
		f, err := os.Create(p)
		if err != nil {
			return err
		}
		if err := sweep.WriteCSV(f, pts); err != nil {
			f.Close()
			return err
		}
		if err := f.Close(); err != nil {
			return err
		}
	}
	if p := c.String("plot"); p != "" {
		if err := sweep.WriteChart(p, "spraynic: goodput versus random loss", pts); err != nil {
			return err
		}
	}
	if p := c.String("json"); p != "" {
		if err := writeJSON(p, results); err != nil {
			return err
		}
	}
	fmt.Fprintf(c.App.Writer, "wrote %s %s %s\n", c.String("csv"), c.String("plot"), c.String("json"))
	return nil
}

// dirOf is the directory part of path ("." when none).
func dirOf(path string) string {
	if i := strings.LastIndexByte(path, '/'); i >= 0 {
		return path[:i]
	}
	return "."
}

func genCommand() *cli.Command {
	flags := append(simFlags(),
		&cli.StringFlag{Name: "out", Required: true, Usage: "pcap file of the data packets as they reached endpoint B"},
	)
	for _, f := range flags {
		if d, ok := f.(*cli.Float64Flag); ok && d.Name == "duration-us" {
			d.Value = 20
		}
	}
	return &cli.Command{
		Name:  "gen",
		Usage: "write a stimulus capture: the data packets of an end-to-end run as they arrive at one endpoint (reordered, lost, marked)",
		Flags: flags,
		Action: func(c *cli.Context) error {
			o, err := simOptions(c)
			if err != nil {
				return err
			}
			f, err := os.Create(c.String("out"))
			if err != nil {
				return err
			}
			o.Arrivals = f
			fmt.Fprintf(c.App.Writer, "seed %d\n", o.Seed)
			r, err := system.Run(o)
			if err != nil {
				f.Close()
				return err
			}
			if err := f.Close(); err != nil {
				return err
			}
			fmt.Fprintf(c.App.Writer, "wrote %s: %d data packets arrived at B (%d sent, %d retransmitted)\n",
				c.String("out"), r.DataPackets-sum(r.PathDrops), r.DataPackets, r.Retransmissions)
			return nil
		},
	}
}

// sum adds xs.
func sum(xs []int64) int64 {
	var t int64
	for _, x := range xs {
		t += x
	}
	return t
}
