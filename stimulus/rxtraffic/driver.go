package rxtraffic

import (
	"fmt"
	"math/rand/v2"

	"github.com/spraynic/spraynic/config"
	"github.com/spraynic/spraynic/golden/rxreorder"
	"github.com/spraynic/spraynic/golden/seqnum"
	"github.com/spraynic/spraynic/stimulus/eventq"
)

// pkt is one packet descriptor travelling through the modelled network.
type pkt struct {
	// due is the cycle from which it may be delivered (or resent, in the retransmit list).
	due int64
	// conn, psn, path, pseq, handle and the flags are the descriptor fields.
	conn, psn, path, pseq, handle uint32
	first, last, ackReq, ecn      bool
}

// sender is the traffic source of one connection.
type sender struct {
	// open is true once the open was accepted; opening is true while it is queued.
	open, opening bool
	// next is the next fresh PSN; acked the highest cumulative PSN seen in an ACK.
	next, acked seqnum.PSN
	// sent counts fresh PSNs of this incarnation (message position).
	sent int64
	// stalledSince is the cycle the window was first seen full (0: not full).
	stalledSince int64
	// pseq is the next path sequence per path.
	pseq []uint32
}

// ctlOp is a queued connection-control operation.
type ctlOp struct {
	// open selects open (with psn) or close.
	open bool
	// conn is the connection; psn the initial PSN.
	conn, psn uint32
}

// Driver produces rx_reorder inputs cycle by cycle and follows the handshakes it sees.
type Driver struct {
	// cfg and prof fix the shape of the traffic; rng is the only randomness.
	cfg  config.Config
	prof Profile
	rng  *rand.Rand
	// cycles is the run length (the drain phase is at its end).
	cycles int64
	// senders has one entry per connection of the configuration.
	senders []sender
	// flight is the network, by delivery cycle; retx holds lost PSNs awaiting resend.
	flight eventq.Queue[pkt]
	retx   []pkt
	// handle numbers packets for unique handles.
	handle uint32
	// cur is the packet on s_pkt (valid while curValid), held until ready.
	cur      pkt
	curValid bool
	// ctl is the control queue; its head is on s_ctl.
	ctl []ctlOp
	// pathDelay is the fixed delay of each path.
	pathDelay []int
	// paths are the paths of the profile's mask, ascending (when it has one).
	paths []uint32
	// drain is the length of the final phase without new traffic.
	drain int64
	// resetLeft counts remaining reset cycles; cplReady and ackReady hold the bursty ready levels.
	resetLeft          int
	cplReady, ackReady bool
	// Stats counts what was offered.
	Stats Stats
}

// Stats counts the traffic offered to the DUT.
type Stats struct {
	// Packets handed over on s_pkt; Resets pulsed; Churns of a connection.
	Packets, Resets, Churns int64
}

// DrainCycles is the length of the final phase without new traffic: the profile's, or enough to complete the
// largest backlog a run can leave at one completion per cycle. Per connection in use that backlog is every PSN
// sent but not completed: up to WINDOW beyond the receiver's cumulative PSN (the sender's window) plus the lag
// before it, which reaches 2*WINDOW (docs/rx_reorder.md: a packet is taken in while every lag <= WINDOW, and its
// accept adds up to WINDOW more). A long run under completion back-pressure fills it (rx_backpressure on u250:
// 64 connections at a lag near 200 left completions behind the old bound, one WINDOW per connection).
func DrainCycles(cfg config.Config, prof Profile) int64 {
	conns := prof.Conns
	if conns == 0 {
		conns = cfg.Conns
	}
	return max(prof.Drain, int64(conns*(3*cfg.Window+3))+500)
}

// startReset is the number of reset cycles every run begins with.
const startReset = 2

// New returns a driver for cfg and the profile, seeded; cycles is the run length including the drain.
func New(cfg config.Config, prof Profile, seed uint64, cycles int64) (*Driver, error) {
	if prof.Conns > cfg.Conns {
		return nil, fmt.Errorf("test %s: uses %d connections, config %s has %d",
			prof.Name, prof.Conns, cfg.Name, cfg.Conns)
	}
	d := &Driver{cfg: cfg, prof: prof, rng: rand.New(rand.NewPCG(seed, 0x5eed5eed)), cycles: cycles,
		drain: DrainCycles(cfg, prof)}
	d.senders = make([]sender, cfg.Conns)
	for i := range d.senders {
		d.senders[i].pseq = make([]uint32, cfg.Paths)
	}
	d.pathDelay = make([]int, cfg.Paths)
	for p := range d.pathDelay {
		d.pathDelay[p] = 1 + d.rng.IntN(prof.PathSkew+1)
	}
	for p := 0; p < cfg.Paths; p++ {
		if prof.Paths>>uint(p)&1 == 1 {
			d.paths = append(d.paths, uint32(p))
		}
	}
	if prof.Paths != 0 && len(d.paths) == 0 {
		return nil, fmt.Errorf("test %s: path mask %#x has no path of config %s (paths 0..%d)",
			prof.Name, prof.Paths, cfg.Name, cfg.Paths-1)
	}
	d.openAll()
	return d, nil
}

func (d *Driver) conns() int {
	if d.prof.Conns == 0 {
		return d.cfg.Conns
	}
	return d.prof.Conns
}

func (d *Driver) initPSN() uint32 {
	if d.prof.NearWrap {
		return uint32(seqnum.PSN(0).Add(-int32(1 + d.rng.IntN(4*d.cfg.Window))))
	}
	return d.rng.Uint32() & (1<<24 - 1)
}

func (d *Driver) openAll() {
	for c := 0; c < d.conns(); c++ {
		d.senders[c].opening = true
		d.ctl = append(d.ctl, ctlOp{open: true, conn: uint32(c), psn: d.initPSN()})
	}
}

func (d *Driver) chance(p float64) bool { return p > 0 && d.rng.Float64() < p }

// Drive sets the inputs of this cycle.
func (d *Driver) Drive(cycle int64, in *rxreorder.In) {
	*in = rxreorder.In{}
	if cycle < startReset {
		in.Rst = true
		return
	}
	drain := cycle >= d.cycles-d.drain
	if d.resetLeft == 0 && !drain && d.prof.ResetEvery > 0 && cycle > 0 && d.chance(1/float64(d.prof.ResetEvery)) {
		d.resetLeft = 1 + d.rng.IntN(3)
		d.Stats.Resets++
	}
	if d.resetLeft > 0 {
		in.Rst = true
		d.resetLeft--
		if d.resetLeft == 0 {
			d.afterReset()
		}
		return
	}
	if !drain {
		d.generate(cycle)
	}
	if len(d.ctl) > 0 {
		op := d.ctl[0]
		in.CtlValid, in.CtlOpen, in.CtlConn, in.CtlPSN = true, op.open, op.conn, op.psn
	}
	if !d.curValid && d.flight.Due(cycle) {
		d.cur = d.flight.Pop()
		d.curValid = true
	}
	if d.curValid {
		p := d.cur
		in.PktValid, in.PktConn, in.PktPSN, in.PktPath, in.PktPseq = true, p.conn, p.psn, p.path, p.pseq
		in.PktFirst, in.PktLast, in.PktAckReq, in.PktECN, in.PktHandle = p.first, p.last, p.ackReq, p.ecn, p.handle
	}
	if drain {
		in.CplReady, in.AckReady = true, true
		return
	}
	if !d.prof.Bursty || cycle%16 == 0 {
		d.cplReady = d.prof.CplReady >= 1 || d.chance(d.prof.CplReady)
		d.ackReady = d.prof.AckReady >= 1 || d.chance(d.prof.AckReady)
	}
	in.CplReady, in.AckReady = d.cplReady, d.ackReady
}

// Observe follows the handshakes of the cycle.
func (d *Driver) Observe(cycle int64, in *rxreorder.In, out *rxreorder.Out) {
	if in.Rst {
		return
	}
	if in.PktValid && out.PktReady {
		d.curValid = false
		d.Stats.Packets++
	}
	if in.CtlValid && out.CtlReady {
		op := d.ctl[0]
		d.ctl = d.ctl[1:]
		s := &d.senders[op.conn]
		if op.open {
			s.open, s.opening = true, false
			s.next, s.acked, s.sent, s.stalledSince = seqnum.PSN(op.psn), seqnum.PSN(op.psn), 0, 0
			clear(s.pseq)
		} else {
			s.open = false
		}
	}
	if out.AckValid && in.AckReady {
		s := &d.senders[out.AckConn]
		cum := seqnum.PSN(out.AckPSN)
		// Only an ACK of this incarnation moves the window: an old one lies outside [acked, next].
		if s.open && cum.Sub(s.acked) > 0 && cum.Sub(s.next) <= 0 {
			s.acked = cum
		}
	}
}

// afterReset forgets everything the DUT forgot and reopens the connections.
func (d *Driver) afterReset() {
	for i := range d.senders {
		d.senders[i].open, d.senders[i].opening = false, false
	}
	d.flight.Clear()
	d.retx, d.ctl, d.curValid = d.retx[:0], d.ctl[:0], false
	d.openAll()
}

// generate is the senders' traffic of one cycle: due retransmissions, churn, new packets, packets beyond the
// window and packets to closed connections.
func (d *Driver) generate(cycle int64) {
	d.resend(cycle)
	if d.prof.ChurnEvery > 0 && d.chance(1/float64(d.prof.ChurnEvery)) {
		d.churn()
	}
	if d.chance(d.prof.Load) {
		d.send(cycle, uint32(d.rng.IntN(d.conns())))
	}
	if d.chance(d.prof.POOW) {
		c := uint32(d.rng.IntN(d.conns()))
		if s := &d.senders[c]; s.open {
			// Half of them surely beyond the window (the receiver's cumulative PSN is at most next); half around
			// its edge as the last ACK saw it (acked+WINDOW-2 .. +2), on either side of the real edge.
			psn := s.next.Add(int32(d.cfg.Window + d.rng.IntN(4*d.cfg.Window)))
			if d.rng.IntN(2) == 0 {
				psn = s.acked.Add(int32(d.cfg.Window - 2 + d.rng.IntN(5)))
			}
			p := pkt{conn: c, psn: uint32(psn), handle: d.nextHandle()}
			d.transmit(cycle, p)
		}
	}
	if d.chance(d.prof.PClosed) {
		c := uint32(d.rng.IntN(d.cfg.Conns))
		if s := &d.senders[c]; !s.open && !s.opening {
			d.flight.Push(cycle, pkt{conn: c, psn: d.rng.Uint32() & (1<<24 - 1), path: uint32(d.rng.IntN(d.cfg.Paths)),
				handle: d.nextHandle()})
		}
	}
}

// resend puts the retransmissions that are due back into the network, on a fresh path sequence.
func (d *Driver) resend(cycle int64) {
	for i := 0; i < len(d.retx); {
		if d.retx[i].due <= cycle {
			p := d.retx[i]
			d.retx[i] = d.retx[len(d.retx)-1]
			d.retx = d.retx[:len(d.retx)-1]
			if d.senders[p.conn].open {
				d.transmit(cycle, p)
			}
			continue
		}
		i++
	}
}

// send has connection c's sender send its next packet when its window has room, or probe with its oldest
// unacknowledged PSN when the window has been full for RetxDelay cycles.
func (d *Driver) send(cycle int64, c uint32) {
	s := &d.senders[c]
	if s.open && s.next.Sub(s.acked) >= int32(d.cfg.Window) {
		// Window full: after RetxDelay cycles without progress the sender resends its oldest unacknowledged
		// PSN (an RTO probe); the receiver answers a duplicate at once with its current cumulative PSN.
		if s.stalledSince == 0 {
			s.stalledSince = cycle
		} else if cycle-s.stalledSince > int64(d.prof.RetxDelay) {
			s.stalledSince = cycle
			d.transmit(cycle, pkt{conn: c, psn: uint32(s.acked), handle: d.nextHandle(), ackReq: true})
		}
	}
	if s.open && s.next.Sub(s.acked) < int32(d.cfg.Window) {
		s.stalledSince = 0
		p := pkt{conn: c, psn: uint32(s.next), handle: d.nextHandle()}
		p.first = s.sent%int64(d.prof.MsgLen) == 0
		p.last = s.sent%int64(d.prof.MsgLen) == int64(d.prof.MsgLen-1)
		// A sender asks for an ACK at the end of a message and when this packet fills its window:
		// coalescing has no timer, so without it the window could stay closed.
		p.ackReq = p.last || d.chance(d.prof.PAckReq) || s.next.Sub(s.acked) == int32(d.cfg.Window-1)
		s.next = s.next.Add(1)
		s.sent++
		d.transmit(cycle, p)
		if d.chance(d.prof.PDup) {
			d.transmit(cycle+int64(d.rng.IntN(50)), p)
		}
	}
}

func (d *Driver) nextHandle() uint32 {
	d.handle++
	return d.handle & (1<<uint(d.cfg.HandleWidth) - 1)
}

// transmit sends p on a random path: it takes the next path sequence, then the network loses it, or delays it.
func (d *Driver) transmit(cycle int64, p pkt) {
	s := &d.senders[p.conn]
	if d.prof.Paths == 0 {
		p.path = uint32(d.rng.IntN(d.cfg.Paths))
	} else {
		p.path = d.paths[d.rng.IntN(len(d.paths))]
	}
	p.pseq = s.pseq[p.path]
	s.pseq[p.path] = (s.pseq[p.path] + 1) & (1<<uint(d.cfg.PseqWidth) - 1)
	if d.chance(d.prof.PLoss) {
		if !d.chance(d.prof.PPermanent) {
			p.due = cycle + int64(d.prof.RetxDelay)
			d.retx = append(d.retx, p)
		}
		return
	}
	p.ecn = d.chance(d.prof.PECN)
	due := cycle + int64(d.pathDelay[p.path])
	if d.chance(d.prof.PJitter) {
		due += int64(d.rng.IntN(d.prof.Jitter + 1))
	}
	d.flight.Push(due, p)
}

// churn closes a random open connection and queues its reopening with a new PSN (or only the reopen).
func (d *Driver) churn() {
	c := uint32(d.rng.IntN(d.conns()))
	s := &d.senders[c]
	if !s.open || s.opening {
		return
	}
	s.open, s.opening = false, true
	d.Stats.Churns++
	// Half the time the connection is reopened without a close: an open of an open connection restarts it.
	if d.rng.IntN(2) == 0 {
		d.ctl = append(d.ctl, ctlOp{open: true, conn: c, psn: d.initPSN()})
	} else {
		d.ctl = append(d.ctl, ctlOp{open: false, conn: c}, ctlOp{open: true, conn: c, psn: d.initPSN()})
	}
	d.flight.Filter(func(p *pkt) bool { return p.conn != c })
	kr := d.retx[:0]
	for _, p := range d.retx {
		if p.conn != c {
			kr = append(kr, p)
		}
	}
	d.retx = kr
}
