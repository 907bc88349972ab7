package cosim

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"net/netip"
	"os"
	"path/filepath"
	"strings"

	"github.com/spraynic/spraynic/config"
	"github.com/spraynic/spraynic/cosim/bridge"
	"github.com/spraynic/spraynic/golden/nicroce"
	"github.com/spraynic/spraynic/golden/wide"
	"github.com/spraynic/spraynic/regmap"
	"github.com/spraynic/spraynic/stimulus/dmahost"
	"github.com/spraynic/spraynic/system/roce"
	"github.com/spraynic/spraynic/tops"
)

// nicRoCETB is nic_roce's testbench under rtl/: no synthesizable top, so not in rtl/manifest.json; the lockstep
// builds it through the bridge directly, with nic_roce's files from the manifest.
const nicRoCETB = "tb/nic_roce_tb.v"

// BuildNicRoCETB builds (or finds in the cache) the Verilator model of rtl/tb/nic_roce_tb.v under cfg.
func BuildNicRoCETB(root string, cfg config.Config, cache string) (string, error) {
	tps, err := tops.Params(root, "nic_roce", cfg)
	if err != nil {
		return "", err
	}
	spec := bridge.Spec{Top: "nic_roce_tb", Waivers: filepath.Join(root, "rtl", "lint.vlt"), Variant: bridge.Plain,
		CacheDir: cache}
	if spec.Sources, err = NicRoCESources(root); err != nil {
		return "", err
	}
	if spec.Includes, err = tops.Includes(spec.Sources); err != nil {
		return "", err
	}
	for _, p := range tps {
		spec.Params = append(spec.Params, bridge.Param{Name: p.Name, Value: p.Value})
	}
	unlock := lockBuild(fmt.Sprint(spec.Top, spec.Params, cache))
	defer unlock()
	var log bytes.Buffer
	lib, err := bridge.Build(spec, &log)
	if err != nil {
		return "", fmt.Errorf("%w\n%s", err, log.String())
	}
	return lib, nil
}

// nrReg is the address of register name of the nic_roce map (entry conn of the connection window).
func nrReg(name string, conn int) uint32 {
	for _, b := range regmap.NicRoCE().Blocks {
		for _, r := range b.Registers {
			if r.Name == name {
				return b.Base + b.Stride*uint32(conn) + r.Offset
			}
		}
	}
	panic("nic_roce register map has no " + name)
}

// nrCounter is the address of counter CNT_<name>.
func nrCounter(name string) uint32 { return nrReg("CNT_"+name, 0) }

// nrAxi is an AXI4-Lite write (read false) or read; got receives a read's data.
type nrAxi struct {
	read       bool
	addr, data uint32
	got        *uint32
}

// nrReq is a work request or posted receive.
type nrReq struct {
	conn, id, len uint32
	addr          uint64
}

// nrTxPkt is a packet roce_tx took: its descriptor and the payload it took on s_pay.
type nrTxPkt struct {
	d       nrPkt
	payload []byte
	poison  bool
}

// nrPkt is a data packet descriptor of roce_tx's s_pkt.
type nrPkt struct {
	conn, psn, path, pseq, entropy, handle, offset, len uint32
	first, last, ackReq                                 bool
}

// nrAck is an ACK descriptor of roce_tx's s_ack.
type nrAck struct {
	conn, psn, path, pseq, entropy uint32
	sack                           wide.Vec
	ecn, nak                       bool
}

// nrBeat is one beat of the MAC RX stream.
type nrBeat struct {
	data nicroce.Data
	keep uint64
	last bool
}

// nrPeer is the far end of an endpoint: its addresses.
type nrPeer struct {
	mac uint64
	ip  uint32
}

// nrEnd is one nic_roce RTL instance (nic_roce_tb) in lockstep with its twin, with its host, an AXI4-Lite
// master, a MAC RX frame source with seeded idle cycles, a MAC TX sink with a seeded tready and the independent
// checks of what it sends.
type nrEnd struct {
	name  string
	cfg   config.Config
	dut   *bridge.Model
	ports *nrPorts
	twin  *nicroce.Top
	host  *dmahost.Host
	rng   *rand.Rand
	cycle int64
	// in is the cycle's inputs (the block outputs filled from the RTL); tout the twin's outputs, rout the RTL's.
	in         nicroce.TopIn
	tout, rout nicroce.TopOut
	inW, outW  []uint32
	// self and peer are the addresses; the peer of connection c has QPN QPN_BASE + c.
	self, peer nrPeer
	// rxQ: frames waiting for MAC RX; rxBeats the beats of the frame being sent; idle the idle cycles left.
	rxQ     [][]byte
	rxCur   []byte
	rxBeats []nrBeat
	// wantRx and wantAck are the descriptors roce_rx must show, from roce.Parse of the frames MAC RX took.
	wantRx, wantAck []roce.Packet
	idle            int
	// txCur: the MAC TX frame being received; tx the finished frames not yet taken by the channel.
	txCur []byte
	tx    [][]byte
	// pkts: data packets roce_tx took, payload filled in order, until their frame leaves; acks likewise.
	pkts []*nrTxPkt
	acks []nrAck
	// wrQ, rqQ wait for s_wr and s_rq; sends[c] the work requests taken on c (handle = index); cpls the
	// completions.
	wrQ, rqQ []nrReq
	sends    map[uint32][]nrReq
	cpls     []nicroce.Cpl
	cplLog   []string
	nmis     int
	// axiQ is the AXI4-Lite queue; aw, w, ar mark the parts of the head operation done.
	axiQ      []nrAxi
	aw, w, ar bool
	// setup is true until the programming written first has finished: s_wr and s_rq wait for it.
	setup bool
	// stall is the probability per cycle of MAC TX tready and m_cpl_ready low; gap of an idle cycle before a
	// MAC RX beat.
	stall, gap float64
	// Counts: frames and beats in and out, cycles MAC TX was offered.
	framesIn, framesOut int
	// sentFrames holds, per MAC TX frame, whether it was an ACK.
	sentFrames []bool
	repro      string
	// chaos (RunNicRoCEChaos): read errors are injected (a poisoned frame is expected, its ICRC inverted) and a
	// packet's request is found by its payload (message sequence numbers restart at every open); onAxi sees every
	// finished AXI4-Lite operation, watch runs after each cycle's observe.
	chaos bool
	onAxi func(op nrAxi)
	watch func() error
	// streams checks the AXI-Stream rule on the RTL's stream outputs.
	streams nrStreams
	// offAtFrame (chaos): write CTRL.enable 0 when MAC TX next offers the first beat of a frame and it does not
	// move. txHold holds MAC TX tready low from then until 2 cycles after the write's response (-1: until the
	// response), so enable falls under an offered first beat.
	offAtFrame bool
	txHold     int
	// txGate, when set, holds MAC TX tready low at a frame's first beat while it returns false (a frame waits for
	// the port: SimFrames); rxIdle bounds the seeded idle cycles before a MAC RX frame (0..rxIdle-1).
	txGate func() bool
	rxIdle int
	// peerOf, when set, gives each connection's peer (TopReplay); otherwise every connection's peer is peer.
	peerOf func(conn uint32) nrPeer
	// record keeps every cycle's packed inputs in rec (the bench replays them on the model alone).
	record bool
	rec    []uint32
}

// newNrEnd opens the model at lib and makes the endpoint.
func newNrEnd(name, lib string, cfg config.Config, seed uint64, self, peer nrPeer, repro string) (*nrEnd, error) {
	dut, err := bridge.Open(lib)
	if err != nil {
		return nil, err
	}
	ports, err := newNrPorts(dut.Ports())
	if err != nil {
		dut.Close()
		return nil, err
	}
	twin, err := nicroce.New(cfg)
	if err != nil {
		dut.Close()
		return nil, err
	}
	host, err := dmahost.New(dmahost.Config{DataWidth: cfg.DataWidth, MTU: cfg.MTU, MaxOutstanding: 256,
		LatencyMin: 2, LatencyMax: 20, Stall: 0.1, Seed: seed + 1})
	if err != nil {
		dut.Close()
		return nil, err
	}
	e := &nrEnd{name: name, cfg: cfg, dut: dut, ports: ports, twin: twin, host: host,
		rng: rand.New(rand.NewPCG(seed, 2)), inW: make([]uint32, ports.inWords),
		outW: make([]uint32, ports.outWords), self: self, peer: peer, sends: map[uint32][]nrReq{}, setup: true,
		stall: 0.1, gap: 0.05, repro: repro, rxIdle: 4}
	return e, nil
}

// program queues the setup: local addresses, enable, and connections 0..conns-1 opened to the peer with the
// given initial PSNs.
func (e *nrEnd) program(conns int, txPSN, rxPSN func(c int) uint32) {
	e.programLocal()
	for c := 0; c < conns; c++ {
		e.openConn(uint32(c), txPSN(c), rxPSN(c))
	}
}

// programLocal queues the writes of the local addresses and CTRL.enable.
func (e *nrEnd) programLocal() {
	e.write(nrReg("LOCAL_MAC_LO", 0), uint32(e.self.mac))
	e.write(nrReg("LOCAL_MAC_HI", 0), uint32(e.self.mac>>32)&0xFFFF)
	e.write(nrReg("LOCAL_IP", 0), e.self.ip)
	e.write(nrReg("CTRL", 0), 1)
}

// openConn queues the writes that open connection c to its peer (MAC checked, QPN QPN_BASE + c) with the given
// initial PSNs.
func (e *nrEnd) openConn(c, txPSN, rxPSN uint32) {
	p, n := e.peerFor(c), int(c)
	e.write(nrReg("CONN_PEER_MAC_LO", n), uint32(p.mac))
	e.write(nrReg("CONN_PEER_MAC_HI", n), uint32(p.mac>>32)&0xFFFF|1<<16)
	e.write(nrReg("CONN_PEER_IP", n), p.ip)
	e.write(nrReg("CONN_PEER_QPN", n), uint32(e.cfg.QPNBase)+c)
	e.write(nrReg("CONN_TX_PSN", n), txPSN)
	e.write(nrReg("CONN_RX_PSN", n), rxPSN)
	e.write(nrReg("CONN_CMD", n), 1)
}

// write queues an AXI4-Lite write.
func (e *nrEnd) write(addr, data uint32) { e.axiQ = append(e.axiQ, nrAxi{addr: addr, data: data}) }

// peerFor is connection c's peer: peerOf's answer when set, else peer.
func (e *nrEnd) peerFor(c uint32) nrPeer {
	if e.peerOf != nil {
		return e.peerOf(c)
	}
	return e.peer
}

// close releases the model.
func (e *nrEnd) close() { e.dut.Close() }

// drive sets the top's inputs of the cycle from the host, the queues and the MAC source.
func (e *nrEnd) drive(ho *dmahost.HostOut, rst bool) {
	in := &e.in
	in.Rst = rst
	in.DmaRdDescReady, in.DmaWrDescReady, in.DmaWrTReady = ho.RdDescReady, ho.WrDescReady, ho.WrDataReady
	in.DmaRdTValid, in.DmaRdTData, in.DmaRdTKeep, in.DmaRdTLast, in.DmaRdTUser = ho.RdValid, ho.RdData, ho.RdKeep,
		ho.RdLast, ho.RdUser
	in.DmaRdStsValid, in.DmaRdStsTag, in.DmaRdStsError = ho.RdStsValid, ho.RdStsTag, ho.RdStsError
	in.DmaWrStsValid, in.DmaWrStsTag, in.DmaWrStsError = ho.WrStsValid, ho.WrStsTag, ho.WrStsError
	in.CplReady = e.rng.Float64() >= e.stall
	in.MacTxTReady = e.rng.Float64() >= e.stall && e.txHold == 0 && (e.txGate == nil || len(e.txCur) > 0 || e.txGate())
	in.WrValid, in.RqValid = !e.setup && len(e.wrQ) > 0, !e.setup && len(e.rqQ) > 0
	in.WrConn, in.WrID, in.WrAddr, in.WrLen = 0, 0, 0, 0
	in.RqConn, in.RqID, in.RqAddr, in.RqLen = 0, 0, 0, 0
	if in.WrValid {
		w := e.wrQ[0]
		in.WrConn, in.WrID, in.WrAddr, in.WrLen = w.conn, w.id, w.addr, w.len
	}
	if in.RqValid {
		w := e.rqQ[0]
		in.RqConn, in.RqID, in.RqAddr, in.RqLen = w.conn, w.id, w.addr, w.len
	}
	e.driveAxi()
	e.driveMac()
}

// driveAxi drives the head AXI4-Lite operation.
func (e *nrEnd) driveAxi() {
	in := &e.in
	in.AxilAWValid, in.AxilWValid, in.AxilARValid, in.AxilBReady, in.AxilRReady = false, false, false, true, true
	in.AxilAWAddr, in.AxilWData, in.AxilWStrb, in.AxilARAddr = 0, 0, 0, 0
	if len(e.axiQ) == 0 {
		return
	}
	op := e.axiQ[0]
	if op.read {
		in.AxilARValid, in.AxilARAddr = !e.ar, op.addr
		return
	}
	in.AxilAWValid, in.AxilAWAddr, in.AxilWValid, in.AxilWData, in.AxilWStrb = !e.aw, op.addr, !e.w, op.data, 0xF
}

// driveMac offers the next MAC RX beat, after seeded idle cycles between and inside frames.
func (e *nrEnd) driveMac() {
	in := &e.in
	in.MacRxTValid, in.MacRxTData, in.MacRxTKeep, in.MacRxTLast = false, nicroce.Data{}, 0, false
	if len(e.rxBeats) == 0 && len(e.rxQ) > 0 && e.idle == 0 {
		e.rxBeats, e.rxCur, e.rxQ = nrBeats(e.rxQ[0], e.cfg.DataWidth/8), e.rxQ[0], e.rxQ[1:]
		e.idle = e.rng.IntN(e.rxIdle)
	}
	if len(e.rxBeats) == 0 {
		if e.idle > 0 {
			e.idle--
		}
		return
	}
	if e.rng.Float64() < e.gap {
		return
	}
	b := &e.rxBeats[0]
	in.MacRxTValid, in.MacRxTData, in.MacRxTKeep, in.MacRxTLast = true, b.data, b.keep, b.last
}

// nrBeats cuts a frame into beats of k bytes from lane 0.
func nrBeats(f []byte, k int) []nrBeat {
	var bs []nrBeat
	for o := 0; o < len(f); o += k {
		n := min(k, len(f)-o)
		var b nrBeat
		copy(b.data[:], f[o:o+n])
		b.keep = uint64(1)<<n - 1
		if n == 64 {
			b.keep = ^uint64(0)
		}
		b.last = o+n == len(f)
		bs = append(bs, b)
	}
	return bs
}

// LockstepMismatch is a difference between nic_roce_tb and the twin.
type LockstepMismatch struct {
	End         string
	Cycle       int64
	Port        string
	Want, Got   string
	Repro, Last string
}

func (m *LockstepMismatch) Error() string {
	return fmt.Sprintf("nic_roce lockstep mismatch at %s cycle %d on port %s: twin %s, rtl %s\n  %s\n  reproduce: %s",
		m.End, m.Cycle, m.Port, m.Want, m.Got, m.Last, m.Repro)
}

// waived reports whether port is left out of this cycle's compare: in a reset cycle, what the top drives into
// roce_rx and roce_tx (docs/nic_roce_rtl.md, Details: not specified, both blocks reset).
func (e *nrEnd) waived(port string) bool {
	return e.in.Rst && (strings.HasPrefix(port, "rx_") || strings.HasPrefix(port, "tx_"))
}

// step runs one cycle: drive, RTL, twin on the RTL's block outputs, compare, host and sink.
func (e *nrEnd) step(rst bool) error {
	var ho dmahost.HostOut
	e.host.Drive(e.cycle, &ho)
	e.drive(&ho, rst)
	e.ports.packIn(&e.in, e.inW)
	if e.record {
		e.rec = append(e.rec, e.inW...)
	}
	if err := e.dut.Step(1, e.inW, e.outW); err != nil {
		return err
	}
	e.ports.unpack(e.outW, &e.in, &e.rout)
	if err := e.twin.Step(&e.in, &e.tout); err != nil {
		return fmt.Errorf("%s cycle %d: twin: %w\n  reproduce: %s", e.name, e.cycle, err, e.repro)
	}
	if port, w, g, ok := e.ports.diff(&e.tout, e.outW, e.waived); !ok {
		// NR_CONT=1 (debugging): print the first 30 mismatches and go on with the RTL's outputs; NR_CONT=all goes on
		// past them (the independent checks alone judge the RTL).
		if c := os.Getenv("NR_CONT"); c != "" && (e.nmis < 30 || c == "all") {
			if e.nmis++; e.nmis <= 30 {
				fmt.Fprintf(os.Stderr, "%s cycle %d: %s twin %s rtl %s; twin cpl %v %+v\n", e.name, e.cycle, port, w,
					g, e.tout.CplValid, e.tout.Cpl())
			}
			goto cont
		}
		return &LockstepMismatch{End: e.name, Cycle: e.cycle, Port: port, Want: w, Got: g, Repro: e.repro,
			Last: fmt.Sprintf("inputs: wr %v rq %v cplReady %v macTxReady %v macRx %v; twin cpl %v %+v, rtl cpl %v %+v",
				e.in.WrValid, e.in.RqValid, e.in.CplReady, e.in.MacTxTReady, e.in.MacRxTValid, e.tout.CplValid,
				e.tout.Cpl(), e.rout.CplValid, e.rout.Cpl())}
	}
cont:
	if err := e.streams.check(&e.in, &e.rout); err != nil {
		return fmt.Errorf("%s cycle %d: %w\n  reproduce: %s", e.name, e.cycle, err, e.repro)
	}
	o := &e.rout
	do := dmahost.DUTOut{Rst: rst, RdDescAddr: o.DmaRdDescAddr, RdDescLen: o.DmaRdDescLen,
		RdDescTag: o.DmaRdDescTag, RdDescValid: o.DmaRdDescValid, RdDataReady: o.DmaRdTReady,
		WrDescAddr: o.DmaWrDescAddr, WrDescLen: o.DmaWrDescLen, WrDescTag: o.DmaWrDescTag,
		WrDescValid: o.DmaWrDescValid, WrData: o.DmaWrTData, WrKeep: o.DmaWrTKeep, WrValid: o.DmaWrTValid,
		WrLast: o.DmaWrTLast}
	if err := e.host.Observe(e.cycle, &do); err != nil {
		return fmt.Errorf("%s cycle %d: host: %w\n  reproduce: %s", e.name, e.cycle, err, e.repro)
	}
	if !rst {
		if err := e.observe(); err != nil {
			return fmt.Errorf("%s cycle %d: %w\n  reproduce: %s", e.name, e.cycle, err, e.repro)
		}
	}
	e.cycle++
	return nil
}

// observe applies the cycle's handshakes to the stimulus and the checks.
func (e *nrEnd) observe() error {
	in, o := &e.in, &e.rout
	if in.WrValid && o.WrReady {
		w := e.wrQ[0]
		e.wrQ = e.wrQ[1:]
		e.sends[w.conn] = append(e.sends[w.conn], w)
	}
	if in.RqValid && o.RqReady {
		e.rqQ = e.rqQ[1:]
	}
	if o.CplValid && in.CplReady {
		e.cpls = append(e.cpls, o.Cpl())
		e.cplLog = append(e.cplLog, fmt.Sprintf("%d:%+v", e.cycle, o.Cpl()))
	}
	if in.MacRxTValid && o.MacRxTReady {
		e.rxBeats = e.rxBeats[1:]
		// A frame the enable gate dropped (CTRL.enable 0 at its first beat) never reaches roce_rx.
		if len(e.rxBeats) == 0 && o.RxSAxisTValid {
			e.framesIn++
			if p, err := roce.LimitsFor(e.cfg, e.cfg.MTU).Parse(e.rxCur); err == nil && p.IsAck() {
				e.wantAck = append(e.wantAck, p)
			} else if err == nil {
				e.wantRx = append(e.wantRx, p)
			}
		}
	}
	if err := e.checkRxDesc(); err != nil {
		return err
	}
	e.observeAxi()
	e.observeTx()
	if e.txHold > 0 {
		e.txHold--
	}
	if e.offAtFrame && o.MacTxTValid && !in.MacTxTReady && len(e.txCur) == 0 {
		e.offAtFrame, e.txHold = false, -1
		e.axiQ = append(e.axiQ, nrAxi{addr: nrReg("CTRL", 0), data: 0})
	}
	if e.watch != nil {
		if err := e.watch(); err != nil {
			return err
		}
	}
	if o.MacTxTValid && in.MacTxTReady {
		for i := 0; i < e.cfg.DataWidth/8; i++ {
			if o.MacTxTKeep>>i&1 == 1 {
				e.txCur = append(e.txCur, o.MacTxTData[i])
			}
		}
		if o.MacTxTLast {
			f := e.txCur
			e.txCur = nil
			e.framesOut++
			if err := e.checkFrame(f); err != nil {
				return err
			}
			e.tx, e.sentFrames = append(e.tx, f), append(e.sentFrames, isAck(f))
		}
	}
	return nil
}

func (e *nrEnd) observeAxi() {
	in, o := &e.in, &e.rout
	if len(e.axiQ) == 0 {
		return
	}
	e.aw = e.aw || in.AxilAWValid && o.AxilAWReady
	e.w = e.w || in.AxilWValid && o.AxilWReady
	e.ar = e.ar || in.AxilARValid && o.AxilARReady
	if o.AxilBValid || o.AxilRValid {
		if op := e.axiQ[0]; op.read && op.got != nil {
			*op.got = o.AxilRData
		}
		if e.onAxi != nil {
			e.onAxi(e.axiQ[0])
		}
		if op := e.axiQ[0]; e.txHold < 0 && !op.read && op.addr == nrReg("CTRL", 0) && op.data == 0 {
			e.txHold = 2
		}
		e.axiQ, e.aw, e.w, e.ar = e.axiQ[1:], false, false, false
		if len(e.axiQ) == 0 {
			e.setup = false
		}
	}
}

// observeTx records what roce_tx took: descriptors in order, payload beats to the oldest packet still short of
// its length.
func (e *nrEnd) observeTx() {
	blk, x := &e.in, &e.rout
	if x.TxSAckValid && blk.TxSAckReady {
		e.acks = append(e.acks, nrAck{conn: x.TxSAckConn, psn: x.TxSAckPSN, path: x.TxSAckPath, pseq: x.TxSAckPseq,
			entropy: x.TxSAckEntropy, sack: x.TxSAckSack, ecn: x.TxSAckECN, nak: x.TxSAckNak})
	}
	if x.TxSPayTValid && blk.TxSPayTReady {
		for _, p := range e.pkts {
			if uint32(len(p.payload)) < p.d.len {
				for i := 0; i < e.cfg.DataWidth/8; i++ {
					if x.TxSPayTKeep>>i&1 == 1 && uint32(len(p.payload)) < p.d.len {
						p.payload = append(p.payload, x.TxSPayTData[i])
					}
				}
				p.poison = p.poison || x.TxSPayTUser
				break
			}
		}
	}
	if x.TxSPktValid && blk.TxSPktReady {
		e.pkts = append(e.pkts, &nrTxPkt{d: nrPkt{conn: x.TxSPktConn, psn: x.TxSPktPSN, path: x.TxSPktPath,
			pseq: x.TxSPktPseq, entropy: x.TxSPktEntropy, handle: x.TxSPktHandle, offset: x.TxSPktOffset,
			len: x.TxSPktLen, first: x.TxSPktFirst, last: x.TxSPktLast, ackReq: x.TxSPktAckReq}})
	}
}

func nrMAC(m uint64) [6]byte {
	var b [6]byte
	for i := range b {
		b[i] = byte(m >> (40 - 8*i))
	}
	return b
}

func nrIP(v uint32) netip.Addr {
	return netip.AddrFrom4([4]byte{byte(v >> 24), byte(v >> 16), byte(v >> 8), byte(v)})
}

// header is the frame header of this endpoint's packets on connection conn with the given entropy.
func (e *nrEnd) header(conn, entropy uint32) roce.Header {
	peer := e.peerFor(conn)
	return roce.Header{SrcMAC: nrMAC(e.self.mac), DstMAC: nrMAC(peer.mac), SrcIP: nrIP(e.self.ip),
		DstIP: nrIP(peer.ip), DSCP: 26, ECN: roce.ECNECT0, TTL: 64, SrcPort: uint16(entropy),
		PKey: roce.DefaultPKey, DestQP: uint32(e.cfg.QPNBase) + conn}
}

// checkFrame checks a MAC TX frame: it parses with system/roce and equals BuildData or BuildAck of the oldest
// descriptor roce_tx took of its kind; a data packet's payload is the host memory of its work request.
func (e *nrEnd) checkFrame(f []byte) error {
	p, err := roce.Parse(f)
	// A failed read's frame (chaos) has a bad ICRC: it is the oldest data packet, poisoned.
	poisoned := e.chaos && len(e.pkts) > 0 && e.pkts[0].poison
	if err != nil && !poisoned {
		return fmt.Errorf("MAC TX frame %d does not parse: %w", e.framesOut-1, err)
	}
	var want []byte
	if err == nil && p.IsAck() {
		if len(e.acks) == 0 {
			return fmt.Errorf("MAC TX ACK frame %d without an ACK taken by roce_tx", e.framesOut-1)
		}
		a := e.acks[0]
		e.acks = e.acks[1:]
		words := max(1, e.cfg.SackBits/32)
		ack := roce.Ack{Header: e.header(a.conn, a.entropy), CumPSN: a.psn, NAK: a.nak,
			HasSACK: true, Path: uint8(a.path), PNext: a.pseq, ECNEcho: a.ecn, Words: uint8(words)}
		for i := 0; i < e.cfg.SackBits; i++ {
			if a.sack.Bit(i) {
				ack.Bitmap[i/32] |= 1 << (i % 32)
			}
		}
		if want, err = roce.BuildAck(&ack); err != nil {
			return err
		}
	} else {
		if len(e.pkts) == 0 || uint32(len(e.pkts[0].payload)) != e.pkts[0].d.len {
			return fmt.Errorf("MAC TX data frame %d without a complete packet taken by roce_tx", e.framesOut-1)
		}
		x := e.pkts[0]
		e.pkts = e.pkts[1:]
		d := &x.d
		if x.poison && !e.chaos {
			return fmt.Errorf("MAC TX data frame %d carries a failed read (no read error injected)", e.framesOut-1)
		}
		if err := e.checkPayload(d, x.payload, x.poison); err != nil {
			return err
		}
		if want, err = roce.BuildData(&roce.Data{Header: e.header(d.conn, d.entropy), PSN: d.psn,
			AckReq: d.ackReq, Path: uint8(d.path), PSeq: d.pseq, First: d.first, Last: d.last,
			MsgID: d.handle, Offset: d.offset, Payload: x.payload}); err != nil {
			return err
		}
		if x.poison {
			// roce_tx inverts the ICRC, the last 4 bytes of a frame without FCS.
			for i := len(want) - 4; i < len(want); i++ {
				want[i] ^= 0xFF
			}
		}
	}
	if !bytes.Equal(want, f) {
		return fmt.Errorf("MAC TX frame %d differs from system/roce's build of what roce_tx took:\n  want %x\n  got  %x",
			e.framesOut-1, want, f)
	}
	return nil
}

// checkPayload: the payload is the host memory of the work request the packet belongs to (handle = the index of
// the request on its connection, mod 2^HANDLE_WIDTH), at its offset. In chaos mode the request is one of the
// connection's last 64 whose memory holds the payload at the offset (every request has its own random bytes),
// and a poisoned payload (a failed read) is not checked.
func (e *nrEnd) checkPayload(d *nrPkt, pay []byte, poison bool) error {
	ws := e.sends[d.conn]
	if e.chaos {
		return e.chaosPayload(d, pay, poison)
	}
	hm := uint32(uint64(1)<<e.cfg.HandleWidth - 1)
	var w *nrReq
	for i := len(ws) - 1; i >= 0; i-- {
		if uint32(i)&hm == d.handle {
			w = &ws[i]
			break
		}
	}
	if w == nil {
		return fmt.Errorf("data packet conn %d handle %d: no such work request", d.conn, d.handle)
	}
	if uint64(d.offset)+uint64(len(pay)) > uint64(w.len) {
		return fmt.Errorf("data packet conn %d handle %d: offset %d + len %d beyond the request's %d", d.conn,
			d.handle, d.offset, len(pay), w.len)
	}
	mem, err := e.host.Mem.Read(w.addr+uint64(d.offset), len(pay))
	if err != nil {
		return err
	}
	if !bytes.Equal(mem, pay) {
		return fmt.Errorf("data packet conn %d handle %d offset %d: payload differs from host memory", d.conn,
			d.handle, d.offset)
	}
	return nil
}

// checkRxDesc checks every descriptor roce_rx hands over (m_rx, m_ack) against roce.Parse of the frames MAC RX
// took, in order per kind; a frame Parse refuses has none.
func (e *nrEnd) checkRxDesc() error {
	x, r := &e.in, &e.rout
	if x.RxMRxValid && r.RxMRxReady {
		if len(e.wantRx) == 0 {
			return fmt.Errorf("roce_rx data descriptor (conn %d psn %#x) without a data frame", x.RxMRxConn, x.RxMRxPSN)
		}
		d := &e.wantRx[0].Data
		e.wantRx = e.wantRx[1:]
		got := [...]uint64{uint64(x.RxMRxConn), uint64(x.RxMRxPSN), uint64(x.RxMRxPath), uint64(x.RxMRxPseq),
			uint64(x.RxMRxHandle), uint64(x.RxMRxOffset), uint64(x.RxMRxLen), x.RxMRxSrcMAC, uint64(x.RxMRxSrcIP),
			nrB(x.RxMRxFirst), nrB(x.RxMRxLast), nrB(x.RxMRxAckReq), nrB(x.RxMRxECN)}
		hm := uint64(1)<<e.cfg.HandleWidth - 1
		want := [...]uint64{uint64(d.DestQP) - uint64(e.cfg.QPNBase), uint64(d.PSN), uint64(d.Path), uint64(d.PSeq),
			uint64(d.MsgID) & hm, uint64(d.Offset), uint64(len(d.Payload)), nrMACValue(d.SrcMAC),
			uint64(nrIPValue(d.SrcIP)), nrB(d.First), nrB(d.Last), nrB(d.AckReq), nrB(d.ECN == roce.ECNCE)}
		if got != want {
			return fmt.Errorf("roce_rx data descriptor %v, roce.Parse of its frame %v (conn psn path pseq handle "+
				"offset len src_mac src_ip first last ack_req ecn)", got, want)
		}
	}
	if x.RxMAckValid && r.RxMAckReady {
		if len(e.wantAck) == 0 {
			return fmt.Errorf("roce_rx ACK descriptor (conn %d psn %#x) without an ACK frame", x.RxMAckConn, x.RxMAckPSN)
		}
		a := &e.wantAck[0].Ack
		e.wantAck = e.wantAck[1:]
		got := [...]uint64{uint64(x.RxMAckConn), uint64(x.RxMAckPSN), uint64(x.RxMAckPath), uint64(x.RxMAckPseq),
			x.RxMAckSrcMAC, uint64(x.RxMAckSrcIP), nrB(x.RxMAckNak), nrB(x.RxMAckECN), nrB(x.RxMAckHasSack)}
		want := [...]uint64{uint64(a.DestQP) - uint64(e.cfg.QPNBase), uint64(a.CumPSN), uint64(a.Path),
			uint64(a.PNext), nrMACValue(a.SrcMAC), uint64(nrIPValue(a.SrcIP)), nrB(a.NAK), nrB(a.ECNEcho),
			nrB(a.HasSACK)}
		if got != want {
			return fmt.Errorf("roce_rx ACK descriptor %v, roce.Parse of its frame %v (conn psn path pseq src_mac "+
				"src_ip nak ecn has_sack)", got, want)
		}
		for i := 0; i < e.cfg.SackBits; i++ {
			if x.RxMAckSack.Bit(i) != (a.Bitmap[i/32]>>(i%32)&1 == 1) {
				return fmt.Errorf("roce_rx ACK descriptor conn %d psn %#x: SACK bit %d differs from roce.Parse",
					x.RxMAckConn, x.RxMAckPSN, i)
			}
		}
	}
	return nil
}

func nrB(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

func nrMACValue(b [6]byte) uint64 {
	var m uint64
	for _, x := range b {
		m = m<<8 | uint64(x)
	}
	return m
}

func nrIPValue(a netip.Addr) uint32 {
	b := a.As4()
	return uint32(b[0])<<24 | uint32(b[1])<<16 | uint32(b[2])<<8 | uint32(b[3])
}

// NicRoCESources returns the absolute paths of nic_roce_tb's files: nic_roce's from rtl/manifest.json, then the
// testbench.
func NicRoCESources(root string) ([]string, error) {
	src, err := tops.Sources(root, "nic_roce")
	if err != nil {
		return nil, err
	}
	return append(src, filepath.Join(root, "rtl", nicRoCETB)), nil
}
