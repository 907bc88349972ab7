package scoreboard

import (
	"fmt"
	"hash/crc64"
)

// crcTable is the CRC-64 (ECMA) table the transfer scoreboard fingerprints messages with.
var crcTable = crc64.MakeTable(crc64.ECMA)

// posted is one message posted and not yet delivered.
type posted struct {
	// id is the message id, size its length, sum its CRC-64 (ECMA).
	id   uint64
	size int
	sum  uint64
}

// transferConn is one connection's posted messages, oldest first.
type transferConn struct {
	// queue holds the undelivered messages in posting order; aborted is set once the connection errored.
	queue   []posted
	aborted bool
}

// Transfer is the end-to-end transaction scoreboard: every message posted on a connection is delivered exactly
// once, in posting order, with exactly the posted bytes. It knows nothing of packets, PSNs or the blocks: it sees
// only what the sending host posted and what the receiving host got.
type Transfer struct {
	// conns holds the per-connection state.
	conns []transferConn
	// Posted, Delivered and Aborted count messages; Bytes counts delivered payload bytes.
	Posted, Delivered, Aborted, Bytes int64
}

// NewTransfer returns a scoreboard for conns connections.
func NewTransfer(conns int) *Transfer {
	return &Transfer{conns: make([]transferConn, conns)}
}

// Post records message id with its data on connection conn. Ids must increase on a connection.
func (t *Transfer) Post(conn int, id uint64, data []byte) error {
	if conn < 0 || conn >= len(t.conns) {
		return fmt.Errorf("transfer: post on connection %d of %d", conn, len(t.conns))
	}
	c := &t.conns[conn]
	if n := len(c.queue); n > 0 && c.queue[n-1].id >= id {
		return fmt.Errorf("transfer: connection %d: message %d posted after message %d", conn, id, c.queue[n-1].id)
	}
	c.queue = append(c.queue, posted{id: id, size: len(data), sum: crc64.Checksum(data, crcTable)})
	t.Posted++
	return nil
}

// Deliver checks that message id with data is the next one posted on conn and carries its bytes.
func (t *Transfer) Deliver(conn int, id uint64, data []byte) error {
	if conn < 0 || conn >= len(t.conns) {
		return fmt.Errorf("transfer: delivery on connection %d of %d", conn, len(t.conns))
	}
	c := &t.conns[conn]
	if len(c.queue) == 0 {
		return fmt.Errorf("transfer: connection %d: message %d delivered, but nothing is outstanding "+
			"(a duplicate or an invented message)", conn, id)
	}
	want := c.queue[0]
	switch {
	case id != want.id:
		return fmt.Errorf("transfer: connection %d: message %d delivered, expected message %d next "+
			"(order or duplicate)", conn, id, want.id)
	case len(data) != want.size:
		return fmt.Errorf("transfer: connection %d: message %d delivered with %d bytes, posted %d",
			conn, id, len(data), want.size)
	case crc64.Checksum(data, crcTable) != want.sum:
		return fmt.Errorf("transfer: connection %d: message %d (%d bytes) delivered with other bytes than posted",
			conn, id, len(data))
	}
	c.queue = c.queue[1:]
	t.Delivered++
	t.Bytes += int64(len(data))
	return nil
}

// Abort marks conn as errored: its undelivered messages are counted as aborted, not lost.
func (t *Transfer) Abort(conn int) {
	c := &t.conns[conn]
	t.Aborted += int64(len(c.queue))
	c.queue = nil
	c.aborted = true
}

// Outstanding is the number of posted messages not yet delivered or aborted.
func (t *Transfer) Outstanding() int64 { return t.Posted - t.Delivered - t.Aborted }

// Finish reports an error naming the first connection that still has undelivered messages.
func (t *Transfer) Finish() error {
	for i := range t.conns {
		if q := t.conns[i].queue; len(q) > 0 {
			return fmt.Errorf("transfer: connection %d: %d message(s) never delivered, "+
				"the first is message %d (%d bytes)", i, len(q), q[0].id, q[0].size)
		}
	}
	return nil
}
