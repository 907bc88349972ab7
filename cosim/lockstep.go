package cosim

import (
	"fmt"
	"strings"
	"unsafe"

	"github.com/spraynic/spraynic/cosim/bridge"
)

// Golden is a cycle-accurate model: Step fills out with this cycle's outputs for in, then takes the clock edge.
type Golden[I, O any] interface {
	Step(in *I, out *O)
}

// Driver is seeded stimulus. Drive sets this cycle's inputs; Observe then sees the cycle's outputs (the golden
// model's, which equal the DUT's wherever the lockstep compare holds) so that the driver can follow handshakes.
type Driver[I, O any] interface {
	Drive(cycle int64, in *I)
	Observe(cycle int64, in *I, out *O)
}

// Checker is an independent transaction-level scoreboard. It sees the DUT's outputs (the golden model's when
// there is no DUT) and returns the first violation it finds.
type Checker[I, O any] interface {
	Observe(cycle int64, in *I, out *O) error
	Finish() error
}

// Options steer one lockstep run.
type Options struct {
	// Cycles is the run length.
	Cycles int64
	// Batch is the number of cycles per call into the Verilator model.
	Batch int
	// Repro is the one-line command that reproduces this run, printed with any failure.
	Repro string
	// History is the number of input cycles printed before a mismatch.
	History int
	// TraceFrom is the first cycle dumped when the DUT is tracing (0: from the start).
	TraceFrom int64
	// TraceFile, when set, is opened on the DUT at TraceFrom (the model must be the Trace variant).
	TraceFile string
	// TraceClockMHz is the clock of the trace's time axis: one cycle is one period (0: DefaultClockMHz).
	TraceClockMHz int
	// Sampler, when set, is a Sampler[I, O] that sees every cycle (functional coverage; Request.Functional).
	// Nil: no sampling, no cost.
	Sampler any
}

// Stats describes a finished run.
type Stats struct {
	// Cycles simulated.
	Cycles int64
}

// Mismatch is a lockstep difference between the RTL and its golden model.
type Mismatch struct {
	// Cycle is the first cycle that differs.
	Cycle int64
	// Port is the first differing output port.
	Port string
	// Want and Got are the golden and RTL values of the port.
	Want, Got string
	// Outputs are every golden and RTL output of that cycle.
	WantAll, GotAll string
	// Inputs are the inputs of the cycles leading up to it, oldest first.
	Inputs []string
	// Repro is the command that reproduces the run.
	Repro string
}

func (m *Mismatch) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "lockstep mismatch at cycle %d on port %s: expected %s, actual %s\n", m.Cycle, m.Port, m.Want,
		m.Got)
	fmt.Fprintf(&b, "  golden outputs: %s\n  rtl outputs:    %s\n  last inputs:\n", m.WantAll, m.GotAll)
	for _, in := range m.Inputs {
		fmt.Fprintf(&b, "    %s\n", in)
	}
	// The waveform run keeps the run length: a random driver's stimulus depends on it (its drain phase is at the
	// end), and the run stops at the mismatch anyway.
	fmt.Fprintf(&b, "  reproduce: %s\n  waveform:  %s --waves mismatch.fst --waves-from %d",
		m.Repro, m.Repro, max(0, m.Cycle-64))
	return b.String()
}

// CheckError is a scoreboard violation, with the cycle it was found at.
type CheckError struct {
	// Cycle at which the violation was seen.
	Cycle int64
	// Err is the scoreboard's message.
	Err error
	// Repro is the command that reproduces the run.
	Repro string
}

func (e *CheckError) Error() string {
	return fmt.Sprintf("scoreboard at cycle %d: %v\n  reproduce: %s", e.Cycle, e.Err, e.Repro)
}

func (e *CheckError) Unwrap() error { return e.Err }

// Lockstep drives golden, driver and checker for opt.Cycles cycles; with a DUT it batches opt.Batch cycles per call,
// compares every output port of every cycle and feeds the DUT's outputs to the checker. Finish is called at the end.
func Lockstep[I, O any](dut *bridge.Model, gold Golden[I, O], drv Driver[I, O], chk Checker[I, O],
	validOf func(string) string, opt Options) (Stats, error) {
	smp, err := samplerFor[I, O](opt)
	if err != nil {
		return Stats{}, err
	}
	var in I
	var out O
	if dut == nil {
		for c := int64(0); c < opt.Cycles; c++ {
			drv.Drive(c, &in)
			gold.Step(&in, &out)
			drv.Observe(c, &in, &out)
			if smp != nil {
				smp.Sample(c, &in, &out)
			}
			if chk != nil {
				if err := chk.Observe(c, &in, &out); err != nil {
					return Stats{Cycles: c + 1}, &CheckError{Cycle: c, Err: err, Repro: opt.Repro}
				}
			}
		}
		return finish(chk, opt)
	}
	inL, err := NewLayout(typeOf[I](), dut.Ports(), bridge.In, func(string) string { return "" })
	if err != nil {
		return Stats{}, err
	}
	outL, err := NewLayout(typeOf[O](), dut.Ports(), bridge.Out, validOf)
	if err != nil {
		return Stats{}, err
	}
	if inL.Words() != dut.InWords() || outL.Words() != dut.OutWords() {
		return Stats{}, fmt.Errorf("layout words %d/%d differ from the model's %d/%d", inL.Words(), outL.Words(),
			dut.InWords(), dut.OutWords())
	}
	return pipelined(dut, gold, drv, chk, smp, inL, outL, opt)
}

// batchBuf is one batch of predicted cycles: inputs and the golden outputs, packed.
type batchBuf struct {
	// base is the first cycle; n the cycle count; trace opens the waveform before stepping.
	base  int64
	n     int
	trace bool
	// in and want are n packed cycles each.
	in, want []uint32
}

// pipelined overlaps the two halves of lockstep on two cores: a goroutine runs driver + golden model ahead and
// packs batches; this goroutine steps the RTL on each batch, compares and feeds the checker. The driver follows
// the golden outputs only, so the prediction never needs the RTL; a mismatch stops the predictor.
// A sampler sees each cycle's inputs and golden outputs once the cycle passed the compare.
func pipelined[I, O any](dut *bridge.Model, gold Golden[I, O], drv Driver[I, O], chk Checker[I, O],
	smp Sampler[I, O], inL, outL *Layout, opt Options) (Stats, error) {
	s := &lockRun[I, O]{dut: dut, gold: gold, drv: drv, chk: chk, smp: smp, inL: inL, outL: outL, opt: opt}
	batch := max(1, opt.Batch)
	const depth = 3
	free := make(chan *batchBuf, depth)
	for i := 0; i < depth; i++ {
		free <- &batchBuf{in: make([]uint32, batch*inL.Words()), want: make([]uint32, batch*outL.Words())}
	}
	full := make(chan *batchBuf, depth)
	stop := make(chan struct{})
	defer close(stop)
	go s.produce(batch, free, full, stop)
	got := make([]uint32, batch*outL.Words())
	for b := range full {
		if b.trace {
			if err := dut.TraceOpen(opt.TraceFile, float64(orDefaultClock(opt.TraceClockMHz))); err != nil {
				return Stats{Cycles: b.base}, err
			}
			defer dut.TraceClose()
		}
		if err := dut.Step(b.n, b.in[:b.n*inL.Words()], got[:b.n*outL.Words()]); err != nil {
			return Stats{Cycles: b.base}, err
		}
		if st, err := s.check(b, got); err != nil {
			return st, err
		}
		free <- b
	}
	return finish(chk, opt)
}

// lockRun is one lockstep run: the model, the golden model, the stimulus, the checker and sampler, the port
// layouts and the options.
type lockRun[I, O any] struct {
	dut  *bridge.Model
	gold Golden[I, O]
	drv  Driver[I, O]
	chk  Checker[I, O]
	smp  Sampler[I, O]
	// inL and outL lay the golden records onto the model's ports.
	inL, outL *Layout
	opt       Options
}

// produce fills batches from free with the golden-driven inputs and the golden outputs of each cycle and hands
// them to full, in cycle order, until the run's cycles are done or stop closes. A batch ends where the waveform
// window starts, so that the batch that starts tracing begins at its first cycle.
func (s *lockRun[I, O]) produce(batch int, free <-chan *batchBuf, full chan<- *batchBuf, stop <-chan struct{}) {
	defer close(full)
	var in I
	var out O
	tracing := false
	opt := s.opt
	for base := int64(0); base < opt.Cycles; {
		var b *batchBuf
		select {
		case b = <-free:
		case <-stop:
			return
		}
		b.base = base
		b.n = int(min(int64(batch), opt.Cycles-base))
		b.trace = false
		if opt.TraceFile != "" && !tracing && base+int64(b.n) > opt.TraceFrom {
			if base < opt.TraceFrom {
				b.n = int(opt.TraceFrom - base)
			} else {
				b.trace, tracing = true, true
			}
		}
		for i := 0; i < b.n; i++ {
			c := base + int64(i)
			s.drv.Drive(c, &in)
			s.gold.Step(&in, &out)
			s.drv.Observe(c, &in, &out)
			s.inL.Pack(unsafe.Pointer(&in), b.in[i*s.inL.Words():])
			s.outL.Pack(unsafe.Pointer(&out), b.want[i*s.outL.Words():])
		}
		base += int64(b.n)
		select {
		case full <- b:
		case <-stop:
			return
		}
	}
}

// check compares the model's outputs got of batch b with the golden ones, cycle by cycle, and feeds the sampler
// and the checker; it returns the first mismatch or checker violation.
func (s *lockRun[I, O]) check(b *batchBuf, got []uint32) (Stats, error) {
	var in I
	var dutOut, goldOut O
	iw, ow := s.inL.Words(), s.outL.Words()
	for i := 0; i < b.n; i++ {
		c := b.base + int64(i)
		want := b.want[i*ow : (i+1)*ow]
		g := got[i*ow : (i+1)*ow]
		if p := s.outL.Diff(want, g); p >= 0 {
			return Stats{Cycles: c + 1}, mismatch(c, p, b.base, i, s.inL, s.outL, b.in, want, g, s.opt)
		}
		if s.chk != nil || s.smp != nil {
			s.inL.Unpack(b.in[i*iw:], unsafe.Pointer(&in))
		}
		if s.smp != nil {
			s.outL.Unpack(want, unsafe.Pointer(&goldOut))
			s.smp.Sample(c, &in, &goldOut)
		}
		if s.chk != nil {
			s.outL.Unpack(g, unsafe.Pointer(&dutOut))
			if err := s.chk.Observe(c, &in, &dutOut); err != nil {
				return Stats{Cycles: c + 1}, &CheckError{Cycle: c, Err: err, Repro: s.opt.Repro}
			}
		}
	}
	return Stats{}, nil
}

func finish[I, O any](chk Checker[I, O], opt Options) (Stats, error) {
	if chk != nil {
		if err := chk.Finish(); err != nil {
			return Stats{Cycles: opt.Cycles}, &CheckError{Cycle: opt.Cycles, Err: err, Repro: opt.Repro}
		}
	}
	return Stats{Cycles: opt.Cycles}, nil
}

func mismatch(c int64, p int, base int64, i int, inL, outL *Layout, inBuf, want, got []uint32, opt Options) *Mismatch {
	m := &Mismatch{Cycle: c, Port: outL.Name(p), Want: outL.Format(p, want), Got: outL.Format(p, got),
		WantAll: outL.FormatAll(want), GotAll: outL.FormatAll(got), Repro: opt.Repro}
	hist := max(1, opt.History)
	for k := max(0, i-hist+1); k <= i; k++ {
		m.Inputs = append(m.Inputs,
			fmt.Sprintf("cycle %d: %s", base+int64(k), inL.FormatAll(inBuf[k*inL.Words():(k+1)*inL.Words()])))
	}
	return m
}
