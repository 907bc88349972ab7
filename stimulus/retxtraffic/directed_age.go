package retxtraffic

import (
	"github.com/spraynic/spraynic/config"
)

// The two timers that keep the RTO a backstop: the ACK request age and early loss.

// earlyScanConn is the connection of early_scan, earlyScanBase its initial PSN (the 5 lost packets and the 2
// delivered ones cross the 2^24 wrap).
func earlyScanConn(cfg config.Config) uint32 { return uint32(min(1, cfg.Conns-1)) }

const earlyScanBase = psnMask - 2

// earlyCyclesFor is the early loss age early_scan runs with: the configuration's, or 950 when it has it off.
func earlyCyclesFor(cfg config.Config) int {
	if cfg.EarlyCycles == 0 {
		return 950
	}
	return cfg.EarlyCycles
}

// earlyScan: early loss. PSNs base..base+4 go on path 0 and are lost, base+5 and base+6 on path 1 arrive. A
// duplicate ACK (path 1, cumulative still base) whose EARLY check (at handshake+4) finds path 0 quiet for
// EARLY_CYCLES-3 cycles does nothing; the next one, checked at exactly EARLY_CYCLES, reports the 5 path-0
// sequences lost on m_fb at handshake+6 and resends them one per cycle from handshake+8.
var earlyScan = Script{
	Name: "early_scan",
	Doc: "early loss: a duplicate ACK checked 3 cycles short of EARLY_CYCLES does nothing; one checked at exactly " +
		"EARLY_CYCLES reports the 5 packets of the quiet path lost at handshake+6 and resends them from " +
		"handshake+8, one per cycle, across the PSN wrap",
	Timers: func(cfg config.Config) (int, int) { return 0, earlyCyclesFor(cfg) },
	Cycles: func(cfg config.Config) int64 { return int64(cfg.EarlyCycles) + 200 },
	Steps: func(cfg config.Config) []Item {
		c := earlyScanConn(cfg)
		e := int64(cfg.EarlyCycles)
		return table(
			open(c, earlyScanBase).L("open"), path(0),
			txs("tx", 0, 5, c, 0x500, 6), path(1), txs("tx", 5, 7, c, 0x500, 6),
			path(2),
			// checked at young+4: path 0 quiet for EARLY_CYCLES-3 cycles since tx4
			at(func(m *Marks) int64 { return m.C("tx4") + e - 7 }),
			ackOf(c, earlyScanBase, 1, 1, sackOf(cfg, 1)).L("young"),
			// checked at old+4: exactly EARLY_CYCLES
			at(func(m *Marks) int64 { return m.C("tx4") + e - 4 }),
			ackOf(c, earlyScanBase, 1, 2, sackOf(cfg, 2)).L("old"),
			after("old", 20),
			ackOf(c, earlyScanBase+7, 2, 5, sackOf(cfg, 5)).L("fin"),
			idle(8))
	},
	Expect: func(cfg config.Config, t *Trace) []Expect {
		m := &t.Marks
		c := earlyScanConn(cfg)
		e := int64(cfg.EarlyCycles)
		y, o := m.C("young"), m.C("old")
		want := newAll(m, "tx", 0, 7, c, earlyScanBase, split(0, 5, 1), 0x500, 6, only(6))
		for i := range 5 {
			want = append(want, retxPkt(o+8+int64(i), c, psnAt(earlyScanBase, i), 2, uint32(i), 0x500+uint32(i),
				i == 0, false, 1))
		}
		return []Expect{
			inARow("tx", 0, 7),
			is("young ACK: checked EARLY_CYCLES-3 after tx4", y+4-m.C("tx4"), e-3),
			is("old ACK: checked EARLY_CYCLES after tx4", o+4-m.C("tx4"), e),
			pktsAre("m_pkt", want),
			holds("nothing sent between the new packets and the early resends", m.C("tx6")+2, o+7, noPkt),
			preqsAt(y+1, o+6, false, 0, false, 0),
			preqAt(o+7, true, c, true, 0),
			is("cnt_retx_loss at old+8", t.Out(o+8).CntRetxLoss, 1),
			is("cnt_retx_loss at old+12", t.Out(o+12).CntRetxLoss, 5),
			is("s_ack_ready at old+1 (the old ACK fires)", t.Out(o+1).AckReady, true),
			fbsAre("m_fb", []FbEv{
				fbEv(y+3, c, 1, fbDeliv, 1), fbEv(o+3, c, 1, fbDeliv, 1), fbEv(o+6, c, 0, fbLoss, 5),
				fbEv(m.C("fin")+3, c, 2, fbDeliv, 5)}),
			countersAtEnd([8]uint32{7, 5, 0, 0, 0, 0, 0, 0}),
		}
	},
}

// ackReqConn is the connection of ack_req_age: its visits (2 + c + k*TICK_CYCLES) miss the cycles of the first
// two packets.
func ackReqConn(cfg config.Config) uint32 { return uint32(min(3, cfg.Conns-1)) }

// ackReqAge: ACK_REQ_TICKS 1. The first packet after the open asks (arq 15); a packet in a visit cycle sees arq
// before the visit (0: no request), the next one after it asks; one just before the next visit does not; after
// several idle ticks the next packet asks; the last packet of the message asks by its flag.
var ackReqAge = Script{
	Name: "ack_req_age",
	Doc: "ACK_REQ_TICKS 1: ack_req on the first packet after the open, not in the visit cycle (arq before the " +
		"visit), on the packet after the visit, not just before the next visit, again after idle ticks, and on " +
		"the last packet",
	Timers: func(config.Config) (int, int) { return 1, 0 },
	Cycles: func(cfg config.Config) int64 { return 9*int64(cfg.TickCycles) + 200 },
	Steps: func(cfg config.Config) []Item {
		c := ackReqConn(cfg)
		const base = 0x4000
		v1 := func(m *Marks) int64 { return visitAfter(cfg, c, startReset, m.C("a1")) }
		tk := int64(cfg.TickCycles)
		return table(
			open(c, base).L("open"), path(0),
			tx(c, 0xA0, true, false).L("a0"), tx(c, 0xA1, false, false).L("a1"),
			at(v1), tx(c, 0xA2, false, false).L("a2"), tx(c, 0xA3, false, false).L("a3"),
			tx(c, 0xA4, false, false).L("a4"),
			at(func(m *Marks) int64 { return v1(m) + tk - 1 }), tx(c, 0xA5, false, false).L("a5"),
			at(func(m *Marks) int64 { return v1(m) + tk + 1 }), tx(c, 0xA6, false, false).L("a6"),
			idle(2),
			ackOf(c, base+7, 0, 7, sackOf(cfg, 7)).L("mid"),
			at(func(m *Marks) int64 { return v1(m) + 6*tk + 3 }), tx(c, 0xA7, false, false).L("a7"),
			tx(c, 0xA8, false, false).L("a8"), tx(c, 0xA9, false, true).L("a9"),
			idle(2),
			ackOf(c, base+10, 0, 10, sackOf(cfg, 10)).L("fin"),
			idle(8))
	},
	Expect: func(cfg config.Config, t *Trace) []Expect {
		m := &t.Marks
		c := ackReqConn(cfg)
		const base = 0x4000
		v1 := visitAfter(cfg, c, startReset, m.C("a1"))
		tk := int64(cfg.TickCycles)
		req := []bool{true, false, false, true, false, false, true, true, false, true}
		var want []PktEv
		for k, r := range req {
			want = append(want, newPkt(m.C(lbl("a%d", k)), c, base+uint32(k), 0, uint32(k), 0xA0+uint32(k), k == 0,
				k == 9, r))
		}
		return []Expect{
			is("a0 right after the open", m.C("a0"), m.C("open")+1),
			is("no visit of the connection at a1 (the first visit after the open comes later)",
				visitAfter(cfg, c, startReset, m.C("a0")), v1),
			is("a2 in the visit cycle", m.C("a2"), v1),
			inARow("a", 2, 5),
			is("a5 the cycle before the next visit", m.C("a5"), v1+tk-1),
			is("a6 the cycle after it", m.C("a6"), v1+tk+1),
			inARow("a", 7, 10),
			pktsAre("m_pkt", want),
			fbsAre("m_fb", []FbEv{fbEv(m.C("mid")+3, c, 0, fbDeliv, 7), fbEv(m.C("fin")+3, c, 0, fbDeliv, 3)}),
			countersAtEnd([8]uint32{10, 0, 0, 0, 0, 0, 0, 0}),
		}
	},
}
