package rxtraffic

import "github.com/spraynic/spraynic/config"

func psnAt(base uint32, k int) uint32 { return (base + uint32(k)) & (1<<24 - 1) }

func init() {
	// window_edge: the last PSN inside the window is taken, the first outside is not; the duplicate range ends
	// exactly at cum-2^23+1 (cum-2^23 is out of window); all of it across the 2^24 wrap.
	scripts["window_edge"] = Script{Name: "window_edge", Doc: "PSNs at cum+W-1 / cum+W, cum-2^23+1 / cum-2^23, across the 2^24 wrap",
		Build: func(cfg config.Config) []Item {
			base := uint32(1<<24 - 5)
			w := cfg.Window
			it := []Item{{Op: OpOpen, Conn: 1, PSN: base},
				{Op: OpPkt, Conn: 1, PSN: psnAt(base, w-1), Path: 0, Pseq: 0, Handle: 1},
				{Op: OpPkt, Conn: 1, PSN: psnAt(base, w), Path: 0, Pseq: 1, Handle: 2},
			}
			for k := 0; k < w-1; k++ {
				it = append(it, Item{Op: OpPkt, Conn: 1, PSN: psnAt(base, k), Path: 1, Pseq: uint32(k), Handle: uint32(10 + k)})
			}
			// cum is now base+w: base+w-2^23+1 is a duplicate, base+w-2^23 is out of window.
			it = append(it,
				Item{Op: OpPkt, Conn: 1, PSN: psnAt(base, w-(1<<23)+1), Path: 0, Pseq: 2, Handle: 3},
				Item{Op: OpPkt, Conn: 1, PSN: psnAt(base, w-(1<<23)), Path: 0, Pseq: 3, Handle: 4},
				Item{Op: OpPkt, Conn: 1, PSN: psnAt(base, 2*w-1), Path: 0, Pseq: 4, Handle: 5, AckReq: true},
				Item{Op: OpPkt, Conn: 1, PSN: psnAt(base, 2*w), Path: 0, Pseq: 5, Handle: 6})
			return it
		},
		Want: func(cfg config.Config) [4]uint32 { return [4]uint32{uint32(cfg.Window) + 1, 1, 3, 0} },
	}
	// same_path: back-to-back packets on one connection and path, with a path gap and a late arrival right behind
	// it, so every stage-1 read needs the previous cycle's write.
	scripts["same_path"] = Script{Name: "same_path", Doc: "back-to-back packets of one connection and path: forwarding, path gap, late arrival",
		Build: func(cfg config.Config) []Item {
			it := []Item{{Op: OpOpen, Conn: 0, PSN: 100}}
			seqs := []uint32{0, 1, 2, 4, 3, 5, 6, 8, 9, 7, 10, 11, 11, 12}
			for k, s := range seqs {
				it = append(it, Item{Op: OpPkt, Conn: 0, PSN: 100 + uint32(k), Path: 1, Pseq: s, Handle: uint32(k), ECN: k == 6})
			}
			// Same PSN again on another path: a duplicate that must be acknowledged at once.
			return append(it, Item{Op: OpPkt, Conn: 0, PSN: 105, Path: 0, Pseq: 0, Handle: 99})
		},
		Want: func(cfg config.Config) [4]uint32 { return [4]uint32{14, 1, 0, 0} },
	}
	// cpl_stall: completions held back until lag exceeds the window: s_pkt_ready must drop, nothing is lost.
	scripts["cpl_stall"] = Script{Name: "cpl_stall", Doc: "m_cpl held low through 3 windows of in-order traffic: input stalls, nothing lost",
		Build: func(cfg config.Config) []Item {
			// Completions stay blocked long after the input has stalled, then flow again.
			it := []Item{{Op: OpOpen, Conn: 0, PSN: 7}, {Op: OpReady, Cpl: false, Ack: true, N: 4*cfg.Window + 50}}
			for k := 0; k < 3*cfg.Window; k++ {
				it = append(it, Item{Op: OpPkt, Conn: 0, PSN: 7 + uint32(k), Path: uint32(k % cfg.Paths), Pseq: uint32(k / cfg.Paths), Handle: uint32(k)})
			}
			return it
		},
		Want:      func(cfg config.Config) [4]uint32 { return [4]uint32{uint32(3 * cfg.Window), 0, 0, 0} },
		WantStall: true,
	}
	// ack_stall: m_ack held low while every packet asks for an ACK: the FIFO fills and s_pkt_ready drops.
	scripts["ack_stall"] = Script{Name: "ack_stall", Doc: "m_ack held low with an ACK per packet: FIFO full, input stalls, no ACK lost",
		Build: func(cfg config.Config) []Item {
			it := []Item{{Op: OpOpen, Conn: 1, PSN: 0}, {Op: OpReady, Cpl: true, Ack: false, N: 4*cfg.AckFifoDepth + 50}}
			for k := 0; k < 3*cfg.AckFifoDepth; k++ {
				it = append(it, Item{Op: OpPkt, Conn: 1, PSN: uint32(k), Path: 0, Pseq: uint32(k), Handle: uint32(k), AckReq: true})
			}
			return it
		},
		Want:      func(cfg config.Config) [4]uint32 { return [4]uint32{uint32(3 * cfg.AckFifoDepth), 0, 0, 0} },
		WantStall: true,
	}
	// close_pending: a connection is closed while its completions are held back, then reopened and used.
	scripts["close_pending"] = Script{Name: "close_pending", Doc: "close with completions pending under back-pressure, reopen at a new PSN, packets to the closed connection",
		Build: func(cfg config.Config) []Item {
			it := []Item{{Op: OpOpen, Conn: 0, PSN: 50}, {Op: OpOpen, Conn: 1, PSN: 900}, {Op: OpReady, Cpl: false, Ack: true}}
			for k := 0; k < 6; k++ {
				it = append(it, Item{Op: OpPkt, Conn: 0, PSN: 50 + uint32(k), Path: 0, Pseq: uint32(k), Handle: uint32(k)},
					Item{Op: OpPkt, Conn: 1, PSN: 900 + uint32(k), Path: 0, Pseq: uint32(k), Handle: uint32(100 + k)})
			}
			it = append(it, Item{Op: OpIdle, N: 3}, Item{Op: OpClose, Conn: 0},
				Item{Op: OpPkt, Conn: 0, PSN: 56, Path: 0, Pseq: 6, Handle: 7},
				Item{Op: OpReady, Cpl: true, Ack: true}, Item{Op: OpIdle, N: 20},
				Item{Op: OpOpen, Conn: 0, PSN: 3000})
			for k := 0; k < 4; k++ {
				it = append(it, Item{Op: OpPkt, Conn: 0, PSN: 3000 + uint32(k), Path: 1, Pseq: uint32(k), Handle: uint32(200 + k)})
			}
			return it
		},
		Want: func(cfg config.Config) [4]uint32 { return [4]uint32{16, 0, 0, 1} },
	}
	// reset_burst: reset while a burst is in flight; afterwards everything is closed and counters are zero.
	scripts["reset_burst"] = Script{Name: "reset_burst", Doc: "reset in the middle of a burst with out-of-order data held: clean state after",
		Build: func(cfg config.Config) []Item {
			it := []Item{{Op: OpOpen, Conn: 0, PSN: 10}}
			for k := 1; k < 8; k++ {
				it = append(it, Item{Op: OpPkt, Conn: 0, PSN: 10 + uint32(k), Path: 0, Pseq: uint32(k), Handle: uint32(k)})
			}
			it = append(it, Item{Op: OpReset, N: 2},
				Item{Op: OpPkt, Conn: 0, PSN: 10, Path: 0, Pseq: 0, Handle: 0},
				Item{Op: OpOpen, Conn: 0, PSN: 10},
				Item{Op: OpPkt, Conn: 0, PSN: 10, Path: 0, Pseq: 0, Handle: 0},
				Item{Op: OpPkt, Conn: 0, PSN: 11, Path: 0, Pseq: 1, Handle: 1})
			return it
		},
		Want: func(cfg config.Config) [4]uint32 { return [4]uint32{2, 0, 0, 1} },
	}
}
