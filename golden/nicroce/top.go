package nicroce

import "github.com/spraynic/spraynic/golden/nicrocecsr"

// outputs computes every output of the cycle and the handshakes, from the state, in and nic_transport's outputs.
func (t *Top) outputs(in *TopIn, out *TopOut) {
	cy, co, o := &t.cy, &t.cy.co, &t.trOut
	t.gateOut(in, out)
	t.txOut(in, out)
	t.c1Out(in, out)
	t.paqOut(in, out)
	cy.cplReady, cy.push = in.CplReady, t.paq.push
	t.offers()
	a := &t.arb.out
	out.CplValid, out.CplRecv, out.CplConn, out.CplID = t.arb.valid, a.Recv, a.Conn, a.ID
	out.CplLen, out.CplStatus = a.Len, a.Status
	out.WrReady, out.RqReady = t.wrReady(in), t.rqReady(in)
	cy.wrTake, cy.rqTake = in.WrValid && out.WrReady, in.RqValid && out.RqReady
	if cy.wrTake {
		cy.wrStatus = t.notOpen(int(in.WrConn))
	}
	if cy.rqTake {
		cy.rqStatus = t.notOpen(int(in.RqConn))
	}
	x := out
	if o.AckOutValid {
		x.TxSAckValid, x.TxSAckConn, x.TxSAckPSN, x.TxSAckPath = true, o.AckOutConn, o.AckOutPSN, o.AckOutPath
		x.TxSAckPseq, x.TxSAckSack, x.TxSAckECN, x.TxSAckNak = o.AckOutPseq, o.AckOutSack, o.AckOutECN, o.AckOutNak
		path := o.AckOutPath
		if o.AckOutNak {
			path = 0
		}
		x.TxSAckEntropy = 0xC000 | ((o.AckOutConn*uint32(t.cfg.Paths)+path)*997)%(1<<14)
	}
	if co.CmdValid && co.Cmd.Open {
		c := co.Cmd
		x.TxTblWrEn, x.TxTblWrConn, x.TxTblWrMAC, x.TxTblWrIP = true, uint32(c.Conn), c.PeerMAC, c.PeerIP
		x.TxTblWrQPN, x.TxTblWrDSCP, x.TxTblWrTTL = c.PeerQPN, co.DSCP, co.TTL
	}
	x.TxCfgMAC, x.TxCfgIP = co.LocalMAC, co.LocalIP
	out.AxilAWReady, out.AxilWReady, out.AxilBValid, out.AxilBResp = co.AWReady, co.WReady, co.BValid, co.BResp
	out.AxilARReady, out.AxilRValid, out.AxilRData, out.AxilRResp = co.ARReady, co.RValid, co.RData, co.RResp
	out.IRQ = co.IRQ
	t.rcuReleaseComb()
}

// rcuReleaseComb decides the RCU's release of this cycle from the start-of-cycle state.
func (t *Top) rcuReleaseComb() {
	o := &t.trOut
	if !o.CplValid || !o.CplLast {
		return
	}
	c := int(o.CplConn)
	if t.cn.cs[c] == 1 && o.CplHandle == (t.rcu.rh[c]+t.rcu.rel[c])&t.hmask {
		t.cy.relDo, t.cy.relConn = true, c
	}
}

// rawCounters is the 27 block counters: nic_transport's 18, then roce_rx's 9.
func (t *Top) rawCounters(in *TopIn) [27]uint32 {
	o := &t.trOut
	r := [27]uint32{o.CntSent, o.CntRetxLoss, o.CntRetxTimeout, o.CntRetxGBN, o.CntTimeouts, o.CntErrors,
		o.CntTxDropped, o.CntAckIgnored, o.CntAccepted, o.CntDuplicate, o.CntOutOfWin, o.CntClosed, o.CntDecisions,
		o.CntProbes, o.CntFailures, o.CntRecoveries, o.CntGBNDropped, o.CntNaks}
	copy(r[18:], []uint32{in.RxCntData, in.RxCntAck, in.RxCntNotRoCE, in.RxCntTruncated, in.RxCntInvalid,
		in.RxCntUnknownOpcode, in.RxCntBadICRC, in.RxCntLimit, in.RxCntMacError})
	return r
}

// csrIn is the CSR's inputs of the cycle but EvSet (the edge adds it).
func (t *Top) csrIn(in *TopIn) nicrocecsr.In {
	o := &t.trOut
	ci := make([]uint32, t.conns)
	for c := range ci {
		ci[c] = t.posted(c)<<16 | t.used(c)<<8 | uint32(b2i(o.StatusAF.Bit(c)))<<2
	}
	raw := t.rawCounters(in)
	cnt := make([]uint32, 0, 27+nOwn)
	for i, v := range raw {
		cnt = append(cnt, v-t.cnt.base[i])
	}
	cnt = append(cnt, t.cnt.own[:]...)
	ce := t.connErr()
	t.cy.ce = ce
	return nicrocecsr.In{AWValid: in.AxilAWValid, WValid: in.AxilWValid, BReady: in.AxilBReady,
		AWAddr: in.AxilAWAddr, WData: in.AxilWData, WStrb: in.AxilWStrb, ARValid: in.AxilARValid,
		RReady: in.AxilRReady, ARAddr: in.AxilARAddr, ErrValid: ce >= 0, ErrConn: max(ce, 0), ConnInfo: ci, Cnt: cnt,
		PathStatus:  o.RdState | uint32(b2i(o.RdAllFailed))<<2 | o.RdInflight<<8 | o.RdCwnd<<16,
		PathEntropy: o.RdEntropy, PathCounts: o.RdLosses | o.RdDecisions<<16}
}

// edge is the clock edge of every unit, in the order the structure's same-cycle rules need.
func (t *Top) edge(in *TopIn, out *TopOut, csrIn *nicrocecsr.In) {
	cy := &t.cy
	t.gateEdge(in, out)
	t.rdsEdge(in)
	t.txEdge(in)
	t.chkEdge(in)
	t.ledgerEdge(in)
	t.paqEdge()
	t.segEdge()
	t.walkEdge()
	t.arbEdge()
	t.ctlEdge(cy.ce, in)
	t.flushEdge()
	t.segPick()
	t.walkPick()
	t.rcuPick()
	t.unaEdge()
	t.vEdge()
	t.v = cy.newV
	if cy.relDo {
		c := cy.relConn
		t.rcu.wMem[at(c, t.rq.rhead[c]+t.rcu.rel[c])] = cy.push
		t.rcu.rel[c] = (t.rcu.rel[c] + 1) & ptrMask
	}
	t.sqIntake(in)
	t.rqIntake(in)
	t.cntEdge(in)
	csrIn.EvSet = cy.ev
}

// cntEdge is the counters, their bases and af_q.
func (t *Top) cntEdge(in *TopIn) {
	cy, k := &t.cy, &t.cnt
	for c := range k.afQ {
		b := t.trOut.StatusAF.Bit(c)
		if b && !k.afQ[c] {
			cy.ev |= evAllFailed
		}
		k.afQ[c] = b
	}
	if cy.co.CntClear {
		k.own = [nOwn]uint32{}
		k.base = t.rawCounters(in)
		return
	}
	if t.trOut.AckOutValid && in.TxSAckReady {
		cy.inc[cTxAck] = true
	}
	for i, b := range cy.inc {
		if b {
			k.own[i]++
		}
	}
}
