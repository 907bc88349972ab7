package nicroce_test

import (
	"github.com/stretchr/testify/require"

	"github.com/spraynic/spraynic/golden/nicroce"
	"github.com/spraynic/spraynic/stimulus/dmahost"
)

// drive sets the inputs of the cycle from the host and the stand-ins' state.
func (b *bench) drive(ho *dmahost.HostOut) {
	in := &b.in
	in.DmaRdDescReady, in.DmaWrDescReady, in.DmaWrTReady = ho.RdDescReady, ho.WrDescReady, ho.WrDataReady
	in.DmaRdTValid, in.DmaRdTData, in.DmaRdTKeep, in.DmaRdTLast = ho.RdValid, ho.RdData, ho.RdKeep, ho.RdLast
	in.DmaRdTUser = ho.RdUser
	in.DmaRdStsValid, in.DmaRdStsTag, in.DmaRdStsError = ho.RdStsValid, ho.RdStsTag, ho.RdStsError
	in.DmaWrStsValid, in.DmaWrStsTag, in.DmaWrStsError = ho.WrStsValid, ho.WrStsTag, ho.WrStsError
	in.CplReady, in.MacTxTReady = b.cplReady(b.cycle), !b.macTxStall
	in.WrValid, in.RqValid = len(b.wrQ) > 0, len(b.rqQ) > 0
	if in.WrValid {
		w := b.wrQ[0]
		in.WrConn, in.WrID, in.WrAddr, in.WrLen = w.conn, w.id, w.addr, w.len
	}
	if in.RqValid {
		w := b.rqQ[0]
		in.RqConn, in.RqID, in.RqAddr, in.RqLen = w.conn, w.id, w.addr, w.len
	}
	b.driveRx()
	in.TxSPktReady, in.TxSAckReady, in.TxSPayTReady, in.TxMAxisTValid = b.cur == nil, true, b.cur != nil,
		len(b.txBeats) > 0
	if len(b.txBeats) > 0 {
		x := b.txBeats[0]
		in.TxMAxisTData, in.TxMAxisTKeep, in.TxMAxisTLast = x.Data, x.Keep, x.Last
	}
	b.driveAxi()
	in.MacRxTValid = len(b.frameBeat) > 0
	if in.MacRxTValid {
		x := b.frameBeat[0]
		in.MacRxTData, in.MacRxTKeep, in.MacRxTLast, in.MacRxTUser = x.Data, x.Keep, x.Last, x.User
	}
}

// descDepth is roce_rx's DESC_DEPTH: data descriptors whose payload has not gone.
const descDepth = 16

// driveRx offers the head descriptor and the head payload's next beat (roce_rx stand-in).
func (b *bench) driveRx() {
	x := &b.in
	*x = clearRx(*x)
	if len(b.rxQ) > 0 && (b.rxQ[0].ack || len(b.payQ) < descDepth) {
		p := &b.rxQ[0]
		if p.ack {
			x.RxMAckValid, x.RxMAckConn, x.RxMAckPSN, x.RxMAckSrcMAC, x.RxMAckSrcIP = true, p.conn, p.psn, p.srcMAC, p.srcIP
			x.RxMAckPath, x.RxMAckPseq, x.RxMAckSack, x.RxMAckECN, x.RxMAckNak = p.path, p.pseq, p.sack, p.ecn, p.nak
		} else {
			x.RxMRxValid, x.RxMRxConn, x.RxMRxPSN, x.RxMRxHandle, x.RxMRxOffset = true, p.conn, p.psn, p.handle, p.offset
			x.RxMRxLen, x.RxMRxFirst, x.RxMRxLast, x.RxMRxSrcMAC, x.RxMRxSrcIP = uint32(len(p.payload)), p.first, p.last,
				p.srcMAC, p.srcIP
			x.RxMRxPath, x.RxMRxPseq, x.RxMRxAckReq, x.RxMRxECN = p.path, p.pseq, p.ackReq, p.ecn
		}
	}
	if len(b.payQ) > 0 {
		k := b.cfg.DataWidth / 8
		p := b.payQ[0]
		n := min(k, len(p)-b.payB)
		x.RxMAxisTValid = true
		copy(x.RxMAxisTData[:], p[b.payB:b.payB+n])
		x.RxMAxisTKeep, x.RxMAxisTLast = uint64(1)<<n-1, b.payB+n == len(p)
	}
}

// driveAxi drives the head AXI4-Lite operation.
func (b *bench) driveAxi() {
	in := &b.in
	in.AxilAWValid, in.AxilWValid, in.AxilARValid, in.AxilBReady, in.AxilRReady = false, false, false, true, true
	if len(b.axiQ) == 0 {
		return
	}
	op := b.axiQ[0]
	if op.read {
		in.AxilARValid, in.AxilARAddr = !b.arDone, op.addr
		return
	}
	in.AxilAWValid, in.AxilAWAddr, in.AxilWValid, in.AxilWData, in.AxilWStrb = !b.awDone, op.addr, !b.wDone,
		op.data, 0xF
}

// step runs one cycle.
func (b *bench) step() {
	var ho dmahost.HostOut
	b.host.Drive(b.cycle, &ho)
	b.drive(&ho)
	require.NoError(b.t, b.top.Step(&b.in, &b.out))
	o := &b.out
	do := dmahost.DUTOut{Rst: b.in.Rst, RdDescAddr: o.DmaRdDescAddr, RdDescLen: o.DmaRdDescLen,
		RdDescTag: o.DmaRdDescTag, RdDescValid: o.DmaRdDescValid, RdDataReady: o.DmaRdTReady,
		WrDescAddr: o.DmaWrDescAddr, WrDescLen: o.DmaWrDescLen, WrDescTag: o.DmaWrDescTag,
		WrDescValid: o.DmaWrDescValid, WrData: o.DmaWrTData, WrKeep: o.DmaWrTKeep, WrValid: o.DmaWrTValid,
		WrLast: o.DmaWrTLast}
	require.NoError(b.t, b.host.Observe(b.cycle, &do), "cycle %d", b.cycle)
	if ho.WrStsValid {
		b.wrSts = append(b.wrSts, b.cycle)
	}
	if !b.in.Rst {
		b.observe(&ho)
	}
	b.cycle++
}

// observe applies the handshakes of the cycle to the stand-ins and records.
func (b *bench) observe(ho *dmahost.HostOut) {
	in, o := &b.in, &b.out
	if in.WrValid && o.WrReady {
		b.wrQ, b.wrAt = b.wrQ[1:], append(b.wrAt, b.cycle)
	}
	if in.RqValid && o.RqReady {
		b.rqQ = b.rqQ[1:]
	}
	if o.CplValid && in.CplReady {
		b.cpls = append(b.cpls, cplRec{Cpl: o.Cpl(), cycle: b.cycle})
	}
	if o.DmaRdDescValid && ho.RdDescReady {
		b.rds = append(b.rds, dmaDesc{addr: o.DmaRdDescAddr, len: o.DmaRdDescLen, tag: o.DmaRdDescTag, cycle: b.cycle})
	}
	if o.DmaWrDescValid && ho.WrDescReady {
		b.wrs = append(b.wrs, dmaDesc{addr: o.DmaWrDescAddr, len: o.DmaWrDescLen, tag: o.DmaWrDescTag, cycle: b.cycle})
	}
	if in.TxMAxisTValid && o.TxMAxisTReady {
		b.txBeats = b.txBeats[1:]
	}
	if o.MacTxTValid && in.MacTxTReady {
		b.macTx = append(b.macTx, Beat{Data: o.MacTxTData, Keep: o.MacTxTKeep, Last: o.MacTxTLast})
	}
	if in.MacRxTValid && o.MacRxTReady {
		b.frameBeat = b.frameBeat[1:]
	}
	b.observeRx()
	b.observeTx()
	b.observeAxi()
}

func (b *bench) observeRx() {
	in, o := &b.in, &b.out
	if in.RxMAckValid && o.RxMAckReady {
		b.ackAt = append(b.ackAt, b.cycle)
	}
	if (in.RxMRxValid && o.RxMRxReady) || (in.RxMAckValid && o.RxMAckReady) {
		if p := b.rxQ[0]; !p.ack && len(p.payload) > 0 {
			b.payQ = append(b.payQ, p.payload)
		}
		b.rxQ = b.rxQ[1:]
	}
	if in.RxMAxisTValid && o.RxMAxisTReady {
		b.payB += b.cfg.DataWidth / 8
		if in.RxMAxisTLast {
			b.payQ, b.payB = b.payQ[1:], 0
		}
	}
}

func (b *bench) observeTx() {
	in, o := &b.in, &b.out
	if o.TxSAckValid && in.TxSAckReady {
		b.acks = append(b.acks, *o)
	}
	if b.cur == nil && o.TxSPktValid && in.TxSPktReady {
		b.cur = &txPkt{d: *o, cycle: b.cycle}
		if o.TxSPktLen == 0 {
			b.sent, b.cur = append(b.sent, *b.cur), nil
		}
		return
	}
	if b.cur != nil && o.TxSPayTValid && in.TxSPayTReady {
		for i := 0; i < b.cfg.DataWidth/8; i++ {
			if o.TxSPayTKeep>>i&1 == 1 {
				b.cur.payload = append(b.cur.payload, o.TxSPayTData[i])
			}
		}
		b.cur.poison = b.cur.poison || o.TxSPayTUser
		if o.TxSPayTLast {
			b.sent, b.cur = append(b.sent, *b.cur), nil
		}
	}
}

func (b *bench) observeAxi() {
	in, o := &b.in, &b.out
	if len(b.axiQ) == 0 {
		return
	}
	b.awDone = b.awDone || in.AxilAWValid && o.AxilAWReady
	b.wDone = b.wDone || in.AxilWValid && o.AxilWReady
	b.arDone = b.arDone || in.AxilARValid && o.AxilARReady
	if o.AxilBValid || o.AxilRValid {
		if o.AxilBValid && b.onWrite != nil {
			b.onWrite(b.axiQ[0])
		}
		b.rdata = o.AxilRData
		b.axiQ, b.awDone, b.wDone, b.arDone = b.axiQ[1:], false, false, false
	}
}

// run steps n cycles.
func (b *bench) run(n int) {
	for i := 0; i < n; i++ {
		b.step()
	}
}

// until steps until cond holds, at most n cycles.
func (b *bench) until(n int, what string, cond func() bool) {
	b.t.Helper()
	for i := 0; i < n; i++ {
		if cond() {
			return
		}
		b.step()
	}
	b.t.Fatalf("cycle %d: %s not reached in %d cycles", b.cycle, what, n)
}

// write does an AXI4-Lite write and waits for its response.
func (b *bench) write(addr, data uint32) {
	b.axiQ = append(b.axiQ, axiOp{addr: addr, data: data})
	b.until(50, "AXI write", func() bool { return len(b.axiQ) == 0 })
}

// read does an AXI4-Lite read.
func (b *bench) read(addr uint32) uint32 {
	b.axiQ = append(b.axiQ, axiOp{read: true, addr: addr})
	b.until(50, "AXI read", func() bool { return len(b.axiQ) == 0 })
	return b.rdata
}

// counter reads counter i (map order).
func (b *bench) counter(i int) uint32 { return b.read(regCnt + 4*uint32(i)) }

// open configures connection c's peer and PSNs and opens it.
func (b *bench) open(c int, mac uint64, ip, txPSN, rxPSN uint32) {
	base := uint32(connBase + connStride*c)
	b.write(base+offMacLo, uint32(mac))
	b.write(base+offMacHi, uint32(mac>>32)&0xFFFF|1<<16)
	b.write(base+offIP, ip)
	b.write(base+offQPN, 0x100+uint32(c))
	b.write(base+offTxPSN, txPSN)
	b.write(base+offRxPSN, rxPSN)
	b.write(base+offCmd, 1)
}

// status reads CONN_STATUS of c.
func (b *bench) status(c int) uint32 { return b.read(uint32(connBase+connStride*c) + offStatus) }

// clearRx returns in with every roce_rx output low but s_axis_tready.
func clearRx(in nicroce.TopIn) nicroce.TopIn {
	var z nicroce.TopIn
	z.RxSAxisTReady = true
	in.RxSAxisTReady, in.RxMAxisTValid, in.RxMAxisTData, in.RxMAxisTKeep, in.RxMAxisTLast = true, false,
		z.RxMAxisTData, 0, false
	in.RxMRxValid, in.RxMRxConn, in.RxMRxPSN, in.RxMRxPath, in.RxMRxPseq = false, 0, 0, 0, 0
	in.RxMRxFirst, in.RxMRxLast, in.RxMRxAckReq, in.RxMRxECN, in.RxMRxHandle = false, false, false, false, 0
	in.RxMRxOffset, in.RxMRxLen, in.RxMRxSrcMAC, in.RxMRxSrcIP = 0, 0, 0, 0
	in.RxMAckValid, in.RxMAckConn, in.RxMAckPSN, in.RxMAckPath, in.RxMAckPseq = false, 0, 0, 0, 0
	in.RxMAckSack, in.RxMAckECN, in.RxMAckNak, in.RxMAckHasSack = z.RxMAckSack, false, false, false
	in.RxMAckSrcMAC, in.RxMAckSrcIP = 0, 0
	return in
}
