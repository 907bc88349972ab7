package nicroce

// flushEdge steps the flush engine (after the arbiter's take and the control unit) or starts the next flush.
func (t *Top) flushEdge() {
	f := &t.fl
	if !f.active {
		t.flushStart()
		return
	}
	c := f.c
	switch f.phase {
	case phSQ:
		if f.out.valid {
			return
		}
		if f.ptr != t.sq.tail[c] {
			e := t.sq.cplMem[at(c, f.ptr)]
			st := t.ctl.kind[c]
			if t.ctl.sqDerr[c]>>(f.ptr&slotMask)&1 == 1 {
				st = StatusDMAError
			} else if uint64(e.len) > t.maxMsg {
				st = StatusTooLong
			}
			f.out = imm{valid: true, cpl: Cpl{Conn: uint32(c), ID: e.id, Status: st}}
			f.ptr = (f.ptr + 1) & ptrMask
			return
		}
		// A phase ends in the cycle after its last entry was taken (the RTL judges it at the start of a cycle).
		if t.taken(srcFlush) {
			return
		}
		if t.rq.rhead[c] == t.rq.rtail[c] {
			t.flushEnd()
			return
		}
		f.phase, f.wf = phRQWait, t.cy.push
	case phRQWait:
		if geSeq(t.cy.ledR, f.wf) {
			f.phase, f.ptr = phRQ, t.rq.rhead[c]
		}
	case phRQ:
		if f.out.valid {
			return
		}
		if f.ptr == t.rq.rtail[c] {
			if t.taken(srcFlush) {
				return
			}
			t.flushEnd()
			return
		}
		f.out = imm{valid: true, cpl: Cpl{Recv: true, Conn: uint32(c), ID: t.rq.idMem[at(c, f.ptr)],
			Status: t.ctl.kind[c]}}
		f.ptr = (f.ptr + 1) & ptrMask
	}
}

// flushStart picks the next connection with a flush request, round-robin.
func (t *Top) flushStart() {
	f := &t.fl
	for i := 0; i < t.conns; i++ {
		c := (f.rr + i) % t.conns
		if t.ctl.flReq[c] {
			f.active, f.c, f.phase, f.ptr, f.rr = true, c, phSQ, t.sq.head[c], (c+1)%t.conns
			return
		}
	}
}

// flushEnd returns every pointer and per-message register of the flushed connection to 0.
func (t *Top) flushEnd() {
	c := t.fl.c
	t.sq.head[c], t.sq.tail[c], t.sq.seqTail[c], t.seg.seg[c], t.seg.segK[c] = 0, 0, 0, 0, 0
	t.rq.rhead[c], t.rq.rtail[c], t.rcu.rh[c], t.rcu.rel[c] = 0, 0, 0, 0
	t.walk.pend[c], t.ctl.sqDerr[c], t.rcu.rqErr[c], t.ctl.flReq[c] = false, 0, 0, false
	t.fl.active = false
}
