package rxtraffic

import (
	"fmt"

	"github.com/spraynic/spraynic/config"
	"github.com/spraynic/spraynic/golden/rxreorder"
	"github.com/spraynic/spraynic/stimulus/registry"
)

// Op is one step of a directed script.
type Op int

const (
	opInvalid Op = iota
	// OpOpen opens Conn at PSN.
	OpOpen
	// OpClose closes Conn.
	OpClose
	// OpPkt offers a packet (held until taken).
	OpPkt
	// OpIdle waits N cycles.
	OpIdle
	// OpReset holds rst for N cycles.
	OpReset
	// OpReady sets m_cpl_ready to Cpl and m_ack_ready to Ack (takes no cycle); with N > 0 both return high
	// N cycles later, whatever the script is waiting for.
	OpReady
)

func (o Op) String() string {
	switch o {
	case OpOpen:
		return "open"
	case OpClose:
		return "close"
	case OpPkt:
		return "pkt"
	case OpIdle:
		return "idle"
	case OpReset:
		return "reset"
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
	// Conn, PSN, Path, Pseq, Handle and the flags describe a packet or a control operation.
	Conn, PSN, Path, Pseq, Handle uint32
	AckReq, ECN, First, Last      bool
	// N is the cycle count of OpIdle, OpReset and OpReady.
	N int
	// Cpl and Ack are the ready levels of OpReady.
	Cpl, Ack bool
}

// Script is a directed test as data: a table of steps, then a drain, and the counters it must end with.
type Script struct {
	// Name and Doc identify it.
	Name, Doc string
	// Steps returns the steps for a configuration.
	Steps func(cfg config.Config) []Item
	// Want returns the final counters accepted, duplicate, out_of_window, closed.
	Want func(cfg config.Config) [4]uint32
	// WantStall requires s_pkt_ready to have been low while a packet was offered.
	WantStall bool
}

var scripts = registry.New("rx directed test", func(s Script) string { return s.Name }, directed...)

// Scripts lists the directed scripts, sorted by name.
func Scripts() []Script { return scripts.All() }

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

// each is the rows f returns for k in [from, to), in order.
func each(from, to int, f func(k int) row) run {
	var r run
	for k := from; k < to; k++ {
		r = append(r, f(k).steps()...)
	}
	return r
}

func open(c, psn uint32) Item { return Item{Op: OpOpen, Conn: c, PSN: psn} }
func closeConn(c uint32) Item { return Item{Op: OpClose, Conn: c} }
func idle(n int) Item         { return Item{Op: OpIdle, N: n} }
func reset(n int) Item        { return Item{Op: OpReset, N: n} }

// ready sets m_cpl_ready and m_ack_ready; with n > 0 both return high n cycles later.
func ready(cpl, ack bool, n int) Item { return Item{Op: OpReady, Cpl: cpl, Ack: ack, N: n} }

// offer offers a packet with no flags.
func offer(c, psn, path, pseq, handle uint32) Item {
	return Item{Op: OpPkt, Conn: c, PSN: psn, Path: path, Pseq: pseq, Handle: handle}
}

// withAckReq returns the packet with its ack-request flag.
func (it Item) withAckReq() Item { it.AckReq = true; return it }

// withECN returns the packet CE-marked when ce.
func (it Item) withECN(ce bool) Item { it.ECN = ce; return it }

func psnAt(base uint32, k int) uint32 { return (base + uint32(k)) & (1<<24 - 1) }

// ScriptDriver plays a Script.
type ScriptDriver struct {
	// items is the script; pos the current step; left the cycles left of an idle or reset step.
	items []Item
	pos   int
	left  int
	// cpl and ack are the ready levels; revertAt, when non-zero, the cycle they return high.
	cpl, ack bool
	revertAt int64
	// last holds the counters of the latest cycle, for the final check.
	last [4]uint32
	// want are the expected final counters; wantStall and stalls the input stall requirement and count.
	want      [4]uint32
	wantStall bool
	stalls    int64
	// packets counts packets taken.
	packets int64
}

// NewScript returns a driver for s under cfg.
func NewScript(cfg config.Config, s Script) *ScriptDriver {
	return &ScriptDriver{items: s.Steps(cfg), cpl: true, ack: true, want: s.Want(cfg), wantStall: s.WantStall, left: -1}
}

// Drive sets this cycle's inputs from the current step.
func (d *ScriptDriver) Drive(cycle int64, in *rxreorder.In) {
	*in = rxreorder.In{}
	if cycle < startReset {
		in.Rst = true
		return
	}
	if d.revertAt > 0 && cycle >= d.revertAt {
		d.cpl, d.ack, d.revertAt = true, true, 0
	}
	for d.pos < len(d.items) && d.items[d.pos].Op == OpReady {
		it := d.items[d.pos]
		d.cpl, d.ack = it.Cpl, it.Ack
		if it.N > 0 {
			d.revertAt = cycle + int64(it.N)
		}
		d.pos++
	}
	in.CplReady, in.AckReady = d.cpl, d.ack
	if d.pos >= len(d.items) {
		in.CplReady, in.AckReady = true, true
		return
	}
	it := d.items[d.pos]
	switch it.Op {
	case OpOpen, OpClose:
		in.CtlValid, in.CtlOpen, in.CtlConn, in.CtlPSN = true, it.Op == OpOpen, it.Conn, it.PSN
	case OpPkt:
		in.PktValid, in.PktConn, in.PktPSN, in.PktPath, in.PktPseq = true, it.Conn, it.PSN, it.Path, it.Pseq
		in.PktHandle = it.Handle
		in.PktAckReq, in.PktECN, in.PktFirst, in.PktLast = it.AckReq, it.ECN, it.First, it.Last
	case OpReset:
		in.Rst = true
	}
}

// Observe advances the script on handshakes and elapsed cycles.
func (d *ScriptDriver) Observe(cycle int64, in *rxreorder.In, out *rxreorder.Out) {
	d.last = [4]uint32{out.CntAccepted, out.CntDuplicate, out.CntOutOfWin, out.CntClosed}
	if cycle < startReset {
		return
	}
	if in.PktValid && !in.CtlValid && !in.Rst && !out.PktReady {
		d.stalls++
	}
	if d.pos >= len(d.items) {
		return
	}
	it := d.items[d.pos]
	switch it.Op {
	case OpOpen, OpClose:
		if out.CtlReady {
			d.pos++
		}
	case OpPkt:
		if out.PktReady {
			d.pos++
			d.packets++
		}
	case OpIdle, OpReset:
		if d.left < 0 {
			d.left = it.N
		}
		d.left--
		if d.left <= 0 {
			d.left = -1
			d.pos++
		}
	}
}

// Check reports whether the script ran to its end with the expected counters.
func (d *ScriptDriver) Check() error {
	if d.pos < len(d.items) {
		return fmt.Errorf("script stopped at step %d of %d (%s): the run was too short or the DUT never took it",
			d.pos, len(d.items), d.items[d.pos].Op)
	}
	if d.wantStall && d.stalls == 0 {
		return fmt.Errorf("s_pkt_ready never dropped while a packet was offered; the script expects an input stall")
	}
	if d.last != d.want {
		return fmt.Errorf("final counters accepted/duplicate/out_of_window/closed = %v, the script expects %v",
			d.last, d.want)
	}
	return nil
}

// Packets counts the packets taken so far.
func (d *ScriptDriver) Packets() int64 { return d.packets }
