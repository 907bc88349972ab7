package scoreboard

import (
	"fmt"
	"math/bits"

	"github.com/spraynic/spraynic/config"
	"github.com/spraynic/spraynic/golden/rxreorder"
)

// psnDiff is a-b as a signed 24-bit number, computed here on purpose without the golden seqnum package.
func psnDiff(a, b uint32) int32 { return int32((a-b)<<8) >> 8 }

// entry is one accepted packet awaiting its completion.
type entry struct {
	// handle, first and last are what the completion must carry.
	handle      uint32
	first, last bool
}

// pathRx is what the receiver has seen on one path of a connection, as a set of unwrapped path sequences.
type pathRx struct {
	// seen is the set, as a ring: sequence q is in it when seen[q mod len] == q. Only q >= high-SACK_BITS is ever
	// asked for, and a later q' that takes the same slot is at least len (>= SACK_BITS) above q, so that q is no
	// longer asked for: the ring answers exactly like the full set. high is one past the highest sequence.
	seen []int64
	high int64
	// any is true once a packet arrived; ecn is CE seen since the path's last ACK.
	any, ecn bool
}

// connRx is the receiver state of one connection incarnation, per the spec.
type connRx struct {
	// open, cum (next expected PSN) and rel (next PSN to complete).
	open     bool
	cum, rel uint32
	// got holds accepted PSNs not yet completed.
	got map[uint32]entry
	// sinceAck counts accepted packets since the connection's last ACK.
	sinceAck int
	// paths holds the per-path receive sets.
	paths []pathRx
}

// ackWant is an ACK the spec says must come, in FIFO order.
type ackWant struct {
	// Fields as on m_ack.
	conn, psn, path, pseq uint32
	sack                  [4]uint64
	ecn                   bool
	// at is the cycle of the packet that caused it.
	at int64
}

// verdictWant is the receive verdict the spec says a packet gets on m_rxv, in the order the packets were taken.
type verdictWant struct {
	// conn and psn are the packet's; code its class (cntAccepted .. cntClosed, which are the m_rxv_code values).
	conn, psn uint32
	code      int
	// at is the cycle the verdict must show (the packet was taken the cycle before).
	at int64
}

// countEvent is a counter increment due at a cycle.
type countEvent struct {
	// at is the cycle from which the counter shows it; which is 0..3 (accepted, duplicate, oow, closed).
	at    int64
	which int
}

// Rx checks rx_reorder: exactly-once in-order completions with the right handles, drop classification and
// counters, ACK contents (cumulative PSN, path SACK state, ECN echo) and coalescing, and that nothing accepted is
// left behind once the traffic has drained.
type Rx struct {
	// cfg is the configuration under test.
	cfg config.Config
	// conns is the spec state per connection; grace lists the incarnations that closes and reopens replaced
	// since the connection's last completion. A completion already released stays in the m_cpl register until
	// it is taken, through any number of control operations on its connection (back-pressure can hold it while
	// the connection is reopened, closed and opened again), so the next completion of the connection may be
	// the next one of any of them; it is the only one, so the first completion clears the list.
	conns []connRx
	grace [][]*connRx
	// acks is the queue of ACKs due; counts the counter increments not yet visible; cnt the visible counters.
	acks   []ackWant
	counts []countEvent
	cnt    [4]uint32
	// verdicts is the queue of receive verdicts due.
	verdicts []verdictWant
	// Completions, Accepted, Acks and Verdicts count what passed; Taken counts the packets taken.
	Completions, Accepted, Acks, Verdicts, Taken int64
	// IgnoreVerdicts leaves m_rxv unchecked (for hand-written traces that do not show it).
	IgnoreVerdicts bool
}

// NewRx returns a checker for cfg, with every connection closed.
func NewRx(cfg config.Config) *Rx {
	r := &Rx{cfg: cfg}
	r.reset()
	return r
}

func (r *Rx) reset() {
	r.conns = make([]connRx, r.cfg.Conns)
	r.grace = make([][]*connRx, r.cfg.Conns)
	r.acks = nil
	r.counts = nil
	r.verdicts = nil
	r.cnt = [4]uint32{}
}

// Observe checks one cycle.
func (r *Rx) Observe(cycle int64, in *rxreorder.In, out *rxreorder.Out) error {
	if in.Rst {
		if out.PktReady || out.CtlReady {
			return fmt.Errorf("ready high during reset (s_pkt_ready=%v s_ctl_ready=%v)", out.PktReady, out.CtlReady)
		}
		r.reset()
		return nil
	}
	if err := r.checkCounters(cycle, out); err != nil {
		return err
	}
	if err := r.checkVerdict(cycle, out); err != nil {
		return err
	}
	if out.CplValid && in.CplReady {
		if err := r.completion(out); err != nil {
			return err
		}
	}
	if out.AckValid && in.AckReady {
		if err := r.ack(out); err != nil {
			return err
		}
	}
	if in.CtlValid && out.CtlReady {
		if in.PktValid && out.PktReady {
			return fmt.Errorf("packet and control both taken in one cycle")
		}
		r.control(in)
	}
	if in.PktValid && out.PktReady {
		r.packet(cycle, in)
	}
	return nil
}

func (r *Rx) control(in *rxreorder.In) {
	c := in.CtlConn
	if old := r.conns[c]; old.open {
		r.grace[c] = append(r.grace[c], &old)
	}
	if !in.CtlOpen {
		r.conns[c] = connRx{}
		return
	}
	r.conns[c] = connRx{open: true, cum: in.CtlPSN, rel: in.CtlPSN, got: map[uint32]entry{},
		paths: make([]pathRx, r.cfg.Paths)}
	for p := range r.conns[c].paths {
		ring := make([]int64, r.cfg.SackBits)
		for i := range ring {
			ring[i] = -1
		}
		r.conns[c].paths[p].seen = ring
	}
}

const (
	cntAccepted = iota
	cntDuplicate
	cntOutOfWindow
	cntClosed
)

// packet follows one packet rx_reorder took at cycle: its drop class (counted two cycles later), the path's
// receive set, the accepted PSNs, and the ACK it must cause.
func (r *Rx) packet(cycle int64, in *rxreorder.In) {
	cn := &r.conns[in.PktConn]
	visible := cycle + 2 // taken at t, stage 1 at t+1, counter register shows at t+2
	r.Taken++
	if !cn.open {
		r.counts = append(r.counts, countEvent{at: visible, which: cntClosed})
		r.verdicts = append(r.verdicts, verdictWant{conn: in.PktConn, psn: in.PktPSN, code: cntClosed, at: cycle + 1})
		return
	}
	kind := r.classify(cn, in.PktPSN)
	r.verdicts = append(r.verdicts, verdictWant{conn: in.PktConn, psn: in.PktPSN, code: kind, at: cycle + 1})
	// Path state: every packet of an open connection crossed its path.
	ps := &cn.paths[in.PktPath]
	gap := r.seePath(ps, in.PktPseq)
	ps.ecn = ps.ecn || in.PktECN
	r.counts = append(r.counts, countEvent{at: visible, which: kind})
	if kind == cntOutOfWindow {
		return
	}
	if kind == cntAccepted {
		r.Accepted++
		cn.got[in.PktPSN] = entry{handle: in.PktHandle, first: in.PktFirst, last: in.PktLast}
		for {
			if _, ok := cn.got[cn.cum]; !ok {
				break
			}
			cn.cum = (cn.cum + 1) & (1<<24 - 1)
		}
	}
	coalesce := kind == cntAccepted && cn.sinceAck+1 == r.cfg.AckEvery
	if in.PktAckReq || kind == cntDuplicate || gap || coalesce {
		r.dueAck(cycle, in, cn, ps)
	} else if kind == cntAccepted {
		cn.sinceAck++
	}
}

// classify classifies PSN psn of connection cn by the spec: accepted inside the window [cum, cum+WINDOW) unless
// received already, duplicate if received or behind cum within half the PSN space, else out of window.
func (r *Rx) classify(cn *connRx, psn uint32) int {
	d := psnDiff(psn, cn.cum)
	_, have := cn.got[psn]
	received := d < 0 || have
	switch {
	case d >= 0 && d < int32(r.cfg.Window) && !received:
		return cntAccepted
	case d >= 0 && d < int32(r.cfg.Window), d < 0 && d > -(1<<23):
		return cntDuplicate
	}
	return cntOutOfWindow
}

// seePath adds path sequence pseq (unwrapped near the highest one seen) to the path's receive set and reports
// whether it skipped sequences (a gap, which asks for an ACK).
func (r *Rx) seePath(ps *pathRx, pseq uint32) bool {
	mod := int64(1) << r.cfg.PseqWidth
	rel := int64(pseq) - (ps.high % mod)
	if rel >= mod/2 {
		rel -= mod
	} else if rel < -mod/2 {
		rel += mod
	}
	abs := ps.high + rel
	gap := false
	if rel >= 0 {
		gap = rel > 0
		ps.high = abs + 1
	}
	if abs >= ps.high-int64(r.cfg.SackBits) {
		ps.seen[abs%int64(len(ps.seen))] = abs
	}
	ps.any = true
	return gap
}

// dueAck queues the ACK the packet of cycle (in) causes on path ps of connection cn: the cumulative PSN, the
// path's next sequence and SACK bitmap, and the ECN seen since the path's last ACK.
func (r *Rx) dueAck(cycle int64, in *rxreorder.In, cn *connRx, ps *pathRx) {
	mod := int64(1) << r.cfg.PseqWidth
	var sack [4]uint64
	for i := 0; i < r.cfg.SackBits; i++ {
		if q := ps.high - 1 - int64(i); q >= 0 && ps.seen[q%int64(len(ps.seen))] == q {
			sack[i/64] |= 1 << (i % 64)
		}
	}
	r.acks = append(r.acks, ackWant{conn: in.PktConn, psn: cn.cum, path: in.PktPath, pseq: uint32(ps.high % mod),
		sack: sack, ecn: ps.ecn, at: cycle})
	ps.ecn = false
	cn.sinceAck = 0
}

func (r *Rx) completion(out *rxreorder.Out) error {
	c := out.CplConn
	gs := r.grace[c]
	r.grace[c] = nil
	for _, g := range gs {
		if e, ok := g.got[g.rel]; ok && out.CplPSN == g.rel && e.handle == out.CplHandle {
			r.Completions++
			return nil
		}
	}
	cn := &r.conns[c]
	if !cn.open {
		return fmt.Errorf("completion conn %d psn %#x: connection is not open", c, out.CplPSN)
	}
	if out.CplPSN != cn.rel {
		return fmt.Errorf("completion conn %d: psn %#x, expected %#x (in PSN order, exactly once)",
			c, out.CplPSN, cn.rel)
	}
	e, ok := cn.got[cn.rel]
	if !ok || psnDiff(cn.rel, cn.cum) >= 0 {
		return fmt.Errorf("completion conn %d psn %#x: never received, or not yet contiguous (cum %#x)",
			c, out.CplPSN, cn.cum)
	}
	if e.handle != out.CplHandle || e.first != out.CplFirst || e.last != out.CplLast {
		return fmt.Errorf("completion conn %d psn %#x: handle/first/last %#x/%v/%v, expected %#x/%v/%v",
			c, out.CplPSN, out.CplHandle, out.CplFirst, out.CplLast, e.handle, e.first, e.last)
	}
	delete(cn.got, cn.rel)
	cn.rel = (cn.rel + 1) & (1<<24 - 1)
	r.Completions++
	return nil
}

func (r *Rx) ack(out *rxreorder.Out) error {
	if len(r.acks) == 0 {
		return fmt.Errorf("ACK conn %d psn %#x path %d: no ACK was due", out.AckConn, out.AckPSN, out.AckPath)
	}
	w := r.acks[0]
	r.acks = r.acks[1:]
	r.Acks++
	if out.AckConn != w.conn || out.AckPSN != w.psn || out.AckPath != w.path || out.AckPseq != w.pseq ||
		out.AckECN != w.ecn {
		return fmt.Errorf("ACK for the packet of cycle %d: conn/psn/path/pseq/ecn %d/%#x/%d/%#x/%v, "+
			"expected %d/%#x/%d/%#x/%v",
			w.at, out.AckConn, out.AckPSN, out.AckPath, out.AckPseq, out.AckECN, w.conn, w.psn, w.path, w.pseq, w.ecn)
	}
	for k, want := range w.sack {
		if got := out.AckSack[k]; got != want {
			i := k*64 + bits.TrailingZeros64(got^want)
			return fmt.Errorf("ACK for the packet of cycle %d (conn %d path %d pseq %#x): SACK bit %d is %v, "+
				"expected %v (sack_bits %d)",
				w.at, w.conn, w.path, w.pseq, i, got>>(i%64)&1 == 1, want>>(i%64)&1 == 1, r.cfg.SackBits)
		}
	}
	return nil
}

// verdictNames names the m_rxv_code values.
var verdictNames = [4]string{"accepted", "duplicate", "out of window", "closed"}

// checkVerdict checks m_rxv: the cycle after a packet is taken it shows the packet's connection, PSN and class,
// one verdict per packet and none without a packet.
func (r *Rx) checkVerdict(cycle int64, out *rxreorder.Out) error {
	if r.IgnoreVerdicts {
		return nil
	}
	if !out.RxvValid {
		if len(r.verdicts) > 0 && r.verdicts[0].at <= cycle {
			w := r.verdicts[0]
			return fmt.Errorf("no verdict for the packet taken at cycle %d (conn %d psn %#x, %s)",
				w.at-1, w.conn, w.psn, verdictNames[w.code])
		}
		return nil
	}
	if len(r.verdicts) == 0 || r.verdicts[0].at > cycle {
		return fmt.Errorf("verdict conn %d psn %#x code %d: no packet waits for one", out.RxvConn, out.RxvPSN,
			out.RxvCode)
	}
	w := r.verdicts[0]
	r.verdicts = r.verdicts[1:]
	if out.RxvConn != w.conn || out.RxvPSN != w.psn || out.RxvCode != uint32(w.code) {
		return fmt.Errorf("verdict for the packet taken at cycle %d: conn/psn/code %d/%#x/%d, expected %d/%#x/%d (%s)",
			w.at-1, out.RxvConn, out.RxvPSN, out.RxvCode, w.conn, w.psn, w.code, verdictNames[w.code])
	}
	r.Verdicts++
	return nil
}

func (r *Rx) checkCounters(cycle int64, out *rxreorder.Out) error {
	k := 0
	for ; k < len(r.counts) && r.counts[k].at <= cycle; k++ {
		r.cnt[r.counts[k].which]++
	}
	r.counts = r.counts[k:]
	got := [4]uint32{out.CntAccepted, out.CntDuplicate, out.CntOutOfWin, out.CntClosed}
	if got != r.cnt {
		return fmt.Errorf("counters accepted/duplicate/out_of_window/closed = %v, expected %v", got, r.cnt)
	}
	return nil
}

// Finish checks that, after the drain, every accepted PSN that became contiguous was completed and every ACK
// that was due was sent.
func (r *Rx) Finish() error {
	for c := range r.conns {
		cn := &r.conns[c]
		if cn.open && cn.rel != cn.cum {
			return fmt.Errorf("conn %d: completions stop at %#x but %#x were received contiguously", c, cn.rel, cn.cum)
		}
	}
	if len(r.acks) > 0 {
		return fmt.Errorf("%d ACK(s) due were never sent (first: conn %d from the packet of cycle %d)",
			len(r.acks), r.acks[0].conn, r.acks[0].at)
	}
	return nil
}
