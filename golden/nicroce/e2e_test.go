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

// transfer is the scoreboard of one direction of one connection: the messages sent and the buffers they go to.
type transfer struct {
	conn uint32
	msgs [][]byte
	src  []uint64
	dst  []uint64
}

const bufStride = 0x10000

// plan posts n receives at b and n sends of random lengths (0..3 MTU) at a on connection c, data in a's memory.
func plan(t *testing.T, rng *rand.Rand, a, b *bench, c uint32, n int, base uint64) transfer {
	x := transfer{conn: c}
	mtu := a.cfg.MTU
	for i := 0; i < n; i++ {
		l := rng.IntN(3*mtu + 1)
		if i == 0 {
			l = 0
		}
		m := make([]byte, l)
		for j := range m {
			m[j] = byte(rng.Uint32())
		}
		src, dst := base+uint64(i)*bufStride, base+0x800000+uint64(i)*bufStride
		require.NoError(t, a.host.Mem.Write(src, m))
		x.msgs, x.src, x.dst = append(x.msgs, m), append(x.src, src), append(x.dst, dst)
		b.rqQ = append(b.rqQ, wr{conn: c, id: uint32(1000 + i), addr: dst, len: uint32(3 * mtu)})
		a.wrQ = append(a.wrQ, wr{conn: c, id: uint32(i), addr: src, len: uint32(l)})
	}
	return x
}

// check holds the scoreboard: every send of a and receive of b completed once, in order, OK, with its length,
// and every message is in its buffer byte for byte; it returns the buffers.
func (x *transfer) check(t *testing.T, a, b *bench) []dmahost.Range {
	var sends, recvs []nicroce.Cpl
	for _, c := range a.cpls {
		if !c.Recv && c.Conn == x.conn {
			sends = append(sends, c.Cpl)
		}
	}
	for _, c := range b.cpls {
		if c.Recv && c.Conn == x.conn {
			recvs = append(recvs, c.Cpl)
		}
	}
	require.Len(t, sends, len(x.msgs), "send completions")
	require.Len(t, recvs, len(x.msgs), "receive completions")
	var bufs []dmahost.Range
	for i, m := range x.msgs {
		l := uint32(len(m))
		require.Equal(t, nicroce.Cpl{Conn: x.conn, ID: uint32(i), Len: l}, sends[i], "send %d", i)
		require.Equal(t, nicroce.Cpl{Recv: true, Conn: x.conn, ID: uint32(1000 + i), Len: l}, recvs[i], "receive %d", i)
		got, err := b.host.Mem.Read(x.dst[i], len(m))
		require.NoError(t, err)
		require.Equal(t, m, got, "message %d", i)
		bufs = append(bufs, dmahost.Range{Addr: x.dst[i], Len: uint64(len(m))})
	}
	return bufs
}

// TestEndToEnd: two twins joined by the frame wire transfer messages both ways on two connections at 0%, 1% and
// 10% loss, with m_cpl_ready low in a third of the cycles, under the presets ice40 and default.
func TestEndToEnd(t *testing.T) {
	seed := testseed.Seed(t)
	t.Logf("seed %d", seed)
	for _, preset := range []string{"ice40", "default"} {
		for _, loss := range []float64{0, 0.01, 0.1} {
			t.Run(fmt.Sprintf("%s/loss%v", preset, loss), func(t *testing.T) { endToEnd(t, preset, seed, loss) })
		}
	}
}

// open enables x and opens connections 0..conns-1 to peer.
func openAll(x *bench, peer endpoint, conns int, txPSN uint32) {
	x.write(regCtrl, 1)
	x.txBase = txPSN
	for c := 0; c < conns; c++ {
		x.open(c, peer.mac, peer.ip, txPSN+uint32(c)*0x1000, 1000-txPSN+uint32(c)*0x1000)
	}
}

func endToEnd(t *testing.T, preset string, seed uint64, loss float64) {
	rng := rand.New(rand.NewPCG(seed, 1))
	hc := func(s uint64) dmahost.Config {
		return dmahost.Config{Seed: s, Stall: 0.1, LatencyMin: 2, LatencyMax: 20}
	}
	a, b := newBenchOf(t, preset, hc(seed+1)), newBenchOf(t, preset, hc(seed+2))
	for i, x := range []*bench{a, b} {
		r := rand.New(rand.NewPCG(seed, uint64(7+i)))
		x.cplReady = func(int64) bool { return r.IntN(3) != 0 }
	}
	ea, eb := endpoint{mac: 0x020000000001, ip: 0x0A000001}, endpoint{mac: 0x020000000002, ip: 0x0A000002}
	const conns, n = 2, 10
	openAll(a, eb, conns, 100)
	openAll(b, ea, conns, 900)
	ab := &wire{from: a, to: b, src: ea, dst: eb, loss: loss, rng: rand.New(rand.NewPCG(seed, 2))}
	ba := &wire{from: b, to: a, src: eb, dst: ea, loss: loss, rng: rand.New(rand.NewPCG(seed, 3))}
	var xs []transfer
	for c := uint32(0); c < conns; c++ {
		xs = append(xs, plan(t, rng, a, b, c, n, 0x1000000*uint64(1+2*c)), plan(t, rng, b, a, c, n,
			0x1000000*uint64(2+2*c)))
	}
	done := func() bool { return len(a.cpls) == 2*conns*n && len(b.cpls) == 2*conns*n }
	for i := 0; i < 400000 && !done(); i++ {
		a.step()
		b.step()
		ab.carry(a.cycle)
		ba.carry(b.cycle)
	}
	t.Logf("%s loss %v: %d cycles, frames lost %d", preset, loss, a.cycle, ab.lost+ba.lost)
	require.True(t, done(), "every request completes: A %d, B %d of %d", len(a.cpls), len(b.cpls), 2*conns*n)
	var inA, inB []dmahost.Range
	for i, x := range xs {
		if i%2 == 0 {
			inB = append(inB, x.check(t, a, b)...)
		} else {
			inA = append(inA, x.check(t, b, a)...)
		}
	}
	require.Empty(t, b.host.Mem.WrittenOutside(inB...), "DMA writes outside the received messages at B")
	require.Empty(t, a.host.Mem.WrittenOutside(inA...), "DMA writes outside the received messages at A")
}
