package cosim

import (
	"fmt"
	"math/rand/v2"

	"github.com/spraynic/spraynic/config"
	"github.com/spraynic/spraynic/golden/nicroce"
	"github.com/spraynic/spraynic/stimulus/dmahost"
)

// NicRoCEChaosOptions steer one chaos run of two nic_roce instances in lockstep with their twins
// (RunNicRoCEChaos).
type NicRoCEChaosOptions struct {
	// Lib is the model library of nic_roce_tb (BuildNicRoCETB) for Config.
	Lib    string
	Config config.Config
	Seed   uint64
	// Conns connections on both tops; Cycles of traffic and events before the final close of every connection.
	Conns  int
	Cycles int64
	// Loss is the channel's frame loss each way; Host the DMA host of both tops (its Seed is set per top).
	Loss float64
	Host dmahost.Config
	// EventEvery is the mean number of cycles between two chaos events.
	EventEvery int
	// Repro is the command that reproduces the run.
	Repro string
}

// NicRoCEChaosResult describes a finished chaos run.
type NicRoCEChaosResult struct {
	// Cycles simulated per top; Status counts completions of both tops by status; Events counts the chaos
	// events by kind; Writes DMA writes issued; Frames sent by both, Lost of them.
	Cycles       int64
	Status       [5]int
	Events       map[string]int
	Writes       int
	Frames, Lost int
}

// nrChaosRun is the state of a chaos run: the two tops, their chaos checkers, the channels and the events
// scheduled for later cycles.
type nrChaosRun struct {
	o      NicRoCEChaosOptions
	a, b   *nrEnd
	ca, cb *nrChaos
	ab, ba *nrChannel
	rng    *rand.Rand
	epoch  uint32
	later  []nrLater
	ev     map[string]int
}

// nrLater is an action at a cycle.
type nrLater struct {
	at int64
	fn func()
}

// nrChaosEpoch is the PSN distance of two epochs of a connection (the packet check's window).
const nrChaosEpoch = 1 << 20

// RunNicRoCEChaos runs two nic_roce RTL instances A and B, each in lockstep with its twin, joined by a lossy
// frame channel, under chaos: random work requests (some of length 0, some longer than MAX_MSG) and posted
// receives (some too short: overruns; some late: no buffer) on every connection both ways; closes and reopens of
// connections mid-traffic (reopen during the flush included); CTRL.enable toggled; CNT_CLEAR; channel blackouts
// long enough for retry exhaustion; m_cpl_ready back-pressure phases; DMA read and write errors and host
// latency and stalls from o.Host; AXI4-Lite reads of CONN_STATUS and counters. Checks: the lockstep every cycle
// and the frame checks, and nrChaos's (completions, DMA writes, packets of closed connections).
func RunNicRoCEChaos(o NicRoCEChaosOptions) (NicRoCEChaosResult, error) {
	res := NicRoCEChaosResult{Events: map[string]int{}}
	r, err := newNrChaosRun(o)
	if err != nil {
		return res, err
	}
	defer r.a.close()
	defer r.b.close()
	if err := r.run(); err != nil {
		return res, err
	}
	if err := r.finish(); err != nil {
		return res, err
	}
	res.Cycles, res.Events = r.a.cycle, r.ev
	for _, c := range []*nrChaos{r.ca, r.cb} {
		for i, n := range c.st {
			res.Status[i] += n
		}
		res.Writes += c.writes
		res.Events["max_retries_"+c.e.name] = int(c.events & 1)
	}
	res.Frames, res.Lost = r.ab.n+r.ba.n, r.ab.lost+r.ba.lost
	return res, nil
}

func newNrChaosRun(o NicRoCEChaosOptions) (*nrChaosRun, error) {
	pa, pb := nrPeer{mac: 0x020000000001, ip: 0x0A000001}, nrPeer{mac: 0x020000000002, ip: 0x0A000002}
	a, err := newNrEnd("A", o.Lib, o.Config, o.Seed*4+1, pa, pb, o.Repro)
	if err != nil {
		return nil, err
	}
	b, err := newNrEnd("B", o.Lib, o.Config, o.Seed*4+2, pb, pa, o.Repro)
	if err != nil {
		a.close()
		return nil, err
	}
	for i, e := range []*nrEnd{a, b} {
		hc := o.Host
		hc.DataWidth, hc.MTU, hc.Seed = o.Config.DataWidth, o.Config.MTU, o.Seed*4+uint64(i)+11
		if e.host, err = dmahost.New(hc); err != nil {
			a.close()
			b.close()
			return nil, err
		}
		e.chaos = true
	}
	r := &nrChaosRun{o: o, a: a, b: b, rng: rand.New(rand.NewPCG(o.Seed, 21)), ev: map[string]int{}}
	r.ca = newNrChaos(a, b, o.Conns, rand.New(rand.NewPCG(o.Seed, 22)), 0x100000000000)
	r.cb = newNrChaos(b, a, o.Conns, rand.New(rand.NewPCG(o.Seed, 23)), 0x200000000000)
	r.ca.peerC, r.cb.peerC = r.cb, r.ca
	a.program(o.Conns, func(c int) uint32 { return r.psn(c, true) }, func(c int) uint32 { return r.psn(c, false) })
	b.program(o.Conns, func(c int) uint32 { return r.psn(c, false) }, func(c int) uint32 { return r.psn(c, true) })
	r.ab = &nrChannel{from: a, to: b, loss: o.Loss, rng: rand.New(rand.NewPCG(o.Seed, 6))}
	r.ba = &nrChannel{from: b, to: a, loss: o.Loss, rng: rand.New(rand.NewPCG(o.Seed, 7))}
	return r, nil
}

// psn is the initial PSN of the current epoch of connection c, of A's sends (ab) or B's.
func (r *nrChaosRun) psn(c int, ab bool) uint32 {
	base := uint32(0x10 + 0x1000*c)
	if !ab {
		base += 0x80000
	}
	return (base + r.epoch*nrChaosEpoch) & 0xFFFFFF
}

// step runs one cycle of both tops and the channels.
func (r *nrChaosRun) step() error {
	if err := r.a.step(false); err != nil {
		return err
	}
	if err := r.b.step(false); err != nil {
		return err
	}
	r.ab.carry(r.a.cycle)
	r.ba.carry(r.b.cycle)
	for i := 0; i < len(r.later); i++ {
		if l := r.later[i]; l.at <= r.a.cycle {
			r.later = append(r.later[:i], r.later[i+1:]...)
			i--
			l.fn()
		}
	}
	return nil
}

// run resets both tops, then runs o.Cycles cycles of traffic with events.
func (r *nrChaosRun) run() error {
	for i := 0; i < 2; i++ {
		if err := r.a.step(true); err != nil {
			return err
		}
		if err := r.b.step(true); err != nil {
			return err
		}
	}
	for r.a.cycle < r.o.Cycles {
		if !r.a.setup && !r.b.setup {
			r.ca.inject()
			r.cb.inject()
			if r.rng.IntN(r.o.EventEvery) == 0 {
				r.event()
			}
		}
		if err := r.step(); err != nil {
			return err
		}
	}
	return nil
}

// finish writes CTRL.enable 0 on each top under an offered first beat of MAC TX (offFrame), then closes every
// connection on both tops, runs until every request has completed, and checks the end: nothing outstanding,
// some completions OK, the completion counters since the last clear.
func (r *nrChaosRun) finish() error {
	r.later = nil
	r.ab.loss, r.ba.loss = r.o.Loss, r.o.Loss
	if err := r.offFrame(); err != nil {
		return err
	}
	for _, e := range []*nrEnd{r.a, r.b} {
		e.stall = 0.1
		e.axiQ = append(e.axiQ, nrAxi{addr: nrReg("CTRL", 0), data: 1})
		for c := 0; c < r.o.Conns; c++ {
			e.axiQ = append(e.axiQ, nrAxi{addr: nrReg("CONN_CMD", c), data: 2})
		}
	}
	idle := func() bool {
		return r.ca.outstanding() == 0 && r.cb.outstanding() == 0 && len(r.a.wrQ)+len(r.a.rqQ)+len(r.b.wrQ)+
			len(r.b.rqQ)+len(r.a.axiQ)+len(r.b.axiQ) == 0
	}
	for end := r.a.cycle + 200000; !idle(); {
		if r.a.cycle >= end {
			return fmt.Errorf("after the final close, cycle %d: A %d, B %d requests without completion\n  "+
				"reproduce: %s", r.a.cycle, r.ca.outstanding(), r.cb.outstanding(), r.o.Repro)
		}
		if err := r.step(); err != nil {
			return err
		}
	}
	for i := 0; i < 200; i++ {
		if err := r.step(); err != nil {
			return err
		}
	}
	for _, c := range []*nrChaos{r.ca, r.cb} {
		if err := c.checkEnd(r.step); err != nil {
			return fmt.Errorf("%w\n  reproduce: %s", err, r.o.Repro)
		}
	}
	return nil
}

// offFrame reopens every connection and writes CTRL.enable 1 on both tops (traffic), then CTRL.enable 0 on
// each top while MAC TX offers the first beat of a frame that has not moved, with tready held low until 2
// cycles after the write (the TX gate must keep the beat offered: the AXI-Stream check), within 20000 cycles.
func (r *nrChaosRun) offFrame() error {
	for c := 0; c < r.o.Conns; c++ {
		r.reopen(c, 0)
	}
	for _, e := range []*nrEnd{r.a, r.b} {
		e.stall, e.offAtFrame = 0.1, true
		e.axiQ = append(e.axiQ, nrAxi{addr: nrReg("CTRL", 0), data: 1})
	}
	busy := func() bool { return r.a.offAtFrame || r.b.offAtFrame || r.a.txHold != 0 || r.b.txHold != 0 }
	for end := r.a.cycle + 20000; busy() && r.a.cycle < end; {
		r.ca.inject()
		r.cb.inject()
		if err := r.step(); err != nil {
			return err
		}
	}
	for _, e := range []*nrEnd{r.a, r.b} {
		if !e.offAtFrame {
			r.ev["enable_off_at_frame"]++
		}
		e.offAtFrame = false
	}
	return nil
}

// event starts one chaos event, chosen at random.
func (r *nrChaosRun) event() {
	busy := len(r.a.axiQ)+len(r.b.axiQ) > 0 || len(r.later) > 0
	e := []*nrEnd{r.a, r.b}[r.rng.IntN(2)]
	switch k := r.rng.IntN(12); {
	case k < 4 && !busy:
		r.reopen(r.rng.IntN(r.o.Conns), int64(r.rng.IntN(600)))
	case k < 6 && !busy:
		r.ev["enable_off"]++
		e.axiQ = append(e.axiQ, nrAxi{addr: nrReg("CTRL", 0), data: 0})
		r.at(int64(200+r.rng.IntN(4000)), func() { e.axiQ = append(e.axiQ, nrAxi{addr: nrReg("CTRL", 0), data: 1}) })
	case k < 7:
		r.ev["cnt_clear"]++
		e.axiQ = append(e.axiQ, nrAxi{addr: nrReg("CNT_CLEAR", 0), data: 1})
	case k < 8:
		r.ev["cpl_stall"]++
		e.stall = 0.95
		r.at(int64(500+r.rng.IntN(5000)), func() { e.stall = 0.1 })
	case k < 9 && !busy && r.rng.IntN(5) == 0:
		// A blackout longer than the retry budget: the connections with traffic go to CONN_ERROR; then every
		// connection is closed and reopened.
		r.ev["blackout"]++
		r.ab.loss, r.ba.loss = 1, 1
		r.at(int64(60000+r.rng.IntN(40000)), func() {
			r.ab.loss, r.ba.loss = r.o.Loss, r.o.Loss
			for c := 0; c < r.o.Conns; c++ {
				r.reopen(c, 0)
			}
		})
	default:
		r.ev["reads"]++
		c := r.rng.IntN(r.o.Conns)
		e.axiQ = append(e.axiQ, nrAxi{read: true, addr: nrReg("CONN_STATUS", c)},
			nrAxi{read: true, addr: nrCounter(nrCounterNames[r.rng.IntN(len(nrCounterNames))])},
			nrAxi{read: true, addr: nrReg("EVENTS", 0)})
	}
}

// at schedules fn d cycles from now.
func (r *nrChaosRun) at(d int64, fn func()) {
	r.later = append(r.later, nrLater{at: r.a.cycle + d, fn: fn})
}

// reopen closes connection c on both tops now and opens it again, with the next epoch's PSNs, after wait cycles
// (the open is written while the close's flush may still run).
func (r *nrChaosRun) reopen(c int, wait int64) {
	r.ev["close"]++
	for _, e := range []*nrEnd{r.a, r.b} {
		e.axiQ = append(e.axiQ, nrAxi{addr: nrReg("CONN_CMD", c), data: 2})
	}
	r.later = append(r.later, nrLater{at: r.a.cycle + wait, fn: func() {
		r.ev["reopen"]++
		r.epoch++
		for _, s := range []struct {
			e      *nrEnd
			tx, rx uint32
		}{{r.a, r.psn(c, true), r.psn(c, false)}, {r.b, r.psn(c, false), r.psn(c, true)}} {
			wr := func(name string, d uint32) { s.e.axiQ = append(s.e.axiQ, nrAxi{addr: nrReg(name, c), data: d}) }
			wr("CONN_PEER_MAC_LO", uint32(s.e.peer.mac))
			wr("CONN_PEER_MAC_HI", uint32(s.e.peer.mac>>32)&0xFFFF|1<<16)
			wr("CONN_PEER_IP", s.e.peer.ip)
			wr("CONN_PEER_QPN", uint32(s.e.cfg.QPNBase+c))
			wr("CONN_TX_PSN", s.tx)
			wr("CONN_RX_PSN", s.rx)
			wr("CONN_CMD", 1)
		}
	}})
}

// nrStatusName names a completion status.
var nrStatusName = [...]string{nicroce.StatusOK: "OK", nicroce.StatusConnError: "CONN_ERROR",
	nicroce.StatusClosed: "CLOSED", nicroce.StatusDMAError: "DMA_ERROR", nicroce.StatusTooLong: "TOO_LONG"}
