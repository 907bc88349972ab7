package retxtraffic

import (
	"fmt"

	"github.com/spraynic/spraynic/config"
	"github.com/spraynic/spraynic/golden/retx"
	"github.com/spraynic/spraynic/golden/wide"
)

// Rows of the scripts' step tables.

func open(c, psn uint32) Item { return Item{Op: OpOpen, Conn: c, PSN: psn} }
func closeConn(c uint32) Item { return Item{Op: OpClose, Conn: c} }

func tx(c, handle uint32, first, last bool) Item {
	return Item{Op: OpTx, Conn: c, Handle: handle, First: first, Last: last}
}

// txs is a run of new packets labelled name<k> for k in [from, to): conn c, handle h+k, first on k == 0, last on
// k == last.
func txs(name string, from, to int, c, h uint32, last int) run {
	var r run
	for k := from; k < to; k++ {
		r = append(r, tx(c, h+uint32(k), k == 0, k == last).L(lbl("%s%d", name, k)))
	}
	return r
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

func lbl(f string, a ...any) string { return fmt.Sprintf(f, a...) }

// cycles is a script length that does not depend on the configuration.
func cycles(n int64) func(config.Config) int64 { return func(config.Config) int64 { return n } }

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

// upTo is 0..n-1.
func upTo(n int) []uint32 {
	q := make([]uint32, n)
	for i := range q {
		q[i] = uint32(i)
	}
	return q
}

// region is the number of path sequences an ACK newly covering d of them reports: min(d, SACK_BITS, 255).
func region(cfg config.Config, d int) uint32 { return uint32(min(d, cfg.SackBits, 255)) }

// The timer: when expiries fall.

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
// with nothing in its way (no progress, each expiry's lookup issued the next cycle): the visit that finds
// rto_cnt >= rto_lim, the (RTO_TICKS+1)-th after the restart (the first one counts from 0), then every
// backed-off limit plus one tick after the previous expiry (which restarts the count at 0).
func expiries(cfg config.Config, c uint32, origin, restart int64, k int) []int64 {
	tc := int64(cfg.TickCycles)
	var e []int64
	v := visitAfter(cfg, c, origin, restart)
	for i, lim := range limits(cfg, k) {
		if i == 0 {
			v += lim * tc
		} else {
			v += (lim + 1) * tc
		}
		e = append(e, v)
	}
	return e
}

// The transfers a script expects.

const (
	fbDeliv   = retx.FbDelivered
	fbLoss    = retx.FbLoss
	fbTimeout = retx.FbTimeout
)

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

// newAll returns the expected transfers of new packets labelled name<k> for k in [from, to): conn c, PSN
// base+k, path and path sequence from pq, handle h+k, first on k == 0, last on k == last, ack_req on the ks in
// req.
func newAll(m *Marks, name string, from, to int, c, base uint32, pq func(k int) (uint32, uint32), h uint32,
	last int, req func(k int) bool) []PktEv {
	var w []PktEv
	for k := from; k < to; k++ {
		p, q := pq(k)
		t := m.C(lbl("%s%d", name, k))
		w = append(w, newPkt(t, c, psnAt(base, k), p, q, h+uint32(k), k == 0, k == last, req(k)))
	}
	return w
}

// onPath is a path and sequence function of newAll: every packet on path p, sequences from 0.
func onPath(p uint32) func(k int) (uint32, uint32) {
	return func(k int) (uint32, uint32) { return p, uint32(k) }
}

// split is a path and sequence function of newAll: the first n packets on path p, the rest on path p2.
func split(p uint32, n int, p2 uint32) func(k int) (uint32, uint32) {
	return func(k int) (uint32, uint32) {
		if k < n {
			return p, uint32(k)
		}
		return p2, uint32(k - n)
	}
}

// only is a request function of newAll: ack_req on the ks listed.
func only(ks ...int) func(k int) bool {
	return func(k int) bool {
		for _, x := range ks {
			if k == x {
				return true
			}
		}
		return false
	}
}
