package nicroce_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/spraynic/spraynic/golden/nicroce"
	"github.com/spraynic/spraynic/stimulus/dmahost"
	"github.com/spraynic/spraynic/testseed"
)

// message returns the data descriptors of message handle of length l from PSN psn, in packet order.
func message(b *bench, handle, psn uint32, data []byte) []rxPkt {
	mtu := b.cfg.MTU
	var ps []rxPkt
	for off := 0; off == 0 || off < len(data); off += mtu {
		end := min(len(data), off+mtu)
		ps = append(ps, rxPkt{conn: 0, psn: psn + uint32(off/mtu), handle: handle, offset: uint32(off),
			first: off == 0, last: end == len(data), srcMAC: peerMAC, srcIP: peerIP, payload: data[off:end]})
	}
	return ps
}

// TestReceive: a posted receive gets its message's DMA writes (in its buffer, byte for byte) and one
// completion OK with the message length, after the last write status; a second message, posted later, too.
func TestReceive(t *testing.T) {
	seed := testseed.Seed(t)
	t.Logf("seed %d", seed)
	b := openEnabled(t, dmahost.Config{Seed: seed, Stall: 0.2, LatencyMin: 5, LatencyMax: 30})
	m0, m1 := pattern(2000, 1), pattern(700, 9)
	b.rqQ = append(b.rqQ, wr{conn: 0, id: 5, addr: 0x40000, len: 4096})
	b.run(10)
	ps := message(b, 0, 500, m0)
	b.rxQ = append(b.rxQ, ps[1], ps[0])
	b.until(2000, "receive completion", func() bool { return len(b.cpls) == 1 })
	require.Equal(t, nicroce.Cpl{Recv: true, Conn: 0, ID: 5, Len: 2000, Status: nicroce.StatusOK}, b.cpls[0].Cpl)
	require.Len(t, b.wrs, 2, "one DMA write per packet")
	require.Less(t, b.wrSts[len(b.wrSts)-1], b.cpls[0].cycle, "completion after the last write status")
	got, err := b.host.Mem.Read(0x40000, 2000)
	require.NoError(t, err)
	require.Equal(t, m0, got)
	require.Empty(t, b.host.Mem.WrittenOutside(dmahost.Range{Addr: 0x40000, Len: 2000}))
	// The second message arrives before its buffer: dropped (no buffer), then recovered after the post.
	b.rxQ = append(b.rxQ, message(b, 1, 502, m1)...)
	b.run(100)
	require.Equal(t, uint32(1), b.counter(cntRxNoBuffer))
	b.rqQ = append(b.rqQ, wr{conn: 0, id: 6, addr: 0x50000, len: 700})
	b.run(20)
	b.rxQ = append(b.rxQ, message(b, 1, 502, m1)...)
	b.until(2000, "second completion", func() bool { return len(b.cpls) == 2 })
	require.Equal(t, nicroce.Cpl{Recv: true, Conn: 0, ID: 6, Len: 700, Status: nicroce.StatusOK}, b.cpls[1].Cpl)
	got, err = b.host.Mem.Read(0x50000, 700)
	require.NoError(t, err)
	require.Equal(t, m1, got)
	// A duplicate of a completed message writes nothing and completes nothing.
	nw := len(b.wrs)
	b.rxQ = append(b.rxQ, message(b, 1, 502, m1)...)
	b.run(200)
	require.Len(t, b.wrs, nw, "a duplicate writes nothing")
	require.Len(t, b.cpls, 2, "each receive completes once")
	require.Equal(t, uint32(2), b.counter(cntCplRecv))
	require.NotEmpty(t, b.acks, "the receiver acknowledges")
}

// TestOverrun: a packet ending beyond its buffer is dropped and counted and writes nothing.
func TestOverrun(t *testing.T) {
	b := openEnabled(t, dmahost.Config{Seed: 1})
	b.rqQ = append(b.rqQ, wr{conn: 0, id: 5, addr: 0x40000, len: 100})
	b.run(10)
	b.rxQ = append(b.rxQ, message(b, 0, 500, pattern(200, 1))...)
	b.run(200)
	require.Equal(t, uint32(1), b.counter(cntRxOverrun))
	require.Empty(t, b.wrs)
	require.Empty(t, b.cpls)
}

// TestPeerCheck: frames of a closed connection, from another IP, from another MAC are dropped, counted, set
// EVENTS.peer_drop and write nothing; the peer's own frame passes.
func TestPeerCheck(t *testing.T) {
	b := openEnabled(t, dmahost.Config{Seed: 1})
	b.rqQ = append(b.rqQ, wr{conn: 0, id: 5, addr: 0x40000, len: 4096})
	b.run(10)
	p := message(b, 0, 500, pattern(100, 1))[0]
	closed, ip, mac := p, p, p
	closed.conn = 1
	ip.srcIP++
	mac.srcMAC ^= 1
	ack := rxPkt{ack: true, conn: 0, psn: 100, srcMAC: peerMAC, srcIP: peerIP + 1}
	b.rxQ = append(b.rxQ, closed, ip, mac, ack)
	b.run(100)
	require.Equal(t, [3]uint32{1, 2, 1}, [3]uint32{b.counter(cntPeerClosed), b.counter(cntPeerIP),
		b.counter(cntPeerMAC)})
	require.Equal(t, uint32(4), b.read(0x18)&4, "EVENTS.peer_drop")
	require.Empty(t, b.wrs)
	require.Empty(t, b.cpls)
	require.Empty(t, b.acks, "nothing reached nic_transport")
	b.rxQ = append(b.rxQ, p)
	b.until(500, "the peer's packet completes", func() bool { return len(b.cpls) == 1 })
	require.Equal(t, nicroce.StatusOK, int(b.cpls[0].Status))
}
