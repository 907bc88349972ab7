package ibrc

import (
	"errors"
	"fmt"
	"net/netip"
	"time"

	"github.com/spraynic/spraynic/system/roce"
)

// Addr is one side of a queue pair: Ethernet and IPv4 address and queue pair number.
type Addr struct {
	MAC [6]byte
	IP  netip.Addr
	QPN uint32
}

// Config is one queue pair's connection state and its knobs; New checks it.
type Config struct {
	// Local and Peer are the two ends; Peer.QPN is the BTH destination QP of every frame sent.
	Local, Peer Addr
	// SendPSN is the first PSN this endpoint sends; RecvPSN the first it expects (the peer's SendPSN).
	SendPSN, RecvPSN uint32
	// MTU is the path MTU: payload bytes per packet (256, 512, 1024, 2048 or 4096).
	MTU int
	// SrcPort is the UDP source port of every frame.
	SrcPort uint16
	// Timeout is the requester's retransmit timer: no progress for this long sends again from the oldest
	// unacknowledged packet (go-back-N).
	Timeout time.Duration
	// RetryLimit is the number of timeouts and sequence NAKs in a row without progress after which the queue
	// pair fails (IBTA retry_cnt, 0..7); RNRLimit the same for RNR NAKs (7: unlimited).
	RetryLimit, RNRLimit int
	// Window is the largest number of packets in flight (sent, not acknowledged).
	Window int
	// AckEvery is the responder's coalescing: an ACK at least every AckEvery in-order packets (besides AckReq and
	// message ends); AckReqEvery the requester's: AckReq at least every AckReqEvery packets (besides message ends).
	AckEvery, AckReqEvery int
	// ProbeAfter is the probe interval: while a message from the peer is partly received, everything posted here
	// is acknowledged and no data packet has arrived for ProbeAfter, the requester sends its last packet again, or
	// an empty SEND Only at the PSN before SendPSN when it has sent none (either a duplicate, which the peer's
	// responder acknowledges again), at most once per ProbeAfter. 0 turns it off; otherwise 1 ms..1 min. Each
	// probe costs the peer one duplicate and one ACK.
	ProbeAfter time.Duration
}

// DefaultConfig returns the knobs used against rxe (MTU 1024, timer 100 ms, 7 retries, probe after 5 ms: past
// the few milliseconds rxe's requester waits at its in-flight limit when its wake-up comes, far below its 67 ms
// timer); the addresses and PSNs are the caller's.
func DefaultConfig() Config {
	return Config{MTU: 1024, SrcPort: 0xC000, Timeout: 100 * time.Millisecond, RetryLimit: 7, RNRLimit: 7,
		Window: 32, AckEvery: 16, AckReqEvery: 16, ProbeAfter: 5 * time.Millisecond}
}

// check validates c.
func (c *Config) check() error {
	switch {
	case !c.Local.IP.Is4() || !c.Peer.IP.Is4():
		return fmt.Errorf("ibrc: local and peer IP must be IPv4 addresses, got %v and %v", c.Local.IP, c.Peer.IP)
	case !roce.ValidQPN(c.Local.QPN) || !roce.ValidQPN(c.Peer.QPN):
		return fmt.Errorf("ibrc: QPNs %#x and %#x: allowed 2..0xFFFFFE", c.Local.QPN, c.Peer.QPN)
	case c.SendPSN > roce.Max24 || c.RecvPSN > roce.Max24:
		return fmt.Errorf("ibrc: PSNs %#x and %#x: allowed 0..0xFFFFFF", c.SendPSN, c.RecvPSN)
	case c.MTU != 256 && c.MTU != 512 && c.MTU != 1024 && c.MTU != 2048 && c.MTU != 4096:
		return fmt.Errorf("ibrc: MTU %d: allowed 256, 512, 1024, 2048, 4096", c.MTU)
	case c.Timeout <= 0:
		return fmt.Errorf("ibrc: timeout %v: allowed > 0", c.Timeout)
	case c.RetryLimit < 0 || c.RetryLimit > 7 || c.RNRLimit < 0 || c.RNRLimit > 7:
		return fmt.Errorf("ibrc: retry limits %d and %d: allowed 0..7", c.RetryLimit, c.RNRLimit)
	case c.Window < 1 || c.Window >= 1<<22:
		return fmt.Errorf("ibrc: window %d: allowed 1..%d packets", c.Window, 1<<22-1)
	case c.AckEvery < 1 || c.AckReqEvery < 1:
		return fmt.Errorf("ibrc: AckEvery %d and AckReqEvery %d: allowed >= 1", c.AckEvery, c.AckReqEvery)
	case c.ProbeAfter != 0 && (c.ProbeAfter < time.Millisecond || c.ProbeAfter > time.Minute):
		return fmt.Errorf("ibrc: ProbeAfter %v: allowed 0 (off) or 1ms..1m0s", c.ProbeAfter)
	}
	return nil
}

// Stats counts what an endpoint did and saw.
type Stats struct {
	// DataSent counts data packets sent, Retransmitted those sent again (already sent once).
	DataSent, Retransmitted int
	// AcksSent and NAKsSent count the responder's ACKs and sequence NAKs.
	AcksSent, NAKsSent int
	// AcksRcvd, NAKsRcvd and RNRsRcvd count the requester's incoming ACKs, NAKs and RNR NAKs.
	AcksRcvd, NAKsRcvd, RNRsRcvd int
	// Timeouts counts retransmit timer expiries; Probes the packets sent again by the probe (ProbeAfter), counted
	// in neither DataSent nor Retransmitted.
	Timeouts, Probes int
	// Duplicates and OutOfSeq count data packets behind and ahead of the expected PSN.
	Duplicates, OutOfSeq int
	// Bad counts frames to this queue pair that failed a check (ICRC, opcode sequence, length).
	Bad int
	// Unsupported counts frames to this queue pair dropped for their opcode: not an RC opcode, an RC response
	// other than Acknowledge, or an RC request other than SEND away from the expected PSN.
	Unsupported int
	// MsgsSent counts sent messages acknowledged; MsgsRcvd messages received whole.
	MsgsSent, MsgsRcvd int
	// PeerMSN is the MSN of the latest ACK.
	PeerMSN uint32
}

// Errors of the queue pair; once one happens the endpoint sends nothing more.
var (
	// ErrRetryExceeded: RetryLimit timeouts or sequence NAKs in a row without progress.
	ErrRetryExceeded = errors.New("ibrc: transport retry counter exceeded")
	// ErrRNRExceeded: RNRLimit RNR NAKs in a row.
	ErrRNRExceeded = errors.New("ibrc: RNR retry counter exceeded")
	// ErrRemote: the peer sent a NAK other than a sequence error (invalid request, access or operation error).
	ErrRemote = errors.New("ibrc: remote error NAK")
	// ErrProtocol: the peer broke the opcode sequence or packet length rules; this side NAKed "invalid request".
	ErrProtocol = errors.New("ibrc: invalid request from the peer")
	// ErrNotForUs: the frame is not RoCEv2 to this endpoint's IP and QP (the caller handles or drops it).
	ErrNotForUs = errors.New("ibrc: not a frame for this queue pair")
	// ErrTooLong: a posted message is longer than MaxMessage.
	ErrTooLong = errors.New("ibrc: message longer than 2^31 bytes")
)

// MaxMessage is the longest message a queue pair carries (IBTA: 2^31 bytes).
const MaxMessage = 1 << 31

// message is one posted SEND: its data and the index of its first packet.
type message struct {
	data  []byte
	first uint64
	n     uint64
}

// Endpoint is one RC queue pair: requester (Post, ACK handling, go-back-N) and responder (PSN rules, ACK/NAK).
// Packet indices count from 0 at SendPSN (requester) and RecvPSN (responder); the wire carries them modulo 2^24.
type Endpoint struct {
	cfg Config
	hdr roce.Header
	// requester: msgs posted and not acknowledged; total packets posted; una oldest unacknowledged, nxt next to
	// send, high one past the highest sent
	msgs                  []message
	total, una, nxt, high uint64
	retries, rnrRetries   int
	deadline, holdUntil   time.Duration
	// probe: the last new data packet sent (what a probe sends again, if any); lastData the arrival of the latest data
	// packet from the peer, lastProbe the latest probe
	probe               []byte
	lastData, lastProbe time.Duration
	// responder: epsn packets received in order, msn messages completed, cur the message being received
	epsn           uint64
	msn            uint32
	cur            []byte
	inMsg          bool
	recvd          [][]byte
	ackDue, nakDue bool
	nakSent        bool
	nakSyn         uint8
	sinceAck       int
	err            error
	stats          Stats
}

// New returns an endpoint for c.
func New(c Config) (*Endpoint, error) {
	if err := c.check(); err != nil {
		return nil, err
	}
	h := roce.Header{SrcMAC: c.Local.MAC, DstMAC: c.Peer.MAC, SrcIP: c.Local.IP, DstIP: c.Peer.IP, TTL: 64,
		SrcPort: c.SrcPort, PKey: roce.DefaultPKey, DestQP: c.Peer.QPN}
	return &Endpoint{cfg: c, hdr: h}, nil
}

// SetPeerMAC sets the Ethernet destination (learned by ARP on a live link).
func (e *Endpoint) SetPeerMAC(mac [6]byte) { e.hdr.DstMAC = mac }

// Stats returns the counters.
func (e *Endpoint) Stats() Stats { return e.stats }

// Err returns the error that stopped the queue pair, or nil.
func (e *Endpoint) Err() error { return e.err }

// Post queues one SEND message of 0..MaxMessage bytes (an empty message is one SEND Only without payload). It
// queues nothing and returns an error for a longer message (ErrTooLong) or once the queue pair has failed (the
// error of Err).
func (e *Endpoint) Post(data []byte) error {
	if err := e.postable(len(data)); err != nil {
		return err
	}
	n := uint64(max(1, (len(data)+e.cfg.MTU-1)/e.cfg.MTU))
	e.msgs = append(e.msgs, message{data: data, first: e.total, n: n})
	e.total += n
	return nil
}

// postable reports why a message of n bytes cannot be posted now, or nil.
func (e *Endpoint) postable(n int) error {
	if e.err != nil {
		return fmt.Errorf("ibrc: post on a failed queue pair: %w", e.err)
	}
	if n > MaxMessage {
		return fmt.Errorf("%w: %d bytes", ErrTooLong, n)
	}
	return nil
}

// Outstanding reports the number of posted messages not yet acknowledged.
func (e *Endpoint) Outstanding() int { return len(e.msgs) }

// Received returns the messages received whole since the previous call, in order.
func (e *Endpoint) Received() [][]byte {
	r := e.recvd
	e.recvd = nil
	return r
}

// wire returns the 24-bit PSN of packet index i counted from base.
func wire(base uint32, i uint64) uint32 { return uint32((uint64(base) + i) & roce.Max24) }

// Deadline returns the next time Poll has something to do without a new frame (a retransmit timer, the end of an
// RNR wait or a probe), and false when there is none.
func (e *Endpoint) Deadline() (time.Duration, bool) {
	if e.err != nil {
		return 0, false
	}
	t, ok := time.Duration(0), false
	if e.una < e.high {
		t, ok = e.deadline, true
	}
	if e.nxt < e.total && e.nxt-e.una < uint64(e.cfg.Window) && (!ok || e.holdUntil < t) {
		t, ok = e.holdUntil, true
	}
	if e.probing() && (!ok || e.probeAt() < t) {
		t, ok = e.probeAt(), true
	}
	return t, ok
}
