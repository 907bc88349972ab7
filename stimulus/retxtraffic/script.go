package retxtraffic

import (
	"fmt"
	"strings"

	"github.com/spraynic/spraynic/config"
	"github.com/spraynic/spraynic/golden/retx"
	"github.com/spraynic/spraynic/golden/wide"
	"github.com/spraynic/spraynic/stimulus/registry"
)

// Op is one step of a directed retx script.
type Op int

const (
	opInvalid Op = iota
	// OpOpen opens Conn at PSN on s_ctl (one cycle: s_ctl_ready is !rst).
	OpOpen
	// OpClose closes Conn on s_ctl (one cycle).
	OpClose
	// OpTx offers a new packet {Conn, Handle, First, Last} on s_tx until it is taken. The s_tx slot holds one
	// packet: the step waits for an earlier Async packet to be taken first.
	OpTx
	// OpAck offers an ACK {Conn, PSN, Path, Pseq, Sack, ECN, Nak} on s_ack until it is taken (one slot, as OpTx).
	OpAck
	// OpIdle waits N cycles.
	OpIdle
	// OpReset holds rst for N cycles.
	OpReset
	// OpAt waits until the cycle At returns (takes no cycle when it is already there; being past it is a script
	// error reported by Check).
	OpAt
	// OpPath offers path Path on s_path from now on (NoPath: s_path_valid low); takes no cycle.
	OpPath
	// OpReady sets m_pkt_ready to Pkt and m_fb_ready to Fb from now on; takes no cycle.
	OpReady
)

func (o Op) String() string {
	switch o {
	case OpOpen:
		return "open"
	case OpClose:
		return "close"
	case OpTx:
		return "tx"
	case OpAck:
		return "ack"
	case OpIdle:
		return "idle"
	case OpReset:
		return "reset"
	case OpAt:
		return "at"
	case OpPath:
		return "path"
	case OpReady:
		return "ready"
	case opInvalid:
	}
	return fmt.Sprintf("Op(%d)", int(o))
}

// Item is one step of a script; fields not used by its Op are ignored.
type Item struct {
	// Op is what the step does.
	Op Op
	// Label, when set, names the cycle of the step in the Marks: the s_ctl cycle (open, close), the handshake
	// cycle (tx, ack, also when Async), the first cycle (idle, reset), the cycle reached (at), the first cycle
	// driven with the new levels (path, ready).
	Label string
	// Conn, PSN, Path, Pseq, Handle, Sack and the flags describe a packet, an ACK or a control operation.
	Conn, PSN, Path, Pseq, Handle uint32
	Sack                          wide.Vec
	First, Last, ECN, Nak         bool
	// Async lets the script go on in the same cycle while a tx or ack waits in its slot for the handshake.
	Async bool
	// N is the cycle count of OpIdle and OpReset.
	N int
	// At is the target cycle of OpAt, from the marks so far.
	At func(m *Marks) int64
	// NoPath drops s_path_valid (OpPath); Pkt and Fb are the ready levels of OpReady.
	NoPath, Pkt, Fb bool
}

// L returns the item with Label l.
func (it Item) L(l string) Item { it.Label = l; return it }

// row is one row of a script's table of steps: one Item, or a run of them.
type row interface{ steps() []Item }

// run is a row of several steps.
type run []Item

func (it Item) steps() []Item { return []Item{it} }
func (r run) steps() []Item   { return r }

// table returns the steps of rows, in order.
func table(rows ...row) []Item {
	var it []Item
	for _, r := range rows {
		it = append(it, r.steps()...)
	}
	return it
}

// Script is a directed retx test as data: a table of steps (what to drive and when) and a table of what the run
// must show, both for a configuration.
type Script struct {
	// Name and Doc identify it.
	Name, Doc string
	// GBN runs the engine in go-back-N mode (the test's configure hook sets gbn = 1).
	GBN bool
	// Timers, when set, returns the ack_req_ticks and early_cycles the script runs with (from the configuration
	// requested); a script without it runs with both off, its exact cycles and ACK requests assuming neither.
	Timers func(cfg config.Config) (ackReqTicks, earlyCycles int)
	// Cycles is the run length under a configuration (the script, then a quiet tail).
	Cycles func(cfg config.Config) int64
	// Steps returns the steps for a configuration (already ConfigForScript'd).
	Steps func(cfg config.Config) []Item
	// Expect returns what the whole run, as seen on the ports, must show: a table of rows, each judged by itself,
	// from the configuration and the cycles of the labelled steps.
	Expect func(cfg config.Config, t *Trace) []Expect
}

var scripts = registry.New("retx directed test", func(s Script) string { return s.Name }, directed...)

// Scripts lists the directed scripts, sorted by name.
func Scripts() []Script { return scripts.All() }

// ConfigForScript is the configuration a script runs the engine with: go-back-N scripts switch the mode, and
// the ACK request age and early loss are off unless the script sets them (Timers).
func ConfigForScript(cfg config.Config, s Script) config.Config {
	if s.GBN {
		cfg.GBN = 1
	}
	ticks, early := 0, 0
	if s.Timers != nil {
		ticks, early = s.Timers(cfg)
	}
	cfg.AckReqTicks, cfg.EarlyCycles = ticks, early
	return cfg
}

// Marks are the cycles of the labelled steps.
type Marks struct {
	at      map[string]int64
	missing []string
}

// C returns the cycle of label l; a label not (yet) reached is recorded as a problem and returns a cycle far in
// the future (so an OpAt on it never fires and the script stops there).
func (m *Marks) C(l string) int64 {
	c, ok := m.at[l]
	if !ok {
		m.missing = append(m.missing, l)
		return 1 << 62
	}
	return c
}

// EntropyOf is the UDP source port the scripts offer with path p.
func EntropyOf(p uint32) uint32 { return 0xC000 | (p*977)&0x3FFF }

// slot is a tx or ack waiting for its handshake: the step and its index in the script.
type slot struct {
	it  Item
	idx int
	ok  bool
}

// ScriptDriver plays a Script and records what the ports showed.
type ScriptDriver struct {
	cfg   config.Config
	s     Script
	items []Item
	// pos is the current step; started tells whether it began (its label is set), left the cycles left of an
	// idle or reset step.
	pos     int
	started bool
	left    int
	// tx and ack are the s_tx and s_ack slots.
	tx, ack slot
	// pathValid, path, pktReady and fbReady are the levels set by OpPath and OpReady.
	pathValid, pktReady, fbReady bool
	path                         uint32
	// late lists OpAt steps reached after their target cycle; doneAt is the cycle the last step ended (-1: not yet).
	late   []string
	doneAt int64
	trace  Trace
}

// NewScript returns a driver for s under cfg (already ConfigForScript'd). Path 0 is offered and both readies are
// high until the script says otherwise.
func NewScript(cfg config.Config, s Script) *ScriptDriver {
	d := &ScriptDriver{cfg: cfg, s: s, items: s.Steps(cfg), pathValid: true, pktReady: true, fbReady: true, doneAt: -1}
	d.trace.at = map[string]int64{}
	d.trace.pktShown, d.trace.fbShown = -1, -1
	return d
}

func (d *ScriptDriver) mark(it Item, cycle int64) {
	if it.Label != "" {
		d.trace.at[it.Label] = cycle
	}
}

// step advances over the steps that take no cycle and starts the current one.
func (d *ScriptDriver) step(cycle int64) {
	for d.pos < len(d.items) {
		it := d.items[d.pos]
		switch it.Op {
		case OpPath:
			d.pathValid, d.path = !it.NoPath, it.Path
		case OpReady:
			d.pktReady, d.fbReady = it.Pkt, it.Fb
		case OpAt:
			if !d.reached(cycle, it) {
				return
			}
		case OpTx, OpAck:
			if !d.offer(it) {
				return // wait for the handshake (Observe), or for an earlier Async item to leave the slot
			}
			d.pos++
			continue // labelled at the handshake
		default: // open, close, idle, reset take cycles
			if !d.started {
				d.started, d.left = true, it.N
				d.mark(it, cycle)
			}
			return
		}
		d.mark(it, cycle)
		d.pos++
	}
}

// reached reports whether cycle is at or past the target of the OpAt step it; past it is recorded as late.
func (d *ScriptDriver) reached(cycle int64, it Item) bool {
	n := len(d.trace.missing)
	t := it.At(&d.trace.Marks)
	d.trace.missing = d.trace.missing[:n] // a label not reached yet: wait for it
	if cycle < t {
		return false
	}
	if cycle > t {
		d.late = append(d.late, fmt.Sprintf("step %d (at %q): reached at cycle %d, after its target %d",
			d.pos, it.Label, cycle, t))
	}
	return true
}

// offer puts the tx or ack step it into its slot and reports whether the script goes on in this cycle (an Async
// step in the slot).
func (d *ScriptDriver) offer(it Item) bool {
	sl := &d.tx
	if it.Op == OpAck {
		sl = &d.ack
	}
	if !sl.ok {
		*sl = slot{it: it, idx: d.pos, ok: true}
	} else if sl.idx != d.pos {
		return false // an earlier Async item still waits in the slot
	}
	return it.Async
}

// Drive sets this cycle's inputs from the script.
func (d *ScriptDriver) Drive(cycle int64, in *retx.In) {
	*in = retx.In{}
	if cycle < startReset {
		in.Rst = true
		return
	}
	d.step(cycle)
	if d.pos < len(d.items) {
		switch it := d.items[d.pos]; it.Op {
		case OpOpen, OpClose:
			in.CtlValid, in.CtlOpen, in.CtlConn, in.CtlPSN = true, it.Op == OpOpen, it.Conn, it.PSN
		case OpReset:
			in.Rst = true
		}
	}
	if d.tx.ok {
		it := d.tx.it
		in.TxValid, in.TxConn, in.TxHandle, in.TxFirst, in.TxLast = true, it.Conn, it.Handle, it.First, it.Last
	}
	if d.ack.ok {
		it := d.ack.it
		in.AckValid, in.AckConn, in.AckPSN, in.AckPath, in.AckPseq = true, it.Conn, it.PSN, it.Path, it.Pseq
		in.AckSack, in.AckECN, in.AckNak = it.Sack, it.ECN, it.Nak
	}
	if d.pathValid {
		in.PathValid, in.PathPath, in.PathEntropy = true, d.path, EntropyOf(d.path)
	}
	in.PktReady, in.FbReady = d.pktReady, d.fbReady
}

// Observe records the cycle and advances the script on handshakes and elapsed cycles.
func (d *ScriptDriver) Observe(cycle int64, in *retx.In, out *retx.Out) {
	d.trace.record(cycle, in, out)
	if cycle < startReset {
		return
	}
	if !in.Rst {
		d.shake(&d.tx, cycle, in.TxValid && out.TxReady)
		d.shake(&d.ack, cycle, in.AckValid && out.AckReady)
	}
	if d.pos < len(d.items) && d.started {
		switch it := d.items[d.pos]; it.Op {
		case OpOpen, OpClose:
			if in.CtlValid && out.CtlReady {
				d.done()
			}
		case OpIdle, OpReset:
			d.left--
			if d.left <= 0 {
				d.done()
			}
		}
	}
	if d.doneAt < 0 && d.pos >= len(d.items) && !d.tx.ok && !d.ack.ok {
		d.doneAt = cycle
	}
}

// shake empties slot sl on its handshake (taken), ending the current step when it is the slot's.
func (d *ScriptDriver) shake(sl *slot, cycle int64, taken bool) {
	if !sl.ok || !taken {
		return
	}
	d.mark(sl.it, cycle)
	if sl.idx == d.pos {
		d.done()
	}
	sl.ok = false
}

// done ends the current step.
func (d *ScriptDriver) done() { d.pos++; d.started = false }

// DoneAt returns the cycle the script's last step ended in (-1 while it runs).
func (d *ScriptDriver) DoneAt() int64 { return d.doneAt }

// Packets counts the m_pkt transfers so far.
func (d *ScriptDriver) Packets() int64 { return int64(len(d.trace.Pkts)) }

// Trace returns what the run showed so far.
func (d *ScriptDriver) Trace() *Trace { return &d.trace }

// Check reports whether the script ran to its end on time and the run showed exactly what the script expects.
func (d *ScriptDriver) Check() error {
	if d.pos < len(d.items) || d.tx.ok || d.ack.ok {
		it := d.items[min(d.pos, len(d.items)-1)]
		return fmt.Errorf("script %s stopped at step %d of %d (%s %q) after %d cycles: "+
			"the run was too short or the DUT never took it",
			d.s.Name, d.pos, len(d.items), it.Op, it.Label, len(d.trace.Outs))
	}
	if len(d.late) > 0 {
		return fmt.Errorf("script %s lost its timing: %s", d.s.Name, strings.Join(d.late, "; "))
	}
	d.trace.missing = nil
	var diffs []string
	for _, e := range d.s.Expect(d.cfg, &d.trace) {
		diffs = append(diffs, e(&d.trace)...)
	}
	err := report(diffs)
	if len(d.trace.missing) > 0 {
		return fmt.Errorf("script %s: its check uses labels never reached: %s (check: %v)",
			d.s.Name, strings.Join(d.trace.missing, ", "), err)
	}
	if err != nil {
		return fmt.Errorf("script %s: %w", d.s.Name, err)
	}
	return nil
}
