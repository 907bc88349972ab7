package ibrc

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// TestProbe: the peer's requester stalls in the middle of its message with everything it sent acknowledged, as
// rxe's does when its NIC driver holds 64 of its packets, until its queue pair transmits again. Endpoint 0 has
// nothing unacknowledged, so no timer runs on either side: only the probe (endpoint 0's last packet sent again,
// acknowledged again by the peer's responder) ends the stall; with the probe off the run stops there. Without a
// message of its own ("first message"), endpoint 0 has no packet to send again: its probe is an empty SEND Only at
// the PSN before its first, a duplicate to the peer all the same.
func TestProbe(t *testing.T) {
	for _, tc := range []struct {
		name  string
		probe time.Duration
		ping  bool
	}{{name: "default probe", probe: DefaultConfig().ProbeAfter, ping: true},
		{name: "probe off", probe: 0, ping: true},
		{name: "first message", probe: DefaultConfig().ProbeAfter}} {
		t.Run(tc.name, func(t *testing.T) {
			l := newLink(t, 1, 0, 0x10, 0xFFFFF0)
			l.eps[0].cfg.ProbeAfter = tc.probe
			ping, pong := make([]byte, 1000), make([]byte, 100*1024)
			if tc.ping {
				require.NoError(t, l.eps[0].Post(ping))
			}
			require.NoError(t, l.eps[1].Post(pong))
			// the peer stalls after its 48th data packet (endpoint 0 acknowledges every 16) and drops the rest of
			// that burst unsent; a packet of its own queue pair sent again (its responder's ACK of a duplicate)
			// ends the stall
			data, stalled := 0, false
			l.hook = func(from int, f []byte) bool {
				if p, err := Parse(f); err == nil && from == 1 && p.Opcode != OpAck {
					data++
					stalled = stalled || data == 48
					return data <= 48 || !stalled
				}
				return true
			}
			l.hold = func(i int) bool {
				if i == 1 && stalled && l.eps[1].Stats().Duplicates > 0 {
					stalled = false
				}
				return i == 1 && stalled
			}
			l.run(10 * time.Second)
			s := l.eps[0].Stats()
			if tc.probe == 0 {
				require.True(t, stalled, "the peer is still stalled")
				require.Empty(t, l.eps[0].Received(), "the peer's message is not complete")
				require.Zero(t, s.Probes)
				return
			}
			require.False(t, stalled, "the probe ended the peer's stall")
			require.Equal(t, [][]byte{pong}, l.eps[0].Received())
			sent := 0
			if tc.ping {
				require.Equal(t, [][]byte{ping}, l.eps[1].Received())
				sent = 1
			} else {
				require.Empty(t, l.eps[1].Received(), "the probe delivers nothing")
			}
			require.Equal(t, 1, s.Probes, "one probe")
			require.Equal(t, 1, l.eps[1].Stats().Duplicates, "the probe is a duplicate to the peer")
			require.Equal(t, sent, s.DataSent, "a probe is not counted as data sent")
			require.Zero(t, l.eps[1].Stats().Bad+l.eps[1].Stats().OutOfSeq, "the peer saw nothing wrong")
			require.Less(t, l.now, tc.probe+10*time.Millisecond, "done one probe interval after the stall")
			require.NoError(t, l.eps[0].Err())
		})
	}
}

// rxeRequester is a scripted requester with the sequence-NAK rule of rxe's completer (rxe_comp.c): a NAK starts a
// go-back-N retry unless one is under way (started); only an ACK at or past the oldest unacknowledged PSN, or its
// retransmit timer, ends that state. It sends one message of n packets, at most 128 unacknowledged.
type rxeRequester struct {
	b             *Endpoint // the frames' header (b's side of the pair)
	psn           uint32
	n, next, comp int // packets; next to send; oldest unacknowledged
	started       bool
	sent          map[int]int // transmissions per packet
	progress      time.Duration
	timeout       time.Duration
	timeouts      int
}

// send returns the packets the requester may send now; a timer expiry goes back to the oldest unacknowledged.
func (r *rxeRequester) send(t *testing.T, now time.Duration) [][]byte {
	if r.comp < r.next && now >= r.progress+r.timeout {
		r.timeouts++
		r.next, r.started, r.progress = r.comp, true, now
	}
	var out [][]byte
	for ; r.next < r.n && r.next-r.comp < 128; r.next++ {
		op := uint8(OpSendMiddle)
		switch r.next {
		case 0:
			op = OpSendFirst
		case r.n - 1:
			op = OpSendLast
		}
		f, err := Build(&r.b.hdr, op, (r.psn+uint32(r.next))&0xFFFFFF, r.next == r.n-1, nil, make([]byte, 1024))
		require.NoError(t, err)
		r.sent[r.next]++
		out = append(out, f)
	}
	return out
}

// onResponse applies an ACK or sequence NAK as rxe's completer does.
func (r *rxeRequester) onResponse(t *testing.T, f []byte, now time.Duration) {
	p, err := Parse(f)
	require.NoError(t, err)
	i := int((p.PSN - r.psn) & 0xFFFFFF)
	switch p.Syndrome {
	case SynACK:
		if i >= r.comp { // an ACK behind the oldest unacknowledged PSN is ignored whole
			r.comp, r.started, r.progress = i+1, false, now
		}
	case SynNAKSeq:
		if i > r.comp {
			r.comp, r.progress = i, now
		}
		if !r.started {
			r.next, r.started = r.comp, true
		}
	default:
		t.Fatalf("unexpected syndrome %#x", p.Syndrome)
	}
}

// TestAckBeforeNAK: a packet lost, then the retransmission of a later one lost as well. The responder's second
// NAK comes after an ACK of what arrived in order since the first, so a requester with rxe's NAK rule retries at
// once instead of waiting for its 67 ms timer.
func TestAckBeforeNAK(t *testing.T) {
	a, b := newPair(t, 0x10, 0xFFFFF0)
	cb := b.cfg
	r := &rxeRequester{b: b, psn: cb.SendPSN, n: 64, sent: map[int]int{}, timeout: 67 * time.Millisecond}
	// lost: packet 10's first transmission, packet 20's second (its retransmission after the first NAK)
	lost := map[[2]int]bool{{10, 1}: true, {20, 2}: true}
	var now time.Duration
	for ; now < time.Second && len(a.recvd) == 0; now += 10 * time.Microsecond {
		for _, f := range r.send(t, now) {
			p, err := Parse(f)
			require.NoError(t, err)
			i := int((p.PSN - r.psn) & 0xFFFFFF)
			if !lost[[2]int{i, r.sent[i]}] {
				require.NoError(t, a.Receive(f, now))
			}
		}
		fs, err := a.Poll(now)
		require.NoError(t, err)
		for _, f := range fs {
			r.onResponse(t, f, now)
		}
	}
	require.Len(t, a.Received(), 1, "the message arrived")
	require.Zero(t, r.timeouts, "no retransmit timer expiry at the requester")
	require.Less(t, now, time.Millisecond)
	require.Equal(t, 2, a.Stats().NAKsSent)
}

// TestResponderPolledOften: polled after every packet, the responder still ACKs every AckEvery (16) in-order
// packets, and a gap after in-order packets that a Poll in between left unacknowledged gets the ACK before its NAK.
func TestResponderPolledOften(t *testing.T) {
	a, b := newPair(t, 0x10, 0xFFFFF0)
	cb := b.cfg
	var acks []uint32
	for i := range 40 {
		op := uint8(OpSendMiddle)
		switch i {
		case 0:
			op = OpSendFirst
		case 39:
			op = OpSendLast
		}
		f, err := Build(&b.hdr, op, (cb.SendPSN+uint32(i))&0xFFFFFF, i == 39, nil, make([]byte, 1024))
		require.NoError(t, err)
		for _, p := range respond(t, a, f) {
			require.Equal(t, uint8(SynACK), p.Syndrome)
			acks = append(acks, (p.PSN-cb.SendPSN)&0xFFFFFF)
		}
	}
	require.Equal(t, []uint32{15, 31, 39}, acks, "ACKs every 16 packets and at the message end")
	psn := (cb.SendPSN + 40) & 0xFFFFFF
	for i := range uint32(3) {
		f, err := Build(&b.hdr, OpSendOnly, (psn+i)&0xFFFFFF, false, nil, []byte{1})
		require.NoError(t, err)
		require.Len(t, respond(t, a, f), 1, "a SEND Only is acknowledged")
	}
	first, err := Build(&b.hdr, OpSendFirst, (psn+3)&0xFFFFFF, false, nil, make([]byte, 1024))
	require.NoError(t, err)
	require.Empty(t, respond(t, a, first), "no ACK due yet")
	ahead, err := Build(&b.hdr, OpSendMiddle, (psn+5)&0xFFFFFF, false, nil, make([]byte, 1024))
	require.NoError(t, err)
	got := respond(t, a, ahead)
	require.Len(t, got, 2)
	require.Equal(t, [2][2]uint32{{SynACK, (psn + 3) & 0xFFFFFF}, {SynNAKSeq, (psn + 4) & 0xFFFFFF}},
		[2][2]uint32{{uint32(got[0].Syndrome), got[0].PSN}, {uint32(got[1].Syndrome), got[1].PSN}})
}
