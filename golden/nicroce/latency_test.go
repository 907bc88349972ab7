package nicroce_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/spraynic/spraynic/stimulus/dmahost"
)

// TestLatencies measures the contract's latencies (docs/nic_roce.md "Latencies") without back-pressure: a work
// request to its first DMA read descriptor, the ACK covering a message to its send completion, the last write
// status of a message to its receive completion. The structure's figures are 5, 6 and 4 cycles; the first is 9
// here because the idle connection's decision slot is empty: path_sel decides in the 4 cycles after the first
// s_tx offer (the contract's <= 8 counts from the decision).
func TestLatencies(t *testing.T) {
	b := openEnabled(t, dmahost.Config{Seed: 1})
	b.run(200)
	require.NoError(t, b.host.Mem.Write(0x10000, pattern(100, 1)))
	b.wrQ = append(b.wrQ, wr{conn: 0, id: 1, addr: 0x10000, len: 100})
	b.until(100, "read descriptor", func() bool { return len(b.rds) == 1 })
	wrLat := b.rds[0].cycle - b.wrAt[0]
	b.run(50)
	b.rxQ = append(b.rxQ, rxPkt{ack: true, conn: 0, psn: 101, srcMAC: peerMAC, srcIP: peerIP})
	b.until(100, "send completion", func() bool { return len(b.cpls) == 1 })
	ackLat := b.cpls[0].cycle - b.ackAt[0]
	b.rqQ = append(b.rqQ, wr{conn: 0, id: 2, addr: 0x40000, len: 4096})
	b.run(10)
	b.rxQ = append(b.rxQ, message(b, 0, 500, pattern(100, 2))...)
	b.until(500, "receive completion", func() bool { return len(b.cpls) == 2 })
	rcvLat := b.cpls[1].cycle - b.wrSts[0]
	t.Logf("latencies: request to read %d, ACK to send completion %d, write status to receive completion %d",
		wrLat, ackLat, rcvLat)
	require.Equal(t, [3]int64{9, 6, 4}, [3]int64{wrLat, ackLat, rcvLat})
}
