package livelink

import (
	"encoding/binary"
	"errors"
	"math/rand/v2"
	"net/netip"
	"time"

	"github.com/spraynic/spraynic/system/ibrc"
	"github.com/spraynic/spraynic/system/roce"
)

// Station is the endpoint's presence on a link: its MAC and IPv4 address, the neighbours it learned (ARP and the
// source of IPv4 frames), and the seeded loss applied to RoCEv2 frames in both directions.
type Station struct {
	link  Link
	mac   [6]byte
	ip    netip.Addr
	neigh map[netip.Addr][6]byte
	rng   *rand.Rand
	loss  float64
	// Dropped counts RoCEv2 frames dropped by the injected loss: [0] sent by us, [1] received.
	Dropped [2]int
	// Frames counts RoCEv2 frames that passed: [0] sent, [1] received for our endpoint.
	Frames [2]int
	// ARPReplies counts the ARP replies sent for ip.
	ARPReplies int
}

// NewStation returns a station with the given addresses on link; loss is set per run by SetLoss.
func NewStation(link Link, mac [6]byte, ip netip.Addr, seed uint64) *Station {
	return &Station{link: link, mac: mac, ip: ip, neigh: map[netip.Addr][6]byte{},
		rng: rand.New(rand.NewPCG(seed, 0x1055))}
}

// SetLoss sets the probability (0..1) that a RoCEv2 frame is dropped, each direction independently.
func (s *Station) SetLoss(p float64) { s.loss = p }

// drop draws the loss decision for one RoCEv2 frame in direction dir (0 send, 1 receive).
func (s *Station) drop(dir int) bool {
	if s.loss > 0 && s.rng.Float64() < s.loss {
		s.Dropped[dir]++
		return true
	}
	s.Frames[dir]++
	return false
}

// isRoCE reports whether f is IPv4/UDP to port 4791.
func isRoCE(f []byte) bool {
	if len(f) < 14+20+8 || binary.BigEndian.Uint16(f[12:]) != 0x0800 || f[23] != 17 {
		return false
	}
	ihl := int(f[14]&0x0F) * 4
	return len(f) >= 14+ihl+4 && binary.BigEndian.Uint16(f[14+ihl+2:]) == roce.UDPPort
}

// send transmits frames of the endpoint, less the injected loss.
func (s *Station) send(frames [][]byte) error {
	for _, f := range frames {
		if s.drop(0) {
			continue
		}
		if err := s.link.Send(f); err != nil {
			return err
		}
	}
	return nil
}

// input handles one received frame: ARP is answered and learned from, IPv4 sources are learned, RoCEv2 frames
// go to ep (nil: none) after the injected loss.
func (s *Station) input(f []byte, ep *ibrc.Endpoint, now time.Duration) error {
	if a, ok := parseARP(f); ok {
		s.neigh[a.spa] = a.sha
		if a.op == arpRequest && a.tpa == s.ip {
			s.ARPReplies++
			return s.link.Send(buildARP(arpReply, s.mac, s.ip, a.sha, a.spa))
		}
		return nil
	}
	if len(f) >= 34 && binary.BigEndian.Uint16(f[12:]) == 0x0800 {
		s.neigh[netip.AddrFrom4([4]byte(f[26:30]))] = [6]byte(f[6:12])
	}
	if ep == nil || !isRoCE(f) || [6]byte(f[0:6]) != s.mac || s.drop(1) {
		return nil
	}
	// ErrNotForUs: a frame of another (earlier) QP; any other error is a bad frame, counted in Stats.Bad
	_ = ep.Receive(f, now)
	return nil
}

// resolve returns the MAC of ip, sending ARP requests and reading the link until it is known or limit passes.
func (s *Station) resolve(ip netip.Addr, limit time.Duration) ([6]byte, error) {
	start := time.Now()
	for time.Since(start) < limit {
		if m, ok := s.neigh[ip]; ok {
			return m, nil
		}
		if err := s.link.Send(buildARP(arpRequest, s.mac, s.ip, [6]byte{}, ip)); err != nil {
			return [6]byte{}, err
		}
		fs, err := s.link.Recv(200 * time.Millisecond)
		if err != nil {
			return [6]byte{}, err
		}
		for _, f := range fs {
			if err := s.input(f, nil, 0); err != nil {
				return [6]byte{}, err
			}
		}
	}
	return [6]byte{}, errors.New("no ARP reply from " + ip.String())
}
