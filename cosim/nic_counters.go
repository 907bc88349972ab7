package cosim

import (
	"fmt"
	"math/rand/v2"

	"github.com/spraynic/spraynic/config"
	"github.com/spraynic/spraynic/golden/nictransport"
)

// counterEvents is how many events of each kind nic_dir_counters drives: bit 17 of a counter goes up at 2^17
// and down at 2^18, so every bit the coverage target keeps (0..17, coverage/exclusions.yaml) toggles both ways.
const counterEvents = 1 << 18

// Phases of the receive side of counterDriver, in order.
const (
	// data to the closed connection: cnt_closed
	cpClosed = iota
	// open the open connection
	cpOpen
	// one PSN below the expected one: cnt_duplicate
	cpDuplicate
	// 2^23 from the expected PSN (behind for the filter, beyond rx_reorder's window): cnt_out_of_window
	cpOutOfWindow
	// triplets exp+1 (gap: NAK + gbn_dropped), exp, exp+1 (both accepted)
	cpGap
	cpDone
)

// counterDriver drives the rare-event counters of a go-back-N top through counterEvents events each, one per
// cycle per port: the receive side runs its phases in order on one port while the TX and ACK ports refuse
// packets and ACKs of the closed connection at the same time (cnt_tx_dropped, cnt_ack_ignored). Phases:
// n packets to the closed connection b (its filter PSN follows them, so each passes to rx_reorder and is
// counted closed), open a at psn0, n duplicates psn0-1, n packets psn0+2^23 (the go-back-N filter takes a
// distance of -2^23 as behind and passes them; rx_reorder's duplicate range ends at -(2^23-1), so they are out
// of window), then n triplets exp+1 (a gap: dropped, one NAK), exp, exp+1 (both accepted), so the expected PSN
// of a crosses 2^24 (psn0 is at most 2n below it). Every packet goes on path 0 with the path sequence a sender
// gives it, one more per packet of its connection, so the sequences (PSEQ_WIDTH bits) wrap several times; the ACKs of b
// carry consecutive path sequences too.
type counterDriver struct {
	n          uint32
	a, b, psn0 uint32
	// pseqMask is the path sequence width's mask; pseqA, pseqB are the next path sequences of a and b.
	pseqMask, pseqA, pseqB uint32
	// handleMask is the host handle width's mask; rx counts the packets taken on the receive port (each is
	// placed in the next receive buffer, its handle).
	handleMask, rx uint32
	// phase and k are the receive phase and the events it has done; exp is a's expected PSN, closedPSN b's.
	phase, k       int
	exp, closedPSN uint32
	// tx and ack count the refused TX packets and ignored ACKs of b.
	tx, ack uint32
	// last is the latest output observed; end is the cycle the last event was taken.
	last nictransport.TopOut
	end  int64
}

func newCounterDriver(cfg config.Config, seed uint64, n uint32) *counterDriver {
	rng := rand.New(rand.NewPCG(seed, 0x636e74))
	a := uint32(rng.IntN(cfg.Conns))
	b := (a + 1 + uint32(rng.IntN(cfg.Conns-1))) % uint32(cfg.Conns)
	psn0 := (1<<24 - 1 - uint32(rng.IntN(int(2*n)))) & 0xFFFFFF
	return &counterDriver{n: n, a: a, b: b, psn0: psn0, exp: psn0, pseqMask: 1<<cfg.PseqWidth - 1,
		handleMask: 1<<cfg.HandleWidth - 1}
}

func (d *counterDriver) Drive(cycle int64, in *nictransport.TopIn) {
	*in = nictransport.TopIn{Rst: cycle < 2, CplReady: true, PktReady: true, AckOutReady: true}
	if in.Rst {
		return
	}
	if d.tx < d.n {
		in.TxValid = true
		in.TxConn = d.b
		in.TxHandle = d.tx & d.handleMask
		in.TxFirst = true
		in.TxLast = true
	}
	if d.ack < d.n {
		in.AckValid = true
		in.AckConn = d.b
		in.AckPSN = d.ack & 0xFFFFFF
		in.AckPseq = d.ack & d.pseqMask
	}
	psn, pseq := uint32(0), d.pseqA
	switch d.phase {
	case cpClosed:
		pseq = d.pseqB
		in.RxValid = true
		in.RxConn = d.b
		psn = d.closedPSN
	case cpOpen:
		in.CtlValid = true
		in.CtlOpen = true
		in.CtlConn = d.a
		in.CtlTxPSN = 0
		in.CtlRxPSN = d.psn0
	case cpDuplicate:
		in.RxValid = true
		in.RxConn = d.a
		psn = (d.psn0 - 1) & 0xFFFFFF
	case cpOutOfWindow:
		in.RxValid = true
		in.RxConn = d.a
		psn = (d.psn0 + 1<<23) & 0xFFFFFF
	case cpGap:
		in.RxValid = true
		in.RxConn = d.a
		psn = d.exp
		if d.k%3 != 1 {
			psn = (d.exp + 1) & 0xFFFFFF
		}
	}
	if in.RxValid {
		in.RxPSN = psn
		in.RxPseq = pseq
		in.RxHandle = d.rx & d.handleMask
		in.RxFirst = true
		in.RxLast = true
	}
}

func (d *counterDriver) Observe(cycle int64, in *nictransport.TopIn, out *nictransport.TopOut) {
	d.last = *out
	if in.Rst {
		return
	}
	if in.TxValid && out.TxReady {
		d.tx++
		d.end = cycle
	}
	if in.AckValid && out.AckReady {
		d.ack++
		d.end = cycle
	}
	switch {
	case in.RxValid && out.RxReady:
		d.rx++
		if in.RxConn == d.a {
			d.pseqA = (d.pseqA + 1) & d.pseqMask
		} else {
			d.pseqB = (d.pseqB + 1) & d.pseqMask
		}
		switch d.phase {
		case cpClosed:
			d.closedPSN = (d.closedPSN + 1) & 0xFFFFFF
		case cpGap:
			if d.k%3 == 2 {
				d.exp = (d.exp + 2) & 0xFFFFFF
			}
		}
		d.k++
		d.end = cycle
	case in.CtlValid && out.CtlReady:
		d.k++
	default:
		return
	}
	events := int(d.n)
	if d.phase == cpOpen {
		events = 1
	} else if d.phase == cpGap {
		events = 3 * int(d.n)
	}
	if d.k == events {
		d.phase++
		d.k = 0
	}
}

// check requires every phase to have run at one event per cycle (the receive port never stalls: its last
// event, the 6n+1-th handshake counting the open, is taken at cycle 6n+2 after the two reset cycles) and every
// counter to hold exactly what the phases produce.
func (d *counterDriver) check() error {
	o, n := &d.last, d.n
	if d.phase != cpDone || d.tx != n || d.ack != n {
		return fmt.Errorf("stimulus unfinished: receive phase %d, event %d; %d TX packets and %d ACKs of %d", d.phase,
			d.k, d.tx, d.ack, n)
	}
	if want := 6*int64(n) + 2; d.end != want {
		return fmt.Errorf("last event taken at cycle %d, want %d (one packet per cycle on the receive port)", d.end,
			want)
	}
	for _, c := range []struct {
		name      string
		got, want uint32
	}{
		{name: "closed", got: o.CntClosed, want: n}, {name: "tx_dropped", got: o.CntTxDropped, want: n},
		{name: "ack_ignored", got: o.CntAckIgnored, want: n}, {name: "duplicate", got: o.CntDuplicate, want: n},
		{name: "naks", got: o.CntNaks, want: n}, {name: "gbn_dropped", got: o.CntGBNDropped, want: n},
		{name: "out_of_window", got: o.CntOutOfWin, want: n}, {name: "accepted", got: o.CntAccepted, want: 2 * n},
		{name: "sent", got: o.CntSent, want: 0}, {name: "retx_loss", got: o.CntRetxLoss, want: 0},
		{name: "retx_timeout", got: o.CntRetxTimeout, want: 0}, {name: "retx_gbn", got: o.CntRetxGBN, want: 0},
		{name: "timeouts", got: o.CntTimeouts, want: 0}, {name: "errors", got: o.CntErrors, want: 0},
		{name: "decisions", got: o.CntDecisions, want: 0}, {name: "probes", got: o.CntProbes, want: 0},
		{name: "failures", got: o.CntFailures, want: 0}, {name: "recoveries", got: o.CntRecoveries, want: 0},
	} {
		if c.got != c.want {
			return fmt.Errorf("cnt_%s %d, want %d", c.name, c.got, c.want)
		}
	}
	return nil
}

func (d *counterDriver) result() (int64, string) {
	o := &d.last
	return int64(d.tx) + int64(d.ack) + int64(o.CntClosed+o.CntDuplicate+o.CntOutOfWin+o.CntAccepted+o.CntGBNDropped),
		fmt.Sprintf(
			"end=%d conns a=%d b=%d psn0=%#06x closed=%d tx_dropped=%d ack_ignored=%d duplicate=%d "+
				"out_of_window=%d naks=%d gbn_dropped=%d accepted=%d",
			d.end,
			d.a,
			d.b,
			d.psn0,
			o.CntClosed,
			o.CntTxDropped,
			o.CntAckIgnored,
			o.CntDuplicate,
			o.CntOutOfWin,
			o.CntNaks,
			o.CntGBNDropped,
			o.CntAccepted,
		)
}

// counterCycles is the length of a counter run of n events per kind: the 6n+1 handshakes of the receive port
// (6n packets and the open) at one per cycle, the last at cycle 6n + 2 (check), then a few idle cycles.
func counterCycles(n uint32) int64 { return 6*int64(n) + 16 }

func init() {
	// Two seeds at most: each run is 1.6 million cycles (an estimated 19 minutes on the u250 coverage model), and
	// a seed only picks the two connections and the open PSN.
	registerNicDirected(Test{Name: "nic_dir_counters", MaxSeeds: 2,
		Doc: fmt.Sprintf(
			"directed: %d events of each rare kind (closed, tx_dropped, ack_ignored, duplicate, out_of_window, NAK, "+
				"gbn_dropped; accepted twice that) at one per cycle, so every kept counter bit toggles both ways; "+
				"exact counts",
			counterEvents,
		),
		CyclesFor: func(config.Config) int64 { return counterCycles(counterEvents) },
		MinFor: func(config.Config) Minimum {
			return Minimum{N: 8 * counterEvents, Why: "every event the script drives: n TX packets, n ACKs and 6n " +
				"packets on the receive port"}
		},
	}, func(r Request) nicDirected { return newCounterDriver(r.Config, r.Seed, counterEvents) })
}
