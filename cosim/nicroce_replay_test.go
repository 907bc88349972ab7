package cosim_test

import (
	"bytes"
	"fmt"
	"net"
	"os"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/spraynic/spraynic/config"
	"github.com/spraynic/spraynic/cosim"
	"github.com/spraynic/spraynic/system"
	"github.com/spraynic/spraynic/system/roce"
	"github.com/spraynic/spraynic/testseed"
)

// TestTopReplay replays an end-to-end capture into one nic_roce top (docs/e2e_frames.md, "Replay into one top"):
// as the receiver every message arrives, checked byte for byte; without the last packet of one message that
// message and the later ones of its connection stay incomplete; a frame with a bad ICRC is counted and changes
// nothing; as the sender only the ACKs are fed.
func TestTopReplay(t *testing.T) {
	sd := testseed.Seed(t)
	fmt.Printf("cosim: TestTopReplay seed=%d (SEED=N to change)\n", sd)
	cfg, _ := nicRoCEModel(t)
	var buf bytes.Buffer
	_, err := system.Run(system.Options{Config: cfg, Conns: 3, Msg: "uniform:1:20000", Loss: 0.03,
		DurationUS: 10, Seed: sd, Capture: &buf})
	require.NoError(t, err)
	capt, err := roce.ReadCapture("capture", &buf)
	require.NoError(t, err)
	replay := func(c *roce.Capture, local net.HardwareAddr) *cosim.TopReplayResult {
		t.Helper()
		res, err := cosim.TopReplay(cosim.TopReplayOptions{Root: root(t), Config: cfg, Capture: c, LocalMAC: local,
			Cache: os.Getenv("SPRAYNIC_CACHE"), Repro: fmt.Sprintf("SEED=%d go test ./cosim -run TestTopReplay", sd)})
		require.NoError(t, err, "seed %d", sd)
		return res
	}

	res := replay(capt, nil)
	require.Len(t, res.Conns, 3)
	for _, c := range res.Conns {
		require.Positive(t, c.Messages)
		require.Equal(t, c.Messages, c.Whole, "conn %d: the capture holds every message", c.Conn)
		require.Equal(t, c.Messages, c.Received, "conn %d: every message received", c.Conn)
	}
	require.Equal(t, res.Fed, counter(res, "DATA"), "every frame fed is data")
	require.Positive(t, counter(res, "DUPLICATE"), "the capture's retransmissions arrive as duplicates")
	require.Positive(t, len(res.Sent))
	recvd := res.Conns[0].Received

	cut, msgs := withoutLast(t, cfg, capt, 0, 1)
	require.Positive(t, msgs, "frames removed")
	res = replay(cut, nil)
	require.Equal(t, res.Conns[0].Messages-1, res.Conns[0].Whole)
	require.Equal(t, 1, res.Conns[0].Received, "in-order completion stops at the incomplete message")
	require.Equal(t, res.Conns[1].Messages, res.Conns[1].Received, "other connections are not held")

	bad := *capt
	f := bytes.Clone(dataFrame(t, capt))
	f[len(f)-5] ^= 0x40
	bad.Frames = append(bad.Frames[:len(bad.Frames):len(bad.Frames)], roce.CapturedFrame{Data: f,
		Length: len(f), LinkType: capt.Frames[0].LinkType})
	res = replay(&bad, nil)
	require.Equal(t, 1, counter(res, "BAD_ICRC"))
	require.Equal(t, recvd, res.Conns[0].Received)

	d, err := roce.Parse(dataFrame(t, capt))
	require.NoError(t, err)
	sender := net.HardwareAddr(d.Data.SrcMAC[:])
	res = replay(capt, sender)
	require.Positive(t, res.Fed)
	require.Equal(t, res.Fed, counter(res, "ACK"), "the sender is fed the ACKs alone")
	require.Zero(t, counter(res, "CPL_RECV"))
}

// counter is the named counter (without CNT_) of a replay.
func counter(res *cosim.TopReplayResult, name string) int {
	for _, c := range res.Counters {
		if c.Name == name {
			return int(c.Value)
		}
	}
	return -1
}

// dataFrame is the first data frame of a capture.
func dataFrame(t *testing.T, capt *roce.Capture) []byte {
	for _, f := range capt.Frames {
		if p, err := roce.Parse(f.Data); err == nil && !p.IsAck() {
			return f.Data
		}
	}
	t.Fatal("no data frame in the capture")
	return nil
}

// withoutLast is capt without every frame of the last packet of message msg on connection conn; it returns how
// many frames it removed.
func withoutLast(t *testing.T, cfg config.Config, capt *roce.Capture, conn, msg uint32) (*roce.Capture, int) {
	t.Helper()
	out := *capt
	out.Frames = nil
	n := 0
	for _, f := range capt.Frames {
		p, err := roce.Parse(f.Data)
		if err == nil && !p.IsAck() && p.Data.DestQP == uint32(cfg.QPNBase)+conn && p.Data.MsgID == msg &&
			p.Data.Last {
			n++
			continue
		}
		out.Frames = append(out.Frames, f)
	}
	return &out, n
}
