package livelink

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net"
	"net/netip"
	"strconv"
	"time"

	"github.com/spraynic/spraynic/system/ibrc"
)

// Plan is a sequence of pingpong runs against one peer: for each loss rate (a round), every size with spraynic
// as server, then every size with spraynic as client. The peer runs the same sequence on the same ports.
type Plan struct {
	// MAC and IP are the endpoint's addresses on the link (not the host's).
	MAC [6]byte
	IP  netip.Addr
	// HostIP is the host's own address on the link, where the server runs listen for the peer's TCP exchange;
	// PeerIP is the peer's, where the client runs connect.
	HostIP, PeerIP netip.Addr
	Sizes          []int
	Iters          int
	Losses         []float64
	// PortBase is the TCP port of the first run: round r, role i (0 server, 1 client), size j use
	// PortBase + 100r + 10i + j.
	PortBase int
	Seed     uint64
	// Wait bounds waiting for the peer to connect or to listen; RunLimit one run once connected.
	Wait, RunLimit time.Duration
	// Endpoint holds the queue pair's knobs (addresses and PSNs are set per run).
	Endpoint ibrc.Config
}

// Port returns the TCP port of round r, role index i, size index j.
func (p *Plan) Port(r, i, j int) int { return p.PortBase + 100*r + 10*i + j }

// RunPlan runs p over link, calling report after each run, and returns every run; it stops at the first run that
// could not connect (the peer is not following the plan).
func RunPlan(ctx context.Context, link Link, p Plan, report func(*Run)) ([]*Run, error) {
	st := NewStation(link, p.MAC, p.IP, p.Seed)
	rng := rand.New(rand.NewPCG(p.Seed, 18515))
	lns := map[int]net.Listener{}
	defer func() {
		for _, l := range lns {
			l.Close()
		}
	}()
	for r := range p.Losses {
		for j := range p.Sizes {
			port := p.Port(r, 0, j)
			l, err := net.Listen("tcp4", net.JoinHostPort(p.HostIP.String(), strconv.Itoa(port)))
			if err != nil {
				return nil, fmt.Errorf("listen for the peer's client on %s:%d: %w", p.HostIP, port, err)
			}
			lns[port] = l
		}
	}
	var runs []*Run
	qpn := uint32(0x100)
	for r, loss := range p.Losses {
		for i, role := range []string{RoleServer, RoleClient} {
			for j, size := range p.Sizes {
				run := &Run{Role: role, Size: size, Iters: p.Iters, QPN: qpn, PSN: rng.Uint32() & 0xFFFFFF, Loss: loss,
					SocketDrops: -1}
				qpn++
				conn, err := p.connect(ctx, lns, p.Port(r, i, j), role)
				if err != nil {
					run.Err = err
					runs = append(runs, run)
					report(run)
					return runs, err
				}
				st.Pingpong(ctx, conn, p.Endpoint, run, p.Seed, p.RunLimit)
				runs = append(runs, run)
				report(run)
			}
		}
	}
	return runs, nil
}

// connect accepts the peer's connection on port (server) or dials the peer's port until it listens (client).
func (p *Plan) connect(ctx context.Context, lns map[int]net.Listener, port int, role string) (net.Conn, error) {
	deadline := time.Now().Add(p.Wait)
	if role == RoleServer {
		l := lns[port].(*net.TCPListener)
		_ = l.SetDeadline(deadline)
		c, err := l.Accept()
		if err != nil {
			return nil, fmt.Errorf("no peer connected to port %d within %v: %w", port, p.Wait, err)
		}
		return c, nil
	}
	addr := net.JoinHostPort(p.PeerIP.String(), strconv.Itoa(port))
	for {
		var d net.Dialer
		c, err := d.DialContext(ctx, "tcp4", addr)
		if err == nil {
			return c, nil
		}
		if time.Now().After(deadline) || ctx.Err() != nil {
			return nil, fmt.Errorf("peer not listening on %s within %v: %w", addr, p.Wait, err)
		}
		time.Sleep(100 * time.Millisecond)
	}
}
