package nicroce

import "github.com/spraynic/spraynic/golden/nictransport"

// EVENTS bits.
const (
	evConnError = 1 << iota
	evAllFailed
	evPeerDrop
	evDMAError
)

// gateOut is the enable gate of MAC RX and the TX gate.
func (t *Top) gateOut(in *TopIn, out *TopOut) {
	g, en := &t.gate, t.cy.co.Enable
	drop := g.gdrop
	if !g.inFrame {
		drop = !en
	}
	out.RxSAxisTData, out.RxSAxisTKeep, out.RxSAxisTLast = in.MacRxTData, in.MacRxTKeep, in.MacRxTLast
	out.RxSAxisTUser = in.MacRxTUser
	if drop {
		out.MacRxTReady = true
	} else {
		out.RxSAxisTValid, out.MacRxTReady = in.MacRxTValid, in.RxSAxisTReady
	}
	pass := g.inTxFrame || g.txHeld || en
	out.MacTxTValid, out.MacTxTData, out.MacTxTKeep = in.TxMAxisTValid && pass, in.TxMAxisTData, in.TxMAxisTKeep
	out.MacTxTLast, out.TxMAxisTReady = in.TxMAxisTLast, in.MacTxTReady && pass
}

// gateEdge is the gates' clock edge.
func (t *Top) gateEdge(in *TopIn, out *TopOut) {
	g := &t.gate
	if in.MacRxTValid && out.MacRxTReady {
		if !g.inFrame {
			g.gdrop = !t.cy.co.Enable
		}
		if g.gdrop && in.MacRxTLast {
			t.cy.inc[cDisabled] = true
		}
		g.inFrame = !in.MacRxTLast
	}
	if out.MacTxTValid && in.MacTxTReady {
		g.inTxFrame = !out.MacTxTLast
	}
	g.txHeld = out.MacTxTValid && !in.MacTxTReady
}

// c2Verdict is C2's decision from the start-of-cycle state: the own counter of a drop, -1 for a pass.
func (t *Top) c2Verdict() int {
	r := &t.chk.c2
	c := int(r.d.conn)
	switch {
	case t.cn.cs[c] != 1:
		return cPeerClosed
	case r.d.srcIP != r.peer.ip:
		return cPeerIP
	case r.peer.check && r.d.srcMAC != r.peer.mac:
		return cPeerMAC
	case !r.data:
		return -1
	}
	if !t.geH(r.d.handle, t.rcu.rh[c]) {
		return -1
	}
	if r.nobuf {
		return cRxNoBuffer
	}
	if uint64(r.d.offset)+uint64(r.d.len) > uint64(r.ent.len) {
		return cRxOverrun
	}
	return -1
}

// c2Comb drives s_rx or s_ack of nic_transport from C2.
func (t *Top) c2Comb(p *nictransport.TopIn) {
	r, cy := &t.chk.c2, &t.cy
	if !r.valid {
		return
	}
	cy.c2Drop = t.c2Verdict()
	cy.c2Pass = cy.c2Drop < 0
	if !cy.c2Pass {
		return
	}
	d := &r.d
	if r.data {
		p.RxValid, p.RxConn, p.RxPSN, p.RxPath, p.RxPseq = true, d.conn, d.psn, d.path, d.pseq
		p.RxFirst, p.RxLast, p.RxAckReq, p.RxECN, p.RxHandle = d.first, d.last, d.ackReq, d.ecn, d.handle
		return
	}
	p.AckValid, p.AckConn, p.AckPSN, p.AckPath, p.AckPseq = true, d.conn, d.psn, d.path, d.pseq
	p.AckSack, p.AckECN, p.AckNak = d.sack, d.ecn, d.nak
}

// c1Out decides C2's move and C1's take: m_rx_ready and m_ack_ready of roce_rx.
func (t *Top) c1Out(in *TopIn, out *TopOut) {
	r, cy := &t.chk.c2, &t.cy
	if r.valid {
		cy.c2Moves = !cy.c2Pass || (r.data && t.trOut.RxReady) || (!r.data && t.trOut.AckReady)
	}
	if in.Rst || (r.valid && !cy.c2Moves) {
		return
	}
	// With C2 free, C1 shows the ready of the kind it takes, a valid or not: ACK when only an ACK waits, or both
	// wait and it took data last; data otherwise (docs/nic_roce_rtl.md, Details).
	dv, av := in.RxMRxValid, in.RxMAckValid
	selAck := av && (!dv || t.chk.lastData)
	cy.c1Data, cy.c1Ack = dv && !selAck, selAck
	out.RxMRxReady, out.RxMAckReady = !selAck, selAck
}

// chkEdge is the clock edge of C2 (and V's load) and C1.
func (t *Top) chkEdge(in *TopIn) {
	r, cy := &t.chk.c2, &t.cy
	if r.valid && cy.c2Moves {
		if cy.c2Drop >= 0 {
			cy.inc[cy.c2Drop] = true
			if cy.c2Drop <= cPeerMAC {
				cy.ev |= evPeerDrop
			}
		}
		if r.data {
			t.loadV()
		}
		r.valid = false
	}
	if cy.c1Data || cy.c1Ack {
		t.c1Load(in)
	}
}

// loadV loads V from the data descriptor leaving C2.
func (t *Top) loadV() {
	r := &t.chk.c2
	c := int(r.d.conn)
	d := (r.d.handle - t.rcu.rh[c]) & t.hmask
	t.cy.newV = vReg{valid: true, c: c, gen: t.cn.gen[c], slot: (t.rq.rhead[c] + d) & slotMask,
		addr: r.ent.addr + uint64(r.d.offset), len: r.d.len, last: r.d.last, mlen: r.d.offset + r.d.len,
		passed: t.cy.c2Pass}
}

// c1Load is C1's take: the descriptor, peer_mem (or the open of this cycle, forwarded) and rq_chk_mem.
func (t *Top) c1Load(in *TopIn) {
	x, co := in, &t.cy.co
	var d rxDesc
	if t.cy.c1Data {
		d = rxDesc{conn: x.RxMRxConn, psn: x.RxMRxPSN, path: x.RxMRxPath, pseq: x.RxMRxPseq, handle: x.RxMRxHandle,
			offset: x.RxMRxOffset, len: x.RxMRxLen, first: x.RxMRxFirst, last: x.RxMRxLast, ackReq: x.RxMRxAckReq,
			ecn: x.RxMRxECN, srcMAC: x.RxMRxSrcMAC, srcIP: x.RxMRxSrcIP}
	} else {
		d = rxDesc{conn: x.RxMAckConn, psn: x.RxMAckPSN, path: x.RxMAckPath, pseq: x.RxMAckPseq, sack: x.RxMAckSack,
			ecn: x.RxMAckECN, nak: x.RxMAckNak, srcMAC: x.RxMAckSrcMAC, srcIP: x.RxMAckSrcIP}
	}
	c := int(d.conn)
	r := c2Reg{valid: true, data: t.cy.c1Data, d: d, peer: t.chk.peerMem[c]}
	if co.CmdValid && co.Cmd.Open && co.Cmd.Conn == c {
		r.peer = peer{mac: co.Cmd.PeerMAC, check: co.Cmd.MACCheck, ip: co.Cmd.PeerIP}
	}
	if r.data {
		dd := (d.handle - t.rcu.rh[c]) & t.hmask
		r.nobuf = t.geH(d.handle, t.rcu.rh[c]) && dd >= t.posted(c)
		r.ent = t.rq.chkMem[at(c, t.rq.rhead[c]+dd)]
	}
	t.chk.c2 = r
	t.chk.lastData = r.data
}
