package ibrc

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// respond delivers frames to e and returns what e sends back, each parsed.
func respond(t *testing.T, e *Endpoint, frames ...[]byte) []Packet {
	t.Helper()
	for _, f := range frames {
		require.NoError(t, e.Receive(f, 0))
	}
	out, err := e.Poll(0)
	require.NoError(t, err)
	var ps []Packet
	for _, f := range out {
		checkFrame(t, f)
		p, err := Parse(f)
		require.NoError(t, err)
		ps = append(ps, p)
	}
	return ps
}

// TestResponderPSNRules: across the 2^24 wrap, a gap is NAKed once with the expected PSN, after an ACK of the
// packet accepted before it; the repair is ACKed with the last PSN and the MSN of the completed message, a
// duplicate is ACKed again.
func TestResponderPSNRules(t *testing.T) {
	a, b := newPair(t, 0xFFFFFF, 7)
	require.NoError(t, a.Post(make([]byte, 3*1024)))
	fs, err := a.Poll(0)
	require.NoError(t, err)
	require.Len(t, fs, 3)
	for i, want := range []struct {
		op  uint8
		psn uint32
		req bool
	}{{op: OpSendFirst, psn: 0xFFFFFF}, {op: OpSendMiddle, psn: 0}, {op: OpSendLast, psn: 1, req: true}} {
		p, err := Parse(fs[i])
		require.NoError(t, err)
		require.Equal(t, want.op, p.Opcode)
		require.Equal(t, want.psn, p.PSN)
		require.Equal(t, want.req, p.AckReq)
		require.EqualValues(t, 0x22, p.DestQP)
	}
	got := respond(t, b, fs[0], fs[2])
	require.Len(t, got, 2, "an ACK of the packet accepted, then one NAK for the gap")
	require.Equal(t, [3]uint32{SynACK, 0xFFFFFF, 0}, [3]uint32{uint32(got[0].Syndrome), got[0].PSN, got[0].MSN})
	require.Equal(t, Packet{Opcode: OpAck, PSN: 0, Syndrome: SynNAKSeq, MSN: 0, DestQP: 0x11},
		Packet{Opcode: got[1].Opcode, PSN: got[1].PSN, Syndrome: got[1].Syndrome, MSN: got[1].MSN,
			DestQP: got[1].DestQP})
	require.Empty(t, respond(t, b, fs[2]), "no second NAK for the same gap")
	got = respond(t, b, fs[1], fs[2])
	require.Len(t, got, 1)
	require.Equal(t, [3]uint32{SynACK, 1, 1}, [3]uint32{uint32(got[0].Syndrome), got[0].PSN, got[0].MSN})
	require.Len(t, b.Received(), 1)
	got = respond(t, b, fs[0])
	require.Len(t, got, 1, "a duplicate is acknowledged again")
	require.Equal(t, [3]uint32{SynACK, 1, 1}, [3]uint32{uint32(got[0].Syndrome), got[0].PSN, got[0].MSN})
	require.Equal(t, 1, b.Stats().Duplicates)
	require.Equal(t, 2, b.Stats().OutOfSeq)
}

// TestRequesterGoBackN: a sequence NAK acknowledges what precedes its PSN and sends again from it; the ACK of the
// last PSN completes the message.
func TestRequesterGoBackN(t *testing.T) {
	a, b := newPair(t, 0xFFFFFE, 9)
	require.NoError(t, a.Post(make([]byte, 4*1024)))
	fs, err := a.Poll(0)
	require.NoError(t, err)
	resp := respond(t, b, fs[0], fs[2])
	require.Len(t, resp, 2, "an ACK of 0xFFFFFE, a NAK of 0xFFFFFF")
	for i := range resp {
		require.NoError(t, a.Receive(mustFrames(t, b, resp[i:i+1]), time.Microsecond))
	}
	re, err := a.Poll(time.Microsecond)
	require.NoError(t, err)
	require.Len(t, re, 3, "go back to the NAKed PSN: 0xFFFFFF, then 0 and 1 after the wrap")
	p, err := Parse(re[0])
	require.NoError(t, err)
	require.EqualValues(t, 0xFFFFFF, p.PSN)
	require.Equal(t, 3, a.Stats().Retransmitted)
	ack := respond(t, b, re...)
	require.Len(t, ack, 1)
	require.NoError(t, a.Receive(mustFrames(t, b, ack), 2*time.Microsecond))
	require.Zero(t, a.Outstanding())
	require.EqualValues(t, 1, a.Stats().PeerMSN)
	_, armed := a.Deadline()
	require.False(t, armed)
}

// mustFrames rebuilds the single response p of b as a frame (respond parsed it).
func mustFrames(t *testing.T, b *Endpoint, ps []Packet) []byte {
	t.Helper()
	require.Len(t, ps, 1)
	f, err := Build(&b.hdr, ps[0].Opcode, ps[0].PSN, false, aethOf(ps[0]), nil)
	require.NoError(t, err)
	return f
}

// TestRNR: an RNR NAK holds the requester for the encoded time, then it sends again from the NAKed PSN.
func TestRNR(t *testing.T) {
	a, b := newPair(t, 100, 200)
	require.NoError(t, a.Post([]byte("hello")))
	fs, err := a.Poll(0)
	require.NoError(t, err)
	require.Len(t, fs, 1)
	rnr, err := Build(&b.hdr, OpAck, 100, false, aethOf(Packet{Syndrome: 0x20 | 14}), nil)
	require.NoError(t, err)
	require.NoError(t, a.Receive(rnr, 0))
	d, ok := a.Deadline()
	require.True(t, ok)
	require.Equal(t, 1280*time.Microsecond, d)
	fs, err = a.Poll(time.Millisecond)
	require.NoError(t, err)
	require.Empty(t, fs)
	fs, err = a.Poll(d)
	require.NoError(t, err)
	require.Len(t, fs, 1)
	require.Equal(t, 1, a.Stats().RNRsRcvd)
}

// TestUnsupportedOpcode: another transport's opcode, an RC response other than Acknowledge and an unsupported RC
// request away from the expected PSN are dropped and counted, the queue pair goes on; an unsupported RC request
// at the expected PSN is NAKed "invalid request" and fails the queue pair.
func TestUnsupportedOpcode(t *testing.T) {
	ca, cb := pairConfigs(100, 200)
	b, err := New(cb)
	require.NoError(t, err)
	a, err := New(ca)
	require.NoError(t, err)
	for _, f := range []struct {
		op  uint8
		psn uint32
	}{{op: 0x64, psn: 100}, {op: 0x0D, psn: 100}, {op: 0x12, psn: 100}, {op: 0x0A, psn: 101}, {op: 0x18, psn: 100}} {
		fr, err := Build(&a.hdr, f.op, f.psn, true, nil, []byte{1, 2, 3, 4})
		require.NoError(t, err)
		require.Empty(t, respond(t, b, fr), "opcode %#02x PSN %d", f.op, f.psn)
	}
	require.NoError(t, b.Err())
	require.Equal(t, 5, b.Stats().Unsupported)
	require.Zero(t, b.Stats().Bad)
	// the queue pair still takes a message at the expected PSN
	require.NoError(t, a.Post([]byte("ok")))
	fs, err := a.Poll(0)
	require.NoError(t, err)
	got := respond(t, b, fs...)
	require.Len(t, got, 1)
	require.Equal(t, uint8(SynACK), got[0].Syndrome)
	require.Equal(t, [][]byte{[]byte("ok")}, b.Received())
	// RDMA WRITE Only at the expected PSN (101): invalid request
	w, err := Build(&a.hdr, 0x0A, 101, true, nil, []byte{1, 2, 3, 4})
	require.NoError(t, err)
	got = respond(t, b, w)
	require.Len(t, got, 1)
	require.Equal(t, [2]uint32{SynNAKInvalid, 101}, [2]uint32{uint32(got[0].Syndrome), got[0].PSN})
	require.ErrorIs(t, b.Err(), ErrProtocol)
}

// TestEmptySendLast: a SEND Last without payload is an invalid request (Last carries 1..MTU bytes); a SEND Only
// without payload is an empty message.
func TestEmptySendLast(t *testing.T) {
	a, b := newPair(t, 100, 200)
	only, err := Build(&a.hdr, OpSendOnly, 100, true, nil, nil)
	require.NoError(t, err)
	got := respond(t, b, only)
	require.Len(t, got, 1)
	require.Equal(t, uint8(SynACK), got[0].Syndrome)
	require.Equal(t, [][]byte{nil}, b.Received())
	first, err := Build(&a.hdr, OpSendFirst, 101, false, nil, make([]byte, 1024))
	require.NoError(t, err)
	last, err := Build(&a.hdr, OpSendLast, 102, true, nil, nil)
	require.NoError(t, err)
	got = respond(t, b, first, last)
	require.Len(t, got, 1)
	require.Equal(t, [2]uint32{SynNAKInvalid, 102}, [2]uint32{uint32(got[0].Syndrome), got[0].PSN})
	require.ErrorIs(t, b.Err(), ErrProtocol)
	require.Equal(t, 1, b.Stats().Bad)
}

// TestPost: Post takes 0..2^31 bytes and refuses a longer message and any message once the queue pair failed.
func TestPost(t *testing.T) {
	ca, _ := pairConfigs(100, 200)
	a, err := New(ca)
	require.NoError(t, err)
	require.NoError(t, a.Post(nil))
	require.NoError(t, a.postable(MaxMessage))
	require.ErrorIs(t, a.postable(MaxMessage+1), ErrTooLong, "2^31+1 bytes (checked by length: no 2 GiB buffer)")
	require.Equal(t, 1, a.Outstanding())
	a.err = ErrRetryExceeded
	require.ErrorIs(t, a.Post([]byte("x")), ErrRetryExceeded)
	require.Equal(t, 1, a.Outstanding(), "nothing queued after the failure")
}
