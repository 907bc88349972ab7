package ibrc

import (
	"encoding/binary"
	"hash/crc32"
	"math/rand/v2"
	"net/netip"
	"testing"
	"time"

	"github.com/google/gopacket"
	"github.com/google/gopacket/layers"
	"github.com/stretchr/testify/require"
)

// flight is a frame on the simulated link: its arrival time and its receiver (0 or 1).
type flight struct {
	at    time.Duration
	to    int
	frame []byte
}

// link is an in-memory wire between two endpoints: a fixed delay, FIFO (no reordering), seeded loss, and every
// frame checked by an independent decode on the way.
type link struct {
	t     *testing.T
	eps   [2]*Endpoint
	q     []flight
	rng   *rand.Rand
	loss  float64
	delay time.Duration
	now   time.Duration
	sent  [2]int
	drops int
	hook  func(from int, frame []byte) bool // false drops the frame (directed tests)
	hold  func(i int) bool                  // true: endpoint i is neither polled nor timed (it still receives)
}

// pairConfigs returns the configs of two endpoints facing each other with the given first PSNs.
func pairConfigs(psnA, psnB uint32) (Config, Config) {
	a := Addr{MAC: [6]byte{2, 0, 0, 0, 0, 1}, IP: netip.MustParseAddr("10.0.3.2"), QPN: 0x11}
	b := Addr{MAC: [6]byte{2, 0, 0, 0, 0, 2}, IP: netip.MustParseAddr("10.0.3.3"), QPN: 0x22}
	ca, cb := DefaultConfig(), DefaultConfig()
	ca.Local, ca.Peer, ca.SendPSN, ca.RecvPSN = a, b, psnA, psnB
	cb.Local, cb.Peer, cb.SendPSN, cb.RecvPSN = b, a, psnB, psnA
	ca.Timeout, cb.Timeout = time.Millisecond, time.Millisecond
	return ca, cb
}

// newPair returns the two endpoints of pairConfigs(psnA, psnB).
func newPair(t *testing.T, psnA, psnB uint32) (*Endpoint, *Endpoint) {
	t.Helper()
	ca, cb := pairConfigs(psnA, psnB)
	a, err := New(ca)
	require.NoError(t, err)
	b, err := New(cb)
	require.NoError(t, err)
	return a, b
}

func newLink(t *testing.T, seed uint64, loss float64, psnA, psnB uint32) *link {
	a, b := newPair(t, psnA, psnB)
	return &link{t: t, eps: [2]*Endpoint{a, b}, rng: rand.New(rand.NewPCG(seed, 39)), loss: loss,
		delay: 5 * time.Microsecond}
}

// poll sends what endpoint i has at the current time.
func (l *link) poll(i int) {
	fs, err := l.eps[i].Poll(l.now)
	require.NoError(l.t, err)
	for _, f := range fs {
		checkFrame(l.t, f)
		l.sent[i]++
		if l.hook != nil && !l.hook(i, f) || l.rng.Float64() < l.loss {
			l.drops++
			continue
		}
		l.q = append(l.q, flight{at: l.now + l.delay, to: 1 - i, frame: f})
	}
}

// run advances simulated time until both endpoints have nothing posted and the wire is empty, or until limit.
func (l *link) run(limit time.Duration) {
	for l.now <= limit {
		for i := range l.eps {
			if !l.held(i) {
				l.poll(i)
			}
		}
		next, ok := time.Duration(0), false
		if len(l.q) > 0 {
			next, ok = l.q[0].at, true
		}
		for i, e := range l.eps {
			if d, has := e.Deadline(); has && !l.held(i) && (!ok || d < next) {
				next, ok = d, true
			}
		}
		if !ok {
			return
		}
		l.now = max(l.now, next)
		for len(l.q) > 0 && l.q[0].at <= l.now {
			f := l.q[0]
			l.q = l.q[1:]
			require.NoError(l.t, l.eps[f.to].Receive(f.frame, l.now))
		}
	}
	l.t.Fatalf("not done after %v of simulated time", limit)
}

// held reports whether endpoint i is held (hold).
func (l *link) held(i int) bool { return l.hold != nil && l.hold(i) }

// checkFrame decodes f with gopacket's own Ethernet, IPv4 and UDP layers, reads the BTH fields by hand and
// recomputes the ICRC over a masked copy: a check that shares no code with Build or Parse.
func checkFrame(t *testing.T, f []byte) {
	t.Helper()
	var eth layers.Ethernet
	var ip layers.IPv4
	var udp layers.UDP
	p := gopacket.NewDecodingLayerParser(layers.LayerTypeEthernet, &eth, &ip, &udp)
	p.IgnoreUnsupported = true // the UDP layer names system/roce's BTH next: read here by hand instead
	var got []gopacket.LayerType
	require.NoError(t, p.DecodeLayers(f, &got))
	require.Equal(t, []gopacket.LayerType{layers.LayerTypeEthernet, layers.LayerTypeIPv4, layers.LayerTypeUDP}, got)
	require.EqualValues(t, 4791, udp.DstPort)
	require.Zero(t, udp.Checksum)
	b := udp.Payload
	require.GreaterOrEqual(t, len(b), 16)
	op, pad := b[0], int(b[1]>>4&3)
	require.Contains(t, []byte{OpSendFirst, OpSendMiddle, OpSendLast, OpSendOnly, OpAck}, op)
	require.EqualValues(t, 0xFFFF, binary.BigEndian.Uint16(b[2:]))
	if op == OpAck {
		require.Len(t, b, 12+4+4)
	} else {
		require.Zero(t, (len(b)-12-4)%4, "payload and pad align to 4 bytes")
		require.LessOrEqual(t, pad, len(b)-16, "pad count")
	}
	ipb := make([]byte, len(ip.Contents)+len(ip.Payload))
	copy(ipb, ip.Contents)
	copy(ipb[len(ip.Contents):], ip.Payload)
	want := binary.LittleEndian.Uint32(ipb[len(ipb)-4:])
	m := append(make([]byte, 8), ipb[:len(ipb)-4]...)
	for i := 0; i < 8; i++ {
		m[i] = 0xFF
	}
	for _, i := range []int{1, 8, 10, 11, 20 + 6, 20 + 7, 28 + 4} {
		m[8+i] = 0xFF
	}
	require.Equal(t, want, crc32.ChecksumIEEE(m), "ICRC")
}
