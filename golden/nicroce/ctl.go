package nicroce

import "github.com/spraynic/spraynic/golden/nictransport"

// ctlOut drives s_ctl of nic_transport: the CSR command, else a deferred open, else an internal close.
func (t *Top) ctlOut(p *nictransport.TopIn) {
	cy, co, k := &t.cy, &t.cy.co, &t.ctl
	if co.CmdValid {
		cy.ctlCmd, cy.ctlConn = true, co.Cmd.Conn
		if !co.Cmd.Open || !t.flushing(co.Cmd.Conn) {
			p.CtlValid, p.CtlOpen, p.CtlConn = true, co.Cmd.Open, uint32(co.Cmd.Conn)
			p.CtlTxPSN, p.CtlRxPSN = co.Cmd.TxPSN&psnMask, co.Cmd.RxPSN&psnMask
		}
		return
	}
	for c := 0; c < t.conns; c++ {
		if k.pendOpen[c] && !k.flReq[c] && !k.icPend[c] {
			cy.ctlDef, cy.ctlConn = true, c
			p.CtlValid, p.CtlOpen, p.CtlConn, p.CtlTxPSN, p.CtlRxPSN = true, true, uint32(c), k.txPSN[c], k.rxPSN[c]
			return
		}
	}
	for c := 0; c < t.conns; c++ {
		if k.icPend[c] {
			cy.ctlIC, cy.ctlConn = true, c
			p.CtlValid, p.CtlConn = true, uint32(c)
			return
		}
	}
}

// connErr is the CSR's conn_err port of this cycle: m_err of an open connection, else the lowest waiting
// internal error; -1 for none.
func (t *Top) connErr() int {
	if o := &t.trOut; o.ErrValid && t.cn.cs[o.ErrConn] == 1 {
		return int(o.ErrConn)
	}
	for c := 0; c < t.conns; c++ {
		if t.ctl.cePend[c] {
			return c
		}
	}
	return -1
}

// stopConn ends the epoch of c: gen, the flush request with its kind, W2 and E2 holding c emptied.
func (t *Top) stopConn(c int, cs uint8, kind uint32) {
	t.cn.cs[c] = cs
	t.cn.gen[c] = (t.cn.gen[c] + 1) & genMask
	if !t.ctl.flReq[c] {
		t.ctl.flReq[c], t.ctl.kind[c] = true, kind
	}
	if t.walk.w2.valid && t.walk.w2.c == c {
		t.walk.w2.valid = false
	}
	if t.rcu.e2.valid && t.rcu.e2.c == c {
		t.rcu.e2.valid = false
	}
}

// openConn is the effect of an open sent to nic_transport.
func (t *Top) openConn(c int, txPSN uint32) {
	t.cn.cs[c], t.sq.allocPSN[c], t.walk.una[c] = 1, txPSN&psnMask, txPSN&psnMask
	t.ctl.pendOpen[c] = false
}

// ctlEdge applies errors, then the command, the deferred open and the internal close of this cycle.
func (t *Top) ctlEdge(ce int, in *TopIn) {
	cy, k, co := &t.cy, &t.ctl, &t.cy.co
	if cy.wrTake && t.cn.cs[in.WrConn] == 1 && uint64(in.WrLen) > t.maxMsg {
		cy.errs[in.WrConn] |= errInternal
	}
	if o := &t.trOut; o.ErrValid && t.cn.cs[o.ErrConn] == 1 {
		cy.errs[o.ErrConn] |= errTransport
		cy.ev |= evConnError
	}
	if ce >= 0 && !(t.trOut.ErrValid && int(t.trOut.ErrConn) == ce) {
		k.cePend[ce] = false
	}
	for c, e := range cy.errs {
		if e != 0 && t.cn.cs[c] == 1 {
			t.stopConn(c, 2, StatusConnError)
			if e&errInternal != 0 {
				k.icPend[c], k.cePend[c] = true, true
			}
		}
	}
	switch {
	case cy.ctlCmd && !co.Cmd.Open:
		c := co.Cmd.Conn
		t.stopConn(c, 0, StatusClosed)
		k.pendOpen[c], k.icPend[c], k.cePend[c] = false, false, false
	case cy.ctlCmd:
		c := co.Cmd.Conn
		t.chk.peerMem[c] = peer{mac: co.Cmd.PeerMAC, check: co.Cmd.MACCheck, ip: co.Cmd.PeerIP}
		if t.flushing(c) {
			k.pendOpen[c], k.txPSN[c], k.rxPSN[c] = true, co.Cmd.TxPSN&psnMask, co.Cmd.RxPSN&psnMask
		} else {
			t.openConn(c, co.Cmd.TxPSN)
		}
	case cy.ctlDef:
		t.openConn(cy.ctlConn, k.txPSN[cy.ctlConn])
	case cy.ctlIC:
		k.icPend[cy.ctlConn] = false
	}
}
