package cosim

import (
	"bytes"
	"fmt"
	"math/rand/v2"

	"github.com/spraynic/spraynic/config"
	"github.com/spraynic/spraynic/golden/nicroce"
	"github.com/spraynic/spraynic/stimulus/dmahost"
	"github.com/spraynic/spraynic/system/roce"
)

// NicRoCEOptions steer one end-to-end lockstep run of two nic_roce instances.
type NicRoCEOptions struct {
	// Lib is the model library of nic_roce_tb (BuildNicRoCETB) for Config.
	Lib    string
	Config config.Config
	Seed   uint64
	// Loss is the probability that the channel drops a frame; Bad that it corrupts one byte of a frame (a bad
	// frame roce_rx drops), both each way.
	Loss, Bad float64
	// Spoof is the probability that a data frame is followed by a copy from a wrong source IP or MAC.
	Spoof float64
	// Conns connections, Msgs messages each way on each.
	Conns, Msgs int
	// MaxCycles bounds the run.
	MaxCycles int64
	// Repro is the command that reproduces the run.
	Repro string
}

// NicRoCEResult describes a finished run.
type NicRoCEResult struct {
	// Spoofed frames injected (wrong source IP or MAC).
	Spoofed int
	// Cycles simulated per endpoint; Frames sent by both, Lost and Bad of them on the channel; Bytes delivered.
	Cycles              int64
	Frames, Lost, Bad   int
	Bytes, Completions  int
	DataFrames, AckFrms int
}

// nrFlight is a frame on the channel and the cycle it arrives.
type nrFlight struct {
	frame []byte
	due   int64
}

// nrChannel carries the MAC TX frames of one endpoint to the MAC RX of the other: seeded loss, one corrupted byte
// (a bad frame), and a seeded delay; frames arrive in order.
type nrChannel struct {
	from, to  *nrEnd
	loss, bad float64
	rng       *rand.Rand
	q         []nrFlight
	lost, bd  int
	n         int
	// spoof is the probability that a copy of a data frame from a wrong source IP or MAC follows it (valid
	// frames the peer check drops); badIP and badMAC count them.
	spoof         float64
	badIP, badMAC int
}

// spoofed rebuilds data frame f with a source IP (ip true) or MAC not the peer's; nil for an ACK.
func spoofed(f []byte, ip bool) ([]byte, bool) {
	p, err := roce.Parse(f)
	if err != nil || p.IsAck() {
		return nil, ip
	}
	d := p.Data
	if ip {
		d.SrcIP = nrIP(0x0A0000FE)
	} else {
		d.SrcMAC = nrMAC(0x0200000000FE)
	}
	g, err := roce.BuildData(&d)
	if err != nil {
		return nil, ip
	}
	return g, ip
}

func (ch *nrChannel) carry(cycle int64) {
	for _, f := range ch.from.tx {
		ch.n++
		r := ch.rng.Float64()
		switch {
		case r < ch.loss:
			ch.lost++
			continue
		case r < ch.loss+ch.bad:
			f = append([]byte(nil), f...)
			f[14+ch.rng.IntN(len(f)-14)] ^= byte(1 + ch.rng.IntN(255))
			ch.bd++
		}
		due := cycle + 10 + int64(ch.rng.IntN(20))
		if k := len(ch.q); k > 0 && ch.q[k-1].due > due {
			due = ch.q[k-1].due
		}
		ch.q = append(ch.q, nrFlight{frame: f, due: due})
		if ch.rng.Float64() < ch.spoof {
			if g, ip := spoofed(f, ch.rng.IntN(2) == 0); g != nil {
				ch.q = append(ch.q, nrFlight{frame: g, due: due})
				if ip {
					ch.badIP++
				} else {
					ch.badMAC++
				}
			}
		}
	}
	ch.from.tx = ch.from.tx[:0]
	for len(ch.q) > 0 && ch.q[0].due <= cycle {
		ch.to.rxQ = append(ch.to.rxQ, ch.q[0].frame)
		ch.q = ch.q[1:]
	}
}

// nrXfer is one direction of one connection: the messages and their buffers.
type nrXfer struct {
	from, to *nrEnd
	conn     uint32
	msgs     [][]byte
	src, dst []uint64
}

const nrStride = 0x10000

// plan writes n messages of seeded lengths (0..3 MTU, the first 0) into from's memory, queues the work requests
// at from and posted receives of 3 MTU at to.
func nrPlan(rng *rand.Rand, from, to *nrEnd, c uint32, n int, base uint64) (nrXfer, error) {
	x := nrXfer{from: from, to: to, conn: c}
	mtu := from.cfg.MTU
	for i := 0; i < n; i++ {
		l := rng.IntN(3*mtu + 1)
		if i == 0 {
			l = 0
		}
		m := make([]byte, l)
		for j := range m {
			m[j] = byte(rng.Uint32())
		}
		src, dst := base+uint64(i)*nrStride, base+0x800000+uint64(i)*nrStride
		if err := from.host.Mem.Write(src, m); err != nil {
			return x, err
		}
		x.msgs, x.src, x.dst = append(x.msgs, m), append(x.src, src), append(x.dst, dst)
		to.rqQ = append(to.rqQ, nrReq{conn: c, id: uint32(1000 + i), addr: dst, len: uint32(3 * mtu)})
		from.wrQ = append(from.wrQ, nrReq{conn: c, id: uint32(i), addr: src, len: uint32(l)})
	}
	return x, nil
}

// check is the transfer scoreboard: every send of from and receive of to on the connection completed once, in
// order, OK, with the message length, and the receive buffer holds the message byte for byte.
func (x *nrXfer) check() ([]dmahost.Range, error) {
	var sends, recvs []nicroce.Cpl
	for _, c := range x.from.cpls {
		if !c.Recv && c.Conn == x.conn {
			sends = append(sends, c)
		}
	}
	for _, c := range x.to.cpls {
		if c.Recv && c.Conn == x.conn {
			recvs = append(recvs, c)
		}
	}
	if len(sends) != len(x.msgs) || len(recvs) != len(x.msgs) {
		return nil, fmt.Errorf("%s->%s conn %d: %d send and %d receive completions of %d messages", x.from.name,
			x.to.name, x.conn, len(sends), len(recvs), len(x.msgs))
	}
	var bufs []dmahost.Range
	for i, m := range x.msgs {
		l := uint32(len(m))
		if w := (nicroce.Cpl{Conn: x.conn, ID: uint32(i), Len: l}); sends[i] != w {
			return nil, fmt.Errorf("%s conn %d send completion %d: %+v, want %+v", x.from.name, x.conn, i, sends[i], w)
		}
		if w := (nicroce.Cpl{Recv: true, Conn: x.conn, ID: uint32(1000 + i), Len: l}); recvs[i] != w {
			return nil, fmt.Errorf("%s conn %d receive completion %d: %+v, want %+v", x.to.name, x.conn, i, recvs[i], w)
		}
		got, err := x.to.host.Mem.Read(x.dst[i], len(m))
		if err != nil {
			return nil, err
		}
		if !bytes.Equal(got, m) {
			return nil, fmt.Errorf("%s->%s conn %d message %d (%d bytes): received bytes differ from the sent ones",
				x.from.name, x.to.name, x.conn, i, len(m))
		}
		bufs = append(bufs, dmahost.Range{Addr: x.dst[i], Len: uint64(len(m))})
	}
	return bufs, nil
}

// RunNicRoCE runs two nic_roce RTL instances A and B, each in lockstep with its twin, joined by a lossy frame
// channel, with messages both ways on every connection, and checks them (the lockstep, every MAC TX frame, the
// transfer scoreboard, completions, DMA writes inside received messages, counters).
func RunNicRoCE(o NicRoCEOptions) (NicRoCEResult, error) {
	var res NicRoCEResult
	pa, pb := nrPeer{mac: 0x020000000001, ip: 0x0A000001}, nrPeer{mac: 0x020000000002, ip: 0x0A000002}
	a, err := newNrEnd("A", o.Lib, o.Config, o.Seed*4+1, pa, pb, o.Repro)
	if err != nil {
		return res, err
	}
	defer a.close()
	b, err := newNrEnd("B", o.Lib, o.Config, o.Seed*4+2, pb, pa, o.Repro)
	if err != nil {
		return res, err
	}
	defer b.close()
	psnA := func(c int) uint32 { return uint32(0xFFFFF0+0x1000*c) & 0xFFFFFF }
	psnB := func(c int) uint32 { return uint32(0x000100 + 0x2000*c) }
	a.program(o.Conns, psnA, psnB)
	b.program(o.Conns, psnB, psnA)
	rng := rand.New(rand.NewPCG(o.Seed, 5))
	var xs []nrXfer
	for c := 0; c < o.Conns; c++ {
		x, err := nrPlan(rng, a, b, uint32(c), o.Msgs, 0x1000000*uint64(1+2*c))
		if err != nil {
			return res, err
		}
		y, err := nrPlan(rng, b, a, uint32(c), o.Msgs, 0x1000000*uint64(2+2*c))
		if err != nil {
			return res, err
		}
		xs = append(xs, x, y)
	}
	ab := &nrChannel{from: a, to: b, loss: o.Loss, bad: o.Bad, spoof: o.Spoof, rng: rand.New(rand.NewPCG(o.Seed, 6))}
	ba := &nrChannel{from: b, to: a, loss: o.Loss, bad: o.Bad, spoof: o.Spoof, rng: rand.New(rand.NewPCG(o.Seed, 7))}
	want := 2 * o.Conns * o.Msgs
	for i := 0; i < 2; i++ {
		if err := a.step(true); err != nil {
			return res, err
		}
		if err := b.step(true); err != nil {
			return res, err
		}
	}
	done := func() bool { return len(a.cpls) == want && len(b.cpls) == want }
	for a.cycle < o.MaxCycles && !done() {
		if err := a.step(false); err != nil {
			return res, err
		}
		if err := b.step(false); err != nil {
			return res, err
		}
		ab.carry(a.cycle)
		ba.carry(b.cycle)
	}
	res = NicRoCEResult{Cycles: a.cycle, Frames: ab.n + ba.n, Lost: ab.lost + ba.lost, Bad: ab.bd + ba.bd,
		Completions: len(a.cpls) + len(b.cpls)}
	if !done() {
		return res, fmt.Errorf("after %d cycles: A %d, B %d of %d completions each\n  reproduce: %s", a.cycle,
			len(a.cpls), len(b.cpls), want, o.Repro)
	}
	var inA, inB []dmahost.Range
	for i := range xs {
		bufs, err := xs[i].check()
		if err != nil {
			return res, fmt.Errorf("%w\n  reproduce: %s", err, o.Repro)
		}
		for _, r := range bufs {
			res.Bytes += int(r.Len)
		}
		if i%2 == 0 {
			inB = append(inB, bufs...)
		} else {
			inA = append(inA, bufs...)
		}
	}
	if w := b.host.Mem.WrittenOutside(inB...); len(w) > 0 {
		return res, fmt.Errorf("B: DMA writes outside the received messages: %v\n  reproduce: %s", w, o.Repro)
	}
	if w := a.host.Mem.WrittenOutside(inA...); len(w) > 0 {
		return res, fmt.Errorf("A: DMA writes outside the received messages: %v\n  reproduce: %s", w, o.Repro)
	}
	// Drain: the last ACKs leave, then the counters are read on both (the channel still runs).
	step := func() error {
		if err := a.step(false); err != nil {
			return err
		}
		if err := b.step(false); err != nil {
			return err
		}
		ab.carry(a.cycle)
		ba.carry(b.cycle)
		return nil
	}
	for i := 0; i < 3000; i++ {
		if err := step(); err != nil {
			return res, err
		}
	}
	ca, cb := a.readCounters(nrCounterNames), b.readCounters(nrCounterNames)
	for len(a.axiQ) > 0 || len(b.axiQ) > 0 {
		if err := step(); err != nil {
			return res, err
		}
	}
	if err := a.checkCounters(ca, want, ba, o.Repro); err != nil {
		return res, err
	}
	if err := b.checkCounters(cb, want, ab, o.Repro); err != nil {
		return res, err
	}
	res.Cycles = a.cycle
	res.Frames, res.Lost, res.Bad = ab.n+ba.n, ab.lost+ba.lost, ab.bd+ba.bd
	res.Spoofed = ab.badIP + ab.badMAC + ba.badIP + ba.badMAC
	for _, e := range []*nrEnd{a, b} {
		for _, k := range e.sentFrames {
			if k {
				res.AckFrms++
			} else {
				res.DataFrames++
			}
		}
	}
	return res, nil
}

// nrCounterNames are the counters checkCounters reads; the last nine are roce_rx's.
var nrCounterNames = []string{"CPL_SEND", "CPL_RECV", "CPL_ERROR", "WR_TAKEN", "TX_DATA", "TX_ACK", "PEER_IP",
	"PEER_MAC", "DATA", "ACK", "NOT_ROCE", "TRUNCATED", "INVALID", "UNKNOWN_OPCODE", "BAD_ICRC", "LIMIT", "MAC_ERROR"}

// readCounters queues AXI4-Lite reads of the counters CNT_<name>; the values land in the map as the reads
// complete.
func (e *nrEnd) readCounters(names []string) map[string]*uint32 {
	got := make(map[string]*uint32, len(names))
	for _, n := range names {
		got[n] = new(uint32)
		e.axiQ = append(e.axiQ, nrAxi{read: true, addr: nrCounter(n), got: got[n]})
	}
	return got
}

// checkCounters checks that the counters read after the drain add up: the completions and work requests counted
// equal those seen, none with an error; every frame into MAC RX is counted once by roce_rx; the data and ACK
// frames sent equal the MAC TX frames; the peer check dropped every spoofed frame.
func (e *nrEnd) checkCounters(got map[string]*uint32, cpls int, in *nrChannel, repro string) error {
	names := nrCounterNames
	var roceRx uint32
	for _, n := range names[8:] {
		roceRx += *got[n]
	}
	var dataOut, ackOut int
	for _, f := range e.sentFrames {
		if f {
			ackOut++
		} else {
			dataOut++
		}
	}
	checks := []struct {
		what      string
		got, want int
	}{
		{"CNT_CPL_SEND + CNT_CPL_RECV", int(*got["CPL_SEND"] + *got["CPL_RECV"]), cpls},
		{"CNT_CPL_ERROR", int(*got["CPL_ERROR"]), 0},
		{"CNT_WR_TAKEN", int(*got["WR_TAKEN"]), cpls / 2},
		{"roce_rx counters (every frame counted once)", int(roceRx), e.framesIn},
		{"CNT_TX_DATA", int(*got["TX_DATA"]), dataOut},
		{"CNT_TX_ACK", int(*got["TX_ACK"]), ackOut},
		{"CNT_PEER_IP (frames from a wrong source IP)", int(*got["PEER_IP"]), in.badIP},
		{"CNT_PEER_MAC (frames from a wrong source MAC)", int(*got["PEER_MAC"]), in.badMAC},
	}
	for _, c := range checks {
		if c.got != c.want {
			return fmt.Errorf("%s: %s is %d, want %d\n  reproduce: %s", e.name, c.what, c.got, c.want, repro)
		}
	}
	return nil
}

// isAck reports whether a frame that parsed is an ACK.
func isAck(f []byte) bool {
	p, err := roce.Parse(f)
	return err == nil && p.IsAck()
}
