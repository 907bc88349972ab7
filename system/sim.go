package system

import (
	"cmp"
	"fmt"
	"math"
	"math/rand/v2"
	"net/netip"
	"slices"
	"time"

	"github.com/spraynic/spraynic/config"
	"github.com/spraynic/spraynic/golden/nictransport"
	"github.com/spraynic/spraynic/golden/pathsel"
	"github.com/spraynic/spraynic/golden/retx"
	"github.com/spraynic/spraynic/golden/rxreorder"
	"github.com/spraynic/spraynic/scoreboard"
	"github.com/spraynic/spraynic/system/network"
	"github.com/spraynic/spraynic/system/roce"
)

// Frame overheads in bytes on the wire (docs/protocol.md): Ethernet 14 + IPv4 20 + UDP 8 + BTH 12 + ICRC 4, plus
// FCS 4, preamble and SFD 8 and the inter-frame gap 12.
const (
	wireOverhead = 14 + 20 + 8 + roce.BTHLen + roce.ICRCLen + 4 + 8 + 12
	dataOverhead = wireOverhead + roce.SprayLen
	ackOverhead  = wireOverhead + roce.AETHLen + roce.SACKHeaderLen
)

// MaxGoodput is the best goodput at payload size mtu: the share of a data frame's wire bytes that is payload
// (4096 / 4194 = 97.66% at MTU 4096), the goodput of a port that sends nothing but full data frames. A loss
// rate L costs at least the lost packets again: (1 - L) x MaxGoodput is the best goodput at L.
func MaxGoodput(mtu int) float64 {
	pad := (4 - mtu%4) % 4
	return float64(mtu) / float64(dataOverhead+mtu+pad)
}

// resetCycles is the reset at the start of a run.
const resetCycles = 2

// ringSize is the number of packet records kept for packets in the network (a packet older than that is gone).
const ringSize = 1 << 17

// pkt is one packet in the network.
type pkt struct {
	// seq is the packet's number (its network Tag); ack says it is an ACK.
	seq uint64
	ack bool
	// d is the data descriptor; msg, off and payload the placement; retx marks a retransmission.
	d       nictransport.RxDesc
	msg     uint64
	off     int
	payload []byte
	// epoch is the sending (data) or acknowledging (ACK) endpoint's epoch of the connection when it sent it.
	epoch uint32
	// entropy is the data packet's UDP source port.
	entropy uint16
	// a is the ACK descriptor.
	a nictransport.AckDesc
}

// side is one endpoint with its host, port staging and arrival queues.
type side struct {
	// name is "A" or "B", idx 0 or 1; ep the endpoint model; in and out its ports.
	name string
	idx  int
	ep   *nictransport.Model
	in   nictransport.In
	out  nictransport.Out
	// net is the network this side's port sends into; peer the other side.
	net  *network.Network
	peer *side
	// tx and rx are the hosts; tx is nil on a side that sends no data.
	tx *txHost
	rx *rxHost
	// stageData is the packet taken from m_pkt waiting for the port; stageAcks the ACKs waiting.
	stageData *pkt
	stageAcks []*pkt
	// rxq and ackq are data and ACK packets that arrived, waiting for the endpoint.
	rxq, ackq []*pkt
	// ctlq holds the control operations (opens) waiting for s_ctl; ip is the side's address.
	ctlq []ctlOp
	ip   netip.Addr
	// epoch counts, per connection, the opens this endpoint took after the first; psn0 is the initial PSN of the
	// current epoch of the direction it sends.
	epoch []uint32
	psn0  []uint32
	// resetAt are the cycles this endpoint is reset at (Options.Resets), ascending; the reset input is high
	// until resetUntil.
	resetAt    []int64
	resetUntil int64
	// cplRng draws the receiving host's m_cpl_ready (Options.CplStall); nil: always ready.
	cplRng *rand.Rand
	// afConn is the connection m_status shows all-failed since cycle afSince (-1: none; Options.AllFailedReconnectUS).
	afConn  int
	afSince int64
	// rtoSeen is retx's cnt_retx_timeout at the last packet taken: a taken retransmission that raised it was sent
	// on an RTO.
	rtoSeen uint32
}

// reconnectAt is a reconnect of Options.Reconnects in cycles.
type reconnectAt struct {
	cycle int64
	conn  int
}

// ctlOp is one operation on s_ctl: an open (the connection, its initial PSNs, and whether it is a reconnect, of
// epoch epoch) or a close.
type ctlOp struct {
	conn, tx, rx     uint32
	reconnect, close bool
	epoch            uint32
}

// cmConn is the connection manager's state of one connection (both directions, both endpoints): a reconnect is
// due at cycle due (-1: none scheduled), then waits for the opens still pending at endpoint A and B; again asks for
// another one after it. epoch numbers the reconnects: an open of an older one (left in a queue when a reset
// restarted the reconnect) changes nothing on the hosts.
type cmConn struct {
	due     int64
	pending [2]bool
	again   bool
	epoch   uint32
	// reopened is the cycle the last reconnect completed (-1: never).
	reopened int64
	// stop is the cycle the sending hosts learn of the disconnect and stop (-1: none due; Options.HostLagUS);
	// againClose says the reconnect asked for by again closes the connection first.
	stop       int64
	againClose bool
}

// sim is one run.
type sim struct {
	// o are the options (defaults applied); cfg the block parameters; cycle the current cycle.
	o     Options
	cfg   config.Config
	cycle int64
	// a sends data to b.
	a, b *side
	// ring holds packets in the network by seq mod ringSize; seq numbers them.
	ring []pkt
	seq  uint64
	// sb is the transfer scoreboard; res collects the figures.
	sb  *scoreboard.Transfer
	res *Result
	// cm is the connection manager, per connection; quiet its wait before a reopen, lag the hosts' delay in
	// learning of a disconnect and allFailed the all-failed time that makes it reconnect (0: never) (cycles).
	cm                    []cmConn
	quiet, lag, allFailed int64
	// reconnects are the connection manager's own reconnects (Options.Reconnects), by cycle, ascending.
	reconnects []reconnectAt
	// reopenedEarly says a reconnect completed while the hosts still posted messages (before the measured end).
	reopenedEarly bool
	// arrived marks, per receiving side and connection, PSNs an endpoint took in (past the go-back-N filter; ring
	// of 4*WINDOW, value psn+1), for the spurious retransmission count.
	arrived []uint32
	// sent holds, at the index of arrived, the last transmission of a PSN; resend the cycles from it to the
	// PSN's next transmission (the time a loss took to be found and resent).
	sent   []sentAt
	resend []int64
	// mct holds message completion times (cycles); bins the delivered payload bytes per bin.
	mct  []int64
	bins []int64
	// binCycles is the bin width; measured the measured cycles (after reset and opens).
	binCycles, measured int64
	// frames and stamps collect the capture; arrFrames and arrStamps the arrivals at B.
	frames, arrFrames [][]byte
	stamps, arrStamps []time.Time
}

// Run simulates opt (after Defaults) and returns the figures. A data error, a duplicate, a lost message or an
// inconsistent network returns an error naming the first one.
func Run(opt Options) (*Result, error) {
	o := opt.Defaults().WithMode()
	cfg := o.Config
	if err := o.Validate(); err != nil {
		return nil, err
	}
	// The scoreboard numbers A->B connections 0..CONNS-1 and B->A connections CONNS..2*CONNS-1.
	s := &sim{o: o, cfg: cfg, ring: make([]pkt, ringSize), sb: scoreboard.NewTransfer(2 * cfg.Conns)}
	cyc := func(us float64) int64 { return int64(math.Round(us * float64(o.ClockMHz))) }
	s.binCycles = max(1, cyc(o.BinUS))
	s.measured = cyc(o.DurationUS)
	s.arrived = make([]uint32, 2*cfg.Conns*4*cfg.Window)
	s.sent = make([]sentAt, len(s.arrived))
	s.res = &Result{Mode: string(o.Mode), Config: cfg.Name, Paths: cfg.Paths, NetPaths: o.NetPaths, Conns: o.Conns,
		Loss: o.Loss, AckLoss: o.AckLoss, Seed: o.Seed, Msg: o.Msg, MTU: o.MTU, PortGbps: o.PortGbps,
		ClockMHz: o.ClockMHz, DurationUS: o.DurationUS}
	var err error
	if s.a, err = s.newSide("A", 0, true); err != nil {
		return nil, err
	}
	if s.b, err = s.newSide("B", 1, o.Bidir); err != nil {
		return nil, err
	}
	s.a.peer = s.b
	s.b.peer = s.a
	s.quiet = cyc(s.quietUS())
	s.lag = cyc(o.HostLagUS)
	if o.AllFailedReconnectUS > 0 {
		s.allFailed = max(1, cyc(o.AllFailedReconnectUS))
	}
	s.res.QuietUS = s.quietUS()
	s.cm = make([]cmConn, cfg.Conns)
	for c := range s.cm {
		s.cm[c] = cmConn{due: -1, reopened: -1, stop: -1}
	}
	for _, r := range o.Reconnects {
		s.reconnects = append(s.reconnects, reconnectAt{cycle: cyc(r.AtUS), conn: r.Conn})
	}
	slices.SortStableFunc(s.reconnects, func(x, y reconnectAt) int { return cmp.Compare(x.cycle, y.cycle) })
	for _, r := range o.Resets {
		sd := []*side{s.a, s.b}[r.Side]
		sd.resetAt = append(sd.resetAt, cyc(r.AtUS))
	}
	for _, sd := range []*side{s.a, s.b} {
		slices.Sort(sd.resetAt)
	}
	if err := s.run(); err != nil {
		return nil, err
	}
	if err := s.finish(); err != nil {
		return s.res, err
	}
	return s.res, nil
}

// newSide builds one endpoint, its hosts and the network its port sends into; sender says it sends data.
func (s *sim) newSide(name string, idx int, sender bool) (*side, error) {
	o, cfg := s.o, s.cfg
	ep, err := nictransport.New(cfg)
	if err != nil {
		return nil, err
	}
	net, err := network.New(o.NetConfig(idx))
	if err != nil {
		return nil, err
	}
	if t := o.Taps[idx]; t != nil {
		ep.SetTap(t)
	}
	sd := &side{name: name, idx: idx, ep: ep, net: net, ip: netip.AddrFrom4([4]byte{10, 0, 0, byte(1 + idx)}),
		epoch: make([]uint32, cfg.Conns), psn0: make([]uint32, cfg.Conns), afConn: -1}
	if o.CplStall > 0 {
		// Its own stream: a run without completion back-pressure draws nothing from it.
		sd.cplRng = rand.New(rand.NewPCG(o.Seed, 0x63706c+uint64(idx)))
	}
	for c := range sd.psn0 {
		sd.psn0[c] = s.txPSN(idx, c)
		sd.ctlq = append(sd.ctlq, ctlOp{conn: uint32(c), tx: s.txPSN(idx, c), rx: s.txPSN(1-idx, c)})
	}
	sd.rx = s.newRxHost(idx)
	if sender {
		if sd.tx, err = s.newTxHost(idx); err != nil {
			return nil, err
		}
	}
	return sd, nil
}

// newRxHost builds side idx's receiving host.
func (s *sim) newRxHost(idx int) *rxHost {
	cfg := s.cfg
	per := uint32(4 * cfg.Window)
	rx := &rxHost{conns: make([]rxConn, cfg.Conns), slots: make([]rxSlot, cfg.Conns*int(per)), slotsPer: per,
		sb: s.sb, tag: handleTag(cfg, s.o.Seed, 2*uint64(idx))}
	for c := range rx.conns {
		rx.conns[c].bufs = map[uint64][]byte{}
	}
	return rx
}

// newTxHost builds side idx's sending host, each connection starting at its initial PSN.
func (s *sim) newTxHost(idx int) (*txHost, error) {
	o, cfg := s.o, s.cfg
	dist, err := parseMsg(o.Msg)
	if err != nil {
		return nil, err
	}
	per := uint32(4 * cfg.Window)
	tx := &txHost{conns: make([]txConn, o.Conns), window: cfg.Window, mtu: o.MTU,
		slots: make([]segment, cfg.Conns*int(per)), slotsPer: per, tag: handleTag(cfg, o.Seed, 2*uint64(idx)+1),
		cur: -1, dist: dist, rng: rand.New(rand.NewPCG(o.Seed, 0x6d7367+uint64(idx))), backlog: o.Backlog,
		sb: s.sb, sbBase: idx * cfg.Conns}
	for c := range tx.conns {
		tx.conns[c].psn = s.txPSN(idx, c)
		tx.conns[c].una = s.txPSN(idx, c)
	}
	return tx, nil
}

// startPSN is the initial PSN of connection c in the A->B direction (B->A uses the same plus 2^23): StartPSN for
// connection 0, StartPSN plus an offset drawn from the seed for the others, so that over a few seeds every bit of
// every connection's PSN state takes both values.
func (s *sim) startPSN(c int) uint32 {
	off := uint32(0)
	if c > 0 {
		off = uint32(splitmix(s.o.Seed ^ (0x7073_6e00_0000_0000 + uint64(c))))
	}
	return (s.o.StartPSN + off) & (1<<24 - 1)
}

// handleTag is a host handle table's tag: random from the seed (k names the table) in the bits of HANDLE_WIDTH
// above the table's index (conns * 4 * WINDOW entries), zero below.
func handleTag(cfg config.Config, seed, k uint64) uint32 {
	low := config.Log2(cfg.Conns * 4 * cfg.Window)
	if low >= cfg.HandleWidth {
		return 0
	}
	mask := uint32(1<<uint(cfg.HandleWidth)-1) &^ uint32(1<<uint(low)-1)
	return uint32(splitmix(seed^(0x6864_6c00_0000_0000+k))) & mask
}

// txPSN is the initial PSN of connection c sent by side idx.
func (s *sim) txPSN(idx, c int) uint32 { return s.startPSN(c) ^ uint32(idx)<<23 }

// quietUS is the connection manager's wait before a reopen (Options.quietUS).
func (s *sim) quietUS() float64 { return s.o.quietUS() }

// splitmix is the SplitMix64 finaliser, to derive independent seeds.
func splitmix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	return x ^ x>>31
}

// run steps both endpoints until the measured time has passed and every posted message is delivered or
// aborted, or the drain limit is hit.
func (s *sim) run() error {
	o := s.o
	opens := int64(resetCycles + s.cfg.Conns)
	end := opens + s.measured
	limit := end + int64(math.Round(o.DrainUS*float64(o.ClockMHz)))
	for s.cycle = 0; ; s.cycle++ {
		if s.cycle == end {
			for _, sd := range []*side{s.a, s.b} {
				if sd.tx != nil {
					sd.tx.closed = true
				}
			}
		}
		if s.cycle >= end && s.sb.Outstanding() == 0 && s.idle() {
			break
		}
		if s.cycle >= limit {
			return fmt.Errorf("drain: %d message(s) still outstanding %g us after the measured time (seed %d)",
				s.sb.Outstanding(), o.DrainUS, o.Seed)
		}
		s.scheduled()
		if err := s.cycleOnce(opens); err != nil {
			return err
		}
		if o.Progress != nil && s.cycle%ProgressCycles == 0 && s.cycle > 0 {
			o.Progress(Progress{Cycle: s.cycle, Cycles: end, Packets: s.res.DataPackets, Goodput: s.goodputSoFar()})
		}
	}
	s.res.Cycles = s.cycle
	return nil
}

// scheduled starts what is due in this cycle: endpoint resets, the connection manager's own reconnects, and its
// timers (the hosts learning of a disconnect, reopens after the quiet time).
func (s *sim) scheduled() {
	for _, sd := range []*side{s.a, s.b} {
		// (Two resets of one endpoint in the same cycle are one reset.)
		if len(sd.resetAt) > 0 && sd.resetAt[0] <= s.cycle {
			for len(sd.resetAt) > 0 && sd.resetAt[0] <= s.cycle {
				sd.resetAt = sd.resetAt[1:]
			}
			s.reset(sd)
		}
	}
	for len(s.reconnects) > 0 && s.reconnects[0].cycle <= s.cycle {
		s.disconnect(s.reconnects[0].conn, true)
		s.reconnects = s.reconnects[1:]
	}
	for c := range s.cm {
		if m := &s.cm[c]; m.stop >= 0 && s.cycle >= m.stop {
			s.stopHosts(c)
		}
		if m := &s.cm[c]; m.due >= 0 && s.cycle >= m.due {
			s.reopen(c)
		}
	}
}

// cycleOnce runs one cycle: the sending hosts post (once the opens are done, from cycle opens), both endpoints
// step, then the packets that arrived are delivered.
func (s *sim) cycleOnce(opens int64) error {
	if s.cycle >= opens {
		for _, sd := range []*side{s.a, s.b} {
			if sd.tx == nil {
				continue
			}
			if err := sd.tx.post(); err != nil {
				return err
			}
		}
	}
	for _, sd := range []*side{s.a, s.b} {
		if err := s.step(sd); err != nil {
			return fmt.Errorf("cycle %d, endpoint %s: %w", s.cycle, sd.name, err)
		}
	}
	for _, sd := range []*side{s.a, s.b} {
		if err := s.deliver(sd); err != nil {
			return fmt.Errorf("cycle %d, arrivals at %s: %w", s.cycle, sd.peer.name, err)
		}
	}
	return nil
}

// idle reports that no packet is staged, queued or in the network, and every packet a healthy connection sent
// is acknowledged as far as its host has seen.
func (s *sim) idle() bool {
	for _, sd := range []*side{s.a, s.b} {
		if sd.stageData != nil || len(sd.stageAcks) > 0 || len(sd.rxq) > 0 || len(sd.ackq) > 0 ||
			sd.net.Pending() > 0 || len(sd.ctlq) > 0 || len(sd.resetAt) > 0 || len(s.reconnects) > 0 {
			return false
		}
		if sd.tx == nil {
			continue
		}
		for c := range sd.tx.conns {
			if tc := &sd.tx.conns[c]; !tc.down && tc.una != tc.psn {
				return false
			}
		}
	}
	for c := range s.cm {
		if s.cm[c].due >= 0 || s.cm[c].busy() {
			return false
		}
	}
	return true
}

// inReset reports that sd's reset input is high this cycle: the reset at the start, and each Options.Resets
// reset of it (resetCycles long).
func (s *sim) inReset(sd *side) bool { return s.cycle < resetCycles || s.cycle < sd.resetUntil }

// busy reports that a reconnect waits for an open.
func (m *cmConn) busy() bool { return m.pending[0] || m.pending[1] }

// reset takes sd through a reset in the middle of traffic: the packets it held are gone, its waiting control
// operations too, and every connection is closed in the NIC. A sending host knows its NIC was reset, so the
// connection manager reconnects its connections; a receive-only endpoint is not reconnected until its peer's
// connections go to error (retx MAX_RETRIES), as nothing tells the peer otherwise.
func (s *sim) reset(sd *side) {
	s.res.Resets++
	sd.resetUntil = s.cycle + resetCycles
	sd.rtoSeen = 0 // the reset clears retx's counters
	sd.stageData = nil
	sd.stageAcks = nil
	sd.rxq = nil
	sd.ackq = nil
	sd.ctlq = nil
	for c := range s.cm {
		m := &s.cm[c]
		if m.busy() {
			// A reconnect in progress lost this endpoint's open: start it over (the peer's open of it, if still
			// queued, is of an older epoch then and changes nothing).
			m.pending = [2]bool{}
			m.again = false
			m.againClose = false
			s.disconnect(c, false)
			continue
		}
		if sd.tx != nil {
			s.disconnect(c, false)
		}
	}
}

// disconnect schedules a reconnect of connection c (both directions, both endpoints) after the quiet time: the
// sending hosts stop handing its packets and drop the messages not yet handed (the scoreboard aborts them, and
// the ones handed but not delivered, when the receiver reopens), at once or after the host lag. With close, the
// connection is closed at both endpoints now (closing). A reconnect in progress is followed by another.
func (s *sim) disconnect(c int, closing bool) {
	m := &s.cm[c]
	switch {
	case m.busy():
		m.again = true
		m.againClose = m.againClose || closing
		return
	case m.due >= 0:
		return
	}
	m.due = s.cycle + s.quiet
	if closing {
		for _, sd := range []*side{s.a, s.b} {
			sd.ctlq = append(sd.ctlq, ctlOp{conn: uint32(c), close: true})
		}
	}
	if s.lag > 0 {
		m.stop = s.cycle + s.lag
		return
	}
	s.stopHosts(c)
}

// stopHosts makes the sending hosts stop handing packets of connection c and drop its messages not yet handed
// (an offer on s_tx for c is withdrawn).
func (s *sim) stopHosts(c int) {
	s.cm[c].stop = -1
	for _, sd := range []*side{s.a, s.b} {
		if sd.tx == nil || c >= len(sd.tx.conns) {
			continue
		}
		tc := &sd.tx.conns[c]
		tc.down = true
		tc.queue = nil
		tc.off = 0
		if sd.tx.cur == c {
			sd.tx.cur = -1
		}
	}
}

// reopen queues the reconnect of connection c at both endpoints: each direction restarts 2^23 PSNs past where
// it was, so a packet of the old epoch is far outside the new window.
func (s *sim) reopen(c int) {
	m := &s.cm[c]
	if m.stop >= 0 {
		s.stopHosts(c) // (the host lag is below the quiet time: not reached)
	}
	m.due = -1
	m.pending = [2]bool{true, true}
	m.epoch++
	s.res.Reconnects++
	var next [2]uint32
	for _, sd := range []*side{s.a, s.b} {
		base := sd.psn0[c]
		if sd.tx != nil && c < len(sd.tx.conns) {
			base = sd.tx.conns[c].psn
		}
		next[sd.idx] = (base + 1<<23) & (1<<24 - 1)
	}
	for _, sd := range []*side{s.a, s.b} {
		op := ctlOp{conn: uint32(c), tx: next[sd.idx], rx: next[1-sd.idx], reconnect: true, epoch: m.epoch}
		sd.ctlq = append(sd.ctlq, op)
	}
}

// opened applies a reconnect's open, taken by sd's NIC, to its hosts: the receive side of c starts over at the
// new PSN (the sender's undelivered messages of the old epoch are aborted now, when nothing of them can complete
// any more), the send side continues at its new PSN.
func (s *sim) opened(sd *side, op ctlOp) {
	c := int(op.conn)
	m := &s.cm[c]
	if op.epoch != m.epoch || !m.pending[sd.idx] {
		return // an open of a reconnect a reset restarted: the newer one follows
	}
	sd.epoch[c] = op.epoch
	sd.psn0[c] = op.tx
	next := uint64(0)
	if pt := sd.peer.tx; pt != nil && c < len(pt.conns) {
		s.sb.Abort(pt.sbBase + c)
		pt.conns[c].starts = nil
		next = pt.conns[c].nextID
	}
	sd.rx.conns[c] = rxConn{bufs: map[uint64][]byte{}, next: next, psn: op.rx, started: true}
	for h := c * int(sd.rx.slotsPer); h < (c+1)*int(sd.rx.slotsPer); h++ {
		sd.rx.slots[h] = rxSlot{}
	}
	if sd.tx != nil && c < len(sd.tx.conns) {
		tc := &sd.tx.conns[c]
		tc.psn = op.tx
		tc.una = op.tx
	}
	if m.pending[sd.idx] = false; m.busy() {
		return
	}
	m.reopened = s.cycle
	if s.cycle < int64(resetCycles+s.cfg.Conns)+s.measured {
		s.reopenedEarly = true
	}
	for _, x := range []*side{s.a, s.b} {
		if x.tx != nil && c < len(x.tx.conns) {
			x.tx.conns[c].down = false
		}
	}
	if m.again {
		closing := m.againClose
		m.again = false
		m.againClose = false
		s.disconnect(c, closing)
	}
}

// step drives one endpoint for one cycle and follows its handshakes.
func (s *sim) step(sd *side) error {
	in := &sd.in
	tc := s.drive(sd)
	if f := s.o.Inputs[sd.idx]; f != nil {
		f(in)
	}
	out := &sd.out
	sd.ep.Step(in, out)
	if in.Rst {
		return nil
	}
	s.inputsTaken(sd, tc)
	if out.Retx.ErrValid {
		s.res.Errors++
		if c := int(out.Retx.ErrConn); c < len(s.cm) {
			s.disconnect(c, false)
		}
	}
	if s.allFailed > 0 {
		s.watchAllFailed(sd, &out.PathSel)
	}
	if err := s.outputsTaken(sd); err != nil {
		return err
	}
	// A reconnect's open takes effect on the hosts after this cycle's completion (which the NIC made before it).
	if in.CtlValid && out.CtlReady {
		op := sd.ctlq[0]
		sd.ctlq = sd.ctlq[1:]
		if op.reconnect {
			s.opened(sd, op)
		}
	}
	return s.port(sd)
}

// drive sets sd's inputs for this cycle: reset, the next control operation, the host's packet on s_tx (its
// connection is returned, -1: none), completion back-pressure, the status poller, the port's readies and the
// packets that arrived.
func (s *sim) drive(sd *side) int {
	in := &sd.in
	now := s.cycle
	in.Rst = s.inReset(sd)
	// Control: the waiting opens, one per cycle (every connection after the reset at the start; reconnects).
	in.CtlValid = !in.Rst && len(sd.ctlq) > 0
	if in.CtlValid {
		op := sd.ctlq[0]
		in.CtlOpen = !op.close
		in.CtlConn = op.conn
		in.CtlTxPSN = op.tx
		in.CtlRxPSN = op.rx
	}
	// Host TX.
	tc := -1
	in.TxValid = false
	if sd.tx != nil && !in.Rst && !in.CtlValid {
		if tc = sd.tx.pick(); tc >= 0 {
			in.TxValid = true
			in.TxConn = uint32(tc)
			in.TxHandle, in.TxFirst, in.TxLast = sd.tx.head(tc)
		}
	}
	in.CplReady = sd.cplRng == nil || sd.cplRng.Float64() >= s.o.CplStall
	// The host's status poller reads one (connection, path) of path_sel per cycle, round robin (read-only ports).
	in.RdPath = uint32(now % int64(s.cfg.Paths))
	in.RdConn = uint32(now / int64(s.cfg.Paths) % int64(s.cfg.Conns))
	in.PktReady = sd.stageData == nil
	in.AckOutReady = len(sd.stageAcks) < 16
	in.RxValid = len(sd.rxq) > 0
	if in.RxValid {
		in.Rx = sd.rxq[0].d
	}
	in.AckInValid = len(sd.ackq) > 0
	if in.AckInValid {
		in.AckIn = sd.ackq[0].a
	}
	return tc
}

// inputsTaken follows the inputs sd's NIC took: the host's packet of connection tc, an arrived data packet (a
// PSN that reached the endpoint, for the spurious count), an arrived ACK (the host's view of the window).
func (s *sim) inputsTaken(sd *side, tc int) {
	in, out := &sd.in, &sd.out
	if in.TxValid && out.Retx.TxReady {
		sd.tx.taken(tc, s.cycle, sd.epoch[tc])
	}
	if in.RxValid && out.RxReady {
		if d := &sd.rxq[0].d; !out.RxFiltered {
			s.arrived[s.arrIdx(sd.idx, d.Conn, d.PSN)] = d.PSN + 1
		}
		sd.rxq = sd.rxq[1:]
	}
	if in.AckInValid && out.AckInReady {
		a := &sd.ackq[0].a
		if sd.tx != nil && !a.Nak && int(a.Conn) < len(sd.tx.conns) && sd.ackq[0].epoch == sd.epoch[a.Conn] {
			tcn := &sd.tx.conns[a.Conn]
			if d := int32((a.PSN-tcn.una)<<8) >> 8; d > 0 {
				tcn.una = a.PSN
			}
		}
		sd.ackq = sd.ackq[1:]
	}
}

// outputsTaken follows the outputs sd's port and host took: a data packet into the port's staging buffer, an
// ACK into the ACK buffer, and a completion at the receiving host.
func (s *sim) outputsTaken(sd *side) error {
	in, out := &sd.in, &sd.out
	r := &out.Retx
	if r.PktValid && in.PktReady {
		if err := s.takePacket(sd, r); err != nil {
			return err
		}
	}
	if out.AckOutValid && in.AckOutReady {
		p := s.newPkt()
		p.ack = true
		p.a = out.AckOut
		p.epoch = sd.epoch[out.AckOut.Conn]
		sd.stageAcks = append(sd.stageAcks, p)
	}
	if out.Rx.CplValid && in.CplReady {
		if err := s.completion(sd, &out.Rx); err != nil {
			return err
		}
	}
	return nil
}

// watchAllFailed follows sd's m_status_all_failed / m_status_conn: a connection shown all-failed for the
// all-failed time is reconnected, closed first (Options.AllFailedReconnectUS), unless a reconnect of it is
// already under way.
func (s *sim) watchAllFailed(sd *side, ps *pathsel.Out) {
	c := int(ps.StatusConn)
	if !ps.StatusAllFail || c >= len(s.cm) || s.cm[c].due >= 0 || s.cm[c].busy() {
		// (While a reconnect of c is under way the status is of the old connection: the time starts over after it.)
		sd.afConn = -1
		return
	}
	if c != sd.afConn {
		sd.afConn = c
		sd.afSince = s.cycle
	}
	if s.cycle-sd.afSince >= s.allFailed {
		s.res.AllFailedReconnects++
		s.disconnect(c, true)
		sd.afConn = -1
	}
}

// newPkt returns the next packet record of the ring.
func (s *sim) newPkt() *pkt {
	p := &s.ring[s.seq%ringSize]
	*p = pkt{seq: s.seq}
	s.seq++
	return p
}

// takePacket turns an m_pkt descriptor into a data packet with the payload its handle names.
func (s *sim) takePacket(sd *side, r *retx.Out) error {
	if sd.tx == nil {
		return fmt.Errorf("data error: endpoint %s sent a packet (conn %d psn %#x) but its host posted nothing",
			sd.name, r.PktConn, r.PktPSN)
	}
	seg, err := sd.tx.lookup(r.PktHandle, r.PktConn, r.PktPSN)
	if err != nil {
		return err
	}
	if seg.first != r.PktFirst || seg.last != r.PktLast {
		return fmt.Errorf("data error: packet conn %d psn %#x flags first/last %v/%v, host handed %v/%v",
			r.PktConn, r.PktPSN, r.PktFirst, r.PktLast, seg.first, seg.last)
	}
	p := s.newPkt()
	p.d = nictransport.RxDesc{Conn: r.PktConn, PSN: r.PktPSN, Path: r.PktPath, Pseq: r.PktPseq, First: r.PktFirst,
		Last: r.PktLast, AckReq: r.PktAckReq}
	p.msg = seg.msg.id
	p.off = seg.off
	p.payload = seg.msg.data[seg.off : seg.off+seg.n]
	p.epoch = seg.epoch
	p.entropy = uint16(r.PktEntropy)
	sd.stageData = p
	s.res.DataPackets++
	s.noteSent(sd, r)
	if r.PktRetx {
		s.res.Retransmissions++
		arrived := s.arrived[s.arrIdx(sd.peer.idx, r.PktConn, r.PktPSN)] == r.PktPSN+1
		if arrived {
			s.res.Spurious++
		}
		if r.CntRetxTimeout != sd.rtoSeen && !arrived {
			s.res.RetxTimeoutNeeded++
		}
	}
	sd.rtoSeen = r.CntRetxTimeout
	return nil
}

// sentAt is a transmission: psn+1 (0: none) and its cycle.
type sentAt struct {
	psn1 uint32
	at   int64
}

// noteSent records sd's transmission r, and for a retransmission the cycles since the PSN's previous one.
func (s *sim) noteSent(sd *side, r *retx.Out) {
	st := &s.sent[s.arrIdx(sd.peer.idx, r.PktConn, r.PktPSN)]
	if r.PktRetx && st.psn1 == r.PktPSN+1 {
		s.resend = append(s.resend, s.cycle-st.at)
	}
	*st = sentAt{psn1: r.PktPSN + 1, at: s.cycle}
}

// arrIdx is the index of (receiving side, conn, psn) in arrived.
func (s *sim) arrIdx(side int, conn, psn uint32) int {
	per := uint32(4 * s.cfg.Window)
	return side*s.cfg.Conns*int(per) + int(conn*per+psn%per)
}

// port starts the next staged packet when the port is free: ACKs first.
func (s *sim) port(sd *side) error {
	if !sd.net.PortFree(s.cycle) {
		return nil
	}
	var p *pkt
	var np network.Packet
	switch {
	case len(sd.stageAcks) > 0:
		p = sd.stageAcks[0]
		sd.stageAcks = sd.stageAcks[1:]
		np = network.Packet{Bytes: ackOverhead + 4*s.sackWords(),
			Entropy: uint16(pathsel.E0(s.cfg.Paths, p.a.Conn, p.a.Path)), Tag: p.seq}
		s.res.AckPackets++
	case sd.stageData != nil:
		p = sd.stageData
		sd.stageData = nil
		pad := (4 - len(p.payload)%4) % 4
		np = network.Packet{Bytes: dataOverhead + len(p.payload) + pad, Entropy: p.entropy, Tag: p.seq}
	default:
		return nil
	}
	if s.o.Capture != nil {
		if err := s.capture(sd, p, np.Entropy, false, &s.frames, &s.stamps); err != nil {
			return err
		}
	}
	return sd.net.Send(s.cycle, np)
}

// sackWords is the SACK bitmap length in 32-bit words.
func (s *sim) sackWords() int { return max(1, s.cfg.SackBits/32) }

// deliver moves the packets that arrived at sd's peer into its queues; data is placed on arrival.
func (s *sim) deliver(sd *side) error {
	peer := sd.peer
	for {
		np, ok := sd.net.Poll(s.cycle)
		if !ok {
			return nil
		}
		p := &s.ring[np.Tag%ringSize]
		if p.seq != np.Tag {
			return fmt.Errorf("packet %d left the network after its record was reused (more than %d packets in flight)",
				np.Tag, ringSize)
		}
		if p.ack {
			peer.ackq = append(peer.ackq, p)
			continue
		}
		p.d.ECN = np.CE
		if s.o.fault != nil {
			s.o.fault(p)
		}
		p.d.Handle = peer.rx.handle(p.d.Conn, p.d.PSN)
		if p.epoch != peer.epoch[p.d.Conn] {
			// A packet of the connection's previous epoch: the receiving host has no buffer for it any more, so it
			// is not placed; the NIC must not complete it (a completion would find nothing placed).
			s.res.Stale++
		} else if err := peer.rx.place(p.d.Conn, p.d.PSN, p.msg, p.off, p.payload, p.d.First, p.d.Last); err != nil {
			return err
		}
		peer.rxq = append(peer.rxq, p)
		if s.o.Arrivals != nil && peer == s.b {
			if err := s.capture(sd, p, np.Entropy, np.CE, &s.arrFrames, &s.arrStamps); err != nil {
				return err
			}
		}
	}
}

// completion takes one m_cpl completion at sd's receiving host.
func (s *sim) completion(sd *side, o *rxreorder.Out) error {
	msg, data, done, err := sd.rx.complete(o.CplConn, o.CplPSN, o.CplHandle, o.CplFirst, o.CplLast)
	if err != nil {
		return err
	}
	slot := &sd.rx.slots[sd.rx.index(o.CplConn, o.CplPSN)] // complete checked the handle
	n := int64(slot.n)
	measuring := s.cycle < int64(resetCycles+s.cfg.Conns)+s.measured
	if sd != s.b {
		// B->A traffic (bidirectional runs): its own goodput, not in the series.
		if measuring {
			s.res.PayloadBytesBA += n
		}
	} else if s.cycle >= int64(resetCycles+s.cfg.Conns) {
		b := (s.cycle - int64(resetCycles+s.cfg.Conns)) / s.binCycles
		for int64(len(s.bins)) <= b {
			s.bins = append(s.bins, 0)
		}
		s.bins[b] += n
	}
	if sd == s.b && measuring {
		s.res.PayloadBytes += n
	}
	if !done {
		return nil
	}
	c := int(o.CplConn)
	if err := s.sb.Deliver(sd.peer.idx*s.cfg.Conns+c, msg, data); err != nil {
		return err
	}
	s.res.Messages++
	if s.cm[c].reopened >= 0 {
		s.res.ReconnectedMessages++
	}
	if sd.peer.tx != nil && c < len(sd.peer.tx.conns) {
		// The sender's message record is gone (fully handed over); its start is kept by the scoreboard order,
		// so the host keeps starts in a per-connection FIFO.
		st := sd.peer.tx.popStart(c)
		s.mct = append(s.mct, s.cycle-st)
	}
	return nil
}

// goodputSoFar is the payload delivered over the cycles measured so far, as a fraction of the port rate.
func (s *sim) goodputSoFar() float64 {
	t := min(s.cycle, int64(resetCycles+s.cfg.Conns)+s.measured) - int64(resetCycles+s.cfg.Conns)
	if t <= 0 {
		return 0
	}
	return float64(s.res.PayloadBytes) / s.capacity(t)
}

// capacity is the bytes the port can carry in t cycles.
func (s *sim) capacity(t int64) float64 { return s.o.Capacity(t) }

// capture builds the frame of p as sd's port sent it and appends it with its simulated time.
func (s *sim) capture(sd *side, p *pkt, entropy uint16, ce bool, frames *[][]byte, stamps *[]time.Time) error {
	h := roce.Header{SrcIP: sd.ip, DstIP: sd.peer.ip, SrcPort: entropy, TTL: 64, ECN: roce.ECNECT0,
		PKey: roce.DefaultPKey}
	h.SrcMAC = [6]byte{0x02, 0, 0, 0, 0, sd.ip.As4()[3]}
	h.DstMAC = [6]byte{0x02, 0, 0, 0, 0, sd.peer.ip.As4()[3]}
	if ce {
		h.ECN = roce.ECNCE
	}
	var f []byte
	var err error
	if p.ack {
		h.DestQP = uint32(s.cfg.QPNBase) + p.a.Conn // the receiver's QP of the connection
		a := roce.Ack{Header: h, CumPSN: p.a.PSN, NAK: p.a.Nak, HasSACK: true, Path: uint8(p.a.Path),
			PNext: p.a.Pseq, ECNEcho: p.a.ECN, Words: uint8(s.sackWords())}
		for i := 0; i < s.cfg.SackBits; i++ {
			if p.a.Sack.Bit(i) {
				a.Bitmap[i/32] |= 1 << (i % 32)
			}
		}
		f, err = roce.BuildAck(&a)
	} else {
		h.DestQP = uint32(s.cfg.QPNBase) + p.d.Conn
		d := roce.Data{Header: h, PSN: p.d.PSN, AckReq: p.d.AckReq, Path: uint8(p.d.Path), PSeq: p.d.Pseq,
			First: p.d.First, Last: p.d.Last, MsgID: uint32(p.msg), Offset: uint32(p.off), Payload: p.payload}
		f, err = roce.BuildData(&d)
	}
	if err != nil {
		return fmt.Errorf("capture: %w", err)
	}
	*frames = append(*frames, f)
	*stamps = append(*stamps, time.Unix(0, s.cycle*1000/int64(s.o.ClockMHz)))
	return nil
}
