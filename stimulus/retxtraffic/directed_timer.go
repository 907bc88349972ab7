package retxtraffic

import (
	"fmt"

	"github.com/spraynic/spraynic/config"
	"github.com/spraynic/spraynic/golden/retx"
)

// The timer and what stops a connection: RTO backoff, max retries, reset.

// rtoBackoff: the RTO resends the oldest PSN at the expiries (the visit with rto_cnt >= rto_lim: the
// (RTO_TICKS+1)-th after the restart, then every doubled limit, up to RTO_MAX_TICKS, plus one tick); progress
// processed in the cycle of an expiry visit discards the visit and puts the limit back to RTO_TICKS.
var rtoBackoff = Script{
	Name: "rto_backoff",
	Doc: "no ACKs: RTO resends of the oldest PSN at the visit cycles, intervals doubling to RTO_MAX_TICKS; " +
		"progress processed at an expiry visit discards it and resets the backoff",
	Cycles: func(cfg config.Config) int64 { return rtoBackoffTimes(cfg, 3).fin + 300 },
	Steps: func(cfg config.Config) []Item {
		c := rtoConn(cfg)
		const base = 7000
		kk := backoffSteps(cfg)
		return table(
			open(c, base).L("open"), path(2),
			tx(c, 0x71, true, false).L("tx0"), tx(c, 0x72, false, true).L("tx1"),
			path(1),
			at(func(m *Marks) int64 { return rtoBackoffTimes(cfg, m.C("tx0")).e[kk] - 1 }),
			// every resend of base arrived on path 1; base+1 did not: processed in the expiry cycle e[kk]
			ackOf(c, base+1, 1, uint32(kk), sackOf(cfg, uint32(kk))).L("ack"),
			at(func(m *Marks) int64 { return rtoBackoffTimes(cfg, m.C("tx0")).fin }),
			ackOf(c, base+2, 1, uint32(kk+1), sackOf(cfg, uint32(kk+1))).L("fin"),
			idle(8))
	},
	Expect: func(cfg config.Config, t *Trace) []Expect {
		m := &t.Marks
		c := rtoConn(cfg)
		const base = 7000
		kk := backoffSteps(cfg)
		rt := rtoBackoffTimes(cfg, m.C("tx0"))
		e, ep := rt.e, rt.ep
		want := []PktEv{newPkt(m.C("tx0"), c, base, 2, 0, 0x71, true, false, false),
			newPkt(m.C("tx1"), c, base+1, 2, 1, 0x72, false, true, true)}
		var fbs []FbEv
		x := []Expect{
			is("tx0 handshake", m.C("tx0"), m.C("open")+1),
			is("tx1 handshake", m.C("tx1"), m.C("tx0")+1),
			is("ack taken the cycle before the expiry visit", m.C("ack"), e[kk]-1),
		}
		for i := 0; i < kk; i++ {
			avoid := uint32(1)
			if i == 0 {
				avoid = 2
			}
			want = append(want, retxPkt(e[i]+4, c, base, 1, uint32(i), 0x71, true, false, uint32(i+1)))
			fbs = append(fbs, fbEv(e[i]+5, c, avoid, fbTimeout, 1))
			x = append(x, preqAt(e[i]+3, true, c, true, avoid),
				is(lbl("cnt_timeouts at expiry %d (cycle %d)", i+1, e[i]), t.Out(e[i]).CntTimeouts, uint32(i)),
				is(lbl("cnt_timeouts after expiry %d (cycle %d)", i+1, e[i]+1), t.Out(e[i]+1).CntTimeouts, uint32(i+1)))
			if i > 0 {
				x = append(x, is(lbl("interval expiry %d -> %d (cycles)", i, i+1), e[i]-e[i-1],
					(limits(cfg, i+1)[i]+1)*int64(cfg.TickCycles)))
			}
		}
		want = append(want, retxPkt(ep+4, c, base+1, 1, uint32(kk), 0x72, false, true, 1))
		fbs = append(fbs, fbEv(m.C("ack")+3, c, 1, fbDeliv, uint32(kk)), fbEv(ep+5, c, 2, fbTimeout, 1),
			fbEv(m.C("fin")+3, c, 1, fbDeliv, 1))
		return append(x,
			pktsAre("m_pkt", want),
			preqAt(ep+3, true, c, true, 2),
			is("cnt_timeouts after the discarded visit", t.Out(e[kk]+1).CntTimeouts, uint32(kk)),
			is("cnt_timeouts at the expiry after progress", t.Out(ep).CntTimeouts, uint32(kk)),
			is("cnt_timeouts after the expiry after progress (RTO_TICKS after it)", t.Out(ep+1).CntTimeouts,
				uint32(kk+1)),
			fbsAre("m_fb", fbs),
			countersAtEnd([8]uint32{2, 0, uint32(kk + 1), 0, uint32(kk + 1), 0, 0, 0}))
	},
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
	ep := e[kk] + int64(cfg.RTOTicks+1)*int64(cfg.TickCycles)
	return rtoTimes{e: e, ep: ep, fin: ep + 20}
}

// maxRetries: the expiry after the MAX_RETRIES-th resend errors the connection (one m_err pulse); its s_tx is
// dropped, its ACKs ignored, its timer stopped; a reopen makes it work again.
var maxRetries = Script{
	Name: "max_retries",
	Doc: "MAX_RETRIES RTO resends, then the next expiry: one m_err pulse, cnt_errors 1, s_tx dropped, ACK ignored, " +
		"timer stopped; reopen and it works again",
	Cycles: func(cfg config.Config) int64 { return maxRetriesQuiet(cfg, 3) + 400 },
	Steps: func(cfg config.Config) []Item {
		c := errConn(cfg)
		const base = 0x123456
		mr := cfg.MaxRetries
		return table(
			open(c, base).L("open"), path(0),
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
			idle(8))
	},
	Expect: func(cfg config.Config, t *Trace) []Expect {
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
		want = append(want, newPkt(m.C("n0"), c, 42, 1, 0, 0x11, true, false, false),
			newPkt(m.C("n1"), c, 43, 1, 1, 0x12, false, true, true))
		re, dr := m.C("reopen"), m.C("drop")
		return []Expect{
			pktsAre("m_pkt", want),
			is("m_err pulses", fmt.Sprint(t.Errs), fmt.Sprint([]ErrEv{{At: ee + 4, Conn: c}})),
			is("cnt_timeouts after the last expiry", t.Out(ee+1).CntTimeouts, uint32(mr+1)),
			is("cnt_errors at error+3 (l2_err cycle)", t.Out(ee+3).CntErrors, 0),
			is("cnt_errors with m_err", t.Out(ee+4).CntErrors, 1),
			preqAt(ee+3, false, 0, false, 0),
			holds("nothing sent from the error to the reopen", ee+1, re, noPath),
			is("cnt_timeouts at the reopen (timer stopped)", t.Out(re).CntTimeouts, uint32(mr+1)),
			is("s_tx for the errored connection taken at once", dr, ee+10),
			is("dropped s_tx takes no path", t.Out(dr).PathReady || t.Out(dr).PreqValid, false),
			is("cnt_tx_dropped after the drop", t.Out(dr+1).CntTxDropped, 1),
			is("cnt_ack_ignored after the ACK of the errored connection", t.Out(m.C("ackerr")+2).CntAckIgnored, 1),
			inARow("n", 0, 2),
			is("first packet after the reopen", m.C("n0"), re+1),
			fbsAre("m_fb", append(fbs, fbEv(m.C("fin")+3, c, 1, fbDeliv, 2))),
			countersAtEnd([8]uint32{3, 0, uint32(mr), 0, uint32(mr + 1), 1, 1, 1}),
		}
	},
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

// resetMid: rst while holes wait behind a held resend and an RTO waits behind the holes: readies low in the rst
// cycles, registers cleared after, nothing pending ever sent, counters zero, connections closed.
var resetMid = Script{
	Name: "reset_mid",
	Doc: "rst with holes in S, a resend held in L2, one in m_pkt, feedback held and an RTO pending: readies 0 " +
		"under rst, everything cleared, nothing pending ever sent; reopen works",
	Cycles: func(cfg config.Config) int64 { return resetQuiet(cfg, rtoExpiry1(cfg, 4)+6) + 400 },
	Steps: func(cfg config.Config) []Item {
		const c0 = 0
		c1 := uint32(cfg.Conns - 1)
		return table(
			open(c0, 10).L("open0"), open(c1, 0xABCDE).L("open1"), path(1),
			tx(c1, 0xE1, true, true).L("txr"),
			txs("a", 0, 4, c0, 0x20, -1), path(3), txs("a", 4, 12, c0, 0x20, -1),
			path(2),
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
	Expect: func(cfg config.Config, t *Trace) []Expect {
		m := &t.Marks
		rs := m.C("rst")
		return append(append(resetMidBefore(cfg, t), resetMidUnder(t, rs)...), resetMidAfter(t, rs+2)...)
	},
}

// resetMidBefore is what reset_mid expects up to the reset: the transfers of the whole run and the state the
// reset has to clear.
func resetMidBefore(cfg config.Config, t *Trace) []Expect {
	m := &t.Marks
	const c0 = 0
	c1 := uint32(cfg.Conns - 1)
	e1 := rtoExpiry1(cfg, m.C("txr"))
	rs := m.C("rst")
	want := append([]PktEv{newPkt(m.C("txr"), c1, 0xABCDE, 1, 0, 0xE1, true, true, true)},
		newAll(m, "a", 0, 12, c0, 10, split(1, 4, 3), 0x20, -1, only())...)
	want = append(want, retxPkt(m.C("ackPre")+5, c0, 10, 2, 0, 0x20, true, false, 1),
		newPkt(m.C("r0"), c0, 10, 1, 0, 0x90, true, false, false),
		newPkt(m.C("r1"), c0, 11, 1, 1, 0x91, false, true, true),
		retxPkt(m.C("ackR")+5, c0, 10, 2, 0, 0x90, true, false, 1))
	o := t.Out(rs - 1)
	return []Expect{
		is("rst cycle", rs, e1+6),
		inARow("a", 0, 12),
		pktsAre("m_pkt", want),
		is("before rst: m_pkt holds the hole resend of PSN 14", fmt.Sprint(o.PktValid, o.PktPSN, o.PktRetx),
			fmt.Sprint(true, 14, true)),
		is("before rst: m_pkt shown since", t.pktShownAt(rs-1), e1+2),
		preqAt(rs-1, true, c0, true, 3),
		is("before rst: m_fb holds the delivered event", fmt.Sprint(o.FbValid, o.FbKind, o.FbCount),
			fmt.Sprint(true, fbDeliv, 3)),
		countersAt(rs-1, [8]uint32{13, 2, 0, 0, 1, 0, 0, 0}),
	}
}

// resetMidUnder is what reset_mid expects in the rst cycles rs and rs+1.
func resetMidUnder(t *Trace, rs int64) []Expect {
	return []Expect{
		holds("rst: s_tx_valid, s_ack_valid, s_path_valid high; every ready, s_path_ready and m_preq_valid low",
			rs, rs+1, func(in retx.In, o retx.Out) bool {
				return in.Rst && in.TxValid && in.AckValid && in.PathValid &&
					!o.TxReady && !o.AckReady && !o.CtlReady && !o.PathReady && !o.PreqValid
			}),
		is("first rst cycle: m_pkt still shows its contents", t.Out(rs).PktValid, true),
		is("first rst cycle: counters still show", t.Out(rs).CntSent, 13),
		is("second rst cycle: m_pkt cleared", t.Out(rs+1).PktValid || t.Out(rs+1).FbValid, false),
		countersAt(rs+1, [8]uint32{}),
	}
}

// resetMidAfter is what reset_mid expects from cycle a after the reset on: everything closed and empty until
// the reopen, then the reopened connection working.
func resetMidAfter(t *Trace, a int64) []Expect {
	m := &t.Marks
	const c0 = 0
	o := t.Out(a)
	re, ar, pre := m.C("reopen"), m.C("ackR"), m.C("ackPre")
	return []Expect{
		is("after rst: s_ctl_ready, s_ack_ready, s_tx_ready (closed: drop) high", o.CtlReady && o.AckReady && o.TxReady,
			true),
		is("after rst: s_path_ready, m_preq_valid low", o.PathReady || o.PreqValid, false),
		is("s_tx taken right after the reset", m.C("txRst"), a),
		is("s_ack taken right after the reset", m.C("ackRst"), a),
		is("cnt_tx_dropped (closed by the reset)", t.Out(a+1).CntTxDropped, 1),
		is("cnt_ack_ignored (closed by the reset)", t.Out(a+2).CntAckIgnored, 1),
		holds("after rst: nothing pending is ever sent, no feedback, no error, no timeout", a, re,
			func(_ retx.In, o retx.Out) bool {
				return !o.PktValid && !o.PathReady && !o.FbValid && !o.ErrValid && !o.PreqValid &&
					o.CntSent+o.CntRetxLoss+o.CntRetxTimeout+o.CntRetxGBN+o.CntTimeouts+o.CntErrors == 0
			}),
		fbsAre("m_fb", []FbEv{fbEv(pre+3, c0, 1, fbDeliv, 3), fbEv(pre+4, c0, 1, fbLoss, 1),
			fbEv(ar+3, c0, 1, fbDeliv, 1), fbEv(ar+4, c0, 1, fbLoss, 1), fbEv(m.C("fin")+3, c0, 2, fbDeliv, 1)}),
		countersAtEnd([8]uint32{2, 1, 0, 0, 0, 0, 1, 1}),
	}
}

// rtoExpiry1 is reset_mid's expiry of the connection whose packet was taken in cycle txr.
func rtoExpiry1(cfg config.Config, txr int64) int64 {
	return expiries(cfg, uint32(cfg.Conns-1), startReset, txr, 1)[0]
}

// resetQuiet is the reopen cycle of reset_mid: two backed-off timeouts after the reset.
func resetQuiet(cfg config.Config, rst int64) int64 {
	return rst + int64(2*cfg.RTOTicks+2)*int64(cfg.TickCycles)
}
