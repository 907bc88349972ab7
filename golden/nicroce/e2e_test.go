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

// transfer is the scoreboard of one direction: the messages sent and the buffers they go to.
type transfer struct {
	msgs [][]byte
	src  []uint64
	dst  []uint64
}

const bufStride = 0x10000

// plan posts n receives at b and n sends of random lengths (0..3 MTU) at a, data in a's memory.
func plan(t *testing.T, rng *rand.Rand, a, b *bench, n int, base uint64) transfer {
	var x transfer
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
		b.rqQ = append(b.rqQ, wr{conn: 0, id: uint32(1000 + i), addr: dst, len: uint32(3 * mtu)})
		a.wrQ = append(a.wrQ, wr{conn: 0, id: uint32(i), addr: src, len: uint32(l)})
	}
	return x
}

// check holds the scoreboard: every send of a and receive of b completed once, in order, OK, with its length,
// and every message is in its buffer byte for byte, nothing written outside the buffers.
func (x *transfer) check(t *testing.T, a, b *bench) {
	var sends, recvs []nicroce.Cpl
	for _, c := range a.cpls {
		if !c.Recv {
			sends = append(sends, c.Cpl)
		}
	}
	for _, c := range b.cpls {
		if c.Recv {
			recvs = append(recvs, c.Cpl)
		}
	}
	require.Len(t, sends, len(x.msgs), "send completions")
	require.Len(t, recvs, len(x.msgs), "receive completions")
	var bufs []dmahost.Range
	for i, m := range x.msgs {
		l := uint32(len(m))
		require.Equal(t, nicroce.Cpl{ID: uint32(i), Len: l}, sends[i], "send %d", i)
		require.Equal(t, nicroce.Cpl{Recv: true, ID: uint32(1000 + i), Len: l}, recvs[i], "receive %d", i)
		got, err := b.host.Mem.Read(x.dst[i], len(m))
		require.NoError(t, err)
		require.Equal(t, m, got, "message %d", i)
		bufs = append(bufs, dmahost.Range{Addr: x.dst[i], Len: uint64(len(m))})
	}
	require.Empty(t, b.host.Mem.WrittenOutside(bufs...), "DMA writes outside the received messages")
}

// TestEndToEnd: two twins joined by the frame wire transfer messages both ways at 0%, 1% and 10% loss.
func TestEndToEnd(t *testing.T) {
	seed := testseed.Seed(t)
	t.Logf("seed %d", seed)
	for _, loss := range []float64{0, 0.01, 0.1} {
		t.Run(fmt.Sprintf("loss%v", loss), func(t *testing.T) { endToEnd(t, seed, loss) })
	}
}

func endToEnd(t *testing.T, seed uint64, loss float64) {
	rng := rand.New(rand.NewPCG(seed, 1))
	hc := func(s uint64) dmahost.Config {
		return dmahost.Config{Seed: s, Stall: 0.1, LatencyMin: 2, LatencyMax: 20}
	}
	a, b := newBench(t, hc(seed+1)), newBench(t, hc(seed+2))
	ea, eb := endpoint{mac: 0x020000000001, ip: 0x0A000001}, endpoint{mac: 0x020000000002, ip: 0x0A000002}
	for _, s := range []struct {
		x    *bench
		peer endpoint
		tx   uint32
	}{{a, eb, 100}, {b, ea, 900}} {
		s.x.write(regCtrl, 1)
		s.x.open(0, s.peer.mac, s.peer.ip, s.tx, 1000-s.tx)
	}
	ab := &wire{from: a, to: b, src: ea, dst: eb, loss: loss, rng: rand.New(rand.NewPCG(seed, 2))}
	ba := &wire{from: b, to: a, src: eb, dst: ea, loss: loss, rng: rand.New(rand.NewPCG(seed, 3))}
	n := 12
	xab := plan(t, rng, a, b, n, 0x1000000)
	xba := plan(t, rng, b, a, n, 0x4000000)
	done := func() bool { return len(a.cpls) == 2*n && len(b.cpls) == 2*n }
	for i := 0; i < 400000 && !done(); i++ {
		a.step()
		b.step()
		ab.carry(a.cycle)
		ba.carry(b.cycle)
	}
	t.Logf("loss %v: %d cycles, frames lost %d", loss, a.cycle, ab.lost+ba.lost)
	require.True(t, done(), "every request completes: A %d, B %d of %d", len(a.cpls), len(b.cpls), 2*n)
	xab.check(t, a, b)
	xba.check(t, b, a)
}
