package nicroce

import "github.com/spraynic/spraynic/golden/nictransport"

// segOut drives s_tx from S2.
func (t *Top) segOut(p *nictransport.TopIn) {
	s := &t.seg.s2
	if !s.valid {
		return
	}
	c := s.c
	k := t.seg.segK[c]
	p.TxValid, p.TxConn = true, uint32(c)
	p.TxHandle = (t.sq.seqTail[c] - ((t.sq.tail[c] - t.seg.seg[c]) & ptrMask)) & t.hmask
	p.TxFirst, p.TxLast = k == 0, k == t.pkts(s.len)-1
}

// t1Valid: T1's packet is sent (connection open in the same epoch, slot outstanding, k < P).
func (t *Top) t1Valid() bool {
	r := &t.tx.t1
	c := int(r.pkt.conn)
	seqHead := t.sq.seqTail[c] - t.used(c)
	if t.cn.cs[c] != 1 || r.gen != t.cn.gen[c] || (r.pkt.handle-seqHead)&t.hmask >= t.used(c) {
		return false
	}
	return (r.pkt.psn-r.ent.psn)&psnMask < t.pkts(r.ent.len)
}

// t1Ent is the TXQ entry T1 hands to T2.
func (t *Top) t1Ent() txqEnt {
	r := &t.tx.t1
	k := (r.pkt.psn - r.ent.psn) & psnMask
	off := k << t.lm
	plen := uint32(0)
	if r.ent.len > off {
		plen = min(uint32(t.cfg.MTU), r.ent.len-off)
	}
	return txqEnt{pkt: r.pkt, off: off, plen: plen, gen: r.gen, addr: r.ent.addr + uint64(off)}
}

// txPathComb computes T2, T1 and m_pkt_ready from the state and the host's descriptor ready.
func (t *Top) txPathComb(in *TopIn) {
	x, cy := &t.tx, &t.cy
	room := (x.txt-x.txp)&(2*txqDepth-1) < txqDepth
	if x.t2.valid {
		if x.t2.e.plen > 0 {
			cy.rdDescTake = room && !x.rdOut[x.rdTag] && in.DmaRdDescReady && !in.Rst
			cy.t2Moves = cy.rdDescTake
		} else {
			cy.t2Moves = room
		}
	}
	if x.t1.valid {
		cy.t1OK, cy.t1Ent = t.t1Valid(), t.t1Ent()
		cy.t1Moves = !cy.t1OK || !x.t2.valid || cy.t2Moves
	}
	cy.pktReady = !in.Rst && (!x.t1.valid || cy.t1Moves) && x.beats < txqBeats
}

// beats is a packet's payload beats, ceil(plen / (DATA_WIDTH/8)) (0 for plen 0).
func (t *Top) beats(plen uint32) uint32 { return (plen + uint32(t.k) - 1) / uint32(t.k) }

// txOut drives m_dma_rd_desc, roce_tx s_pkt and s_pay and s_axis_dma_rd_tready.
func (t *Top) txOut(in *TopIn, out *TopOut) {
	x, cy := &t.tx, &t.cy
	room := (x.txt-x.txp)&(2*txqDepth-1) < txqDepth
	if x.t2.valid && x.t2.e.plen > 0 && room && !x.rdOut[x.rdTag] {
		out.DmaRdDescValid, out.DmaRdDescAddr, out.DmaRdDescLen = true, x.t2.e.addr, x.t2.e.plen
		out.DmaRdDescTag = x.rdTag
	}
	if x.txd != x.txt {
		e := &x.txq[x.txd%txqDepth]
		c := int(e.pkt.conn)
		if e.gen == t.cn.gen[c] && t.cn.cs[c] == 1 {
			tx := out
			tx.TxSPktValid, tx.TxSPktConn, tx.TxSPktPSN, tx.TxSPktPath = true, e.pkt.conn, e.pkt.psn, e.pkt.path
			tx.TxSPktPseq, tx.TxSPktEntropy, tx.TxSPktHandle = e.pkt.pseq, e.pkt.entropy, e.pkt.handle
			tx.TxSPktFirst, tx.TxSPktLast, tx.TxSPktAckReq = e.pkt.first, e.pkt.last, e.pkt.ackReq
			tx.TxSPktOffset, tx.TxSPktLen = e.off, e.plen
			cy.pktTake = in.TxSPktReady
		} else {
			cy.pktDrop = true
		}
	}
	if x.txp == x.txd {
		return
	}
	e := &x.txq[x.txp%txqDepth]
	switch {
	case e.plen == 0:
		cy.payDone = true
	case e.drop:
		out.DmaRdTReady = true
	default:
		out.TxSPayTValid, out.TxSPayTData, out.TxSPayTKeep = in.DmaRdTValid, in.DmaRdTData, in.DmaRdTKeep
		out.TxSPayTLast, out.TxSPayTUser, out.DmaRdTReady = in.DmaRdTLast, in.DmaRdTUser, in.TxSPayTReady
	}
	if e.plen > 0 && in.DmaRdTValid && out.DmaRdTReady && in.DmaRdTLast {
		cy.payDone = true
	}
}

// txEdge is the clock edge of T1, T2, TXQ, the router and the read status.
func (t *Top) txEdge(in *TopIn) {
	x, cy := &t.tx, &t.cy
	if cy.pktDrop || cy.pktTake {
		x.txq[x.txd%txqDepth].drop = cy.pktDrop
		x.txd++
	}
	if cy.pktTake {
		cy.inc[cTxData] = true
	}
	if cy.payDone {
		x.beats -= t.beats(x.txq[x.txp%txqDepth].plen)
		x.txp++
	}
	if in.DmaRdStsValid {
		x.rdOut[in.DmaRdStsTag%tags] = false
	}
	if cy.t2Moves {
		if cy.rdDescTake {
			x.rdOut[x.rdTag] = true
			x.rdtagMem[x.rdTag] = rdTagEnt{c: int(x.t2.e.pkt.conn), handle: x.t2.e.pkt.handle, gen: x.t2.e.gen}
			x.rdTag = (x.rdTag + 1) % tags
		}
		x.txq[x.txt%txqDepth] = x.t2.e
		x.txt = (x.txt + 1) & (2*txqDepth - 1)
		x.t2.valid = false
	}
	if x.t1.valid && cy.t1Moves {
		if cy.t1OK {
			x.t2.valid, x.t2.e = true, cy.t1Ent
			x.beats += t.beats(cy.t1Ent.plen)
		}
		x.t1.valid = false
	}
	x.txd &= 2*txqDepth - 1
	x.txp &= 2*txqDepth - 1
	o := &t.trOut
	if o.PktValid && cy.pktReady {
		c := int(o.PktConn)
		x.t1 = t1Reg{valid: true, gen: t.cn.gen[c], ent: t.sq.txMem[at(c, o.PktHandle)],
			pkt: pktDesc{conn: o.PktConn, psn: o.PktPSN, path: o.PktPath, pseq: o.PktPseq, entropy: o.PktEntropy,
				handle: o.PktHandle, first: o.PktFirst, last: o.PktLast, ackReq: o.PktAckReq}}
	}
}

// rdsEdge applies the registered read status and registers this cycle's.
func (t *Top) rdsEdge(in *TopIn) {
	r, cy := &t.rds, &t.cy
	if r.valid && r.err {
		cy.inc[cDmaRdError] = true
		cy.ev |= evDMAError
		c := r.ent.c
		if r.ent.gen == t.cn.gen[c] && t.cn.cs[c] == 1 {
			cy.errs[c] |= errInternal
			seqHead := t.sq.seqTail[c] - t.used(c)
			if (r.ent.handle-seqHead)&t.hmask < t.used(c) {
				t.ctl.sqDerr[c] |= 1 << (r.ent.handle & slotMask)
			}
		}
	}
	*r = rdsUnit{valid: in.DmaRdStsValid, err: in.DmaRdStsError != 0, ent: t.tx.rdtagMem[in.DmaRdStsTag%tags]}
}
