package cosim

import (
	"bytes"
	"fmt"

	"github.com/spraynic/spraynic/system"
	"github.com/spraynic/spraynic/system/roce"
)

// run resets both tops, runs the measured time with the hosts posting, drains, and reads and checks the counters.
func (s *frameSim) run() error {
	for i := 0; i < 2; i++ {
		if err := s.step(true); err != nil {
			return err
		}
	}
	for s.t0 < 0 || s.cycles < s.t0+s.measured {
		if s.t0 < 0 && !s.ends[0].setup && !s.ends[1].setup {
			s.t0 = s.cycles
		}
		if s.t0 < 0 && s.cycles > 100000 {
			return fmt.Errorf("the AXI4-Lite programming did not finish in %d cycles\n  reproduce: %s", s.cycles,
				s.repro)
		}
		if err := s.post(); err != nil {
			return err
		}
		if err := s.step(false); err != nil {
			return err
		}
		s.progress()
	}
	limit := s.cycles + int64(s.o.DrainUS*float64(s.o.ClockMHz))
	for !s.allDone() {
		if s.cycles >= limit {
			return fmt.Errorf("drain: after %g us, %s\n  reproduce: %s", s.o.DrainUS, s.outstanding(), s.repro)
		}
		if err := s.step(false); err != nil {
			return err
		}
	}
	// The last ACKs leave and every frame in flight arrives; then both tops' counters are read.
	for idle := 0; idle < drainIdle || s.nets[0].Pending() > 0 || s.nets[1].Pending() > 0; idle++ {
		if s.cycles >= limit+drainIdle {
			return fmt.Errorf("drain: frames still in flight after %g us\n  reproduce: %s", s.o.DrainUS, s.repro)
		}
		if err := s.step(false); err != nil {
			return err
		}
	}
	s.lost = len(s.inFlight[0]) + len(s.inFlight[1])
	var dropped int64
	for _, n := range s.nets {
		for _, ps := range n.Stats().Paths {
			dropped += ps.DroppedLoss + ps.DroppedTail + ps.DroppedDown
		}
	}
	if int64(s.lost) != dropped {
		return fmt.Errorf("%d frames never arrived, the networks dropped %d\n  reproduce: %s", s.lost, dropped, s.repro)
	}
	return s.readCounters()
}

// post keeps --backlog send requests outstanding on every connection of every direction during the measured
// time: a fresh message in the sender's memory, its receive posted at the receiver, then its send request.
func (s *frameSim) post() error {
	if s.t0 < 0 || s.cycles >= s.t0+s.measured {
		return nil
	}
	for _, d := range s.dirs {
		for c := range d.conns {
			dc := &d.conns[c]
			for int(dc.sending) < s.o.Backlog {
				m := &fsMsg{id: dc.nextID, data: make([]byte, d.sizes()), start: -1, src: d.srcNext, dst: d.dstNext}
				system.Fill(d.rng, m.data)
				span := (uint64(len(m.data)) + 4095) &^ 4095
				d.srcNext, d.dstNext = d.srcNext+span, d.dstNext+span
				if err := d.from.host.Mem.Write(m.src, m.data); err != nil {
					return err
				}
				l := uint32(len(m.data))
				d.to.rqQ = append(d.to.rqQ, nrReq{conn: uint32(c), id: m.id, addr: m.dst, len: l})
				d.from.wrQ = append(d.from.wrQ, nrReq{conn: uint32(c), id: m.id, addr: m.src, len: l})
				dc.msgs = append(dc.msgs, m)
				dc.nextID++
				dc.sending++
			}
		}
	}
	return nil
}

// deliver takes the frames network i delivers this cycle to the other top's MAC RX: ECN marks set the IP ECN
// field to CE, --corrupt changes one byte.
func (s *frameSim) deliver(i int, now int64) error {
	for {
		p, ok := s.nets[i].Poll(now)
		if !ok {
			return nil
		}
		fr, ok := s.inFlight[i][p.Tag]
		if !ok {
			return fmt.Errorf("network %d delivered tag %d, which is not in flight", i, p.Tag)
		}
		delete(s.inFlight[i], p.Tag)
		f := fr.f
		if p.CE {
			f = append([]byte(nil), f...)
			f[15] |= roce.ECNCE
			if err := roce.FixChecksums(f); err != nil {
				return err
			}
			s.marked++
		}
		if s.corrupt > 0 && s.crng.Float64() < s.corrupt {
			f = append([]byte(nil), f...)
			f[14+s.crng.IntN(len(f)-14)] ^= byte(1 + s.crng.IntN(255))
			s.corrupted++
		}
		s.ends[1-i].rxQ = append(s.ends[1-i].rxQ, f)
	}
}

// completions checks the completions both hosts took this cycle against the transfer scoreboard.
func (s *frameSim) completions(d *fsDir, now int64) error {
	for _, e := range []*nrEnd{d.from, d.to} {
		seen := &d.seenFrom
		if e == d.to {
			seen = &d.seenTo
		}
		for ; *seen < len(e.cpls); *seen++ {
			c := e.cpls[*seen]
			if c.Recv != (e == d.to) {
				continue
			}
			if err := d.complete(c, now); err != nil {
				return fmt.Errorf("%s cycle %d: %w\n  reproduce: %s", e.name, now, err, s.repro)
			}
		}
	}
	return nil
}

// allDone reports whether every posted message completed on both sides.
func (s *frameSim) allDone() bool {
	for _, d := range s.dirs {
		for _, c := range d.conns {
			if len(c.msgs) > 0 {
				return false
			}
		}
	}
	return true
}

// outstanding names the first connection with a message not completed.
func (s *frameSim) outstanding() string {
	for _, d := range s.dirs {
		for c, dc := range d.conns {
			if len(dc.msgs) > 0 {
				m := dc.msgs[0]
				return fmt.Sprintf("%s->%s conn %d message %d (%d bytes) not complete (sent %v, received %v)",
					d.from.name, d.to.name, c, m.id, len(m.data), m.sent, m.recd)
			}
		}
	}
	return "nothing outstanding"
}

// progress reports the run's progress every system.ProgressCycles cycles.
func (s *frameSim) progress() {
	if s.o.Progress == nil || s.t0 < 0 || (s.cycles-s.t0)%system.ProgressCycles != 0 || s.cycles == s.t0 {
		return
	}
	t := s.cycles - s.t0
	s.o.Progress(system.Progress{Cycle: t, Cycles: s.measured, Packets: s.dataFrames,
		Goodput: float64(s.dirs[0].inWindow) / s.o.Capacity(t)})
}

// complete checks one completion of direction d: in posting order per connection, status OK, the message's
// length; a receive's buffer holds the message byte for byte.
func (d *fsDir) complete(c fsCpl, now int64) error {
	if c.Status != 0 {
		return fmt.Errorf("completion %+v: status %d (want 0, OK)", c, c.Status)
	}
	if int(c.Conn) >= len(d.conns) {
		return fmt.Errorf("completion %+v: connection not active", c)
	}
	dc := &d.conns[c.Conn]
	next := &dc.sendNext
	if c.Recv {
		next = &dc.recvNext
	}
	var m *fsMsg
	for _, x := range dc.msgs {
		if x.id == *next {
			m = x
		}
	}
	if c.ID != *next || m == nil || c.Len != uint32(len(m.data)) {
		return fmt.Errorf("%s->%s completion %+v: want id %d of a posted message, with its length", d.from.name,
			d.to.name, c, *next)
	}
	*next++
	if !c.Recv {
		m.sent = true
		dc.sending--
	} else {
		got, err := d.to.host.Mem.Read(m.dst, len(m.data))
		if err != nil {
			return err
		}
		if !bytes.Equal(got, m.data) {
			return fmt.Errorf("%s->%s conn %d message %d (%d bytes): the receive buffer differs from the message",
				d.from.name, d.to.name, c.Conn, m.id, len(m.data))
		}
		if m.start < 0 {
			return fmt.Errorf("%s->%s conn %d message %d received before its first frame left", d.from.name,
				d.to.name, c.Conn, m.id)
		}
		m.recd = true
		d.mct = append(d.mct, now-m.start)
		d.messages++
		d.recvd += int64(len(m.data))
		d.bufs = append(d.bufs, rangeOf(m.dst, len(m.data)))
	}
	for len(dc.msgs) > 0 && dc.msgs[0].sent && dc.msgs[0].recd {
		dc.msgs = dc.msgs[1:]
	}
	return nil
}
