package nicroce

import (
	"fmt"

	"github.com/spraynic/spraynic/config"
	"github.com/spraynic/spraynic/golden/nicrocecsr"
	"github.com/spraynic/spraynic/golden/nictransport"
)

// Top is the twin of rtl/nic_roce.v: the units of docs/nic_roce_rtl.md around nic_transport and nic_roce_csr.
type Top struct {
	cfg    config.Config
	conns  int
	k      int
	lm     uint
	maxMsg uint64
	hmask  uint32
	tr     *nictransport.Top
	trIn   nictransport.TopIn
	trOut  nictransport.TopOut
	csr    *nicrocecsr.Model

	gate gateUnit
	cn   connUnit
	sq   sqUnit
	rq   rqUnit
	seg  segUnit
	tx   txUnit
	rds  rdsUnit
	chk  chkUnit
	v    vReg
	paq  paqUnit
	led  ledgerUnit
	rcu  rcuUnit
	walk walkUnit
	arb  arbUnit
	ctl  ctlUnit
	fl   flushUnit
	cnt  cntUnit

	cy cyc
}

// New returns the twin of an instance under cfg after reset. It returns the elaboration errors.
func New(cfg config.Config) (*Top, error) {
	if err := cfg.ValidateNicRoCE(); err != nil {
		return nil, fmt.Errorf("nicroce: %w", err)
	}
	if cfg.MTU > 1<<16-1 || cfg.DataWidth > 8*Lanes {
		return nil, fmt.Errorf("nicroce: config %s: MTU %d or DATA_WIDTH %d too large", cfg.Name, cfg.MTU,
			cfg.DataWidth)
	}
	tr, err := nictransport.NewTop(cfg)
	if err != nil {
		return nil, err
	}
	csr, err := nicrocecsr.New(nicrocecsr.Params{Conns: cfg.Conns, Paths: cfg.Paths, MTU: cfg.MTU,
		DataWidth: cfg.DataWidth})
	if err != nil {
		return nil, err
	}
	t := &Top{cfg: cfg, conns: cfg.Conns, k: cfg.DataWidth / 8, lm: uint(config.Log2(cfg.MTU)), tr: tr, csr: csr,
		maxMsg: uint64(1) << 19 * uint64(cfg.MTU), hmask: uint32(uint64(1)<<cfg.HandleWidth - 1)}
	t.alloc()
	t.reset()
	return t, nil
}

// Transport returns the nic_transport twin inside.
func (t *Top) Transport() *nictransport.Top { return t.tr }

// alloc makes the per-connection state and the RAMs (RAM contents survive reset).
func (t *Top) alloc() {
	n, e := t.conns, t.conns*sqDepth
	t.sq.segMem, t.sq.txMem, t.sq.cplMem = make([]uint32, e), make([]sqTx, e), make([]sqCpl, e)
	t.rq.chkMem, t.rq.idMem = make([]rqChk, e), make([]uint32, e)
	t.rcu.lenMem, t.rcu.wMem = make([]uint32, e), make([]uint32, e)
	t.chk.peerMem = make([]peer, n)
	t.cy.errs = make([]uint8, n)
}

// reset returns every flip-flop to its reset value; the RAMs keep their contents.
func (t *Top) reset() {
	n := t.conns
	u32 := func() []uint32 { return make([]uint32, n) }
	bs := func() []bool { return make([]bool, n) }
	t.gate = gateUnit{}
	t.cn = connUnit{cs: make([]uint8, n), gen: u32()}
	t.sq = sqUnit{head: u32(), tail: u32(), seqTail: u32(), allocPSN: u32(), segMem: t.sq.segMem, txMem: t.sq.txMem,
		cplMem: t.sq.cplMem}
	t.rq = rqUnit{rhead: u32(), rtail: u32(), chkMem: t.rq.chkMem, idMem: t.rq.idMem}
	t.seg = segUnit{seg: u32(), segK: u32()}
	t.tx = txUnit{rdtagMem: t.tx.rdtagMem, txq: t.tx.txq}
	t.rds = rdsUnit{}
	t.chk = chkUnit{peerMem: t.chk.peerMem}
	t.v = vReg{}
	t.paq = paqUnit{ent: t.paq.ent}
	t.led = ledgerUnit{mem: t.led.mem}
	t.rcu = rcuUnit{rh: u32(), rel: u32(), rqErr: make([]uint16, n), lenMem: t.rcu.lenMem, wMem: t.rcu.wMem}
	t.walk = walkUnit{una: u32(), pend: bs()}
	t.arb = arbUnit{}
	t.ctl = ctlUnit{flReq: bs(), pendOpen: bs(), icPend: bs(), cePend: bs(), kind: u32(), txPSN: u32(),
		rxPSN: u32(), sqDerr: make([]uint16, n)}
	t.fl = flushUnit{}
	t.cnt = cntUnit{afQ: bs()}
}

// flushing is flushing[c] = fl_req[c] || pend_open[c] || ic_pend[c].
func (t *Top) flushing(c int) bool { return t.ctl.flReq[c] || t.ctl.pendOpen[c] || t.ctl.icPend[c] }

// used is SQ entries outstanding of c; posted RQ entries.
func (t *Top) used(c int) uint32   { return (t.sq.tail[c] - t.sq.head[c]) & ptrMask }
func (t *Top) posted(c int) uint32 { return (t.rq.rtail[c] - t.rq.rhead[c]) & ptrMask }

// at is the RAM address {c, p mod 16}.
func at(c int, p uint32) int { return c*sqDepth + int(p&slotMask) }

// ge24, geH and geSeq compare PSNs, message sequences and write sequences: x - y read as signed >= 0.
func ge24(x, y uint32) bool { return (x-y)&psnMask < 1<<23 }

func (t *Top) geH(x, y uint32) bool { return (x-y)&t.hmask <= t.hmask>>1 }

func geSeq(x, y uint32) bool { return (x-y)&seqMask < 1<<9 }

// pkts is P = max(1, ceil(len/MTU)).
func (t *Top) pkts(l uint32) uint32 {
	p := (uint64(l) + uint64(t.cfg.MTU) - 1) >> t.lm
	if p == 0 {
		return 1
	}
	return uint32(p)
}

// Step runs one clock cycle: it computes the outputs of the cycle from the state and in, then the clock edge.
// It returns an error when a block twin fails.
func (t *Top) Step(in *TopIn, out *TopOut) error {
	cy := &t.cy
	cy.clear(t.csr.Out())
	*out = TopOut{}
	t.transportIn(in)
	t.tr.Step(&t.trIn, &t.trOut)
	t.outputs(in, out)
	if in.Rst {
		*out = TopOut{MacTxTValid: out.MacTxTValid, MacTxTData: out.MacTxTData, MacTxTKeep: out.MacTxTKeep,
			MacTxTLast: out.MacTxTLast, CplValid: out.CplValid, CplRecv: out.CplRecv, CplConn: out.CplConn,
			CplID: out.CplID, CplLen: out.CplLen, CplStatus: out.CplStatus, IRQ: out.IRQ}
		t.reset()
		return t.csr.Step(nicrocecsr.In{Rst: true})
	}
	csrIn := t.csrIn(in)
	t.edge(in, out, &csrIn)
	if t.cy.err != nil {
		return t.cy.err
	}
	return t.csr.Step(csrIn)
}

// transportIn computes nic_transport's inputs of the cycle: all from the state and the top's inputs.
func (t *Top) transportIn(in *TopIn) {
	p := &t.trIn
	*p = nictransport.TopIn{Rst: in.Rst, CplReady: true, AckOutReady: in.TxSAckReady,
		RdConn: t.cy.co.PathConn, RdPath: t.cy.co.PathPath}
	t.segOut(p)
	t.ctlOut(p)
	t.txPathComb(in)
	p.PktReady = t.cy.pktReady
	t.c2Comb(p)
}
