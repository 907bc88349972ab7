package nicroce_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/spraynic/spraynic/stimulus/dmahost"
)

// TestCounterClear: CNT_CLEAR zeroes the top's own counters and the block counters it shows.
func TestCounterClear(t *testing.T) {
	b := openEnabled(t, dmahost.Config{Seed: 1})
	require.NoError(t, b.host.Mem.Write(0x10000, pattern(100, 1)))
	b.wrQ = append(b.wrQ, wr{conn: 0, id: 1, addr: 0x10000, len: 100})
	b.until(500, "a packet", func() bool { return len(b.sent) == 1 })
	b.run(5)
	require.Equal(t, [2]uint32{1, 1}, [2]uint32{b.counter(0), b.counter(cntWrTaken)}, "CNT_SENT, CNT_WR_TAKEN")
	b.write(0x14, 1)
	require.Equal(t, [3]uint32{0, 0, 0}, [3]uint32{b.counter(0), b.counter(cntWrTaken), b.counter(cntTxData)})
	b.wrQ = append(b.wrQ, wr{conn: 0, id: 2, addr: 0x10000, len: 100})
	b.until(500, "a packet", func() bool { return len(b.sent) == 2 })
	b.run(5)
	require.Equal(t, [2]uint32{1, 1}, [2]uint32{b.counter(0), b.counter(cntWrTaken)}, "counting again")
}

// TestReset: rst drops every ready in its cycle and returns connections, queues and counters to reset; the
// twin works again after it.
func TestReset(t *testing.T) {
	b := openEnabled(t, dmahost.Config{Seed: 1})
	b.rqQ = append(b.rqQ, wr{conn: 0, id: 20, addr: 0x40000, len: 4096})
	b.wrQ = append(b.wrQ, wr{conn: 0, id: 10, addr: 0x10000, len: 3000})
	b.rxQ = append(b.rxQ, message(b, 0, 500, pattern(1500, 2))...)
	b.run(30)
	b.in.Rst = true
	b.step()
	o := &b.out
	require.False(t, o.MacRxTReady || o.WrReady || o.RqReady || o.DmaRdTReady || o.RxMRxReady || o.RxMAckReady ||
		o.RxMAxisTReady || o.TxMAxisTReady || o.AxilAWReady || o.AxilWReady || o.AxilARReady, "readies in rst")
	b.in.Rst = false
	b.rxQ, b.payQ, b.payB, b.cur, b.wrQ, b.rqQ = nil, nil, 0, nil, nil, nil
	b.run(5)
	require.Equal(t, uint32(0), b.status(0), "closed after rst")
	require.Equal(t, uint32(0), b.read(regCtrl), "CTRL reset")
	require.Equal(t, uint32(0), b.counter(cntWrTaken))
	n := len(b.cpls)
	b.write(regCtrl, 1)
	b.open(0, peerMAC, peerIP, 100, 500)
	ns := len(b.sent)
	b.wrQ = append(b.wrQ, wr{conn: 0, id: 11, addr: 0x10000, len: 10})
	b.until(1000, "a packet after rst", func() bool { return len(b.sent) == ns+1 })
	require.Equal(t, uint32(100), b.sent[ns].d.TxSPktPSN)
	b.rxQ = append(b.rxQ, rxPkt{ack: true, conn: 0, psn: 101, srcMAC: peerMAC, srcIP: peerIP})
	b.until(1000, "a completion after rst", func() bool { return len(b.cpls) == n+1 })
	require.Equal(t, [3]uint32{0, 11, 0}, cplKeys(b.cpls)[n])
}

// TestCloseEmptiesWalker: a send completion waiting in W2 behind a held m_cpl at a close is not sent OK: the flush
// completes its request CLOSED, once; the completion already in the m_cpl register is sent.
func TestCloseEmptiesWalker(t *testing.T) {
	b := openEnabled(t, dmahost.Config{Seed: 1})
	require.NoError(t, b.host.Mem.Write(0x10000, pattern(10, 1)))
	b.wrQ = append(b.wrQ, wr{conn: 0, id: 1, addr: 0x10000, len: 10}, wr{conn: 0, id: 2, addr: 0x10000, len: 10})
	b.until(1000, "two packets", func() bool { return len(b.sent) == 2 })
	b.cplReady = func(int64) bool { return false }
	b.rxQ = append(b.rxQ, rxPkt{ack: true, conn: 0, psn: 102, srcMAC: peerMAC, srcIP: peerIP})
	b.run(50)
	b.write(connBase+offCmd, 2)
	b.run(20)
	b.cplReady = func(int64) bool { return true }
	b.run(100)
	require.Equal(t, [][3]uint32{{0, 1, 0}, {0, 2, 2}}, cplKeys(b.cpls))
}
