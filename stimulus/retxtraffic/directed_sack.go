package retxtraffic

import (
	"github.com/spraynic/spraynic/config"
	"github.com/spraynic/spraynic/golden/retx"
)

// Selective repeat: SACK holes, the window, the ACK region and the PSN wrap.

// sackHole: SACK holes are retransmitted exactly, oldest first, 5 cycles after the ACK handshake, with a fresh
// path sequence on the offered path; duplicate and stale ACKs change nothing but cnt_ack_ignored.
var sackHole = Script{
	Name: "sack_hole",
	Doc: "SACK with one hole, then two holes: exactly the lost PSNs resent oldest first at handshake+5 on fresh " +
		"path sequences, feedback counts; duplicate and stale ACKs only count as ignored",
	Cycles: cycles(400),
	Steps: func(cfg config.Config) []Item {
		c := uint32(cfg.Conns - 1)
		const base = 1000
		return table(
			open(c, base).L("open"), path(1),
			txs("tx", 0, 6, c, 0x100, 9), path(2), txs("tx", 6, 10, c, 0x100, 9),
			path(3),
			// path 1 carried PSN 1000..1005 as path sequences 0..5: 2 (PSN 1002) lost, so cum is 1002.
			ackOf(c, base+2, 1, 6, sackOf(cfg, 6, 2)).L("ack1"),
			idle(12),
			// path 2 carried PSN 1006..1009 as 0..3: 0 and 2 lost; cum 1006 (1002's resend arrived).
			ackOf(c, base+6, 2, 4, sackOf(cfg, 4, 0, 2)).L("ack2"),
			after("ack2", 5), path(0).L("p0"), // the second hole takes path 0
			idle(12),
			ackOf(c, base+6, 2, 4, sackOf(cfg, 4, 0, 2)).L("dup"), // the same ACK again
			idle(4),
			ackOf(c, base+2, 1, 6, sackOf(cfg, 6, 2)).L("stale1"), // ack1 replayed
			idle(4),
			ackOf(c, base+4, 2, 2, sackOf(cfg, 2)).L("stale2"), // older than ack2 on path 2, cum behind una
			idle(4),
			ackOf(c, base+10, 3, 2, sackOf(cfg, 2)).L("fin"), // both resends on path 3 arrived: all done
			idle(6),
			ackOf(c, base+10, 0, 1, sackOf(cfg, 1)).L("fin2"), // path 0's resend: path part only
			idle(8))
	},
	Expect: func(cfg config.Config, t *Trace) []Expect {
		m := &t.Marks
		c := uint32(cfg.Conns - 1)
		const base = 1000
		a1, a2, fin, fin2 := m.C("ack1"), m.C("ack2"), m.C("fin"), m.C("fin2")
		want := append(newAll(m, "tx", 0, 10, c, base, split(1, 6, 2), 0x100, 9, only(9)),
			retxPkt(a1+5, c, base+2, 3, 0, 0x102, false, false, 1),
			retxPkt(a2+5, c, base+6, 3, 1, 0x106, false, false, 1),
			retxPkt(a2+6, c, base+8, 0, 0, 0x108, false, false, 1))
		e := []Expect{
			is("tx0 handshake (cycle after the open)", m.C("tx0"), m.C("open")+1),
			inARow("tx", 0, 10),
			pktsAre("m_pkt", want),
			holds("m_pkt_valid low between the ACK and its retransmission", a1+1, a1+4, noPkt),
			holds("s_path_ready low while the hole is looked up", a1+1, a1+3, noPath),
			is("s_path_ready at ack1+4 (the send)", t.Out(a1+4).PathReady, true),
			preqAt(a1+4, true, c, true, 1),
			preqAt(a2+4, true, c, true, 2),
			preqAt(a2+5, true, c, true, 2),
			preqAt(a2+6, false, 0, false, 0),
			is("cnt_retx_loss at ack1+4", t.Out(a1+4).CntRetxLoss, 0),
			is("cnt_retx_loss at ack1+5", t.Out(a1+5).CntRetxLoss, 1),
			is("cnt_retx_loss at ack2+6", t.Out(a2+6).CntRetxLoss, 3),
			fbsAre("m_fb", []FbEv{
				fbEv(a1+3, c, 1, fbDeliv, 5), fbEv(a1+4, c, 1, fbLoss, 1),
				fbEv(a2+3, c, 2, fbDeliv, 2), fbEv(a2+4, c, 2, fbLoss, 2),
				fbEv(fin+3, c, 3, fbDeliv, 2), fbEv(fin2+3, c, 0, fbDeliv, 1)}),
		}
		for i, l := range []string{"dup", "stale1", "stale2"} {
			a := m.C(l)
			e = append(e,
				is(lbl("cnt_ack_ignored at %s+1 (processing)", l), t.Out(a+1).CntAckIgnored, uint32(i)),
				is(lbl("cnt_ack_ignored at %s+2", l), t.Out(a+2).CntAckIgnored, uint32(i+1)))
		}
		return append(e,
			is("cnt_ack_ignored after ack1/ack2 (both changed something)", t.Out(m.C("dup")).CntAckIgnored, 0),
			is("cnt_ack_ignored after fin/fin2 (progress, path part)", t.Last().CntAckIgnored, 3),
			countersAtEnd([8]uint32{10, 3, 0, 0, 0, 0, 0, 3}))
	},
}

// windowFull: s_tx_ready drops exactly with WINDOW PSNs outstanding; the filling packet asks for an ACK; a
// cumulative ACK taken at t lets the held packet in at t+2.
var windowFull = Script{
	Name: "window_full",
	Doc: "WINDOW packets back to back: s_tx_ready low exactly while WINDOW PSNs are outstanding, ack_req on the " +
		"filling packet, cumulative ACK at t lets the next in at t+2",
	Cycles: func(cfg config.Config) int64 { return int64(2*cfg.Window + 300) },
	Steps: func(cfg config.Config) []Item {
		const c, base = 0, 500
		w := cfg.Window
		return table(
			open(c, base).L("open"), path(0),
			txs("tx", 0, w, c, 0x100, -1),
			async(tx(c, 0x100+uint32(w), false, false)).L(lbl("tx%d", w)), // waits for room
			idle(20),
			ackOf(c, base+3, 0, 3, sackOf(cfg, 3)).L("ack1"), // 3 PSNs of room
			txs("tx", w+1, w+3, c, 0x100, -1),                // the second fills the window again
			async(tx(c, 0x100+uint32(w+3), false, true)).L(lbl("tx%d", w+3)),
			idle(10),
			ackOf(c, psnAt(base, w+3), 0, uint32(w+3), sackOf(cfg, uint32(w+3))).L("ack2"),
			idle(6),
			ackOf(c, psnAt(base, w+4), 0, uint32(w+4), sackOf(cfg, uint32(w+4))).L("fin"),
			idle(8))
	},
	Expect: func(cfg config.Config, t *Trace) []Expect {
		m := &t.Marks
		const c, base = 0, 500
		w := cfg.Window
		a1, a2, fin := m.C("ack1"), m.C("ack2"), m.C("fin")
		full := m.C(lbl("tx%d", w-1))
		low := func(in retx.In, o retx.Out) bool { return in.TxValid && !o.TxReady && !o.PathReady && !o.PreqValid }
		return []Expect{
			is("tx0 handshake", m.C("tx0"), m.C("open")+1),
			inARow("tx", 0, w),
			is(lbl("tx%d taken (window reopened by ack1 at t: t+2)", w), m.C(lbl("tx%d", w)), a1+2),
			is(lbl("tx%d taken", w+1), m.C(lbl("tx%d", w+1)), a1+3),
			is(lbl("tx%d taken", w+2), m.C(lbl("tx%d", w+2)), a1+4),
			is(lbl("tx%d taken (ack2 at t: t+2)", w+3), m.C(lbl("tx%d", w+3)), a2+2),
			holds("window full: s_tx_valid held, s_tx_ready, s_path_ready and m_preq_valid low", full+1, a1+1, low),
			holds("window full again: s_tx_ready low", m.C(lbl("tx%d", w+2))+1, a2+1, low),
			is(lbl("s_tx_ready with %d outstanding (tx%d)", w-1, w-1), t.Out(full).TxReady, true),
			pktsAre("m_pkt", newAll(m, "tx", 0, w+4, c, base, onPath(0), 0x100, w+3, only(w-1, w+2, w+3))),
			fbsAre("m_fb", []FbEv{fbEv(a1+3, c, 0, fbDeliv, 3), fbEv(a2+3, c, 0, fbDeliv, region(cfg, w)),
				fbEv(fin+3, c, 0, fbDeliv, 1)}),
			countersAtEnd([8]uint32{uint32(w + 4), 0, 0, 0, 0, 0, 0, 0}),
		}
	},
}

// sackAllLost: one ACK reports every path sequence of a full region lost (the widest hole mask), across the PSN
// wrap: every hole is resent, oldest first, one per cycle from handshake+5, with one loss feedback of the whole
// region.
var sackAllLost = Script{
	Name: "sack_all_lost",
	Doc: "one ACK with min(WINDOW, SACK_BITS, 255) path sequences all lost across the PSN wrap: every hole resent " +
		"oldest first, one per cycle from handshake+5, one loss feedback of the region",
	Cycles: func(cfg config.Config) int64 { return int64(3*allLostN(cfg) + 300) },
	Steps: func(cfg config.Config) []Item {
		const c, base = 2, psnMask - 9
		n := allLostN(cfg)
		return table(
			open(c, base).L("open"), path(1),
			txs("tx", 0, n, c, 0x300, -1),
			path(2),
			ackOf(c, base, 1, uint32(n), sackOf(cfg, uint32(n), upTo(n)...)).L("ack"),
			idle(n+12),
			ackOf(c, psnAt(base, n), 2, uint32(n), sackOf(cfg, uint32(n))).L("fin"),
			idle(8))
	},
	Expect: func(cfg config.Config, t *Trace) []Expect {
		m := &t.Marks
		const c, base = 2, psnMask - 9
		n := allLostN(cfg)
		a := m.C("ack")
		want := newAll(m, "tx", 0, n, c, base, onPath(1), 0x300, -1, only(cfg.Window-1))
		for i := 0; i < n; i++ {
			q := uint32(i)
			want = append(want, retxPkt(a+5+int64(i), c, psnAt(base, i), 2, q, 0x300+q, i == 0, false, 1))
		}
		return []Expect{
			inARow("tx", 0, n),
			pktsAre("m_pkt", want),
			fbsAre("m_fb", []FbEv{fbEv(a+3, c, 1, fbLoss, uint32(n)), fbEv(m.C("fin")+3, c, 2, fbDeliv, uint32(n))}),
			countersAtEnd([8]uint32{uint32(n), uint32(n), 0, 0, 0, 0, 0, 0}),
		}
	},
}

// allLostN is the region of sack_all_lost: the most path sequences one ACK can report (min(SACK_BITS, 255)) that
// fit in the window.
func allLostN(cfg config.Config) int { return min(cfg.Window, cfg.SackBits, 255) }

// sackRegion: an ACK whose path part newly covers more than the bitmap: only the newest min(d, SACK_BITS, 255)
// path sequences are reported (delivered / lost) and only their holes are resent.
var sackRegion = Script{
	Name: "sack_region",
	Doc: "path part newer by WINDOW+8 > SACK_BITS: region min(d, SACK_BITS, 255): the bitmap's oldest holes " +
		"resent only inside it, counts from it",
	Cycles: func(cfg config.Config) int64 { return int64(2*cfg.Window + 300) },
	Steps: func(cfg config.Config) []Item {
		const c, base = 1, 2000
		w := cfg.Window
		n, r := uint32(w+8), uint32(len(regionResent(cfg)))
		return table(
			open(c, base).L("open"), path(1),
			txs("tx", 0, w, c, 0x200, -1),
			// cumulative progress by 8 with a path part that changes nothing (path 2 never carried a packet)
			ackOf(c, base+8, 2, 0, sackOf(cfg, 0)).L("cum"),
			txs("tx", w, w+8, c, 0x200, -1),
			path(2),
			ackOf(c, base+8, 1, n, sackOf(cfg, n, regionLost(cfg, n)...)).L("ack"),
			idle(12),
			ackOf(c, psnAt(base, w+8), 2, r, sackOf(cfg, r)).L("fin"),
			idle(8))
	},
	Expect: func(cfg config.Config, t *Trace) []Expect {
		m := &t.Marks
		const c, base = 1, 2000
		w := cfg.Window
		a := m.C("ack")
		want := newAll(m, "tx", 0, w+8, c, base, onPath(1), 0x200, -1, only(w-1, w+7))
		resent := regionResent(cfg)
		for i, b := range resent {
			q := uint32(w+8) - 1 - uint32(b)
			want = append(want, retxPkt(a+5+int64(i), c, base+q, 2, uint32(i), 0x200+q, false, false, 1))
		}
		r, loss := region(cfg, w+8), uint32(len(resent))
		return []Expect{
			inARow("tx", 0, w),
			inARow("tx", w, w+8),
			is("tx after the cumulative ACK (t+2)", m.C(lbl("tx%d", w)), m.C("cum")+2),
			pktsAre("m_pkt", want),
			fbsAre("m_fb", []FbEv{fbEv(a+3, c, 1, fbDeliv, r-loss), fbEv(a+4, c, 1, fbLoss, loss),
				fbEv(m.C("fin")+3, c, 2, fbDeliv, loss)}),
			countersAtEnd([8]uint32{uint32(w + 8), loss, 0, 0, 0, 0, 0, 0}),
		}
	},
}

// regionBits are the SACK bits sack_region reports lost: the two oldest of the bitmap and the newest.
func regionBits(cfg config.Config) []int { return []int{cfg.SackBits - 1, cfg.SackBits - 2, 0} }

// regionLost are those bits as path sequences of an ACK reporting up to n-1.
func regionLost(cfg config.Config, n uint32) []uint32 {
	var q []uint32
	for _, b := range regionBits(cfg) {
		q = append(q, n-1-uint32(b))
	}
	return q
}

// regionResent are the lost bits inside the region of sack_region's ACK (d = WINDOW+8), oldest first.
func regionResent(cfg config.Config) []int {
	r := int(region(cfg, cfg.Window+8))
	var b []int
	for _, x := range regionBits(cfg) {
		if x < r {
			b = append(b, x)
		}
	}
	return b
}

// wrapScript: PSNs, SACK holes, window and cumulative ACKs across 2^24.
var wrapScript = Script{
	Name: "wrap",
	Doc: "open at 2^24-3: holes at 0xFFFFFF and 0x000001 resent in order, window filled across the wrap, " +
		"cumulative ACK across the wrap frees it",
	Cycles: func(cfg config.Config) int64 { return int64(2*cfg.Window + 300) },
	Steps: func(cfg config.Config) []Item {
		c := uint32(cfg.Conns / 2)
		const base = 1<<24 - 3
		w := cfg.Window
		return table(
			open(c, base).L("open"), path(1),
			txs("tx", 0, 8, c, 0x80, -1),
			path(3),
			// path 1 sequences 2 (0xFFFFFF) and 4 (0x000001) lost: cum 0xFFFFFF
			ackOf(c, psnAt(base, 2), 1, 8, sackOf(cfg, 8, 2, 4)).L("ack1"),
			idle(10), path(0),
			txs("tx", 8, w+2, c, 0x80, -1),
			async(tx(c, 0x80+uint32(w+2), false, true)).L(lbl("tx%d", w+2)),
			idle(10),
			ackOf(c, psnAt(base, 8), 3, 2, sackOf(cfg, 2)).L("ack2"), // cum 0xFFFFFF -> 0x000005
			idle(6),
			ackOf(c, psnAt(base, 2), 1, 8, sackOf(cfg, 8, 2, 4)).L("stale"), // ack1 again, from behind the wrap
			idle(4),
			ackOf(c, psnAt(base, w+3), 0, uint32(w-5), sackOf(cfg, uint32(w-5))).L("fin"),
			idle(8))
	},
	Expect: func(cfg config.Config, t *Trace) []Expect {
		m := &t.Marks
		c := uint32(cfg.Conns / 2)
		const base = 1<<24 - 3
		w := cfg.Window
		a1, a2 := m.C("ack1"), m.C("ack2")
		pq, req := split(1, 8, 0), only(w+1, w+2)
		want := append(newAll(m, "tx", 0, 8, c, base, pq, 0x80, w+2, req),
			retxPkt(a1+5, c, 0xFFFFFF, 3, 0, 0x82, false, false, 1),
			retxPkt(a1+6, c, 0x000001, 3, 1, 0x84, false, false, 1))
		want = append(want, newAll(m, "tx", 8, w+3, c, base, pq, 0x80, w+2, req)...)
		held := func(in retx.In, o retx.Out) bool { return in.TxValid && !o.TxReady && !o.PreqValid }
		return []Expect{
			inARow("tx", 0, 8),
			inARow("tx", 8, w+2),
			pktsAre("m_pkt", want),
			is(lbl("tx%d taken (ack2 at t: t+2)", w+2), m.C(lbl("tx%d", w+2)), a2+2),
			holds("window full across the wrap: s_tx_ready low", m.C(lbl("tx%d", w+1))+1, a2+1, held),
			fbsAre("m_fb", []FbEv{fbEv(a1+3, c, 1, fbDeliv, 6), fbEv(a1+4, c, 1, fbLoss, 2),
				fbEv(a2+3, c, 3, fbDeliv, 2), fbEv(m.C("fin")+3, c, 0, fbDeliv, region(cfg, w-5))}),
			is("cnt_ack_ignored after the stale ACK", t.Out(m.C("stale")+2).CntAckIgnored, 1),
			countersAtEnd([8]uint32{uint32(w + 3), 2, 0, 0, 0, 0, 0, 1}),
		}
	},
}
