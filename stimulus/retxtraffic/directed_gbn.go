package retxtraffic

import (
	"github.com/spraynic/spraynic/config"
	"github.com/spraynic/spraynic/golden/retx"
)

// Go-back-N: rewinds on a NAK, a timeout and a cumulative ACK.

// gbnNak: go-back-N: a NAK rewinds to its PSN (resends one per cycle, in order, new packets of the connection
// held until the rewind ends), a timeout rewinds to una.
var gbnNak = Script{
	Name: "gbn_nak",
	GBN:  true,
	Doc: "go-back-N: NAK taken at t resends from its PSN at t+5, one per cycle, the connection's new packets held " +
		"until the rewind ends (others not); timeout rewinds from una; no feedback",
	Cycles: func(cfg config.Config) int64 { return int64(cfg.RTOTicks+3)*int64(cfg.TickCycles) + 400 },
	Steps: func(cfg config.Config) []Item {
		const c, c2, base = 1, 0, 300
		return table(
			open(c, base).L("open"), open(c2, 9000).L("open2"), path(0),
			txs("tx", 0, 8, c, 0x30, 7),
			path(2),
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
	Expect: func(cfg config.Config, t *Trace) []Expect {
		m := &t.Marks
		const c, c2, base, r = 1, 0, 300, 5
		nk := m.C("nak")
		e := gbnExpiry(cfg, c, nk)
		want := append(newAll(m, "tx", 0, 8, c, base, onPath(0), 0x30, 7, only(7)),
			newPkt(nk+2, c2, 9000, 2, 0, 0xC2, true, true, true))
		for i := 0; i < r; i++ {
			want = append(want, retxPkt(nk+5+int64(i), c, base+3+uint32(i), 2, uint32(i), 0x33+uint32(i), false,
				i == r-1, 1))
		}
		want = append(want, newPkt(nk+r+4, c, base+8, 2, r, 0x38, true, true, true))
		for i := 0; i <= r; i++ {
			h, first, last, tries := 0x33+uint32(i), false, i == r-1, uint32(2)
			if i == r {
				h, first, last, tries = 0x38, true, true, 1
			}
			want = append(want, retxPkt(e+4+int64(i), c, base+3+uint32(i), 2, r+1+uint32(i), h, first, last, tries))
		}
		want = append(want, newPkt(e+r+4, c, base+9, 2, 2*r+2, 0x39, true, true, true))
		held := func(in retx.In, o retx.Out) bool { return in.TxValid && in.TxConn == c && !o.TxReady }
		return []Expect{
			inARow("tx", 0, 8),
			is("c2 taken at nak+2 (not held by the other connection's rewind)", m.C("c2tx"), nk+2),
			is("held packet taken when the rewind is over", m.C("blocked"), nk+r+4),
			is("packet held by the timeout rewind taken when it is over", m.C("blocked2"), e+r+4),
			pktsAre("m_pkt", want),
			holds("s_tx_ready low for the rewinding connection (NAK)", nk+3, nk+r+3, held),
			holds("s_tx_ready low for the rewinding connection (timeout)", e+1, e+r+3, held),
			is("cnt_timeouts at the expiry", t.Out(e).CntTimeouts, 0),
			is("cnt_timeouts after the expiry", t.Out(e+1).CntTimeouts, 1),
			is("cnt_ack_ignored after the NAK (progress + rewind)", t.Out(nk+2).CntAckIgnored, 0),
			is("cnt_ack_ignored after the stale NAK", t.Out(m.C("stale")+2).CntAckIgnored, 1),
			fbsAre("m_fb (go-back-N reports nothing)", nil),
			countersAtEnd([8]uint32{11, 0, 0, 2*r + 1, 1, 0, 0, 1}),
		}
	},
}

// gbnExpiry is gbn_nak's timeout: connection c's timer restarted by the NAK's progress (processed at nak+1);
// the (RTO_TICKS+1)-th visit that counts expires (rto_cnt >= rto_lim; the first one counts from 0), and visits
// in cycles where the rewind is active (gbn_act: nak+2 .. nak+6) do not count.
func gbnExpiry(cfg config.Config, c uint32, nak int64) int64 {
	v := nak + 1
	for n := 0; n <= cfg.RTOTicks; {
		v = visitAfter(cfg, c, startReset, v)
		if v < nak+2 || v > nak+6 {
			n++
		}
	}
	return v
}

// gbnAckRewind: go-back-N, a cumulative ACK processed while a rewind runs: behind the ACK the rewind restarts at
// the new una (lookups already issued for older PSNs are dropped), or ends when nothing is left.
var gbnAckRewind = Script{
	Name: "gbn_ack_rewind",
	GBN:  true,
	Doc: "go-back-N: a cumulative ACK during a rewind moves it to the new una (older lookups dropped), an ACK of " +
		"everything ends it and frees the send slot at once",
	Cycles: cycles(300),
	Steps: func(cfg config.Config) []Item {
		const c, base = 1, 400
		return table(
			open(c, base).L("open"), path(0),
			txs("tx", 0, 16, c, 0x40, 15),
			path(2),
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
	Expect: func(cfg config.Config, t *Trace) []Expect {
		m := &t.Marks
		const c, base = 1, 400
		nk, nk2 := m.C("nak"), m.C("nak2")
		// 402 and 403 were looked up before the ACK moved una to 410; 404 (in L2 then) is dropped; the rewind
		// goes on from 410 (issued from nak+6, sent from nak+9).
		want := append(newAll(m, "tx", 0, 16, c, base, onPath(0), 0x40, 15, only(15)),
			retxPkt(nk+5, c, base+2, 2, 0, 0x42, false, false, 1),
			retxPkt(nk+6, c, base+3, 2, 1, 0x43, false, false, 1))
		for i := 0; i < 6; i++ {
			want = append(want, retxPkt(nk+9+int64(i), c, base+10+uint32(i), 2, 2+uint32(i), 0x4A+uint32(i), false,
				i == 5, 1))
		}
		// nak2: 412 leaves, 413 (in L2 when ack2 lands) is dropped, and that drop frees the slot for the new packet.
		want = append(want, retxPkt(nk2+5, c, base+12, 2, 8, 0x4C, false, false, 2),
			newPkt(nk2+5, c, base+16, 2, 9, 0x70, true, true, true))
		return []Expect{
			inARow("tx", 0, 16),
			is("ack taken", m.C("ack"), nk+4),
			is("ack2 taken", m.C("ack2"), nk2+3),
			is("new packet taken in the cycle the stale lookup is dropped", m.C("new"), nk2+5),
			pktsAre("m_pkt", want),
			holds("nothing sent while the rewind moves to the new una", nk+6, nk+7, noPath),
			holds("new packet held while the rewind runs", nk2+2, nk2+4,
				func(in retx.In, o retx.Out) bool { return in.TxValid && !o.TxReady }),
			preqAt(nk2+5, true, c, false, 0),
			fbsAre("m_fb (go-back-N reports nothing)", nil),
			countersAtEnd([8]uint32{17, 0, 0, 9, 0, 0, 0, 0}),
		}
	},
}
