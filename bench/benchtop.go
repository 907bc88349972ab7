package bench

import (
	"fmt"
	"io"
	"time"
	"unsafe"

	"github.com/spraynic/spraynic/config"
	"github.com/spraynic/spraynic/cosim"
	"github.com/spraynic/spraynic/cosim/bridge"
	"github.com/spraynic/spraynic/golden/nictransport"
	"github.com/spraynic/spraynic/system"
)

// The nic_transport top has no seeded driver of its own: its inputs come from an end-to-end simulation of two
// golden endpoints (cosim/e2e.go). Its benchmark therefore records them once and times each mode on the recording
// alone, so that no mode's figure contains the golden end-to-end simulation that produced the inputs; that
// simulation is timed on its own (E2EGolden).
//
// A recording of the e2e scenario is about 22,600 cycles on the default preset, a fraction of a second in
// lockstep: too short to time on a shared 2-core machine. Every timed mode (the recording run included) therefore
// runs reps = max(1, cycles / recorded) times and the times are summed; each repetition starts from a fresh
// Verilator instance and a fresh golden model (the recording begins with the reset, as the nic tests replay it),
// and opening them is not timed. --block-cycles caps the replayed cycles per repetition: a shorter request
// replays a prefix of the recording once.

// topTimer times repeated replays of one endpoint's recorded inputs on the nic_transport top.
type topTimer struct {
	// r is the nic test's request (configuration derived, cycles = the test's default); lib its model.
	r    cosim.Request
	lib  string
	want []bridge.Port
}

// newTopTimer builds (or finds) the nic_transport model of r's configuration.
func newTopTimer(r cosim.Request) (*topTimer, error) {
	lib, err := cosim.BuildTop(r.Root, "nic_transport", r.Config, bridge.Plain, r.Log)
	if err != nil {
		return nil, err
	}
	want, _, err := cosim.NicTransportPorts(r.Config)
	if err != nil {
		return nil, err
	}
	return &topTimer{r: r, lib: lib, want: want}, nil
}

// open loads a fresh instance of the model and checks its ports against the golden twin's.
func (t *topTimer) open() (*bridge.Model, error) {
	return cosim.OpenChecked(t.lib, "nic_transport", t.want)
}

// lockstep replays ins once on a fresh RTL instance in lockstep with a fresh nictransport.NewTop (as the nic tests
// run: 1024 cycles per call, 8 cycles of history, no scoreboard) and returns the seconds spent in Lockstep. With
// golden it steps a fresh golden twin alone.
func (t *topTimer) lockstep(ins []nictransport.TopIn, golden bool) (float64, error) {
	var dut *bridge.Model
	if !golden {
		var err error
		if dut, err = t.open(); err != nil {
			return 0, err
		}
		defer dut.Close()
	}
	g, err := nictransport.NewTop(t.r.Config)
	if err != nil {
		return 0, err
	}
	drv := cosim.NewReplay[nictransport.TopIn, nictransport.TopOut](ins,
		func(in nictransport.TopIn) nictransport.TopIn { return in })
	start := time.Now()
	_, err = cosim.Lockstep[nictransport.TopIn, nictransport.TopOut](
		dut,
		g,
		drv,
		nil,
		nictransport.Valid,
		cosim.Options{
			Cycles: int64(len(ins)), Batch: 1024, Repro: t.r.Repro(), History: 8},
	)
	return time.Since(start).Seconds(), err
}

// pack returns ins packed in the model's input layout, one cycle after the other.
func (t *topTimer) pack(ins []nictransport.TopIn) ([]uint32, *cosim.Layout, error) {
	dut, err := t.open()
	if err != nil {
		return nil, nil, err
	}
	defer dut.Close()
	inL, err := cosim.NewLayout(typeOf[nictransport.TopIn](), dut.Ports(), bridge.In, func(string) string { return "" })
	if err != nil {
		return nil, nil, err
	}
	if inL.Words() != dut.InWords() {
		return nil, nil, fmt.Errorf("nic_transport: input layout of %d words, the model takes %d", inL.Words(),
			dut.InWords())
	}
	w := inL.Words()
	pattern := make([]uint32, len(ins)*w)
	for c := range ins {
		inL.Pack(unsafe.Pointer(&ins[c]), pattern[c*w:])
	}
	return pattern, inL, nil
}

// raw runs the packed pattern (n cycles) once from the C++ loop of a fresh model instance and returns the
// seconds spent in RunRaw.
func (t *topTimer) raw(pattern []uint32, n int64) (float64, error) {
	dut, err := t.open()
	if err != nil {
		return 0, err
	}
	defer dut.Close()
	start := time.Now()
	err = dut.RunRaw(n, pattern)
	return time.Since(start).Seconds(), err
}

// topRounds times reps rounds of (2) lockstep on the recording only, the golden twin alone, (1) the C++ loop over
// the same inputs, and (after the first round) the recording run again, whose seconds it returns last but one.
func topRounds(tt *topTimer, rr cosim.Request, sc cosim.Scenario, side int, ins []nictransport.TopIn,
	pattern []uint32, recorded, reps int64) (lock, gold, raw, e2eSecs float64, err error) {
	n := int64(len(ins))
	for i := int64(0); i < reps; i++ {
		if i > 0 {
			start := time.Now()
			again, err := cosim.RecordEndpoint(rr, sc, side)
			e2eSecs += time.Since(start).Seconds()
			if err != nil {
				return 0, 0, 0, 0, err
			}
			if int64(len(again)) != recorded {
				return 0, 0, 0, 0, fmt.Errorf(
					"the end-to-end simulation recorded %d cycles, then %d (not deterministic)", recorded, len(again))
			}
		}
		secs, err := tt.lockstep(ins, false)
		if err != nil {
			return 0, 0, 0, 0, err
		}
		lock += secs
		if secs, err = tt.lockstep(ins, true); err != nil {
			return 0, 0, 0, 0, err
		}
		gold += secs
		if secs, err = tt.raw(pattern, n); err != nil {
			return 0, 0, 0, 0, err
		}
		raw += secs
	}
	return lock, gold, raw, e2eSecs, nil
}

// repsFor is how many times a recording of n cycles is replayed to fill cycles (at least once).
func repsFor(n, cycles int64) int64 { return max(1, cycles/max(1, n)) }

// benchTop measures the nic_transport top on r.Test (a nic_<scenario>_a/_b test): the recording run alone
// (E2EGolden), then raw, lockstep, golden and Icarus on the recorded inputs only (see the comment at the top).
func benchTop(r cosim.Request, work string, icarusCycles int64) (BlockBench, error) {
	b := BlockBench{Block: "nic_transport", Test: r.Test, Config: r.Config.Name, Seed: r.Seed}
	rr, sc, side, err := cosim.NicScenario(r)
	if err != nil {
		return b, err
	}
	// The golden two-endpoint system that records the inputs, timed alone; its first run gives the recording.
	start := time.Now()
	ins, err := cosim.RecordEndpoint(rr, sc, side)
	if err != nil {
		return b, err
	}
	e2eSecs := time.Since(start).Seconds()
	b.Recorded = int64(len(ins))
	reps := repsFor(b.Recorded, r.Cycles)
	n := min(b.Recorded, r.Cycles)
	ins = ins[:n]
	b.Reps = reps
	b.Cycles = n * reps
	b.IcarusCycles = min(icarusCycles, n)
	tt, err := newTopTimer(rr)
	if err != nil {
		return b, err
	}
	pattern, inL, err := tt.pack(ins)
	if err != nil {
		return b, err
	}
	lock, gold, raw, secs, err := topRounds(tt, rr, sc, side, ins, pattern, b.Recorded, reps)
	if err != nil {
		return b, err
	}
	e2eSecs += secs
	b.E2EGolden = float64(b.Recorded*reps) / e2eSecs
	c := float64(b.Cycles)
	b.Lockstep = c / lock
	b.Golden = c / gold
	b.Raw = c / raw
	// (3) Icarus on a prefix.
	dut, err := tt.open()
	if err != nil {
		return b, err
	}
	ports := dut.Ports()
	dut.Close()
	b.Icarus, b.Note, err = benchIcarus(rr, "nic_transport", ports, inL.Words(), pattern, b.IcarusCycles, work)
	return b, err
}

// SystemBench is the two-endpoint system in lockstep beside its Verilator models stepped alone: one end-to-end
// simulation records the inputs of both endpoints, then each endpoint's RTL top replays its own.
type SystemBench struct {
	// Scenario names the end-to-end scenario that ran (cosim/e2e.go, that of BenchTests["nic_transport"]);
	// Config, Seed say what ran.
	Scenario string `json:"scenario"`
	Config   string `json:"config"`
	Seed     uint64 `json:"seed"`
	// Recorded is the simulation's cycles (each endpoint's recording); Reps the repetitions of every timed mode;
	// Cycles = Recorded x Reps, the cycles every figure below is over.
	Recorded int64 `json:"recorded_cycles"`
	Reps     int64 `json:"reps"`
	Cycles   int64 `json:"cycles"`
	// GoldenE2E is the golden end-to-end simulation recording both endpoints' inputs, cycles/s.
	GoldenE2E float64 `json:"golden_e2e_cps"`
	// LockstepA/B are each endpoint's RTL replay in lockstep with its golden twin, cycles/s.
	LockstepA float64 `json:"lockstep_a_cps"`
	LockstepB float64 `json:"lockstep_b_cps"`
	// RawA/B are each endpoint's Verilator model from its C++ loop over its recorded inputs, cycles/s.
	RawA float64 `json:"verilator_raw_a_cps"`
	RawB float64 `json:"verilator_raw_b_cps"`
	// Lockstep = Cycles / (golden e2e time + lockstep A time + lockstep B time): the closed loop of two RTL
	// endpoints checked on every port and cycle (what spraynic sim --rtl runs), cycles/s.
	Lockstep float64 `json:"lockstep_cps"`
	// Raw = Cycles / (raw A time + raw B time): both Verilator models stepped alone, cycles/s.
	Raw float64 `json:"verilator_raw_cps"`
}

// LockstepVsRaw is Lockstep/Raw.
func (s SystemBench) LockstepVsRaw() float64 { return ratio(s.Lockstep, s.Raw) }

// BenchSystem measures the two-endpoint system on the scenario of the nic_transport bench test (BenchTests) under
// cfg: one end-to-end simulation records both endpoints' inputs (timed alone), then each endpoint's recording is
// replayed on the RTL top in lockstep with its golden twin, and from the Verilator C++ loop. Every timed mode runs
// max(1, cycles / recorded) times over the whole recording (the golden simulation's time covers all of it, so the
// system figure never replays a prefix).
func BenchSystem(root string, cfg config.Config, seed uint64, cycles int64, log io.Writer) (SystemBench, error) {
	rr, sc, _, err := cosim.NicScenario(cosim.Request{Test: BenchTests["nic_transport"], Config: cfg, Seed: seed,
		Root: root, Log: log})
	if err != nil {
		return SystemBench{}, err
	}
	s := SystemBench{Scenario: sc.Name(), Config: cfg.Name, Seed: seed}
	ins, e2eSecs, err := recordBoth(rr, sc)
	if err != nil {
		return s, err
	}
	s.Recorded = int64(len(ins[0]))
	s.Reps = repsFor(s.Recorded, cycles)
	s.Cycles = s.Recorded * s.Reps
	tt, err := newTopTimer(rr)
	if err != nil {
		return s, err
	}
	var patterns [2][]uint32
	for side := range ins {
		if patterns[side], _, err = tt.pack(ins[side]); err != nil {
			return s, err
		}
	}
	// Rounds of: the recording run (after the first round), then per endpoint lockstep and the C++ loop.
	var lock, raw [2]float64
	for i := int64(0); i < s.Reps; i++ {
		if i > 0 {
			again, secs, err := recordBoth(rr, sc)
			if err != nil {
				return s, err
			}
			if len(again[0]) != len(ins[0]) {
				return s, fmt.Errorf("the end-to-end simulation recorded %d cycles, then %d (not deterministic)",
					len(ins[0]), len(again[0]))
			}
			e2eSecs += secs
		}
		if err := timeSides(tt, ins, patterns, s.Recorded, &lock, &raw); err != nil {
			return s, err
		}
	}
	c := float64(s.Cycles)
	s.GoldenE2E = c / e2eSecs
	s.LockstepA = c / lock[0]
	s.LockstepB = c / lock[1]
	s.RawA = c / raw[0]
	s.RawB = c / raw[1]
	s.Lockstep = c / (e2eSecs + lock[0] + lock[1])
	s.Raw = c / (raw[0] + raw[1])
	return s, nil
}

// recordBoth runs the scenario once, recording both endpoints' inputs, and returns them with the run's seconds.
func recordBoth(rr cosim.Request, sc cosim.Scenario) ([2][]nictransport.TopIn, float64, error) {
	var ins [2][]nictransport.TopIn
	o := cosim.ScenarioOptions(rr, sc)
	for side := range ins {
		o.Inputs[side] = func(in *nictransport.In) {
			var p nictransport.TopIn
			nictransport.FromIn(in, &p)
			ins[side] = append(ins[side], p)
		}
	}
	start := time.Now()
	_, err := system.Run(o)
	secs := time.Since(start).Seconds()
	if err != nil {
		return ins, 0, fmt.Errorf("end-to-end simulation (seed %d): %w", rr.Seed, err)
	}
	if len(ins[0]) != len(ins[1]) || len(ins[0]) == 0 {
		return ins, 0, fmt.Errorf("end-to-end simulation recorded %d cycles of A and %d of B", len(ins[0]), len(ins[1]))
	}
	return ins, secs, nil
}

// timeSides times, per endpoint, one lockstep replay of its recording and one C++ loop over its n packed inputs,
// adding the seconds to lock and raw.
func timeSides(tt *topTimer, ins [2][]nictransport.TopIn, patterns [2][]uint32, n int64, lock, raw *[2]float64) error {
	for side := range ins {
		secs, err := tt.lockstep(ins[side], false)
		if err != nil {
			return fmt.Errorf("endpoint %c: %w", 'A'+side, err)
		}
		lock[side] += secs
		if secs, err = tt.raw(patterns[side], n); err != nil {
			return err
		}
		raw[side] += secs
	}
	return nil
}
