package cosim

import (
	"bytes"
	"errors"
	"net"
	"net/netip"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/spraynic/spraynic/config"
	"github.com/spraynic/spraynic/system/roce"
)

// trFrame builds a data frame of connection 0 (default preset) from 10.0.0.1 to 10.0.0.2: message id, offset,
// 8 payload bytes, the L flag.
func trFrame(t *testing.T, cfg config.Config, psn, id, offset uint32, last bool) roce.CapturedFrame {
	t.Helper()
	d := roce.Data{Header: roce.Header{SrcMAC: [6]byte{2, 0, 0, 0, 0, 1}, DstMAC: [6]byte{2, 0, 0, 0, 0, 2},
		SrcIP: netip.MustParseAddr("10.0.0.1"), DstIP: netip.MustParseAddr("10.0.0.2"), ECN: roce.ECNECT0, TTL: 64,
		SrcPort: 0xC000, PKey: roce.DefaultPKey, DestQP: uint32(cfg.QPNBase)}, PSN: psn, PSeq: psn,
		First: offset == 0, Last: last, MsgID: id, Offset: offset, Payload: bytes.Repeat([]byte{byte(psn)}, 8)}
	f, err := roce.BuildData(&d)
	require.NoError(t, err)
	return roce.CapturedFrame{Data: f, Length: len(f)}
}

// TestPlanReplay: the plan unwraps message ids and PSNs, takes every frame to the endpoint, and refuses a capture
// that does not start at the connection's opening, a payload beyond what the capture can carry, and an endpoint
// no frame is addressed to.
func TestPlanReplay(t *testing.T) {
	cfg, err := config.Preset("default")
	require.NoError(t, err)
	hm := uint32(1)<<cfg.HandleWidth - 1
	ack, err := roce.BuildAck(&roce.Ack{Header: roce.Header{SrcMAC: [6]byte{2, 0, 0, 0, 0, 1},
		DstMAC: [6]byte{2, 0, 0, 0, 0, 2}, SrcIP: netip.MustParseAddr("10.0.0.1"),
		DstIP: netip.MustParseAddr("10.0.0.2"), ECN: roce.ECNECT0, TTL: 64, SrcPort: 0xC000, PKey: roce.DefaultPKey,
		DestQP: uint32(cfg.QPNBase)}, CumPSN: 0, HasSACK: true, Words: 1})
	require.NoError(t, err)
	frames := []roce.CapturedFrame{{Data: ack, Length: len(ack)}, trFrame(t, cfg, 0xFFFFFF, 0, 0, false),
		trFrame(t, cfg, 1, 1, 0, true), trFrame(t, cfg, 0, 0, 8, true)}
	pl, err := planReplay(cfg, &roce.Capture{Frames: frames}, nil)
	require.NoError(t, err)
	require.Len(t, pl.feed, 4, "the ACK before the first data frame is fed too")
	tc := pl.conns[0]
	require.Equal(t, uint32(0xFFFFFF), tc.rxPSN(), "the lowest PSN in serial order")
	require.Len(t, tc.msgs, 2)
	require.True(t, tc.msgs[0].whole())
	require.Equal(t, 16, tc.msgs[0].size)

	for _, c := range []struct {
		name   string
		frames []roce.CapturedFrame
		want   string
	}{
		{"before message 0", []roce.CapturedFrame{trFrame(t, cfg, 5, 1, 0, true), trFrame(t, cfg, 4, hm, 0, true)},
			"message -1 counted from the first seen (allowed 0..2)"},
		{"mid-stream start", []roce.CapturedFrame{trFrame(t, cfg, 5, 9, 0, true)},
			"message id 9 is message 9 counted from the first seen (allowed 0..1): the capture must start"},
		{"offset", []roce.CapturedFrame{trFrame(t, cfg, 5, 0, 1<<30, true)},
			"payload ends at byte 1073741832, beyond what the capture's 1 frames carry"},
	} {
		_, err := planReplay(cfg, &roce.Capture{Frames: c.frames}, nil)
		require.ErrorContains(t, err, c.want, c.name)
	}
	_, err = planReplay(cfg, &roce.Capture{Frames: frames}, net.HardwareAddr{2, 0, 0, 0, 0, 9})
	require.True(t, errors.Is(err, ErrNoEndpoint))
	require.ErrorContains(t, err, "no frame of the capture has the Ethernet destination 02:00:00:00:00:09 "+
		"(allowed: one the capture has: 02:00:00:00:00:02)")
	_, err = planReplay(cfg, &roce.Capture{Frames: frames[:1]}, nil)
	require.True(t, errors.Is(err, ErrNoEndpoint))
}
