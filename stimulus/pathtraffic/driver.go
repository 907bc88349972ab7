package pathtraffic

import (
	"math/rand/v2"

	"github.com/spraynic/spraynic/config"
	"github.com/spraynic/spraynic/golden/pathsel"
	"github.com/spraynic/spraynic/stimulus/eventq"
)

// startReset is the number of reset cycles every run begins with.
const startReset = 2

// fbEvent is one feedback message.
type fbEvent struct {
	// conn, path, kind and count are the s_fb fields.
	conn, path, kind, count uint32
}

// link is the condition of one network link.
type link struct {
	// dead drops everything; ecn and loss are probabilities.
	dead      bool
	ecn, loss float64
}

// Driver produces path_sel inputs and models the network and the retransmit engine's feedback.
type Driver struct {
	// cfg, prof and rng fix the traffic.
	cfg  config.Config
	prof Profile
	rng  *rand.Rand
	// cycles is the run length; drain the final phase without requests.
	cycles, drain int64
	// links is the network; next is the index of the next link event.
	links []link
	next  int
	// fb is the feedback queue, by the cycle each becomes known.
	fb eventq.Queue[fbEvent]
	// cur is the feedback on s_fb, held until taken.
	cur      fbEvent
	curValid bool
	// req is the request on s_req (valid while reqValid).
	reqValid bool
	reqConn  uint32
	reqRetx  bool
	reqAvoid uint32
	lastLoss []uint32
	ctlValid bool
	ctlConn  uint32
	// ctlAim holds a reopen back until a loss or timeout feedback is on s_fb, then reopens its connection in
	// that cycle (control overrides the feedback: docs/path_sel.md, "Control").
	ctlAim         bool
	resetLeft      int
	rdConn, rdPath uint32
	// flood is the (connection, path) index of the next flood report.
	flood int
	// fillGrow, fillPerConn and fillEmpty are the Fill profile's phase sizes (FillPhases), computed once;
	// fillFb, fillReq and fillDec count its reports, requests and decisions.
	fillGrow, fillPerConn, fillEmpty int64
	fillFb, fillReq, fillDec         int64
	// Stats counts what happened.
	Stats Stats
}

// Stats counts the traffic of a run.
type Stats struct {
	// Requests taken, Decisions seen, Feedback events taken, Resets pulsed.
	Requests, Decisions, Feedback, Resets int64
}

// DrainCycles is the final phase: every packet sent has had its feedback (RTO plus slack).
func DrainCycles(prof Profile) int64 { return int64(prof.RTO + 2*prof.RTT + 2*prof.Jitter + 500) }

// New returns a driver for cfg and prof with seed; cycles is the whole run length.
func New(cfg config.Config, prof Profile, seed uint64, cycles int64) *Driver {
	d := &Driver{cfg: cfg, prof: prof, rng: rand.New(rand.NewPCG(seed, 0xbadc0ffee)), cycles: cycles,
		drain: DrainCycles(prof)}
	d.links = make([]link, prof.Links*cfg.Paths)
	d.lastLoss = make([]uint32, cfg.Conns)
	if prof.Fill {
		d.fillGrow, d.fillPerConn, d.fillEmpty = FillPhases(cfg)
	}
	return d
}

func (d *Driver) chance(p float64) bool { return p > 0 && d.rng.Float64() < p }

// paused is true in the profile's request pause.
func (d *Driver) paused(cycle int64) bool {
	return d.prof.PauseTicks > 0 && cycle >= d.prof.PauseAt && cycle < d.prof.PauseAt+d.prof.PauseCycles(d.cfg)
}

func (d *Driver) conns() int {
	if d.prof.Conns == 0 {
		return d.cfg.Conns
	}
	return d.prof.Conns
}

// Link returns the link an entropy hashes onto (the ECMP model).
func (d *Driver) Link(entropy uint32) int {
	return int((entropy*2654435761)>>16) % len(d.links)
}

// Drive sets this cycle's inputs.
func (d *Driver) Drive(cycle int64, in *pathsel.In) {
	*in = pathsel.In{RdConn: d.rdConn, RdPath: d.rdPath}
	d.rdPath = (d.rdPath + 1) % uint32(d.cfg.Paths)
	if d.rdPath == 0 {
		d.rdConn = (d.rdConn + 1) % uint32(d.cfg.Conns)
	}
	if cycle < startReset {
		in.Rst = true
		return
	}
	d.applyEvents(cycle)
	drain := cycle >= d.cycles-d.drain
	if d.resetting(drain) {
		in.Rst = true
		return
	}
	if d.prof.Fill {
		d.fill(drain)
	} else if !d.reqValid && !drain && !d.paused(cycle) && d.chance(d.prof.Load) {
		d.request(cycle)
	}
	if !d.ctlValid && !d.ctlAim && !drain && d.prof.ChurnEvery > 0 && d.chance(1/float64(d.prof.ChurnEvery)) {
		// Half the reopens are of a random connection; the other half wait for a loss or timeout report and
		// reopen its connection in the same cycle, a case random timing would almost never give.
		if d.chance(0.5) {
			d.ctlAim = true
		} else {
			d.ctlValid, d.ctlConn = true, uint32(d.rng.IntN(d.conns()))
		}
	}
	d.feedback(cycle, drain)
	if d.ctlAim && !d.ctlValid && !drain && d.curValid && d.cur.kind >= pathsel.FbLoss {
		d.ctlValid, d.ctlConn, d.ctlAim = true, d.cur.conn, false
	}
	in.ReqValid, in.ReqConn, in.ReqRetx, in.ReqAvoid = d.reqValid, d.reqConn, d.reqRetx, d.reqAvoid
	in.CtlValid, in.CtlConn = d.ctlValid, d.ctlConn
	if d.curValid {
		in.FbValid, in.FbConn, in.FbPath, in.FbKind, in.FbCount = true, d.cur.conn, d.cur.path, d.cur.kind, d.cur.count
	}
	in.SelReady = drain || d.prof.SelReady >= 1 || d.chance(d.prof.SelReady)
}

// applyEvents changes the links by the profile's events due at cycle.
func (d *Driver) applyEvents(cycle int64) {
	for d.next < len(d.prof.Events) && d.prof.Events[d.next].At <= cycle {
		e := d.prof.Events[d.next]
		for l := range d.links {
			if e.Link < 0 || e.Link == l {
				d.links[l] = link{dead: e.Dead, ecn: e.ECN, loss: e.Loss}
			}
		}
		d.next++
	}
}

// resetting draws the reset pulses of the profile and reports whether this cycle is one of them; in it the
// feedback and the held inputs are forgotten.
func (d *Driver) resetting(drain bool) bool {
	if d.resetLeft == 0 && !drain && d.prof.ResetEvery > 0 && d.chance(1/float64(d.prof.ResetEvery)) {
		d.resetLeft = 1 + d.rng.IntN(3)
		d.Stats.Resets++
	}
	if d.resetLeft == 0 {
		return false
	}
	d.resetLeft--
	d.fb.Clear()
	d.curValid, d.reqValid, d.ctlValid, d.ctlAim = false, false, false, false
	return true
}

// request puts a new request on s_req: the connection whose turn it is (Rotate) or a random one, a
// retransmission now and then, avoiding the path of its last loss or a random one.
func (d *Driver) request(cycle int64) {
	d.reqValid = true
	if d.prof.Rotate {
		d.reqConn = uint32(min(cycle*int64(d.conns())/max(d.prof.Cycles, 1), int64(d.conns()-1)))
	} else {
		d.reqConn = uint32(d.rng.IntN(d.conns()))
	}
	d.reqRetx = d.chance(d.prof.PRetx)
	d.reqAvoid = d.lastLoss[d.reqConn]
	if d.chance(0.3) {
		d.reqAvoid = uint32(d.rng.IntN(d.cfg.Paths))
	}
}

// feedback puts a report on s_fb when it is free: a count-0 message now and then, a flood report, or the next
// feedback due (the same feedback due together coalesced now and then).
func (d *Driver) feedback(cycle int64, drain bool) {
	if !d.curValid && !drain && d.chance(d.prof.PZero) {
		d.cur = fbEvent{conn: uint32(d.rng.IntN(d.conns())), path: uint32(d.rng.IntN(d.cfg.Paths)),
			kind: uint32(d.rng.IntN(4))}
		d.curValid = true
	}
	if !d.curValid && !drain && d.prof.Flood {
		d.cur, d.curValid = d.floodReport(), true
	}
	if !d.curValid && !d.prof.Fill && d.fb.Due(cycle) {
		d.cur, d.curValid = d.fb.Pop(), true
		same := fbEvent{conn: d.cur.conn, path: d.cur.path, kind: d.cur.kind, count: 1}
		for d.fb.Due(cycle) && *d.fb.Peek() == same && d.cur.count < 250 && d.chance(d.prof.PAgg) {
			d.cur.count += d.fb.Pop().count
		}
	}
}

// floodReport is a coalesced report of 255 packets for the next (connection, path) in turn: loss 40%, timeout
// 20%, delivered 30%, ECN 10%.
func (d *Driver) floodReport() fbEvent {
	n := d.conns() * d.cfg.Paths
	k := d.flood % n
	d.flood = k + 1
	kind := pathsel.FbLoss
	switch r := d.rng.IntN(10); {
	case r >= 9:
		kind = pathsel.FbECN
	case r >= 6:
		kind = pathsel.FbDelivered
	case r >= 4:
		kind = pathsel.FbTimeout
	}
	return fbEvent{conn: uint32(k / d.cfg.Paths), path: uint32(k % d.cfg.Paths), kind: uint32(kind), count: 255}
}

// fill drives a Fill profile (FillPhases) by the handshakes done so far: delivered reports of 255 packets for
// every (connection, path) in turn, then PATHS x cwnd_max + 1 requests of each connection in turn (the first of
// a connection once every request before it is decided), then one delivered report per (connection, path). The
// packets' own feedback is not sent (the reports stand for it).
func (d *Driver) fill(drain bool) {
	grow, perConn, empty := d.fillGrow, d.fillPerConn, d.fillEmpty
	req := perConn * int64(d.cfg.Conns)
	paths := int64(d.cfg.Paths)
	report := func(k int64) {
		if !d.curValid {
			k %= int64(d.cfg.Conns) * paths
			d.cur = fbEvent{conn: uint32(k / paths), path: uint32(k % paths), kind: pathsel.FbDelivered, count: 255}
			d.curValid = true
		}
	}
	switch {
	case drain:
	case d.fillFb < grow:
		report(d.fillFb)
	case d.fillDec < req:
		if !d.reqValid && d.fillReq < req && (d.fillReq%perConn != 0 || d.fillDec == d.fillReq) {
			d.reqValid, d.reqConn, d.reqRetx = true, uint32(d.fillReq/perConn), false
		}
	case d.fillFb < grow+empty:
		report(d.fillFb - grow)
	}
}

// Observe follows the handshakes and sends each decided packet into the network.
func (d *Driver) Observe(cycle int64, in *pathsel.In, out *pathsel.Out) {
	if in.Rst {
		return
	}
	if in.ReqValid && out.ReqReady {
		d.reqValid = false
		d.Stats.Requests++
		d.fillReq++
	}
	if in.CtlValid && out.CtlReady {
		d.ctlValid = false
	}
	if in.FbValid && out.FbReady {
		d.curValid = false
		d.Stats.Feedback++
		d.fillFb++
	}
	if out.SelValid && in.SelReady {
		d.Stats.Decisions++
		d.fillDec++
		d.send(cycle, out.SelConn, out.SelPath, out.SelEntropy)
	}
}

// send decides a packet's fate on the link its entropy hashes onto and queues the feedback.
func (d *Driver) send(cycle int64, conn, path, entropy uint32) {
	l := d.links[d.Link(entropy)]
	rtt := cycle + int64(d.prof.RTT+d.rng.IntN(d.prof.Jitter+1))
	switch {
	case l.dead:
		d.fb.Push(cycle+int64(d.prof.RTO), fbEvent{conn: conn, path: path, kind: pathsel.FbTimeout, count: 1})
	case d.chance(l.loss):
		d.lastLoss[conn] = path
		n := uint32(1)
		if d.chance(d.prof.PBigLoss) {
			n = 16 + uint32(d.rng.IntN(240)) // a coalesced report of many losses
		}
		d.fb.Push(rtt+int64(d.prof.RTT/2), fbEvent{conn: conn, path: path, kind: pathsel.FbLoss, count: n})
	default:
		d.fb.Push(rtt, fbEvent{conn: conn, path: path, kind: pathsel.FbDelivered, count: 1})
		if d.chance(l.ecn) {
			d.fb.Push(rtt, fbEvent{conn: conn, path: path, kind: pathsel.FbECN, count: 1})
		}
	}
}
