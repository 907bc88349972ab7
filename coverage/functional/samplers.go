package functional

import (
	"fmt"
	"math/bits"

	"github.com/spraynic/spraynic/config"
	"github.com/spraynic/spraynic/golden/nictransport"
	"github.com/spraynic/spraynic/golden/pathsel"
	"github.com/spraynic/spraynic/golden/retx"
	"github.com/spraynic/spraynic/golden/rxreorder"
	"github.com/spraynic/spraynic/golden/wide"
)

// Collector is the functional coverage of one run. The value New returns also has the method
// Sample(cycle int64, in *I, out *O) for its top's port structs (cosim.Sampler[I, O]).
type Collector interface {
	// Groups returns the run's cover groups.
	Groups() []*Group
}

// Tops lists the RTL tops that have cover groups.
var Tops = []string{"rx_reorder", "retx", "path_sel", "nic_transport"}

// New returns the collector of one run of top under cfg (the configuration the test runs with, after its own
// derivation such as gbn=1), with the bins cfg cannot reach marked.
func New(top string, cfg config.Config) (Collector, error) {
	switch top {
	case "rx_reorder":
		return newRxCov("rx_reorder", cfg), nil
	case "retx":
		return newRetxCov("retx", cfg, false), nil
	case "path_sel":
		return newPathCov("path_sel", cfg, false), nil
	case "nic_transport":
		return newNicCov(cfg), nil
	}
	return nil, fmt.Errorf("functional coverage: no cover groups for top %q (tops: %v)", top, Tops)
}

// Catalog returns the groups of every top under cfg, unsampled: the names a testplan may use.
func Catalog(cfg config.Config) map[string][]*Group {
	m := map[string][]*Group{}
	for _, t := range Tops {
		c, _ := New(t, cfg)
		m[t] = c.Groups()
	}
	return m
}

// hit counts a bin of a point that may be absent (nil: not observable at this top).
func hit(p *Point, bin string) {
	if p != nil {
		p.Hit(bin)
	}
}

// delta reports whether a counter output increased since the previous cycle (a reset to 0 is not an event).
func delta(now, prev uint32) bool { return now > prev }

// log2Bins are the bins of a distance 0..max-1: "0", "1", "2..3", "4..7", ... with their ranges.
func log2Bins(max int) (names []string, lo, hi []int) {
	names, lo, hi = []string{"0"}, []int{0}, []int{0}
	for l := 1; l < max; l *= 2 {
		h := min(2*l-1, max-1)
		n := fmt.Sprint(l)
		if h > l {
			n = fmt.Sprintf("%d..%d", l, h)
		}
		names, lo, hi = append(names, n), append(lo, l), append(hi, h)
	}
	return
}

func binOf(v int, lo, hi []int, names []string) string {
	for i := range lo {
		if v >= lo[i] && v <= hi[i] {
			return names[i]
		}
	}
	return ""
}

func signedN(v uint32, w int) int {
	s := 32 - uint(w)
	return int(int32(v<<s) >> s)
}

// --- rx_reorder -------------------------------------------------------------------------------------------------

type rxCov struct {
	cfg                                                        config.Config
	g                                                          *Group
	drop, dist, pos, distPos, wrap, holes, bp, ecn, reset, ctl *Point
	gap                                                        *Point
	distN                                                      []string
	distLo, distHi                                             []int
	prev                                                       rxreorder.Out
	cum, lastCpl                                               []uint32
	known, haveCpl, opened                                     []bool
	traffic                                                    bool
	// cycle counts the cycles sampled since the last reset; lastOp is the cycle of each connection's last
	// handshake (s_ctl or s_pkt), -1 for none since the last reset.
	cycle  int64
	lastOp []int64
}

func newRxCov(name string, cfg config.Config) *rxCov {
	c := &rxCov{cfg: cfg,
		g: NewGroup(name, "rx_reorder: classification, reorder distance, window position, PSN wrap, SACK holes, "+
			"back-pressure, ECN, control, reset"),
		cum: make([]uint32, cfg.Conns), lastCpl: make([]uint32, cfg.Conns), known: make([]bool, cfg.Conns),
		haveCpl: make([]bool, cfg.Conns), opened: make([]bool, cfg.Conns), lastOp: make([]int64, cfg.Conns)}
	for k := range c.lastOp {
		c.lastOp[k] = -1
	}
	g, w := c.g, cfg.Window
	c.drop = g.Point("verdict", "counter increments: cnt_accepted, cnt_duplicate, cnt_out_of_window, cnt_closed",
		"accepted", "duplicate", "out_of_window", "closed")
	c.distN, c.distLo, c.distHi = log2Bins(w)
	c.dist = g.Point("distance", "s_pkt handshake: s_pkt_psn minus the connection's cumulative PSN as last "+
		"acknowledged on m_ack (or opened), signed 24-bit",
		append(append([]string{"behind"}, c.distN...), "beyond")...)
	c.pos = g.Point("window_pos",
		"the same distance when inside the window: front [0,W/4), middle [W/4,3W/4), back [3W/4,W)",
		"front", "middle", "back")
	c.distPos = g.Cross("distance_x_pos",
		"distance bin x window position (pairs that do not overlap under WINDOW are unreachable)", c.dist, c.pos)
	plo, phi := []int{0, w / 4, 3 * w / 4}, []int{w/4 - 1, 3*w/4 - 1, w - 1}
	for _, pn := range []string{"behind", "beyond"} {
		for _, q := range c.pos.Bins {
			c.distPos.Unreachable(pn+"/"+q.Name, "outside the window: no window position")
		}
	}
	for i, dn := range c.distN {
		for j, q := range c.pos.Bins {
			if c.distHi[i] < plo[j] || c.distLo[i] > phi[j] {
				c.distPos.Unreachable(dn+"/"+q.Name,
					fmt.Sprintf("distance %s never lies in the %s of a %d-PSN window", dn, q.Name, w))
			}
		}
	}
	c.wrap = g.Point("psn_wrap",
		"a connection's PSN passing 2^24-1 -> 0: on consecutive completions, on consecutive ACKs' cumulative PSN",
		"completion", "ack")
	c.holes = g.Point("sack_holes", "m_ack handshake: zero bits of m_ack_sack below its highest set bit",
		"0", "1", "2..3", "4..7", "8+")
	if cfg.SackBits-1 < 8 {
		c.holes.Unreachable("8+", fmt.Sprintf("SACK_BITS %d", cfg.SackBits))
	}
	c.bp = g.Point("backpressure", "valid && !ready seen on the port", "s_pkt", "m_cpl", "m_ack")
	c.ecn = g.Point("ecn", "s_pkt handshake with s_pkt_ecn; m_ack handshake echoing it (m_ack_ecn)",
		"pkt_ce", "ack_echo")
	c.ctl = g.Point("ctl",
		"s_ctl handshake: open of a never-opened connection, close, open of a connection opened before (reopen)",
		"open", "close", "reopen")
	c.reset = g.Point("reset", "rst high after packets were taken since the previous reset", "after_traffic")
	c.gap = g.Point("conn_gap", "s_ctl or s_pkt handshake: cycles since the previous handshake on the same "+
		"connection (1: back to back, stage 1 forwards its own result because the connection RAM's read missed "+
		"its write; 2: the read follows that write by one edge)",
		"1", "2", "3..7", "8+")
	return c
}

func (c *rxCov) Groups() []*Group { return []*Group{c.g} }

func (c *rxCov) Sample(_ int64, in *rxreorder.In, out *rxreorder.Out) { c.sample(in, out, false) }

// sample takes one cycle; nakShown says m_ack shows a NAK of the top's go-back-N filter (not rx_reorder's ACK).
func (c *rxCov) sample(in *rxreorder.In, out *rxreorder.Out, nakShown bool) {
	c.g.Samples++
	mask := uint32(1)<<uint(c.cfg.PSNWidth) - 1
	c.sampleCounters(out)
	c.prev = *out
	c.cycle++
	if in.Rst {
		c.sampleReset()
		return
	}
	if in.CtlValid && out.CtlReady && int(in.CtlConn) < c.cfg.Conns {
		c.opGap(int(in.CtlConn))
	} else if in.PktValid && out.PktReady && int(in.PktConn) < c.cfg.Conns {
		c.opGap(int(in.PktConn))
	}
	c.sampleBackpressure(in, out)
	if in.CtlValid && out.CtlReady && int(in.CtlConn) < c.cfg.Conns {
		c.sampleCtl(in, mask)
	}
	if in.PktValid && out.PktReady && int(in.PktConn) < c.cfg.Conns {
		c.samplePkt(in, mask)
	}
	if out.AckValid && in.AckReady && !nakShown && int(out.AckConn) < c.cfg.Conns {
		c.sampleAck(out, mask)
	}
	if out.CplValid && in.CplReady && int(out.CplConn) < c.cfg.Conns {
		k, psn := out.CplConn, out.CplPSN&mask
		if c.haveCpl[k] && c.lastCpl[k] == mask && psn == 0 {
			c.wrap.Hit("completion")
		}
		c.lastCpl[k] = psn
		c.haveCpl[k] = true
	}
}

// sampleCounters samples the verdict counters' increments since the previous cycle.
func (c *rxCov) sampleCounters(out *rxreorder.Out) {
	if delta(out.CntAccepted, c.prev.CntAccepted) {
		c.drop.Hit("accepted")
	}
	if delta(out.CntDuplicate, c.prev.CntDuplicate) {
		c.drop.Hit("duplicate")
	}
	if delta(out.CntOutOfWin, c.prev.CntOutOfWin) {
		c.drop.Hit("out_of_window")
	}
	if delta(out.CntClosed, c.prev.CntClosed) {
		c.drop.Hit("closed")
	}
}

// sampleReset samples a reset cycle and forgets what the reset clears.
func (c *rxCov) sampleReset() {
	if c.traffic {
		c.reset.Hit("after_traffic")
	}
	c.traffic = false
	clear(c.known)
	clear(c.haveCpl)
	for k := range c.lastOp {
		c.lastOp[k] = -1
	}
}

// sampleBackpressure samples valid && !ready on each port.
func (c *rxCov) sampleBackpressure(in *rxreorder.In, out *rxreorder.Out) {
	if in.PktValid && !out.PktReady {
		c.bp.Hit("s_pkt")
	}
	if out.CplValid && !in.CplReady {
		c.bp.Hit("m_cpl")
	}
	if out.AckValid && !in.AckReady {
		c.bp.Hit("m_ack")
	}
}

// sampleCtl samples an s_ctl handshake: open, close or reopen; an open sets the connection's cumulative PSN.
func (c *rxCov) sampleCtl(in *rxreorder.In, mask uint32) {
	k := in.CtlConn
	switch {
	case !in.CtlOpen:
		c.ctl.Hit("close")
		c.known[k] = false
	case c.opened[k]:
		c.ctl.Hit("reopen")
	default:
		c.ctl.Hit("open")
	}
	if in.CtlOpen {
		c.opened[k] = true
		c.known[k] = true
		c.haveCpl[k] = false
		c.cum[k] = in.CtlPSN & mask
	}
}

// samplePkt samples an s_pkt handshake: ECN, and the distance from the connection's cumulative PSN with the
// window position.
func (c *rxCov) samplePkt(in *rxreorder.In, mask uint32) {
	c.traffic = true
	if in.PktECN {
		c.ecn.Hit("pkt_ce")
	}
	k := in.PktConn
	if !c.known[k] {
		return
	}
	d := signedN((in.PktPSN-c.cum[k])&mask, c.cfg.PSNWidth)
	w := c.cfg.Window
	switch {
	case d < 0:
		c.dist.Hit("behind")
	case d >= w:
		c.dist.Hit("beyond")
	default:
		db := binOf(d, c.distLo, c.distHi, c.distN)
		pb := "front"
		if d >= 3*w/4 {
			pb = "back"
		} else if d >= w/4 {
			pb = "middle"
		}
		c.dist.Hit(db)
		c.pos.Hit(pb)
		c.distPos.HitCross(db, pb)
	}
}

// sampleAck samples an m_ack handshake (an ACK, not a NAK): the cumulative PSN's wrap, SACK holes, ECN echo.
func (c *rxCov) sampleAck(out *rxreorder.Out, mask uint32) {
	k, psn := out.AckConn, out.AckPSN&mask
	if c.known[k] {
		if psn < c.cum[k] && (psn-c.cum[k])&mask < uint32(4*c.cfg.Window) {
			c.wrap.Hit("ack")
		}
		c.cum[k] = psn
	}
	c.holes.Hit(holeBin(out.AckSack, c.cfg.SackBits))
	if out.AckECN {
		c.ecn.Hit("ack_echo")
	}
}

// opGap samples conn_gap for a handshake on connection k in this cycle.
func (c *rxCov) opGap(k int) {
	if last := c.lastOp[k]; last >= 0 {
		switch d := c.cycle - last; {
		case d == 1:
			c.gap.Hit("1")
		case d == 2:
			c.gap.Hit("2")
		case d < 8:
			c.gap.Hit("3..7")
		default:
			c.gap.Hit("8+")
		}
	}
	c.lastOp[k] = c.cycle
}

// holeBin bins the zero bits of v below its highest set bit.
func holeBin(v wide.Vec, width int) string {
	top, ones := -1, 0
	for w := len(v) - 1; w >= 0; w-- {
		if v[w] != 0 && top < 0 {
			top = 64*w + 63 - bits.LeadingZeros64(v[w])
		}
		ones += bits.OnesCount64(v[w])
	}
	_ = width
	if top < 0 {
		return "0"
	}
	switch h := top + 1 - ones; {
	case h == 0:
		return "0"
	case h == 1:
		return "1"
	case h <= 3:
		return "2..3"
	case h <= 7:
		return "4..7"
	}
	return "8+"
}

// --- retx ------------------------------------------------------------------------------------------------------

type retxCov struct {
	cfg                                                    config.Config
	g                                                      *Group
	tx, retries, rtoRetries, rto, errp, gbn, bp, drops, fb *Point
	reset, ctl, pseqWrap, ackReq                           *Point
	prev                                                   retx.Out
	opened, errored                                        []bool
	traffic                                                bool
	// acked is the latest cumulative PSN of each connection seen on s_ack (or its open PSN).
	acked []uint32
	// lastTx and lastAck are the path sequence last sent and last acknowledged per (connection, path), +1 (0: none).
	lastTx, lastAck []uint32
}

func newRetxCov(name string, cfg config.Config, top bool) *retxCov {
	c := &retxCov{cfg: cfg,
		g: NewGroup(name, "retx: new vs retransmission by cause, retries, RTO, errors, go-back-N, feedback, "+
			"back-pressure, drops, control, reset"),
		opened: make([]bool, cfg.Conns), errored: make([]bool, cfg.Conns), acked: make([]uint32, cfg.Conns),
		lastTx: make([]uint32, cfg.Conns*cfg.Paths), lastAck: make([]uint32, cfg.Conns*cfg.Paths)}
	g := c.g
	c.tx = g.Point("tx", "counter increments: cnt_sent (new), cnt_retx_loss, cnt_retx_timeout, cnt_retx_gbn",
		"new", "retx_loss", "retx_timeout", "retx_gbn")
	var rb []string
	for i := 0; i <= cfg.MaxRetries; i++ {
		rb = append(rb, fmt.Sprint(i))
	}
	c.retries = g.Point("retries", "m_pkt handshake: m_pkt_retries 0..MAX_RETRIES", rb...)
	c.rtoRetries = g.Point("rto_retx_retries", "m_pkt_retries of an RTO retransmission (the cycle "+
		"cnt_retx_timeout steps): stands in for the backoff level, which no port shows", rb[1:]...)
	c.rto = g.Point("rto", "cnt_timeouts increments (an RTO expiry)", "expiry")
	c.errp = g.Point("error", "m_err_valid; an open of a connection that had m_err", "m_err", "reopen_after_error")
	c.gbn = g.Point("gbn", "go-back-N: s_ack handshake with s_ack_nak; a timeout in go-back-N mode (rewind from una)",
		"nak_in", "timeout_rewind")
	c.bp = g.Point("backpressure", "valid && !ready on the port", "s_tx", "s_ack", "m_pkt", "m_fb")
	c.drops = g.Point("drops", "counter increments: cnt_tx_dropped, cnt_ack_ignored", "tx_dropped", "ack_ignored")
	c.fb = g.Point("feedback", "m_fb handshake: m_fb_kind", "delivered", "ecn", "loss", "timeout")
	c.ctl = g.Point("ctl", "s_ctl handshake: open, close, reopen of a connection opened before",
		"open", "close", "reopen")
	c.reset = g.Point("reset", "rst high after packets left m_pkt since the previous reset", "mid_traffic")
	c.pseqWrap = g.Point("pseq_wrap", "a (connection, path)'s sequence wraps at 2^PSEQ_WIDTH: an m_pkt (tx) or "+
		"s_ack (ack) handshake whose path sequence is in the lower half of the space after one in the upper half "+
		"on that (connection, path), with no reset or s_ctl of the connection between", "tx", "ack")
	c.ackReq = g.Point("ack_req", "m_pkt handshake with m_pkt_ack_req, by why it asks: the message's last packet, "+
		"the packet that fills the window (against the latest cumulative PSN on s_ack), the ACK request age (a "+
		"new packet for neither), a retransmission", "last", "window", "age", "retx")
	if cfg.AckReqTicks == 0 {
		c.ackReq.Unreachable("age", "ACK request age off (ack_req_ticks=0)")
	}
	if top {
		// Not visible at the nic_transport ports: m_fb goes to path_sel inside the top. A path sequence wrap needs
		// 2^PSEQ_WIDTH packets on one (connection, path): measured on the block (retx_pseq_wrap), not at the top.
		c.fb = nil
		c.pseqWrap = nil
		g.Points = []*Point{c.tx, c.retries, c.rtoRetries, c.rto, c.errp, c.gbn, c.bp, c.drops, c.ctl, c.reset,
			c.ackReq}
		c.bp.Bins = c.bp.Bins[:3] // s_tx, s_ack, m_pkt
		c.bp.index()
	}
	c.markMode()
	return c
}

// markMode marks the bins the go-back-N setting of the configuration cannot reach.
func (c *retxCov) markMode() {
	gbnOff, gbnOn := "go-back-N off (gbn=0)", "go-back-N mode (gbn=1): no SACK, no RTO lookup, no feedback"
	if c.cfg.GBN == 0 {
		c.tx.Unreachable("retx_gbn", gbnOff)
		c.gbn.Unreachable("nak_in", gbnOff)
		c.gbn.Unreachable("timeout_rewind", gbnOff)
		return
	}
	c.tx.Unreachable("retx_loss", gbnOn)
	c.tx.Unreachable("retx_timeout", gbnOn)
	for _, b := range c.rtoRetries.Bins {
		c.rtoRetries.Unreachable(b.Name, gbnOn)
	}
	if c.fb != nil {
		for _, b := range c.fb.Bins {
			c.fb.Unreachable(b.Name, gbnOn)
		}
		c.bp.Unreachable("m_fb", gbnOn)
	}
}

func (c *retxCov) Groups() []*Group { return []*Group{c.g} }

// samplePseq records path sequence seq of (conn, path) in last and hits bin when it wrapped since the previous one:
// the previous was in the upper half of the space and this one is in the lower half.
func (c *retxCov) samplePseq(last []uint32, conn, path, seq uint32, bin string) {
	if c.pseqWrap == nil || int(conn) >= c.cfg.Conns || int(path) >= c.cfg.Paths {
		return
	}
	half := uint32(1) << uint(c.cfg.PseqWidth-1)
	i := int(conn)*c.cfg.Paths + int(path)
	if prev := last[i]; prev != 0 && prev-1 >= half && seq < half {
		c.pseqWrap.Hit(bin)
	}
	last[i] = seq + 1
}

func (c *retxCov) Sample(_ int64, in *retx.In, out *retx.Out) { c.sample(in, out) }

// sample takes one cycle.
func (c *retxCov) sample(in *retx.In, out *retx.Out) {
	c.g.Samples++
	c.sampleCounters(out)
	c.prev = *out
	if in.Rst {
		if c.traffic {
			c.reset.Hit("mid_traffic")
		}
		c.traffic = false
		clear(c.lastTx)
		clear(c.lastAck)
		return
	}
	if out.ErrValid {
		c.errp.Hit("m_err")
		if int(out.ErrConn) < c.cfg.Conns {
			c.errored[out.ErrConn] = true
		}
	}
	c.sampleBackpressure(in, out)
	c.sampleHandshakes(in, out)
	if in.CtlValid && out.CtlReady && int(in.CtlConn) < c.cfg.Conns {
		c.sampleCtl(in)
	}
}

// sampleCounters samples the counters' increments since the previous cycle: sends and retransmissions by cause
// (with the retry count of an RTO retransmission), timeouts, drops.
func (c *retxCov) sampleCounters(out *retx.Out) {
	p := &c.prev
	if delta(out.CntSent, p.CntSent) {
		c.tx.Hit("new")
	}
	if delta(out.CntRetxLoss, p.CntRetxLoss) {
		c.tx.Hit("retx_loss")
	}
	if delta(out.CntRetxTimeout, p.CntRetxTimeout) {
		c.tx.Hit("retx_timeout")
		if out.PktValid && out.PktRetx && out.PktRetries >= 1 && int(out.PktRetries) <= c.cfg.MaxRetries {
			c.rtoRetries.Hit(fmt.Sprint(out.PktRetries))
		}
	}
	if delta(out.CntRetxGBN, p.CntRetxGBN) {
		c.tx.Hit("retx_gbn")
	}
	if delta(out.CntTimeouts, p.CntTimeouts) {
		c.rto.Hit("expiry")
		if c.cfg.GBN != 0 {
			c.gbn.Hit("timeout_rewind")
		}
	}
	if delta(out.CntTxDropped, p.CntTxDropped) {
		c.drops.Hit("tx_dropped")
	}
	if delta(out.CntAckIgnored, p.CntAckIgnored) {
		c.drops.Hit("ack_ignored")
	}
}

// sampleBackpressure samples valid && !ready on each port (m_fb only where it is visible).
func (c *retxCov) sampleBackpressure(in *retx.In, out *retx.Out) {
	if in.TxValid && !out.TxReady {
		c.bp.Hit("s_tx")
	}
	if in.AckValid && !out.AckReady {
		c.bp.Hit("s_ack")
	}
	if out.PktValid && !in.PktReady {
		c.bp.Hit("m_pkt")
	}
	if c.fb != nil && out.FbValid && !in.FbReady {
		c.bp.Hit("m_fb")
	}
}

// sampleHandshakes samples the m_pkt (retries, path sequence), s_ack (path sequence, NAK) and m_fb (kind)
// handshakes.
func (c *retxCov) sampleHandshakes(in *retx.In, out *retx.Out) {
	if out.PktValid && in.PktReady {
		c.traffic = true
		if int(out.PktRetries) <= c.cfg.MaxRetries {
			c.retries.Hit(fmt.Sprint(out.PktRetries))
		}
		c.samplePseq(c.lastTx, out.PktConn, out.PktPath, out.PktPseq, "tx")
		c.sampleAckReq(out)
	}
	if in.AckValid && out.AckReady {
		c.samplePseq(c.lastAck, in.AckConn, in.AckPath, in.AckPseq, "ack")
		if k := in.AckConn; int(k) < c.cfg.Conns {
			if d := (in.AckPSN - c.acked[k]) & retxPSNMask; d != 0 && d < 1<<23 {
				c.acked[k] = in.AckPSN & retxPSNMask
			}
		}
	}
	if c.fb != nil && out.FbValid && in.FbReady && out.FbKind < 4 {
		c.fb.Hit([]string{"delivered", "ecn", "loss", "timeout"}[out.FbKind])
	}
	if in.AckValid && out.AckReady && in.AckNak && c.cfg.GBN != 0 {
		c.gbn.Hit("nak_in")
	}
}

// retxPSNMask keeps 24-bit PSN arithmetic.
const retxPSNMask = 1<<24 - 1

// sampleAckReq samples why an m_pkt handshake asks for an ACK (first of retx, last, window, age).
func (c *retxCov) sampleAckReq(out *retx.Out) {
	switch {
	case !out.PktAckReq || int(out.PktConn) >= c.cfg.Conns:
	case out.PktRetx:
		c.ackReq.Hit("retx")
	case out.PktLast:
		c.ackReq.Hit("last")
	case (out.PktPSN+1-c.acked[out.PktConn])&retxPSNMask == uint32(c.cfg.Window):
		c.ackReq.Hit("window")
	default:
		c.ackReq.Hit("age")
	}
}

// sampleCtl samples an s_ctl handshake: open, close or reopen, a reopen after an error; the connection's path
// sequences restart.
func (c *retxCov) sampleCtl(in *retx.In) {
	k := in.CtlConn
	switch {
	case !in.CtlOpen:
		c.ctl.Hit("close")
	case c.opened[k]:
		c.ctl.Hit("reopen")
	default:
		c.ctl.Hit("open")
	}
	if in.CtlOpen {
		c.acked[k] = in.CtlPSN & retxPSNMask
		if c.errored[k] {
			c.errp.Hit("reopen_after_error")
		}
		c.opened[k] = true
		c.errored[k] = false
	}
	// The connection's path sequences restart: a smaller one next is not a wrap.
	from := int(k) * c.cfg.Paths
	clear(c.lastTx[from : from+c.cfg.Paths])
	clear(c.lastAck[from : from+c.cfg.Paths])
}

// --- path_sel --------------------------------------------------------------------------------------------------

// stateNames are the rd_state values.
var stateNames = []string{"active", "suspect", "failed", "probing"}

type pathCov struct {
	cfg                                                    config.Config
	g                                                      *Group
	events, trans, cwnd, cwndChg, allFail, fbKind, fbCount *Point
	decision, req, bp, reset, ctl                          *Point
	prev                                                   pathsel.Out
	// last is per (conn, path) the last observed state+1 (0: not seen), lastCwnd its window then.
	last, lastCwnd []uint32
	// prevAddr is the (conn*paths+path) read in the previous cycle, -1 for none.
	prevAddr int
	opened   []bool
	traffic  bool
}

func newPathCov(name string, cfg config.Config, top bool) *pathCov {
	n := cfg.Conns * cfg.Paths
	c := &pathCov{cfg: cfg,
		g: NewGroup(name, "path_sel: decisions, probes, failures, recoveries, path state transitions, windows, "+
			"all-failed status, feedback, back-pressure, control, reset"),
		last: make([]uint32, n), lastCwnd: make([]uint32, n), prevAddr: -1, opened: make([]bool, cfg.Conns)}
	g := c.g
	c.events = g.Point("events", "counter increments: cnt_decisions, cnt_probes, cnt_failures, cnt_recoveries",
		"decision", "probe", "failure", "recovery")
	c.trans = g.Point("state_transition", "rd_state of the (rd_conn, rd_path) read: a change since that path was "+
		"last read (reopen/reset: back to active)",
		"active->suspect", "active->failed", "suspect->active", "suspect->failed", "failed->probing",
		"probing->active", "probing->failed", "failed->active")
	c.cwnd = g.Point("cwnd", "rd_cwnd of the path read: 1 packet, below CWND_INIT, CWND_INIT, above it, CWND_MAX",
		"min", "below_init", "init", "above_init", "max")
	c.cwndChg = g.Point("cwnd_change", "rd_cwnd of the same path read again: decreased (ECN halving), increased (AI)",
		"decrease", "increase")
	c.allFail = g.Point("all_failed", "m_status_all_failed rising and falling; rd_all_failed",
		"status_rise", "status_fall", "rd_all_failed")
	c.fbKind = g.Point("fb_kind", "s_fb handshake: s_fb_kind", "delivered", "ecn", "loss", "timeout")
	c.fbCount = g.Point("fb_count", "s_fb handshake: s_fb_count", "0", "1", "2..7", "8+")
	c.decision = g.Point("decision",
		"m_sel handshake: a normal decision, a probe, a probe while m_status shows its connection all-failed",
		"normal", "probe", "probe_all_failed")
	c.req = g.Point("request", "s_req handshake: new packet, retransmission", "new", "retx")
	c.bp = g.Point("backpressure", "valid && !ready on the port", "s_req", "m_sel")
	c.ctl = g.Point("ctl", "s_ctl handshake: open, reopen of a connection opened before", "open", "reopen")
	c.reset = g.Point("reset", "rst high after decisions since the previous reset", "mid_traffic")
	if cfg.CwndInit <= 1 {
		c.cwnd.Unreachable("below_init", "CWND_INIT is 1 packet")
	}
	if cfg.CwndMax <= cfg.CwndInit {
		c.cwnd.Unreachable("above_init", "CWND_MAX <= CWND_INIT")
	}
	if top {
		// s_req, m_sel and s_fb are inside nic_transport.
		c.fbKind = nil
		c.fbCount = nil
		c.decision = nil
		c.req = nil
		c.bp = nil
		g.Points = []*Point{c.events, c.trans, c.cwnd, c.cwndChg, c.allFail, c.ctl, c.reset}
	}
	return c
}

func (c *pathCov) Groups() []*Group { return []*Group{c.g} }

func (c *pathCov) Sample(_ int64, in *pathsel.In, out *pathsel.Out) { c.sample(in, out) }

// sample takes one cycle.
func (c *pathCov) sample(in *pathsel.In, out *pathsel.Out) {
	c.g.Samples++
	c.sampleCounters(out)
	prevStatus := c.prev
	c.prev = *out
	if in.Rst {
		if c.traffic {
			c.reset.Hit("mid_traffic")
		}
		c.traffic = false
		clear(c.last)
		c.prevAddr = -1
		return
	}
	if a := c.prevAddr; a >= 0 && out.RdState < 4 {
		c.sampleRead(a, out)
	}
	if int(in.RdConn) < c.cfg.Conns && int(in.RdPath) < c.cfg.Paths {
		c.prevAddr = int(in.RdConn)*c.cfg.Paths + int(in.RdPath)
	}
	if c.fbKind != nil && in.FbValid && out.FbReady {
		c.sampleFb(in)
	}
	if c.decision != nil && out.SelValid && in.SelReady {
		c.sampleDecision(out, &prevStatus)
	}
	if c.decision == nil && delta(out.CntDecisions, prevStatus.CntDecisions) {
		c.traffic = true
	}
	if c.req != nil && in.ReqValid && out.ReqReady {
		if in.ReqRetx {
			c.req.Hit("retx")
		} else {
			c.req.Hit("new")
		}
	}
	if c.bp != nil {
		if in.ReqValid && !out.ReqReady {
			c.bp.Hit("s_req")
		}
		if out.SelValid && !in.SelReady {
			c.bp.Hit("m_sel")
		}
	}
	if in.CtlValid && out.CtlReady && int(in.CtlConn) < c.cfg.Conns {
		if c.opened[in.CtlConn] {
			c.ctl.Hit("reopen")
		} else {
			c.ctl.Hit("open")
		}
		c.opened[in.CtlConn] = true
	}
}

// sampleCounters samples the event counters' increments and the all-failed status's edges since the previous
// cycle, and rd_all_failed.
func (c *pathCov) sampleCounters(out *pathsel.Out) {
	p := &c.prev
	if delta(out.CntDecisions, p.CntDecisions) {
		c.events.Hit("decision")
	}
	if delta(out.CntProbes, p.CntProbes) {
		c.events.Hit("probe")
	}
	if delta(out.CntFailures, p.CntFailures) {
		c.events.Hit("failure")
	}
	if delta(out.CntRecoveries, p.CntRecoveries) {
		c.events.Hit("recovery")
	}
	if out.StatusAllFail && !p.StatusAllFail {
		c.allFail.Hit("status_rise")
	}
	if !out.StatusAllFail && p.StatusAllFail {
		c.allFail.Hit("status_fall")
	}
	if out.RdAllFailed {
		c.allFail.Hit("rd_all_failed")
	}
}

// sampleRead samples the rd_* outputs for path a (conn*paths+path), read in the previous cycle: its state
// transition and window change since it was last read, and its window.
func (c *pathCov) sampleRead(a int, out *pathsel.Out) {
	s := out.RdState
	if l := c.last[a]; l != 0 && l-1 != s {
		t := stateNames[l-1] + "->" + stateNames[s]
		// A change the spec has no single step for (the path was not read in between) is not counted.
		if c.trans.Has(t) {
			c.trans.Hit(t)
		}
	}
	if l := c.last[a]; l != 0 {
		switch {
		case out.RdCwnd < c.lastCwnd[a]:
			c.cwndChg.Hit("decrease")
		case out.RdCwnd > c.lastCwnd[a]:
			c.cwndChg.Hit("increase")
		}
	}
	c.last[a] = s + 1
	c.lastCwnd[a] = out.RdCwnd
	init, mx := uint32(c.cfg.CwndInit)<<4, uint32(c.cfg.CwndMax)<<4
	switch w := out.RdCwnd; {
	case w <= 16:
		c.cwnd.Hit("min")
	case w >= mx:
		c.cwnd.Hit("max")
	case w < init:
		c.cwnd.Hit("below_init")
	case w == init:
		c.cwnd.Hit("init")
	default:
		c.cwnd.Hit("above_init")
	}
}

// sampleFb samples an s_fb handshake: its kind and count.
func (c *pathCov) sampleFb(in *pathsel.In) {
	c.fbKind.Hit(stateFb[in.FbKind&3])
	switch n := in.FbCount; {
	case n == 0:
		c.fbCount.Hit("0")
	case n == 1:
		c.fbCount.Hit("1")
	case n < 8:
		c.fbCount.Hit("2..7")
	default:
		c.fbCount.Hit("8+")
	}
}

// sampleDecision samples an m_sel handshake: a normal decision, a probe, a probe of a connection prev (the
// previous cycle's outputs) shows all-failed.
func (c *pathCov) sampleDecision(out *pathsel.Out, prev *pathsel.Out) {
	c.traffic = true
	switch {
	case out.SelProbe && prev.StatusAllFail && prev.StatusConn == out.SelConn:
		c.decision.Hit("probe_all_failed")
		c.decision.Hit("probe")
	case out.SelProbe:
		c.decision.Hit("probe")
	default:
		c.decision.Hit("normal")
	}
}

var stateFb = []string{"delivered", "ecn", "loss", "timeout"}

// --- nic_transport ---------------------------------------------------------------------------------------------

type nicCov struct {
	cfg                 config.Config
	rx                  *rxCov
	tx                  *retxCov
	ps                  *pathCov
	g                   *Group
	gbn, reconn, concur *Point
	prev                nictransport.TopOut
	opened, errored     []bool
	traffic             bool
	cycle               int64
	rxIn                rxreorder.In
	rxOut               rxreorder.Out
	txIn                retx.In
	txOut               retx.Out
	psIn                pathsel.In
	psOut               pathsel.Out
}

func newNicCov(cfg config.Config) *nicCov {
	c := &nicCov{cfg: cfg,
		rx: newRxCov("nic_rx_reorder", cfg), tx: newRetxCov("nic_retx", cfg, true),
		ps: newPathCov("nic_path_sel", cfg, true),
		g: NewGroup("nic_transport", "the endpoint's glue at its ports: go-back-N filter and NAKs, reconnects, "+
			"reset mid-traffic, both directions at once"),
		opened: make([]bool, cfg.Conns), errored: make([]bool, cfg.Conns)}
	c.rx.g.Doc = "rx_reorder as seen at the nic_transport ports (s_rx, m_cpl, m_ack without NAKs, rx counters)"
	c.tx.g.Doc = "retx as seen at the nic_transport ports (s_tx, m_pkt, s_ack, m_err, retx counters; " +
		"m_fb is internal)"
	c.ps.g.Doc = "path_sel as seen at the nic_transport ports (rd_*, m_status, path_sel counters; " +
		"s_req, m_sel, s_fb are internal)"
	g := c.g
	c.gbn = g.Point("gbn_filter", "cnt_naks and cnt_gbn_dropped increments; m_ack handshake of a NAK",
		"nak", "gbn_drop", "nak_out")
	c.reconn = g.Point("reconnect", "s_ctl open of a connection opened earlier in the run; of one that had m_err; "+
		"rst after cycle 100 with traffic seen since the previous reset",
		"reopen", "reopen_after_error", "reset_mid_traffic")
	c.concur = g.Point("concurrency",
		"in one cycle: m_pkt and m_ack handshakes; s_rx and s_ack handshakes; m_cpl and m_pkt handshakes",
		"pkt_and_ack_out", "rx_and_ack_in", "cpl_and_pkt")
	if cfg.GBN == 0 {
		for _, b := range c.gbn.Bins {
			c.gbn.Unreachable(b.Name, "go-back-N off (gbn=0)")
		}
	} else {
		why := "go-back-N mode (gbn=1): path_sel is not asked and gets no feedback"
		for _, b := range []string{"decision", "probe", "failure", "recovery"} {
			c.ps.events.Unreachable(b, why)
		}
	}
	return c
}

func (c *nicCov) Groups() []*Group { return []*Group{c.rx.g, c.tx.g, c.ps.g, c.g} }

func (c *nicCov) Sample(cycle int64, in *nictransport.TopIn, o *nictransport.TopOut) {
	c.sampleRx(in, o)
	c.sampleTx(in, o)
	c.samplePathSel(in, o)
	c.sampleGlue(cycle, in, o)
}

// sampleRx samples rx_reorder's group on its ports as the top shows them (s_rx, s_ctl, m_cpl, m_ack).
func (c *nicCov) sampleRx(in *nictransport.TopIn, o *nictransport.TopOut) {
	c.rxIn = rxreorder.In{Rst: in.Rst, PktValid: in.RxValid, PktConn: in.RxConn, PktPSN: in.RxPSN,
		PktPath: in.RxPath, PktPseq: in.RxPseq, PktFirst: in.RxFirst, PktLast: in.RxLast, PktAckReq: in.RxAckReq,
		PktECN: in.RxECN, PktHandle: in.RxHandle, CtlValid: in.CtlValid, CtlOpen: in.CtlOpen, CtlConn: in.CtlConn,
		CtlPSN: in.CtlRxPSN, CplReady: in.CplReady, AckReady: in.AckOutReady}
	c.rxOut = rxreorder.Out{PktReady: o.RxReady, CtlReady: o.CtlReady, CplValid: o.CplValid, CplConn: o.CplConn,
		CplPSN: o.CplPSN, CplFirst: o.CplFirst, CplLast: o.CplLast, CplHandle: o.CplHandle, AckValid: o.AckOutValid,
		AckConn: o.AckOutConn, AckPSN: o.AckOutPSN, AckPath: o.AckOutPath, AckPseq: o.AckOutPseq,
		AckSack: o.AckOutSack, AckECN: o.AckOutECN, CntAccepted: o.CntAccepted, CntDuplicate: o.CntDuplicate,
		CntOutOfWin: o.CntOutOfWin, CntClosed: o.CntClosed}
	c.rx.sample(&c.rxIn, &c.rxOut, o.AckOutNak)
}

// sampleTx samples retx's group on its ports as the top shows them (s_tx, s_ack, s_ctl, m_pkt, m_err).
func (c *nicCov) sampleTx(in *nictransport.TopIn, o *nictransport.TopOut) {
	c.txIn = retx.In{Rst: in.Rst, TxValid: in.TxValid, TxConn: in.TxConn, TxHandle: in.TxHandle,
		TxFirst: in.TxFirst, TxLast: in.TxLast, PktReady: in.PktReady, AckValid: in.AckValid, AckConn: in.AckConn,
		AckPSN: in.AckPSN, AckPath: in.AckPath, AckPseq: in.AckPseq, AckSack: in.AckSack, AckECN: in.AckECN,
		AckNak: in.AckNak, CtlValid: in.CtlValid, CtlOpen: in.CtlOpen, CtlConn: in.CtlConn, CtlPSN: in.CtlTxPSN}
	c.txOut = retx.Out{TxReady: o.TxReady, PktValid: o.PktValid, PktConn: o.PktConn, PktPSN: o.PktPSN,
		PktPath: o.PktPath, PktPseq: o.PktPseq, PktEntropy: o.PktEntropy, PktHandle: o.PktHandle,
		PktFirst: o.PktFirst, PktLast: o.PktLast, PktAckReq: o.PktAckReq, PktRetx: o.PktRetx,
		PktRetries: o.PktRetries, AckReady: o.AckReady, CtlReady: o.CtlReady, ErrValid: o.ErrValid,
		ErrConn: o.ErrConn, CntSent: o.CntSent, CntRetxLoss: o.CntRetxLoss, CntRetxTimeout: o.CntRetxTimeout,
		CntRetxGBN: o.CntRetxGBN, CntTimeouts: o.CntTimeouts, CntErrors: o.CntErrors,
		CntTxDropped: o.CntTxDropped, CntAckIgnored: o.CntAckIgnored}
	c.tx.sample(&c.txIn, &c.txOut)
}

// samplePathSel samples path_sel's group on its ports as the top shows them (s_ctl opens, rd_*, m_status).
func (c *nicCov) samplePathSel(in *nictransport.TopIn, o *nictransport.TopOut) {
	// path_sel sees control only for an open (docs/nic_transport.md).
	c.psIn = pathsel.In{Rst: in.Rst, CtlValid: in.CtlValid && in.CtlOpen, CtlConn: in.CtlConn,
		RdConn: in.RdConn, RdPath: in.RdPath}
	c.psOut = pathsel.Out{CtlReady: o.CtlReady, RdState: o.RdState, RdCwnd: o.RdCwnd, RdInflight: o.RdInflight,
		RdEntropy: o.RdEntropy, RdAllFailed: o.RdAllFailed, RdDecisions: o.RdDecisions, RdLosses: o.RdLosses,
		StatusAllFail: o.StatusAllFail, StatusConn: o.StatusConn, StatusAF: o.StatusAF, CntDecisions: o.CntDecisions,
		CntProbes: o.CntProbes, CntFailures: o.CntFailures, CntRecoveries: o.CntRecoveries}
	c.ps.sample(&c.psIn, &c.psOut)
}

// sampleGlue samples the top's own group: the go-back-N filter, reconnects, reset mid-traffic, concurrency.
func (c *nicCov) sampleGlue(cycle int64, in *nictransport.TopIn, o *nictransport.TopOut) {
	c.g.Samples++
	if delta(o.CntNaks, c.prev.CntNaks) {
		c.gbn.Hit("nak")
	}
	if delta(o.CntGBNDropped, c.prev.CntGBNDropped) {
		c.gbn.Hit("gbn_drop")
	}
	c.prev = *o
	if in.Rst {
		if c.traffic && cycle > 100 {
			c.reconn.Hit("reset_mid_traffic")
		}
		c.traffic = false
		return
	}
	pktOut, ackOut := o.PktValid && in.PktReady, o.AckOutValid && in.AckOutReady
	rxIn, ackIn := in.RxValid && o.RxReady, in.AckValid && o.AckReady
	if pktOut || rxIn {
		c.traffic = true
	}
	if ackOut && o.AckOutNak {
		c.gbn.Hit("nak_out")
	}
	if pktOut && ackOut {
		c.concur.Hit("pkt_and_ack_out")
	}
	if rxIn && ackIn {
		c.concur.Hit("rx_and_ack_in")
	}
	if o.CplValid && in.CplReady && pktOut {
		c.concur.Hit("cpl_and_pkt")
	}
	if o.ErrValid && int(o.ErrConn) < c.cfg.Conns {
		c.errored[o.ErrConn] = true
	}
	if in.CtlValid && o.CtlReady && in.CtlOpen && int(in.CtlConn) < c.cfg.Conns {
		k := in.CtlConn
		if c.opened[k] {
			c.reconn.Hit("reopen")
		}
		if c.errored[k] {
			c.reconn.Hit("reopen_after_error")
		}
		c.opened[k] = true
		c.errored[k] = false
	}
}
