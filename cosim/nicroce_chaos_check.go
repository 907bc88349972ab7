package cosim

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"

	"github.com/spraynic/spraynic/golden/nicroce"
)

// nrChaos drives one top's work requests and posted receives under chaos and checks, from its ports alone: every
// request and posted receive completes exactly once, in order per connection and kind, with a status its kind
// may have; an OK send has the request's length; an OK receive holds, byte for byte, a message the peer sent on
// the connection after the one of the previous OK receive; every DMA write lies inside a posted buffer not yet
// completed, no packet range of a buffer is written twice (a duplicate or a refused packet written: m_rxv code
// not 0), and no write lands after its buffer's completion; no data packet leaves for a connection closed by
// CONN_CMD (from the cycle after the close's response), and its PSN is of the current epoch.
type nrChaos struct {
	e     *nrEnd
	peer  *nrEnd
	peerC *nrChaos
	conns int
	rng   *rand.Rand
	// nextID numbers requests; src and dst allocate fresh host memory for each.
	nextID   uint32
	src, dst uint64
	reqs     map[uint32]*nrChReq
	fifo     map[[2]uint32][]uint32
	// hist[c] are the CONN_CMD and CONN_TX_PSN writes to c, at their response cycles.
	hist [][]nrConnEv
	// tags maps a write's tag to its buffer; matched[c] is the index in peer.sends[c] of the message the last OK
	// receive of c held (-1: none).
	tags    map[uint32]uint32
	matched map[uint32]int
	// clearAt is the response cycle of the last CNT_CLEAR; since counts completions (send, receive, not OK) and
	// requests taken after it.
	clearAt int64
	since   [4]uint32
	st      [5]int
	writes  int
	maxMsg  uint64
	// events is EVENTS read at the end (never cleared in the run: bit 0, a MAX_RETRIES error happened).
	events uint32
}

// nrChReq is a request or posted receive of the chaos run.
type nrChReq struct {
	r       nrReq
	recv    bool
	done    bool
	written map[uint64]bool
}

// nrConnEv is the state of a connection from an AXI4-Lite write response on.
type nrConnEv struct {
	cycle int64
	open  bool
	txPSN uint32
}

func newNrChaos(e, peer *nrEnd, conns int, rng *rand.Rand, base uint64) *nrChaos {
	x := &nrChaos{e: e, peer: peer, conns: conns, rng: rng, nextID: uint32(base >> 32), src: base,
		dst: base + 0x80000000000, reqs: map[uint32]*nrChReq{}, fifo: map[[2]uint32][]uint32{},
		hist: make([][]nrConnEv, conns), tags: map[uint32]uint32{}, matched: map[uint32]int{}, clearAt: -1,
		maxMsg: uint64(1) << 19 * uint64(e.cfg.MTU)}
	for c := range x.hist {
		x.hist[c] = []nrConnEv{{cycle: -1}}
		x.matched[uint32(c)] = -1
	}
	e.onAxi = x.axiDone
	e.watch = x.watch
	return x
}

// inject queues random work requests and posted receives: lengths 0..2 MTU, 0.5% of them longer than MAX_MSG;
// buffers of 2 MTU, 5% of them shorter than one MTU (overruns).
func (x *nrChaos) inject() {
	mtu := x.e.cfg.MTU
	if x.rng.IntN(150) == 0 && len(x.e.wrQ) < 4 {
		c := uint32(x.rng.IntN(x.conns))
		l := uint32(x.rng.IntN(2*mtu + 1))
		switch k := x.rng.IntN(200); {
		case k == 0:
			l = uint32(x.maxMsg) + 1 + x.rng.Uint32N(1000)
		case k < 20:
			l = 0
		default:
			m := make([]byte, l)
			for i := range m {
				m[i] = byte(x.rng.Uint32())
			}
			if err := x.e.host.Mem.Write(x.src, m); err != nil {
				panic(err)
			}
		}
		x.e.wrQ = append(x.e.wrQ, x.submit(nrReq{conn: c, addr: x.src, len: l}, false))
		x.src += uint64(2*mtu) + 64
	}
	if x.rng.IntN(150) == 0 && len(x.e.rqQ) < 4 {
		c := uint32(x.rng.IntN(x.conns))
		l := uint32(2 * mtu)
		if x.rng.IntN(20) == 0 {
			l = 1 + x.rng.Uint32N(uint32(mtu))
		}
		x.e.rqQ = append(x.e.rqQ, x.submit(nrReq{conn: c, addr: x.dst, len: l}, true))
		x.dst += uint64(2*mtu) + 64
	}
}

func (x *nrChaos) submit(r nrReq, recv bool) nrReq {
	x.nextID++
	r.id = x.nextID
	x.reqs[r.id] = &nrChReq{r: r, recv: recv, written: map[uint64]bool{}}
	return r
}

// outstanding counts requests submitted and not completed.
func (x *nrChaos) outstanding() int {
	n := 0
	for _, q := range x.reqs {
		if !q.done {
			n++
		}
	}
	return n
}

// axiDone records the writes the checks need: CONN_CMD and CONN_TX_PSN per connection, CNT_CLEAR.
func (x *nrChaos) axiDone(op nrAxi) {
	if os.Getenv("NR_TRACE") != "" {
		fmt.Fprintf(os.Stderr, "%s %d axi %+v\n", x.e.name, x.e.cycle, op)
	}
	if op.read {
		return
	}
	if op.addr == nrReg("CNT_CLEAR", 0) {
		x.clearAt, x.since = x.e.cycle, [4]uint32{}
	}
	for c := 0; c < x.conns; c++ {
		h := &x.hist[c]
		ev := (*h)[len(*h)-1]
		ev.cycle = x.e.cycle
		switch op.addr {
		case nrReg("CONN_CMD", c):
			ev.open = op.data == 1
		case nrReg("CONN_TX_PSN", c):
			ev.txPSN = op.data
		default:
			continue
		}
		*h = append(*h, ev)
	}
}

// state is connection c's state before cycle at (the writes answered in earlier cycles).
func (x *nrChaos) state(c uint32, at int64) nrConnEv {
	h := x.hist[c]
	k := len(h) - 1
	for h[k].cycle >= at {
		k--
	}
	return h[k]
}

// watch runs the checks of the cycle just observed, in this order: requests taken, completions, DMA writes
// issued, write statuses, packets taken by roce_tx.
func (x *nrChaos) watch() error {
	in, o, cy := &x.e.in, &x.e.rout, x.e.cycle
	x.trace()
	if in.WrValid && o.WrReady {
		x.take(in.WrConn, in.WrID, false)
	}
	if in.RqValid && o.RqReady {
		x.take(in.RqConn, in.RqID, true)
	}
	if o.CplValid && in.CplReady {
		if err := x.complete(o.Cpl()); err != nil {
			return err
		}
	}
	if o.DmaWrDescValid && in.DmaWrDescReady {
		if err := x.issue(o.DmaWrDescAddr, o.DmaWrDescLen, o.DmaWrDescTag); err != nil {
			return err
		}
	}
	if in.DmaWrStsValid {
		id, ok := x.tags[in.DmaWrStsTag]
		if !ok {
			return fmt.Errorf("DMA write status tag %d without a write", in.DmaWrStsTag)
		}
		delete(x.tags, in.DmaWrStsTag)
		if q := x.reqs[id]; q.done && in.DmaWrStsError == 0 {
			return fmt.Errorf("DMA write (tag %d) into the buffer of receive %d (conn %d) lands after its completion",
				in.DmaWrStsTag, id, q.r.conn)
		}
	}
	if o.TxSPktValid && in.TxSPktReady {
		c := o.TxSPktConn
		s := x.state(c, cy)
		if !s.open {
			return fmt.Errorf("data packet (psn %#x) taken by roce_tx for connection %d, closed", o.TxSPktPSN, c)
		}
		if (o.TxSPktPSN-s.txPSN)&0xFFFFFF >= nrChaosEpoch {
			return fmt.Errorf("data packet of connection %d: PSN %#x not of the epoch opened at PSN %#x", c,
				o.TxSPktPSN, s.txPSN)
		}
	}
	return nil
}

// trace prints, with NR_TRACE=1 (debugging), DMA errors and requests taken; NR_TRACE=2 adds every cycle's
// completion and s_wr handshake signals.
func (x *nrChaos) trace() {
	in, o, cy := &x.e.in, &x.e.rout, x.e.cycle
	switch os.Getenv("NR_TRACE") {
	case "":
		return
	case "2":
		fmt.Fprintf(os.Stderr, "%s %d cplv %v rdy %v wrv %v wrrdy %v twin %v\n", x.e.name, cy, o.CplValid,
			in.CplReady, in.WrValid, o.WrReady, x.e.tout.WrReady)
	}
	if in.DmaRdStsValid && in.DmaRdStsError != 0 || in.DmaWrStsValid && in.DmaWrStsError != 0 {
		fmt.Fprintf(os.Stderr, "%s %d DMA error: read %v tag %d, write %v tag %d\n", x.e.name, cy, in.DmaRdStsValid,
			in.DmaRdStsTag, in.DmaWrStsValid, in.DmaWrStsTag)
	}
	if in.WrValid && o.WrReady {
		fmt.Fprintf(os.Stderr, "%s %d wr conn %d id %d len %d\n", x.e.name, cy, in.WrConn, in.WrID, in.WrLen)
	}
}

// take queues a request the top took.
func (x *nrChaos) take(c, id uint32, recv bool) {
	k := [2]uint32{c, uint32(nrB(recv))}
	x.fifo[k] = append(x.fifo[k], id)
	if !recv && x.e.cycle > x.clearAt {
		x.since[3]++
	}
}

// complete checks a completion against the oldest request of its connection and kind.
func (x *nrChaos) complete(cp nicroce.Cpl) error {
	if os.Getenv("NR_TRACE") != "" {
		fmt.Fprintf(os.Stderr, "%s %d cpl %+v\n", x.e.name, x.e.cycle, cp)
	}
	k := [2]uint32{cp.Conn, uint32(nrB(cp.Recv))}
	q := x.fifo[k]
	if len(q) == 0 || q[0] != cp.ID {
		return fmt.Errorf("completion %+v: outstanding on its connection and kind, oldest first: %v", cp, q)
	}
	x.fifo[k] = q[1:]
	r := x.reqs[cp.ID]
	r.done = true
	if cp.Status >= uint32(len(nrStatusName)) {
		return fmt.Errorf("completion %+v: status %d not defined", cp, cp.Status)
	}
	x.st[cp.Status]++
	if x.e.cycle > x.clearAt {
		x.since[nrB(cp.Recv)]++
		if cp.Status != nicroce.StatusOK {
			x.since[2]++
		}
	}
	long := !r.recv && uint64(r.r.len) > x.maxMsg
	switch {
	case cp.Status == nicroce.StatusTooLong && !long, long && (cp.Status == nicroce.StatusOK ||
		cp.Status == nicroce.StatusDMAError):
		return fmt.Errorf("completion %+v of a request of %d bytes (MAX_MSG %d)", cp, r.r.len, x.maxMsg)
	case cp.Status != nicroce.StatusOK && !(cp.Recv && cp.Status == nicroce.StatusDMAError) && cp.Len != 0:
		return fmt.Errorf("completion %+v: len of a %s completion is 0", cp, nrStatusName[cp.Status])
	case cp.Status == nicroce.StatusOK && !cp.Recv && cp.Len != r.r.len:
		return fmt.Errorf("completion %+v: an OK send has the request's length %d", cp, r.r.len)
	case cp.Status == nicroce.StatusOK && cp.Recv:
		return x.received(cp, r)
	}
	return nil
}

// received checks an OK receive: its length fits the buffer and the buffer holds a message the peer sent on the
// connection, later than the last one received (the earliest such message is taken).
func (x *nrChaos) received(cp nicroce.Cpl, r *nrChReq) error {
	if cp.Len > r.r.len {
		return fmt.Errorf("completion %+v: longer than its buffer (%d bytes)", cp, r.r.len)
	}
	got, err := x.e.host.Mem.Read(r.r.addr, int(cp.Len))
	if err != nil {
		return err
	}
	sent := x.peer.sends[cp.Conn]
	for i := x.matched[cp.Conn] + 1; i < len(sent); i++ {
		if sent[i].len != cp.Len {
			continue
		}
		m, err := x.peer.host.Mem.Read(sent[i].addr, int(cp.Len))
		if err != nil {
			return err
		}
		if bytes.Equal(m, got) {
			x.matched[cp.Conn] = i
			return nil
		}
	}
	return fmt.Errorf("completion %+v: the buffer holds no message %s sent on the connection after its %d-th "+
		"request", cp, x.peer.name, x.matched[cp.Conn])
}

// issue checks a DMA write descriptor: inside a posted buffer not completed, a packet range not written before.
func (x *nrChaos) issue(addr uint64, l, tag uint32) error {
	x.writes++
	for id, q := range x.reqs {
		if !q.recv || addr < q.r.addr || addr+uint64(l) > q.r.addr+uint64(q.r.len) {
			continue
		}
		if q.done {
			return fmt.Errorf("DMA write {%#x, %d} into the buffer of receive %d (conn %d) after its completion",
				addr, l, id, q.r.conn)
		}
		if q.written[addr] {
			return fmt.Errorf("DMA write {%#x, %d} into the buffer of receive %d (conn %d): offset %d written "+
				"before (a duplicate written)", addr, l, id, q.r.conn, addr-q.r.addr)
		}
		q.written[addr] = true
		x.tags[tag] = id
		return nil
	}
	return fmt.Errorf("DMA write {%#x, %d} outside every posted buffer", addr, l)
}

// checkEnd checks the end of the run: nothing outstanding, no write in flight, the completion counters since the
// last CNT_CLEAR equal the completions seen; it reads the counters with step.
func (x *nrChaos) checkEnd(step func() error) error {
	if n := x.outstanding(); n > 0 {
		return fmt.Errorf("%s: %d requests without completion", x.e.name, n)
	}
	if len(x.tags) > 0 {
		return fmt.Errorf("%s: %d DMA writes without status", x.e.name, len(x.tags))
	}
	names := []string{"CPL_SEND", "CPL_RECV", "CPL_ERROR", "WR_TAKEN"}
	var got [4]uint32
	for i, n := range names {
		x.e.axiQ = append(x.e.axiQ, nrAxi{read: true, addr: nrCounter(n), got: &got[i]})
	}
	x.e.axiQ = append(x.e.axiQ, nrAxi{read: true, addr: nrReg("EVENTS", 0), got: &x.events})
	for len(x.e.axiQ) > 0 {
		if err := step(); err != nil {
			return err
		}
	}
	if got != x.since {
		return fmt.Errorf("%s: CNT_%v since the last CNT_CLEAR are %v, want %v", x.e.name, names, got, x.since)
	}
	return nil
}

// chaosPayload checks a packet's payload in chaos mode: one of the connection's last 64 requests holds it at the
// packet's offset (a poisoned payload, a failed read, only needs the request).
func (e *nrEnd) chaosPayload(d *nrPkt, pay []byte, poison bool) error {
	ws := e.sends[d.conn]
	for i := len(ws) - 1; i >= 0 && i >= len(ws)-64; i-- {
		w := &ws[i]
		if uint64(d.offset)+uint64(len(pay)) > uint64(w.len) || uint64(w.len) > uint64(1)<<19*uint64(e.cfg.MTU) {
			continue
		}
		if poison {
			return nil
		}
		mem, err := e.host.Mem.Read(w.addr+uint64(d.offset), len(pay))
		if err != nil {
			return err
		}
		if bytes.Equal(mem, pay) {
			return nil
		}
	}
	return fmt.Errorf("data packet conn %d offset %d len %d: no recent request holds its payload", d.conn,
		d.offset, len(pay))
}
