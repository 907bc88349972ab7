package retxtraffic

import (
	"fmt"
	"sort"
	"strings"

	"github.com/spraynic/spraynic/config"
	"github.com/spraynic/spraynic/golden/retx"
	"github.com/spraynic/spraynic/golden/wide"
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

// Script is a directed retx test: a fixed sequence of steps and the exact outcome it must produce.
type Script struct {
	// Name and Doc identify it.
	Name, Doc string
	// GBN runs the engine in go-back-N mode (the test's configure hook sets gbn = 1).
	GBN bool
	// Cycles is the run length under a configuration (the script, then a quiet tail).
	Cycles func(cfg config.Config) int64
	// Build returns the steps for a configuration (already ConfigForScript'd).
	Build func(cfg config.Config) []Item
	// Check judges the whole run, as seen on the ports.
	Check func(cfg config.Config, t *Trace) error
}

var scripts = map[string]Script{}

// Scripts lists the directed scripts, sorted by name.
func Scripts() []Script {
	var s []Script
	for _, v := range scripts {
		s = append(s, v)
	}
	sort.Slice(s, func(i, j int) bool { return s[i].Name < s[j].Name })
	return s
}

// ConfigForScript is the configuration a script runs the engine with: go-back-N scripts switch the mode.
func ConfigForScript(cfg config.Config, s Script) config.Config {
	if s.GBN {
		cfg.GBN = 1
	}
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

// PktEv is one m_pkt transfer: Shown is the first cycle the packet was on m_pkt (m_pkt_valid), At the cycle of
// the transfer (m_pkt_valid && m_pkt_ready).
type PktEv struct {
	Shown, At                 int64
	Conn, PSN, Path, Pseq     uint32
	Entropy, Handle, Retries  uint32
	First, Last, AckReq, Retx bool
}

func (p PktEv) String() string {
	f := func(b bool, s string) string {
		if b {
			return " " + s
		}
		return ""
	}
	return fmt.Sprintf("{shown %d at %d conn %d psn %#x path %d pseq %d entropy %#x handle %#x retries %d%s%s%s%s}",
		p.Shown, p.At, p.Conn, p.PSN, p.Path, p.Pseq, p.Entropy, p.Handle, p.Retries,
		f(p.First, "first"), f(p.Last, "last"), f(p.AckReq, "ack_req"), f(p.Retx, "retx"))
}

// FbEv is one m_fb transfer, Shown and At as for PktEv.
type FbEv struct {
	Shown, At               int64
	Conn, Path, Kind, Count uint32
}

func (f FbEv) String() string {
	kind := [4]string{"delivered", "ecn", "loss", "timeout"}[f.Kind&3]
	return fmt.Sprintf("{shown %d at %d conn %d path %d %s count %d}", f.Shown, f.At, f.Conn, f.Path, kind, f.Count)
}

// ErrEv is one cycle with m_err_valid.
type ErrEv struct {
	At   int64
	Conn uint32
}

// Trace is everything a script run showed on the ports (outputs of every cycle, the inputs that qualify them) and
// the marks of its steps.
type Trace struct {
	Marks
	// Ins and Outs are the ports of every cycle.
	Ins  []retx.In
	Outs []retx.Out
	// Pkts, Fbs and Errs are the transfers on m_pkt, m_fb and the m_err pulses, outside reset cycles.
	Pkts []PktEv
	Fbs  []FbEv
	Errs []ErrEv
	// pktShown and fbShown are the first cycles the current m_pkt / m_fb contents were valid (-1: not valid).
	pktShown, fbShown int64
}

// Out returns the outputs of cycle c (the zero value outside the run).
func (t *Trace) Out(c int64) retx.Out {
	if c < 0 || c >= int64(len(t.Outs)) {
		return retx.Out{}
	}
	return t.Outs[c]
}

// In returns the inputs of cycle c (the zero value outside the run).
func (t *Trace) In(c int64) retx.In {
	if c < 0 || c >= int64(len(t.Ins)) {
		return retx.In{}
	}
	return t.Ins[c]
}

// Last returns the outputs of the last cycle.
func (t *Trace) Last() retx.Out { return t.Out(int64(len(t.Outs)) - 1) }

func (t *Trace) record(cycle int64, in *retx.In, out *retx.Out) {
	t.Ins = append(t.Ins, *in)
	t.Outs = append(t.Outs, *out)
	if in.Rst {
		t.pktShown, t.fbShown = -1, -1
		return
	}
	if !out.PktValid {
		t.pktShown = -1
	} else if t.pktShown < 0 {
		t.pktShown = cycle
	}
	if !out.FbValid {
		t.fbShown = -1
	} else if t.fbShown < 0 {
		t.fbShown = cycle
	}
	if out.PktValid && in.PktReady {
		t.Pkts = append(t.Pkts, PktEv{Shown: t.pktShown, At: cycle, Conn: out.PktConn, PSN: out.PktPSN, Path: out.PktPath,
			Pseq: out.PktPseq, Entropy: out.PktEntropy, Handle: out.PktHandle, Retries: out.PktRetries,
			First: out.PktFirst, Last: out.PktLast, AckReq: out.PktAckReq, Retx: out.PktRetx})
		t.pktShown = -1
	}
	if out.FbValid && in.FbReady {
		t.Fbs = append(t.Fbs, FbEv{Shown: t.fbShown, At: cycle, Conn: out.FbConn, Path: out.FbPath, Kind: out.FbKind, Count: out.FbCount})
		t.fbShown = -1
	}
	if out.ErrValid {
		t.Errs = append(t.Errs, ErrEv{At: cycle, Conn: out.ErrConn})
	}
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
	d := &ScriptDriver{cfg: cfg, s: s, items: s.Build(cfg), pathValid: true, pktReady: true, fbReady: true, doneAt: -1}
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
			n := len(d.trace.missing)
			t := it.At(&d.trace.Marks)
			d.trace.missing = d.trace.missing[:n] // a label not reached yet: wait for it
			if cycle < t {
				return
			}
			if cycle > t {
				d.late = append(d.late, fmt.Sprintf("step %d (at %q): reached at cycle %d, after its target %d", d.pos, it.Label, cycle, t))
			}
		case OpTx, OpAck:
			sl := &d.tx
			if it.Op == OpAck {
				sl = &d.ack
			}
			if !sl.ok {
				*sl = slot{it: it, idx: d.pos, ok: true}
			} else if sl.idx != d.pos {
				return // an earlier Async item still waits in the slot
			}
			if !it.Async {
				return // wait for the handshake (Observe)
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
	done := func() { d.pos++; d.started = false }
	if !in.Rst {
		if d.tx.ok && in.TxValid && out.TxReady {
			d.mark(d.tx.it, cycle)
			if d.tx.idx == d.pos {
				done()
			}
			d.tx.ok = false
		}
		if d.ack.ok && in.AckValid && out.AckReady {
			d.mark(d.ack.it, cycle)
			if d.ack.idx == d.pos {
				done()
			}
			d.ack.ok = false
		}
	}
	if d.pos < len(d.items) && d.started {
		switch it := d.items[d.pos]; it.Op {
		case OpOpen, OpClose:
			if in.CtlValid && out.CtlReady {
				done()
			}
		case OpIdle, OpReset:
			d.left--
			if d.left <= 0 {
				done()
			}
		}
	}
	if d.doneAt < 0 && d.pos >= len(d.items) && !d.tx.ok && !d.ack.ok {
		d.doneAt = cycle
	}
}

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
		return fmt.Errorf("script %s stopped at step %d of %d (%s %q) after %d cycles: the run was too short or the DUT never took it",
			d.s.Name, d.pos, len(d.items), it.Op, it.Label, len(d.trace.Outs))
	}
	if len(d.late) > 0 {
		return fmt.Errorf("script %s lost its timing: %s", d.s.Name, strings.Join(d.late, "; "))
	}
	d.trace.missing = nil
	err := d.s.Check(d.cfg, &d.trace)
	if len(d.trace.missing) > 0 {
		return fmt.Errorf("script %s: its check uses labels never reached: %s (check: %v)", d.s.Name, strings.Join(d.trace.missing, ", "), err)
	}
	if err != nil {
		return fmt.Errorf("script %s: %w", d.s.Name, err)
	}
	return nil
}

// ---------------------------------------------------------------------------------------------------------------
// Helpers to write scripts and their checks.
// ---------------------------------------------------------------------------------------------------------------

func open(c, psn uint32) Item { return Item{Op: OpOpen, Conn: c, PSN: psn} }
func closeConn(c uint32) Item { return Item{Op: OpClose, Conn: c} }

func tx(c, handle uint32, first, last bool) Item {
	return Item{Op: OpTx, Conn: c, Handle: handle, First: first, Last: last}
}

func ackOf(c, psn, path, pseq uint32, sack wide.Vec) Item {
	return Item{Op: OpAck, Conn: c, PSN: psn & psnMask, Path: path, Pseq: pseq, Sack: sack}
}

func nakOf(c, psn uint32) Item { return Item{Op: OpAck, Conn: c, PSN: psn & psnMask, Nak: true} }

// async returns a tx or ack step that lets the script go on while it waits for its handshake.
func async(it Item) Item { it.Async = true; return it }

func idle(n int) Item  { return Item{Op: OpIdle, N: n} }
func reset(n int) Item { return Item{Op: OpReset, N: n} }

func at(f func(m *Marks) int64) Item { return Item{Op: OpAt, At: f} }

// after is an OpAt: label's cycle + off.
func after(label string, off int64) Item {
	return at(func(m *Marks) int64 { return m.C(label) + off })
}

func path(p uint32) Item              { return Item{Op: OpPath, Path: p} }
func ready(pkt, fb bool) Item         { return Item{Op: OpReady, Pkt: pkt, Fb: fb} }
func psnAt(base uint32, k int) uint32 { return (base + uint32(k)) & psnMask }

// sackOf is the SACK bitmap of an ACK reporting path sequences up to n-1 (bit i = n-1-i), every one of the newest
// min(n, SACK_BITS) received except those in lost.
func sackOf(cfg config.Config, n uint32, lost ...uint32) wide.Vec {
	var v wide.Vec
	for i := 0; i < min(int(n), cfg.SackBits); i++ {
		q := n - 1 - uint32(i)
		gone := false
		for _, l := range lost {
			gone = gone || l == q
		}
		if !gone {
			v = v.Set(i)
		}
	}
	return v
}

// region is the number of path sequences an ACK newly covering d of them reports: min(d, SACK_BITS, 255).
func region(cfg config.Config, d int) uint32 { return uint32(min(d, cfg.SackBits, 255)) }

// visitAfter is the first cycle after t in which the timer visits connection c, the tick counter having been 0
// in cycle origin (the cycle after the last rst cycle).
func visitAfter(cfg config.Config, c uint32, origin, t int64) int64 {
	tc := int64(cfg.TickCycles)
	v := origin + int64(c)
	if v > t {
		return v
	}
	return v + ((t-v)/tc+1)*tc
}

// limits returns the k timeouts (ticks) of k consecutive expiries without progress: RTO_TICKS doubling up to
// RTO_MAX_TICKS.
func limits(cfg config.Config, k int) []int64 {
	var l []int64
	lim := int64(cfg.RTOTicks)
	for range k {
		l = append(l, lim)
		lim = min(2*lim, int64(cfg.RTOMaxTicks))
	}
	return l
}

// expiries returns the cycles of the first k expiries of connection c whose timer restarted in cycle restart
// with nothing in its way (no progress, each expiry's lookup issued the next cycle): the RTO_TICKS-th visit after
// the restart, then every backed-off limit.
func expiries(cfg config.Config, c uint32, origin, restart int64, k int) []int64 {
	tc := int64(cfg.TickCycles)
	var e []int64
	v := visitAfter(cfg, c, origin, restart) - tc
	for _, lim := range limits(cfg, k) {
		v += lim * tc
		e = append(e, v)
	}
	return e
}

// checker collects the differences between what a run showed and what the script expects.
type checker struct {
	errs []string
}

func (k *checker) failf(format string, a ...any) { k.errs = append(k.errs, fmt.Sprintf(format, a...)) }

// eq records a difference when got != want.
func eq[T comparable](k *checker, what string, got, want T) {
	if got != want {
		k.failf("%s: got %v, want %v", what, got, want)
	}
}

// pkts compares a list of transfers.
func (k *checker) pkts(what string, got, want []PktEv) {
	for i := 0; i < max(len(got), len(want)); i++ {
		switch {
		case i >= len(got):
			k.failf("%s: transfer %d missing, want %v", what, i, want[i])
		case i >= len(want):
			k.failf("%s: unexpected transfer %d: %v", what, i, got[i])
		case got[i] != want[i]:
			k.failf("%s: transfer %d: got %v, want %v", what, i, got[i], want[i])
		}
	}
}

// fbs compares a list of feedback transfers.
func (k *checker) fbs(what string, got, want []FbEv) {
	for i := 0; i < max(len(got), len(want)); i++ {
		switch {
		case i >= len(got):
			k.failf("%s: event %d missing, want %v", what, i, want[i])
		case i >= len(want):
			k.failf("%s: unexpected event %d: %v", what, i, got[i])
		case got[i] != want[i]:
			k.failf("%s: event %d: got %v, want %v", what, i, got[i], want[i])
		}
	}
}

// counters compares the eight counters of cycle c with want (sent, retx_loss, retx_timeout, retx_gbn, timeouts,
// errors, tx_dropped, ack_ignored).
func (k *checker) counters(t *Trace, c int64, want [8]uint32) {
	o := t.Out(c)
	got := [8]uint32{o.CntSent, o.CntRetxLoss, o.CntRetxTimeout, o.CntRetxGBN, o.CntTimeouts, o.CntErrors, o.CntTxDropped, o.CntAckIgnored}
	if got != want {
		k.failf("counters at cycle %d (sent, retx_loss, retx_timeout, retx_gbn, timeouts, errors, tx_dropped, ack_ignored): got %v, want %v", c, got, want)
	}
}

// level checks that f holds for every cycle in [from, to] (inclusive).
func (k *checker) level(t *Trace, what string, from, to int64, f func(in retx.In, out retx.Out) bool) {
	for c := from; c <= to; c++ {
		if !f(t.In(c), t.Out(c)) {
			k.failf("%s: does not hold at cycle %d (checked %d..%d)", what, c, from, to)
			return
		}
	}
}

// preq checks m_preq at cycle c.
func (k *checker) preq(t *Trace, c int64, valid bool, conn uint32, retxing bool, avoid uint32) {
	o := t.Out(c)
	got := fmt.Sprint(o.PreqValid, o.PreqConn, o.PreqRetx, o.PreqAvoid)
	want := fmt.Sprint(valid, conn, retxing, avoid)
	if !valid {
		want = fmt.Sprint(false, 0, false, 0)
	}
	if got != want {
		k.failf("m_preq at cycle %d (valid conn retx avoid): got %s, want %s", c, got, want)
	}
}

func (k *checker) err() error {
	if len(k.errs) == 0 {
		return nil
	}
	const show = 12
	msg := k.errs
	more := ""
	if len(msg) > show {
		more = fmt.Sprintf("\n  ... and %d more", len(msg)-show)
		msg = msg[:show]
	}
	return fmt.Errorf("%d expectation(s) failed:\n  %s%s", len(k.errs), strings.Join(msg, "\n  "), more)
}

// newPkt is the expected transfer of a new packet taken on s_tx in cycle t (m_pkt_valid at t+1, m_pkt_ready high).
func newPkt(t int64, c, psn, p, q, handle uint32, first, last, ackReq bool) PktEv {
	return PktEv{Shown: t + 1, At: t + 1, Conn: c, PSN: psn & psnMask, Path: p, Pseq: q, Entropy: EntropyOf(p),
		Handle: handle, First: first, Last: last, AckReq: ackReq}
}

// retxPkt is the expected transfer of a retransmission shown (and taken) in cycle t.
func retxPkt(t int64, c, psn, p, q, handle uint32, first, last bool, retries uint32) PktEv {
	return PktEv{Shown: t, At: t, Conn: c, PSN: psn & psnMask, Path: p, Pseq: q, Entropy: EntropyOf(p), Handle: handle,
		First: first, Last: last, AckReq: true, Retx: true, Retries: retries}
}

// fbEv is the expected transfer of a feedback event shown (and taken) in cycle t.
func fbEv(t int64, c, p, kind, count uint32) FbEv {
	return FbEv{Shown: t, At: t, Conn: c, Path: p, Kind: kind, Count: count}
}
