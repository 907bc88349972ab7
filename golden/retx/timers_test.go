package retx_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/spraynic/spraynic/config"
	"github.com/spraynic/spraynic/golden/retx"
)

// arqTx sends one new packet of connection 1, handle `at`, in cycle `at` (idling up to it).
func arqTx(b *tb, at int) {
	b.t.Helper()
	b.until(at)
	b.tx(1, uint32(at), false, false)
}

// ackReqOf returns m_pkt_ack_req of the new packet arqTx sent in cycle at (after it left m_pkt).
func ackReqOf(b *tb, at int) bool {
	b.t.Helper()
	if b.cycle < at+2 {
		b.until(at + 2)
	}
	for _, p := range b.pkts {
		if !p.retx && p.handle == uint32(at) {
			return p.ackReq
		}
	}
	require.FailNow(b.t, "packet not sent", "cycle %d", at)
	return false
}

// TestAckReqAge: with ACK_REQ_TICKS a new packet asks for an ACK when arq >= ACK_REQ_TICKS. arq is 15 after an
// open (the first packet asks), ages by one at each visit of the connection (cycles 1, 5, 9, ... for connection
// 1 with TICK_CYCLES 4), saturates at 15, and a transmission with ack_req clears it. A new packet in the visit
// cycle sees arq before the visit. ACK_REQ_TICKS 0 asks by last and window only.
func TestAckReqAge(t *testing.T) {
	tests := []struct {
		name  string
		ticks int
		at    []int
		want  []bool
	}{
		// 1: first packet (arq 15), visit 1 ages and the request clears: 0. 2: arq 0. 5: visit cycle, sees 0;
		// arq 1 after it. 6: arq 1: asks. 7: arq 0. 13: visits 9, 13 (the latter after the packet): arq 1.
		{name: "ticks 1", ticks: 1, at: []int{1, 2, 5, 6, 7, 13, 14}, want: []bool{true, false, false, true, false,
			true, false}},
		// 13: arq 2 after visits 5 and 9: asks.
		{name: "ticks 2", ticks: 2, at: []int{1, 2, 5, 6, 7, 13, 14}, want: []bool{true, false, false, false, false,
			true, false}},
		{name: "ticks 0 off", ticks: 0, at: []int{1, 2, 5, 6, 7, 13, 14, 200}, want: make([]bool, 8)},
		// 15: arq 14 at cycle 58 (visits 5 .. 57), 15 at 62. Then 40 visits: saturated at 15, not wrapped to 8.
		{name: "ticks 15 saturates", ticks: 15, at: []int{1, 58, 62, 63, 63 + 4*40}, want: []bool{true, false, true,
			false, true}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b := newTB(t, smallCfg(t, noRTO, timers(tc.ticks, 0), func(c *config.Config) { c.Window = 16 }))
			b.ctl(true, 1, 0)
			for _, at := range tc.at {
				arqTx(b, at)
			}
			var got []bool
			for _, at := range tc.at {
				got = append(got, ackReqOf(b, at))
			}
			require.Equal(t, tc.want, got, "ack_req of the packets sent in cycles %v", tc.at)
		})
	}
}

// TestAckReqClearedByRetransmission: a retransmission asks for an ACK, so it clears arq too: with ACK_REQ_TICKS
// 2, the packet after one visit past the hole resend does not ask (it would with arq counted from the open).
func TestAckReqClearedByRetransmission(t *testing.T) {
	b := newTB(t, smallCfg(t, noRTO, timers(2, 0)))
	b.ctl(true, 1, 0)
	arqTx(b, 1) // psn 0, path 0 pseq 0
	arqTx(b, 3) // psn 1, path 0 pseq 1
	b.offer(3)
	ta := b.ack(ackMsg{conn: 1, psn: 0, path: 0, pseq: 2, sack: 0b01}) // pseq 0 (psn 0) lost
	require.Equal(t, 4, ta, "test timing: the resend is sent in cycle 8, between visits 5 and 9")
	arqTx(b, 10)
	arqTx(b, 14)
	require.True(t, ackReqOf(b, 1), "first packet asks")
	require.False(t, ackReqOf(b, 3), "arq 0")
	require.Equal(t, pkt{cycle: ta + 5, conn: 1, psn: 0, path: 3, entropy: entropyOf(3), handle: 1, ackReq: true,
		retx: true, retries: 1}, b.pkts[2], "hole resend")
	require.False(t, ackReqOf(b, 10), "arq 1 after visit 9: cleared by the resend (2 counted from cycle 1)")
	require.True(t, ackReqOf(b, 14), "arq 2 after visit 13")
}

// Early loss scenario of earlyBase: EARLY_CYCLES 40, connection 0 opened at PSN earlyPSN; PSN earlyPSN goes on
// path 0 (pseq 0) in cycle 1, the next two on path 1 (pseq 0, 1) in cycles 2 and 3; path 2 is offered after.
const (
	earlyAge = 40
	earlyPSN = 0xFFFFFE
)

// earlyBase builds the early loss scenario. The duplicate ACK is dupAck.
func earlyBase(t *testing.T, edit ...func(*config.Config)) *tb {
	t.Helper()
	b := newTB(t, smallCfg(t, append([]func(*config.Config){noRTO, timers(0, earlyAge)}, edit...)...))
	b.ctl(true, 0, earlyPSN)
	b.tx(0, 0xA0, true, false)
	b.offer(1)
	b.tx(0, 0xA1, false, false)
	b.tx(0, 0xA2, false, false)
	b.offer(2)
	return b
}

// dupAck reports path 1 complete (both sequences delivered) with the cumulative PSN still at earlyPSN.
var dupAck = ackMsg{conn: 0, psn: earlyPSN, path: 1, pseq: 2, sack: 0b11}

// TestEarlyLoss: a duplicate ACK (path part applied, no progress, psn == una != nxt) handshaken at t sets
// early_pend at t+1; the EARLY lookup is checked at t+4 against now - lts of una's path, 40 cycles since cycle 1
// at exactly t = 37: the loss (count 1, path 0) is on m_fb at t+6 and PSN earlyPSN is resent at t+8. One cycle
// younger, a `later` path, E busy, a stale or ignored ACK, progress, EARLY_CYCLES 0 and go-back-N do nothing.
func TestEarlyLoss(t *testing.T) {
	exact := earlyAge - 3
	tests := []struct {
		name  string
		edit  func(*config.Config)
		pre   []ackMsg // ACKs before the tested one (taken as early as possible)
		ack   ackMsg
		at    int
		fbOff bool // m_fb_ready low after the pre ACKs until t+12
		load  bool
	}{
		{name: "age exactly EARLY_CYCLES", ack: dupAck, at: exact, load: true},
		{name: "one cycle short", ack: dupAck, at: exact - 1},
		{name: "three cycles short", ack: dupAck, at: exact - 3},
		{name: "later: una's path sequence reported", ack: ackMsg{conn: 0, psn: earlyPSN, path: 0, pseq: 1, sack: 1},
			at: exact},
		{name: "E busy", pre: []ackMsg{{conn: 0, psn: earlyPSN, path: 1, pseq: 1, sack: 1}}, ack: dupAck, at: exact,
			fbOff: true},
		{name: "stale path part", pre: []ackMsg{dupAck}, ack: dupAck, at: exact},
		{name: "closed connection", ack: ackMsg{conn: 3, psn: 0, path: 1, pseq: 2, sack: 0b11}, at: exact},
		{name: "progress", ack: ackMsg{conn: 0, psn: earlyPSN + 1, path: 1, pseq: 2, sack: 0b11}, at: exact},
		{name: "early_cycles 0", edit: timers(0, 0), ack: dupAck, at: exact},
		{name: "gbn mode", edit: gbnMode, ack: dupAck, at: exact},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var edits []func(*config.Config)
			if tc.edit != nil {
				edits = append(edits, tc.edit)
			}
			b := earlyBase(t, edits...)
			for _, a := range tc.pre {
				b.ack(a)
			}
			b.in.FbReady = !tc.fbOff
			b.until(tc.at)
			ta := b.ack(tc.ack)
			require.Equal(t, tc.at, ta, "test timing: handshake cycle")
			b.until(ta + 12)
			b.in.FbReady = true
			b.idle(20)
			var loss []fb
			for _, f := range b.fbs {
				if f.kind == retx.FbLoss {
					loss = append(loss, f)
				}
			}
			if !tc.load {
				require.Empty(t, loss, "no loss reported")
				require.Len(t, b.pkts, 3, "nothing resent")
				return
			}
			require.Equal(t, []fb{{cycle: ta + 6, conn: 0, path: 0, kind: retx.FbLoss, count: 1}}, loss)
			require.Equal(t, []pkt{{cycle: ta + 8, conn: 0, psn: earlyPSN, path: 2, entropy: entropyOf(2),
				handle: 0xA0, first: true, ackReq: true, retx: true, retries: 1}}, b.sent(3))
			require.Equal(t, uint32(1), b.out.CntRetxLoss, "the resend is a hole resend")
		})
	}
}

// TestEarlyLoadValues: k = pnx - e.pseq sequences of una's path go through the hole scan (mask of min(k,
// SACK_BITS) bits) and are reported lost (min(k, 255)), resent one per cycle from t+8. With k above SACK_BITS
// only the newest SACK_BITS are scanned: the oldest packet itself is left to the RTO.
func TestEarlyLoadValues(t *testing.T) {
	tests := []struct {
		name string
		more int // new packets on path 0 after the base scenario
		loss uint32
		psns []uint32 // resent PSNs, relative to earlyPSN
	}{
		{name: "k 3", more: 2, loss: 3, psns: []uint32{0, 3, 4}},
		{name: "k 10 above SACK_BITS 8", more: 9, loss: 10, psns: []uint32{4, 5, 6, 7, 8, 9, 10, 11}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b := earlyBase(t, func(c *config.Config) { c.Window = 16 })
			b.offer(0)
			for i := range tc.more {
				b.tx(0, 0xB0+uint32(i), false, false)
			}
			b.offer(2)
			// Age from the last transmission on path 0 (cycle 3 + more): checked at t+4.
			b.until(3 + tc.more + earlyAge - 4)
			ta := b.ack(dupAck)
			b.until(ta + 20)
			require.Equal(t, []fb{{cycle: ta + 6, conn: 0, path: 0, kind: retx.FbLoss, count: tc.loss}},
				b.fbs[1:], "loss = min(k, 255)")
			n := 0
			for _, p := range b.pkts {
				if !p.retx {
					continue
				}
				require.Equal(t, (earlyPSN+tc.psns[n])&0xFFFFFF, p.psn, "resend %d", n)
				require.Equal(t, ta+8+n, p.cycle, "resend %d, one per cycle", n)
				n++
			}
			require.Equal(t, len(tc.psns), n, "resends")
		})
	}
}

// TestEarlyCheckCycle: an EARLY candidate never owns the send slot and never shows on m_preq: a new packet goes
// in its check cycle (t+4) and in the next (the held candidate is dropped, S busy); the hole resend it causes
// holds the slot at t+7. A_fire is 0 in the early_load cycle: an ACK waiting in A fires at t+6, when S and E are
// empty again (at t+4 with a young duplicate ACK, where nothing loads).
func TestEarlyCheckCycle(t *testing.T) {
	tests := []struct {
		name  string
		at    int
		txOn  bool
		fires int // cycle, relative to t, the second ACK fires
	}{
		{name: "early load, new packets", at: earlyAge - 3, txOn: true, fires: 6},
		{name: "early load, no new packets", at: earlyAge - 3, fires: 6},
		{name: "young, nothing loads", at: earlyAge - 4, txOn: true, fires: 4},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b := earlyBase(t)
			b.ctl(true, 1, 0)
			b.until(tc.at)
			ta := b.ack(dupAck)
			require.Equal(t, tc.at, ta)
			b.until(ta + 3)
			require.Equal(t, ta+3, b.ack(dupAck), "a stale copy waits in A from t+4")
			b.in.TxValid = tc.txOn
			b.in.TxConn = 1
			outs := map[int]retx.Out{}
			for b.cycle < ta+9 {
				c := b.cycle
				outs[c-ta] = b.step()
			}
			for d := 4; d <= 6; d++ {
				o := outs[d]
				require.Equal(t, d >= tc.fires, o.AckReady, "t+%d: s_ack_ready (a_fire, then A empty)", d)
				require.Equal(t, tc.txOn, o.TxReady && o.PathReady, "t+%d: a new packet goes", d)
				require.Equal(t, tc.txOn, o.PreqValid, "t+%d: m_preq only for the new packet", d)
				require.False(t, o.PreqRetx, "t+%d: no retransmission hint", d)
			}
			if tc.fires == 4 {
				return
			}
			o := outs[7]
			require.Equal(t, [4]any{true, uint32(0), true, uint32(0)},
				[4]any{o.PreqValid, o.PreqConn, o.PreqRetx, o.PreqAvoid}, "t+7: the hole resend")
			require.False(t, o.TxReady, "t+7: the hole resend owns the slot")
			require.Equal(t, uint32(1), outs[8].CntRetxLoss)
		})
	}
}

// TestEarlyDroppedWhenScanBusy: an EARLY candidate that finds S busy is dropped, E being empty. A duplicate ACK
// with one hole (path 1) sets early_pend; its hole goes first (priority hole > EARLY) and is held in L2 without a
// path from t+4 to t+5, the EARLY lookup behind it in L1; a stale-PSN ACK with three holes on path 3 loads S at
// t+4; at t+7 the EARLY candidate, old enough, meets S busy and is dropped: no loss is reported on path 0.
func TestEarlyDroppedWhenScanBusy(t *testing.T) {
	b := earlyBase(t)
	b.offer(3)
	for i := range 3 {
		b.tx(0, 0xC0+uint32(i), false, false) // PSN +3..+5 on path 3, pseq 0..2
	}
	b.offer(2)
	b.until(earlyAge - 3)
	ta := b.ack(ackMsg{conn: 0, psn: earlyPSN, path: 1, pseq: 2, sack: 0b01})
	require.Equal(t, ta+1, b.ack(ackMsg{conn: 0, psn: earlyPSN - 1, path: 3, pseq: 3}))
	b.until(ta + 4)
	b.in.PathValid = false
	b.until(ta + 6)
	b.offer(2)
	b.until(ta + 20)
	for _, f := range b.fbs {
		require.NotEqual(t, uint32(0), f.path, "cycle %d: no early loss report on path 0", f.cycle)
	}
	var psns []uint32
	for _, p := range b.sent(6) {
		psns = append(psns, (p.psn-earlyPSN)&0xFFFFFF)
	}
	require.Equal(t, []uint32{1, 3, 4, 5}, psns, "the two ACKs' holes only")
}

// TestEarlyAfterRTO: lookup priority RTO > EARLY. The expiry of visit 12 and a duplicate ACK processed in the
// same cycle set rto_pend and early_pend; the RTO lookup goes first (resent at 16), and the EARLY lookup behind
// it reads the entry that resend wrote (forwarding): its path is young, the candidate is dropped.
func TestEarlyAfterRTO(t *testing.T) {
	b := earlyBase(t, func(c *config.Config) { c.RTOTicks = 2; c.RTOMaxTicks = 8; c.EarlyCycles = 4 })
	b.until(11)
	require.Equal(t, 11, b.ack(dupAck))
	b.until(30)
	require.Equal(t, []pkt{{cycle: 16, conn: 0, psn: earlyPSN, path: 2, entropy: entropyOf(2), handle: 0xA0,
		first: true, ackReq: true, retx: true, retries: 1}}, b.sent(3))
	require.Equal(t, uint32(1), b.out.CntRetxTimeout)
	for _, f := range b.fbs {
		require.NotEqual(t, uint32(retx.FbLoss), f.kind, "cycle %d: no early loss", f.cycle)
	}
}

// TestEarlyLoadHoldsL2: an early load is not l2_done (l2_drop, l2_err and l2_send are 0 for it): L2 keeps the
// candidate in its load cycle t+4, so nothing enters L1 then, and drops it at t+5 (S busy). Connection 0's own
// RTO expires at t+3 (visit 40, RTO_TICKS 9): its lookup is not issued at t+4 but after the early load's hole
// (t+6), so the hole resend leaves first (t+8, retries 1) and the RTO resends it again (t+9, retries 2).
func TestEarlyLoadHoldsL2(t *testing.T) {
	b := earlyBase(t, func(c *config.Config) { c.RTOTicks = 9; c.RTOMaxTicks = 64 })
	b.until(earlyAge - 3)
	ta := b.ack(dupAck)
	b.until(ta + 3)
	require.Zero(t, b.step().CntTimeouts, "t+3: the expiry visit")
	require.Equal(t, uint32(1), b.step().CntTimeouts, "t+4: expired")
	b.until(ta + 14)
	require.Equal(t, []pkt{
		{cycle: ta + 8, conn: 0, psn: earlyPSN, path: 2, pseq: 0, entropy: entropyOf(2), handle: 0xA0, first: true,
			ackReq: true, retx: true, retries: 1},
		{cycle: ta + 9, conn: 0, psn: earlyPSN, path: 2, pseq: 1, entropy: entropyOf(2), handle: 0xA0, first: true,
			ackReq: true, retx: true, retries: 2},
	}, b.sent(3), "hole resend, then the RTO resend")
}
