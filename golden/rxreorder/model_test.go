package rxreorder_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/spraynic/spraynic/config"
	"github.com/spraynic/spraynic/golden/rxreorder"
	"github.com/spraynic/spraynic/golden/seqnum"
	"github.com/spraynic/spraynic/golden/wide"
)

const (
	psnTop  = seqnum.Modulus - 1
	psnHalf = seqnum.Half
)

func psnAdd(p uint32, n int32) uint32 { return seqnum.New(p).Add(n).Uint32() }

func TestNewRejectsBadConfig(t *testing.T) {
	tests := []struct {
		name string
		edit func(*config.Config)
	}{
		{name: "conns not a power of two", edit: func(c *config.Config) { c.Conns = 3 }},
		{name: "window too small", edit: func(c *config.Config) { c.Window = 4 }},
		{name: "psn width not 24", edit: func(c *config.Config) { c.PSNWidth = 16 }},
		{name: "pseq too narrow for sack", edit: func(c *config.Config) { c.PseqWidth = 8; c.SackBits = 128 }},
		{name: "zero config", edit: func(c *config.Config) { *c = config.Config{} }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cfg := smallCfg()
			tc.edit(&cfg)
			m, err := rxreorder.New(cfg)
			require.Error(t, err, "New must reject %+v", cfg)
			require.Nil(t, m, "no model on error")
		})
	}
}

// TestInOrder: an in-order stream on one connection and path gives each completion 3 cycles after its input
// and an ACK every ACK_EVERY packets 2 cycles after the packet that triggered it.
func TestInOrder(t *testing.T) {
	tests := []struct {
		name string
		cfg  config.Config
		conn uint32
		path uint32
		base uint32
		n    int
	}{
		{name: "default", cfg: defaultCfg(t), conn: 5, path: 3, base: 1000, n: 80},
		{name: "small", cfg: smallCfg(), conn: 1, path: 1, base: 0x123456, n: 30},
	}
	const ecnAt = 5
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b := newTB(t, tc.cfg)
			hmask := uint32(1)<<uint(tc.cfg.HandleWidth) - 1
			b.ctl(true, tc.conn, tc.base)
			var wantCpl []cpl
			var wantAck []ack
			for i := range tc.n {
				p := pkt{conn: tc.conn, psn: psnAdd(tc.base, int32(i)), path: tc.path, pseq: uint32(i),
					first: i%3 == 0, last: i%3 == 2, ecn: i == ecnAt, handle: uint32(i*7+1) & hmask}
				c := b.send(p)
				wantCpl = append(wantCpl, cpl{cycle: c + 3, conn: p.conn, psn: p.psn, first: p.first, last: p.last,
					handle: p.handle})
				if (i+1)%tc.cfg.AckEvery == 0 {
					wantAck = append(wantAck, ack{cycle: c + 2, conn: p.conn, psn: psnAdd(p.psn, 1), path: p.path,
						pseq: uint32(i + 1), sack: lowBits(min(i+1, tc.cfg.SackBits)),
						ecn: i >= ecnAt && i-tc.cfg.AckEvery < ecnAt})
				}
			}
			b.idle(6)
			require.Equal(t, wantCpl, b.cpls, "completions: 3 cycles after input, in order")
			require.Equal(t, wantAck, b.acks, "ACKs: every ACK_EVERY packets, 2 cycles after the trigger")
			require.Equal(t, uint32(tc.n), b.out.CntAccepted, "cnt_accepted")
			require.Zero(t, b.out.CntDuplicate+b.out.CntOutOfWin+b.out.CntClosed, "no drops")
		})
	}
}

// TestGapFill: packets after a gap are held; the gap-filling packet releases the run in order, and its ACK
// already carries the whole run in m_ack_psn.
func TestGapFill(t *testing.T) {
	b := newTB(t, smallCfg())
	b.ctl(true, 1, 50)
	c1 := b.send(pkt{conn: 1, psn: 51, pseq: 0, handle: 0x51})
	c2 := b.send(pkt{conn: 1, psn: 52, pseq: 1, handle: 0x52})
	b.send(pkt{conn: 1, psn: 53, pseq: 2, handle: 0x53, last: true})
	c4 := b.send(pkt{conn: 1, psn: 50, pseq: 3, handle: 0x50, first: true})
	b.idle(8)
	require.Equal(t, []cpl{
		{cycle: c4 + 3, conn: 1, psn: 50, first: true, handle: 0x50},
		{cycle: c4 + 4, conn: 1, psn: 51, handle: 0x51},
		{cycle: c4 + 5, conn: 1, psn: 52, handle: 0x52},
		{cycle: c4 + 6, conn: 1, psn: 53, last: true, handle: 0x53},
	}, b.cpls, "run released in PSN order, one per cycle, after the gap is filled")
	require.Equal(t, []ack{
		{cycle: c2 + 2, conn: 1, psn: 50, pseq: 2, sack: lowBits(2)},
		{cycle: c4 + 2, conn: 1, psn: 54, pseq: 4, sack: lowBits(4)},
	}, b.acks, "the gap-filling packet's ACK carries the whole run")
	require.Equal(t, 1, c1, "first packet right after open")
}

// TestClassify: one probe packet after open at base and an accepted base+2 (ackcnt 1, bitmap bit 2 set).
func TestClassify(t *testing.T) {
	type verdict int
	const (
		accept verdict = iota + 1
		duplicate
		outOfWindow
		closed
	)
	tests := []struct {
		name    string
		conn    uint32
		d       int32 // probe PSN - base
		ackReq  bool
		want    verdict
		wantAck bool
		ackPSN  int32 // m_ack_psn - base
	}{
		{name: "d=0 accept fills", d: 0, want: accept, wantAck: true, ackPSN: 1},
		{name: "d=1 accept behind a hole: L=0", d: 1, want: accept, wantAck: true, ackPSN: 0},
		{name: "d=W-1 accept", d: 7, want: accept, wantAck: true, ackPSN: 0},
		{name: "in-window bit set duplicate", d: 2, want: duplicate, wantAck: true, ackPSN: 0},
		{name: "d=-1 duplicate", d: -1, want: duplicate, wantAck: true, ackPSN: 0},
		{name: "d=-(2^23-1) duplicate", d: -(psnHalf - 1), want: duplicate, wantAck: true, ackPSN: 0},
		{name: "d=W out of window", d: 8, ackReq: true, want: outOfWindow},
		{name: "d=2^23-1 out of window", d: psnHalf - 1, ackReq: true, want: outOfWindow},
		{name: "d=-2^23 out of window", d: -psnHalf, ackReq: true, want: outOfWindow},
		{name: "closed connection", conn: 1, d: 0, ackReq: true, want: closed},
	}
	for _, base := range []uint32{10, psnTop - 2} {
		for _, tc := range tests {
			t.Run(tc.name, func(t *testing.T) {
				b := newTB(t, smallCfg())
				b.ctl(true, 0, base)
				b.send(pkt{conn: 0, psn: psnAdd(base, 2), pseq: 0})
				before := b.out
				c := b.send(pkt{conn: tc.conn, psn: psnAdd(base, tc.d), pseq: 1, ackReq: tc.ackReq})
				b.idle(4)
				o := b.out
				require.Equal(t, map[string]uint32{
					"accepted":  boolU(tc.want == accept),
					"duplicate": boolU(tc.want == duplicate),
					"oow":       boolU(tc.want == outOfWindow),
					"closed":    boolU(tc.want == closed),
				}, map[string]uint32{
					"accepted":  o.CntAccepted - before.CntAccepted - 1,
					"duplicate": o.CntDuplicate - before.CntDuplicate,
					"oow":       o.CntOutOfWin - before.CntOutOfWin,
					"closed":    o.CntClosed - before.CntClosed,
				}, "counter deltas (base %d)", base)
				var want []ack
				if tc.wantAck {
					want = []ack{{cycle: c + 2, conn: 0, psn: psnAdd(base, tc.ackPSN), pseq: 2, sack: lowBits(2)}}
				}
				require.Equal(t, want, b.acks, "ACK of the probe (base %d)", base)
			})
		}
	}
}

func boolU(v bool) uint32 {
	if v {
		return 1
	}
	return 0
}

// TestDuplicates: duplicates (in-window bit set and behind cum) are dropped, counted and ACKed at once; every
// accepted PSN completes exactly once.
func TestDuplicates(t *testing.T) {
	b := newTB(t, smallCfg())
	b.ctl(true, 0, 10)
	b.send(pkt{conn: 0, psn: 12, pseq: 0, handle: 12}) // accept, ackcnt 1
	c := b.send(pkt{conn: 0, psn: 12, pseq: 1, handle: 99})
	wantAck := []ack{{cycle: c + 2, psn: 10, pseq: 2, sack: lowBits(2)}}
	b.send(pkt{conn: 0, psn: 10, pseq: 2, handle: 10}) // accept, cum 11, ackcnt 1
	c = b.send(pkt{conn: 0, psn: 10, pseq: 3, handle: 98})
	wantAck = append(wantAck, ack{cycle: c + 2, psn: 11, pseq: 4, sack: lowBits(4)})
	b.send(pkt{conn: 0, psn: 11, pseq: 4, handle: 11}) // accept, run 11..12; the duplicate ACK cleared ackcnt
	c = b.send(pkt{conn: 0, psn: 12, pseq: 5, handle: 97})
	wantAck = append(wantAck, ack{cycle: c + 2, psn: 13, pseq: 6, sack: lowBits(6)})
	b.idle(6)
	require.Equal(t, wantAck, b.acks, "each duplicate ACKed immediately")
	require.Equal(t, uint32(3), b.out.CntAccepted, "cnt_accepted")
	require.Equal(t, uint32(3), b.out.CntDuplicate, "cnt_duplicate")
	got := make([][2]uint32, 0, len(b.cpls))
	for _, x := range b.cpls {
		got = append(got, [2]uint32{x.psn, x.handle})
	}
	require.Equal(t, [][2]uint32{{10, 10}, {11, 11}, {12, 12}}, got, "each PSN completes once, first copy's handle")
}

// TestDropsUpdatePath: out-of-window and duplicate packets still update the path state (and ECN); an
// out-of-window packet never triggers an ACK, even with ack_req.
func TestDropsUpdatePath(t *testing.T) {
	b := newTB(t, smallCfg())
	b.ctl(true, 1, 100)
	b.send(pkt{conn: 1, psn: 108, path: 1, pseq: 0, ecn: true, ackReq: true})
	b.send(pkt{conn: 1, psn: psnAdd(100, psnHalf), path: 1, pseq: 1, ackReq: true})
	c := b.send(pkt{conn: 1, psn: 99, path: 1, pseq: 2})
	b.idle(4)
	require.Equal(t, []ack{{cycle: c + 2, conn: 1, psn: 100, path: 1, pseq: 3, sack: lowBits(3), ecn: true}}, b.acks,
		"only the duplicate ACKs, with the path state of all three")
	require.Equal(t, uint32(2), b.out.CntOutOfWin, "cnt_out_of_window")
	require.Equal(t, uint32(1), b.out.CntDuplicate, "cnt_duplicate")
	require.Empty(t, b.cpls, "no completion")
}

// TestClosedConnection: packets to a connection never opened, or closed, are dropped and counted; no ACK.
func TestClosedConnection(t *testing.T) {
	b := newTB(t, smallCfg())
	b.send(pkt{conn: 1, psn: 0, ackReq: true})
	b.ctl(true, 1, 0)
	b.send(pkt{conn: 1, psn: 0, pseq: 0, ackReq: true})
	b.idle(3)
	b.ctl(false, 1, 0)
	b.send(pkt{conn: 1, psn: 1, pseq: 1, ackReq: true})
	b.idle(5)
	require.Equal(t, uint32(2), b.out.CntClosed, "cnt_closed")
	require.Equal(t, uint32(1), b.out.CntAccepted, "cnt_accepted")
	require.Len(t, b.acks, 1, "only the packet while open is ACKed")
	require.Len(t, b.cpls, 1, "only the packet while open completes")
}

// TestPSNWrap: a connection opened at 2^24-3 crosses the wrap in order and out of order.
func TestPSNWrap(t *testing.T) {
	b := newTB(t, defaultCfg(t))
	base := uint32(psnTop - 2)
	b.ctl(true, 0, base)
	var wantPSN []uint32
	var c int
	for i := range 6 {
		p := psnAdd(base, int32(i))
		c = b.send(pkt{conn: 0, psn: p, pseq: uint32(i), handle: p & 0xffff})
		wantPSN = append(wantPSN, p)
		if i == 3 {
			require.Equal(t, uint32(0), p, "fourth PSN is 0")
		}
	}
	b.send(pkt{conn: 0, psn: 4, pseq: 6, handle: 4})
	c = b.send(pkt{conn: 0, psn: 3, pseq: 7, handle: 3, ackReq: true})
	wantPSN = append(wantPSN, 3, 4)
	b.idle(8)
	got := make([]uint32, 0, len(b.cpls))
	for _, x := range b.cpls {
		got = append(got, x.psn)
		require.Equal(t, x.psn&0xffff, x.handle, "handle of PSN %d", x.psn)
	}
	require.Equal(t, wantPSN, got, "completions in PSN order across the wrap")
	require.Len(t, b.acks, 2, "ACK after 4 packets and the ack_req")
	require.Equal(t, uint32(1), b.acks[0].psn, "cumulative PSN after 2^24-3..0")
	require.Equal(t, ack{cycle: c + 2, psn: 5, pseq: 8, sack: lowBits(8)}, b.acks[1], "gap fill across the wrap")
}

// TestPathSack walks one path through skipped, late, too old and far-ahead path sequences, one packet per
// cycle (so every path update is forwarded from the previous one).
func TestPathSack(t *testing.T) {
	b := newTB(t, smallCfg())
	b.ctl(true, 0, 0)
	tests := []struct {
		name    string
		path    uint32
		pseq    uint32
		ackReq  bool
		wantAck bool
		pnext   uint32
		sack    wide.Vec
	}{
		{name: "pseq 0", path: 1, pseq: 0},
		{name: "pseq 1 coalesced ACK", path: 1, pseq: 1, wantAck: true, pnext: 2, sack: sackOf(0, 1)},
		{name: "pseq 3 skips 2: gap", path: 1, pseq: 3, wantAck: true, pnext: 4, sack: sackOf(0, 2, 3)},
		{name: "late pseq 2 sets bit 1", path: 1, pseq: 2, ackReq: true, wantAck: true, pnext: 4,
			sack: sackOf(0, 1, 2, 3)},
		{name: "other path independent", path: 0, pseq: 0, ackReq: true, wantAck: true, pnext: 1, sack: sackOf(0)},
		{name: "e=-9 too old", path: 1, pseq: 251, ackReq: true, wantAck: true, pnext: 4, sack: sackOf(0, 1, 2, 3)},
		{name: "e=-8 sets bit 7", path: 1, pseq: 252, ackReq: true, wantAck: true, pnext: 4,
			sack: sackOf(0, 1, 2, 3, 7)},
		{name: "e=10 restarts sack", path: 1, pseq: 14, wantAck: true, pnext: 15, sack: sackOf(0)},
		{name: "e=7 s=8 restarts sack", path: 1, pseq: 22, wantAck: true, pnext: 23, sack: sackOf(0)},
		{name: "e=6 shifts by 7", path: 1, pseq: 29, wantAck: true, pnext: 30, sack: sackOf(0, 7)},
		{name: "e=199 is -57 in 8 bits: too old", path: 0, pseq: 200, ackReq: true, wantAck: true, pnext: 1,
			sack: sackOf(0)},
	}
	var want []ack
	var names []string
	for i, tc := range tests {
		c := b.send(pkt{conn: 0, psn: uint32(i), path: tc.path, pseq: tc.pseq, ackReq: tc.ackReq})
		if tc.wantAck {
			want = append(want, ack{cycle: c + 2, psn: uint32(i + 1), path: tc.path, pseq: tc.pnext, sack: tc.sack})
			names = append(names, tc.name)
		}
	}
	b.idle(4)
	require.Equal(t, len(want), len(b.acks), "number of ACKs")
	for i := range want {
		require.Equal(t, want[i], b.acks[i], "ACK of step %q", names[i])
	}

	// Path sequence wrap: jumps up to 254, then 255 and 0 are in order.
	b = newTB(t, smallCfg())
	b.ctl(true, 1, 7)
	for i, q := range []uint32{100, 200, 254, 255} {
		b.send(pkt{conn: 1, psn: uint32(7 + i), path: 1, pseq: q})
	}
	c := b.send(pkt{conn: 1, psn: 11, path: 1, pseq: 0, ackReq: true})
	b.idle(4)
	require.Equal(t, ack{cycle: c + 2, conn: 1, psn: 12, path: 1, pseq: 1, sack: sackOf(0, 1, 2)},
		b.acks[len(b.acks)-1], "path sequence wraps: 255 -> 0 is in order")
}

// TestVerdict: every packet taken gets its verdict on m_rxv the cycle after, with its connection and PSN, and
// none in a reset cycle.
func TestVerdict(t *testing.T) {
	cfg := smallCfg()
	m, err := rxreorder.New(cfg)
	require.NoError(t, err)
	var out rxreorder.Out
	step := func(in rxreorder.In) rxreorder.Out {
		in.CplReady, in.AckReady = true, true
		m.Step(&in, &out)
		return out
	}
	pkt := func(conn, psn uint32) rxreorder.In {
		return rxreorder.In{PktValid: true, PktConn: conn, PktPSN: psn}
	}
	w := uint32(cfg.Window)
	step(rxreorder.In{CtlValid: true, CtlOpen: true, CtlConn: 0, CtlPSN: 100})
	ins := []rxreorder.In{pkt(0, 100), pkt(0, 100), pkt(0, 101+w), pkt(1, 7), pkt(0, 99), {}}
	want := []uint32{rxreorder.VerdictAccepted, rxreorder.VerdictDuplicate, rxreorder.VerdictOutOfWindow,
		rxreorder.VerdictClosed, rxreorder.VerdictDuplicate}
	o := step(ins[0])
	require.False(t, o.RxvValid, "no verdict before the first packet")
	for i := 1; i < len(ins); i++ {
		o = step(ins[i])
		require.True(t, o.RxvValid, "packet %d", i-1)
		require.Equal(t, [3]uint32{ins[i-1].PktConn, ins[i-1].PktPSN, want[i-1]}, [3]uint32{o.RxvConn, o.RxvPSN,
			o.RxvCode}, "packet %d", i-1)
	}
	require.False(t, step(pkt(0, 102)).RxvValid, "nothing was taken the cycle before")
	require.False(t, step(rxreorder.In{Rst: true}).RxvValid, "a reset cycle shows no verdict")
	require.False(t, step(rxreorder.In{}).RxvValid, "the packet before the reset gets none")
}
