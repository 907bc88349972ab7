package cosim

import (
	"fmt"
	"io"
	"reflect"
	"sort"
	"strings"

	"github.com/spraynic/spraynic/config"
	"github.com/spraynic/spraynic/cosim/bridge"
	"github.com/spraynic/spraynic/golden/nictransport"
	"github.com/spraynic/spraynic/golden/pathsel"
	"github.com/spraynic/spraynic/golden/retx"
	"github.com/spraynic/spraynic/golden/rxreorder"
)

// Test is one named co-simulation test of one block.
type Test struct {
	// Name is what --test takes; Block the RTL top it runs on; Doc says what it exercises.
	Name, Block, Doc string
	// CyclesFor is the run length under a configuration at cycle scale 1 (Scaled gives the default length).
	CyclesFor func(cfg config.Config) int64
	// Directed marks a scripted test that ends its stimulus within CyclesFor: a suite's cycle scale does not
	// lengthen it (the extra cycles would only be idle).
	Directed bool
	// minScale, when set, is the least cycle scale the test runs with under a configuration (its default length
	// is CyclesFor times it): a suite's scale s runs it CyclesFor x max(s, minScale) cycles.
	minScale func(cfg config.Config) int64
	// MaxSeeds, when > 0, caps the seeds a suite runs the test with (the suite's first MaxSeeds): for a long
	// directed test whose seed only moves where the script runs, more seeds cost much and find little.
	MaxSeeds int
	// MinFor is the least number of transactions a run under a configuration (the test's, after configure) must
	// see to mean anything; a run that sees fewer fails (TooFewError). Nil: randomMinimum, one PSN window.
	MinFor func(cfg config.Config) Minimum
	// run executes the test.
	run func(r Request, dut *bridge.Model) (Result, error)
	// ports returns the golden model's expected ports and the valid qualifier of each output.
	ports func(cfg config.Config) ([]bridge.Port, func(string) string, error)
	// configure, when set, derives the configuration the test runs with from the one requested (a mode the
	// test is about, e.g. go-back-N); the repro command stays the same.
	configure func(cfg config.Config) config.Config
}

// Scaled is the test's length under cfg in a suite of cycle scale s (1: the default length): CyclesFor times s,
// but directed tests keep their length and a test with minScale runs at least that scale.
func (t Test) Scaled(cfg config.Config, s int64) int64 {
	c := t.CyclesFor(cfg)
	if t.Directed {
		return c
	}
	if t.minScale != nil {
		s = max(s, t.minScale(cfg))
	}
	return c * max(s, 1)
}

// Minimum is the least number of transactions (Result.Packets) a run of a test must see to mean anything.
type Minimum struct {
	// N is the count; Why says what it stands for, or what a run with fewer would leave unchecked.
	N   int64
	Why string
}

// randomMinimum is the minimum of a test whose stimulus comes from its seed: one PSN window of packets (or
// decisions) of the configuration.
func randomMinimum(cfg config.Config) Minimum {
	return Minimum{N: int64(cfg.Window), Why: "one PSN window: with fewer, no connection's window can fill and the " +
		"run checks little beyond its start-up and drain"}
}

// Minimum is the test's minimum of transactions under cfg (the configuration it runs with).
func (t Test) Minimum(cfg config.Config) Minimum {
	if t.MinFor != nil {
		return t.MinFor(cfg)
	}
	return randomMinimum(cfg)
}

// TooFewError is a run that passed every check but saw fewer transactions than its test's minimum.
type TooFewError struct {
	// Test, Config and Seed name the run; Cycles is its length, Default the test's default length.
	Test, Config    string
	Seed            uint64
	Cycles, Default int64
	// Seen is the run's transaction count; Min the test's minimum.
	Seen int64
	Min  Minimum
	// Repro is the command that reproduces the run.
	Repro string
}

func (e *TooFewError) Error() string {
	return fmt.Sprintf("%s config=%s seed=%d: transactions=%d in a %d-cycle run, below the test's minimum of %d (%s); "+
		"its default length is %d cycles\n  reproduce: %s", e.Test, e.Config, e.Seed, e.Seen, e.Cycles, e.Min.N,
		e.Min.Why, e.Default, e.Repro)
}

// enough returns a TooFewError when res, the result of the passing run r (set up), saw fewer transactions than
// the test's minimum.
func (t Test) enough(r Request, res Result) error {
	m := t.Minimum(r.Config)
	if res.Packets >= m.N {
		return nil
	}
	return &TooFewError{Test: r.Test, Config: r.Config.Name, Seed: r.Seed, Cycles: res.Cycles,
		Default: t.Scaled(r.Config, 1), Seen: res.Packets, Min: m, Repro: r.Repro()}
}

// setup applies the test's configuration derivation and default length to r.
func (t Test) setup(r *Request) {
	if t.configure != nil {
		r.Config = t.configure(r.Config)
	}
	if r.Cycles <= 0 {
		r.Cycles = t.Scaled(r.Config, 1)
	}
}

// Request is everything a run depends on: a run is a pure function of (test, config, seed, cycles).
type Request struct {
	// Test and Config name what runs; Seed and Cycles fix the stimulus.
	Test   string
	Config config.Config
	Seed   uint64
	Cycles int64
	// Golden runs the golden model and scoreboard alone, without the RTL.
	Golden bool
	// Waves, when set, is an FST file for cycles WavesFrom onwards, on the time axis of a ClockMHz clock (0:
	// DefaultClockMHz): one cycle is one period.
	Waves     string
	WavesFrom int64
	ClockMHz  int
	// Batch is the number of cycles per call into Verilator (0: 1024).
	Batch int
	// Coverage, when set, runs the Coverage variant of the model (line + toggle) and writes Verilator's
	// coverage data to this file after the run (pass or fail). Checks are the same as in any run.
	Coverage string
	// Functional, when set, is asked once per run, after the test's configuration is applied, for a
	// Sampler[I, O] of the test's block (functional coverage; nil: none); every lockstep run of the request
	// feeds it. Checks are the same as in any run.
	Functional func(block string, cfg config.Config) (any, error)
	// sampler is what Functional returned: every lockstep run of the test passes it in Options.Sampler.
	sampler any
	// Root is the repository; Log receives build progress.
	Root string
	Log  io.Writer
}

// Result is the outcome of one run.
type Result struct {
	// Cycles run; Packets is the block's main transaction count (packets taken, decisions made).
	Cycles, Packets int64
	// Detail is a block-specific line of further counts.
	Detail string
}

var tests = map[string]Test{}

func register(t Test) { tests[t.Name] = t }

// Tests lists every test, sorted by name.
func Tests() []Test {
	var ts []Test
	for _, t := range tests {
		ts = append(ts, t)
	}
	sort.Slice(ts, func(i, j int) bool { return ts[i].Name < ts[j].Name })
	return ts
}

// Lookup finds a test.
func Lookup(name string) (Test, error) {
	t, ok := tests[name]
	if !ok {
		var names []string
		for _, t := range Tests() {
			names = append(names, t.Name)
		}
		return Test{}, fmt.Errorf("unknown test %q (tests: %s)", name, strings.Join(names, ", "))
	}
	return t, nil
}

// Repro is the one command that reproduces r.
func (r Request) Repro() string {
	return fmt.Sprintf("spraynic run --test %s --config %s --seed %d --cycles %d", r.Test, r.Config.Name, r.Seed,
		r.Cycles)
}

// Run executes one request: it builds or finds the model, checks its ports against the golden model, and runs.
// A run that passes every check but sees fewer transactions than the test's minimum fails (TooFewError).
func Run(r Request) (Result, error) {
	t, err := Lookup(r.Test)
	if err != nil {
		return Result{}, err
	}
	t.setup(&r)
	if r.Functional != nil {
		s, err := r.Functional(t.Block, r.Config)
		if err != nil {
			return Result{}, err
		}
		r.sampler = s
	}
	res, err := t.execute(r)
	if err == nil {
		err = t.enough(r, res)
	}
	return res, err
}

// execute runs the set-up request r: on the golden model alone, or on the RTL model of its variant.
func (t Test) execute(r Request) (Result, error) {
	if r.Golden {
		return t.run(r, nil)
	}
	if r.Waves != "" && r.Coverage != "" {
		return Result{}, fmt.Errorf("a run takes --waves or --coverage, not both (each is its own model variant)")
	}
	if mhz := orDefaultClock(r.ClockMHz); r.Waves != "" && (mhz < 1 || mhz > MaxClockMHz) {
		return Result{}, fmt.Errorf("--clock-mhz %d: out of range (allowed 1..%d)", mhz, MaxClockMHz)
	}
	dut, err := t.open(r, r.Variant())
	if err != nil {
		return Result{}, err
	}
	defer dut.Close()
	res, err := t.run(r, dut)
	if r.Coverage != "" {
		if cerr := dut.WriteCoverage(r.Coverage); cerr != nil && err == nil {
			err = fmt.Errorf("coverage %s: %w", r.Coverage, cerr)
		}
	}
	return res, err
}

func portsOf[I, O any](widths map[string]int) ([]bridge.Port, error) {
	return ExpectedPorts(reflect.TypeOf((*I)(nil)).Elem(), reflect.TypeOf((*O)(nil)).Elem(), widths)
}

// blockPorts is a Test's ports function for a golden block with input and output records I and O: the ports
// its widths give for a configuration, and its valid rule.
func blockPorts[I, O any](widths func(config.Config) map[string]int,
	valid func(string) string) func(config.Config) ([]bridge.Port, func(string) string, error) {
	return func(cfg config.Config) ([]bridge.Port, func(string) string, error) {
		p, err := portsOf[I, O](widths(cfg))
		return p, valid, err
	}
}

var (
	rxPorts           = blockPorts[rxreorder.In, rxreorder.Out](rxreorder.Widths, rxreorder.Valid)
	retxPorts         = blockPorts[retx.In, retx.Out](retx.Widths, retx.Valid)
	pathPorts         = blockPorts[pathsel.In, pathsel.Out](pathsel.Widths, pathsel.Valid)
	NicTransportPorts = blockPorts[nictransport.TopIn, nictransport.TopOut](nictransport.Widths, nictransport.Valid)
)

// lockstepOptions are the lockstep options of a test run: its length, batch, reproduce command, functional
// sampler, 8 cycles of input history on a mismatch, and its waveform window.
func (r Request) lockstepOptions() Options {
	return Options{Cycles: r.Cycles, Batch: batchOf(r), Repro: r.Repro(), Sampler: r.sampler, History: 8,
		TraceFile: r.Waves, TraceFrom: r.WavesFrom, TraceClockMHz: r.ClockMHz}
}

// DefaultClockMHz is the NIC clock a waveform's time axis shows unless a request names another: the default
// clock of the end-to-end simulation (system.Options, spraynic sim --clock-mhz).
const DefaultClockMHz = 250

// MaxClockMHz is the fastest clock a waveform's time axis takes, as the end-to-end simulation.
const MaxClockMHz = 2000

// orDefaultClock is mhz, or DefaultClockMHz when it is 0.
func orDefaultClock(mhz int) int {
	if mhz == 0 {
		return DefaultClockMHz
	}
	return mhz
}

// batchOf is the request's cycles per call into Verilator (default 1024).
func batchOf(r Request) int {
	if r.Batch == 0 {
		return 1024
	}
	return r.Batch
}

// Variant is the model variant a request runs on: traced with Waves, coverage with Coverage, else plain.
func (r Request) Variant() bridge.Variant {
	switch {
	case r.Waves != "":
		return bridge.Trace
	case r.Coverage != "":
		return bridge.Coverage
	}
	return bridge.Plain
}

// open builds (or finds) the test's model in the given variant, loads it and checks its ports against the golden
// model's; the caller closes it.
func (t Test) open(r Request, v bridge.Variant) (*bridge.Model, error) {
	lib, err := BuildTop(r.Root, t.Block, r.Config, v, r.Log)
	if err != nil {
		return nil, err
	}
	want, _, err := t.ports(r.Config)
	if err != nil {
		return nil, err
	}
	return OpenChecked(lib, t.Block, want)
}

// OpenChecked loads the model library lib of RTL top block and checks its ports against want, the golden
// model's; the caller closes it.
func OpenChecked(lib, block string, want []bridge.Port) (*bridge.Model, error) {
	dut, err := bridge.Open(lib)
	if err != nil {
		return nil, err
	}
	if err := dut.CheckPorts(want); err != nil {
		dut.Close()
		return nil, fmt.Errorf("%s model (%s) does not match the golden model's ports: %w", block, lib, err)
	}
	return dut, nil
}

// OpenPlain opens the plain model of a registered test, with r.Cycles defaulted to the test's length.
func OpenPlain(r *Request) (*bridge.Model, error) {
	t, err := Lookup(r.Test)
	if err != nil {
		return nil, err
	}
	t.setup(r)
	return t.open(*r, bridge.Plain)
}
