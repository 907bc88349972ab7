package rxtraffic

import (
	"fmt"
	"sort"

	"github.com/spraynic/spraynic/config"
	"github.com/spraynic/spraynic/golden/rxreorder"
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

// Script is a directed test: a fixed sequence of steps, then a drain, and the counters it must end with.
type Script struct {
	// Name and Doc identify it.
	Name, Doc string
	// Build returns the steps for a configuration.
	Build func(cfg config.Config) []Item
	// Want returns the final counters accepted, duplicate, out_of_window, closed.
	Want func(cfg config.Config) [4]uint32
	// WantStall requires s_pkt_ready to have been low while a packet was offered.
	WantStall bool
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
	return &ScriptDriver{items: s.Build(cfg), cpl: true, ack: true, want: s.Want(cfg), wantStall: s.WantStall, left: -1}
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
		in.PktValid, in.PktConn, in.PktPSN, in.PktPath, in.PktPseq, in.PktHandle = true, it.Conn, it.PSN, it.Path, it.Pseq, it.Handle
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
		return fmt.Errorf("script stopped at step %d of %d (%s): the run was too short or the DUT never took it", d.pos, len(d.items), d.items[d.pos].Op)
	}
	if d.wantStall && d.stalls == 0 {
		return fmt.Errorf("s_pkt_ready never dropped while a packet was offered; the script expects an input stall")
	}
	if d.last != d.want {
		return fmt.Errorf("final counters accepted/duplicate/out_of_window/closed = %v, the script expects %v", d.last, d.want)
	}
	return nil
}

// Packets counts the packets taken so far.
func (d *ScriptDriver) Packets() int64 { return d.packets }
