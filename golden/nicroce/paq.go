package nicroce

import "fmt"

// paqOut drives the PAQ issue (m_dma_wr_desc) and data (m_axis_dma_wr, roce_rx m_axis_tready) pointers.
func (t *Top) paqOut(in *TopIn, out *TopOut) {
	q, cy := &t.paq, &t.cy
	if q.issued != q.push {
		e := &q.ent[q.issued%paqDepth]
		c := e.c
		switch {
		case q.hold:
			cy.paqWrite = true
		case (q.issued-t.led.r)&seqMask < tags:
			cy.paqDecide = true
			cy.paqWrite = e.write && e.gen == t.cn.gen[c] && t.cn.cs[c] == 1
		}
		if cy.paqWrite {
			out.DmaWrDescValid, out.DmaWrDescAddr, out.DmaWrDescLen = true, e.addr, e.len
			out.DmaWrDescTag = q.issued % tags
			cy.paqIssue = in.DmaWrDescReady && !in.Rst
		} else if cy.paqDecide {
			cy.paqIssue = true
		}
	}
	if q.dptr == q.issued {
		return
	}
	if q.ent[q.dptr%paqDepth].isWrite {
		out.DmaWrTValid, out.DmaWrTData, out.DmaWrTKeep = in.RxMAxisTValid, in.RxMAxisTData, in.RxMAxisTKeep
		out.DmaWrTLast, out.RxMAxisTReady = in.RxMAxisTLast, in.DmaWrTReady
	} else {
		out.RxMAxisTReady = true
	}
	cy.paqDataDone = in.RxMAxisTValid && out.RxMAxisTReady && in.RxMAxisTLast
}

// paqEdge is the clock edge of the PAQ pointers and the ledger's issue write.
func (t *Top) paqEdge() {
	q, cy := &t.paq, &t.cy
	if cy.paqDecide {
		e := &q.ent[q.issued%paqDepth]
		tag := q.issued % tags
		e.isWrite = cy.paqWrite
		t.led.done[tag], t.led.err[tag] = !cy.paqWrite, false
		t.led.mem[tag] = ledEnt{c: e.c, slot: e.slot, gen: e.gen}
	}
	q.hold = cy.paqWrite && !cy.paqIssue
	if cy.paqIssue {
		q.issued = (q.issued + 1) & seqMask
	}
	if cy.paqDataDone {
		q.dptr = (q.dptr + 1) & seqMask
	}
}

// ledgerEdge takes write statuses and retires the ledger in order.
func (t *Top) ledgerEdge(in *TopIn) {
	l, cy := &t.led, &t.cy
	if l.rv.valid {
		if l.rv.err && l.rv.ent.gen == t.cn.gen[l.rv.ent.c] {
			t.rcu.rqErr[l.rv.ent.c] |= 1 << l.rv.ent.slot
		}
		l.r = (l.r + 1) & seqMask
	}
	l.rv.valid = false
	tag := l.ret % tags
	if l.done[tag] && l.ret != t.paq.issued {
		l.rv.valid, l.rv.err, l.rv.ent = true, l.err[tag], l.mem[tag]
		l.ret = (l.ret + 1) & seqMask
	}
	if in.DmaWrStsValid {
		s := in.DmaWrStsTag % tags
		l.done[s], l.err[s] = true, in.DmaWrStsError != 0
		if in.DmaWrStsError != 0 {
			cy.inc[cDmaWrError] = true
			cy.ev |= evDMAError
		}
	}
}

// vEdge is V: the PAQ push and rq_len_mem with the verdict of this cycle.
func (t *Top) vEdge() {
	v := &t.v
	if !v.valid {
		return
	}
	o := &t.trOut
	write := v.passed && o.RxvValid && o.RxvCode == 0
	if v.len > 0 && (t.paq.push-t.paq.dptr)&seqMask >= paqDepth {
		t.cy.err = fmt.Errorf("nicroce: PAQ full: roce_rx holds more than %d descriptors with payload", paqDepth)
	}
	if v.len > 0 {
		t.paq.ent[t.paq.push%paqDepth] = paqEnt{write: write, c: v.c, gen: v.gen, slot: v.slot, len: v.len,
			addr: v.addr}
		t.paq.push = (t.paq.push + 1) & seqMask
	}
	if write && v.last {
		t.rcu.lenMem[at(v.c, v.slot)] = v.mlen
	}
}
