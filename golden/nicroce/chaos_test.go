package nicroce_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/spraynic/spraynic/golden/nicroce"
	"github.com/spraynic/spraynic/stimulus/dmahost"
	"github.com/spraynic/spraynic/testseed"
)

// ledger checks completions of one twin: each request exactly once, in submission order per connection and
// kind, with a status its kind may have.
type ledger struct {
	t      *testing.T
	next   uint32
	queues map[[2]uint32][]uint32
	seen   int
}

// submit queues a request of conn (recv: a posted receive) and returns its id.
func (l *ledger) submit(conn uint32, recv bool) uint32 {
	l.next++
	k := [2]uint32{conn, uint32(b2u(recv))}
	l.queues[k] = append(l.queues[k], l.next)
	return l.next
}

// sent0PSN is the CONN_TX_PSN openAll gave connection c.
func (b *bench) sent0PSN(c int) uint32 { return b.txBase + uint32(c)*0x1000 }

func b2u(b bool) int {
	if b {
		return 1
	}
	return 0
}

// take checks the completions recorded since the last call.
func (l *ledger) take(cpls []cplRec) {
	for ; l.seen < len(cpls); l.seen++ {
		c := cpls[l.seen]
		k := [2]uint32{c.Conn, uint32(b2u(c.Recv))}
		q := l.queues[k]
		require.NotEmpty(l.t, q, "completion %+v: nothing outstanding", c.Cpl)
		require.Equal(l.t, q[0], c.ID, "completion %+v out of order or repeated", c.Cpl)
		l.queues[k] = q[1:]
		ok := map[uint32]bool{nicroce.StatusOK: true, nicroce.StatusConnError: true, nicroce.StatusClosed: true,
			nicroce.StatusDMAError: true}
		require.True(l.t, ok[c.Status], "completion %+v: status", c.Cpl)
	}
}

// outstanding counts requests not completed.
func (l *ledger) outstanding() int {
	n := 0
	for _, q := range l.queues {
		n += len(q)
	}
	return n
}

// TestChaos: two twins over a lossy wire with DMA errors, requests on two connections, and the connections closed
// and reopened on both sides at random times; every request completes exactly once, in order.
func TestChaos(t *testing.T) {
	seed := testseed.Seed(t)
	t.Logf("seed %d", seed)
	for i := uint64(0); i < 3; i++ {
		t.Run(fmt.Sprint(i), func(t *testing.T) { chaos(t, seed*3+i) })
	}
}

// chaosConns is the connections the chaos test uses.
const chaosConns = 2

// rig is the chaos test's two twins, wires, ledgers and epoch watches.
type rig struct {
	a, b   *bench
	ab, ba *wire
	la, lb *ledger
	wa, wb func()
	epoch  uint32
}

func newRig(t *testing.T, seed uint64) *rig {
	hc := func(s uint64) dmahost.Config {
		return dmahost.Config{Seed: s, Stall: 0.2, LatencyMin: 2, LatencyMax: 40, RdErrorRate: 0.005,
			WrErrorRate: 0.005}
	}
	a, b := newBench(t, hc(seed+1)), newBench(t, hc(seed+2))
	ea, eb := endpoint{mac: 0x020000000001, ip: 0x0A000001}, endpoint{mac: 0x020000000002, ip: 0x0A000002}
	openAll(a, eb, chaosConns, 100)
	openAll(b, ea, chaosConns, 900)
	return &rig{a: a, b: b,
		ab: &wire{from: a, to: b, src: ea, dst: eb, loss: 0.05, rng: rand.New(rand.NewPCG(seed, 2))},
		ba: &wire{from: b, to: a, src: eb, dst: ea, loss: 0.05, rng: rand.New(rand.NewPCG(seed, 3))},
		la: &ledger{t: t, queues: map[[2]uint32][]uint32{}},
		lb: &ledger{t: t, queues: map[[2]uint32][]uint32{}, next: 1 << 20},
		wa: epochWatch(t, a, chaosConns), wb: epochWatch(t, b, chaosConns)}
}

// tick runs one cycle of both twins and the checks.
func (r *rig) tick() {
	r.a.step()
	r.b.step()
	r.wa()
	r.wb()
	r.ab.carry(r.a.cycle)
	r.ba.carry(r.b.cycle)
	r.la.take(r.a.cpls)
	r.lb.take(r.b.cpls)
}

// inject queues random requests at both twins.
func (r *rig) inject(rng *rand.Rand) {
	for _, s := range []struct {
		x *bench
		l *ledger
	}{{r.a, r.la}, {r.b, r.lb}} {
		if rng.IntN(40) == 0 && len(s.x.wrQ) < 4 {
			c := uint32(rng.IntN(chaosConns))
			s.x.wrQ = append(s.x.wrQ, wr{conn: c, id: s.l.submit(c, false), addr: 0x10000,
				len: uint32(rng.IntN(2*s.x.cfg.MTU + 1))})
		}
		if rng.IntN(40) == 0 && len(s.x.rqQ) < 4 {
			c := uint32(rng.IntN(chaosConns))
			s.x.rqQ = append(s.x.rqQ, wr{conn: c, id: s.l.submit(c, true), addr: 0x100000 * uint64(1+c),
				len: uint32(2 * s.x.cfg.MTU)})
		}
	}
}

// close queues a close of c at both twins.
func (r *rig) close(c int) {
	for _, x := range []*bench{r.a, r.b} {
		x.axiQ = append(x.axiQ, axiOp{addr: uint32(connBase+connStride*c) + offCmd, data: 2})
	}
}

func chaos(t *testing.T, seed uint64) {
	rng := rand.New(rand.NewPCG(seed, 11))
	r := newRig(t, seed)
	for i := 0; i < 30000; i++ {
		r.inject(rng)
		if rng.IntN(3000) == 0 && len(r.a.axiQ) == 0 && len(r.b.axiQ) == 0 {
			c := rng.IntN(chaosConns)
			r.epoch++
			r.close(c)
			for j := 0; j < 200; j++ {
				r.tick()
			}
			openPair(r.a, r.b, r.ab.src, r.ab.dst, c, 0x100000*r.epoch)
		}
		r.tick()
	}
	for c := 0; c < chaosConns; c++ {
		r.close(c)
	}
	for i := 0; i < 100000 && (r.la.outstanding() > 0 || r.lb.outstanding() > 0 || len(r.a.wrQ)+len(r.a.rqQ)+
		len(r.b.wrQ)+len(r.b.rqQ) > 0); i++ {
		r.tick()
	}
	r.check(t, seed)
}

// check holds the end of a chaos run: every request completed, some OK, no write outside the posted buffers.
func (r *rig) check(t *testing.T, seed uint64) {
	var st [5]int
	for _, c := range append(append([]cplRec(nil), r.a.cpls...), r.b.cpls...) {
		st[c.Status]++
	}
	t.Logf("seed %d: %d cycles, %d and %d completions (by status %v), %d frames lost, %d epochs", seed, r.a.cycle,
		len(r.a.cpls), len(r.b.cpls), st, r.ab.lost+r.ba.lost, r.epoch)
	require.NotZero(t, st[nicroce.StatusOK], "some requests complete OK")
	for _, x := range []*bench{r.a, r.b} {
		var bufs []dmahost.Range
		for c := 0; c < chaosConns; c++ {
			bufs = append(bufs, dmahost.Range{Addr: 0x100000 * uint64(1+c), Len: uint64(2 * x.cfg.MTU)})
		}
		require.Empty(t, x.host.Mem.WrittenOutside(bufs...), "DMA writes outside posted buffers")
	}
	require.Zero(t, r.la.outstanding(), "A: requests without completion")
	require.Zero(t, r.lb.outstanding(), "B: requests without completion")
}

// connEvent is a connection's state from the edge of an AXI4-Lite write response on.
type connEvent struct {
	cycle int64
	open  bool
	txPSN uint32
}

// epochWatch returns a check of x's new packets against the epoch their s_pkt handshake was in: none while the
// connection is closed (after the close's response cycle), PSNs within 2^20 of the epoch's CONN_TX_PSN (epochs
// are 2^20 apart).
func epochWatch(t *testing.T, x *bench, conns int) func() {
	hist := make([][]connEvent, conns)
	for c := range hist {
		hist[c] = []connEvent{{cycle: -1, open: true, txPSN: x.sent0PSN(c)}}
	}
	x.onWrite = func(op axiOp) {
		c, off := int(op.addr-connBase)/connStride, (op.addr-connBase)%connStride
		if op.addr < connBase || (off != offTxPSN && off != offCmd) {
			return
		}
		e := hist[c][len(hist[c])-1]
		e.cycle = x.cycle
		if off == offTxPSN {
			e.txPSN = op.data
		} else {
			e.open = op.data == 1
		}
		hist[c] = append(hist[c], e)
	}
	seen := len(x.sent)
	return func() {
		for ; seen < len(x.sent); seen++ {
			p, at := x.sent[seen].d, x.sent[seen].cycle
			h := hist[p.TxSPktConn]
			k := len(h) - 1
			for h[k].cycle >= at {
				k--
			}
			require.True(t, h[k].open, "cycle %d: a packet of connection %d while closed", at, p.TxSPktConn)
			require.Less(t, (p.TxSPktPSN-h[k].txPSN)&0xFFFFFF, uint32(1<<20), "cycle %d: PSN %#x of an old epoch", at,
				p.TxSPktPSN)
		}
	}
}

// openPair reopens connection c on both sides with matching PSNs from base (AXI writes queued, run by tick).
func openPair(a, b *bench, ea, eb endpoint, c int, base uint32) {
	for _, s := range []struct {
		x      *bench
		peer   endpoint
		tx, rx uint32
	}{{a, eb, base + 100, base + 900}, {b, ea, base + 900, base + 100}} {
		cb := uint32(connBase + connStride*c)
		s.x.axiQ = append(s.x.axiQ, axiOp{addr: cb + offMacLo, data: uint32(s.peer.mac)},
			axiOp{addr: cb + offMacHi, data: uint32(s.peer.mac>>32)&0xFFFF | 1<<16}, axiOp{addr: cb + offIP,
				data: s.peer.ip}, axiOp{addr: cb + offTxPSN, data: s.tx & 0xFFFFFF},
			axiOp{addr: cb + offRxPSN, data: s.rx & 0xFFFFFF}, axiOp{addr: cb + offCmd, data: 1})
	}
}
