package nicroce_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/spraynic/spraynic/golden/nicroce"
	"github.com/spraynic/spraynic/stimulus/dmahost"
	"github.com/spraynic/spraynic/testseed"
)

// cplKeys lists the completions as {recv, id, status}.
func cplKeys(cs []cplRec) [][3]uint32 {
	var ks [][3]uint32
	for _, c := range cs {
		ks = append(ks, [3]uint32{uint32(map[bool]int{false: 0, true: 1}[c.Recv]), c.ID, c.Status})
	}
	return ks
}

// TestCloseFlush: a close completes the outstanding sends, then the posted receives, CLOSED, oldest first, each
// once; a reopen starts with empty queues; requests for a closed connection complete CLOSED at once.
func TestCloseFlush(t *testing.T) {
	seed := testseed.Seed(t)
	t.Logf("seed %d", seed)
	b := openEnabled(t, dmahost.Config{Seed: seed, Stall: 0.1})
	require.NoError(t, b.host.Mem.Write(0x10000, pattern(3000, 1)))
	for i := uint32(0); i < 3; i++ {
		b.wrQ = append(b.wrQ, wr{conn: 0, id: 10 + i, addr: 0x10000, len: 1000})
		b.rqQ = append(b.rqQ, wr{conn: 0, id: 20 + i, addr: 0x40000 + 0x1000*uint64(i), len: 1000})
	}
	b.until(1000, "three packets sent", func() bool { return len(b.sent) == 3 })
	require.Equal(t, uint32(3<<8|3<<16|1), b.status(0), "CONN_STATUS: open, 3 sends, 3 receives")
	b.write(connBase+offCmd, 2)
	b.until(200, "six completions", func() bool { return len(b.cpls) == 6 })
	c := uint32(nicroce.StatusClosed)
	require.Equal(t, [][3]uint32{{0, 10, c}, {0, 11, c}, {0, 12, c}, {1, 20, c}, {1, 21, c}, {1, 22, c}},
		cplKeys(b.cpls))
	b.run(100)
	require.Len(t, b.cpls, 6)
	require.Equal(t, uint32(0), b.status(0))
	b.wrQ = append(b.wrQ, wr{conn: 0, id: 30, addr: 0x10000, len: 10})
	b.rqQ = append(b.rqQ, wr{conn: 0, id: 31, addr: 0x10000, len: 10})
	b.until(100, "immediate completions", func() bool { return len(b.cpls) == 8 })
	require.Equal(t, [][3]uint32{{0, 30, c}, {1, 31, c}}, cplKeys(b.cpls[6:]))
	b.open(0, peerMAC, peerIP, 200, 700)
	require.Equal(t, uint32(1), b.status(0), "reopened empty")
	b.wrQ = append(b.wrQ, wr{conn: 0, id: 40, addr: 0x10000, len: 10})
	b.until(1000, "a packet after the reopen", func() bool { return len(b.sent) == 4 })
	require.Equal(t, [2]uint32{200, 0}, [2]uint32{b.sent[3].d.TxSPktPSN, b.sent[3].d.TxSPktHandle})
}

// TestReadError: a failed DMA read poisons its frame, completes its send DMA_ERROR, the later sends and the
// receives CONN_ERROR (sends first), puts the connection in error and sets EVENTS.dma_error.
func TestReadError(t *testing.T) {
	seed := testseed.Seed(t)
	t.Logf("seed %d", seed)
	b := openEnabled(t, dmahost.Config{Seed: seed, RdErrorRate: 1})
	b.rqQ = append(b.rqQ, wr{conn: 0, id: 20, addr: 0x40000, len: 1000})
	b.run(10)
	b.wrQ = append(b.wrQ, wr{conn: 0, id: 10, addr: 0x10000, len: 100}, wr{conn: 0, id: 11, addr: 0x10000, len: 100})
	b.until(1000, "three completions", func() bool { return len(b.cpls) == 3 })
	require.Equal(t, [][3]uint32{{0, 10, nicroce.StatusDMAError}, {0, 11, nicroce.StatusConnError},
		{1, 20, nicroce.StatusConnError}}, cplKeys(b.cpls))
	require.NotEmpty(t, b.sent)
	require.True(t, b.sent[0].poison, "the failed read's frame is poisoned")
	require.Equal(t, uint32(2), b.status(0)&3, "CONN_STATUS.state error")
	require.Equal(t, uint32(8), b.read(0x18)&8, "EVENTS.dma_error")
	require.NotZero(t, b.counter(cntDmaRdError))
	require.Equal(t, uint32(3), b.counter(cntCplError))
}

// TestWriteError: a failed DMA write completes its receive DMA_ERROR with the message length.
func TestWriteError(t *testing.T) {
	b := openEnabled(t, dmahost.Config{Seed: 1, WrErrorRate: 1})
	b.rqQ = append(b.rqQ, wr{conn: 0, id: 20, addr: 0x40000, len: 4096})
	b.run(10)
	b.rxQ = append(b.rxQ, message(b, 0, 500, pattern(1500, 2))...)
	b.until(1000, "completion", func() bool { return len(b.cpls) == 1 })
	require.Equal(t, nicroce.Cpl{Recv: true, ID: 20, Len: 1500, Status: nicroce.StatusDMAError}, b.cpls[0].Cpl)
	require.Equal(t, uint32(2), b.counter(cntDmaWrError))
	require.Equal(t, uint32(1), b.status(0)&3, "a write error leaves the connection open")
}

// TestTooLong: a request longer than MAX_MSG puts its connection in error: the older send completes
// CONN_ERROR, then it completes TOO_LONG.
func TestTooLong(t *testing.T) {
	b := openEnabled(t, dmahost.Config{Seed: 1})
	maxMsg := uint32(1) << 19 * uint32(b.cfg.MTU)
	b.wrQ = append(b.wrQ, wr{conn: 0, id: 10, addr: 0x10000, len: 100},
		wr{conn: 0, id: 11, addr: 0x10000, len: maxMsg + 1})
	b.until(1000, "two completions", func() bool { return len(b.cpls) == 2 })
	require.Equal(t, [][3]uint32{{0, 10, nicroce.StatusConnError}, {0, 11, nicroce.StatusTooLong}}, cplKeys(b.cpls))
	require.Equal(t, uint32(2), b.status(0)&3)
	b.wrQ = append(b.wrQ, wr{conn: 0, id: 12, addr: 0x10000, len: maxMsg})
	b.until(100, "a request of MAX_MSG on the connection in error", func() bool { return len(b.cpls) == 3 })
	require.Equal(t, [3]uint32{0, 12, nicroce.StatusConnError}, cplKeys(b.cpls)[2])
}

// TestEnableGate: with CTRL.enable 0 frames are dropped whole and counted, s_wr waits, s_rq is taken; a frame
// already started when enable rises is dropped whole.
func TestEnableGate(t *testing.T) {
	b := newBench(t, dmahost.Config{Seed: 1})
	b.frameBeat = []Beat{{Keep: 0xFF}, {Keep: 0xFF}, {Keep: 0x0F, Last: true}}
	b.wrQ = append(b.wrQ, wr{conn: 0, id: 1, len: 10})
	b.rqQ = append(b.rqQ, wr{conn: 0, id: 2, len: 10})
	for i := 0; i < 20; i++ {
		b.step()
		require.False(t, b.out.RxSAxisTValid, "nothing reaches roce_rx")
		require.False(t, b.out.WrReady, "s_wr waits")
	}
	require.Empty(t, b.frameBeat, "dropped frames are taken")
	require.Len(t, b.wrQ, 1)
	require.Empty(t, b.rqQ, "s_rq is taken")
	require.Equal(t, uint32(1), b.counter(cntDisabled))
	b.frameBeat = []Beat{{Keep: 0xFF}, {Keep: 0xFF}, {Keep: 0x0F, Last: true}}
	b.step()
	b.axiQ = append(b.axiQ, axiOp{addr: regCtrl, data: 1})
	seen := 0
	for i := 0; i < 30; i++ {
		b.step()
		if b.out.RxSAxisTValid {
			seen++
		}
	}
	require.Zero(t, seen, "the frame started while disabled is dropped whole")
	b.frameBeat = []Beat{{Keep: 0xFF}, {Keep: 0x0F, Last: true}}
	b.step()
	require.True(t, b.out.RxSAxisTValid, "enabled: frames pass")
	require.Equal(t, uint32(2), b.counter(cntDisabled))
}

// TestTxGate: with CTRL.enable 0 no frame leaves MAC TX and roce_tx is held; a frame started leaves whole after
// enable falls.
func TestTxGate(t *testing.T) {
	b := newBench(t, dmahost.Config{Seed: 1})
	frame := make([]Beat, 20)
	for i := range frame {
		frame[i] = Beat{Keep: 0xFF, Data: [nicroce.Lanes]byte{byte(i)}, Last: i == len(frame)-1}
	}
	b.txBeats = append([]Beat(nil), frame...)
	for i := 0; i < 10; i++ {
		b.step()
		require.False(t, b.out.MacTxTValid || b.out.TxMAxisTReady, "disabled: held at the frame boundary")
	}
	b.write(regCtrl, 1)
	b.until(10, "first beat out", func() bool { return len(b.macTx) > 0 })
	b.axiQ = append(b.axiQ, axiOp{addr: regCtrl, data: 0})
	b.run(40)
	require.Equal(t, frame, b.macTx, "the frame leaves whole")
	b.txBeats = append([]Beat(nil), frame...)
	b.run(20)
	require.Len(t, b.macTx, len(frame), "the next frame waits")
}

// TestTxGateHolds: a first beat MAC TX has not taken when enable falls stays offered, unchanged (AXI-Stream),
// and its frame leaves whole once tready rises; the next frame waits.
func TestTxGateHolds(t *testing.T) {
	b := newBench(t, dmahost.Config{Seed: 1})
	frame := make([]Beat, 6)
	for i := range frame {
		frame[i] = Beat{Keep: 0xFF, Data: [nicroce.Lanes]byte{byte(i + 1)}, Last: i == len(frame)-1}
	}
	b.write(regCtrl, 1)
	b.macTxStall = true
	b.txBeats = append([]Beat(nil), frame...)
	b.until(10, "first beat offered", func() bool { return b.out.MacTxTValid })
	b.axiQ = append(b.axiQ, axiOp{addr: regCtrl, data: 0})
	for i := 0; i < 20; i++ {
		b.step()
		require.True(t, b.out.MacTxTValid, "cycle %d: the offered first beat stays offered", b.cycle)
		require.Equal(t, frame[0].Data, b.out.MacTxTData, "the beat is unchanged")
	}
	require.Empty(t, b.axiQ, "enable written 0")
	b.macTxStall = false
	b.run(20)
	require.Equal(t, frame, b.macTx, "the frame leaves whole")
	b.txBeats = append([]Beat(nil), frame...)
	b.run(20)
	require.Len(t, b.macTx, len(frame), "the next frame waits")
}

// TestCloseWaitsForWrites: a receive outstanding at a close completes CLOSED only after the DMA writes of the
// connection issued before the close have returned.
func TestCloseWaitsForWrites(t *testing.T) {
	b := openEnabled(t, dmahost.Config{Seed: 1, LatencyMin: 200, LatencyMax: 200})
	b.rqQ = append(b.rqQ, wr{conn: 0, id: 20, addr: 0x40000, len: 4096})
	b.run(10)
	ps := message(b, 0, 500, pattern(1500, 2))
	b.rxQ = append(b.rxQ, ps[0])
	b.until(500, "write issued", func() bool { return len(b.wrs) == 1 })
	b.write(connBase+offCmd, 2)
	b.until(1000, "completion", func() bool { return len(b.cpls) == 1 })
	require.Equal(t, [3]uint32{1, 20, nicroce.StatusClosed}, cplKeys(b.cpls)[0])
	require.Len(t, b.wrSts, 1)
	require.Less(t, b.wrSts[0], b.cpls[0].cycle, "the completion after the write's status")
}

// TestRetryError: a message never acknowledged puts its connection in error after MAX_RETRIES: the send, then
// the posted receive, complete CONN_ERROR; EVENTS.conn_error and CONN_STATUS show it; frames are then dropped.
func TestRetryError(t *testing.T) {
	b := openEnabled(t, dmahost.Config{Seed: 1})
	b.rqQ = append(b.rqQ, wr{conn: 0, id: 20, addr: 0x40000, len: 100})
	b.wrQ = append(b.wrQ, wr{conn: 0, id: 10, addr: 0x10000, len: 100})
	b.until(1000000, "two completions", func() bool { return len(b.cpls) == 2 })
	e := uint32(nicroce.StatusConnError)
	require.Equal(t, [][3]uint32{{0, 10, e}, {1, 20, e}}, cplKeys(b.cpls))
	require.Greater(t, len(b.sent), b.cfg.MaxRetries, "retransmitted MAX_RETRIES times")
	require.Equal(t, uint32(2), b.status(0)&3)
	require.Equal(t, uint32(1), b.read(0x18)&1, "EVENTS.conn_error")
	b.rxQ = append(b.rxQ, rxPkt{ack: true, conn: 0, psn: 101, srcMAC: peerMAC, srcIP: peerIP})
	b.run(50)
	require.Equal(t, uint32(1), b.counter(cntPeerClosed), "a connection in error accepts nothing")
}

// TestReopenDuringFlush: an open written while the close's flush waits for a DMA write shows in CONN_STATUS at
// once, takes effect when the flush ends, and the connection then sends from its new PSN.
func TestReopenDuringFlush(t *testing.T) {
	b := openEnabled(t, dmahost.Config{Seed: 1, LatencyMin: 300, LatencyMax: 300})
	b.rqQ = append(b.rqQ, wr{conn: 0, id: 20, addr: 0x40000, len: 4096})
	b.run(10)
	b.rxQ = append(b.rxQ, message(b, 0, 500, pattern(100, 2))...)
	b.until(500, "write issued", func() bool { return len(b.wrs) == 1 })
	b.write(connBase+offCmd, 2)
	b.open(0, peerMAC, peerIP, 3000, 4000)
	require.Equal(t, uint32(1), b.status(0)&3, "CONN_STATUS shows the open at once")
	b.wrQ = append(b.wrQ, wr{conn: 0, id: 30, addr: 0x10000, len: 10})
	b.run(20)
	require.Len(t, b.wrQ, 1, "s_wr of the connection waits while it flushes")
	b.until(1000, "the send after the flush", func() bool { return len(b.sent) == 1 })
	require.Equal(t, uint32(3000), b.sent[0].d.TxSPktPSN)
	require.Equal(t, [3]uint32{1, 20, nicroce.StatusClosed}, cplKeys(b.cpls)[0])
	require.Less(t, b.wrSts[0], b.sent[0].cycle, "the reopen took effect after the write returned")
}
