package dmahost

import (
	"bytes"
	"fmt"
	"math/bits"
)

// checkDesc applies the valid/hold rules and the field rules to a descriptor port.
func (h *Host) checkDesc(port string, valid bool, d desc, prev *desc) *ProtocolError {
	if prev != nil && !valid {
		return &ProtocolError{Port: port, What: fmt.Sprintf("valid dropped before descriptor %s was taken", d0(*prev)),
			Allowed: "valid held high, the descriptor unchanged, until ready"}
	}
	if prev != nil && d != *prev {
		return &ProtocolError{Port: port, What: fmt.Sprintf("descriptor changed from %s to %s while held",
			d0(*prev), d0(d)), Allowed: "valid held high, the descriptor unchanged, until ready"}
	}
	if !valid {
		return nil
	}
	switch {
	case d.len == 0:
		return &ProtocolError{Port: port, What: "len 0", Allowed: fmt.Sprintf("len 1..%d (MTU)", h.cfg.MTU)}
	case d.len > uint32(h.cfg.MTU):
		return &ProtocolError{Port: port, What: fmt.Sprintf("len %d above the MTU", d.len),
			Allowed: fmt.Sprintf("len 1..%d (MTU)", h.cfg.MTU)}
	case d.tag > 255:
		return &ProtocolError{Port: port, What: fmt.Sprintf("tag %d wider than 8 bits", d.tag),
			Allowed: "tag 0..255"}
	case d.addr+uint64(d.len)-1 < d.addr:
		return &ProtocolError{Port: port, What: fmt.Sprintf("addr %#x + len %d wraps past 2^64", d.addr, d.len),
			Allowed: "addr + len <= 2^64"}
	}
	return nil
}

func d0(d desc) string { return fmt.Sprintf("{addr %#x, len %d, tag %d}", d.addr, d.len, d.tag) }

// checkBeat applies the valid/hold rules to the write-data port.
func (h *Host) checkBeat(valid bool, b beat) *ProtocolError {
	prev := h.heldBeat
	if prev == nil {
		return nil
	}
	if !valid {
		return &ProtocolError{Port: PortWrData, What: "tvalid dropped before the beat moved",
			Allowed: "tvalid held high, tdata, tkeep and tlast unchanged, until tready"}
	}
	if b.keep != prev.keep || b.last != prev.last || !bytes.Equal(b.data[:h.k], prev.data[:h.k]) {
		return &ProtocolError{Port: PortWrData,
			What: fmt.Sprintf("beat changed while held (tkeep %#x tlast %t -> tkeep %#x tlast %t)", prev.keep,
				prev.last, b.keep, b.last),
			Allowed: "tvalid held high, tdata, tkeep and tlast unchanged, until tready"}
	}
	return nil
}

// takeRead takes a read descriptor: tag check, then the snapshot (or poison) and the first beat's tick.
func (h *Host) takeRead(d desc) *ProtocolError {
	if h.rdTags[d.tag] {
		return &ProtocolError{Port: PortRdDesc, What: fmt.Sprintf("tag %d reused while its read is outstanding",
			d.tag), Allowed: "a tag whose status has been given"}
	}
	op := &rdOp{tag: d.tag, err: h.errCode(h.cfg.RdErrorRate), at: h.now + h.latency()}
	if op.err != 0 {
		op.data = make([]byte, d.len)
		for i := range op.data {
			op.data[i] = Poison
		}
		h.Stats.RdErrors++
	} else {
		op.data = h.Mem.load(d.addr, int(d.len))
	}
	h.rdQ = append(h.rdQ, op)
	h.rdTags[d.tag] = true
	h.rdOut++
	h.Stats.Reads++
	return nil
}

// readMoved follows the read beat that moved; after the last, the status is queued behind the previous one.
func (h *Host) readMoved() {
	op := h.rdQ[0]
	op.sent = min(len(op.data), op.sent+h.k)
	h.rdShown = false
	h.Stats.RdBeats++
	if op.sent < len(op.data) {
		return
	}
	h.rdQ = h.rdQ[1:]
	due := max(h.now+h.latency(), h.rdLast+1)
	h.rdLast = due
	h.rdSts.Push(due, status{tag: op.tag, err: op.err})
}

// takeWrite takes a write descriptor: tag check, then it waits for its data.
func (h *Host) takeWrite(d desc) *ProtocolError {
	if h.wrTags[d.tag] {
		return &ProtocolError{Port: PortWrDesc, What: fmt.Sprintf("tag %d reused while its write is outstanding",
			d.tag), Allowed: "a tag whose status has been given"}
	}
	h.wrQ = append(h.wrQ, &wrOp{tag: d.tag, addr: d.addr, len: int(d.len), err: h.errCode(h.cfg.WrErrorRate)})
	h.wrTags[d.tag] = true
	h.wrOut++
	h.Stats.Writes++
	return nil
}

// writeBeat checks a write beat that moved against its descriptor and takes its bytes; after the last, the
// status is queued.
func (h *Host) writeBeat(b beat) *ProtocolError {
	op := h.wrQ[0]
	rem := op.len - len(op.got)
	full := uint64(1)<<uint(h.k) - 1
	if h.k == 64 {
		full = ^uint64(0)
	}
	n := bits.OnesCount64(b.keep & full)
	at := fmt.Sprintf("tag %d, %d of %d bytes received", op.tag, len(op.got), op.len)
	switch {
	case b.keep&^full != 0 || n == 0 || b.keep != 1<<uint(n)-1 && n != 64:
		return &ProtocolError{Port: PortWrData, What: fmt.Sprintf("tkeep %#x not contiguous from lane 0 (%s)",
			b.keep, at), Allowed: fmt.Sprintf("tkeep 2^n-1, n 1..%d", h.k)}
	case rem > h.k && b.last:
		return &ProtocolError{Port: PortWrData, What: fmt.Sprintf("tlast early, %d bytes left (%s)", rem, at),
			Allowed: "tlast only on the beat that ends len"}
	case rem > h.k && n != h.k:
		return &ProtocolError{Port: PortWrData, What: fmt.Sprintf("tkeep %#x not full before the last beat (%s)",
			b.keep, at), Allowed: fmt.Sprintf("tkeep %#x on every beat but the last", full)}
	case rem <= h.k && n != rem:
		return &ProtocolError{Port: PortWrData, What: fmt.Sprintf("byte count: last beat has %d bytes, "+
			"%d needed (%s)", n, rem, at), Allowed: fmt.Sprintf("len %d bytes in all", op.len)}
	case rem <= h.k && !b.last:
		return &ProtocolError{Port: PortWrData, What: fmt.Sprintf("tlast missing on the beat that ends len (%s)",
			at), Allowed: "tlast on the last beat of each descriptor"}
	}
	op.got = append(op.got, b.data[:n]...)
	h.Stats.WrBeats++
	if len(op.got) < op.len {
		return nil
	}
	h.wrQ = h.wrQ[1:]
	if op.err != 0 {
		h.Stats.WrErrors++
	}
	h.wrSts.Push(h.now+h.latency(), status{tag: op.tag, err: op.err, wr: op})
	return nil
}
