package cosim

import (
	"bytes"
	"errors"
	"fmt"
	"maps"
	"net"
	"net/netip"
	"slices"
	"strings"

	"github.com/spraynic/spraynic/config"
	"github.com/spraynic/spraynic/system/roce"
)

// The top replay (docs/e2e_frames.md, "Replay into one top"): a capture's frames addressed to one endpoint are driven
// into MAC RX of one nic_roce RTL top in lockstep with its twin; the top is programmed from the capture.

// TopReplayOptions steer TopReplay.
type TopReplayOptions struct {
	// Root is the repository root; Config the top's parameters; Capture the frames.
	Root    string
	Config  config.Config
	Capture *roce.Capture
	// LocalMAC picks the endpoint: the frames with this Ethernet destination are fed, every one of them. Nil: the
	// destination of the first frame that parses as data within the limits of Config.
	LocalMAC net.HardwareAddr
	// Repro is the command that reproduces the run; Cache the model cache (empty: build/models under Root).
	Repro, Cache string
}

// TopReplayConn is one connection the replay opened, and what became of its messages.
type TopReplayConn struct {
	// Conn is the connection (DestQP - QPN_BASE); PeerMAC and PeerIP its peer (the first frame's sources);
	// RxPSN the PSN it expects first (the lowest data PSN of the capture, modulo 2^24).
	Conn    uint32
	PeerMAC net.HardwareAddr
	PeerIP  netip.Addr
	RxPSN   uint32
	// Messages seen in the capture (a receive posted for each), Whole of them with every byte in some data frame,
	// Received the receive completions with status OK, each checked byte for byte against the capture.
	Messages, Whole, Received int
}

// trMsg is one message of a connection: its bytes as the capture's data frames carry them.
type trMsg struct {
	seq  uint64
	data []byte
	have []bool
	size int
	last bool
	addr uint64
}

// trConn is one connection's plan: peer, first PSN, messages by unwrapped sequence number.
type trConn struct {
	TopReplayConn
	first  uint32
	lowest int32
	seqTop uint64
	msgs   []*trMsg
	posted int
}

// trPlan is what the capture asks of the endpoint: its addresses, the frames to feed and the connections.
type trPlan struct {
	mac [6]byte
	// ip is the endpoint's address; ipData: from a data frame (an ACK's gives it until one comes).
	ip      netip.Addr
	ipData  bool
	feed    [][]byte
	skipped int
	conns   map[uint32]*trConn
	order   []uint32
	// maxSeq bounds a connection's messages, maxLen a message's bytes: what the capture's frames can carry.
	maxSeq, maxLen int
}

// ErrNoEndpoint is returned (wrapped) when no frame of the capture is addressed to the endpoint.
var ErrNoEndpoint = errors.New("no frame for the endpoint")

// planReplay reads the capture: the local endpoint, the frames for it, and per connection its peer, first PSN and
// messages (each byte from the first data frame that carries it).
func planReplay(cfg config.Config, capt *roce.Capture, local net.HardwareAddr) (*trPlan, error) {
	lim := roce.LimitsFor(cfg, cfg.MTU)
	pl := &trPlan{conns: map[uint32]*trConn{}, maxSeq: len(capt.Frames), maxLen: len(capt.Frames) * cfg.MTU}
	if local != nil {
		copy(pl.mac[:], local)
	} else if !pl.firstData(lim, capt) {
		return nil, fmt.Errorf("%w: no frame of the capture parses as data within config %s (docs/protocol.md); "+
			"give --local-mac", ErrNoEndpoint, cfg.Name)
	}
	dests := map[string]bool{}
	for _, f := range capt.Frames {
		if len(f.Data) < 6 || !bytes.Equal(f.Data[:6], pl.mac[:]) {
			if len(f.Data) >= 6 {
				dests[net.HardwareAddr(f.Data[:6]).String()] = true
			}
			pl.skipped++
			continue
		}
		pl.feed = append(pl.feed, f.Data)
		if p, err := lim.Parse(f.Data); err == nil {
			if err := pl.add(cfg, lim, &p); err != nil {
				return nil, fmt.Errorf("frame %d: %w", len(pl.feed)+pl.skipped, err)
			}
		}
	}
	if len(pl.feed) == 0 {
		names := slices.Sorted(maps.Keys(dests))
		return nil, fmt.Errorf("%w: no frame of the capture has the Ethernet destination %s (allowed: one the "+
			"capture has: %s)", ErrNoEndpoint, net.HardwareAddr(pl.mac[:]), strings.Join(names, ", "))
	}
	slices.Sort(pl.order)
	return pl, nil
}

// firstData sets the endpoint's MAC to the destination of the capture's first data frame; false: there is none.
func (pl *trPlan) firstData(lim roce.Limits, capt *roce.Capture) bool {
	for _, f := range capt.Frames {
		if p, err := lim.Parse(f.Data); err == nil && !p.IsAck() {
			pl.mac = p.Data.DstMAC
			return true
		}
	}
	return false
}

// add takes one parsed frame for the endpoint: the endpoint's IP (a data frame's destination, else an ACK's), the
// connection's peer from its first frame, and a data frame's PSN and bytes.
func (pl *trPlan) add(cfg config.Config, lim roce.Limits, p *roce.Packet) error {
	h := &p.Ack.Header
	if !p.IsAck() {
		h = &p.Data.Header
	}
	if !pl.ip.IsValid() || (!pl.ipData && !p.IsAck()) {
		pl.ip, pl.ipData = h.DstIP, !p.IsAck()
	}
	c := lim.Conn(h.DestQP)
	tc := pl.conns[c]
	if tc == nil {
		tc = &trConn{TopReplayConn: TopReplayConn{Conn: c, PeerMAC: append(net.HardwareAddr(nil), h.SrcMAC[:]...),
			PeerIP: h.SrcIP}}
		pl.conns[c], pl.order = tc, append(pl.order, c)
	}
	if p.IsAck() {
		return nil
	}
	d := &p.Data
	if tc.msgs == nil {
		tc.first = d.PSN
	}
	tc.lowest = min(tc.lowest, int32(((d.PSN-tc.first)&roce.Max24)<<8)>>8)
	m, err := tc.message(cfg, d, pl.maxSeq)
	if err != nil {
		return err
	}
	if end := int(d.Offset) + len(d.Payload); end > pl.maxLen {
		return fmt.Errorf("conn %d message %d: payload ends at byte %d, beyond what the capture's %d frames carry "+
			"(%d bytes at MTU %d)", c, m.seq, end, pl.maxSeq, pl.maxLen, cfg.MTU)
	}
	m.place(d)
	return nil
}

// message returns the message of a data packet, its sequence number unwrapped from HANDLE_WIDTH bits against
// the highest seen, making the messages between. A sequence number below 0 or above maxSeq (the capture's frames:
// each message has one) means the capture did not start at the connection's opening.
func (tc *trConn) message(cfg config.Config, d *roce.Data, maxSeq int) (*trMsg, error) {
	w := uint(cfg.HandleWidth)
	m := uint64(1)<<w - 1
	seq := int64(uint64(d.MsgID) & m)
	if len(tc.msgs) > 0 {
		seq = int64(tc.seqTop) + int64((uint64(seq)-tc.seqTop)&m)<<(64-w)>>(64-w)
	}
	if seq < 0 || seq > int64(maxSeq) {
		return nil, fmt.Errorf("conn %d: message id %d is message %d counted from the first seen (allowed 0..%d): "+
			"the capture must start at the connection's opening, its first message id 0 (docs/e2e_frames.md)",
			tc.Conn, d.MsgID, seq, maxSeq)
	}
	for int64(len(tc.msgs)) <= seq {
		tc.msgs = append(tc.msgs, &trMsg{seq: uint64(len(tc.msgs))})
	}
	tc.seqTop = max(tc.seqTop, uint64(seq))
	return tc.msgs[seq], nil
}

// place records a data packet's bytes in its message (the first frame carrying a byte wins).
func (m *trMsg) place(d *roce.Data) {
	end := int(d.Offset) + len(d.Payload)
	if end > len(m.data) {
		m.data = append(m.data, make([]byte, end-len(m.data))...)
		m.have = append(m.have, make([]bool, end-len(m.have))...)
	}
	for i, b := range d.Payload {
		if !m.have[int(d.Offset)+i] {
			m.data[int(d.Offset)+i], m.have[int(d.Offset)+i] = b, true
		}
	}
	if d.Last {
		m.size, m.last = end, true
	}
}

// whole reports whether the capture holds every byte of the message, its last packet included.
func (m *trMsg) whole() bool {
	return m.last && len(m.data) == m.size && !slices.Contains(m.have, false)
}

// bufLen is the receive buffer posted for the message: its length, or, without its last packet, the bytes seen.
func (m *trMsg) bufLen() int {
	if m.last {
		return m.size
	}
	return len(m.data)
}

// rxPSN is the first PSN the connection expects: the lowest data PSN, in 24-bit serial order.
func (tc *trConn) rxPSN() uint32 { return (tc.first + uint32(tc.lowest)) & roce.Max24 }
