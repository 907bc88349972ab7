package nicroce_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/spraynic/spraynic/golden/nicroce"
	"github.com/spraynic/spraynic/stimulus/dmahost"
	"github.com/spraynic/spraynic/testseed"
)

const (
	peerMAC = 0x02_00_00_00_00_02
	peerIP  = 0x0A000002
)

// pattern is n bytes of a pattern seeded by s.
func pattern(n int, s byte) []byte {
	p := make([]byte, n)
	for i := range p {
		p[i] = byte(i*7) + s
	}
	return p
}

// openEnabled resets a bench with host config hc, enables it and opens connection 0.
func openEnabled(t *testing.T, hc dmahost.Config) *bench {
	b := newBench(t, hc)
	b.write(regCtrl, 1)
	b.open(0, peerMAC, peerIP, 100, 500)
	return b
}

// TestSendSegmentation: a work request of 2.5 MTU becomes three packets of consecutive PSNs with their offsets,
// lengths, flags and DMA reads; it completes OK after the ACK covering its last packet, not before.
func TestSendSegmentation(t *testing.T) {
	seed := testseed.Seed(t)
	t.Logf("seed %d", seed)
	b := openEnabled(t, dmahost.Config{Seed: seed, Stall: 0.2})
	mtu := uint32(b.cfg.MTU)
	l := 2*mtu + mtu/2
	data := pattern(int(l), 3)
	require.NoError(t, b.host.Mem.Write(0x10000, data))
	b.wrQ = append(b.wrQ, wr{conn: 0, id: 77, addr: 0x10000, len: l})
	b.until(2000, "three packets", func() bool { return len(b.sent) == 3 })
	b.run(200)
	require.Len(t, b.sent, 3, "no retransmission before the RTO")
	for k, p := range b.sent {
		want := min(mtu, l-uint32(k)*mtu)
		require.Equal(t, uint32(100+k), p.d.TxSPktPSN, "PSN of packet %d", k)
		require.Equal(t, uint32(k)*mtu, p.d.TxSPktOffset, "offset of packet %d", k)
		require.Equal(t, want, p.d.TxSPktLen, "len of packet %d", k)
		require.Equal(t, [2]bool{k == 0, k == 2}, [2]bool{p.d.TxSPktFirst, p.d.TxSPktLast}, "flags of packet %d", k)
		require.Equal(t, uint32(0), p.d.TxSPktHandle, "message sequence")
		require.Equal(t, data[uint32(k)*mtu:uint32(k)*mtu+want], p.payload, "payload of packet %d", k)
		require.Equal(t, dmaDesc{addr: 0x10000 + uint64(k)*uint64(mtu), len: want}, dmaDesc{addr: b.rds[k].addr,
			len: b.rds[k].len}, "DMA read %d", k)
	}
	require.Empty(t, b.cpls, "no completion before the ACK")
	b.rxQ = append(b.rxQ, rxPkt{ack: true, conn: 0, psn: 102, srcMAC: peerMAC, srcIP: peerIP})
	b.run(100)
	require.Empty(t, b.cpls, "an ACK short of the last packet completes nothing")
	b.rxQ = append(b.rxQ, rxPkt{ack: true, conn: 0, psn: 103, srcMAC: peerMAC, srcIP: peerIP})
	b.until(100, "send completion", func() bool { return len(b.cpls) == 1 })
	require.Equal(t, nicroce.Cpl{Conn: 0, ID: 77, Len: l, Status: nicroce.StatusOK}, b.cpls[0].Cpl)
	b.run(50)
	require.Len(t, b.cpls, 1, "exactly once")
	require.Equal(t, uint32(1), b.counter(cntCplSend))
	require.Equal(t, uint32(3), b.counter(cntTxData))
	require.Equal(t, uint32(1), b.counter(cntWrTaken))
}

// TestSendBeatBound: m_pkt waits while T2 and TXQ hold TXQ_BEATS (256) payload beats or more; at the default
// preset (128 beats a 4 KiB packet) at most three reads are issued before the first read's data returns.
func TestSendBeatBound(t *testing.T) {
	seed := testseed.Seed(t)
	t.Logf("seed %d", seed)
	b := newBenchOf(t, "default", dmahost.Config{Seed: seed, LatencyMin: 3000, LatencyMax: 3000})
	b.write(regCtrl, 1)
	b.open(0, peerMAC, peerIP, 100, 500)
	mtu := uint32(b.cfg.MTU)
	require.NoError(t, b.host.Mem.Write(0x10000, pattern(int(8*mtu), 5)))
	b.wrQ = append(b.wrQ, wr{conn: 0, id: 1, addr: 0x10000, len: 8 * mtu})
	b.run(1500)
	require.Empty(t, b.sent, "no data before the read latency")
	require.GreaterOrEqual(t, len(b.rds), 2, "two packets fit below the bound")
	require.LessOrEqual(t, len(b.rds), 3, "reads issued while the first is outstanding")
	b.until(40000, "eight packets", func() bool { return len(b.sent) == 8 })
}
