package retxtraffic

import (
	"fmt"
	"math/rand/v2"
	"slices"

	"github.com/spraynic/spraynic/config"
	"github.com/spraynic/spraynic/golden/retx"
	"github.com/spraynic/spraynic/stimulus/eventq"
)

// startReset is the number of reset cycles every run begins with.
const startReset = 2

// pkt is one data packet in the network.
type pkt struct {
	// conn, psn, path and pseq are the m_pkt fields; ackReq and ecn the flags; epoch the connection epoch.
	conn, psn, path, pseq uint32
	ackReq, ecn           bool
	epoch                 int
}

// ctlOp is one s_ctl operation.
type ctlOp struct {
	open      bool
	conn, psn uint32
}

// Driver produces retx inputs cycle by cycle, models the network, the receiver and the return path, and follows
// the handshakes it sees.
type Driver struct {
	cfg  config.Config
	prof Profile
	rng  *rand.Rand
	rxp  rxParams
	// cycles is the run length; drainAt the first cycle of the drain (no new work, no loss, paths healed).
	cycles, drainAt int64
	// per connection: open, errored, epoch (bumped by every open/close/reset), the receiver, the packets left in
	// the current message, and the cycle a closed connection reopens (0: none pending).
	open, errd []bool
	epoch      []int
	rx         []*receiver
	msgLeft    []int
	reopenAt   []int64
	// lastDue keeps each (connection, path) in order.
	lastDue []int64
	// net carries data packets to the receiver; back carries ACKs to the engine; acks holds arrived ACKs in order.
	net  eventq.Queue[pkt]
	back eventq.Queue[ack]
	acks []ack
	// tx is the packet on s_tx while txValid.
	txValid               bool
	txConn, txHandle      uint32
	txFirst, txLast       bool
	ctl                   []ctlOp
	resetLeft             int
	hintRetx              bool
	hintAvoid             uint32
	handleMask, pathCount uint32
	// paths are the paths of the profile's mask, ascending (when it has one).
	paths []uint32
	// Spread profiles: nextConn is the connection whose turn is next; round[c] the order of connection c's paths
	// in its current round and roundAt[c] the position in it.
	nextConn int
	round    [][]int
	roundAt  []int
	// Stats counts what happened.
	Stats Stats
}

// Stats counts the traffic of a run.
type Stats struct {
	// Sent is new packets sent, Retx retransmissions, Acks ACKs taken, Lost data packets dropped by the network,
	// Errors connections put into error, Resets reset pulses, Reopens churned connections.
	Sent, Retx, Acks, Lost, Errors, Resets, Reopens int64
}

// DrainCycles is the final phase: long enough for the slowest recovery the profile allows (RTOs at the backoff
// cap for the tail losses, or the whole way to max retries).
func DrainCycles(cfg config.Config, prof Profile) int64 {
	tick := int64(cfg.TickCycles)
	rtt := int64(2*prof.Delay + prof.Skew*cfg.Paths + prof.Jitter)
	d := 2*int64(cfg.RTOMaxTicks)*tick + 16*int64(cfg.RTOTicks)*tick + 4*rtt + 2000
	if prof.Errors {
		var sum int64
		lim := int64(cfg.RTOTicks)
		for k := 0; k <= cfg.MaxRetries+1; k++ {
			sum += lim
			lim = min(2*lim, int64(cfg.RTOMaxTicks))
		}
		d = max(d, (sum+2)*tick+4*rtt+2000)
	}
	return d
}

// ConfigFor is the configuration a profile runs the engine with: the go-back-N profiles switch the mode.
func ConfigFor(cfg config.Config, prof Profile) config.Config {
	if prof.GBN {
		cfg.GBN = 1
	}
	return cfg
}

// New returns a driver for cfg (already ConfigFor'd) and prof with seed; cycles is the whole run length. A profile
// path mask with no path of cfg is an error.
func New(cfg config.Config, prof Profile, seed uint64, cycles int64) (*Driver, error) {
	n := cfg.Conns
	d := &Driver{cfg: cfg, prof: prof, rng: rand.New(rand.NewPCG(seed, 0x7e7a15)), cycles: cycles,
		drainAt: cycles - DrainCycles(cfg, prof),
		rxp: rxParams{window: cfg.Window, sackBits: cfg.SackBits, ackEvery: cfg.AckEvery,
			pseqMask: uint32(1)<<uint(cfg.PseqWidth) - 1, gbn: cfg.GBN == 1},
		open: make([]bool, n), errd: make([]bool, n), epoch: make([]int, n), rx: make([]*receiver, n),
		msgLeft: make([]int, n), reopenAt: make([]int64, n), lastDue: make([]int64, n*cfg.Paths),
		handleMask: uint32(1)<<uint(cfg.HandleWidth) - 1, pathCount: uint32(cfg.Paths)}
	for p := 0; p < cfg.Paths; p++ {
		if prof.Paths>>uint(p)&1 == 1 {
			d.paths = append(d.paths, uint32(p))
		}
	}
	if prof.Paths != 0 && len(d.paths) == 0 {
		return nil, fmt.Errorf("test %s: path mask %#x has no path of config %s (paths 0..%d)",
			prof.Name, prof.Paths, cfg.Name, cfg.Paths-1)
	}
	if prof.Spread {
		d.round, d.roundAt = make([][]int, n), make([]int, n)
		for c := range d.round {
			d.round[c] = d.rng.Perm(cfg.Paths)
		}
	}
	d.openAll()
	return d, nil
}

func (d *Driver) chance(p float64) bool { return p > 0 && d.rng.Float64() < p }

func (d *Driver) conns() int {
	if d.prof.Conns == 0 {
		return d.cfg.Conns
	}
	return d.prof.Conns
}

// initPSN is a connection's first PSN: random, or just below the wrap.
func (d *Driver) initPSN() uint32 {
	if d.prof.Wrap {
		return uint32(1<<24 - 1 - d.rng.IntN(3*d.cfg.Window))
	}
	return d.rng.Uint32() & psnMask
}

// openAll queues an open of every connection (the start, and after every reset).
func (d *Driver) openAll() {
	d.ctl = d.ctl[:0]
	for c := 0; c < d.cfg.Conns; c++ {
		d.ctl = append(d.ctl, ctlOp{open: true, conn: uint32(c), psn: d.initPSN()})
	}
}

// silent reports whether path p drops everything at cycle.
func (d *Driver) silent(cycle int64, p uint32) bool {
	for _, b := range d.prof.Blackouts {
		hit := b.Paths == 0 || b.Paths>>p&1 == 1
		if cycle >= b.From && cycle < b.To && hit && (cycle < d.drainAt || d.prof.Errors) {
			return true
		}
	}
	return false
}

// Drive sets this cycle's inputs.
func (d *Driver) Drive(cycle int64, in *retx.In) {
	*in = retx.In{}
	if cycle < startReset {
		in.Rst = true
		return
	}
	drain := cycle >= d.drainAt
	if d.resetting(drain) {
		in.Rst = true
		return
	}
	d.arrive(cycle, drain)
	d.churn(cycle, drain)
	// Control waits while an ACK of its connection is on s_ack (an ACK handed over belongs to the old epoch).
	if len(d.ctl) > 0 && !(len(d.acks) > 0 && d.acks[0].conn == d.ctl[0].conn) {
		op := d.ctl[0]
		in.CtlValid, in.CtlOpen, in.CtlConn, in.CtlPSN = true, op.open, op.conn, op.psn
	}
	if len(d.acks) > 0 {
		a := d.acks[0]
		in.AckValid, in.AckConn, in.AckPSN, in.AckPath, in.AckPseq = true, a.conn, a.psn, a.path, a.pseq
		in.AckSack, in.AckECN, in.AckNak = a.sack, a.ecn, a.nak
	}
	d.newWork(drain)
	in.TxValid, in.TxConn, in.TxHandle, in.TxFirst, in.TxLast = d.txValid, d.txConn, d.txHandle, d.txFirst, d.txLast
	if d.prof.PathValid >= 1 || drain || d.chance(d.prof.PathValid) {
		p := d.offerPath()
		in.PathValid, in.PathPath, in.PathEntropy = true, p, 0xC000|(p*977)&0x3FFF
	}
	in.PktReady = in.CtlValid || drain || d.prof.PktReady >= 1 || d.chance(d.prof.PktReady)
	in.FbReady = drain || d.prof.FbReady >= 1 || d.chance(d.prof.FbReady)
}

// resetting draws the reset pulses of the profile and reports whether this cycle is one of them; in it the
// network, the ACKs and the connections are forgotten and every connection queued to reopen.
func (d *Driver) resetting(drain bool) bool {
	if d.resetLeft == 0 && !drain && d.prof.ResetEvery > 0 && d.chance(1/float64(d.prof.ResetEvery)) {
		d.resetLeft = 1 + d.rng.IntN(3)
		d.Stats.Resets++
	}
	if d.resetLeft == 0 {
		return false
	}
	d.resetLeft--
	d.net.Clear()
	d.back.Clear()
	d.acks = d.acks[:0]
	d.txValid = false
	for c := range d.open {
		d.open[c], d.errd[c], d.rx[c], d.reopenAt[c] = false, false, nil, 0
		d.epoch[c]++
	}
	d.openAll()
	return true
}

// arrive delivers what is due: data packets reach the receiver (whose ACKs go on the return path), ACKs reach
// the engine's input queue, and ACKs of an old epoch leave its head.
func (d *Driver) arrive(cycle int64, drain bool) {
	for d.net.Due(cycle) {
		p := d.net.Pop()
		r := d.rx[p.conn]
		if r == nil || p.epoch != d.epoch[p.conn] {
			continue
		}
		if a, ok := r.arrive(d.rxp, p.conn, p.psn, p.path, p.pseq, p.ackReq, p.ecn); ok {
			a.epoch = p.epoch
			d.sendAck(cycle, a, drain)
		}
	}
	for d.back.Due(cycle) {
		d.acks = append(d.acks, d.back.Pop())
	}
	for len(d.acks) > 0 && d.acks[0].epoch != d.epoch[d.acks[0].conn] {
		d.acks = d.acks[1:]
	}
}

// churn closes a connection now and then and reopens it later.
func (d *Driver) churn(cycle int64, drain bool) {
	if !drain && d.prof.ChurnEvery > 0 && d.chance(1/float64(d.prof.ChurnEvery)) {
		c := uint32(d.rng.IntN(d.conns()))
		if d.open[c] {
			d.ctl = append(d.ctl, ctlOp{conn: c})
			d.reopenAt[c] = cycle + 200 + int64(d.rng.IntN(800))
			d.Stats.Reopens++
		}
	}
	for c, at := range d.reopenAt {
		if at != 0 && cycle >= at {
			d.reopenAt[c] = 0
			d.ctl = append(d.ctl, ctlOp{open: true, conn: uint32(c), psn: d.initPSN()})
		}
	}
}

// newWork puts a new packet on s_tx now and then when it is free.
func (d *Driver) newWork(drain bool) {
	if d.txValid || !d.chance(d.prof.Load) {
		return
	}
	c, ok := d.pickConn(drain)
	if !ok {
		return
	}
	d.txValid, d.txConn, d.txHandle = true, c, d.rng.Uint32()&d.handleMask
	if d.msgLeft[c] == 0 {
		d.msgLeft[c] = 1 + d.rng.IntN(d.prof.MsgMax)
		d.txFirst = true
	} else {
		d.txFirst = false
	}
	d.msgLeft[c]--
	d.txLast = d.msgLeft[c] == 0
}

// offerPath is the selector's path: never the one a retransmission must avoid when there is another.
func (d *Driver) offerPath() uint32 {
	switch {
	case d.prof.Spread && d.txValid:
		// The next path of the connection's round (a retransmission taking it leaves the round as it is).
		return uint32(d.round[d.txConn][d.roundAt[d.txConn]])
	case d.prof.Paths == 0:
		p := uint32(d.rng.IntN(d.cfg.Paths))
		if d.hintRetx && p == d.hintAvoid {
			p = (p + 1 + uint32(d.rng.IntN(d.cfg.Paths-1))) % d.pathCount
		}
		return p
	default:
		// A path of the profile's mask; another one than the avoid hint when the mask has another.
		p := d.paths[d.rng.IntN(len(d.paths))]
		if d.hintRetx && p == d.hintAvoid && len(d.paths) > 1 {
			i := slices.Index(d.paths, p)
			p = d.paths[(i+1+d.rng.IntN(len(d.paths)-1))%len(d.paths)]
		}
		return p
	}
}

// pickConn chooses the connection of new work: an open, healthy one, or now and then any (to be dropped). In the
// drain only messages already started are finished (their last packet asks for the ACK).
func (d *Driver) pickConn(drain bool) (uint32, bool) {
	if !drain && d.chance(d.prof.ClosedSend) {
		return uint32(d.rng.IntN(d.cfg.Conns)), true
	}
	n := d.conns()
	start := d.rng.IntN(n)
	if d.prof.Spread {
		start = d.nextConn
	}
	for i := 0; i < n; i++ {
		c := (start + i) % n
		if d.open[c] && !d.errd[c] && (!drain || d.msgLeft[c] > 0) {
			d.nextConn = (c + 1) % n
			return uint32(c), true
		}
	}
	return 0, false
}

// sendAck puts an ACK on the return path: lost, delayed with jitter, duplicated, or replayed late.
func (d *Driver) sendAck(cycle int64, a ack, drain bool) {
	if d.silent(cycle, a.path) || (!drain && d.chance(d.prof.AckLoss)) {
		return
	}
	due := cycle + int64(d.prof.Delay+d.rng.IntN(d.prof.Jitter+1))
	d.back.Push(due, a)
	if !drain && d.chance(d.prof.AckDup) {
		d.back.Push(due+int64(d.rng.IntN(4)), a)
	}
	if !drain && d.chance(d.prof.AckReplay) {
		d.back.Push(due+500+int64(d.rng.IntN(2500)), a)
	}
}

// Observe follows the handshakes: packets go into the network, ACKs leave the queue, control takes effect.
func (d *Driver) Observe(cycle int64, in *retx.In, out *retx.Out) {
	if in.Rst {
		return
	}
	d.hintRetx, d.hintAvoid = out.PreqValid && out.PreqRetx, out.PreqAvoid
	if in.TxValid && out.TxReady {
		d.txValid = false
		if d.prof.Spread && in.PathValid && out.PathReady {
			c := in.TxConn
			if d.roundAt[c]++; d.roundAt[c] == d.cfg.Paths {
				d.round[c], d.roundAt[c] = d.rng.Perm(d.cfg.Paths), 0
			}
		}
	}
	if out.PktValid && in.PktReady {
		d.transmit(cycle, out)
	}
	if in.AckValid && out.AckReady {
		d.acks = d.acks[1:]
		d.Stats.Acks++
	}
	if out.ErrValid {
		d.errd[out.ErrConn] = true
		d.Stats.Errors++
	}
	if in.CtlValid && out.CtlReady {
		op := d.ctl[0]
		d.ctl = d.ctl[1:]
		c := op.conn
		d.epoch[c]++
		d.open[c], d.errd[c], d.rx[c], d.msgLeft[c] = op.open, false, nil, 0
		if op.open {
			d.rx[c] = newReceiver(op.psn, d.cfg.Paths)
		}
	}
}

// transmit sends one m_pkt into the network: in order per (connection, path), lost on a lossy or silent path.
func (d *Driver) transmit(cycle int64, out *retx.Out) {
	if out.PktRetx {
		d.Stats.Retx++
	} else {
		d.Stats.Sent++
	}
	c, p := out.PktConn, out.PktPath
	drain := cycle >= d.drainAt
	lossy := d.prof.LossPaths == 0 || d.prof.LossPaths>>p&1 == 1
	if d.silent(cycle, p) || (!drain && lossy && d.chance(d.prof.Loss)) {
		d.Stats.Lost++
		return
	}
	k := int(c)*d.cfg.Paths + int(p)
	due := max(cycle+int64(d.prof.Delay+int(p)*d.prof.Skew+d.rng.IntN(d.prof.DataJitter+1)), d.lastDue[k]+1)
	d.lastDue[k] = due
	d.net.Push(due, pkt{conn: c, psn: out.PktPSN, path: p, pseq: out.PktPseq, ackReq: out.PktAckReq,
		ecn: d.chance(d.prof.ECN), epoch: d.epoch[c]})
}
