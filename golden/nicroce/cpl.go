package nicroce

// offers fills the arbiter's sources of this cycle: W2, E2, the flush engine, imm_wr, imm_rq.
func (t *Top) offers() {
	cy := &t.cy
	cy.ledR = t.led.r
	cy.flSQ, cy.flRQ = t.fl.active && t.fl.phase == phSQ, t.fl.active && t.fl.phase == phRQ
	if w := &t.walk.w2; w.valid {
		if ge24(t.walk.una[w.c], w.cpl.end) {
			cy.offer[srcWalk] = true
			cy.cpl[srcWalk] = Cpl{Conn: uint32(w.c), ID: w.cpl.id, Len: w.cpl.len, Status: StatusOK}
		} else {
			cy.w2Miss = true
		}
	}
	if e := &t.rcu.e2; e.valid && geSeq(t.led.r, e.w) {
		st := uint32(StatusOK)
		if t.rcu.rqErr[e.c]>>(t.rq.rhead[e.c]&slotMask)&1 == 1 {
			st = StatusDMAError
		}
		cy.offer[srcRCU], cy.cpl[srcRCU] = true, Cpl{Recv: true, Conn: uint32(e.c), ID: e.id, Len: e.l, Status: st}
	}
	cy.offer[srcFlush], cy.cpl[srcFlush] = t.fl.out.valid, t.fl.out.cpl
	cy.offer[srcImmWr], cy.cpl[srcImmWr] = t.sq.imm.valid, t.sq.imm.cpl
	cy.offer[srcImmRq], cy.cpl[srcImmRq] = t.rq.imm.valid, t.rq.imm.cpl
	if t.arb.valid && !t.cy.cplReady {
		return
	}
	for i := 1; i <= nSrc; i++ {
		s := (t.arb.last + i) % nSrc
		if cy.offer[s] {
			cy.granted = s
			return
		}
	}
}

// taken: source s was granted this cycle.
func (t *Top) taken(s int) bool { return t.cy.granted == s }

// arbEdge is the m_cpl register and the removals of the granted source.
func (t *Top) arbEdge() {
	cy, a := &t.cy, &t.arb
	if a.valid && cy.cplReady {
		cy.inc[cCplSend+b2i(a.out.Recv)] = true
		if a.out.Status != StatusOK {
			cy.inc[cCplError] = true
		}
		a.valid = false
	}
	if cy.granted < 0 {
		return
	}
	a.valid, a.out, a.last = true, cy.cpl[cy.granted], cy.granted
	switch cy.granted {
	case srcWalk:
		c := t.walk.w2.c
		t.sq.head[c] = (t.sq.head[c] + 1) & ptrMask
		t.walk.w2.valid = false
	case srcRCU:
		c := t.rcu.e2.c
		t.rcu.rqErr[c] &^= 1 << (t.rq.rhead[c] & slotMask)
		t.rq.rhead[c] = (t.rq.rhead[c] + 1) & ptrMask
		t.rcu.rh[c] = (t.rcu.rh[c] + 1) & t.hmask
		t.rcu.rel[c] = (t.rcu.rel[c] - 1) & ptrMask
		t.rcu.e2.valid = false
	case srcFlush:
		t.fl.out.valid = false
		if t.fl.out.cpl.Recv {
			t.rq.rhead[t.fl.c] = (t.rq.rhead[t.fl.c] + 1) & ptrMask
		} else {
			t.sq.head[t.fl.c] = (t.sq.head[t.fl.c] + 1) & ptrMask
		}
	case srcImmWr:
		t.sq.imm.valid = false
	case srcImmRq:
		t.rq.imm.valid = false
	}
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// walkEdge: W2's miss (a removal).
func (t *Top) walkEdge() {
	w := &t.walk
	if w.w2.valid && t.cy.w2Miss {
		w.pend[w.w2.c] = false
		w.w2.valid = false
	}
}

// unaEdge: m_una (an addition, after W1's pick; the set wins over W2's miss).
func (t *Top) unaEdge() {
	if o := &t.trOut; o.UnaValid {
		t.walk.una[o.UnaConn], t.walk.pend[o.UnaConn] = o.UnaPSN, true
	}
}

// walkPick is W1 from the next state.
func (t *Top) walkPick() {
	w := &t.walk
	if w.w2.valid || t.cy.flSQ {
		return
	}
	for i := 0; i < t.conns; i++ {
		c := (w.rr + i) % t.conns
		if w.pend[c] && t.cn.cs[c] == 1 && t.used(c) > 0 && !t.flushing(c) {
			w.w2.valid, w.w2.c, w.w2.cpl = true, c, t.sq.cplMem[at(c, t.sq.head[c])]
			w.rr = (c + 1) % t.conns
			return
		}
	}
}

// rcuPick is E1 from the next state (before this cycle's release).
func (t *Top) rcuPick() {
	r := &t.rcu
	if r.e2.valid || t.cy.flRQ {
		return
	}
	for i := 0; i < t.conns; i++ {
		c := (r.rr + i) % t.conns
		if r.rel[c] > 0 && t.cn.cs[c] == 1 && !t.flushing(c) {
			a := at(c, t.rq.rhead[c])
			r.e2 = e2Reg{valid: true, c: c, id: t.rq.idMem[a], l: r.lenMem[a], w: r.wMem[a]}
			r.rr = (c + 1) % t.conns
			return
		}
	}
}
