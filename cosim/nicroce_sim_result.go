package cosim

import (
	"fmt"

	"github.com/spraynic/spraynic/system"
)

// fsCounterNames are the counters a frame-level run reads from both tops; the first nine are roce_rx's.
var fsCounterNames = []string{"DATA", "ACK", "NOT_ROCE", "TRUNCATED", "INVALID", "UNKNOWN_OPCODE", "BAD_ICRC",
	"LIMIT", "MAC_ERROR", "CPL_SEND", "CPL_RECV", "CPL_ERROR", "WR_TAKEN", "TX_DATA", "TX_ACK", "RETX_LOSS",
	"RETX_TIMEOUT", "RETX_GBN", "TIMEOUTS", "ERRORS", "NAKS", "FAILURES", "RECOVERIES", "DUPLICATE", "SENT"}

// readCounters reads fsCounterNames from both tops over AXI4-Lite (the networks still run) and checks them.
func (s *frameSim) readCounters() error {
	for i, e := range s.ends {
		s.counters[i] = e.readCounters(fsCounterNames)
	}
	for len(s.ends[0].axiQ) > 0 || len(s.ends[1].axiQ) > 0 {
		if err := s.step(false); err != nil {
			return err
		}
	}
	for i, e := range s.ends {
		if err := s.checkCounters(e, s.counters[i]); err != nil {
			return fmt.Errorf("%s: %w\n  reproduce: %s", e.name, err, s.repro)
		}
	}
	for _, d := range s.dirs {
		if d.written != d.recvd {
			return fmt.Errorf("%s: wrote %d payload bytes to memory, received messages hold %d\n  reproduce: %s",
				d.to.name, d.written, d.recvd, s.repro)
		}
		if w := d.to.host.Mem.WrittenOutside(d.bufs...); len(w) > 0 {
			return fmt.Errorf("%s: DMA writes outside the received messages: %v\n  reproduce: %s", d.to.name, w,
				s.repro)
		}
	}
	return nil
}

// checkCounters checks e's counters against what its hosts and MAC ports saw.
func (s *frameSim) checkCounters(e *nrEnd, got map[string]*uint32) error {
	v := func(n string) int64 { return int64(*got[n]) }
	var sends, recvs, wrs, dataOut, ackOut, retx int64
	for _, c := range e.cpls {
		if c.Recv {
			recvs++
		} else {
			sends++
		}
	}
	for _, ws := range e.sends {
		wrs += int64(len(ws))
	}
	for _, ack := range e.sentFrames {
		if ack {
			ackOut++
		} else {
			dataOut++
		}
	}
	var sent int64
	if d := s.dirOf(e); d != nil {
		retx, sent = d.retx, int64(len(d.sentAt))
	}
	var parsed int64
	for _, n := range fsCounterNames[:9] {
		parsed += v(n)
	}
	checks := []struct {
		what      string
		got, want int64
	}{
		{"CNT_CPL_SEND", v("CPL_SEND"), sends},
		{"CNT_CPL_RECV", v("CPL_RECV"), recvs},
		{"CNT_CPL_ERROR", v("CPL_ERROR"), 0},
		{"CNT_WR_TAKEN", v("WR_TAKEN"), wrs},
		{"CNT_TX_DATA", v("TX_DATA"), dataOut},
		{"CNT_TX_ACK", v("TX_ACK"), ackOut},
		{"roce_rx counters (every frame MAC RX took, once)", parsed, int64(e.framesIn)},
		{"CNT_SENT (new packets: the PSNs MAC TX sent)", v("SENT"), sent},
	}
	for _, c := range checks {
		if c.got != c.want {
			return fmt.Errorf("%s is %d, want %d", c.what, c.got, c.want)
		}
	}
	// A retransmission of a PSN whose message has completed meanwhile is dropped in T1 (docs/nic_roce_rtl.md),
	// so MAC TX may repeat fewer PSNs than retx retransmitted, never more.
	if x := v("RETX_LOSS") + v("RETX_TIMEOUT") + v("RETX_GBN"); retx > x {
		return fmt.Errorf("MAC TX repeated %d PSNs, above the %d retransmissions CNT_RETX_* count", retx, x)
	}
	return nil
}

// result computes the figures (docs/e2e_frames.md, "Figures").
func (s *frameSim) result() (*system.Result, error) {
	o, cfg := s.o, s.o.Config
	r := &system.Result{Mode: string(o.Mode), Config: cfg.Name, Paths: cfg.Paths, NetPaths: o.NetPaths,
		Conns: o.Conns, Loss: o.Loss, AckLoss: o.AckLoss, Seed: o.Seed, Msg: o.Msg, MTU: o.MTU, PortGbps: o.PortGbps,
		ClockMHz: o.ClockMHz, DurationUS: o.DurationUS, Cycles: s.cycles, Bidir: o.Bidir}
	t := system.Tally{Bins: s.dirs[0].bins, BinCycles: s.binCycles, Measured: s.measured}
	for k, d := range s.dirs {
		r.Messages += d.messages
		r.Retransmissions += d.retx
		t.MCT = append(t.MCT, d.mct...)
		t.Resend = append(t.Resend, d.resend...)
		if k == 0 {
			r.PayloadBytes = d.inWindow
		} else {
			r.PayloadBytesBA = d.inWindow
		}
	}
	r.Goodput = float64(r.PayloadBytes) / o.Capacity(s.measured)
	r.GoodputBA = float64(r.PayloadBytesBA) / o.Capacity(s.measured)
	for _, c := range s.counters {
		r.DataPackets += int64(*c["TX_DATA"])
		r.AckPackets += int64(*c["TX_ACK"])
		r.RetxLoss += int64(*c["RETX_LOSS"])
		r.RetxTimeout += int64(*c["RETX_TIMEOUT"])
		r.RetxGBN += int64(*c["RETX_GBN"])
		r.Timeouts += int64(*c["TIMEOUTS"])
		r.Errors += int64(*c["ERRORS"])
		r.Naks += int64(*c["NAKS"])
		r.PathFailures += int64(*c["FAILURES"])
		r.PathRecoveries += int64(*c["RECOVERIES"])
		r.Spurious += int64(*c["DUPLICATE"])
	}
	for _, ps := range s.nets[0].Stats().Paths {
		r.PathUtil = append(r.PathUtil, float64(ps.BusyCycles)/float64(max(1, r.Cycles)))
		r.PathDrops = append(r.PathDrops, ps.DroppedLoss+ps.DroppedTail+ps.DroppedDown)
		r.Lost += ps.DroppedLoss + ps.DroppedTail + ps.DroppedDown
		r.ECNMarks += ps.Marked
	}
	r.Figures(o, t)
	return r, nil
}
