package scoreboard

import (
	"fmt"

	"github.com/spraynic/spraynic/config"
	"github.com/spraynic/spraynic/golden/retx"
)

// txRec is what the checker knows about one PSN of a connection.
type txRec struct {
	// handle, first and last are the packet's payload; count its transmissions so far; path and pseq those of
	// the latest; lost is set when an ACK reported that latest transmission as a SACK hole; at is its cycle.
	handle      uint32
	first, last bool
	count       int
	path, pseq  uint32
	lost        bool
	at          int64
}

// txWork is one s_tx packet the engine took for an open connection: it must leave as a new packet, in order.
type txWork struct {
	handle      uint32
	first, last bool
}

// pathTx is the checker's view of one (connection, path).
type pathTx struct {
	// next is the next path sequence a transmission on the path must carry; ahi is one past the highest path
	// sequence reported by an ACK; bySeq maps the path sequences of transmissions to their PSN.
	next, ahi uint32
	bySeq     map[uint32]uint32
}

// connTx is the checker's view of one connection incarnation.
type connTx struct {
	open, err bool
	// una and nxt bound the outstanding PSNs as the ACKs seen so far tell them.
	una, nxt uint32
	// restart is the cycle the engine's retransmission timer restarted at the latest as the checker sees it
	// (open, progress, first packet after idle); restarts holds the earlier ones of the last ackHistory cycles
	// (the engine's own restart may lag: it processes an ACK some cycles after taking it). nak is the cycle of
	// the latest NAK taken.
	restart  int64
	restarts []unaAt
	nak      int64
	// lastReq is the cycle of the latest transmission with ack_req (-1: none since the open); dup the cycle of
	// the first duplicate ACK taken since the open (-1: none), which allows early loss detection (early_cycles !=
	// 0; the engine's early lookup may wait behind holes, timeouts and later ACKs).
	lastReq, dup int64
	// work is the queue of packets taken and not yet sent; recs the PSNs sent; paths the path state.
	work  []txWork
	recs  map[uint32]*txRec
	paths []pathTx
	// grace allows one more packet already in the m_pkt register when the connection went to error or changed.
	grace bool
	// epoch counts incarnations and errors (feedback of an ACK taken before either may be dropped by the engine).
	epoch int
}

// unaAt is the oldest outstanding PSN before an ACK moved it (or a timer restart), and when it changed.
type unaAt struct {
	psn     uint32
	restart int64
	at      int64
}

// fbWant is one expected feedback event.
type fbWant struct {
	conn, path, kind, count uint32
	epoch                   int
}

// pathOffer is one s_path handshake: the next packet to leave carries it.
type pathOffer struct {
	path, entropy uint32
	at            int64
}

// ackHistory is how long (cycles) an ACK may wait inside the engine before it is processed.
const ackHistory = 4096

// nakSlack is how many cycles a go-back-N resend may leave after the NAK that restarts the rewind was taken.
const nakSlack = 8

// psnMask keeps 24-bit PSN arithmetic.
const psnMask = 1<<24 - 1

// Retx checks the retransmit engine by the protocol rules alone: every packet taken is sent once as new, in PSN
// order with its handle and on the path offered; path sequences are fresh and consecutive per path; nothing is
// sent beyond the window; a PSN is retransmitted only after a SACK reported its latest transmission lost, after a
// timeout (at least one RTO after the timer's restart), or in go-back-N mode after a NAK or timeout; no packet is
// sent more than 1+MAX_RETRIES times; an error is raised only for a connection with a packet at MAX_RETRIES and
// nothing of it is sent afterwards; the feedback stream reports every path sequence an ACK newly covers as
// delivered or lost; and after the drain nothing is outstanding on a healthy connection and the counters agree.
// With ack_req_ticks a new packet asks for an ACK when none did for that many ticks (it must after one tick more,
// and may only after one tick less); with early_cycles a duplicate ACK allows a loss event of its connection and
// the retransmission of packets whose latest transmission is early_cycles old.
type Retx struct {
	cfg      config.Config
	gbn      bool
	pseqMask uint32
	conns    []connTx
	offers   []pathOffer
	fb       []fbWant
	timeouts int64
	// dropped counts s_tx packets the engine had to drop; sent, retx, errs what left.
	dropped, sent, retx, errs, acks uint32
	// last holds the latest outputs (the counters Finish compares).
	last retx.Out
	// Sent, Retransmitted, Acks and Errors summarise the run.
	Sent, Retransmitted, Acks, Errors int64
}

// NewRetx returns the checker for cfg.
func NewRetx(cfg config.Config) *Retx {
	r := &Retx{cfg: cfg, gbn: cfg.GBN == 1, pseqMask: uint32(1)<<uint(cfg.PseqWidth) - 1}
	r.reset()
	return r
}

func (r *Retx) reset() {
	r.conns = make([]connTx, r.cfg.Conns)
	r.offers = r.offers[:0]
	r.fb = r.fb[:0]
	r.dropped = 0
	r.sent = 0
	r.retx = 0
	r.errs = 0
	r.timeouts = 0
}

// rto is the shortest time from a timer restart to a timeout retransmission, with slack for an ACK waiting inside
// the engine (the checker sees progress when the ACK is taken, the engine when it processes it).
func (r *Retx) rto() int64 {
	return int64(r.cfg.RTOTicks-1)*int64(r.cfg.TickCycles) - 2*int64(r.cfg.TickCycles)
}

// Observe checks one cycle.
func (r *Retx) Observe(cycle int64, in *retx.In, out *retx.Out) error {
	if in.Rst {
		r.reset()
		return nil
	}
	if in.PathValid && out.PathReady {
		r.offers = append(r.offers, pathOffer{path: in.PathPath, entropy: in.PathEntropy, at: cycle})
	}
	if out.PktValid && in.PktReady {
		if err := r.packet(cycle, out); err != nil {
			return err
		}
	}
	if out.FbValid && in.FbReady {
		if err := r.feedback(out); err != nil {
			return err
		}
	}
	if out.ErrValid {
		if err := r.errored(in, out); err != nil {
			return err
		}
	}
	if in.TxValid && out.TxReady {
		c := &r.conns[in.TxConn]
		if c.open && !c.err {
			c.work = append(c.work, txWork{handle: in.TxHandle, first: in.TxFirst, last: in.TxLast})
		} else {
			r.dropped++
		}
	}
	if in.AckValid && out.AckReady {
		r.ack(cycle, in)
	}
	if in.CtlValid && out.CtlReady {
		c := &r.conns[in.CtlConn]
		*c = connTx{open: in.CtlOpen, una: in.CtlPSN, nxt: in.CtlPSN, restart: cycle, epoch: c.epoch + 1,
			lastReq: -1, dup: -1,
			recs: map[uint32]*txRec{}, paths: make([]pathTx, r.cfg.Paths),
			grace: out.PktValid && out.PktConn == in.CtlConn && !in.PktReady}
		for p := range c.paths {
			c.paths[p].bySeq = map[uint32]uint32{}
		}
	}
	r.last = *out
	return nil
}

// packet checks one transmission: it leaves on the path offered on s_path with the next path sequence of that
// path, inside the window, as a new packet or a retransmission.
func (r *Retx) packet(cycle int64, out *retx.Out) error {
	if len(r.offers) == 0 {
		return fmt.Errorf("m_pkt conn %d psn %#x left without a path taken on s_path", out.PktConn, out.PktPSN)
	}
	o := r.offers[0]
	r.offers = r.offers[1:]
	c := &r.conns[out.PktConn]
	if c.grace {
		// Loaded (and counted by the engine) before the connection went to error or was reopened or closed.
		c.grace = false
		if out.PktRetx {
			r.retx++
		} else {
			r.sent++
		}
		return nil
	}
	if !c.open || c.err {
		return fmt.Errorf("m_pkt conn %d psn %#x: the connection is %s",
			out.PktConn, out.PktPSN, map[bool]string{true: "in error", false: "closed"}[c.err])
	}
	if err := r.pathSeq(c, o, out); err != nil {
		return err
	}
	if d := psnDiff(out.PktPSN, c.una); d < 0 && !out.PktRetx || d >= int32(r.cfg.Window) {
		return fmt.Errorf("m_pkt conn %d psn %#x outside the window [%#x, %#x+%d)",
			out.PktConn, out.PktPSN, c.una, c.una, r.cfg.Window)
	}
	if !out.PktRetx {
		return r.newPacket(c, o, out)
	}
	return r.retransmission(c, o, out)
}

// pathSeq checks that the packet leaves on the path and entropy offered (o) with the next path sequence of that
// path, and records the sequence.
func (r *Retx) pathSeq(c *connTx, o pathOffer, out *retx.Out) error {
	if out.PktPath != o.path || out.PktEntropy != o.entropy {
		return fmt.Errorf("m_pkt conn %d psn %#x: path %d entropy %#x, but s_path offered path %d entropy %#x "+
			"(cycle %d)", out.PktConn, out.PktPSN, out.PktPath, out.PktEntropy, o.path, o.entropy, o.at)
	}
	pt := &c.paths[out.PktPath]
	if out.PktPseq != pt.next {
		return fmt.Errorf("m_pkt conn %d psn %#x path %d: path sequence %d, want %d (fresh and consecutive per path)",
			out.PktConn, out.PktPSN, out.PktPath, out.PktPseq, pt.next)
	}
	pt.next = (pt.next + 1) & r.pseqMask
	pt.bySeq[out.PktPseq] = out.PktPSN
	return nil
}

// newPacket checks a new packet against the oldest one taken on s_tx: the next PSN, its handle and flags, no
// retries, ack_req on a message's last packet or one that fills the window. It starts the PSN's record.
func (r *Retx) newPacket(c *connTx, o pathOffer, out *retx.Out) error {
	if len(c.work) == 0 {
		return fmt.Errorf("m_pkt conn %d psn %#x: a new packet nobody handed over on s_tx", out.PktConn, out.PktPSN)
	}
	w := c.work[0]
	c.work = c.work[1:]
	switch {
	case out.PktPSN != c.nxt:
		return fmt.Errorf("m_pkt conn %d: new packet psn %#x, want %#x (consecutive PSNs)",
			out.PktConn, out.PktPSN, c.nxt)
	case out.PktHandle != w.handle || out.PktFirst != w.first || out.PktLast != w.last:
		return fmt.Errorf("m_pkt conn %d psn %#x: handle %#x first %v last %v, s_tx gave %#x %v %v",
			out.PktConn, out.PktPSN, out.PktHandle, out.PktFirst, out.PktLast, w.handle, w.first, w.last)
	case out.PktRetries != 0:
		return fmt.Errorf("m_pkt conn %d psn %#x: new packet with retries %d", out.PktConn, out.PktPSN, out.PktRetries)
	}
	if err := r.checkAckReq(c, o, w, out); err != nil {
		return err
	}
	if out.PktAckReq {
		c.lastReq = o.at
	}
	if c.una == c.nxt {
		c.setRestart(o.at)
	}
	c.nxt = (c.nxt + 1) & psnMask
	c.recs[out.PktPSN] = &txRec{handle: w.handle, first: w.first, last: w.last, count: 1, path: out.PktPath,
		pseq: out.PktPseq, at: o.at}
	r.sent++
	return nil
}

// checkAckReq checks a new packet's ack_req: set on a message's last packet (w) and on the packet that fills the
// window. The window fills by the engine's oldest PSN, which may still be one an ACK taken lately moved past.
func (r *Retx) checkAckReq(c *connTx, o pathOffer, w txWork, out *retx.Out) error {
	fill := psnDiff(out.PktPSN+1, c.una) == int32(r.cfg.Window)
	maybe := false
	for _, u := range c.restarts {
		if o.at-u.at <= ackHistory && psnDiff(out.PktPSN+1, u.psn) == int32(r.cfg.Window) {
			maybe = true
		}
	}
	mustAge, mayAge := r.ackReqAge(c, o.at)
	want := w.last || fill || mustAge
	if out.PktAckReq != want && !(out.PktAckReq && (maybe || mayAge)) {
		return fmt.Errorf("m_pkt conn %d psn %#x: ack_req %v, want %v (last %v, fills the window %v, "+
			"age %d cycles since the last ACK request)",
			out.PktConn, out.PktPSN, out.PktAckReq, want, w.last, fill, at(o.at, c.lastReq))
	}
	return nil
}

// ackReqAge says whether a new packet sent at cycle 'at' must and may ask for an ACK by age (ack_req_ticks T):
// the engine asks after T visits of the connection since its latest ACK request (the first packet after an open
// always asks). T visits surely fell into the cycles between when more than T ticks passed, possibly when more
// than T-1 did.
func (r *Retx) ackReqAge(c *connTx, at int64) (must, may bool) {
	t := int64(r.cfg.AckReqTicks)
	if t == 0 {
		return false, false
	}
	if c.lastReq < 0 {
		return true, true
	}
	tick := int64(r.cfg.TickCycles)
	return at-c.lastReq > t*tick, at-c.lastReq > (t-1)*tick
}

// at is the number of cycles from 'from' to 'to' (-1: from never happened).
func at(to, from int64) int64 {
	if from < 0 {
		return -1
	}
	return to - from
}

// retransmission checks a retransmission against the PSN's record: a PSN sent before, the same handle and flags,
// the retry count, at most 1+MAX_RETRIES transmissions, ack_req, and a cause (justified). It updates the record.
func (r *Retx) retransmission(c *connTx, o pathOffer, out *retx.Out) error {
	rec := c.recs[out.PktPSN]
	if rec == nil || psnDiff(out.PktPSN, c.nxt) >= 0 || psnDiff(out.PktPSN, c.una) < -int32(r.cfg.Window) {
		return fmt.Errorf("m_pkt conn %d psn %#x: a retransmission of a PSN never sent", out.PktConn, out.PktPSN)
	}
	switch {
	case out.PktHandle != rec.handle || out.PktFirst != rec.first || out.PktLast != rec.last:
		return fmt.Errorf("m_pkt conn %d psn %#x: retransmission carries handle %#x first %v last %v, "+
			"the packet had %#x %v %v",
			out.PktConn, out.PktPSN, out.PktHandle, out.PktFirst, out.PktLast, rec.handle, rec.first, rec.last)
	case int(out.PktRetries) != rec.count:
		return fmt.Errorf("m_pkt conn %d psn %#x: retries %d, but it was sent %d times before",
			out.PktConn, out.PktPSN, out.PktRetries, rec.count)
	case rec.count > r.cfg.MaxRetries:
		return fmt.Errorf("m_pkt conn %d psn %#x: transmission %d, more than 1+max_retries (max_retries %d)",
			out.PktConn, out.PktPSN, rec.count+1, r.cfg.MaxRetries)
	case !out.PktAckReq:
		return fmt.Errorf("m_pkt conn %d psn %#x: a retransmission without ack_req", out.PktConn, out.PktPSN)
	}
	c.lastReq = o.at
	if why := r.justified(c, out.PktPSN, rec, o.at); why != "" {
		return fmt.Errorf("m_pkt conn %d psn %#x retransmitted (transmission %d, the previous on path %d seq %d "+
			"at cycle %d) without cause: %s", out.PktConn, out.PktPSN, rec.count+1, rec.path, rec.pseq, rec.at, why)
	}
	rec.count++
	rec.path = out.PktPath
	rec.pseq = out.PktPseq
	rec.lost = false
	rec.at = o.at
	r.retx++
	return nil
}

// justified says why a retransmission at cycle 'at' (its s_path handshake) has no cause ("" when it has one).
func (r *Retx) justified(c *connTx, psn uint32, rec *txRec, at int64) string {
	// The engine's timer restarted no earlier than the earliest restart the checker saw in the last ackHistory
	// cycles; its oldest PSN is the checker's or one an ACK of those cycles moved past.
	low, oldest := c.restart, psn == c.una
	for _, u := range c.restarts {
		if at-u.at <= ackHistory {
			low = min(low, u.restart)
			oldest = oldest || u.psn == psn
		}
	}
	timedOut := at-low >= r.rto()
	if r.gbn {
		// A NAK restarts the rewind when the engine processes it, the cycle after it is taken; lookups issued
		// before that still leave: a PSN they resent may be resent again by the restarted rewind.
		if c.nak >= rec.at-nakSlack || timedOut {
			return ""
		}
		return fmt.Sprintf("no NAK since its last transmission and no timeout "+
			"(timer restarted at %d, %d cycles before)", low, at-low)
	}
	if rec.lost || oldest && timedOut || r.early(c, rec, at) {
		return ""
	}
	return fmt.Sprintf("no SACK reported it lost; timeout: oldest %v, %d cycles since the timer restart (need %d)",
		oldest, at-low, r.rto())
}

// early reports whether a retransmission at cycle 'at' can come from early loss detection: a duplicate ACK taken
// at least 7 cycles before (taken t, checked t+4, resent from t+7) and the packet's latest transmission old enough
// at a check 3 cycles before.
func (r *Retx) early(c *connTx, rec *txRec, at int64) bool {
	e := int64(r.cfg.EarlyCycles)
	return e != 0 && c.dup >= 0 && c.dup+7 <= at && rec.at+e+3 <= at
}

// setRestart records a timer restart at cycle at.
func (c *connTx) setRestart(at int64) {
	c.restarts = append(c.restarts, unaAt{psn: c.una, restart: c.restart, at: at})
	if len(c.restarts) > 64 {
		c.restarts = c.restarts[1:]
	}
	c.restart = at
}

// ack follows one ACK the engine took: the cumulative part moves the window, a NAK (go-back-N) is noted, and in
// selective mode the path part is followed (ackPath).
func (r *Retx) ack(cycle int64, in *retx.In) {
	r.acks++
	c := &r.conns[in.AckConn]
	if !c.open || c.err {
		return
	}
	progress := false
	if d := psnDiff(in.AckPSN, c.una); d > 0 && d <= psnDiff(c.nxt, c.una) {
		progress = true
		// Records stay one window behind: the engine may still retransmit a PSN it has not seen acknowledged.
		w := uint32(r.cfg.Window)
		for p, end := (c.una-w)&psnMask, (in.AckPSN-w)&psnMask; p != end; p = (p + 1) & psnMask {
			delete(c.recs, p)
		}
		c.setRestart(cycle)
		c.una = in.AckPSN
	}
	if r.gbn {
		if in.AckNak {
			c.nak = cycle
		}
		return
	}
	if r.ackPath(c, in) && !progress && in.AckPSN == c.una && c.una != c.nxt {
		if c.dup < 0 {
			c.dup = cycle // the first duplicate ACK
		}
	}
}

// ackPath follows the path part of an ACK: every path sequence newly covered is delivered or lost (the feedback
// events it must cause are queued); a hole of a packet's latest transmission makes its retransmission legitimate.
// It reports whether the path part applied.
func (r *Retx) ackPath(c *connTx, in *retx.In) bool {
	pt := &c.paths[in.AckPath]
	d := (in.AckPseq - pt.ahi) & r.pseqMask
	sent := (pt.next - pt.ahi) & r.pseqMask
	if d == 0 || d > sent {
		return false
	}
	pt.ahi = in.AckPseq
	n := min(int(d), r.cfg.SackBits, 255)
	deliv := 0
	for i := 0; i < r.cfg.SackBits; i++ {
		got := in.AckSack[i/64]>>(uint(i)%64)&1 == 1
		q := (in.AckPseq - 1 - uint32(i)) & r.pseqMask
		if i < n && got {
			deliv++
		}
		if !got {
			if psn, ok := pt.bySeq[q]; ok {
				if rec := c.recs[psn]; rec != nil && rec.path == in.AckPath && rec.pseq == q {
					rec.lost = true
				}
			}
		}
	}
	for _, e := range []fbWant{
		{kind: retx.FbDelivered, count: uint32(deliv)},
		{kind: retx.FbECN, count: b2u(in.AckECN)},
		{kind: retx.FbLoss, count: uint32(n - deliv)},
	} {
		if e.count > 0 {
			e.conn = in.AckConn
			e.path = in.AckPath
			e.epoch = c.epoch
			r.fb = append(r.fb, e)
		}
	}
	r.prune(pt)
	return true
}

// prune forgets the path sequences of pt far behind the highest one an ACK reported: they cannot be asked about
// again.
func (r *Retx) prune(pt *pathTx) {
	if len(pt.bySeq) > 4*r.cfg.SackBits+4*r.cfg.Window {
		for q := range pt.bySeq {
			if (pt.ahi-q)&r.pseqMask > uint32(2*r.cfg.SackBits) && (pt.ahi-q)&r.pseqMask < r.pseqMask/2 {
				delete(pt.bySeq, q)
			}
		}
	}
}

func b2u(b bool) uint32 {
	if b {
		return 1
	}
	return 0
}

// feedback checks one m_fb event against the ACKs taken (timeouts are counted; their cause is a retransmission).
func (r *Retx) feedback(out *retx.Out) error {
	if out.FbKind == retx.FbTimeout {
		if r.gbn || out.FbCount != 1 {
			return fmt.Errorf("m_fb: timeout event conn %d path %d count %d "+
				"(only selective mode reports timeouts, one at a time)", out.FbConn, out.FbPath, out.FbCount)
		}
		r.timeouts++
		return nil
	}
	got := fbWant{conn: out.FbConn, path: out.FbPath, kind: out.FbKind, count: out.FbCount}
	c := &r.conns[got.conn]
	if r.cfg.EarlyCycles != 0 && got.kind == retx.FbLoss && c.dup >= 0 && (len(r.fb) == 0 || r.fb[0] != fbWant{
		conn: got.conn, path: got.path, kind: got.kind, count: got.count, epoch: r.fb[0].epoch}) {
		return nil // early loss: the oldest packet's path and what followed it there
	}
	for len(r.fb) > 0 {
		w := r.fb[0]
		r.fb = r.fb[1:]
		if w.conn == got.conn && w.path == got.path && w.kind == got.kind && w.count == got.count {
			return nil
		}
		if w.epoch == r.conns[w.conn].epoch {
			return fmt.Errorf("m_fb conn %d path %d kind %d count %d, want conn %d path %d kind %d count %d",
				got.conn, got.path, got.kind, got.count, w.conn, w.path, w.kind, w.count)
		}
		// The ACK behind w was dropped by a reopen or error of its connection before the engine processed it.
	}
	return fmt.Errorf("m_fb conn %d path %d kind %d count %d: no ACK taken accounts for it",
		got.conn, got.path, got.kind, got.count)
}

// errored checks one m_err pulse.
func (r *Retx) errored(in *retx.In, out *retx.Out) error {
	c := &r.conns[out.ErrConn]
	if !c.open || c.err {
		return fmt.Errorf("m_err conn %d: the connection is not open and healthy", out.ErrConn)
	}
	// recs also holds the window behind una: the engine may not have processed the latest ACK yet.
	at := false
	for _, rec := range c.recs {
		if rec.count == r.cfg.MaxRetries+1 {
			at = true
		}
	}
	if !at {
		return fmt.Errorf("m_err conn %d: no outstanding packet was sent 1+max_retries (%d) times",
			out.ErrConn, r.cfg.MaxRetries+1)
	}
	c.err = true
	c.epoch++
	c.work = nil
	c.grace = out.PktValid && out.PktConn == out.ErrConn && !in.PktReady
	r.errs++
	return nil
}

// Finish checks the end of the run: nothing outstanding or unsent on a healthy connection, counters agree.
func (r *Retx) Finish() error {
	out := &r.last
	for i := range r.conns {
		c := &r.conns[i]
		if !c.open || c.err {
			continue
		}
		if c.una != c.nxt {
			return fmt.Errorf("conn %d: PSNs [%#x, %#x) still outstanding after the drain", i, c.una, c.nxt)
		}
		if len(c.work) != 0 {
			return fmt.Errorf("conn %d: %d packets taken on s_tx never sent", i, len(c.work))
		}
	}
	for _, w := range r.fb {
		if w.epoch == r.conns[w.conn].epoch {
			return fmt.Errorf("m_fb: expected conn %d path %d kind %d count %d never came",
				w.conn, w.path, w.kind, w.count)
		}
	}
	switch {
	case out.CntSent != r.sent:
		return fmt.Errorf("cnt_sent %d, %d new packets left", out.CntSent, r.sent)
	case out.CntRetxLoss+out.CntRetxTimeout+out.CntRetxGBN != r.retx:
		return fmt.Errorf("cnt_retx_loss+timeout+gbn = %d, %d retransmissions left",
			out.CntRetxLoss+out.CntRetxTimeout+out.CntRetxGBN, r.retx)
	case r.gbn && out.CntRetxLoss+out.CntRetxTimeout != 0, !r.gbn && out.CntRetxGBN != 0:
		return fmt.Errorf("retransmission counters of the other mode moved: loss %d timeout %d gbn %d",
			out.CntRetxLoss, out.CntRetxTimeout, out.CntRetxGBN)
	case int64(out.CntRetxTimeout) != r.timeouts:
		return fmt.Errorf("cnt_retx_timeout %d, %d timeout feedback events", out.CntRetxTimeout, r.timeouts)
	case out.CntErrors != r.errs:
		return fmt.Errorf("cnt_errors %d, %d m_err pulses", out.CntErrors, r.errs)
	case out.CntTxDropped != r.dropped:
		return fmt.Errorf("cnt_tx_dropped %d, %d s_tx packets taken for closed or errored connections",
			out.CntTxDropped, r.dropped)
	case out.CntTimeouts < out.CntRetxTimeout:
		return fmt.Errorf("cnt_timeouts %d below cnt_retx_timeout %d", out.CntTimeouts, out.CntRetxTimeout)
	}
	r.Sent = int64(r.sent)
	r.Retransmitted = int64(r.retx)
	r.Acks = int64(r.acks)
	r.Errors = int64(r.errs)
	return nil
}
