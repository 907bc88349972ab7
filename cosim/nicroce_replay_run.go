package cosim

import (
	"bytes"
	"fmt"
	"io"
	"net"
	"net/netip"
	"path/filepath"
	"text/tabwriter"
	"time"

	"github.com/spraynic/spraynic/golden/nicroce"
	"github.com/spraynic/spraynic/regmap"
	"github.com/spraynic/spraynic/stimulus/dmahost"
	"github.com/spraynic/spraynic/system/roce"
)

// TopReplayResult is what a top replay fed and what the top did.
type TopReplayResult struct {
	// Frames in the capture; Fed of them into MAC RX (the Ethernet destination is the endpoint's); Skipped the rest.
	Frames, Fed, Skipped int
	// LocalMAC and LocalIP are the endpoint's addresses, programmed into the top.
	LocalMAC net.HardwareAddr
	LocalIP  netip.Addr
	// Conns are the connections opened, by connection number.
	Conns []TopReplayConn
	// Counters are every CNT_ register of the top after the run, in register map order.
	Counters []TopCounter
	// Sent are the frames the top sent on MAC TX (ACKs), in order.
	Sent [][]byte
	// Cycles run, and the wall time they took.
	Cycles  int64
	Seconds float64
}

// TopCounter is one counter register's name (without CNT_) and value.
type TopCounter struct {
	Name  string
	Value uint32
}

// trRun is a top replay in progress.
type trRun struct {
	e    *nrEnd
	pl   *trPlan
	next uint64
	seen int
	bufs []dmahost.Range
	// fed is set when the frames were queued for MAC RX (after the programming and the first receives).
	fed      bool
	counters map[string]*uint32
}

// trDrainCycles is how long the top runs after the last frame moved: its ACK timers (ACK_REQ_TICKS ticks)
// fire and its DMA writes return.
const trDrainCycles = 20000

// trSetupCycles bounds the programming and the first receives (at most 7 writes and RQ_DEPTH receives per
// connection, a few cycles each).
const trSetupCycles = 1000000

// TopReplay feeds the frames of o.Capture addressed to one endpoint into MAC RX of the nic_roce RTL top, in
// lockstep with its twin and under the independent checks of the nic_roce lockstep (every roce_rx descriptor
// equals roce.Parse of its frame, every MAC TX frame equals system/roce's build). The top is programmed from the
// capture (docs/e2e_frames.md, "Replay into one top"); every receive completion must be OK, of a message the capture
// holds whole, its buffer byte for byte the capture's bytes; no DMA write may fall outside the posted buffers;
// roce_rx must count every frame fed once.
func TopReplay(o TopReplayOptions) (*TopReplayResult, error) {
	pl, err := planReplay(o.Config, o.Capture, o.LocalMAC)
	if err != nil {
		return nil, err
	}
	if o.Cache == "" {
		o.Cache = filepath.Join(o.Root, "build", "models")
	}
	lib, err := BuildNicRoCETB(o.Root, o.Config, o.Cache)
	if err != nil {
		return nil, err
	}
	self := nrPeer{mac: nrMACValue(pl.mac)}
	if pl.ip.IsValid() {
		self.ip = nrIPValue(pl.ip)
	}
	e, err := newNrEnd("top", lib, o.Config, 1, self, nrPeer{}, o.Repro)
	if err != nil {
		return nil, err
	}
	defer e.close()
	e.stall, e.gap, e.rxIdle = 0, 0, 1
	e.peerOf = func(c uint32) nrPeer {
		if tc := pl.conns[c]; tc != nil {
			return nrPeer{mac: nrMACValue([6]byte(tc.PeerMAC)), ip: nrIPValue(tc.PeerIP)}
		}
		return nrPeer{}
	}
	r := &trRun{e: e, pl: pl, next: 0x10000000}
	start := time.Now()
	runErr := r.run()
	res := r.result(len(o.Capture.Frames), time.Since(start).Seconds())
	if runErr != nil {
		return res, runErr
	}
	return res, r.check(res)
}

// run resets and programs the top, posts the first receives, feeds the frames, drains and reads the counters.
func (r *trRun) run() error {
	e := r.e
	for i := 0; i < 2; i++ {
		if err := e.step(true); err != nil {
			return err
		}
	}
	r.program()
	limit := int64(trDrainCycles)
	for _, f := range r.pl.feed {
		limit += int64(16 * (len(f)/(e.cfg.DataWidth/8) + 2))
	}
	for !r.fed || len(e.rxQ) > 0 || len(e.rxBeats) > 0 {
		if !r.fed && !e.setup && len(e.rqQ) == 0 {
			e.rxQ, r.fed, limit = r.pl.feed, true, e.cycle+limit
		}
		if (!r.fed && e.cycle > trSetupCycles) || (r.fed && e.cycle > limit) {
			return fmt.Errorf("cycle %d: MAC RX has not taken every frame (%d left; programming done: %v)\n  "+
				"reproduce: %s", e.cycle, len(e.rxQ), r.fed, e.repro)
		}
		if err := r.step(); err != nil {
			return err
		}
	}
	for i := 0; i < trDrainCycles; i++ {
		if err := r.step(); err != nil {
			return err
		}
	}
	r.counters = e.readCounters(counterNames())
	for len(e.axiQ) > 0 {
		if err := r.step(); err != nil {
			return err
		}
	}
	return nil
}

// step runs one cycle, then posts receives and checks the completions.
func (r *trRun) step() error {
	if err := r.e.step(false); err != nil {
		return err
	}
	if err := r.completions(); err != nil {
		return fmt.Errorf("%s cycle %d: %w\n  reproduce: %s", r.e.name, r.e.cycle-1, err, r.e.repro)
	}
	r.post()
	return nil
}

// program queues the AXI4-Lite writes: local addresses, enable, and each connection of the plan opened to its
// peer with TX PSN 0 and RX PSN its lowest data PSN; then the first receives.
func (r *trRun) program() {
	r.e.programLocal()
	for _, c := range r.pl.order {
		tc := r.pl.conns[c]
		tc.RxPSN = tc.rxPSN()
		r.e.openConn(c, 0, tc.RxPSN)
	}
	r.post()
}

// post keeps each connection's posted receives at RQ_DEPTH (counting those not yet completed), in message order,
// each a fresh buffer of the message's length.
func (r *trRun) post() {
	for _, c := range r.pl.order {
		tc := r.pl.conns[c]
		for tc.posted < len(tc.msgs) && tc.posted-tc.Received < nicroce.QueueDepth {
			m := tc.msgs[tc.posted]
			m.addr = r.next
			r.next += (uint64(m.bufLen()) + 4095) &^ 4095
			r.e.rqQ = append(r.e.rqQ, nrReq{conn: c, id: uint32(m.seq), addr: m.addr, len: uint32(m.bufLen())})
			r.bufs = append(r.bufs, rangeOf(m.addr, m.bufLen()))
			tc.posted++
		}
	}
}

// completions checks the completions taken since the last call: receives, OK, in message order, of a message the
// capture holds whole, the buffer equal to its bytes.
func (r *trRun) completions() error {
	for ; r.seen < len(r.e.cpls); r.seen++ {
		c := r.e.cpls[r.seen]
		tc := r.pl.conns[c.Conn]
		if !c.Recv || c.Status != 0 || tc == nil || tc.Received >= len(tc.msgs) {
			return fmt.Errorf("completion %+v: want an OK receive of a connection the capture opened", c)
		}
		m := tc.msgs[tc.Received]
		if c.ID != uint32(m.seq) || !m.whole() || int(c.Len) != m.size {
			return fmt.Errorf("completion %+v: want message %d (%d bytes, the capture holds it whole: %v)", c,
				m.seq, m.bufLen(), m.whole())
		}
		got, err := r.e.host.Mem.Read(m.addr, m.size)
		if err != nil {
			return err
		}
		if !bytes.Equal(got, m.data) {
			return fmt.Errorf("conn %d message %d (%d bytes): the receive buffer differs from the capture's bytes",
				c.Conn, m.seq, m.size)
		}
		tc.Received++
	}
	return nil
}

// counterNames are the top's counters, CNT_ dropped, in register map order.
func counterNames() []string {
	var names []string
	for _, b := range regmap.NicRoCE().Blocks {
		for _, reg := range b.Registers {
			if len(reg.Name) > 4 && reg.Name[:4] == "CNT_" && reg.Name != "CNT_CLEAR" {
				names = append(names, reg.Name[4:])
			}
		}
	}
	return names
}

// result gathers the figures of the run so far.
func (r *trRun) result(frames int, secs float64) *TopReplayResult {
	res := &TopReplayResult{Frames: frames, Fed: len(r.pl.feed), Skipped: r.pl.skipped,
		LocalMAC: net.HardwareAddr(r.pl.mac[:]), LocalIP: r.pl.ip, Sent: r.e.tx, Cycles: r.e.cycle, Seconds: secs}
	for _, c := range r.pl.order {
		tc := r.pl.conns[c]
		tc.Messages = len(tc.msgs)
		tc.Whole = 0
		for _, m := range tc.msgs {
			if m.whole() {
				tc.Whole++
			}
		}
		res.Conns = append(res.Conns, tc.TopReplayConn)
	}
	for _, n := range counterNames() {
		if v, ok := r.counters[n]; ok {
			res.Counters = append(res.Counters, TopCounter{Name: n, Value: *v})
		}
	}
	return res
}

// check holds the counters against what the run saw: roce_rx counted every frame fed once; the receive
// completions and ACK frames counted equal those seen; no send; no DMA write outside the posted buffers.
func (r *trRun) check(res *TopReplayResult) error {
	cnt := map[string]int{}
	for _, c := range res.Counters {
		cnt[c.Name] = int(c.Value)
	}
	parser := 0
	for _, n := range nrCounterNames[8:] {
		parser += cnt[n]
	}
	recvd := 0
	for _, c := range res.Conns {
		recvd += c.Received
	}
	checks := []struct {
		what      string
		got, want int
	}{
		{"roce_rx counters (every frame fed counted once)", parser, res.Fed},
		{"CNT_CPL_RECV", cnt["CPL_RECV"], recvd},
		{"CNT_CPL_ERROR", cnt["CPL_ERROR"], 0},
		{"CNT_TX_DATA", cnt["TX_DATA"], 0},
		{"CNT_TX_ACK", cnt["TX_ACK"], len(res.Sent)},
	}
	for _, c := range checks {
		if c.got != c.want {
			return fmt.Errorf("%s is %d, want %d\n  reproduce: %s", c.what, c.got, c.want, r.e.repro)
		}
	}
	if w := r.e.host.Mem.WrittenOutside(r.bufs...); len(w) > 0 {
		return fmt.Errorf("DMA wrote outside the posted receive buffers: %v\n  reproduce: %s", w, r.e.repro)
	}
	return nil
}

// Print writes the summary: what was fed, the connections, the counters that are not zero.
func (res *TopReplayResult) Print(w io.Writer, path, cfgName string) {
	fmt.Fprintf(w, "%s: %d frames, %d fed into MAC RX of the nic_roce top (config %s) as endpoint %s %v, %d to other "+
		"destinations skipped\n", path, res.Frames, res.Fed, cfgName, res.LocalMAC, res.LocalIP, res.Skipped)
	fmt.Fprintf(w, "%d cycles in lockstep with the golden twin, every output port equal (%.0f cycles/s); %d frames "+
		"sent on MAC TX\n", res.Cycles, float64(res.Cycles)/max(res.Seconds, 1e-9), len(res.Sent))
	tw := tabwriter.NewWriter(w, 2, 8, 2, ' ', 0)
	fmt.Fprintln(tw, "conn\tpeer\trx psn\tmessages\twhole in capture\treceived, checked")
	for _, c := range res.Conns {
		fmt.Fprintf(tw, "%d\t%s %v\t%#06x\t%d\t%d\t%d\n", c.Conn, c.PeerMAC, c.PeerIP, c.RxPSN, c.Messages, c.Whole,
			c.Received)
	}
	tw.Flush()
	fmt.Fprint(w, "counters not zero:")
	for _, c := range res.Counters {
		if c.Value != 0 {
			fmt.Fprintf(w, " %s %d", c.Name, c.Value)
		}
	}
	fmt.Fprintln(w)
}

// WriteSent writes the frames the top sent as a pcap.
func (res *TopReplayResult) WriteSent(w io.Writer) error { return roce.WritePcap(w, res.Sent, nil) }
