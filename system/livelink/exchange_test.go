package livelink

import (
	"errors"
	"fmt"
	"io"
	"net"
	"net/netip"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/spraynic/spraynic/system/ibrc"
)

// TestDestWire: the text is rc_pingpong's "%04x:%06x:%06x:%s" with the GID's 16 bytes as 32 hex digits in wire
// order, in a 52-byte buffer ending in NUL.
func TestDestWire(t *testing.T) {
	d := Dest{LID: 0, QPN: 0x11, PSN: 0xABCDEF, GID: GIDOf(netip.MustParseAddr("10.0.3.2"))}
	b := d.Marshal()
	require.Len(t, b, 52)
	require.Equal(t, "0000:000011:abcdef:00000000000000000000ffff0a000302\x00", string(b))
	back, err := ParseDest(b)
	require.NoError(t, err)
	require.Equal(t, d, back)
	ip, ok := back.IP()
	require.True(t, ok)
	require.Equal(t, "10.0.3.2", ip.String())
	for _, bad := range []string{"", "0000:000011:abcdef", "0000:1000000:000000:00000000000000000000ffff0a000302",
		"0000:000011:abcdef:0000000000000000000ffff0a000302", "zzzz:000011:abcdef:00000000000000000000ffff0a000302"} {
		_, err := ParseDest([]byte(bad))
		require.Error(t, err, bad)
	}
}

// TestExchange runs the server's and the client's side against each other: each learns the other's Dest, the
// server connects its QP before replying.
func TestExchange(t *testing.T) {
	a, b := net.Pipe()
	srv := Dest{QPN: 0x20, PSN: 5, GID: GIDOf(netip.MustParseAddr("10.0.3.15"))}
	cli := Dest{QPN: 0x11, PSN: 7, GID: GIDOf(netip.MustParseAddr("10.0.3.2"))}
	type res struct {
		d   Dest
		err error
	}
	ch := make(chan res, 1)
	go func() {
		d, err := ClientExchange(b, cli)
		ch <- res{d: d, err: err}
	}()
	readyCalled := false
	got, err := ServerExchange(a, srv, func(p Dest) error { readyCalled = p == cli; return nil })
	require.NoError(t, err)
	require.True(t, readyCalled)
	require.Equal(t, cli, got)
	r := <-ch
	require.NoError(t, r.err)
	require.Equal(t, srv, r.d)
}

// TestARP: a request for the station's address gets a reply from its MAC; the sender is learned.
func TestARP(t *testing.T) {
	me, peer := netip.MustParseAddr("10.0.3.2"), netip.MustParseAddr("10.0.3.15")
	mac, pmac := [6]byte{2, 0x53, 0x50, 0, 0, 2}, [6]byte{0x52, 0x54, 0, 0x12, 0x34, 0x56}
	l := &recorder{}
	s := NewStation(l, mac, me, 1)
	require.NoError(t, s.input(buildARP(arpRequest, pmac, peer, [6]byte{}, me), nil, 0))
	require.Len(t, l.sent, 1)
	a, ok := parseARP(l.sent[0])
	require.True(t, ok)
	require.Equal(t, arpPacket{op: arpReply, sha: mac, spa: me, tha: pmac, tpa: peer}, a)
	require.Equal(t, pmac, s.neigh[peer])
	require.NoError(t, s.input(buildARP(arpRequest, pmac, peer, [6]byte{}, netip.MustParseAddr("10.0.3.1")), nil, 0))
	require.Len(t, l.sent, 1, "no reply for an address that is not the station's")
}

// TestExchangeDoneInPieces: the server reads the client's "done" and its NUL whole even when the connection
// delivers them one byte at a time.
func TestExchangeDoneInPieces(t *testing.T) {
	a, b := net.Pipe()
	srv := Dest{QPN: 0x20, PSN: 5, GID: GIDOf(netip.MustParseAddr("10.0.3.15"))}
	cli := Dest{QPN: 0x11, PSN: 7, GID: GIDOf(netip.MustParseAddr("10.0.3.2"))}
	errc := make(chan error, 1)
	go func() {
		errc <- func() error {
			if _, err := b.Write(cli.Marshal()); err != nil {
				return err
			}
			buf := make([]byte, destLen)
			if _, err := io.ReadFull(b, buf); err != nil {
				return err
			}
			for _, c := range doneMsg {
				if _, err := b.Write([]byte{c}); err != nil {
					return err
				}
			}
			return nil
		}()
	}()
	got, err := ServerExchange(a, srv, func(Dest) error { return nil })
	require.NoError(t, err)
	require.Equal(t, cli, got)
	require.NoError(t, <-errc)
}

// TestFinalAckMissing: only a retry-exhausted queue pair with every message exchanged and our last one the only
// one outstanding passes as a missing final ACK; any other error, or an earlier message outstanding, fails.
func TestFinalAckMissing(t *testing.T) {
	r := &Run{Iters: 10, Sent: 9, Received: 10}
	require.True(t, finalAckMissing(ibrc.ErrRetryExceeded, true, 1, r))
	require.True(t, finalAckMissing(fmt.Errorf("run: %w", ibrc.ErrRetryExceeded), true, 1, r))
	for _, err := range []error{ibrc.ErrRemote, ibrc.ErrProtocol, ibrc.ErrRNRExceeded, errors.New("other")} {
		require.False(t, finalAckMissing(err, true, 1, r), "%v", err)
	}
	require.False(t, finalAckMissing(ibrc.ErrRetryExceeded, false, 1, r), "not every message exchanged")
	require.False(t, finalAckMissing(ibrc.ErrRetryExceeded, true, 2, r), "two outstanding")
	require.False(t, finalAckMissing(ibrc.ErrRetryExceeded, true, 1, &Run{Iters: 10, Sent: 8, Received: 10}))
}
