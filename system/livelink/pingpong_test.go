package livelink

import (
	"context"
	"fmt"
	"net"
	"net/netip"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/spraynic/spraynic/system/ibrc"
	"github.com/spraynic/spraynic/testseed"
)

// fakePeer plays ibv_rc_pingpong on the far end of a wire: one buffer that it sends from and receives into, the
// client sends first, each side sends after its receive and its previous send completed.
type fakePeer struct {
	st    *Station
	role  string // the peer's role
	size  int
	iters int
}

// run does the exchange on conn, then the iterations; it returns the peer's error.
func (f *fakePeer) run(conn net.Conn) error {
	mine := Dest{QPN: 0x77, PSN: 0xFFFFF0, GID: GIDOf(f.st.ip)}
	var peer Dest
	var err error
	if f.role == RoleClient {
		peer, err = ClientExchange(conn, mine)
	} else {
		peer, err = ServerExchange(conn, mine, func(Dest) error { return nil })
	}
	conn.Close()
	if err != nil {
		return err
	}
	ip, _ := peer.IP()
	c := ibrc.DefaultConfig()
	c.Local, c.Peer = ibrc.Addr{MAC: f.st.mac, IP: f.st.ip, QPN: 0x77}, ibrc.Addr{IP: ip, QPN: peer.QPN}
	c.SendPSN, c.RecvPSN, c.Timeout = mine.PSN, peer.PSN, 20*time.Millisecond
	ep, err := ibrc.New(c)
	if err != nil {
		return err
	}
	mac, err := f.st.resolve(ip, 2*time.Second)
	if err != nil {
		return err
	}
	ep.SetPeerMAC(mac)
	return f.iterate(ep)
}

// iterate is the peer's loop.
func (f *fakePeer) iterate(ep *ibrc.Endpoint) error {
	start := time.Now()
	buf, sent, rcvd := firstPeerMessage(f.size), 0, 0
	if f.role == RoleClient {
		if err := ep.Post(append([]byte(nil), buf...)); err != nil {
			return err
		}
		sent++
	}
	for time.Since(start) < 20*time.Second {
		fs, err := ep.Poll(time.Since(start))
		if err != nil {
			return err
		}
		if err := f.st.send(fs); err != nil {
			return err
		}
		for _, m := range ep.Received() {
			buf = m
			rcvd++
		}
		if sent < f.iters && ep.Outstanding() == 0 && (rcvd >= sent && f.role == RoleClient || rcvd > sent) {
			if err := ep.Post(append([]byte(nil), buf...)); err != nil {
				return err
			}
			sent++
		}
		if rcvd == f.iters && sent == f.iters && ep.Outstanding() == 0 {
			return nil
		}
		if ep.Err() != nil {
			return ep.Err()
		}
		if err := f.st.wait(ep, time.Since(start), start); err != nil {
			return err
		}
	}
	return fmt.Errorf("peer: %d sent, %d received", sent, rcvd)
}

// TestPingpong runs the station against the fake peer in both roles, with and without loss, and checks every
// message.
func TestPingpong(t *testing.T) {
	seed := testseed.Seed(t)
	for _, loss := range []float64{0, 0.02} {
		for _, role := range []string{RoleServer, RoleClient} {
			t.Run(fmt.Sprintf("%s/loss=%v", role, loss), func(t *testing.T) {
				a, b := newWire()
				us := NewStation(&dropPipe{pipe: a, drops: 3}, [6]byte{2, 0x53, 0x50, 0, 0, 2},
					netip.MustParseAddr("10.0.3.2"), seed)
				them := NewStation(b, [6]byte{0x52, 0x54, 0, 0x12, 0x34, 0x56}, netip.MustParseAddr("10.0.3.15"), 7)
				// the VM's kernel answers ARP while its ibv_rc_pingpong waits on TCP; the fake peer cannot, so our
				// side knows its MAC from the start (ARP itself: TestARP)
				us.neigh[them.ip] = them.mac
				peerRole := RoleClient
				if role == RoleClient {
					peerRole = RoleServer
				}
				fp := &fakePeer{st: them, role: peerRole, size: 5000, iters: 20}
				c1, c2 := net.Pipe()
				errc := make(chan error, 1)
				go func() { errc <- fp.run(c2) }()
				cfg := ibrc.DefaultConfig()
				cfg.Timeout = 20 * time.Millisecond
				r := &Run{Role: role, Size: 5000, Iters: 20, QPN: 0x100, PSN: 0x10, Loss: loss}
				us.Pingpong(context.Background(), c1, cfg, r, seed, 20*time.Second)
				require.NoError(t, <-errc)
				require.NoError(t, r.Err)
				require.True(t, r.OK(), "%+v", r)
				require.Equal(t, 20, r.Sent)
				require.Equal(t, 3, r.SocketDrops, "the link's drops during the run")
				if loss > 0 {
					require.NotZero(t, r.Dropped[0]+r.Dropped[1])
				}
				t.Logf("seed %d: %+v", seed, r.Stats)
			})
		}
	}
}
