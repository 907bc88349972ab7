package system

import (
	"fmt"
	"math/rand/v2"

	"github.com/spraynic/spraynic/golden/seqnum"
	"github.com/spraynic/spraynic/scoreboard"
)

// message is one message a host posted.
type message struct {
	// id is the per-connection message id (also the wire MsgID); data its bytes.
	id   uint64
	data []byte
}

// segment is one packet's worth of a message, as the sending host's handle table remembers it.
type segment struct {
	// set says the entry was written; conn and psn name the packet; msg, off and n the payload.
	set       bool
	conn, psn uint32
	msg       *message
	off, n    int
	// first and last are the message flags; epoch the connection's epoch at the sender when it was handed.
	first, last bool
	epoch       uint32
}

// txConn is the sending host's state of one connection.
type txConn struct {
	// queue holds posted messages not yet fully handed to the NIC; off is the next byte of queue[0].
	queue []*message
	off   int
	// nextID is the id of the next message to post; psn the PSN the next handed packet gets; una the highest
	// cumulative PSN the NIC took in an ACK (the host's view of the window).
	nextID   uint64
	psn, una uint32
	// down is set while the connection manager reconnects the connection (after an error or a reset): nothing
	// is posted or handed to the NIC.
	down bool
	// starts holds the first-packet cycles of started messages not yet delivered, oldest first.
	starts []int64
}

// txHost is the sending host: posts messages, segments them at the MTU and hands packets to the NIC.
type txHost struct {
	// conns is per connection; window and mtu are WINDOW and the payload size.
	conns       []txConn
	window, mtu int
	// slots is the handle table, indexed by conn*slotsPer + psn mod slotsPer; a handle is that index XOR tag (tag
	// has only bits above the index's, drawn from the seed, so the NIC carries handles of the full width).
	slots    []segment
	slotsPer uint32
	tag      uint32
	// rr is the round-robin scheduling pointer; cur is the connection on s_tx (-1: none).
	rr, cur int
	// dist, rng and backlog make the messages; posting stops when closed.
	dist    msgDist
	rng     *rand.Rand
	backlog int
	closed  bool
	// sb is the transfer scoreboard the posts go to, as connection sbBase + c.
	sb     *scoreboard.Transfer
	sbBase int
}

// size draws one message size.
func (h *txHost) size() int { return h.dist.draw(h.rng) }

// post keeps every open connection at its backlog of messages.
func (h *txHost) post() error {
	if h.closed {
		return nil
	}
	for c := range h.conns {
		tc := &h.conns[c]
		for !tc.down && len(tc.queue) < h.backlog {
			m := &message{id: tc.nextID, data: make([]byte, h.size())}
			Fill(h.rng, m.data)
			tc.nextID++
			if err := h.sb.Post(h.sbBase+c, m.id, m.data); err != nil {
				return err
			}
			tc.queue = append(tc.queue, m)
		}
	}
	return nil
}

// pick chooses the connection whose packet goes on s_tx (round robin over connections with data and room in
// the window as the host sees it); it keeps the current one until the handshake.
func (h *txHost) pick() int {
	if h.cur >= 0 {
		return h.cur
	}
	n := len(h.conns)
	for i := 0; i < n; i++ {
		c := (h.rr + i) % n
		tc := &h.conns[c]
		if len(tc.queue) > 0 && !tc.down && int(seqnum.PSN(tc.una).Size(seqnum.PSN(tc.psn))) < h.window {
			h.cur = c
			h.rr = (c + 1) % n
			return c
		}
	}
	return -1
}

// head returns the segment connection c would hand over next (handle, flags).
func (h *txHost) head(c int) (handle uint32, first, last bool) {
	tc := &h.conns[c]
	m := tc.queue[0]
	n := min(h.mtu, len(m.data)-tc.off)
	return h.index(c, tc.psn) ^ h.tag, tc.off == 0, tc.off+n == len(m.data)
}

// index is the handle table index of connection c's packet psn.
func (h *txHost) index(c int, psn uint32) uint32 { return uint32(c)*h.slotsPer + psn%h.slotsPer }

// taken records the handshake of connection c's head segment at cycle now, in the connection's epoch.
func (h *txHost) taken(c int, now int64, epoch uint32) {
	tc := &h.conns[c]
	m := tc.queue[0]
	n := min(h.mtu, len(m.data)-tc.off)
	if tc.off == 0 {
		tc.starts = append(tc.starts, now)
	}
	h.slots[h.index(c, tc.psn)] = segment{set: true, conn: uint32(c), psn: tc.psn, msg: m, off: tc.off, n: n,
		first: tc.off == 0, last: tc.off+n == len(m.data), epoch: epoch}
	tc.psn = seqnum.PSN(tc.psn).Add(1).Uint32()
	tc.off += n
	if tc.off == len(m.data) {
		tc.queue = tc.queue[1:]
		tc.off = 0
	}
	h.cur = -1
}

// lookup returns the segment behind a packet descriptor and checks that the handle names that very packet.
func (h *txHost) lookup(handle, conn, psn uint32) (*segment, error) {
	if handle^h.tag >= uint32(len(h.slots)) {
		return nil, fmt.Errorf("data error: packet conn %d psn %#x carries handle %#x beyond the table "+
			"(%d entries, tag %#x)", conn, psn, handle, len(h.slots), h.tag)
	}
	s := &h.slots[handle^h.tag]
	if !s.set || s.conn != conn || s.psn != psn {
		return nil, fmt.Errorf("data error: packet conn %d psn %#x carries handle %#x, which holds conn %d psn %#x "+
			"(set %v)", conn, psn, handle, s.conn, s.psn, s.set)
	}
	return s, nil
}

// rxSlot is what the receiving host placed for one packet, by receive handle.
type rxSlot struct {
	// set, psn, msg id, off, n and the flags of the placed packet; done once completed.
	set         bool
	psn         uint32
	msg         uint64
	off, n      int
	first, last bool
}

// rxConn is the receiving host's state of one connection.
type rxConn struct {
	// bufs holds the receive buffers of messages being received, by message id; next is the id of the next
	// message to complete, at offset off; psn the next PSN to complete.
	bufs map[uint64][]byte
	next uint64
	off  int
	psn  uint32
	// started is set once the first completion arrived (psn is then known).
	started bool
}

// rxHost is the receiving host: places payloads by offset on arrival and checks completions.
type rxHost struct {
	// conns is per connection; slots the receive handle table, indexed by conn*slotsPer + psn mod slotsPer; a
	// handle is that index XOR tag (as txHost's).
	conns    []rxConn
	slots    []rxSlot
	slotsPer uint32
	tag      uint32
	// sb gets every completed message.
	sb *scoreboard.Transfer
}

// index returns the receive table index of (conn, psn), handle its receive handle.
func (r *rxHost) index(conn, psn uint32) uint32 { return conn*r.slotsPer + psn%r.slotsPer }

func (r *rxHost) handle(conn, psn uint32) uint32 { return r.index(conn, psn) ^ r.tag }

// place writes an arriving data packet's payload into its message's receive buffer (direct placement) and
// records its handle. Packets of messages already completed are not placed.
func (r *rxHost) place(conn, psn uint32, msg uint64, off int, payload []byte, first, last bool) error {
	rc := &r.conns[conn]
	// Already completed: a message delivered, or a PSN of the message being completed (a duplicate).
	if rc.started && (msg < rc.next || int32((psn-rc.psn)<<8)>>8 < 0) {
		return nil
	}
	s := &r.slots[r.index(conn, psn)]
	if s.set && s.psn != psn {
		return fmt.Errorf("host model: receive handle %#x of conn %d psn %#x still holds uncompleted psn %#x",
			r.handle(conn, psn), conn, psn, s.psn)
	}
	*s = rxSlot{set: true, psn: psn, msg: msg, off: off, n: len(payload), first: first, last: last}
	b := rc.bufs[msg]
	if need := off + len(payload); need > len(b) {
		if need > cap(b) {
			nb := make([]byte, need, max(need, 2*cap(b)))
			copy(nb, b)
			b = nb
		}
		b = b[:need]
	}
	copy(b[off:], payload)
	rc.bufs[msg] = b
	return nil
}

// complete takes one completion (in PSN order per connection) and returns the message it finished, if any.
func (r *rxHost) complete(conn, psn, handle uint32, first, last bool) (msg uint64, data []byte, done bool, err error) {
	rc := &r.conns[conn]
	if handle != r.handle(conn, psn) {
		return 0, nil, false, fmt.Errorf("data error: completion conn %d psn %#x carries handle %#x, placed under %#x",
			conn, psn, handle, r.handle(conn, psn))
	}
	s := &r.slots[r.index(conn, psn)]
	switch {
	case !s.set || s.psn != psn:
		return 0, nil, false, fmt.Errorf("data error: completion conn %d psn %#x: nothing was placed for it "+
			"(slot holds psn %#x, set %v)", conn, psn, s.psn, s.set)
	case rc.started && psn != rc.psn:
		return 0, nil, false, fmt.Errorf("data error: completion conn %d psn %#x out of order or duplicated "+
			"(expected psn %#x)", conn, psn, rc.psn)
	case first != s.first || last != s.last:
		return 0, nil, false, fmt.Errorf("data error: completion conn %d psn %#x flags first/last %v/%v, "+
			"packet had %v/%v", conn, psn, first, last, s.first, s.last)
	case s.msg != rc.next || s.off != rc.off || s.first != (rc.off == 0):
		return 0, nil, false, fmt.Errorf("data error: completion conn %d psn %#x is message %d offset %d, "+
			"expected message %d offset %d", conn, psn, s.msg, s.off, rc.next, rc.off)
	}
	rc.started = true
	rc.psn = seqnum.PSN(psn).Add(1).Uint32()
	s.set = false
	rc.off += s.n
	if !s.last {
		return 0, nil, false, nil
	}
	msg, data = rc.next, rc.bufs[rc.next][:rc.off]
	delete(rc.bufs, rc.next)
	rc.next++
	rc.off = 0
	return msg, data, true, nil
}

// popStart returns and forgets the start cycle of connection c's oldest undelivered message.
func (h *txHost) popStart(c int) int64 {
	tc := &h.conns[c]
	st := tc.starts[0]
	tc.starts = tc.starts[1:]
	return st
}
