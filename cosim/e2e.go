package cosim

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/spraynic/spraynic/config"
	"github.com/spraynic/spraynic/cosim/bridge"
	"github.com/spraynic/spraynic/golden/nictransport"
	"github.com/spraynic/spraynic/golden/pathsel"
	"github.com/spraynic/spraynic/golden/retx"
	"github.com/spraynic/spraynic/golden/rxreorder"
	"github.com/spraynic/spraynic/scoreboard"
	"github.com/spraynic/spraynic/system"
)

// Block tests under end-to-end traffic: an end-to-end simulation (system, golden endpoints over the
// network model) records the inputs one block of one endpoint got every cycle; the block's RTL then replays them
// in lockstep with a fresh golden model (which, being deterministic, reproduces the simulation's outputs) and
// the block's own scoreboard. So the RTL blocks are checked on the traffic the end-to-end figures come from.

// Scenario is one end-to-end traffic pattern.
type Scenario struct {
	// name and doc describe it; gbn selects the go-back-N mode; opt are the simulation options (Config and Seed
	// are filled in per run).
	name, doc string
	gbn       bool
	// topOnly runs only the nic_transport tests. (Scenarios keep the preset's widths: coverage merges the runs
	// of one top and preset, which needs one parameterisation.)
	topOnly bool
	// allConns runs every connection of the configuration (else the simulation's default, at most 8).
	allConns bool
	// cycles, when not 0, replaces e2eCycles (recoveries with RTO backoff and hold-off take longer).
	cycles int64
	// largeFabric, when above 1, is the least cycle scale on fabrics of more than smallFabricPaths paths (u250: 16
	// paths share the traffic that 4 or 8 paths share on the others); the measured time grows with it. A suite's
	// larger scale (the nightly suite's 5x) replaces it rather than multiplying it.
	largeFabric int64
	opt         system.Options
	// smallFabric are failures added on fabrics of at most smallFabricPaths paths (default, ice40): on u250's 16
	// paths the recovery from a total outage alone takes about 200 us, and one more outage would need a far larger
	// cycle budget.
	smallFabric []system.Failure
}

// Name is the scenario's name: its tests are <name>_<block> and nic_<name>_a/_b.
func (sc Scenario) Name() string { return sc.name }

// NicScenario returns the request of the nic test (configuration derived, cycles = its default: the recording's
// bound), its end-to-end scenario and the endpoint side it replays (nic_<scenario>_a: 0, _b: 1).
func NicScenario(r Request) (Request, Scenario, int, error) {
	t, err := Lookup(r.Test)
	if err != nil {
		return r, Scenario{}, 0, err
	}
	name := strings.TrimPrefix(r.Test, "nic_")
	side := -1
	switch {
	case strings.HasSuffix(name, "_a"):
		side = 0
	case strings.HasSuffix(name, "_b"):
		side = 1
	}
	if t.Block != "nic_transport" || name == r.Test || side < 0 {
		return r, Scenario{}, 0, fmt.Errorf("%s is not a nic_<scenario>_a/_b test", r.Test)
	}
	name = name[:len(name)-2]
	rr := Request{Test: r.Test, Config: r.Config, Seed: r.Seed, Root: r.Root, Log: r.Log}
	t.setup(&rr)
	for _, sc := range Scenarios {
		if sc.name == name {
			return rr, sc, side, nil
		}
	}
	return r, Scenario{}, 0, fmt.Errorf("test %s: no end-to-end scenario %q", r.Test, name)
}

// smallFabricPaths bounds the fabrics Scenario.smallFabric applies to.
const smallFabricPaths = 8

// Scenarios are the patterns each block is checked under.
var Scenarios = []Scenario{
	{name: "e2e", doc: "spray mode, 2% loss, 1% ACK loss, one path down for 20 us, mixed message sizes",
		opt: system.Options{Loss: 0.02, AckLoss: 0.01, Msg: "uniform:1000:40000", DurationUS: 60,
			Failures: []system.Failure{{Path: 1, AtUS: 20, UntilUS: 40}}}},
	{name: "e2e_heavy", doc: "spray mode, 10% loss, 5% ACK loss: paths fail and are probed often",
		opt: system.Options{Loss: 0.10, AckLoss: 0.05, Msg: "uniform:1000:40000", DurationUS: 60}},
	{
		name: "e2e_gbn",
		doc: "go-back-N mode, 1% loss, 2% ACK loss, mixed message sizes; fabric path 1 down from 20 to 40 us: the " +
			"connections hashed onto it time out and rewind",
		gbn: true,
		opt: system.Options{Mode: system.ModeGBN, Loss: 0.01, AckLoss: 0.02, Msg: "uniform:1000:40000", DurationUS: 60,
			Failures: []system.Failure{{Path: 1, AtUS: 20, UntilUS: 40}}},
	},
	{
		name: "e2e_gbn_all",
		doc: "go-back-N mode on every connection of the preset: 2% loss, 2% ACK loss, fabric path 1 down from 20 to " +
			"40 us; every connection's receive filter NAKs, drops out-of-order packets and its sender rewinds",
		gbn:      true,
		topOnly:  true,
		allConns: true,
		opt: system.Options{Mode: system.ModeGBN, Loss: 0.02, AckLoss: 0.02, Msg: "uniform:1000:20000", DurationUS: 60,
			Failures: []system.Failure{{Path: 1, AtUS: 20, UntilUS: 40}}},
	},
	{
		name: "e2e_allfail",
		doc: "every path down from 20 to 60 us, then healed: the paths whose losses the first ACKs reveal fail, " +
			"probes bring them back; " +
			"on fabrics of up to 8 paths every path down again from 95 to 125 us: probes are lost " +
			"(probing -> failed) and a connection's last paths time out (all failed, m_status); " +
			"the connection manager reconnects a connection shown all-failed for 5 us " +
			"(close, reopen with paths failed); 1% loss",
		topOnly: true,
		cycles:  150000,
		opt: system.Options{Loss: 0.01, Msg: "uniform:1000:40000", DurationUS: 150,
			Failures: allPaths(20, 60), AllFailedReconnectUS: 5},
		smallFabric: allPaths(95, 125),
	},
	{
		name:     "e2e_many",
		doc:      "every connection of the preset, bursty (Gilbert-Elliott) 2% loss, 2% ACK loss",
		topOnly:  true,
		allConns: true,
		opt: system.Options{Loss: 0.02, LossModel: "gilbert", Burst: 4, AckLoss: 0.02,
			Msg: "uniform:1000:20000", DurationUS: 60},
	},
	{
		name: "e2e_all",
		doc: "every connection of the preset under everything at once: 2% loss, 1% ACK loss, fabric path 0 at 1/16 " +
			"of the port rate (ECN marks above 16 KiB), path 1 down from 20 to 40 us",
		topOnly:  true,
		allConns: true,
		opt: system.Options{
			Loss:       0.02,
			AckLoss:    0.01,
			Msg:        "uniform:1000:20000",
			DurationUS: 60,
			QueueKB:    64,
			ECNKB:      16,
			Slow: []system.SlowPath{
				{Path: 0, Gbps: 25},
			},
			Failures: []system.Failure{{Path: 1, AtUS: 20, UntilUS: 40}},
		},
	},
	{
		name: "e2e_bidir",
		doc: "both endpoints send, 2% loss, one path down for 20 us; the hosts hold m_cpl_ready low in half the " +
			"cycles (random)",
		topOnly: true,
		opt: system.Options{Bidir: true, Loss: 0.02, Msg: "uniform:1000:40000", DurationUS: 60, CplStall: 0.5,
			Failures: []system.Failure{{Path: 2, AtUS: 20, UntilUS: 40}}},
	},
	{
		name: "e2e_ecn",
		doc: "fabric path 0 at 1/16 of the port rate (both directions; 64 KiB queues marking above 16 KiB): its " +
			"queue builds, the fabric ECN-marks and drops, path_sel moves traffic off it; 0.5% loss",
		opt: system.Options{Loss: 0.005, Msg: "uniform:1000:40000", DurationUS: 60, QueueKB: 64, ECNKB: 16,
			Slow: []system.SlowPath{{Path: 0, Gbps: 25}}},
	},
	{
		name: "e2e_bottleneck",
		doc: "one connection, all its paths on a single fabric path at 1/8 of the port rate (64 KiB queue marking " +
			"above 1 KiB; MTU 1024, 200 ns delays): steady ECN marks halve every path's window down to 1 packet; " +
			"on fabrics of more than 8 paths 5x as long (u250's 16 paths each halve from 32 packets, and a path at " +
			"1 packet rises again with its next delivery)",
		topOnly:     true,
		cycles:      80000,
		largeFabric: 5,
		opt: system.Options{Conns: 1, NetPaths: 1, PathGbps: 50, QueueKB: 64, ECNKB: 1, MTU: 1024,
			DelayNS: 200, SkewNS: 20, JitterNS: 40, Msg: "uniform:1000:40000", DurationUS: 100},
	},
	{
		name: "e2e_clean",
		doc: "one connection, no loss (MTU 1024, 200 ns delays): every path's window grows by AI per delivered " +
			"packet up to CWND_MAX; on fabrics of more than 8 paths 4x as long (a u250 path needs 1,536 deliveries " +
			"from 32 to 128 packets at AI 1/16, 24,576 packets over its 16 paths)",
		topOnly:     true,
		cycles:      50000,
		largeFabric: 4,
		opt: system.Options{Conns: 1, MTU: 1024, DelayNS: 200, SkewNS: 20, JitterNS: 40,
			Msg: "uniform:1000:40000", DurationUS: 150},
	},
	{
		name: "e2e_reset_a",
		doc: "endpoint A (the sender) reset at 20 us in the middle of traffic; every connection reopens after a " +
			"0.5 us quiet time, so packets and ACKs of the old epoch still arrive; " +
			"A's host learns of the reset 0.2 us late and hands packets the NIC drops meanwhile; " +
			"the connection manager closes connection 1 at 40 us and reopens it 0.5 us later; 1% loss",
		topOnly: true,
		opt: system.Options{Loss: 0.01, Msg: "uniform:1000:40000", DurationUS: 60, QuietUS: 0.5, HostLagUS: 0.2,
			Resets: []system.Reset{{Side: 0, AtUS: 20}}, Reconnects: []system.Reconnect{{Conn: 1, AtUS: 40}}},
	},
	{
		name: "e2e_reset_b",
		doc: "endpoint B (the receiver) reset at 10 us: A's connections go to error after MAX_RETRIES, then reopen " +
			"and carry messages; 1% loss",
		topOnly: true,
		cycles:  140000,
		opt: system.Options{Loss: 0.01, Msg: "uniform:1000:40000", DurationUS: 500, QuietUS: 10,
			Resets: []system.Reset{{Side: 1, AtUS: 10}}},
	},
}

// allPaths takes every fabric path of the largest preset (16) down from at to until microseconds; paths beyond
// the run's fabric are dropped by ScenarioOptions.
func allPaths(at, until float64) []system.Failure {
	var fs []system.Failure
	for p := 0; p < 16; p++ {
		fs = append(fs, system.Failure{Path: p, AtUS: at, UntilUS: until})
	}
	return fs
}

// baseCycles is the cycle budget of sc at scale 1.
func (sc Scenario) baseCycles() int64 {
	if sc.cycles != 0 {
		return sc.cycles
	}
	return e2eCycles
}

// minScale is the least cycle scale of sc under cfg: largeFabric on fabrics of more than smallFabricPaths paths,
// else 1.
func (sc Scenario) minScale(cfg config.Config) int64 {
	if cfg.Paths > smallFabricPaths {
		return max(1, sc.largeFabric)
	}
	return 1
}

// ScenarioOptions returns the simulation options of sc under r. A longer budget than the scenario's (the
// nightly suite's cycle scale, or --cycles) lengthens the measured time by the same whole factor.
func ScenarioOptions(r Request, sc Scenario) system.Options {
	o := sc.opt
	o.Config = r.Config
	o.Seed = r.Seed
	if scale := r.Cycles / sc.baseCycles(); scale > 1 {
		o.DurationUS *= float64(scale)
	}
	if sc.allConns {
		o.Conns = r.Config.Conns
	}
	all := o.Failures
	if r.Config.Paths <= smallFabricPaths {
		all = append(slices.Clip(all), sc.smallFabric...)
	}
	var fs []system.Failure
	for _, f := range all {
		if f.Path < r.Config.Paths {
			fs = append(fs, f)
		}
	}
	o.Failures = fs
	return o
}

// e2eCycles bounds the recorded simulation: 60 us of traffic at up to 2000 MHz would not fit, but at the 250 MHz
// default it is 15,000 cycles plus the opens and the drain.
const e2eCycles = 60000

// Recorded drives a block with recorded inputs, then with its last recorded input made idle (every valid low,
// every ready as it was: the block drains what it still holds).
type Recorded[I, O any] struct {
	// ins holds one input per cycle; idle is the input after them.
	ins  []I
	idle I
	// last is the latest output observed.
	last O
}

// NewReplay returns a replay of ins whose tail input is quiet(last input).
func NewReplay[I, O any](ins []I, quiet func(I) I) *Recorded[I, O] {
	d := &Recorded[I, O]{ins: ins}
	if len(ins) > 0 {
		d.idle = quiet(ins[len(ins)-1])
	}
	return d
}

func (d *Recorded[I, O]) Drive(cycle int64, in *I) {
	*in = d.idle
	if cycle < int64(len(d.ins)) {
		*in = d.ins[cycle]
	}
}

func (d *Recorded[I, O]) Observe(_ int64, _ *I, out *O) { d.last = *out }

// recordE2E runs the scenario under r and returns endpoint A's retx and path_sel inputs and endpoint B's
// rx_reorder inputs, one per cycle.
func recordE2E(r Request, sc Scenario) (tx []retx.In, ps []pathsel.In, rx []rxreorder.In, err error) {
	o := ScenarioOptions(r, sc)
	o.Taps[0] = func(t *retx.In, p *pathsel.In, _ *rxreorder.In) {
		tx = append(tx, *t)
		ps = append(ps, *p)
	}
	o.Taps[1] = func(_ *retx.In, _ *pathsel.In, x *rxreorder.In) { rx = append(rx, *x) }
	if _, err := system.Run(o); err != nil {
		return nil, nil, nil, fmt.Errorf("end-to-end simulation (seed %d): %w", r.Seed, err)
	}
	if int64(len(tx)) > r.Cycles {
		return nil, nil, nil, fmt.Errorf("the end-to-end simulation ran %d cycles, more than --cycles %d", len(tx),
			r.Cycles)
	}
	return tx, ps, rx, nil
}

// RecordEndpoint runs the scenario under r and returns the inputs of endpoint side (0: A, 1: B), one per cycle,
// as the nic_transport top's ports.
func RecordEndpoint(r Request, sc Scenario, side int) ([]nictransport.TopIn, error) {
	o := ScenarioOptions(r, sc)
	var ins []nictransport.TopIn
	o.Inputs[side] = func(in *nictransport.In) {
		var p nictransport.TopIn
		nictransport.FromIn(in, &p)
		ins = append(ins, p)
	}
	if _, err := system.Run(o); err != nil {
		return nil, fmt.Errorf("end-to-end simulation (seed %d): %w", r.Seed, err)
	}
	if int64(len(ins)) > r.Cycles {
		return nil, fmt.Errorf("the end-to-end simulation ran %d cycles, more than --cycles %d", len(ins), r.Cycles)
	}
	return ins, nil
}

func init() {
	for _, sc := range Scenarios {
		registerScenario(sc)
	}
}

// registerScenario registers the tests of one scenario: the endpoint top on each side and, unless the scenario
// is for the top only, the sender's retx and path_sel (not in go-back-N, which does not ask path_sel) and the
// receiver's rx_reorder.
func registerScenario(sc Scenario) {
	base := Test{CyclesFor: func(config.Config) int64 { return sc.baseCycles() }, minScale: sc.minScale,
		configure: func(cfg config.Config) config.Config {
			cfg.GBN = 0
			if sc.gbn {
				cfg.GBN = 1
			}
			return cfg
		}}
	for side, name := range []string{"a", "b"} {
		t := base
		t.Name = "nic_" + sc.name + "_" + name
		t.Block = "nic_transport"
		t.ports = NicTransportPorts
		t.Doc = fmt.Sprintf("the whole endpoint %s under end-to-end traffic: %s", strings.ToUpper(name), sc.doc)
		t.run = func(r Request, dut *bridge.Model) (Result, error) { return runNicE2E(r, dut, sc, side) }
		register(t)
	}
	if sc.topOnly {
		return
	}
	t := base
	t.Name = sc.name + "_retx"
	t.Block = "retx"
	t.ports = retxPorts
	t.Doc = "end-to-end traffic at the sender: " + sc.doc
	t.run = func(r Request, dut *bridge.Model) (Result, error) { return runRetxE2E(r, dut, sc) }
	register(t)
	t = base
	t.Name = sc.name + "_rx"
	t.Block = "rx_reorder"
	t.ports = rxPorts
	t.Doc = "end-to-end traffic at the receiver: " + sc.doc
	t.run = func(r Request, dut *bridge.Model) (Result, error) { return runRxE2E(r, dut, sc) }
	register(t)
	if sc.gbn {
		return
	}
	t = base
	t.Name = sc.name + "_path_sel"
	t.Block = "path_sel"
	t.ports = pathPorts
	t.Doc = "end-to-end traffic at the sender: " + sc.doc
	t.run = func(r Request, dut *bridge.Model) (Result, error) { return runPathSelE2E(r, dut, sc) }
	register(t)
}

// runNicE2E replays the recorded inputs of endpoint side on the nic_transport top.
func runNicE2E(r Request, dut *bridge.Model, sc Scenario, side int) (Result, error) {
	ins, err := RecordEndpoint(r, sc, side)
	if err != nil {
		return Result{}, err
	}
	g, err := nictransport.NewTop(r.Config)
	if err != nil {
		return Result{}, err
	}
	drv := NewReplay[nictransport.TopIn, nictransport.TopOut](ins, func(in nictransport.TopIn) nictransport.TopIn {
		in.TxValid = false
		in.CtlValid = false
		in.RxValid = false
		in.AckValid = false
		return in
	})
	sb := newNicVerdicts()
	st, err := Lockstep[nictransport.TopIn, nictransport.TopOut](dut, g, drv, sb, nictransport.Valid,
		r.lockstepOptions())
	o := &drv.last
	return Result{Cycles: st.Cycles, Packets: int64(o.CntSent + o.CntAccepted),
		Detail: fmt.Sprintf("recorded=%d sent=%d retransmitted=%d accepted=%d decisions=%d naks=%d verdicts=%d",
			len(ins), o.CntSent, o.CntRetxLoss+o.CntRetxTimeout+o.CntRetxGBN, o.CntAccepted, o.CntDecisions,
			o.CntNaks, sb.Verdicts)}, err
}

// runRetxE2E replays endpoint A's recorded retx inputs on the retx block, with its scoreboard.
func runRetxE2E(r Request, dut *bridge.Model, sc Scenario) (Result, error) {
	tx, _, _, err := recordE2E(r, sc)
	if err != nil {
		return Result{}, err
	}
	g, err := retx.New(r.Config)
	if err != nil {
		return Result{}, err
	}
	sb := scoreboard.NewRetx(r.Config)
	drv := NewReplay[retx.In, retx.Out](tx, func(in retx.In) retx.In {
		in.TxValid = false
		in.PathValid = false
		in.AckValid = false
		in.CtlValid = false
		return in
	})
	st, err := Lockstep[retx.In, retx.Out](dut, g, drv, sb, retx.Valid, r.lockstepOptions())
	return Result{Cycles: st.Cycles, Packets: sb.Sent, Detail: fmt.Sprintf(
		"recorded=%d retransmitted=%d acks=%d errors=%d", len(tx), sb.Retransmitted, sb.Acks, sb.Errors)}, err
}

// runRxE2E replays endpoint B's recorded rx_reorder inputs on the rx_reorder block, with its scoreboard.
func runRxE2E(r Request, dut *bridge.Model, sc Scenario) (Result, error) {
	_, _, rx, err := recordE2E(r, sc)
	if err != nil {
		return Result{}, err
	}
	drv := NewReplay[rxreorder.In, rxreorder.Out](rx, func(in rxreorder.In) rxreorder.In {
		in.PktValid = false
		in.CtlValid = false
		return in
	})
	return runRx(r, rxDriver{Driver: drv, stats: func() int64 { return int64(drv.last.CntAccepted) }}, dut)
}

// runPathSelE2E replays endpoint A's recorded path_sel inputs on the path_sel block, with its scoreboard.
func runPathSelE2E(r Request, dut *bridge.Model, sc Scenario) (Result, error) {
	_, ps, _, err := recordE2E(r, sc)
	if err != nil {
		return Result{}, err
	}
	g, err := pathsel.New(r.Config)
	if err != nil {
		return Result{}, err
	}
	sb := scoreboard.NewPathSel(r.Config, false)
	drv := NewReplay[pathsel.In, pathsel.Out](ps, func(in pathsel.In) pathsel.In {
		in.ReqValid = false
		in.FbValid = false
		in.CtlValid = false
		return in
	})
	st, err := Lockstep[pathsel.In, pathsel.Out](dut, g, drv, sb, pathsel.Valid, r.lockstepOptions())
	return Result{Cycles: st.Cycles, Packets: int64(drv.last.CntDecisions),
		Detail: fmt.Sprintf("recorded=%d probes=%d failures=%d", len(ps), sb.Probes, sb.Failures)}, err
}

// EndpointRTL is the lockstep outcome of one RTL endpoint of SimRTL.
type EndpointRTL struct {
	// Side is "A" or "B"; Cycles the cycles checked; Seconds the wall time of the lockstep.
	Side    string
	Cycles  int64
	Seconds float64
}

// SimRTL runs the end-to-end simulation o with both endpoints checked as RTL: the golden simulation runs and
// records every input of each endpoint; then two nic_transport RTL instances (Verilator) replay them, each in
// lockstep with its golden twin on every output port of every cycle. Any difference is an error; when there is
// none, the simulation's figures are the RTL's. repro is the command line printed with a failure.
func SimRTL(root string, o system.Options, repro string, log io.Writer) (*system.Result, []EndpointRTL, error) {
	o = o.Defaults()
	cfg := o.Config
	cfg.GBN = 0
	if o.Mode == system.ModeGBN {
		cfg.GBN = 1
	}
	var ins [2][]nictransport.TopIn
	for side := range ins {
		o.Inputs[side] = func(in *nictransport.In) {
			var p nictransport.TopIn
			nictransport.FromIn(in, &p)
			ins[side] = append(ins[side], p)
		}
	}
	res, runErr := system.Run(o)
	var lost *system.ConnLostError
	if runErr != nil && !errors.As(runErr, &lost) {
		return nil, nil, runErr
	}
	lib, err := BuildTop(root, "nic_transport", cfg, bridge.Plain, log)
	if err != nil {
		return nil, nil, err
	}
	want, _, err := NicTransportPorts(cfg)
	if err != nil {
		return nil, nil, err
	}
	var sides []EndpointRTL
	for side, name := range []string{"A", "B"} {
		dut, err := OpenChecked(lib, "nic_transport", want)
		if err != nil {
			return nil, nil, err
		}
		g, err := nictransport.NewTop(cfg)
		if err != nil {
			dut.Close()
			return nil, nil, err
		}
		drv := NewReplay[nictransport.TopIn, nictransport.TopOut](ins[side],
			func(in nictransport.TopIn) nictransport.TopIn { return in })
		start := time.Now()
		st, err := Lockstep[nictransport.TopIn, nictransport.TopOut](dut, g, drv, nil, nictransport.Valid, Options{
			Cycles: int64(len(ins[side])), Batch: 1024, Repro: repro, History: 8})
		dut.Close()
		if err != nil {
			return nil, nil, fmt.Errorf("endpoint %s: %w", name, err)
		}
		sides = append(sides, EndpointRTL{Side: name, Cycles: st.Cycles, Seconds: time.Since(start).Seconds()})
	}
	return res, sides, runErr
}
