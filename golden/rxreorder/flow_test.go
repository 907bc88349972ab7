package rxreorder_test

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/spraynic/spraynic/config"
	"github.com/spraynic/spraynic/golden/rxreorder"
	"github.com/spraynic/spraynic/golden/seqnum"
)

// TestCplBackpressure: with m_cpl_ready low the first completion is held, lag grows one per packet and
// s_pkt_ready drops once a lag exceeds WINDOW: W+3 packets get in (the bound lag <= 2*WINDOW holds). Nothing is
// lost: after ready returns every PSN completes once, in order, with its handle.
func TestCplBackpressure(t *testing.T) {
	tests := []struct {
		name string
		cfg  config.Config
	}{
		{name: "small", cfg: smallCfg()},
		{name: "default", cfg: defaultCfg(t)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b := newTB(t, tc.cfg)
			w := tc.cfg.Window
			n := 3*w + 5
			hmask := uint32(1)<<uint(tc.cfg.HandleWidth) - 1
			mk := func(i int) pkt {
				return pkt{conn: 0, psn: psnAdd(500, int32(i)), pseq: uint32(i), handle: uint32(i*13) & hmask}
			}
			b.in.CplReady = false
			b.ctl(true, 0, 500)
			first := b.cycle
			in := 0
			for ; in < n; in++ {
				if b.sendWait(mk(in), 1) < 0 {
					break
				}
			}
			require.Equal(t, w+3, in, "packets taken in before s_pkt_ready drops")
			require.Equal(t, first+w+4, b.cycle,
				"back to back until the stall (w+3 handshakes, then one refused cycle)")
			for range 3 * w {
				require.False(t, b.step().PktReady, "cycle %d: s_pkt_ready stays low while m_cpl is blocked", b.cycle-1)
			}
			require.True(t, b.out.CplValid, "first completion held")
			require.Equal(t, uint32(500), b.out.CplPSN, "held completion is the first PSN")
			require.Empty(t, b.cpls, "no transfer while m_cpl_ready is low")

			b.in.CplReady = true
			for ; in < n; in++ {
				require.GreaterOrEqual(t, b.sendWait(mk(in), 4*w), 0, "packet %d taken in after ready", in)
			}
			b.idle(4 * w)
			require.Len(t, b.cpls, n, "every packet completes")
			for i, x := range b.cpls {
				p := mk(i)
				require.Equal(t, [2]uint32{p.psn, p.handle}, [2]uint32{x.psn, x.handle}, "completion %d", i)
			}
		})
	}
}

// TestAckBackpressure: with m_ack_ready low and an ACK per packet, s_pkt_ready drops at count > DEPTH-2 after
// DEPTH packets; the FIFO then holds DEPTH ACKs, delivered in order; the input resumes 2 cycles after ready.
func TestAckBackpressure(t *testing.T) {
	tests := []struct {
		name string
		cfg  config.Config
	}{
		{name: "small", cfg: smallCfg()},
		{name: "default", cfg: defaultCfg(t)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b := newTB(t, tc.cfg)
			depth := tc.cfg.AckFifoDepth
			b.in.AckReady = false
			b.ctl(true, 1, 40)
			in := 0
			for ; in < 2*depth; in++ {
				if b.sendWait(pkt{conn: 1, psn: uint32(40 + in), pseq: uint32(in), ackReq: true}, 1) < 0 {
					break
				}
			}
			require.Equal(t, depth, in, "packets taken in before the ACK FIFO stalls the input")
			b.idle(5)
			require.True(t, b.out.AckValid, "ACK FIFO not empty")
			require.Len(t, b.cpls, depth, "completions are not blocked by m_ack")

			b.in.AckReady = true
			ready := b.cycle
			got := -1
			b.drive(pkt{conn: 1, psn: uint32(40 + in), pseq: uint32(in), ackReq: true})
			for range 5 {
				c := b.cycle
				if b.step().PktReady {
					got = c
					break
				}
			}
			b.in.PktValid = false
			require.Equal(t, ready+2, got, "s_pkt_ready returns when count <= DEPTH-2")
			b.idle(depth + 4)
			require.Len(t, b.acks, depth+1, "every ACK delivered")
			for i, a := range b.acks {
				require.Equal(t, uint32(41+i), a.psn, "ACK %d cumulative PSN", i)
				want := ready + i // the queued ACKs pop one per cycle from ready on
				if i == depth {
					want = max(ready+depth, got+2) // the new packet's ACK: 2 cycles after it, behind the queue
				}
				require.Equal(t, want, a.cycle, "ACK %d cycle", i)
			}
		})
	}
}

func boolI(v bool) int {
	if v {
		return 1
	}
	return 0
}

// TestCtlMidStream: control has priority over packets (one bubble); close discards unreleased completions, and
// its connection gets no release grant while the close is in stage 1; closed packets are counted; reopen starts
// fresh (cum and path state).
func TestCtlMidStream(t *testing.T) {
	t.Run("open mid-stream costs one cycle", func(t *testing.T) {
		b := newTB(t, smallCfg())
		b.ctl(true, 0, 0)
		for i := range 10 {
			if i == 4 {
				b.drive(pkt{conn: 0, psn: uint32(i), pseq: uint32(i)})
				b.in.CtlValid = true
				b.in.CtlOpen = true
				b.in.CtlConn = 1
				b.in.CtlPSN = 77
				o := b.step()
				require.False(t, o.PktReady, "s_pkt_ready low while s_ctl_valid")
				b.in.CtlValid = false
			}
			b.send(pkt{conn: 0, psn: uint32(i), pseq: uint32(i)})
		}
		c := b.send(pkt{conn: 1, psn: 77, ackReq: true})
		b.idle(10)
		require.Len(t, b.cpls, 11, "all completions")
		require.Equal(t, cpl{cycle: c + 3, conn: 1, psn: 77}, b.cpls[10], "newly opened connection works")
	})

	t.Run("close discards and blocks the release that cycle", func(t *testing.T) {
		b := newTB(t, smallCfg())
		b.in.CplReady = false
		b.ctl(true, 0, 0)
		for i := range 4 {
			b.send(pkt{conn: 0, psn: uint32(i), pseq: uint32(i), handle: uint32(i + 1)})
		}
		b.idle(1)
		cc := b.ctl(false, 0, 0)
		b.in.CplReady = true
		b.idle(10)
		require.Equal(t, []cpl{{cycle: cc + 1, conn: 0, psn: 0, handle: 1}}, b.cpls,
			"only the completion already in the output register; none granted to conn 0 while its close is in stage 1")
	})

	t.Run("closed drops then reopen", func(t *testing.T) {
		b := newTB(t, smallCfg())
		b.ctl(true, 0, 0)
		for i := range 3 {
			b.send(pkt{conn: 0, psn: uint32(i), path: 1, pseq: uint32(i)})
		}
		b.idle(4)
		b.ctl(false, 0, 0)
		b.send(pkt{conn: 0, psn: 3, path: 1, pseq: 3, ackReq: true})
		b.send(pkt{conn: 0, psn: 4, path: 1, pseq: 4, ackReq: true})
		b.ctl(true, 0, 900)
		c := b.send(pkt{conn: 0, psn: 900, path: 1, pseq: 0, ackReq: true, ecn: true})
		b.idle(5)
		require.Equal(t, uint32(2), b.out.CntClosed, "cnt_closed")
		require.Equal(t, uint32(4), b.out.CntAccepted, "cnt_accepted")
		require.Equal(t, ack{cycle: c + 2, psn: 901, path: 1, pseq: 1, sack: sackOf(0), ecn: true},
			b.acks[len(b.acks)-1], "reopen: new cum, path state cleared")
		require.Equal(t, cpl{cycle: c + 3, psn: 900}, b.cpls[len(b.cpls)-1], "completion after reopen")
	})
}

// TestReset: rst mid-traffic (with a packet in stage 1, a held completion, queued ACKs and backlog) clears
// everything at the edge; during rst both readies are low and the registered outputs still show the old state.
func TestReset(t *testing.T) {
	b := newTB(t, defaultCfg(t))
	b.in.CplReady = false
	b.in.AckReady = false
	b.ctl(true, 0, 10)
	b.ctl(true, 1, 20)
	for i := range 6 {
		b.send(pkt{conn: uint32(i & 1), psn: uint32(10*(1+i&1) + i/2), pseq: uint32(i / 2), ackReq: true})
	}
	b.in.Rst = true
	b.drive(pkt{conn: 0, psn: 13, pseq: 3})
	b.in.CtlValid = true
	o := b.step()
	require.False(t, o.PktReady || o.CtlReady, "readies low during rst")
	require.True(t, o.CplValid && o.AckValid, "registered outputs unchanged in the rst cycle")
	require.Equal(t, uint32(5), o.CntAccepted, "counters unchanged in the rst cycle (last packet in stage 1)")
	o = b.step()
	require.False(t, o.CplValid || o.AckValid, "valids cleared by rst")
	require.Zero(t, o.CntAccepted+o.CntDuplicate+o.CntOutOfWin+o.CntClosed, "counters cleared by rst")
	b.in.Rst = false
	b.in.CtlValid = false
	b.in.PktValid = false
	b.in.CplReady = true
	b.in.AckReady = true
	b.cpls = nil
	b.acks = nil
	b.idle(3)
	require.Empty(t, b.cpls, "no completion survives rst")
	require.Empty(t, b.acks, "no ACK survives rst")
	b.send(pkt{conn: 0, psn: 13, ackReq: true})
	b.ctl(true, 0, 13)
	c := b.send(pkt{conn: 0, psn: 13, path: 2, pseq: 3, ackReq: true})
	b.idle(5)
	require.Equal(t, uint32(1), b.out.CntClosed, "connections closed by rst")
	require.Equal(t, []cpl{{cycle: c + 3, psn: 13}}, b.cpls, "fresh completion")
	require.Equal(t, []ack{{cycle: c + 2, psn: 14, path: 2, pseq: 4, sack: sackOf(0)}}, b.acks,
		"fresh ACK (path state cleared: pseq 3 is a gap from 0)")
}

// TestReleaseRoundRobin: the release arbiter grants the first candidate at or after rr, then rr = g+1.
func TestReleaseRoundRobin(t *testing.T) {
	b := newTB(t, smallCfg())
	b.in.CplReady = false
	b.ctl(true, 0, 0)
	b.ctl(true, 1, 100)
	for i := range 3 {
		b.send(pkt{conn: 0, psn: uint32(i), pseq: uint32(i)})
	}
	for i := range 3 {
		b.send(pkt{conn: 1, psn: uint32(100 + i), pseq: uint32(i)})
	}
	b.idle(2)
	r := b.cycle
	b.in.CplReady = true
	b.idle(10)
	require.Equal(t, []cpl{
		{cycle: r, conn: 0, psn: 0},
		{cycle: r + 1, conn: 1, psn: 100},
		{cycle: r + 2, conn: 0, psn: 1},
		{cycle: r + 3, conn: 1, psn: 101},
		{cycle: r + 4, conn: 0, psn: 2},
		{cycle: r + 5, conn: 1, psn: 102},
	}, b.cpls, "round robin between the two connections, one per cycle")
}

// TestRandomTraffic drives random in-window, duplicate and out-of-window packets on every connection with
// random back-pressure on both outputs, then checks the end-to-end contract: completions per connection are
// exactly the PSNs from open, in order, once each, with their handles; ACK cumulative PSNs never go back.
func TestRandomTraffic(t *testing.T) {
	tests := []struct {
		name   string
		cfg    config.Config
		seed   uint64
		cycles int
		ready  int // percent of cycles with m_cpl_ready / m_ack_ready high
	}{
		{name: "small seed 1", cfg: smallCfg(), seed: 1, cycles: 20000, ready: 70},
		{name: "small seed 2", cfg: smallCfg(), seed: 2, cycles: 20000, ready: 70},
		{name: "default seed 1", cfg: defaultCfg(t), seed: 1, cycles: 20000, ready: 70},
		{name: "u250 seed 3", cfg: presetCfg(t, "u250"), seed: 3, cycles: 20000, ready: 10},
		{name: "wide seed 4", cfg: config.Config{Name: "wide", Conns: 128, Window: 1024, Paths: 4, SackBits: 256,
			PSNWidth: 24, PseqWidth: 12, HandleWidth: 32, AckEvery: 64, AckFifoDepth: 64,
			TickCycles: 256, CwndInit: 16, CwndMax: 64, AI16ths: 2, FailK: 3, HoldoffTicks: 40, RTOTicks: 8,
			RTOMaxTicks: 64, MaxRetries: 7, QPNBase: 256, DataWidth: 64, MTU: 1024}, seed: 4, cycles: 20000, ready: 5},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cfg := tc.cfg
			rng := rand.New(rand.NewPCG(tc.seed, 0x5eed))
			b := newTB(t, cfg)
			hmask := uint32(1)<<uint(cfg.HandleWidth) - 1
			handle := func(c uint32, p seqnum.PSN) uint32 { return (p.Uint32()*2654435761 + c*97) >> 3 & hmask }
			start := make([]seqnum.PSN, cfg.Conns)
			acked := make([]seqnum.PSN, cfg.Conns)
			nextCpl := make([]seqnum.PSN, cfg.Conns)
			pathSeq := make([]uint32, cfg.Conns*cfg.Paths)
			for c := range cfg.Conns {
				start[c] = seqnum.New(rng.Uint32())
				acked[c] = start[c]
				nextCpl[c] = start[c]
				b.ctl(true, uint32(c), start[c].Uint32())
			}
			nc, na := 0, 0
			check := func() {
				for ; nc < len(b.cpls); nc++ {
					x := b.cpls[nc]
					want := nextCpl[x.conn]
					require.Equal(t, want.Uint32(), x.psn, "conn %d: completions in PSN order, once each", x.conn)
					require.Equal(t, handle(x.conn, want), x.handle, "conn %d psn %d: handle", x.conn, x.psn)
					require.Equal(t, x.psn&1 == 1, x.first, "conn %d psn %d: first flag", x.conn, x.psn)
					nextCpl[x.conn] = want.Add(1)
				}
				for ; na < len(b.acks); na++ {
					a := b.acks[na]
					require.True(t, acked[a.conn].LessThanEq(seqnum.New(a.psn)),
						"conn %d: ACK PSN never goes back", a.conn)
					acked[a.conn] = seqnum.New(a.psn)
				}
			}
			pending := false
			sent := uint32(0)
			stalls := 0
			for range tc.cycles {
				if !pending && rng.IntN(10) < 8 {
					c := uint32(rng.IntN(cfg.Conns))
					var p seqnum.PSN
					switch r := rng.IntN(100); {
					case r < 5:
						p = acked[c].Add(-int32(1 + rng.IntN(3)))
					case r < 8:
						p = acked[c].Add(int32(cfg.Window + rng.IntN(4)))
					default:
						p = acked[c].Add(int32(rng.IntN(cfg.Window)))
					}
					path := uint32(rng.IntN(cfg.Paths))
					pi := int(c)*cfg.Paths + int(path)
					pathSeq[pi] += uint32(1 + boolI(rng.IntN(20) == 0))
					b.drive(pkt{conn: c, psn: p.Uint32(), path: path, pseq: pathSeq[pi], first: p.Uint32()&1 == 1,
						ackReq: rng.IntN(10) == 0, ecn: rng.IntN(20) == 0, handle: handle(c, p)})
					pending = true
				}
				b.in.CplReady = rng.IntN(100) < tc.ready
				b.in.AckReady = rng.IntN(100) < tc.ready
				if o := b.step(); pending && o.PktReady {
					pending = false
					b.in.PktValid = false
					sent++
				} else if pending {
					stalls++
				}
				check()
			}
			b.in.CplReady = true
			b.in.AckReady = true
			if pending {
				require.GreaterOrEqual(t, b.sendWait(pkt{conn: b.in.PktConn, psn: b.in.PktPSN, path: b.in.PktPath,
					pseq: b.in.PktPseq, first: b.in.PktFirst, ackReq: b.in.PktAckReq, ecn: b.in.PktECN,
					handle: b.in.PktHandle}, 100*cfg.Window), 0, "last packet taken in")
				sent++
			}
			b.idle(8 * cfg.Window)
			check()
			// Fill every hole so that every accepted packet can be released: after the drain nextCpl is cum.
			for c := range cfg.Conns {
				cum := nextCpl[c]
				for k := range cfg.Window {
					p := cum.Add(int32(k))
					require.GreaterOrEqual(t, b.sendWait(pkt{conn: uint32(c), psn: p.Uint32(), first: p.Uint32()&1 == 1,
						handle: handle(uint32(c), p)}, 100), 0, "fill packet taken in")
					sent++
					check()
				}
			}
			b.idle(8 * cfg.Window)
			check()
			o := b.out
			require.Equal(t, sent, o.CntAccepted+o.CntDuplicate+o.CntOutOfWin+o.CntClosed, "every packet classified")
			require.Equal(t, int(o.CntAccepted), len(b.cpls), "every accepted packet completes")
			require.Zero(t, o.CntClosed, "no closed connection")
			require.NotZero(t, o.CntDuplicate, "duplicates exercised")
			require.NotZero(t, o.CntOutOfWin, "out of window exercised")
			require.NotZero(t, stalls, "s_pkt_ready back-pressure exercised")
		})
	}
}

// TestStepNoAlloc: Step does not allocate.
func TestStepNoAlloc(t *testing.T) {
	m, err := rxreorder.New(defaultCfg(t))
	require.NoError(t, err, "New(default)")
	in := rxreorder.In{CtlValid: true, CtlOpen: true, CplReady: true, AckReady: true}
	var out rxreorder.Out
	m.Step(&in, &out)
	in.CtlValid = false
	i := uint32(0)
	allocs := testing.AllocsPerRun(1000, func() {
		in.PktValid = true
		in.PktPSN = i
		in.PktPseq = i
		in.PktAckReq = i%7 == 0
		m.Step(&in, &out)
		i++
	})
	require.Zero(t, allocs, "allocations per Step")
}

// BenchmarkStep: saturating in-order traffic round-robin over all connections of the default config, one
// packet per cycle, every ready high.
func BenchmarkStep(b *testing.B) {
	cfg, err := config.Preset("default")
	if err != nil {
		b.Fatal(err)
	}
	m, err := rxreorder.New(cfg)
	if err != nil {
		b.Fatal(err)
	}
	in := rxreorder.In{CplReady: true, AckReady: true}
	var out rxreorder.Out
	for c := range cfg.Conns {
		in.CtlValid = true
		in.CtlOpen = true
		in.CtlConn = uint32(c)
		m.Step(&in, &out)
	}
	in.CtlValid = false
	in.PktValid = true
	psn := make([]uint32, cfg.Conns)
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		c := uint32(i) & uint32(cfg.Conns-1)
		in.PktConn = c
		in.PktPSN = psn[c]
		in.PktPath = 0
		in.PktPseq = psn[c]
		in.PktHandle = uint32(i)
		m.Step(&in, &out)
		if out.PktReady {
			psn[c]++
		}
	}
	b.StopTimer()
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "cycles/s")
}
