package retx_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/spraynic/spraynic/config"
	"github.com/spraynic/spraynic/golden/retx"
	"github.com/spraynic/spraynic/golden/wide"
)

func TestNewRejectsBadConfig(t *testing.T) {
	tests := []struct {
		name string
		edit func(*config.Config)
	}{
		{name: "window not a power of two", edit: func(c *config.Config) { c.Window = 12 }},
		{name: "rto max below rto", edit: func(c *config.Config) { c.RTOTicks = 9; c.RTOMaxTicks = 8 }},
		{name: "rto ticks zero", edit: func(c *config.Config) { c.RTOTicks = 0 }},
		{name: "max retries zero", edit: func(c *config.Config) { c.MaxRetries = 0 }},
		{name: "max retries above 15", edit: func(c *config.Config) { c.MaxRetries = 16 }},
		{name: "gbn 2", edit: func(c *config.Config) { c.GBN = 2 }},
		{name: "tick cycles below conns", edit: func(c *config.Config) { c.Conns = 4; c.TickCycles = 2 }},
		{name: "pseq too narrow for sack bits", edit: func(c *config.Config) { c.PseqWidth = 8; c.SackBits = 128 }},
		{name: "zero config", edit: func(c *config.Config) { *c = config.Config{} }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cfg, err := config.Preset("default")
			require.NoError(t, err)
			tc.edit(&cfg)
			require.Error(t, cfg.Validate(), "the edit must make the config invalid")
			m, err := retx.New(cfg)
			require.EqualError(t, err, cfg.Validate().Error(), "New returns Validate's error")
			require.Nil(t, m, "no model on error")
		})
	}

	t.Run("tick cycles equal to conns", func(t *testing.T) {
		cfg, err := config.Preset("default")
		require.NoError(t, err)
		cfg.Conns = 4
		cfg.TickCycles = 4
		m, err := retx.New(cfg)
		require.NoError(t, err)
		require.Equal(t, cfg, m.Config())
	})
	for _, name := range config.PresetNames() {
		t.Run("preset "+name, func(t *testing.T) {
			cfg, err := config.Preset(name)
			require.NoError(t, err)
			_, err = retx.New(cfg)
			require.NoError(t, err)
		})
	}
}

// TestNewPackets: one new packet per cycle, m_pkt_valid one cycle after the s_tx handshake, with the connection
// PSN (wrapping at 2^24), a path sequence counted per path, the offered entropy, the handle and flags, ack_req on
// the last packet of a message and on the one that fills the window, retries 0.
func TestNewPackets(t *testing.T) {
	b := newTB(t, smallCfg(t, noRTO))
	const base = 0xFFFFFD
	b.ctl(true, 2, base)
	paths := []uint32{0, 1, 0, 1, 3, 3, 0, 2}
	wantPseq := []uint32{0, 0, 1, 1, 0, 1, 2, 0}
	var want []pkt
	for i, p := range paths {
		b.offer(p)
		b.driveTx(2, 0x100+uint32(i), i == 0, i == 3)
		c := b.cycle
		o := b.step()
		require.True(t, o.TxReady, "cycle %d: s_tx_ready", c)
		require.True(t, o.PathReady, "cycle %d: s_path_ready", c)
		require.Equal(t, [4]any{true, uint32(2), false, uint32(0)},
			[4]any{o.PreqValid, o.PreqConn, o.PreqRetx, o.PreqAvoid}, "cycle %d: m_preq for a new packet", c)
		require.Equal(t, uint32(i), o.CntSent, "cycle %d: cnt_sent counts the packets already on m_pkt", c)
		want = append(want, pkt{cycle: c + 1, conn: 2, psn: (base + uint32(i)) & 0xFFFFFF, path: p, pseq: wantPseq[i],
			entropy: entropyOf(p), handle: 0x100 + uint32(i), first: i == 0, last: i == 3, ackReq: i == 3 || i == 7})
	}
	b.in.TxValid = false
	o := b.step()
	require.False(t, o.PreqValid, "no s_tx, no hint")
	require.Equal(t, uint32(8), o.CntSent)
	b.idle(2)
	require.Equal(t, want, b.pkts)
}

// TestWindowFull: with WINDOW PSNs outstanding s_tx_ready (and m_preq) stay low; a cumulative ACK taken at t is
// processed at t+1 and the held packet is accepted at t+2; the packet that fills the window again asks for an ACK.
func TestWindowFull(t *testing.T) {
	b := newTB(t, smallCfg(t, noRTO))
	b.ctl(true, 1, 10)
	for i := range 8 {
		b.tx(1, uint32(i), false, false)
	}
	b.step()
	require.Len(t, b.pkts, 8)
	require.Equal(t, uint32(17), b.pkts[7].psn, "psn 10..17 sent")
	require.True(t, b.pkts[7].ackReq, "the eighth fills the window")
	b.in.TxValid = true
	b.in.TxConn = 1
	b.in.TxHandle = 0xAA
	for range 3 {
		o := b.step()
		require.False(t, o.TxReady, "cycle %d: window full", b.cycle-1)
		require.False(t, o.PreqValid || o.PathReady, "cycle %d: no hint, no path taken", b.cycle-1)
	}
	ta := b.ack(ackMsg{conn: 1, psn: 13}) // s_tx still valid
	require.False(t, b.prev.TxReady, "cycle %d: handshake cycle", ta)
	require.False(t, b.step().TxReady, "cycle %d: ACK processed in this cycle, start-of-cycle una", ta+1)
	var got []uint32
	for range 4 {
		o := b.step()
		if o.TxReady {
			got = append(got, uint32(b.cycle-1))
		}
	}
	require.Equal(t, []uint32{uint32(ta + 2), uint32(ta + 3), uint32(ta + 4)}, got, "three PSNs of room: 18, 19, 20")
	b.in.TxValid = false
	b.idle(2)
	n := len(b.pkts)
	require.Equal(t, []pkt{
		{cycle: ta + 3, conn: 1, psn: 18, entropy: entropyOf(0), pseq: 8, handle: 0xAA},
		{cycle: ta + 4, conn: 1, psn: 19, entropy: entropyOf(0), pseq: 9, handle: 0xAA},
		{cycle: ta + 5, conn: 1, psn: 20, entropy: entropyOf(0), pseq: 10, handle: 0xAA, ackReq: true},
	}, b.pkts[n-3:], "the last one fills the window: ack_req")
	require.Zero(t, b.out.CntAckIgnored, "the cumulative ACK made progress")
}

// TestClosedConnectionDropped: s_tx to a closed connection is taken (s_tx_ready high, no path, no hint) and
// counted in cnt_tx_dropped; nothing is sent. In a control cycle nothing is taken, dropped or not.
func TestClosedConnectionDropped(t *testing.T) {
	b := newTB(t, smallCfg(t))
	o := b.step()
	require.True(t, o.TxReady, "s_tx_ready does not depend on s_tx_valid: drop_tx for the closed connection 0")
	b.in.TxValid = true
	b.in.TxConn = 3
	o = b.step()
	require.True(t, o.TxReady, "closed connection: s_tx_ready high (drop)")
	require.False(t, o.PathReady || o.PreqValid, "a dropped packet takes no path and no hint")
	b.in.TxValid = false
	o = b.step()
	require.Equal(t, uint32(1), o.CntTxDropped)
	require.False(t, o.PktValid)

	b.in.TxValid = true // held through the control cycle: not taken there
	b.ctl(true, 3, 7)
	b.ctl(false, 3, 0)
	require.Equal(t, uint32(1), b.out.CntTxDropped, "nothing taken in control cycles")
	o = b.step()
	require.True(t, o.TxReady, "closed again: dropped")
	b.in.TxValid = false
	require.Equal(t, uint32(2), b.step().CntTxDropped)
	b.idle(3)
	require.Empty(t, b.pkts)
}

// sackHoleSetup opens connection 0 at PSN 100 and sends PSNs 100..103 on path 2 (path sequences 0..3), then
// offers path 1.
func sackHoleSetup(t *testing.T, edit ...func(*config.Config)) *tb {
	b := newTB(t, smallCfg(t, append([]func(*config.Config){noRTO}, edit...)...))
	b.ctl(true, 0, 100)
	b.offer(2)
	for i := range 4 {
		b.tx(0, 0x10+uint32(i), i == 0, false)
	}
	b.offer(1)
	b.step()
	return b
}

// TestSackHole: an ACK whose SACK shows a hole at path sequence q gets exactly that packet retransmitted:
// handshake at t, m_preq at t+4 avoiding the path it took, m_pkt at t+5 with a fresh path sequence on the offered
// path, retries 1, ack_req; a second hole of the same ACK follows one cycle later. The ACK's feedback goes out as
// delivered then loss.
func TestSackHole(t *testing.T) {
	tests := []struct {
		name       string
		sack       uint64
		psns       []uint32
		deliv, los uint32
	}{
		{name: "one hole", sack: 0b0111, psns: []uint32{100}, deliv: 3, los: 1},
		{name: "two holes, oldest first", sack: 0b0101, psns: []uint32{100, 102}, deliv: 2, los: 2},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b := sackHoleSetup(t)
			n := len(b.pkts)
			ta := b.ack(ackMsg{conn: 0, psn: 100, path: 2, pseq: 4, sack: tc.sack})
			outs := map[int]retx.Out{}
			for range 8 {
				c := b.cycle
				outs[c] = b.step()
			}
			for c := ta + 1; c < ta+4; c++ {
				require.False(t, outs[c].PreqValid || outs[c].PathReady, "cycle %d: lookup still in flight", c)
			}
			for i := range tc.psns {
				o := outs[ta+4+i]
				require.Equal(t, [4]any{true, uint32(0), true, uint32(2)},
					[4]any{o.PreqValid, o.PreqConn, o.PreqRetx, o.PreqAvoid},
					"cycle %d: m_preq for the retransmission, avoiding path 2", ta+4+i)
				require.True(t, o.PathReady, "cycle %d: sent", ta+4+i)
			}
			var want []pkt
			for i, psn := range tc.psns {
				want = append(want, pkt{cycle: ta + 5 + i, conn: 0, psn: psn, path: 1, pseq: uint32(i),
					entropy: entropyOf(1), handle: 0x10 + psn - 100, first: psn == 100, ackReq: true, retx: true,
					retries: 1})
				require.Equal(t, uint32(i+1), outs[ta+5+i].CntRetxLoss, "cycle %d: cnt_retx_loss", ta+5+i)
			}
			require.Equal(t, want, b.sent(n))
			require.Equal(t, []fb{
				{cycle: ta + 3, conn: 0, path: 2, kind: retx.FbDelivered, count: tc.deliv},
				{cycle: ta + 4, conn: 0, path: 2, kind: retx.FbLoss, count: tc.los},
			}, b.fbs)
			require.Zero(t, b.out.CntAckIgnored, "a path part is a change")
			require.Equal(t, uint32(4), b.out.CntSent)
		})
	}
}

// TestIgnoredAcks: a duplicate path part (ECN included), a stale cumulative PSN, a path part beyond what was
// sent, and an ACK of a closed connection change nothing but cnt_ack_ignored, which shows at handshake+2.
func TestIgnoredAcks(t *testing.T) {
	b := sackHoleSetup(t)
	ta := b.ack(ackMsg{conn: 0, psn: 100, path: 2, pseq: 4, sack: 0b0111})
	b.idle(8)
	n, nfb := len(b.pkts), len(b.fbs)
	require.Equal(t, 1, n-4, "one retransmission")

	ignored := []ackMsg{
		{conn: 0, psn: 100, path: 2, pseq: 4, sack: 0b0111, ecn: true}, // duplicate: d == 0, no progress
		{conn: 0, psn: 99, path: 2, pseq: 3, sack: 0xFF},               // stale: behind una, d > sent
		{conn: 0, psn: 100, path: 3, pseq: 1, sack: 1},                 // path 3 never sent: sent == 0
		{conn: 0, psn: 105, path: 2, pseq: 4},                          // PSN beyond nxt: no progress
		{conn: 3, psn: 1, path: 0, pseq: 1, sack: 1},                   // closed connection
	}
	for i, a := range ignored {
		ta = b.ack(a)
		require.Equal(t, uint32(i), b.step().CntAckIgnored, "cycle %d: processed in this cycle", ta+1)
		require.Equal(t, uint32(i+1), b.step().CntAckIgnored, "cycle %d: counted", ta+2)
	}
	b.idle(8)
	require.Len(t, b.pkts, n, "no retransmission")
	require.Len(t, b.fbs, nfb, "no feedback, ECN included")

	// Progress to 102, then an older cumulative ACK is stale.
	b.ack(ackMsg{conn: 0, psn: 102, path: 2, pseq: 4})
	b.idle(2)
	require.Equal(t, uint32(5), b.out.CntAckIgnored, "progress is a change")
	b.ack(ackMsg{conn: 0, psn: 101, path: 2, pseq: 4})
	b.idle(2)
	require.Equal(t, uint32(6), b.out.CntAckIgnored)
	require.Len(t, b.pkts, n)
}

// TestFeedbackOrder: one ACK's events leave m_fb as delivered, ECN (count 1), loss, each held while !m_fb_ready;
// the next ACK is processed only once E has emptied.
func TestFeedbackOrder(t *testing.T) {
	b := newTB(t, smallCfg(t, noRTO))
	b.ctl(true, 1, 0)
	b.offer(3)
	for range 4 {
		b.tx(1, 0, false, false)
	}
	b.offer(0)
	b.in.FbReady = false
	// bit i = path sequence 3-i: 3 and 0 received, 2 and 1 lost.
	ta := b.ack(ackMsg{conn: 1, psn: 0, path: 3, pseq: 4, sack: 0b1001, ecn: true})
	tb2 := b.ack(ackMsg{conn: 1, psn: 0, path: 3, pseq: 4, sack: 0b1001, ecn: true}) // duplicate, waits in A
	require.Equal(t, ta+1, tb2, "A fires at t+1 and takes the next ACK")
	b.until(ta + 6)
	require.True(t, b.prev.FbValid, "delivered loaded at t+2 and held")
	require.Empty(t, b.fbs)
	require.False(t, b.prev.AckReady, "A holds the duplicate while E is not empty")
	b.in.FbReady = true
	b.idle(5)
	require.Equal(t, []fb{
		{cycle: ta + 6, conn: 1, path: 3, kind: retx.FbDelivered, count: 2},
		{cycle: ta + 7, conn: 1, path: 3, kind: retx.FbECN, count: 1},
		{cycle: ta + 8, conn: 1, path: 3, kind: retx.FbLoss, count: 2},
	}, b.fbs)
	require.Equal(t, uint32(1), b.out.CntAckIgnored, "the duplicate was processed once E emptied")
	require.Equal(t, []uint32{1, 2}, []uint32{b.pkts[4].psn, b.pkts[5].psn}, "holes 1 then 2")
	require.Len(t, b.pkts, 6)
}

// TestRTOBackoffError: a connection with one unacknowledged packet times out at the visit that finds RTO_TICKS
// whole ticks since the restart (rto_cnt >= rto_lim), then after 2*RTO_TICKS, then at the cap; each RTO resends
// the oldest packet with retries+1 and reports a timeout on the path it took; the expiry after the MAX_RETRIES-th
// resend puts the connection in error (one m_err pulse), after which it sends nothing, its s_tx is dropped, its
// ACKs are ignored and its timer stops.
func TestRTOBackoffError(t *testing.T) {
	b := newTB(t, smallCfg(t)) // TICK_CYCLES 4: connection 1 is visited in the cycles 1, 5, 9, ...
	b.ctl(true, 1, 0)
	b.offer(2)
	b.tx(1, 0x55, true, true) // cycle 1
	b.offer(3)
	timeouts := map[int]uint32{}
	outs := map[int]retx.Out{}
	for b.cycle < 80 {
		c := b.cycle
		o := b.step()
		timeouts[c] = o.CntTimeouts
		outs[c] = o
	}
	// Visits: 5 (cnt 1), 9 (cnt 2), 13 expiry (lim 4); 17 .. 29 (cnt 4), 33 expiry (lim 8); 37 .. 65 (cnt 8),
	// 69 expiry (lim 8, capped).
	for c := 2; c < 80; c++ {
		want := uint32(0)
		switch {
		case c >= 70:
			want = 3
		case c >= 34:
			want = 2
		case c >= 14:
			want = 1
		}
		require.Equal(t, want, timeouts[c], "cycle %d: cnt_timeouts", c)
	}
	require.Equal(t, [4]any{true, uint32(1), true, uint32(2)},
		[4]any{outs[16].PreqValid, outs[16].PreqConn, outs[16].PreqRetx, outs[16].PreqAvoid},
		"expiry 13, L1 14, L2 15, send 16")
	require.Equal(t, uint32(3), outs[36].PreqAvoid)
	require.Equal(t, []pkt{
		{cycle: 2, conn: 1, psn: 0, path: 2, pseq: 0, entropy: entropyOf(2), handle: 0x55, first: true, last: true,
			ackReq: true},
		{cycle: 17, conn: 1, psn: 0, path: 3, pseq: 0, entropy: entropyOf(3), handle: 0x55, first: true, last: true,
			ackReq: true, retx: true, retries: 1},
		{cycle: 37, conn: 1, psn: 0, path: 3, pseq: 1, entropy: entropyOf(3), handle: 0x55, first: true, last: true,
			ackReq: true, retx: true, retries: 2},
	}, b.pkts)
	require.Equal(t, []fb{
		{cycle: 18, conn: 1, path: 2, kind: retx.FbTimeout, count: 1},
		{cycle: 38, conn: 1, path: 3, kind: retx.FbTimeout, count: 1},
	}, b.fbs)
	require.False(t, outs[72].PreqValid || outs[72].PathReady, "cycle 72: l2_err, nothing sent, no hint")
	require.Equal(t, []errEv{{cycle: 73, conn: 1}}, b.errs, "expiry 69, L1 70, L2 71, error 72")
	require.Equal(t, uint32(0), outs[72].CntErrors)
	require.Equal(t, uint32(1), outs[73].CntErrors)
	require.Equal(t, uint32(2), outs[73].CntRetxTimeout)

	o := b.step()
	require.False(t, o.ErrValid, "m_err is a one-cycle pulse")
	b.in.TxValid = true
	b.in.TxConn = 1
	o = b.step()
	require.True(t, o.TxReady, "errored connection: s_tx dropped")
	require.False(t, o.PathReady)
	b.in.TxValid = false
	b.ack(ackMsg{conn: 1, psn: 1, path: 3, pseq: 2, sack: 3})
	b.idle(60)
	require.Equal(t, uint32(1), b.out.CntTxDropped)
	require.Equal(t, uint32(1), b.out.CntAckIgnored, "ACK of an errored connection ignored")
	require.Equal(t, uint32(3), b.out.CntTimeouts, "timer stopped")
	require.Len(t, b.pkts, 3)
	require.Len(t, b.errs, 1)

	// Reopen clears the error.
	b.ctl(true, 1, 40)
	b.tx(1, 1, false, false)
	b.step()
	require.Equal(t, uint32(40), b.pkts[3].psn)
	require.Equal(t, uint32(0), b.pkts[3].pseq, "path state reset by open")
}

// TestBackoffResetOnProgress: progress puts rto_lim back to RTO_TICKS (and restarts the count).
func TestBackoffResetOnProgress(t *testing.T) {
	b := newTB(t, smallCfg(t))
	b.ctl(true, 1, 0)
	b.tx(1, 0, false, false) // cycle 1, psn 0
	b.tx(1, 1, false, false) // cycle 2, psn 1
	b.until(18)
	require.Equal(t, uint32(1), b.out.CntTimeouts, "expiry at visit 13")
	require.Equal(t, 17, b.pkts[2].cycle)
	require.Equal(t, uint32(0), b.pkts[2].psn)
	ta := b.ack(ackMsg{conn: 1, psn: 1})
	require.Equal(t, 18, ta)
	timeouts := map[int]uint32{}
	for b.cycle < 35 {
		c := b.cycle
		timeouts[c] = b.step().CntTimeouts
	}
	require.Equal(t, uint32(1), timeouts[29], "visits 21 and 25 count 1 and 2")
	require.Equal(t, uint32(2), timeouts[30], "visit 29 expires with rto_lim back at 2 (4 without the reset)")
	require.Equal(t, pkt{cycle: 33, conn: 1, psn: 1, pseq: 3, entropy: entropyOf(0), handle: 1, ackReq: true,
		retx: true, retries: 1}, b.pkts[3])
}

// TestGBNNak: in go-back-N mode a NAK taken at t rewinds to its PSN: the resends leave at t+5, t+6, ... one per
// cycle up to nxt-1; new packets of the connection wait until the rewind is over.
func TestGBNNak(t *testing.T) {
	b := newTB(t, smallCfg(t, noRTO, gbnMode))
	b.ctl(true, 0, 0)
	for i := range 5 {
		b.tx(0, uint32(i), false, false) // cycles 1..5, psn 0..4, pseq 0..4 on path 0
	}
	b.step()
	ta := b.ack(ackMsg{conn: 0, psn: 2, path: 1, pseq: 9, sack: 0xFF, nak: true, ecn: true})
	require.Equal(t, 7, ta)
	b.step() // t+1: processed
	b.in.TxValid = true
	b.in.TxConn = 0
	b.in.TxHandle = 9
	ready := map[int]bool{}
	for b.cycle < ta+8 {
		c := b.cycle
		o := b.step()
		ready[c] = o.TxReady
		if o.TxReady {
			b.in.TxValid = false
		}
	}
	for c := ta + 2; c <= ta+6; c++ {
		require.False(t, ready[c], "cycle %d: new packets blocked (gbn_act, then L2 owning the slot)", c)
	}
	require.True(t, ready[ta+7], "rewind over")
	b.idle(2)
	require.Equal(t, []pkt{
		{cycle: ta + 5, psn: 2, pseq: 5, entropy: entropyOf(0), handle: 2, ackReq: true, retx: true, retries: 1},
		{cycle: ta + 6, psn: 3, pseq: 6, entropy: entropyOf(0), handle: 3, ackReq: true, retx: true, retries: 1},
		{cycle: ta + 7, psn: 4, pseq: 7, entropy: entropyOf(0), handle: 4, ackReq: true, retx: true, retries: 1},
		{cycle: ta + 8, psn: 5, pseq: 8, entropy: entropyOf(0), handle: 9},
	}, b.sent(5))
	require.Equal(t, uint32(3), b.out.CntRetxGBN)
	require.Empty(t, b.fbs, "no path part and no ECN in GBN mode")
	require.Zero(t, b.out.CntAckIgnored)
}

// TestGBNTimeout: in go-back-N mode an expiry rewinds to una and resends everything outstanding, one per cycle;
// there is no timeout feedback (T is loaded by selective RTO resends only).
func TestGBNTimeout(t *testing.T) {
	b := newTB(t, smallCfg(t, gbnMode))
	b.ctl(true, 0, 0)
	for i := range 3 {
		b.tx(0, uint32(i), false, false) // cycles 1..3
	}
	b.until(19)
	b.ack(ackMsg{conn: 0, psn: 3}) // 19, processed 20: everything acknowledged
	b.idle(40)
	require.Equal(t, []pkt{
		{cycle: 16, psn: 0, pseq: 3, entropy: entropyOf(0), handle: 0, ackReq: true, retx: true, retries: 1},
		{cycle: 17, psn: 1, pseq: 4, entropy: entropyOf(0), handle: 1, ackReq: true, retx: true, retries: 1},
		{cycle: 18, psn: 2, pseq: 5, entropy: entropyOf(0), handle: 2, ackReq: true, retx: true, retries: 1},
	}, b.sent(3), "visits 4 and 8 count, visit 12 expires; issues 13, 14, 15")
	require.Equal(t, uint32(1), b.out.CntTimeouts)
	require.Equal(t, uint32(3), b.out.CntRetxGBN)
	require.Zero(t, b.out.CntRetxTimeout)
	require.Empty(t, b.fbs)
}

// TestControlFlush: a close invalidates the connection's holes in S and L1 (its feedback in E still goes out, also
// in the control cycle); a reopen starts again at the new PSN with path sequences from 0.
func TestControlFlush(t *testing.T) {
	b := sackHoleSetup(t) // cycles 0..5
	ta := b.ack(ackMsg{conn: 0, psn: 100, path: 2, pseq: 4, sack: 0b0101})
	require.Equal(t, 6, ta)
	b.until(9) // hole 1 issued to L1 in cycle 8
	b.ctl(false, 0, 0)
	b.idle(2)
	require.Len(t, b.pkts, 4, "no retransmission")
	require.Equal(t, []fb{
		{cycle: 9, conn: 0, path: 2, kind: retx.FbDelivered, count: 2},
		{cycle: 10, conn: 0, path: 2, kind: retx.FbLoss, count: 2},
	}, b.fbs, "E drains through the control cycle")
	b.ctl(true, 0, 500)
	b.offer(2)
	b.tx(0, 7, false, false)
	b.idle(10)
	require.Equal(t, pkt{cycle: b.pkts[4].cycle, psn: 500, path: 2, pseq: 0, entropy: entropyOf(2), handle: 7},
		b.pkts[4])
	require.Len(t, b.pkts, 5)
	require.Zero(t, b.out.CntRetxLoss)
}

// TestControlFlushHeldL2: a retransmission held in L2 (m_pkt busy) is invalidated by a close of its connection:
// the hint drops and it is never sent; the retransmission already in m_pkt stays there.
func TestControlFlushHeldL2(t *testing.T) {
	b := sackHoleSetup(t)
	b.in.PktReady = false
	ta := b.ack(ackMsg{conn: 0, psn: 100, path: 2, pseq: 4, sack: 0b0101}) // 6; holes sent 10, then held
	b.until(ta + 5)
	o := b.step() // ta+5: L2 holds hole 2
	require.True(t, o.PktValid && o.PktRetx, "hole 1 in m_pkt")
	require.True(t, o.PreqValid && o.PreqRetx, "hole 2 waits in L2")
	b.step()
	b.ctl(false, 0, 0)
	o = b.step()
	require.False(t, o.PreqValid, "L2 flushed")
	b.in.PktReady = true
	b.idle(5)
	require.Len(t, b.pkts, 5)
	require.Equal(t, uint32(100), b.pkts[4].psn)
	require.Equal(t, uint32(1), b.out.CntRetxLoss)
}

// TestHeldLookupRevalidated: L2 is validated every cycle on the start-of-cycle state: a held retransmission whose
// PSN a cumulative ACK acknowledges meanwhile is dropped.
func TestHeldLookupRevalidated(t *testing.T) {
	b := sackHoleSetup(t)
	b.in.PktReady = false
	ta := b.ack(ackMsg{conn: 0, psn: 100, path: 2, pseq: 4, sack: 0b0101}) // 6
	b.until(ta + 5)
	tp := b.ack(ackMsg{conn: 0, psn: 103, path: 2, pseq: 4}) // 11, processed 12: una 103
	require.Equal(t, ta+5, tp)
	o := b.step() // 12
	require.True(t, o.PreqValid, "cycle 12: psn 102 still outstanding at the start of the cycle")
	o = b.step() // 13
	require.False(t, o.PreqValid, "cycle 13: dropped")
	b.in.PktReady = true
	b.idle(5)
	require.Len(t, b.pkts, 5)
	require.Equal(t, uint32(100), b.pkts[4].psn)
	require.Equal(t, uint32(1), b.out.CntRetxLoss)
}

// TestResetMidTraffic: in the rst cycle the readies and the hint are 0 and the registers still show their
// contents; after it everything is cleared: nothing pending is ever sent, connections are closed.
func TestResetMidTraffic(t *testing.T) {
	b := newTB(t, smallCfg(t))
	b.ctl(true, 0, 0)
	for i := range 3 {
		b.tx(0, uint32(i), false, false) // 1..3
	}
	b.in.PktReady = false // psn 2 stays in m_pkt
	ta := b.ack(ackMsg{conn: 0, psn: 0, path: 0, pseq: 3, sack: 0b011})
	b.until(ta + 2) // S loaded in ta+1
	b.in.Rst = true
	b.in.TxValid = true
	b.in.TxConn = 0
	o := b.step()
	require.True(t, o.PktValid, "m_pkt still shows its contents in the rst cycle")
	require.Equal(t, uint32(3), o.CntSent)
	b.in.Rst = false
	b.in.TxValid = false
	o = b.step()
	require.False(t, o.PktValid || o.FbValid || o.ErrValid)
	require.Zero(t, o.CntSent)
	b.in.PktReady = true
	b.in.TxValid = true
	o = b.step()
	require.True(t, o.TxReady && !o.PathReady, "connection closed by the reset: dropped")
	b.in.TxValid = false
	b.idle(40)
	require.Len(t, b.pkts, 2,
		"psn 0 and 1 before the reset; psn 2 (in m_pkt at the reset) and the pending hole are gone")
	require.Empty(t, b.fbs)
	require.Equal(t, uint32(1), b.out.CntTxDropped)
	require.Zero(t, b.out.CntTimeouts)
}

// TestPathMapWriteFirst: the path map read of a hole issue sees a write to the same address in the same cycle.
// A new packet that reuses the path map entry of the hole (same path, path sequence q+SACK_BITS) in the issue
// cycle makes the lookup fail validation (the hole is left to the RTO); one cycle later it does not.
func TestPathMapWriteFirst(t *testing.T) {
	for _, tc := range []struct {
		name  string
		delay int
		retx  bool
	}{
		{name: "same cycle: forwarded, lookup dropped", delay: 2},
		{name: "next cycle: read already done", delay: 3, retx: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := newTB(t, smallCfg(t, noRTO, func(c *config.Config) { c.Window = 16 }))
			b.ctl(true, 0, 0)
			for i := range 8 {
				b.tx(0, uint32(i), false, false) // psn 0..7 = pseq 0..7 on path 0
			}
			ta := b.ack(ackMsg{conn: 0, psn: 0, path: 0, pseq: 2, sack: 0b01}) // pseq 0 lost
			b.until(ta + tc.delay)
			b.tx(0, 8, false, false) // psn 8, pseq 8 on path 0: path map [0][0][0] <- slot 8
			b.idle(10)
			var retxs []pkt
			for _, p := range b.pkts {
				if p.retx {
					retxs = append(retxs, p)
				}
			}
			if !tc.retx {
				require.Empty(t, retxs)
				require.Zero(t, b.out.CntRetxLoss)
				return
			}
			require.Equal(t, []pkt{{cycle: ta + 5, psn: 0, pseq: 9, entropy: entropyOf(0), ackReq: true, retx: true,
				retries: 1}}, retxs)
		})
	}
}

// TestTxTableForwarding: the tx table read of L1 -> L2 sees the entry written by the transmission of the same
// cycle. A hole resend of una and an RTO of the same connection follow each other through the pipeline: the RTO
// lookup is read in the cycle the hole resend writes the entry, so it resends with retries 2, avoids the path the
// hole resend took, and reports the timeout on that path.
func TestTxTableForwarding(t *testing.T) {
	b := newTB(t, smallCfg(t)) // connection 0 visited in cycles 0, 4, 8, 12, ...
	b.ctl(true, 0, 0)
	b.tx(0, 0xA, false, false) // 1: psn 0, pseq 0 on path 0
	b.tx(0, 0xB, false, false) // 2: psn 1, pseq 1
	b.offer(1)
	b.until(11)
	ta := b.ack(ackMsg{conn: 0, psn: 0, path: 0, pseq: 2, sack: 0b01}) // fires in 12 with the expiry of visit 12
	require.Equal(t, 11, ta)
	outs := map[int]retx.Out{}
	for b.cycle < 16 {
		c := b.cycle
		outs[c] = b.step()
	}
	b.offer(2)
	for b.cycle < 24 {
		c := b.cycle
		outs[c] = b.step()
	}
	require.Equal(t, uint32(1), outs[13].CntTimeouts, "expiry in the ACK cycle (no progress, not discarded)")
	require.Equal(t, uint32(0), outs[15].PreqAvoid, "hole resend avoids path 0")
	require.Equal(t, [4]any{true, uint32(0), true, uint32(1)},
		[4]any{outs[16].PreqValid, outs[16].PreqConn, outs[16].PreqRetx, outs[16].PreqAvoid},
		"RTO resend avoids the forwarded path 1")
	require.Equal(t, []pkt{
		{cycle: 16, psn: 0, path: 1, pseq: 0, entropy: entropyOf(1), handle: 0xA, ackReq: true, retx: true, retries: 1},
		{cycle: 17, psn: 0, path: 2, pseq: 0, entropy: entropyOf(2), handle: 0xA, ackReq: true, retx: true, retries: 2},
	}, b.sent(2))
	require.Equal(t, []fb{
		{cycle: 14, conn: 0, path: 0, kind: retx.FbDelivered, count: 1},
		{cycle: 15, conn: 0, path: 0, kind: retx.FbLoss, count: 1},
		{cycle: 18, conn: 0, path: 1, kind: retx.FbTimeout, count: 1},
	}, b.fbs)
	require.Equal(t, uint32(1), outs[17].CntRetxTimeout)
	require.Equal(t, uint32(1), outs[17].CntRetxLoss)
}

// TestInputTruncation: input values wider than their ports are truncated.
func TestInputTruncation(t *testing.T) {
	b := newTB(t, smallCfg(t, noRTO))
	b.in.CtlValid = true
	b.in.CtlOpen = true
	b.in.CtlConn = 4 + 1
	b.in.CtlPSN = 0xFF000005
	b.step()
	b.in.CtlValid = false
	b.in.PathPath = 4 + 3
	b.in.PathEntropy = 0xF1234
	b.in.TxValid = true
	b.in.TxConn = 8 + 1
	b.in.TxHandle = 0x12345
	o := b.step()
	require.True(t, o.PathReady)
	b.in.TxValid = false
	o = b.step()
	require.Equal(t, pkt{conn: 1, psn: 5, path: 3, entropy: 0x1234, handle: 0x2345}, pktOf(o, 0))
}

// TestAckTakenInControlCycle: s_ack_ready has no frozen term, so an empty A takes an ACK in a control cycle.
// Control invalidates A only for what A held at the start of the cycle: an ACK of the controlled connection taken
// in that cycle is kept and processed after the control (here: after a reopen at the same PSN its path part is
// beyond pnx = 0 and it makes no progress, so it is counted as ignored).
func TestAckTakenInControlCycle(t *testing.T) {
	t.Run("other connection", func(t *testing.T) {
		b := sackHoleSetup(t)
		b.in.AckValid = true
		b.in.AckConn = 0
		b.in.AckPSN = 100
		b.in.AckPath = 2
		b.in.AckPseq = 4
		b.in.AckSack = wide.Vec{0b0111}
		tc := b.ctl(true, 1, 0)
		require.True(t, b.prev.AckReady, "A empty: s_ack taken in the control cycle")
		b.in.AckValid = false
		b.idle(8)
		require.Len(t, b.pkts, 5)
		require.Equal(t, pkt{cycle: tc + 5, psn: 100, path: 1, entropy: entropyOf(1), handle: 0x10, first: true,
			ackReq: true, retx: true, retries: 1}, b.pkts[4])
	})
	t.Run("same connection", func(t *testing.T) {
		b := sackHoleSetup(t)
		b.in.AckValid = true
		b.in.AckConn = 0
		b.in.AckPSN = 100
		b.in.AckPath = 2
		b.in.AckPseq = 4
		b.in.AckSack = wide.Vec{0b0111}
		b.ctl(true, 0, 100)
		require.True(t, b.prev.AckReady)
		b.in.AckValid = false
		b.idle(8)
		require.Len(t, b.pkts, 4, "nothing retransmitted")
		require.Empty(t, b.fbs)
		require.Equal(t, uint32(1), b.out.CntAckIgnored, "the ACK was kept and processed (and changed nothing)")
	})
}

// TestGBNRepeatedNak: a NAK whose PSN is in [una, nxt) counts as a change even when gbn_act and rw already have
// the values it sets (the rewind restarts); the rewind issues nothing in cycles where A fires.
func TestGBNRepeatedNak(t *testing.T) {
	b := newTB(t, smallCfg(t, noRTO, gbnMode))
	b.ctl(true, 0, 0)
	for i := range 5 {
		b.tx(0, uint32(i), false, false)
	}
	b.step()
	ta := b.ack(ackMsg{conn: 0, psn: 2, nak: true})
	tb2 := b.ack(ackMsg{conn: 0, psn: 2, nak: true}) // taken at t+1 (A fires), processed at t+2: no issue at t+2
	require.Equal(t, ta+1, tb2)
	b.idle(10)
	require.Zero(t, b.out.CntAckIgnored)
	require.Equal(t, []uint32{2, 3, 4}, []uint32{b.pkts[5].psn, b.pkts[6].psn, b.pkts[7].psn})
	require.Equal(t, ta+6, b.pkts[5].cycle, "first issue at t+3 (A fired at t+1 and t+2)")
	require.Len(t, b.pkts, 8)
}

// TestHoleAtMaxRetriesErrors: a SACK lookup of a packet already sent MAX_RETRIES times errors the connection too.
func TestHoleAtMaxRetriesErrors(t *testing.T) {
	b := sackHoleSetup(t, func(c *config.Config) { c.MaxRetries = 1 })
	ta := b.ack(ackMsg{conn: 0, psn: 100, path: 2, pseq: 4, sack: 0b0111}) // psn 100 resent on path 1, pseq 0
	b.idle(8)
	require.Len(t, b.pkts, 5)
	require.Equal(t, ta+5, b.pkts[4].cycle)
	ta = b.ack(ackMsg{conn: 0, psn: 100, path: 1, pseq: 1, sack: 0}) // the resend lost too
	b.idle(8)
	require.Len(t, b.pkts, 5, "nothing sent")
	require.Equal(t, []errEv{{cycle: ta + 5, conn: 0}}, b.errs, "error at t+4, m_err at t+5")
	require.Equal(t, uint32(1), b.out.CntErrors)
}
