package nicroce

// wrReady is s_wr_ready for the item on s_wr.
func (t *Top) wrReady(in *TopIn) bool {
	c := int(in.WrConn)
	if in.Rst || !t.cy.co.Enable || c >= t.conns || t.flushing(c) || t.sq.imm.valid {
		return false
	}
	return t.cn.cs[c] != 1 || t.used(c) < sqDepth
}

// rqReady is s_rq_ready for the item on s_rq.
func (t *Top) rqReady(in *TopIn) bool {
	c := int(in.RqConn)
	if in.Rst || c >= t.conns || t.flushing(c) || t.rq.imm.valid {
		return false
	}
	return t.cn.cs[c] != 1 || t.posted(c) < sqDepth
}

// notOpen is the status of a request for c from the start-of-cycle cs: -1 when c is open.
func (t *Top) notOpen(c int) int {
	switch t.cn.cs[c] {
	case 1:
		return -1
	case 2:
		return StatusConnError
	}
	return StatusClosed
}

// sqIntake is the SQ intake's edge (an addition: after the picks).
func (t *Top) sqIntake(in *TopIn) {
	if !t.cy.wrTake {
		return
	}
	c, q := int(in.WrConn), &t.sq
	t.cy.inc[cWrTaken] = true
	if t.cy.wrStatus >= 0 {
		q.imm = imm{valid: true, cpl: Cpl{Recv: false, Conn: uint32(c), ID: in.WrID, Status: uint32(t.cy.wrStatus)}}
		return
	}
	p := t.pkts(in.WrLen)
	a := at(c, q.tail[c])
	q.segMem[a] = in.WrLen
	q.txMem[a] = sqTx{addr: in.WrAddr, len: in.WrLen, psn: q.allocPSN[c]}
	q.cplMem[a] = sqCpl{id: in.WrID, len: in.WrLen, end: (q.allocPSN[c] + p) & psnMask}
	q.tail[c] = (q.tail[c] + 1) & ptrMask
	q.seqTail[c] = (q.seqTail[c] + 1) & t.hmask
	if uint64(in.WrLen) > t.maxMsg {
		return
	}
	q.allocPSN[c] = (q.allocPSN[c] + p) & psnMask
}

// rqIntake is the RQ intake's edge.
func (t *Top) rqIntake(in *TopIn) {
	if !t.cy.rqTake {
		return
	}
	c, q := int(in.RqConn), &t.rq
	if t.cy.rqStatus >= 0 {
		q.imm = imm{valid: true, cpl: Cpl{Recv: true, Conn: uint32(c), ID: in.RqID, Status: uint32(t.cy.rqStatus)}}
		return
	}
	a := at(c, q.rtail[c])
	q.chkMem[a], q.idMem[a] = rqChk{addr: in.RqAddr, len: in.RqLen}, in.RqID
	q.rtail[c] = (q.rtail[c] + 1) & ptrMask
}

// segEdge is the segmentation handshake (a removal) of S2.
func (t *Top) segEdge() {
	s := &t.seg.s2
	if !s.valid || !t.trOut.TxReady {
		return
	}
	c := s.c
	t.cy.segTook, t.cy.segConn = true, c
	if t.seg.segK[c] == t.pkts(s.len)-1 {
		t.seg.segK[c] = 0
		t.seg.seg[c] = (t.seg.seg[c] + 1) & ptrMask
	} else {
		t.seg.segK[c]++
	}
}

// segPick is S1: the round-robin pick from the next state; it loads S2. While m_pkt waits (valid, not ready)
// the round robin starts after the connection s_tx took last, so the packet taken when m_pkt moves is the next
// connection's in turn, whatever the number of cycles m_pkt waited.
func (t *Top) segPick() {
	g := &t.seg
	g.s2 = s2Reg{}
	start := g.rr
	if t.trOut.PktValid && !t.cy.pktReady {
		start = g.fair
	}
	if t.cy.segTook {
		g.fair = (t.cy.segConn + 1) % t.conns
	}
	for i := 0; i < t.conns; i++ {
		c := (start + i) % t.conns
		if t.cn.cs[c] == 1 && g.seg[c] != t.sq.tail[c] && !t.flushing(c) {
			g.s2 = s2Reg{valid: true, c: c, len: t.sq.segMem[at(c, g.seg[c])]}
			g.rr = (c + 1) % t.conns
			return
		}
	}
}
