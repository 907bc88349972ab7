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
	out.CplValid, out.Cpl = t.arb.valid, t.arb.out
	out.WrReady, out.RqReady = t.wrReady(in), t.rqReady(in)
	cy.wrTake, cy.rqTake = in.WrValid && out.WrReady, in.RqValid && out.RqReady
	if cy.wrTake {
		cy.wrStatus = t.notOpen(int(in.WrConn))
	}
	if cy.rqTake {
		cy.rqStatus = t.notOpen(int(in.RqConn))
	}
	x := &out.Tx
	if o.AckOutValid {
		x.SAckValid, x.SAckConn, x.SAckPSN, x.SAckPath = true, o.AckOutConn, o.AckOutPSN, o.AckOutPath
		x.SAckPseq, x.SAckSack, x.SAckECN, x.SAckNak = o.AckOutPseq, o.AckOutSack, o.AckOutECN, o.AckOutNak
		path := o.AckOutPath
		if o.AckOutNak {
			path = 0
		}
		x.SAckEntropy = 0xC000 | ((o.AckOutConn*uint32(t.cfg.Paths)+path)*997)%(1<<14)
	}
	if co.CmdValid && co.Cmd.Open {
		c := co.Cmd
		x.TblWrEn, x.TblWrConn, x.TblWrMAC, x.TblWrIP = true, uint32(c.Conn), c.PeerMAC, c.PeerIP
		x.TblWrQPN, x.TblWrDSCP, x.TblWrTTL = c.PeerQPN, co.DSCP, co.TTL
	}
	x.CfgMAC, x.CfgIP = co.LocalMAC, co.LocalIP
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
	copy(r[18:], in.Rx.Cnt[:])
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
	if t.trOut.AckOutValid && in.Tx.SAckReady {
		cy.inc[cTxAck] = true
	}
	for i, b := range cy.inc {
		if b {
			k.own[i]++
		}
	}
}
