package cosim

import (
	"bytes"
	"fmt"

	"github.com/spraynic/spraynic/config"
	"github.com/spraynic/spraynic/cosim/bridge"
	"github.com/spraynic/spraynic/system/roce"
)

// frameReset is the number of cycles rst is held at the start of a frame replay.
const frameReset = 4

// frameDrain is the number of cycles run after the last expected output, to catch extra ones.
const frameDrain = 32

// frameRun drives the frames into one roce_rx model, one beat per cycle while s_axis_tready is high, and scores
// what comes out.
type frameRun struct {
	m       *bridge.Model
	p       *roceRXPorts
	in, out []uint32
	// keep is the bytes per beat; at and off the frame and byte offset of the next beat.
	keep    int
	feed    []rxFrame
	at, off int
	sb      frameBoard
	res     *FrameReplayResult
}

// frameBoard scores the parser's outputs frame by frame: the k-th counter increment is the verdict of the k-th
// frame fed; an RTL data or ACK verdict queues that frame for the next descriptor of its kind, a data descriptor
// with a non-zero length queues it for the next payload.
type frameBoard struct {
	cfg  config.Config
	lim  roce.Limits
	feed []rxFrame
	// cnt are the counters of the last cycle; verdicts the verdicts seen.
	cnt      [len(RXVerdicts)]uint32
	verdicts int
	// data, acks and pays are the frames (indices in feed) waiting for a data descriptor, an ACK descriptor,
	// a payload; pay the payload bytes received so far of pays[0].
	data, acks, pays []int
	pay              []byte
	res              *FrameReplayResult
}

// newFrameRun returns the run of feed on model m with ports p.
func newFrameRun(m *bridge.Model, p *roceRXPorts, cfg config.Config, lim roce.Limits, feed []rxFrame,
	res *FrameReplayResult) *frameRun {
	return &frameRun{m: m, p: p, in: make([]uint32, p.inWords), out: make([]uint32, p.outWords),
		keep: res.Width / 8, feed: feed, res: res, sb: frameBoard{cfg: cfg, lim: lim, feed: feed, res: res}}
}

// run steps the model until every frame has its verdict and every output its frame, plus frameDrain cycles,
// or until a cycle budget generous for the beats runs out (then what is missing is a mismatch).
func (r *frameRun) run() error {
	var beats int64
	for _, f := range r.feed {
		beats += int64((len(f.data) + r.keep - 1) / r.keep)
	}
	budget := frameReset + 4*beats + 64*int64(len(r.feed)) + 10000
	drain := 0
	for cyc := int64(0); cyc < budget && drain < frameDrain; cyc++ {
		r.drive(cyc < frameReset)
		if err := r.m.Step(1, r.in, r.out); err != nil {
			return err
		}
		r.res.Cycles++
		if cyc < frameReset {
			continue
		}
		r.moved()
		r.sb.observe(r.p, r.out)
		if r.at == len(r.feed) && r.sb.done() {
			drain++
		}
	}
	r.sb.missing()
	return nil
}

// drive sets the inputs of one cycle: the reset, or the next beat (if any), outputs always ready.
func (r *frameRun) drive(rst bool) {
	clear(r.in)
	p := r.p
	p.set(r.in, "rst", b2u(rst))
	p.set(r.in, "m_axis_tready", 1)
	p.set(r.in, "m_rx_ready", 1)
	p.set(r.in, "m_ack_ready", 1)
	if rst || r.at == len(r.feed) {
		return
	}
	f := r.feed[r.at].data
	n := min(r.keep, len(f)-r.off)
	p.setBytes(r.in, "s_axis_tdata", f[r.off:r.off+n])
	if r.off+n == len(f) {
		p.set(r.in, "s_axis_tlast", 1)
		keep := make([]byte, r.keep/8)
		for i := 0; i < n; i++ {
			keep[i/8] |= 1 << (i % 8)
		}
		p.setBytes(r.in, "s_axis_tkeep", keep)
	} else {
		p.setBytes(r.in, "s_axis_tkeep", bytes.Repeat([]byte{0xff}, r.keep/8))
	}
	p.set(r.in, "s_axis_tvalid", 1)
}

// moved advances to the next beat when this cycle's beat was taken.
func (r *frameRun) moved() {
	if r.at == len(r.feed) || !r.p.bit(r.out, "s_axis_tready") {
		return
	}
	r.res.Beats++
	r.off += r.keep
	if r.off >= len(r.feed[r.at].data) {
		r.at, r.off = r.at+1, 0
	}
}

// b2u is 1 for true.
func b2u(b bool) uint32 {
	if b {
		return 1
	}
	return 0
}

// done reports whether every frame has its verdict and every queued frame its output.
func (b *frameBoard) done() bool {
	return b.verdicts == len(b.feed) && len(b.data) == 0 && len(b.acks) == 0 && len(b.pays) == 0
}

// bad records a mismatch.
func (b *frameBoard) bad(frame int, field, rtl, parse string) {
	b.res.MismatchCount++
	if len(b.res.Mismatches) < maxMismatches {
		b.res.Mismatches = append(b.res.Mismatches, FrameMismatch{Frame: frame, Field: field, RTL: rtl, Parse: parse})
	}
}

// observe scores one cycle's outputs: counters first (a descriptor is never visible before its verdict), then
// descriptors, then the payload beat.
func (b *frameBoard) observe(p *roceRXPorts, out []uint32) {
	for i := range RXVerdicts {
		v := p.get(out, "cnt_"+RXVerdicts[i])
		for ; b.cnt[i] != v; b.cnt[i]++ {
			b.verdict(i)
		}
	}
	b.res.Verdicts = b.cnt
	if p.bit(out, "m_rx_valid") {
		b.dataDesc(p, out)
	}
	if p.bit(out, "m_ack_valid") {
		b.ackDesc(p, out)
	}
	if p.bit(out, "m_axis_tvalid") {
		b.payBeat(p, out)
	}
}

// verdict scores one counter increment, of RXVerdicts[i], as the verdict of the next frame.
func (b *frameBoard) verdict(i int) {
	if b.verdicts == len(b.feed) {
		b.bad(0, "verdict", RXVerdicts[i], "none (every frame has its verdict)")
		return
	}
	f := &b.feed[b.verdicts]
	b.verdicts++
	if i != f.verdict {
		b.bad(f.num, "verdict", RXVerdicts[i], wantVerdict(f))
	}
	switch i {
	case 0:
		b.data = append(b.data, b.verdicts-1)
	case 1:
		b.acks = append(b.acks, b.verdicts-1)
	}
}

// wantVerdict names Parse's verdict of f, with the error.
func wantVerdict(f *rxFrame) string {
	if f.verdict < 0 {
		return fmt.Sprintf("an error of no counter (%v)", f.err)
	}
	if f.err != nil {
		return fmt.Sprintf("%s (%v)", RXVerdicts[f.verdict], f.err)
	}
	return RXVerdicts[f.verdict]
}

// fields compares a descriptor's ports (prefix + name) with want.
func (b *frameBoard) fields(p *roceRXPorts, out []uint32, f *rxFrame, kind, prefix string, want []RXField) {
	for _, w := range want {
		if got := p.hex(out, prefix+w.Name); got != w.Value {
			b.bad(f.num, kind+" descriptor "+w.Name, "0x"+got, "0x"+w.Value)
		}
	}
}

// dataDesc scores a data descriptor against the oldest frame with an RTL data verdict.
func (b *frameBoard) dataDesc(p *roceRXPorts, out []uint32) {
	if len(b.data) == 0 {
		b.bad(0, "data descriptor", "conn 0x"+p.hex(out, "m_rx_conn")+" psn 0x"+p.hex(out, "m_rx_psn"),
			"none (no frame with a data verdict waiting)")
		return
	}
	k := b.data[0]
	b.data = b.data[1:]
	if p.hex(out, "m_rx_len") != "0" {
		b.pays = append(b.pays, k)
	}
	if f := &b.feed[k]; f.verdict == 0 {
		b.fields(p, out, f, "data", "m_rx_", RXDataFields(b.cfg, b.lim, &f.pkt.Data))
	}
}

// ackDesc scores an ACK descriptor against the oldest frame with an RTL ack verdict.
func (b *frameBoard) ackDesc(p *roceRXPorts, out []uint32) {
	if len(b.acks) == 0 {
		b.bad(0, "ACK descriptor", "conn 0x"+p.hex(out, "m_ack_conn")+" psn 0x"+p.hex(out, "m_ack_psn"),
			"none (no frame with an ack verdict waiting)")
		return
	}
	k := b.acks[0]
	b.acks = b.acks[1:]
	if f := &b.feed[k]; f.verdict == 1 {
		b.fields(p, out, f, "ACK", "m_ack_", RXAckFields(b.cfg, b.lim, &f.pkt.Ack))
	}
}

// payBeat adds one payload beat to the payload of the oldest data descriptor with a length, and scores the
// payload at tlast: tkeep all ones before it, contiguous from bit 0 on it, the bytes those of Parse's payload
// (byte 0 in lane 0).
func (b *frameBoard) payBeat(p *roceRXPorts, out []uint32) {
	if len(b.pays) == 0 {
		b.bad(0, "payload beat", "0x"+p.hex(out, "m_axis_tdata"), "none (no data descriptor with a length waiting)")
		return
	}
	f := &b.feed[b.pays[0]]
	keep, data := p.bytes(out, "m_axis_tkeep"), p.bytes(out, "m_axis_tdata")
	n := 0
	for n < len(data) && keep[n/8]>>(n%8)&1 == 1 {
		n++
	}
	last := p.bit(out, "m_axis_tlast")
	if rest := p.hex(out, "m_axis_tkeep"); (!last && n != len(data)) || (n == 0) ||
		(n < len(data) && keepAbove(keep, n)) {
		b.bad(f.num, fmt.Sprintf("payload tkeep at byte %d", len(b.pay)), "0x"+rest, "full before tlast, "+
			"contiguous from bit 0 on it")
	}
	b.pay = append(b.pay, data[:n]...)
	if !last {
		return
	}
	b.pays = b.pays[1:]
	if f.verdict == 0 {
		b.payload(f, b.pay)
	}
	b.pay = nil
}

// keepAbove reports whether a tkeep bit at or above n is set.
func keepAbove(keep []byte, n int) bool {
	for i := n; i < 8*len(keep); i++ {
		if keep[i/8]>>(i%8)&1 == 1 {
			return true
		}
	}
	return false
}

// payload compares the payload bytes of f with Parse's.
func (b *frameBoard) payload(f *rxFrame, got []byte) {
	want := f.pkt.Data.Payload
	if len(got) != len(want) {
		b.bad(f.num, "payload length", fmt.Sprint(len(got)), fmt.Sprint(len(want)))
		return
	}
	for i := range want {
		if got[i] != want[i] {
			b.bad(f.num, fmt.Sprintf("payload byte %d", i), fmt.Sprintf("0x%02x", got[i]),
				fmt.Sprintf("0x%02x", want[i]))
			return
		}
	}
}

// missing records, after the run, every frame without a verdict and every queued output that never came.
func (b *frameBoard) missing() {
	for _, f := range b.feed[b.verdicts:] {
		b.bad(f.num, "verdict", "none", wantVerdict(&f))
	}
	b.verdicts = len(b.feed)
	for _, q := range []struct {
		what string
		ks   []int
	}{{what: "data descriptor", ks: b.data}, {what: "ACK descriptor", ks: b.acks}, {what: "payload", ks: b.pays}} {
		for _, k := range q.ks {
			b.bad(b.feed[k].num, q.what, "none", "one")
		}
	}
	b.data, b.acks, b.pays = nil, nil, nil
}
