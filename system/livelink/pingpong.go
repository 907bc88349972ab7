package livelink

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"net"
	"time"

	"github.com/spraynic/spraynic/system/ibrc"
)

// Roles of a pingpong run, named from spraynic's side.
const (
	RoleServer = "server"
	RoleClient = "client"
)

// PageSize is the page size of the peer: with -c, ibv_rc_pingpong writes 0 at every page offset of its buffer
// before its first send and checks those bytes of every message it receives.
const PageSize = 4096

// initByte fills ibv_rc_pingpong's buffer before its first send (memset(ctx->buf, 0x7b, size)).
const initByte = 0x7b

// Run is one ibv_rc_pingpong exchange: the parameters, then what happened.
type Run struct {
	Role        string
	Size, Iters int
	QPN, PSN    uint32
	Loss        float64
	// Peer is the peer's address from the exchange.
	Peer Dest
	// Sent counts our messages acknowledged, Received the peer's messages received whole.
	Sent, Received int
	// DataErrors counts received messages that differ from what the peer must send; FirstDataError says where.
	DataErrors     int
	FirstDataError string
	// FinalAckMissing: every message went both ways but the ACK of our last one never came (the peer exits as
	// soon as its own last completion arrives and may take its QP with it).
	FinalAckMissing bool
	Stats           ibrc.Stats
	// Dropped and Frames are the station's counts during this run: [0] sent, [1] received.
	Dropped, Frames [2]int
	// SocketDrops counts frames the link lost before they were read during this run (the host's receive buffer
	// full, not the peer's doing and not the injected loss); -1 when the link does not count them.
	SocketDrops int
	Wall        time.Duration
	Err         error
}

// OK reports whether the run completed with every message checked.
func (r *Run) OK() bool { return r.Err == nil && r.DataErrors == 0 && r.Received == r.Iters }

// message returns our k-th message: seeded bytes with 0 at every page offset, as the peer's -c check wants.
func message(rng *rand.Rand, size int) []byte {
	b := make([]byte, size)
	for i := range b {
		b[i] = byte(rng.Uint32())
	}
	for i := 0; i < size; i += PageSize {
		b[i] = 0
	}
	return b
}

// firstPeerMessage is the peer's first message as client: its initial buffer.
func firstPeerMessage(size int) []byte {
	b := bytes.Repeat([]byte{initByte}, size)
	for i := 0; i < size; i += PageSize {
		b[i] = 0
	}
	return b
}

// Pingpong runs r over conn (the TCP connection of the exchange, accepted or dialled) with base as the endpoint's
// knobs. The peer sends back its buffer, which holds what it last received: our message k comes back as its
// message k (we are the client) or k+1 (we are the server; its first is its initial buffer).
func (s *Station) Pingpong(ctx context.Context, conn net.Conn, base ibrc.Config, r *Run, seed uint64,
	limit time.Duration) {
	start := time.Now()
	d0, f0 := s.Dropped, s.Frames
	dc, counts := s.link.(DropCounter)
	r.SocketDrops = -1
	if counts {
		_, _ = dc.Drops() // from 0 for this run
	}
	defer func() {
		r.Wall = time.Since(start)
		for i := range 2 {
			r.Dropped[i], r.Frames[i] = s.Dropped[i]-d0[i], s.Frames[i]-f0[i]
		}
		if counts {
			if n, err := dc.Drops(); err == nil {
				r.SocketDrops = n
			}
		}
	}()
	s.SetLoss(r.Loss)
	ep, err := s.connect(conn, base, r)
	if err != nil {
		r.Err = err
		return
	}
	r.Err = s.loop(ctx, ep, r, rand.New(rand.NewPCG(seed, uint64(r.QPN))), start, limit)
	r.Stats = ep.Stats()
}

// connect does the TCP exchange of r's role and returns the connected endpoint.
func (s *Station) connect(conn net.Conn, base ibrc.Config, r *Run) (*ibrc.Endpoint, error) {
	defer conn.Close()
	_ = conn.SetDeadline(time.Now().Add(30 * time.Second))
	mine := Dest{QPN: r.QPN, PSN: r.PSN, GID: GIDOf(s.ip)}
	var ep *ibrc.Endpoint
	ready := func(peer Dest) error {
		ip, ok := peer.IP()
		if !ok {
			return fmt.Errorf("pingpong exchange: peer GID %x is not IPv4-mapped (RoCEv2 over IPv4 only)", peer.GID)
		}
		c := base
		c.Local = ibrc.Addr{MAC: s.mac, IP: s.ip, QPN: r.QPN}
		c.Peer = ibrc.Addr{IP: ip, QPN: peer.QPN}
		c.SendPSN, c.RecvPSN = r.PSN, peer.PSN
		var err error
		if ep, err = ibrc.New(c); err != nil {
			return err
		}
		mac, err := s.resolve(ip, 5*time.Second)
		if err != nil {
			return err
		}
		ep.SetPeerMAC(mac)
		r.Peer = peer
		return nil
	}
	if r.Role == RoleServer {
		_, err := ServerExchange(conn, mine, ready)
		return ep, err
	}
	peer, err := ClientExchange(conn, mine)
	if err != nil {
		return nil, err
	}
	return ep, ready(peer)
}
