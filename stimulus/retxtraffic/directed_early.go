package retxtraffic

import (
	"github.com/spraynic/spraynic/config"
)

// Two rules that keep early loss from doing more than it should: a sequence an ACK has reported belongs to the
// SACK scan (`later`), and an early load holds the lookup pipeline for a cycle (it is not l2_done).

// earlyLaterBase is early_later's initial PSN.
const earlyLaterBase = 0x600

// earlyLater: PSN base goes on path 0, base+1 on path 1. A duplicate ACK (cumulative still base) reports path 0
// up to sequence 0 as received, EARLY_CYCLES after base was sent: its EARLY candidate is old enough, but an ACK
// has reported its path sequence (`later`), so it is dropped and nothing is resent. The RTO resends base at
// its expiry.
var earlyLater = Script{
	Name: "early_later",
	Doc: "early loss leaves a sequence an ACK has reported to the SACK scan: a duplicate ACK reporting the " +
		"oldest packet's path sequence, EARLY_CYCLES after it was sent, resends nothing; the RTO recovers it",
	Timers: func(cfg config.Config) (int, int) { return 0, earlyCyclesFor(cfg) },
	Cycles: func(cfg config.Config) int64 { return earlyLaterExpiry(cfg, 3) + 200 },
	Steps: func(cfg config.Config) []Item {
		c := earlyScanConn(cfg)
		e := int64(cfg.EarlyCycles)
		return table(
			open(c, earlyLaterBase).L("open"),
			path(0), tx(c, 0x60, true, false).L("tx0"), path(1), tx(c, 0x61, false, true).L("tx1"),
			path(2),
			// checked at dup+4: path 0 quiet for EARLY_CYCLES + 4 cycles since tx0
			at(func(m *Marks) int64 { return m.C("tx0") + e }),
			ackOf(c, earlyLaterBase, 0, 1, sackOf(cfg, 1)).L("dup"),
			at(func(m *Marks) int64 { return earlyLaterExpiry(cfg, m.C("tx0")) + 20 }),
			ackOf(c, earlyLaterBase+2, 2, 1, sackOf(cfg, 1)).L("fin"),
			idle(8))
	},
	Expect: func(cfg config.Config, t *Trace) []Expect {
		m := &t.Marks
		c := earlyScanConn(cfg)
		d, ex := m.C("dup"), earlyLaterExpiry(cfg, m.C("tx0"))
		want := []PktEv{
			newPkt(m.C("tx0"), c, earlyLaterBase, 0, 0, 0x60, true, false, false),
			newPkt(m.C("tx1"), c, earlyLaterBase+1, 1, 0, 0x61, false, true, true),
			retxPkt(ex+4, c, earlyLaterBase, 2, 0, 0x60, true, false, 1),
		}
		return []Expect{
			is("tx1 right after tx0", m.C("tx1"), m.C("tx0")+1),
			is("the duplicate ACK taken when offered", d, m.C("tx0")+int64(cfg.EarlyCycles)),
			pktsAre("m_pkt", want),
			holds("nothing resent between the duplicate ACK and the expiry", d, ex+3, noPkt),
			is("cnt_retx_loss after the duplicate ACK's EARLY check", t.Out(d+12).CntRetxLoss, 0),
			fbsAre("m_fb", []FbEv{fbEv(d+3, c, 0, fbDeliv, 1), fbEv(ex+5, c, 0, fbTimeout, 1),
				fbEv(m.C("fin")+3, c, 2, fbDeliv, 1)}),
			countersAtEnd([8]uint32{2, 0, 1, 0, 1, 0, 0, 0}),
		}
	},
}

// earlyLaterExpiry is early_later's RTO expiry, its timer having restarted with tx0.
func earlyLaterExpiry(cfg config.Config, tx0 int64) int64 {
	return expiries(cfg, earlyScanConn(cfg), startReset, tx0, 1)[0]
}

// earlyHoldRTO and earlyHoldBase are the connection and initial PSN of early_hold's RTO; its early connection
// and PSNs are early_scan's.
func earlyHoldRTO(cfg config.Config) uint32 { return uint32(min(2, cfg.Conns-1)) }

const earlyHoldBase = 0x700

// earlyHoldExpiry is the RTO expiry of early_hold's RTO connection, its timer having restarted in x0.
func earlyHoldExpiry(cfg config.Config, x0 int64) int64 {
	return expiries(cfg, earlyHoldRTO(cfg), startReset, x0, 1)[0]
}

// earlyHold: an early load holds the lookup pipeline (it is not l2_done). Connection X's RTO expires at a visit
// three cycles after connection Y's duplicate ACK, so its lookup is pending from the cycle Y's EARLY candidate
// loads S and E. The pipeline does not move in that cycle; in the next, Y's candidate is dropped and S's holes
// come first: Y's three early resends, then X's RTO resend.
var earlyHold = Script{
	Name: "early_hold",
	Doc: "an early load holds the lookup pipeline for a cycle: an RTO pending from that cycle waits behind the " +
		"early loss's hole scan, so the three early resends come first and the RTO resend after them",
	Timers: func(cfg config.Config) (int, int) { return 0, earlyCyclesFor(cfg) },
	Cycles: func(cfg config.Config) int64 { return earlyHoldExpiry(cfg, 3) + int64(cfg.TickCycles) + 200 },
	Steps: func(cfg config.Config) []Item {
		x, y := earlyHoldRTO(cfg), earlyScanConn(cfg)
		return table(
			open(x, earlyHoldBase).L("openx"), open(y, earlyScanBase).L("openy"),
			path(3), tx(x, 0x70, true, true).L("x0"),
			after("x0", int64(cfg.TickCycles)),
			path(0), txs("y", 0, 3, y, 0x500, 3), path(1), txs("y", 3, 4, y, 0x500, 3),
			path(2),
			// Y's EARLY loads S at dup+4 = the expiry + 1, the first cycle X's lookup is pending
			at(func(m *Marks) int64 { return earlyHoldExpiry(cfg, m.C("x0")) - 3 }),
			ackOf(y, earlyScanBase, 1, 1, sackOf(cfg, 1)).L("dup"),
			after("dup", 30),
			ackOf(y, earlyScanBase+4, 2, 3, sackOf(cfg, 3)).L("finy"),
			idle(4),
			ackOf(x, earlyHoldBase+1, 2, 1, sackOf(cfg, 1)).L("finx"),
			idle(8))
	},
	Expect: func(cfg config.Config, t *Trace) []Expect {
		m := &t.Marks
		x, y := earlyHoldRTO(cfg), earlyScanConn(cfg)
		d, ex := m.C("dup"), earlyHoldExpiry(cfg, m.C("x0"))
		want := []PktEv{newPkt(m.C("x0"), x, earlyHoldBase, 3, 0, 0x70, true, true, true)}
		want = append(want, newAll(m, "y", 0, 4, y, earlyScanBase, split(0, 3, 1), 0x500, 3, only(3))...)
		for i := range 3 {
			want = append(want, retxPkt(d+8+int64(i), y, psnAt(earlyScanBase, i), 2, uint32(i), 0x500+uint32(i),
				i == 0, false, 1))
		}
		want = append(want, retxPkt(d+11, x, earlyHoldBase, 2, 0, 0x70, true, true, 1))
		return []Expect{
			is("the duplicate ACK taken three cycles before X's expiry visit", d, ex-3),
			is("Y's early check finds path 0 old enough", d+4-m.C("y2") >= int64(cfg.EarlyCycles), true),
			inARow("y", 0, 4),
			pktsAre("m_pkt", want),
			fbsAre("m_fb", []FbEv{fbEv(d+3, y, 1, fbDeliv, 1), fbEv(d+6, y, 0, fbLoss, 3),
				fbEv(d+12, x, 3, fbTimeout, 1),
				fbEv(m.C("finy")+3, y, 2, fbDeliv, 3), fbEv(m.C("finx")+3, x, 2, fbDeliv, 1)}),
			countersAtEnd([8]uint32{5, 3, 1, 0, 1, 0, 0, 0}),
		}
	},
}
