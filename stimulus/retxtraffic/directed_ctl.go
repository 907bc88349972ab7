package retxtraffic

import (
	"github.com/spraynic/spraynic/config"
	"github.com/spraynic/spraynic/golden/retx"
)

// Connection control: a close flushes the connection.

// ctlFlush: a close invalidates the connection's holes in S, L1 and a held L2; only the packet already in the
// m_pkt register leaves; feedback already in E still goes out; a reopen starts afresh. With held, m_pkt_ready is
// still low in the control cycle and comes back three cycles later.
func ctlFlush(held bool) Script {
	name := "ctl_flush"
	if held {
		name = "ctl_flush_held"
	}
	return Script{
		Name: name,
		Doc: "close while holes are scanned and a resend waits (m_pkt_ready low), and while one just left: only " +
			"what m_pkt held leaves; reopen at a new PSN works",
		Cycles: cycles(300),
		Steps:  func(cfg config.Config) []Item { return ctlFlushSteps(cfg, held) },
		Expect: func(_ config.Config, t *Trace) []Expect { return ctlFlushExpect(t, held) },
	}
}

func ctlFlushSteps(cfg config.Config, held bool) []Item {
	const c, c1 = 0, 1
	return table(
		open(c, 100).L("open"), open(c1, 700).L("open1"), path(2),
		txs("a", 0, 8, c, 0x40, -1),
		txs("b", 0, 4, c1, 0x60, -1),
		path(3),
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
}

func ctlFlushExpect(t *Trace, held bool) []Expect {
	m := &t.Marks
	const c, c1 = 0, 1
	rel := int64(7) // the m_pkt transfer of the hole held when the close comes: in the control cycle
	if held {
		rel = 10 // after it
	}
	ta, tb, tc, re := m.C("ackA"), m.C("ackB"), m.C("ackC"), m.C("reopen")
	want := append(newAll(m, "a", 0, 8, c, 100, onPath(2), 0x40, -1, only()),
		newAll(m, "b", 0, 4, c1, 700, onPath(2), 0x60, -1, only())...)
	h := retxPkt(ta+5, c, 100, 3, 0, 0x40, true, false, 1)
	h.At = ta + rel // held by m_pkt_ready, leaves in the control cycle (held: after it)
	want = append(want, h, retxPkt(tb+5, c1, 700, 3, 0, 0x60, true, false, 1))
	want = append(want, newAll(m, "r", 0, 3, c, 5000, onPath(2), 0x50, 2, only(2))...)
	want = append(want, retxPkt(tc+5, c, 5000, 3, 0, 0x50, true, false, 1))
	d1 := fbEv(ta+3, c, 2, fbDeliv, 4)
	d1.At = ta + 10
	return []Expect{
		inARow("a", 0, 8),
		inARow("b", 0, 4),
		is("closeA", m.C("closeA"), ta+7),
		is("closeB", m.C("closeB"), tb+5),
		pktsAre("m_pkt", want),
		preqsAt(ta+4, ta+6, true, c, true, 2),
		preqsAt(ta+7, ta+12, false, 0, false, 0),
		holds("m_pkt holds PSN 100 up to its transfer", ta+5, ta+rel,
			func(_ retx.In, o retx.Out) bool { return o.PktValid && o.PktPSN == 100 && o.PktRetx }),
		holds("nothing sent after the close A", ta+5, tb+3, noPath),
		preqAt(tb+4, true, c1, true, 2),
		preqAt(tb+5, false, 0, false, 0),
		holds("nothing sent after the close B", tb+5, re, noPath),
		is("cnt_retx_loss after part A", t.Out(tb).CntRetxLoss, 1),
		is("cnt_retx_loss after part B", t.Out(re).CntRetxLoss, 2),
		fbsAre("m_fb", []FbEv{d1, fbEv(ta+11, c, 2, fbLoss, 4),
			fbEv(tb+3, c1, 2, fbDeliv, 2), fbEv(tb+4, c1, 2, fbLoss, 2),
			fbEv(tc+3, c, 2, fbDeliv, 2), fbEv(tc+4, c, 2, fbLoss, 1),
			fbEv(m.C("fin")+3, c, 3, fbDeliv, 1)}),
		is("dropped s_tx of the closed connection", t.Out(m.C("dropB")+1).CntTxDropped, 1),
		is("ignored ACK of the closed connection", t.Out(m.C("ignB")+2).CntAckIgnored, 1),
		countersAtEnd([8]uint32{15, 3, 0, 0, 0, 0, 1, 1}),
	}
}
