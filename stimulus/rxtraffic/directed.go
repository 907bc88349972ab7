package rxtraffic

import "github.com/spraynic/spraynic/config"

// The directed scripts. Each is a value: a table of steps (what to drive; packets and control wait for their
// handshake, idle, reset and ready rows say when) and the counters the run must end with.

// directed is the table of the directed scripts.
var directed = []Script{windowEdge, samePath, cplStall, ackStall, closePending, resetBurst}

// windowEdge: the last PSN inside the window is taken, the first outside is not; the duplicate range ends exactly
// at cum-2^23+1 (cum-2^23 is out of window); all of it across the 2^24 wrap.
var windowEdge = Script{
	Name: "window_edge",
	Doc:  "PSNs at cum+W-1 / cum+W, cum-2^23+1 / cum-2^23, across the 2^24 wrap",
	Steps: func(cfg config.Config) []Item {
		base := uint32(1<<24 - 5)
		w := cfg.Window
		return table(
			open(1, base),
			offer(1, psnAt(base, w-1), 0, 0, 1),
			offer(1, psnAt(base, w), 0, 1, 2),
			each(0, w-1, func(k int) row { return offer(1, psnAt(base, k), 1, uint32(k), uint32(10+k)) }),
			// cum is now base+w: base+w-2^23+1 is a duplicate, base+w-2^23 is out of window.
			offer(1, psnAt(base, w-(1<<23)+1), 0, 2, 3),
			offer(1, psnAt(base, w-(1<<23)), 0, 3, 4),
			offer(1, psnAt(base, 2*w-1), 0, 4, 5).withAckReq(),
			offer(1, psnAt(base, 2*w), 0, 5, 6))
	},
	Want: func(cfg config.Config) [4]uint32 { return [4]uint32{uint32(cfg.Window) + 1, 1, 3, 0} },
}

// samePath: back-to-back packets on one connection and path, with a path gap and a late arrival right behind it,
// so every stage-1 read needs the previous cycle's write.
var samePath = Script{
	Name: "same_path",
	Doc:  "back-to-back packets of one connection and path: forwarding, path gap, late arrival",
	Steps: func(cfg config.Config) []Item {
		seqs := []uint32{0, 1, 2, 4, 3, 5, 6, 8, 9, 7, 10, 11, 11, 12}
		return table(
			open(0, 100),
			each(0, len(seqs), func(k int) row {
				return offer(0, 100+uint32(k), 1, seqs[k], uint32(k)).withECN(k == 6)
			}),
			// Same PSN again on another path: a duplicate that must be acknowledged at once.
			offer(0, 105, 0, 0, 99))
	},
	Want: func(cfg config.Config) [4]uint32 { return [4]uint32{14, 1, 0, 0} },
}

// cplStall: completions held back until lag exceeds the window: s_pkt_ready must drop, nothing is lost.
var cplStall = Script{
	Name: "cpl_stall",
	Doc:  "m_cpl held low through 3 windows of in-order traffic: input stalls, nothing lost",
	Steps: func(cfg config.Config) []Item {
		// Completions stay blocked long after the input has stalled, then flow again.
		return table(
			open(0, 7),
			ready(false, true, 4*cfg.Window+50),
			each(0, 3*cfg.Window, func(k int) row {
				return offer(0, 7+uint32(k), uint32(k%cfg.Paths), uint32(k/cfg.Paths), uint32(k))
			}))
	},
	Want:      func(cfg config.Config) [4]uint32 { return [4]uint32{uint32(3 * cfg.Window), 0, 0, 0} },
	WantStall: true,
}

// ackStall: m_ack held low while every packet asks for an ACK: the FIFO fills and s_pkt_ready drops.
var ackStall = Script{
	Name: "ack_stall",
	Doc:  "m_ack held low with an ACK per packet: FIFO full, input stalls, no ACK lost",
	Steps: func(cfg config.Config) []Item {
		return table(
			open(1, 0),
			ready(true, false, 4*cfg.AckFifoDepth+50),
			each(0, 3*cfg.AckFifoDepth, func(k int) row {
				return offer(1, uint32(k), 0, uint32(k), uint32(k)).withAckReq()
			}))
	},
	Want:      func(cfg config.Config) [4]uint32 { return [4]uint32{uint32(3 * cfg.AckFifoDepth), 0, 0, 0} },
	WantStall: true,
}

// closePending: a connection is closed while its completions are held back, then reopened and used.
var closePending = Script{
	Name: "close_pending",
	Doc:  "close with completions pending under back-pressure, reopen at a new PSN, packets to the closed connection",
	Steps: func(cfg config.Config) []Item {
		return table(
			open(0, 50), open(1, 900),
			ready(false, true, 0),
			each(0, 6, func(k int) row {
				q := uint32(k)
				return run{offer(0, 50+q, 0, q, q), offer(1, 900+q, 0, q, 100+q)}
			}),
			idle(3),
			closeConn(0),
			offer(0, 56, 0, 6, 7),
			ready(true, true, 0),
			idle(20),
			open(0, 3000),
			each(0, 4, func(k int) row { return offer(0, 3000+uint32(k), 1, uint32(k), uint32(200+k)) }))
	},
	Want: func(cfg config.Config) [4]uint32 { return [4]uint32{16, 0, 0, 1} },
}

// resetBurst: reset while a burst is in flight; afterwards everything is closed and counters are zero.
var resetBurst = Script{
	Name: "reset_burst",
	Doc:  "reset in the middle of a burst with out-of-order data held: clean state after",
	Steps: func(cfg config.Config) []Item {
		return table(
			open(0, 10),
			each(1, 8, func(k int) row { return offer(0, 10+uint32(k), 0, uint32(k), uint32(k)) }),
			reset(2),
			offer(0, 10, 0, 0, 0),
			open(0, 10),
			offer(0, 10, 0, 0, 0),
			offer(0, 11, 0, 1, 1))
	},
	Want: func(cfg config.Config) [4]uint32 { return [4]uint32{2, 0, 0, 1} },
}
