package retxtraffic

import (
	"fmt"

	"github.com/spraynic/spraynic/config"
	"github.com/spraynic/spraynic/golden/retx"
)

// The directed scripts: one rule of docs/retx.md each, with the exact outcome on the ports. Every script opens its
// connections in cycle 2 (after the two reset cycles every run begins with), so the timer visits connection c in
// the cycles 2 + c + k*TICK_CYCLES. Expected cycles are derived from the labelled handshakes and the
// configuration; every script ends with nothing outstanding on an open, healthy connection.

const (
	fbDeliv   = retx.FbDelivered
	fbLoss    = retx.FbLoss
	fbTimeout = retx.FbTimeout
)

func lbl(f string, a ...any) string { return fmt.Sprintf(f, a...) }

// newAll returns the expected transfers of new packets labelled name0.. for k in [from, to): conn c, PSN
// base+k, path and path sequence from pq, handle h+k, first on from==0 && k==0, last on k == last, ack_req on the
// ks in req.
func newAll(m *Marks, name string, from, to int, c, base uint32, pq func(k int) (uint32, uint32), h uint32, last int, req func(k int) bool) []PktEv {
	var w []PktEv
	for k := from; k < to; k++ {
		p, q := pq(k)
		w = append(w, newPkt(m.C(lbl("%s%d", name, k)), c, psnAt(base, k), p, q, h+uint32(k), k == 0, k == last, req(k)))
	}
	return w
}

// consecutive checks that the steps name<from>..name<to-1> shook hands in consecutive cycles.
func (k *checker) consecutive(m *Marks, name string, from, to int) {
	for i := from + 1; i < to; i++ {
		eq(k, lbl("s_tx handshake of %s%d (one new packet per cycle)", name, i), m.C(lbl("%s%d", name, i)), m.C(lbl("%s%d", name, from))+int64(i-from))
	}
}

func init() {
	// sack_hole: SACK holes are retransmitted exactly, oldest first, 5 cycles after the ACK handshake, with a fresh
	// path sequence on the offered path; duplicate and stale ACKs change nothing but cnt_ack_ignored.
	scripts["sack_hole"] = Script{Name: "sack_hole",
		Doc:    "SACK with one hole, then two holes: exactly the lost PSNs resent oldest first at handshake+5 on fresh path sequences, feedback counts; duplicate and stale ACKs only count as ignored",
		Cycles: func(cfg config.Config) int64 { return 400 },
		Build: func(cfg config.Config) []Item {
			c := uint32(cfg.Conns - 1)
			const base = 1000
			it := []Item{open(c, base).L("open"), path(1)}
			for k := 0; k < 10; k++ {
				if k == 6 {
					it = append(it, path(2))
				}
				it = append(it, tx(c, 0x100+uint32(k), k == 0, k == 9).L(lbl("tx%d", k)))
			}
			return append(it, path(3),
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
		Check: func(cfg config.Config, t *Trace) error {
			k := &checker{}
			m := &t.Marks
			c := uint32(cfg.Conns - 1)
			const base = 1000
			eq(k, "tx0 handshake (cycle after the open)", m.C("tx0"), m.C("open")+1)
			k.consecutive(m, "tx", 0, 10)
			want := newAll(m, "tx", 0, 10, c, base, func(k int) (uint32, uint32) {
				if k < 6 {
					return 1, uint32(k)
				}
				return 2, uint32(k - 6)
			}, 0x100, 9, func(k int) bool { return k == 9 })
			a1, a2 := m.C("ack1"), m.C("ack2")
			want = append(want,
				retxPkt(a1+5, c, base+2, 3, 0, 0x102, false, false, 1),
				retxPkt(a2+5, c, base+6, 3, 1, 0x106, false, false, 1),
				retxPkt(a2+6, c, base+8, 0, 0, 0x108, false, false, 1))
			k.pkts("m_pkt", t.Pkts, want)
			k.level(t, "m_pkt_valid low between the ACK and its retransmission", a1+1, a1+4, func(_ retx.In, o retx.Out) bool { return !o.PktValid })
			k.level(t, "s_path_ready low while the hole is looked up", a1+1, a1+3, func(_ retx.In, o retx.Out) bool { return !o.PathReady })
			eq(k, "s_path_ready at ack1+4 (the send)", t.Out(a1+4).PathReady, true)
			k.preq(t, a1+4, true, c, true, 1)
			k.preq(t, a2+4, true, c, true, 2)
			k.preq(t, a2+5, true, c, true, 2)
			k.preq(t, a2+6, false, 0, false, 0)
			eq(k, "cnt_retx_loss at ack1+4", t.Out(a1+4).CntRetxLoss, 0)
			eq(k, "cnt_retx_loss at ack1+5", t.Out(a1+5).CntRetxLoss, 1)
			eq(k, "cnt_retx_loss at ack2+6", t.Out(a2+6).CntRetxLoss, 3)
			fin, fin2 := m.C("fin"), m.C("fin2")
			k.fbs("m_fb", t.Fbs, []FbEv{
				fbEv(a1+3, c, 1, fbDeliv, 5), fbEv(a1+4, c, 1, fbLoss, 1),
				fbEv(a2+3, c, 2, fbDeliv, 2), fbEv(a2+4, c, 2, fbLoss, 2),
				fbEv(fin+3, c, 3, fbDeliv, 2), fbEv(fin2+3, c, 0, fbDeliv, 1)})
			for i, l := range []string{"dup", "stale1", "stale2"} {
				a := m.C(l)
				eq(k, lbl("cnt_ack_ignored at %s+1 (processing)", l), t.Out(a+1).CntAckIgnored, uint32(i))
				eq(k, lbl("cnt_ack_ignored at %s+2", l), t.Out(a+2).CntAckIgnored, uint32(i+1))
			}
			eq(k, "cnt_ack_ignored after ack1/ack2 (both changed something)", t.Out(m.C("dup")).CntAckIgnored, 0)
			eq(k, "cnt_ack_ignored after fin/fin2 (progress, path part)", t.Last().CntAckIgnored, 3)
			k.counters(t, int64(len(t.Outs))-1, [8]uint32{10, 3, 0, 0, 0, 0, 0, 3})
			return k.err()
		},
	}

	// window_full: s_tx_ready drops exactly with WINDOW PSNs outstanding; the filling packet asks for an ACK; a
	// cumulative ACK taken at t lets the held packet in at t+2.
	scripts["window_full"] = Script{Name: "window_full",
		Doc:    "WINDOW packets back to back: s_tx_ready low exactly while WINDOW PSNs are outstanding, ack_req on the filling packet, cumulative ACK at t lets the next in at t+2",
		Cycles: func(cfg config.Config) int64 { return int64(2*cfg.Window + 300) },
		Build: func(cfg config.Config) []Item {
			const c, base = 0, 500
			w := cfg.Window
			it := []Item{open(c, base).L("open"), path(0)}
			for k := 0; k < w; k++ {
				it = append(it, tx(c, 0x100+uint32(k), k == 0, false).L(lbl("tx%d", k)))
			}
			return append(it,
				async(tx(c, 0x100+uint32(w), false, false)).L(lbl("tx%d", w)), // waits for room
				idle(20),
				ackOf(c, base+3, 0, 3, sackOf(cfg, 3)).L("ack1"), // 3 PSNs of room
				tx(c, 0x100+uint32(w+1), false, false).L(lbl("tx%d", w+1)),
				tx(c, 0x100+uint32(w+2), false, false).L(lbl("tx%d", w+2)), // fills the window again
				async(tx(c, 0x100+uint32(w+3), false, true)).L(lbl("tx%d", w+3)),
				idle(10),
				ackOf(c, psnAt(base, w+3), 0, uint32(w+3), sackOf(cfg, uint32(w+3))).L("ack2"),
				idle(6),
				ackOf(c, psnAt(base, w+4), 0, uint32(w+4), sackOf(cfg, uint32(w+4))).L("fin"),
				idle(8))
		},
		Check: func(cfg config.Config, t *Trace) error {
			k := &checker{}
			m := &t.Marks
			const c, base = 0, 500
			w := cfg.Window
			eq(k, "tx0 handshake", m.C("tx0"), m.C("open")+1)
			k.consecutive(m, "tx", 0, w)
			a1, a2 := m.C("ack1"), m.C("ack2")
			full := m.C(lbl("tx%d", w-1))
			eq(k, lbl("tx%d taken (window reopened by ack1 at t: t+2)", w), m.C(lbl("tx%d", w)), a1+2)
			eq(k, lbl("tx%d taken", w+1), m.C(lbl("tx%d", w+1)), a1+3)
			eq(k, lbl("tx%d taken", w+2), m.C(lbl("tx%d", w+2)), a1+4)
			eq(k, lbl("tx%d taken (ack2 at t: t+2)", w+3), m.C(lbl("tx%d", w+3)), a2+2)
			low := func(in retx.In, o retx.Out) bool { return in.TxValid && !o.TxReady && !o.PathReady && !o.PreqValid }
			k.level(t, "window full: s_tx_valid held, s_tx_ready, s_path_ready and m_preq_valid low", full+1, a1+1, low)
			k.level(t, "window full again: s_tx_ready low", m.C(lbl("tx%d", w+2))+1, a2+1, low)
			eq(k, lbl("s_tx_ready with %d outstanding (tx%d)", w-1, w-1), t.Out(full).TxReady, true)
			k.pkts("m_pkt", t.Pkts, newAll(m, "tx", 0, w+4, c, base, func(k int) (uint32, uint32) { return 0, uint32(k) },
				0x100, w+3, func(k int) bool { return k == w-1 || k == w+2 || k == w+3 }))
			fin := m.C("fin")
			k.fbs("m_fb", t.Fbs, []FbEv{fbEv(a1+3, c, 0, fbDeliv, 3), fbEv(a2+3, c, 0, fbDeliv, region(cfg, w)), fbEv(fin+3, c, 0, fbDeliv, 1)})
			k.counters(t, int64(len(t.Outs))-1, [8]uint32{uint32(w + 4), 0, 0, 0, 0, 0, 0, 0})
			return k.err()
		},
	}

	// rto_backoff: the RTO resends the oldest PSN at the expiries (the RTO_TICKS-th visit after the restart, then
	// every doubled limit up to RTO_MAX_TICKS); progress processed in the cycle of an expiry visit discards the
	// visit and puts the limit back to RTO_TICKS.
	scripts["rto_backoff"] = Script{Name: "rto_backoff",
		Doc:    "no ACKs: RTO resends of the oldest PSN at the visit cycles, intervals doubling to RTO_MAX_TICKS; progress processed at an expiry visit discards it and resets the backoff",
		Cycles: func(cfg config.Config) int64 { return rtoBackoffTimes(cfg, 3).fin + 300 },
		Build: func(cfg config.Config) []Item {
			c := rtoConn(cfg)
			const base = 7000
			kk := backoffSteps(cfg)
			return []Item{open(c, base).L("open"), path(2),
				tx(c, 0x71, true, false).L("tx0"), tx(c, 0x72, false, true).L("tx1"),
				path(1),
				at(func(m *Marks) int64 { return rtoBackoffTimes(cfg, m.C("tx0")).e[kk] - 1 }),
				// every resend of base arrived on path 1; base+1 did not: processed in the expiry cycle e[kk]
				ackOf(c, base+1, 1, uint32(kk), sackOf(cfg, uint32(kk))).L("ack"),
				at(func(m *Marks) int64 { return rtoBackoffTimes(cfg, m.C("tx0")).fin }),
				ackOf(c, base+2, 1, uint32(kk+1), sackOf(cfg, uint32(kk+1))).L("fin"),
				idle(8)}
		},
		Check: func(cfg config.Config, t *Trace) error {
			k := &checker{}
			m := &t.Marks
			c := rtoConn(cfg)
			const base = 7000
			kk := backoffSteps(cfg)
			eq(k, "tx0 handshake", m.C("tx0"), m.C("open")+1)
			eq(k, "tx1 handshake", m.C("tx1"), m.C("tx0")+1)
			rt := rtoBackoffTimes(cfg, m.C("tx0"))
			e := rt.e
			eq(k, "ack taken the cycle before the expiry visit", m.C("ack"), e[kk]-1)
			want := []PktEv{newPkt(m.C("tx0"), c, base, 2, 0, 0x71, true, false, false), newPkt(m.C("tx1"), c, base+1, 2, 1, 0x72, false, true, true)}
			var fbs []FbEv
			for i := 0; i < kk; i++ {
				avoid := uint32(1)
				if i == 0 {
					avoid = 2
				}
				want = append(want, retxPkt(e[i]+4, c, base, 1, uint32(i), 0x71, true, false, uint32(i+1)))
				fbs = append(fbs, fbEv(e[i]+5, c, avoid, fbTimeout, 1))
				k.preq(t, e[i]+3, true, c, true, avoid)
				eq(k, lbl("cnt_timeouts at expiry %d (cycle %d)", i+1, e[i]), t.Out(e[i]).CntTimeouts, uint32(i))
				eq(k, lbl("cnt_timeouts after expiry %d (cycle %d)", i+1, e[i]+1), t.Out(e[i]+1).CntTimeouts, uint32(i+1))
				if i > 0 {
					eq(k, lbl("interval expiry %d -> %d (cycles)", i, i+1), e[i]-e[i-1], limits(cfg, i+1)[i]*int64(cfg.TickCycles))
				}
			}
			ep := rt.ep
			want = append(want, retxPkt(ep+4, c, base+1, 1, uint32(kk), 0x72, false, true, 1))
			k.pkts("m_pkt", t.Pkts, want)
			k.preq(t, ep+3, true, c, true, 2)
			eq(k, "cnt_timeouts after the discarded visit", t.Out(e[kk]+1).CntTimeouts, uint32(kk))
			eq(k, "cnt_timeouts at the expiry after progress", t.Out(ep).CntTimeouts, uint32(kk))
			eq(k, "cnt_timeouts after the expiry after progress (RTO_TICKS after it)", t.Out(ep+1).CntTimeouts, uint32(kk+1))
			fbs = append(fbs, fbEv(m.C("ack")+3, c, 1, fbDeliv, uint32(kk)), fbEv(ep+5, c, 2, fbTimeout, 1), fbEv(m.C("fin")+3, c, 1, fbDeliv, 1))
			k.fbs("m_fb", t.Fbs, fbs)
			k.counters(t, int64(len(t.Outs))-1, [8]uint32{2, 0, uint32(kk + 1), 0, uint32(kk + 1), 0, 0, 0})
			return k.err()
		},
	}

	// max_retries: the expiry after the MAX_RETRIES-th resend errors the connection (one m_err pulse); its s_tx is
	// dropped, its ACKs ignored, its timer stopped; a reopen makes it work again.
	scripts["max_retries"] = Script{Name: "max_retries",
		Doc:    "MAX_RETRIES RTO resends, then the next expiry: one m_err pulse, cnt_errors 1, s_tx dropped, ACK ignored, timer stopped; reopen and it works again",
		Cycles: func(cfg config.Config) int64 { return maxRetriesQuiet(cfg, 3) + 400 },
		Build: func(cfg config.Config) []Item {
			c := errConn(cfg)
			const base = 0x123456
			mr := cfg.MaxRetries
			return []Item{open(c, base).L("open"), path(0),
				tx(c, 0x5A, true, true).L("tx0"),
				path(1),
				at(func(m *Marks) int64 { return errExpiries(cfg, m.C("tx0"))[mr] + 10 }),
				tx(c, 0x77, true, true).L("drop"),
				idle(2),
				ackOf(c, base+1, 1, uint32(mr), sackOf(cfg, uint32(mr))).L("ackerr"),
				at(func(m *Marks) int64 { return maxRetriesQuiet(cfg, m.C("tx0")) }),
				open(c, 42).L("reopen"),
				tx(c, 0x11, true, false).L("n0"), tx(c, 0x12, false, true).L("n1"),
				idle(4),
				ackOf(c, 44, 1, 2, sackOf(cfg, 2)).L("fin"),
				idle(8)}
		},
		Check: func(cfg config.Config, t *Trace) error {
			k := &checker{}
			m := &t.Marks
			c := errConn(cfg)
			const base = 0x123456
			mr := cfg.MaxRetries
			e := errExpiries(cfg, m.C("tx0"))
			ee := e[mr]
			want := []PktEv{newPkt(m.C("tx0"), c, base, 0, 0, 0x5A, true, true, true)}
			var fbs []FbEv
			for i := 0; i < mr; i++ {
				avoid := uint32(1)
				if i == 0 {
					avoid = 0
				}
				want = append(want, retxPkt(e[i]+4, c, base, 1, uint32(i), 0x5A, true, true, uint32(i+1)))
				fbs = append(fbs, fbEv(e[i]+5, c, avoid, fbTimeout, 1))
			}
			want = append(want, newPkt(m.C("n0"), c, 42, 1, 0, 0x11, true, false, false), newPkt(m.C("n1"), c, 43, 1, 1, 0x12, false, true, true))
			k.pkts("m_pkt", t.Pkts, want)
			eq(k, "m_err pulses", fmt.Sprint(t.Errs), fmt.Sprint([]ErrEv{{At: ee + 4, Conn: c}}))
			eq(k, "cnt_timeouts after the last expiry", t.Out(ee+1).CntTimeouts, uint32(mr+1))
			eq(k, "cnt_errors at error+3 (l2_err cycle)", t.Out(ee+3).CntErrors, 0)
			eq(k, "cnt_errors with m_err", t.Out(ee+4).CntErrors, 1)
			k.preq(t, ee+3, false, 0, false, 0)
			re := m.C("reopen")
			k.level(t, "nothing sent from the error to the reopen", ee+1, re, func(_ retx.In, o retx.Out) bool { return !o.PathReady })
			eq(k, "cnt_timeouts at the reopen (timer stopped)", t.Out(re).CntTimeouts, uint32(mr+1))
			dr := m.C("drop")
			eq(k, "s_tx for the errored connection taken at once", dr, ee+10)
			eq(k, "dropped s_tx takes no path", t.Out(dr).PathReady || t.Out(dr).PreqValid, false)
			eq(k, "cnt_tx_dropped after the drop", t.Out(dr+1).CntTxDropped, 1)
			eq(k, "cnt_ack_ignored after the ACK of the errored connection", t.Out(m.C("ackerr")+2).CntAckIgnored, 1)
			k.consecutive(m, "n", 0, 2)
			eq(k, "first packet after the reopen", m.C("n0"), re+1)
			fbs = append(fbs, fbEv(m.C("fin")+3, c, 1, fbDeliv, 2))
			k.fbs("m_fb", t.Fbs, fbs)
			k.counters(t, int64(len(t.Outs))-1, [8]uint32{3, 0, uint32(mr), 0, uint32(mr + 1), 1, 1, 1})
			return k.err()
		},
	}

	// gbn_nak: go-back-N: a NAK rewinds to its PSN (resends one per cycle, in order, new packets of the connection
	// held until the rewind ends), a timeout rewinds to una.
	scripts["gbn_nak"] = Script{Name: "gbn_nak", GBN: true,
		Doc:    "go-back-N: NAK taken at t resends from its PSN at t+5, one per cycle, the connection's new packets held until the rewind ends (others not); timeout rewinds from una; no feedback",
		Cycles: func(cfg config.Config) int64 { return int64(cfg.RTOTicks+2)*int64(cfg.TickCycles) + 400 },
		Build: func(cfg config.Config) []Item {
			const c, c2, base = 1, 0, 300
			it := []Item{open(c, base).L("open"), open(c2, 9000).L("open2"), path(0)}
			for k := 0; k < 8; k++ {
				it = append(it, tx(c, 0x30+uint32(k), k == 0, k == 7).L(lbl("tx%d", k)))
			}
			return append(it, path(2),
				nakOf(c, base+3).L("nak"), // 300..302 arrived, 303 did not: cum 303 and a NAK
				after("nak", 2),
				async(tx(c2, 0xC2, true, true)).L("c2tx"), // another connection is not held
				tx(c, 0x38, true, true).L("blocked"),      // offered from nak+3: held by the rewind
				after("blocked", 10),
				ackOf(c2, 9001, 2, 1, sackOf(cfg, 1)).L("ackc2"),
				at(func(m *Marks) int64 { return gbnExpiry(cfg, c, m.C("nak")) + 1 }),
				tx(c, 0x39, true, true).L("blocked2"), // offered during the timeout rewind
				idle(10),
				ackOf(c, base+10, 2, 13, sackOf(cfg, 13)).L("fin"),
				idle(6),
				nakOf(c, base+3).L("stale"), // behind una: ignored
				idle(6))
		},
		Check: func(cfg config.Config, t *Trace) error {
			k := &checker{}
			m := &t.Marks
			const c, c2, base, r = 1, 0, 300, 5
			k.consecutive(m, "tx", 0, 8)
			nk := m.C("nak")
			e := gbnExpiry(cfg, c, nk)
			want := newAll(m, "tx", 0, 8, c, base, func(k int) (uint32, uint32) { return 0, uint32(k) }, 0x30, 7, func(k int) bool { return k == 7 })
			eq(k, "c2 taken at nak+2 (not held by the other connection's rewind)", m.C("c2tx"), nk+2)
			want = append(want, newPkt(nk+2, c2, 9000, 2, 0, 0xC2, true, true, true))
			for i := 0; i < r; i++ {
				want = append(want, retxPkt(nk+5+int64(i), c, base+3+uint32(i), 2, uint32(i), 0x33+uint32(i), false, i == r-1, 1))
			}
			eq(k, "held packet taken when the rewind is over", m.C("blocked"), nk+r+4)
			want = append(want, newPkt(nk+r+4, c, base+8, 2, r, 0x38, true, true, true))
			for i := 0; i <= r; i++ {
				h, first, last, tries := 0x33+uint32(i), false, i == r-1, uint32(2)
				if i == r {
					h, first, last, tries = 0x38, true, true, 1
				}
				want = append(want, retxPkt(e+4+int64(i), c, base+3+uint32(i), 2, r+1+uint32(i), h, first, last, tries))
			}
			eq(k, "packet held by the timeout rewind taken when it is over", m.C("blocked2"), e+r+4)
			want = append(want, newPkt(e+r+4, c, base+9, 2, 2*r+2, 0x39, true, true, true))
			k.pkts("m_pkt", t.Pkts, want)
			held := func(in retx.In, o retx.Out) bool { return in.TxValid && in.TxConn == c && !o.TxReady }
			k.level(t, "s_tx_ready low for the rewinding connection (NAK)", nk+3, nk+r+3, held)
			k.level(t, "s_tx_ready low for the rewinding connection (timeout)", e+1, e+r+3, held)
			eq(k, "cnt_timeouts at the expiry", t.Out(e).CntTimeouts, 0)
			eq(k, "cnt_timeouts after the expiry", t.Out(e+1).CntTimeouts, 1)
			eq(k, "cnt_ack_ignored after the NAK (progress + rewind)", t.Out(nk+2).CntAckIgnored, 0)
			eq(k, "cnt_ack_ignored after the stale NAK", t.Out(m.C("stale")+2).CntAckIgnored, 1)
			k.fbs("m_fb (go-back-N reports nothing)", t.Fbs, nil)
			k.counters(t, int64(len(t.Outs))-1, [8]uint32{11, 0, 0, 2*r + 1, 1, 0, 0, 1})
			return k.err()
		},
	}

	scripts["ctl_flush"] = ctlFlush(false)
	scripts["ctl_flush_held"] = ctlFlush(true)

	// gbn_ack_rewind: go-back-N, a cumulative ACK processed while a rewind runs: behind the ACK the rewind restarts
	// at the new una (lookups already issued for older PSNs are dropped), or ends when nothing is left.
	scripts["gbn_ack_rewind"] = Script{Name: "gbn_ack_rewind", GBN: true,
		Doc:    "go-back-N: a cumulative ACK during a rewind moves it to the new una (older lookups dropped), an ACK of everything ends it and frees the send slot at once",
		Cycles: func(cfg config.Config) int64 { return 300 },
		Build: func(cfg config.Config) []Item {
			const c, base = 1, 400
			it := []Item{open(c, base).L("open"), path(0)}
			for k := 0; k < 16; k++ {
				it = append(it, tx(c, 0x40+uint32(k), k == 0, k == 15).L(lbl("tx%d", k)))
			}
			return append(it, path(2),
				nakOf(c, base+2).L("nak"), // rewind 402..415
				after("nak", 4),
				ackOf(c, base+10, 0, 0, sackOf(cfg, 0)).L("ack"), // processed at nak+5, rewind pointer at 405
				after("nak", 20),
				nakOf(c, base+12).L("nak2"), // rewind 412..415
				after("nak2", 2),
				async(tx(c, 0x70, true, true)).L("new"),
				after("nak2", 3),
				ackOf(c, base+16, 0, 0, sackOf(cfg, 0)).L("ack2"), // everything: the rewind ends at nak2+4
				idle(10),
				ackOf(c, base+17, 0, 0, sackOf(cfg, 0)).L("fin"),
				idle(8))
		},
		Check: func(cfg config.Config, t *Trace) error {
			k := &checker{}
			m := &t.Marks
			const c, base = 1, 400
			k.consecutive(m, "tx", 0, 16)
			nk, nk2 := m.C("nak"), m.C("nak2")
			eq(k, "ack taken", m.C("ack"), nk+4)
			eq(k, "ack2 taken", m.C("ack2"), nk2+3)
			want := newAll(m, "tx", 0, 16, c, base, func(k int) (uint32, uint32) { return 0, uint32(k) }, 0x40, 15, func(k int) bool { return k == 15 })
			// 402 and 403 were looked up before the ACK moved una to 410; 404 (in L2 then) is dropped; the rewind
			// goes on from 410 (issued from nak+6, sent from nak+9).
			want = append(want, retxPkt(nk+5, c, base+2, 2, 0, 0x42, false, false, 1), retxPkt(nk+6, c, base+3, 2, 1, 0x43, false, false, 1))
			for i := 0; i < 6; i++ {
				want = append(want, retxPkt(nk+9+int64(i), c, base+10+uint32(i), 2, 2+uint32(i), 0x4A+uint32(i), false, i == 5, 1))
			}
			// nak2: 412 leaves, 413 (in L2 when ack2 lands) is dropped, and that drop frees the slot for the new packet.
			want = append(want, retxPkt(nk2+5, c, base+12, 2, 8, 0x4C, false, false, 2))
			eq(k, "new packet taken in the cycle the stale lookup is dropped", m.C("new"), nk2+5)
			want = append(want, newPkt(nk2+5, c, base+16, 2, 9, 0x70, true, true, true))
			k.pkts("m_pkt", t.Pkts, want)
			k.level(t, "nothing sent while the rewind moves to the new una", nk+6, nk+7, func(_ retx.In, o retx.Out) bool { return !o.PathReady })
			k.level(t, "new packet held while the rewind runs", nk2+2, nk2+4, func(in retx.In, o retx.Out) bool { return in.TxValid && !o.TxReady })
			k.preq(t, nk2+5, true, c, false, 0)
			k.fbs("m_fb (go-back-N reports nothing)", t.Fbs, nil)
			k.counters(t, int64(len(t.Outs))-1, [8]uint32{17, 0, 0, 9, 0, 0, 0, 0})
			return k.err()
		},
	}

	// sack_all_lost: one ACK reports every path sequence of a full region lost (the widest hole mask), across the
	// PSN wrap: every hole is resent, oldest first, one per cycle from handshake+5, with one loss feedback of the
	// whole region.
	scripts["sack_all_lost"] = Script{Name: "sack_all_lost",
		Doc:    "one ACK with min(WINDOW, SACK_BITS, 255) path sequences all lost across the PSN wrap: every hole resent oldest first, one per cycle from handshake+5, one loss feedback of the region",
		Cycles: func(cfg config.Config) int64 { return int64(3*allLostN(cfg) + 300) },
		Build: func(cfg config.Config) []Item {
			const c, base = 2, psnMask - 9
			n := allLostN(cfg)
			it := []Item{open(c, base).L("open"), path(1)}
			for k := 0; k < n; k++ {
				it = append(it, tx(c, 0x300+uint32(k), k == 0, false).L(lbl("tx%d", k)))
			}
			all := make([]uint32, n)
			for q := range all {
				all[q] = uint32(q)
			}
			return append(it, path(2),
				ackOf(c, base, 1, uint32(n), sackOf(cfg, uint32(n), all...)).L("ack"),
				idle(n+12),
				ackOf(c, psnAt(base, n), 2, uint32(n), sackOf(cfg, uint32(n))).L("fin"),
				idle(8))
		},
		Check: func(cfg config.Config, t *Trace) error {
			k := &checker{}
			m := &t.Marks
			const c, base = 2, psnMask - 9
			n := allLostN(cfg)
			k.consecutive(m, "tx", 0, n)
			want := newAll(m, "tx", 0, n, c, base, func(k int) (uint32, uint32) { return 1, uint32(k) }, 0x300, -1,
				func(k int) bool { return k == cfg.Window-1 })
			a := m.C("ack")
			for i := 0; i < n; i++ {
				want = append(want, retxPkt(a+5+int64(i), c, psnAt(base, i), 2, uint32(i), 0x300+uint32(i), i == 0, false, 1))
			}
			k.pkts("m_pkt", t.Pkts, want)
			k.fbs("m_fb", t.Fbs, []FbEv{fbEv(a+3, c, 1, fbLoss, uint32(n)), fbEv(m.C("fin")+3, c, 2, fbDeliv, uint32(n))})
			k.counters(t, int64(len(t.Outs))-1, [8]uint32{uint32(n), uint32(n), 0, 0, 0, 0, 0, 0})
			return k.err()
		},
	}

	// sack_region: an ACK whose path part newly covers more than the bitmap: only the newest min(d, SACK_BITS, 255)
	// path sequences are reported (delivered / lost) and only their holes are resent.
	scripts["sack_region"] = Script{Name: "sack_region",
		Doc:    "path part newer by WINDOW+8 > SACK_BITS: region min(d, SACK_BITS, 255): the bitmap's oldest holes resent only inside it, counts from it",
		Cycles: func(cfg config.Config) int64 { return int64(2*cfg.Window + 300) },
		Build: func(cfg config.Config) []Item {
			const c, base = 1, 2000
			w := cfg.Window
			it := []Item{open(c, base).L("open"), path(1)}
			for k := 0; k < w; k++ {
				it = append(it, tx(c, 0x200+uint32(k), k == 0, false).L(lbl("tx%d", k)))
			}
			// cumulative progress by 8 with a path part that changes nothing (path 2 never carried a packet)
			it = append(it, ackOf(c, base+8, 2, 0, sackOf(cfg, 0)).L("cum"))
			for k := w; k < w+8; k++ {
				it = append(it, tx(c, 0x200+uint32(k), false, false).L(lbl("tx%d", k)))
			}
			n := uint32(w + 8)
			return append(it, path(2),
				ackOf(c, base+8, 1, n, sackOf(cfg, n, regionLost(cfg, n)...)).L("ack"),
				idle(12),
				ackOf(c, psnAt(base, w+8), 2, uint32(len(regionResent(cfg))), sackOf(cfg, uint32(len(regionResent(cfg))))).L("fin"),
				idle(8))
		},
		Check: func(cfg config.Config, t *Trace) error {
			k := &checker{}
			m := &t.Marks
			const c, base = 1, 2000
			w := cfg.Window
			k.consecutive(m, "tx", 0, w)
			k.consecutive(m, "tx", w, w+8)
			eq(k, "tx after the cumulative ACK (t+2)", m.C(lbl("tx%d", w)), m.C("cum")+2)
			req := func(k int) bool { return k == w-1 || k == w+7 }
			want := newAll(m, "tx", 0, w+8, c, base, func(k int) (uint32, uint32) { return 1, uint32(k) }, 0x200, -1, req)
			a := m.C("ack")
			resent := regionResent(cfg)
			for i, b := range resent {
				q := uint32(w+8) - 1 - uint32(b)
				want = append(want, retxPkt(a+5+int64(i), c, base+q, 2, uint32(i), 0x200+q, false, false, 1))
			}
			k.pkts("m_pkt", t.Pkts, want)
			r := region(cfg, w+8)
			loss := uint32(len(resent))
			k.fbs("m_fb", t.Fbs, []FbEv{fbEv(a+3, c, 1, fbDeliv, r-loss), fbEv(a+4, c, 1, fbLoss, loss),
				fbEv(m.C("fin")+3, c, 2, fbDeliv, loss)})
			k.counters(t, int64(len(t.Outs))-1, [8]uint32{uint32(w + 8), loss, 0, 0, 0, 0, 0, 0})
			return k.err()
		},
	}

	// wrap: PSNs, SACK holes, window and cumulative ACKs across 2^24.
	scripts["wrap"] = Script{Name: "wrap",
		Doc:    "open at 2^24-3: holes at 0xFFFFFF and 0x000001 resent in order, window filled across the wrap, cumulative ACK across the wrap frees it",
		Cycles: func(cfg config.Config) int64 { return int64(2*cfg.Window + 300) },
		Build: func(cfg config.Config) []Item {
			c := uint32(cfg.Conns / 2)
			const base = 1<<24 - 3
			w := cfg.Window
			it := []Item{open(c, base).L("open"), path(1)}
			for k := 0; k < 8; k++ {
				it = append(it, tx(c, 0x80+uint32(k), k == 0, false).L(lbl("tx%d", k)))
			}
			it = append(it, path(3),
				// path 1 sequences 2 (0xFFFFFF) and 4 (0x000001) lost: cum 0xFFFFFF
				ackOf(c, psnAt(base, 2), 1, 8, sackOf(cfg, 8, 2, 4)).L("ack1"),
				idle(10), path(0))
			for k := 8; k < w+2; k++ {
				it = append(it, tx(c, 0x80+uint32(k), false, false).L(lbl("tx%d", k)))
			}
			return append(it,
				async(tx(c, 0x80+uint32(w+2), false, true)).L(lbl("tx%d", w+2)),
				idle(10),
				ackOf(c, psnAt(base, 8), 3, 2, sackOf(cfg, 2)).L("ack2"), // cum 0xFFFFFF -> 0x000005
				idle(6),
				ackOf(c, psnAt(base, 2), 1, 8, sackOf(cfg, 8, 2, 4)).L("stale"), // ack1 again, from behind the wrap
				idle(4),
				ackOf(c, psnAt(base, w+3), 0, uint32(w-5), sackOf(cfg, uint32(w-5))).L("fin"),
				idle(8))
		},
		Check: func(cfg config.Config, t *Trace) error {
			k := &checker{}
			m := &t.Marks
			c := uint32(cfg.Conns / 2)
			const base = 1<<24 - 3
			w := cfg.Window
			k.consecutive(m, "tx", 0, 8)
			k.consecutive(m, "tx", 8, w+2)
			a1, a2 := m.C("ack1"), m.C("ack2")
			pq := func(k int) (uint32, uint32) {
				if k < 8 {
					return 1, uint32(k)
				}
				return 0, uint32(k - 8)
			}
			req := func(k int) bool { return k == w+1 || k == w+2 }
			want := newAll(m, "tx", 0, 8, c, base, pq, 0x80, w+2, req)
			want = append(want, retxPkt(a1+5, c, 0xFFFFFF, 3, 0, 0x82, false, false, 1), retxPkt(a1+6, c, 0x000001, 3, 1, 0x84, false, false, 1))
			want = append(want, newAll(m, "tx", 8, w+3, c, base, pq, 0x80, w+2, req)...)
			k.pkts("m_pkt", t.Pkts, want)
			eq(k, lbl("tx%d taken (ack2 at t: t+2)", w+2), m.C(lbl("tx%d", w+2)), a2+2)
			k.level(t, "window full across the wrap: s_tx_ready low", m.C(lbl("tx%d", w+1))+1, a2+1,
				func(in retx.In, o retx.Out) bool { return in.TxValid && !o.TxReady && !o.PreqValid })
			k.fbs("m_fb", t.Fbs, []FbEv{fbEv(a1+3, c, 1, fbDeliv, 6), fbEv(a1+4, c, 1, fbLoss, 2),
				fbEv(a2+3, c, 3, fbDeliv, 2), fbEv(m.C("fin")+3, c, 0, fbDeliv, region(cfg, w-5))})
			eq(k, "cnt_ack_ignored after the stale ACK", t.Out(m.C("stale")+2).CntAckIgnored, 1)
			k.counters(t, int64(len(t.Outs))-1, [8]uint32{uint32(w + 3), 2, 0, 0, 0, 0, 0, 1})
			return k.err()
		},
	}

	// reset_mid: rst while holes wait behind a held resend and an RTO waits behind the holes: readies low in the
	// rst cycles, registers cleared after, nothing pending ever sent, counters zero, connections closed.
	scripts["reset_mid"] = Script{Name: "reset_mid",
		Doc:    "rst with holes in S, a resend held in L2, one in m_pkt, feedback held and an RTO pending: readies 0 under rst, everything cleared, nothing pending ever sent; reopen works",
		Cycles: func(cfg config.Config) int64 { return resetQuiet(cfg, rtoExpiry1(cfg, 4)+6) + 400 },
		Build: func(cfg config.Config) []Item {
			const c0 = 0
			c1 := uint32(cfg.Conns - 1)
			it := []Item{open(c0, 10).L("open0"), open(c1, 0xABCDE).L("open1"), path(1),
				tx(c1, 0xE1, true, true).L("txr")}
			for k := 0; k < 12; k++ {
				if k == 4 {
					it = append(it, path(3))
				}
				it = append(it, tx(c0, 0x20+uint32(k), k == 0, false).L(lbl("a%d", k)))
			}
			return append(it, path(2),
				ackOf(c0, 10, 1, 4, sackOf(cfg, 4, 0)).L("ackPre"), // PSN 10 resent once before the reset
				at(func(m *Marks) int64 { return rtoExpiry1(cfg, m.C("txr")) - 3 }),
				// path 3 sequences 0..4 (PSN 14..18) lost: 14 is sent and held in m_pkt, 15 waits in L2, the rest in
				// S; c1's expiry in the cycle L2 is loaded leaves rto_pend waiting behind them.
				ackOf(c0, 10, 3, 8, sackOf(cfg, 8, 0, 1, 2, 3, 4)).L("ackH"),
				ready(false, false),
				after("ackH", 9),
				async(tx(c0, 0x99, true, true)).L("txRst"),
				async(ackOf(c0, 22, 3, 8, sackOf(cfg, 8))).L("ackRst"),
				reset(2).L("rst"),
				ready(true, true),
				at(func(m *Marks) int64 { return resetQuiet(cfg, m.C("rst")) }),
				open(c0, 10).L("reopen"), path(1),
				tx(c0, 0x90, true, false).L("r0"), tx(c0, 0x91, false, true).L("r1"),
				path(2),
				ackOf(c0, 10, 1, 2, sackOf(cfg, 2, 0)).L("ackR"),
				idle(10),
				ackOf(c0, 12, 2, 1, sackOf(cfg, 1)).L("fin"),
				idle(8))
		},
		Check: func(cfg config.Config, t *Trace) error {
			k := &checker{}
			m := &t.Marks
			const c0 = 0
			c1 := uint32(cfg.Conns - 1)
			e1 := rtoExpiry1(cfg, m.C("txr"))
			rs := m.C("rst")
			eq(k, "rst cycle", rs, e1+6)
			k.consecutive(m, "a", 0, 12)
			want := []PktEv{newPkt(m.C("txr"), c1, 0xABCDE, 1, 0, 0xE1, true, true, true)}
			want = append(want, newAll(m, "a", 0, 12, c0, 10, func(k int) (uint32, uint32) {
				if k < 4 {
					return 1, uint32(k)
				}
				return 3, uint32(k - 4)
			}, 0x20, -1, func(int) bool { return false })...)
			want = append(want, retxPkt(m.C("ackPre")+5, c0, 10, 2, 0, 0x20, true, false, 1))
			want = append(want, newPkt(m.C("r0"), c0, 10, 1, 0, 0x90, true, false, false), newPkt(m.C("r1"), c0, 11, 1, 1, 0x91, false, true, true),
				retxPkt(m.C("ackR")+5, c0, 10, 2, 0, 0x90, true, false, 1))
			k.pkts("m_pkt", t.Pkts, want)
			// Before the reset: the state the reset has to clear.
			o := t.Out(rs - 1)
			eq(k, "before rst: m_pkt holds the hole resend of PSN 14", fmt.Sprint(o.PktValid, o.PktPSN, o.PktRetx), fmt.Sprint(true, 14, true))
			eq(k, "before rst: m_pkt shown since", t.pktShownAt(rs-1), e1+2)
			k.preq(t, rs-1, true, c0, true, 3)
			eq(k, "before rst: m_fb holds the delivered event", fmt.Sprint(o.FbValid, o.FbKind, o.FbCount), fmt.Sprint(true, fbDeliv, 3))
			k.counters(t, rs-1, [8]uint32{13, 2, 0, 0, 1, 0, 0, 0})
			// The rst cycles.
			k.level(t, "rst: s_tx_valid, s_ack_valid, s_path_valid high; every ready, s_path_ready and m_preq_valid low", rs, rs+1,
				func(in retx.In, o retx.Out) bool {
					return in.Rst && in.TxValid && in.AckValid && in.PathValid && !o.TxReady && !o.AckReady && !o.CtlReady && !o.PathReady && !o.PreqValid
				})
			eq(k, "first rst cycle: m_pkt still shows its contents", t.Out(rs).PktValid, true)
			eq(k, "first rst cycle: counters still show", t.Out(rs).CntSent, 13)
			eq(k, "second rst cycle: m_pkt cleared", t.Out(rs+1).PktValid || t.Out(rs+1).FbValid, false)
			k.counters(t, rs+1, [8]uint32{})
			// After: everything closed and empty.
			a := rs + 2
			o = t.Out(a)
			eq(k, "after rst: s_ctl_ready, s_ack_ready, s_tx_ready (closed: drop) high", o.CtlReady && o.AckReady && o.TxReady, true)
			eq(k, "after rst: s_path_ready, m_preq_valid low", o.PathReady || o.PreqValid, false)
			eq(k, "s_tx taken right after the reset", m.C("txRst"), a)
			eq(k, "s_ack taken right after the reset", m.C("ackRst"), a)
			eq(k, "cnt_tx_dropped (closed by the reset)", t.Out(a+1).CntTxDropped, 1)
			eq(k, "cnt_ack_ignored (closed by the reset)", t.Out(a+2).CntAckIgnored, 1)
			re := m.C("reopen")
			k.level(t, "after rst: nothing pending is ever sent, no feedback, no error, no timeout", a, re,
				func(_ retx.In, o retx.Out) bool {
					return !o.PktValid && !o.PathReady && !o.FbValid && !o.ErrValid && !o.PreqValid &&
						o.CntSent+o.CntRetxLoss+o.CntRetxTimeout+o.CntRetxGBN+o.CntTimeouts+o.CntErrors == 0
				})
			ar := m.C("ackR")
			k.fbs("m_fb", t.Fbs, []FbEv{fbEv(m.C("ackPre")+3, c0, 1, fbDeliv, 3), fbEv(m.C("ackPre")+4, c0, 1, fbLoss, 1),
				fbEv(ar+3, c0, 1, fbDeliv, 1), fbEv(ar+4, c0, 1, fbLoss, 1), fbEv(m.C("fin")+3, c0, 2, fbDeliv, 1)})
			k.counters(t, int64(len(t.Outs))-1, [8]uint32{2, 1, 0, 0, 0, 0, 1, 1})
			return k.err()
		},
	}
}

// rtoConn is the connection of rto_backoff, errConn that of max_retries.
func rtoConn(cfg config.Config) uint32 { return uint32(min(3, cfg.Conns-1)) }
func errConn(cfg config.Config) uint32 { return uint32(min(2, cfg.Conns-1)) }

// backoffSteps is the number of RTO resends rto_backoff waits for: until the limit has been at the cap once
// (and at most MAX_RETRIES, so the connection does not error).
func backoffSteps(cfg config.Config) int {
	l := limits(cfg, 64)
	k := 1
	for k < len(l) && l[k-1] < int64(cfg.RTOMaxTicks) {
		k++
	}
	return min(k+1, cfg.MaxRetries)
}

// rtoTimes are the cycles of rto_backoff: e the expiries without progress (the last one is where the ACK's
// progress lands), ep the expiry after the progress, fin when the final ACK is offered.
type rtoTimes struct {
	e       []int64
	ep, fin int64
}

func rtoBackoffTimes(cfg config.Config, tx0 int64) rtoTimes {
	kk := backoffSteps(cfg)
	e := expiries(cfg, rtoConn(cfg), startReset, tx0, kk+1)
	ep := e[kk] + int64(cfg.RTOTicks)*int64(cfg.TickCycles)
	return rtoTimes{e: e, ep: ep, fin: ep + 20}
}

// errExpiries are the MAX_RETRIES+1 expiries of max_retries.
func errExpiries(cfg config.Config, tx0 int64) []int64 {
	return expiries(cfg, errConn(cfg), startReset, tx0, cfg.MaxRetries+1)
}

// maxRetriesQuiet is the reopen cycle of max_retries: long enough after the error for two more expiries at the
// cap, had the timer not stopped.
func maxRetriesQuiet(cfg config.Config, tx0 int64) int64 {
	e := errExpiries(cfg, tx0)
	return e[cfg.MaxRetries] + 2*int64(cfg.RTOMaxTicks)*int64(cfg.TickCycles)
}

// gbnExpiry is gbn_nak's timeout: connection c's timer restarted by the NAK's progress (processed at nak+1);
// visits in cycles where the rewind is active (gbn_act: nak+2 .. nak+6) do not count.
func gbnExpiry(cfg config.Config, c uint32, nak int64) int64 {
	v := nak + 1
	for n := 0; n < cfg.RTOTicks; {
		v = visitAfter(cfg, c, startReset, v)
		if v < nak+2 || v > nak+6 {
			n++
		}
	}
	return v
}

// rtoExpiry1 is reset_mid's expiry of the connection whose packet was taken in cycle txr.
func rtoExpiry1(cfg config.Config, txr int64) int64 {
	return expiries(cfg, uint32(cfg.Conns-1), startReset, txr, 1)[0]
}

// resetQuiet is the reopen cycle of reset_mid: two backed-off timeouts after the reset.
func resetQuiet(cfg config.Config, rst int64) int64 {
	return rst + int64(2*cfg.RTOTicks+2)*int64(cfg.TickCycles)
}

// pktShownAt returns the first cycle of the m_pkt contents shown in cycle c (-1 when m_pkt_valid is low).
func (t *Trace) pktShownAt(c int64) int64 {
	if !t.Out(c).PktValid {
		return -1
	}
	s := c
	for s > 0 && t.Out(s-1).PktValid && !t.In(s-1).Rst && !t.Out(s-1).PathReady && !(t.In(s - 1).PktReady) {
		s--
	}
	return s
}

// ctl_flush: a close invalidates the connection's holes in S, L1 and a held L2; only the packet already in the
// m_pkt register leaves; feedback already in E still goes out; a reopen starts afresh.
func ctlFlush(held bool) Script {
	name, rel := "ctl_flush", int64(7)
	if held {
		name, rel = "ctl_flush_held", 10
	}
	return Script{Name: name,
		Doc:    "close while holes are scanned and a resend waits (m_pkt_ready low), and while one just left: only what m_pkt held leaves; reopen at a new PSN works",
		Cycles: func(cfg config.Config) int64 { return 300 },
		Build: func(cfg config.Config) []Item {
			const c, c1 = 0, 1
			it := []Item{open(c, 100).L("open"), open(c1, 700).L("open1"), path(2)}
			for k := 0; k < 8; k++ {
				it = append(it, tx(c, 0x40+uint32(k), k == 0, false).L(lbl("a%d", k)))
			}
			for k := 0; k < 4; k++ {
				it = append(it, tx(c1, 0x60+uint32(k), k == 0, false).L(lbl("b%d", k)))
			}
			return append(it, path(3),
				// 4 holes: PSN 100, 102, 104, 106. 100 is sent at +4 and stays in m_pkt; 102 waits in L2.
				ackOf(c, 100, 2, 8, sackOf(cfg, 8, 0, 2, 4, 6)).L("ackA"),
				ready(false, false),
				after("ackA", 7), ready(!held, false), // m_pkt_ready back in the control cycle (held: 3 cycles later)
				closeConn(c).L("closeA"),
				after("ackA", 10), ready(true, true).L("relA"),
				idle(6),
				// 2 holes: 700 sent at +4 (in m_pkt at +5), the close at +5 stops 701.
				ackOf(c1, 700, 2, 4, sackOf(cfg, 4, 0, 1)).L("ackB"),
				after("ackB", 5), closeConn(c1).L("closeB"),
				idle(8),
				tx(c1, 0x99, true, true).L("dropB"), // closed: dropped
				ackOf(c1, 702, 2, 4, sackOf(cfg, 4)).L("ignB"), // closed: ignored
				idle(4),
				open(c, 5000).L("reopen"), path(2),
				tx(c, 0x50, true, false).L("r0"), tx(c, 0x51, false, false).L("r1"), tx(c, 0x52, false, true).L("r2"),
				path(3),
				ackOf(c, 5000, 2, 3, sackOf(cfg, 3, 0)).L("ackC"),
				idle(10),
				ackOf(c, 5003, 3, 1, sackOf(cfg, 1)).L("fin"),
				idle(8))
		},
		Check: func(cfg config.Config, t *Trace) error {
			k := &checker{}
			m := &t.Marks
			const c, c1 = 0, 1
			k.consecutive(m, "a", 0, 8)
			k.consecutive(m, "b", 0, 4)
			ta, tb := m.C("ackA"), m.C("ackB")
			eq(k, "closeA", m.C("closeA"), ta+7)
			eq(k, "closeB", m.C("closeB"), tb+5)
			want := newAll(m, "a", 0, 8, c, 100, func(k int) (uint32, uint32) { return 2, uint32(k) }, 0x40, -1, func(int) bool { return false })
			want = append(want, newAll(m, "b", 0, 4, c1, 700, func(k int) (uint32, uint32) { return 2, uint32(k) }, 0x60, -1, func(int) bool { return false })...)
			h := retxPkt(ta+5, c, 100, 3, 0, 0x40, true, false, 1)
			h.At = ta + rel // held by m_pkt_ready, leaves in the control cycle (held: after it)
			want = append(want, h, retxPkt(tb+5, c1, 700, 3, 0, 0x60, true, false, 1))
			want = append(want, newAll(m, "r", 0, 3, c, 5000, func(k int) (uint32, uint32) { return 2, uint32(k) }, 0x50, 2, func(k int) bool { return k == 2 })...)
			want = append(want, retxPkt(m.C("ackC")+5, c, 5000, 3, 0, 0x50, true, false, 1))
			k.pkts("m_pkt", t.Pkts, want)
			for d := int64(4); d <= 6; d++ {
				k.preq(t, ta+d, true, c, true, 2)
			}
			for d := int64(7); d <= 12; d++ {
				k.preq(t, ta+d, false, 0, false, 0)
			}
			k.level(t, "m_pkt holds PSN 100 up to its transfer", ta+5, ta+rel, func(_ retx.In, o retx.Out) bool { return o.PktValid && o.PktPSN == 100 && o.PktRetx })
			k.level(t, "nothing sent after the close A", ta+5, tb+3, func(_ retx.In, o retx.Out) bool { return !o.PathReady })
			k.preq(t, tb+4, true, c1, true, 2)
			k.preq(t, tb+5, false, 0, false, 0)
			k.level(t, "nothing sent after the close B", tb+5, m.C("reopen"), func(_ retx.In, o retx.Out) bool { return !o.PathReady })
			eq(k, "cnt_retx_loss after part A", t.Out(tb).CntRetxLoss, 1)
			eq(k, "cnt_retx_loss after part B", t.Out(m.C("reopen")).CntRetxLoss, 2)
			d1 := fbEv(ta+3, c, 2, fbDeliv, 4)
			d1.At = ta + 10
			k.fbs("m_fb", t.Fbs, []FbEv{d1, fbEv(ta+11, c, 2, fbLoss, 4),
				fbEv(tb+3, c1, 2, fbDeliv, 2), fbEv(tb+4, c1, 2, fbLoss, 2),
				fbEv(m.C("ackC")+3, c, 2, fbDeliv, 2), fbEv(m.C("ackC")+4, c, 2, fbLoss, 1),
				fbEv(m.C("fin")+3, c, 3, fbDeliv, 1)})
			eq(k, "dropped s_tx of the closed connection", t.Out(m.C("dropB")+1).CntTxDropped, 1)
			eq(k, "ignored ACK of the closed connection", t.Out(m.C("ignB")+2).CntAckIgnored, 1)
			k.counters(t, int64(len(t.Outs))-1, [8]uint32{15, 3, 0, 0, 0, 0, 1, 1})
			return k.err()
		},
	}
}

// allLostN is the region of sack_all_lost: the most path sequences one ACK can report (min(SACK_BITS, 255)) that
// fit in the window.
func allLostN(cfg config.Config) int { return min(cfg.Window, cfg.SackBits, 255) }

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
