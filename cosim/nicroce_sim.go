package cosim

import (
	"fmt"
	"math"
	"math/bits"
	"math/rand/v2"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/spraynic/spraynic/config"
	"github.com/spraynic/spraynic/golden/nicroce"
	"github.com/spraynic/spraynic/stimulus/dmahost"
	"github.com/spraynic/spraynic/system"
	"github.com/spraynic/spraynic/system/network"
	"github.com/spraynic/spraynic/system/roce"
)

// Frame-level end-to-end simulation (docs/e2e_frames.md): two nic_roce RTL tops, each in lockstep with its twin,
// exchange Ethernet frames through the network model; their hosts post work requests and receives and check
// every received message byte for byte.

// FrameSimOptions steer SimFrames.
type FrameSimOptions struct {
	// Root is the repository root; Sim the simulation's options (Defaults is applied; PortGbps 0 is the datapath
	// rate).
	Root string
	Sim  system.Options
	// Corrupt is the probability that a delivered frame has one byte after its Ethernet header changed (0..0.5).
	Corrupt float64
	// DMALatency bounds the host model's latencies in cycles (docs/nic_roce.md, "Host model"); the zero value is
	// DefaultDMALatency.
	DMALatency DMALatency
	// Repro is the command that reproduces the run; Cache is the model cache (empty: build/models under Root).
	Repro string
	Cache string
	// Record keeps every cycle's packed inputs of both tops in FrameSimStats.Inputs (the bench replays them).
	Record bool
}

// DMALatency is the range every DMA latency of the host model is drawn from, in cycles: descriptor to the first
// read beat, last beat to the status.
type DMALatency struct{ Min, Max int }

// DefaultDMALatency is an on-chip DMA RAM's latency, the host the frame-level figures are measured with.
var DefaultDMALatency = DMALatency{Min: 2, Max: 20}

// MaxDMALatency bounds DMALatency.Max: 262 us at 250 MHz, far beyond any host.
const MaxDMALatency = 1 << 16

// ParseDMALatency reads "MIN:MAX" cycles, 1 <= MIN <= MAX <= MaxDMALatency; an error names the value and what is
// allowed.
func ParseDMALatency(v string) (DMALatency, error) {
	var l DMALatency
	lo, hi, ok := strings.Cut(v, ":")
	var err1, err2 error
	if ok {
		l.Min, err1 = strconv.Atoi(lo)
		l.Max, err2 = strconv.Atoi(hi)
	}
	if !ok || err1 != nil || err2 != nil || l.check() != nil {
		return l, fmt.Errorf("option dma-latency: value %q is not MIN:MAX cycles with 1 <= MIN <= MAX <= %d",
			v, MaxDMALatency)
	}
	return l, nil
}

func (l DMALatency) check() error {
	if l.Min < 1 || l.Max < l.Min || l.Max > MaxDMALatency {
		return fmt.Errorf("option dma-latency: value %d:%d out of range (allowed MIN:MAX cycles, 1 <= MIN <= MAX "+
			"<= %d)", l.Min, l.Max, MaxDMALatency)
	}
	return nil
}

// FrameSimStats are the lockstep and frame figures of a run.
type FrameSimStats struct {
	// Sides are the two RTL endpoints' lockstep cycles and times.
	Sides []EndpointRTL
	// Frames sent by both MAC TX ports; Lost of them dropped by the network; Marked CE-marked; Corrupted changed
	// by --corrupt before delivery.
	Frames, Lost, Marked, Corrupted int
	// Inputs (with FrameSimOptions.Record) are each top's packed inputs, cycle after cycle, for the model at Lib.
	Inputs [2][]uint32
	Lib    string
}

// DatapathGbps is the rate of nic_roce's MAC streams: DATA_WIDTH bits per cycle of clockMHz.
func DatapathGbps(cfg config.Config, clockMHz int) int { return cfg.DataWidth * clockMHz / 1000 }

// frameOverhead is the wire bytes a frame adds to its bytes on the MAC stream: FCS, preamble and SFD, IFG.
const frameOverhead = 4 + 8 + 12

// drainIdle is the cycles the run goes on after the last completion before it reads the counters (the last ACKs).
const drainIdle = 3000

// checkFrameOptions refuses what the frame-level hosts do not model (docs/e2e_frames.md, "Not supported").
func checkFrameOptions(o system.Options, corrupt float64) error {
	refuse := func(opt string) error {
		return fmt.Errorf("option %s: not supported with --frames (the nic_roce hosts do not model it)", opt)
	}
	switch {
	case len(o.Resets) > 0:
		return refuse("reset")
	case len(o.Reconnects) > 0:
		return refuse("reconnect")
	case o.AllFailedReconnectUS != 0:
		return refuse("all-failed-reconnect-us")
	case o.HostLagUS != 0:
		return refuse("host-lag-us")
	case o.CplStall != 0:
		return refuse("cpl-stall")
	case o.MTU != o.Config.MTU:
		return fmt.Errorf("option mtu: value %d is not the configuration's mtu %d (allowed with --frames: %d; the "+
			"top segments at it)", o.MTU, o.Config.MTU, o.Config.MTU)
	case o.Backlog > nicroce.QueueDepth:
		return fmt.Errorf("option backlog: value %d out of range (allowed with --frames 1..%d, SQ_DEPTH)", o.Backlog,
			nicroce.QueueDepth)
	case corrupt < 0 || corrupt > 0.5 || corrupt != corrupt:
		return fmt.Errorf("option corrupt: value %g out of range (allowed 0..0.5)", corrupt)
	}
	if dp := DatapathGbps(o.Config, o.ClockMHz); o.PortGbps > dp {
		return fmt.Errorf("option port-gbps: value %d above the datapath's %d Gb/s (allowed 1..%d: DATA_WIDTH %d x "+
			"%d MHz)", o.PortGbps, dp, dp, o.Config.DataWidth, o.ClockMHz)
	}
	return nil
}

// FrameOptions applies the defaults (the port at the datapath rate when PortGbps is 0), the mode and the checks
// of the frame-level mode; an error names the option, its value and what is allowed.
func FrameOptions(opt system.Options, corrupt float64) (system.Options, error) {
	if opt.PortGbps == 0 {
		opt.PortGbps = DatapathGbps(opt.Config, opt.Defaults().ClockMHz)
	}
	o := opt.Defaults().WithMode()
	if err := o.Validate(); err != nil {
		return o, err
	}
	return o, checkFrameOptions(o, corrupt)
}

// SimFrames runs the frame-level end-to-end simulation of o and returns the figures (system.Result, defined as
// docs/e2e_frames.md says) and the lockstep and frame counts. Any check that fails returns an error.
func SimFrames(fo FrameSimOptions) (*system.Result, FrameSimStats, error) {
	var st FrameSimStats
	o, err := FrameOptions(fo.Sim, fo.Corrupt)
	if err != nil {
		return nil, st, err
	}
	if fo.DMALatency == (DMALatency{}) {
		fo.DMALatency = DefaultDMALatency
	}
	if err := fo.DMALatency.check(); err != nil {
		return nil, st, err
	}
	if fo.Cache == "" {
		fo.Cache = filepath.Join(fo.Root, "build", "models")
	}
	lib, err := BuildNicRoCETB(fo.Root, o.Config, fo.Cache)
	if err != nil {
		return nil, st, err
	}
	s, err := newFrameSim(lib, o, fo)
	if err != nil {
		return nil, st, err
	}
	defer s.close()
	start := time.Now()
	runErr := s.run()
	secs := time.Since(start).Seconds()
	st = s.stats(secs)
	if runErr != nil {
		return nil, st, runErr
	}
	r, err := s.result()
	if err == nil && o.Capture != nil {
		err = roce.WritePcap(o.Capture, s.frames, s.stamps)
	}
	return r, st, err
}

// fsMsg is one message: its bytes and buffers, the cycle its first frame left (-1: not yet) and its completions.
type fsMsg struct {
	id         uint32
	data       []byte
	src, dst   uint64
	start      int64
	sent, recd bool
}

// fsConn is one connection of one direction: its messages not yet completed on both sides, oldest first.
type fsConn struct {
	msgs   []*fsMsg
	nextID uint32
	// sendNext and recvNext are the ids the next send and receive completions must carry; sending counts the
	// send requests posted and not completed.
	sendNext, recvNext, sending uint32
}

// fsDir is one direction of traffic: from's host sends to to's host.
type fsDir struct {
	from, to *nrEnd
	conns    []fsConn
	sizes    func() int
	rng      *rand.Rand
	// srcNext and dstNext allocate fresh buffers in from's and to's memory.
	srcNext, dstNext uint64
	// sentAt is the last MAC TX cycle of each (conn, PSN) of from's data frames; retx counts the repeats.
	sentAt map[uint64]int64
	retx   int64
	resend []int64
	// written is the payload bytes to's top wrote to memory; inWindow of them during the measured time; recvd the
	// bytes of received messages, bufs their buffers; messages the messages received.
	written, inWindow, recvd int64
	bufs                     []dmahost.Range
	messages                 int64
	bins                     []int64
	// mct holds the completion times of the received messages; seenFrom and seenTo are the completions of from
	// and to already checked.
	mct              []int64
	seenFrom, seenTo int
}

// fsCpl is a completion of the m_cpl port.
type fsCpl = nicroce.Cpl

// rangeOf is the memory range of n bytes at addr.
func rangeOf(addr uint64, n int) dmahost.Range { return dmahost.Range{Addr: addr, Len: uint64(n)} }

// fsFrame is a frame on the network and whether it is data from side 0's point of view.
type fsFrame struct {
	f    []byte
	data bool
}

// frameSim is one run.
type frameSim struct {
	o       system.Options
	lib     string
	corrupt float64
	ends    [2]*nrEnd
	nets    [2]*network.Network
	dirs    []*fsDir
	// inFlight holds the frames on each network by tag; crng draws the corruptions.
	inFlight [2]map[uint64]fsFrame
	// macQ holds each MAC TX's frames that wait for the port (at most one: the MAC takes no new frame meanwhile).
	macQ [2][][]byte
	tag  uint64
	crng *rand.Rand
	// t0 is the first measured cycle (-1 until both programmings finished), measured the measured cycles.
	t0, measured, binCycles int64
	mct                     []int64
	// frames and stamps are the capture; sent, lost, marked, corrupted the frame counts; lostData the A->B data
	// frames the network dropped.
	frames                           [][]byte
	stamps                           []time.Time
	sent, lost, marked, corrupted    int
	lostData, markedData, dataFrames int64
	cycles                           int64
	repro                            string
	counters                         [2]map[string]*uint32
}

// newFrameSim opens both tops and queues their programming.
func newFrameSim(lib string, o system.Options, fo FrameSimOptions) (*frameSim, error) {
	corrupt, repro := fo.Corrupt, fo.Repro
	s := &frameSim{o: o, lib: lib, corrupt: corrupt, crng: rand.New(rand.NewPCG(o.Seed, 0x636f7272)), t0: -1,
		repro: repro}
	cyc := func(us float64) int64 { return int64(math.Round(us * float64(o.ClockMHz))) }
	s.measured, s.binCycles = cyc(o.DurationUS), max(1, cyc(o.BinUS))
	peers := [2]nrPeer{{mac: 0x020000000001, ip: 0x0A000001}, {mac: 0x020000000002, ip: 0x0A000002}}
	for i, name := range []string{"A", "B"} {
		e, err := newNrEnd(name, lib, o.Config, o.Seed*4+uint64(i)+1, peers[i], peers[1-i], repro)
		if err != nil {
			s.close()
			return nil, err
		}
		s.ends[i] = e
		e.stall, e.gap, e.rxIdle, e.record = 0, 0, 1, fo.Record
		if e.host, err = dmahost.New(dmahost.Config{DataWidth: o.Config.DataWidth, MTU: o.Config.MTU,
			MaxOutstanding: 256, LatencyMin: fo.DMALatency.Min, LatencyMax: fo.DMALatency.Max,
			Seed: o.Seed*4 + uint64(i) + 1}); err != nil {
			s.close()
			return nil, err
		}
		if s.nets[i], err = network.New(o.NetConfig(i)); err != nil {
			s.close()
			return nil, err
		}
		side := i
		e.txGate = func() bool { return len(s.macQ[side]) == 0 }
		s.inFlight[i] = map[uint64]fsFrame{}
	}
	psn := func(side int) func(c int) uint32 {
		return func(c int) uint32 { return (o.StartPSN + 0x1000*uint32(c) ^ uint32(side)<<23) & (1<<24 - 1) }
	}
	s.ends[0].program(o.Conns, psn(0), psn(1))
	s.ends[1].program(o.Conns, psn(1), psn(0))
	for i := 0; i < 2 && (i == 0 || o.Bidir); i++ {
		rng := rand.New(rand.NewPCG(o.Seed, 0x6d7367+uint64(i)))
		sizes, err := system.MessageSizes(o.Msg, rng)
		if err != nil {
			s.close()
			return nil, err
		}
		s.dirs = append(s.dirs, &fsDir{from: s.ends[i], to: s.ends[1-i], conns: make([]fsConn, o.Conns),
			sizes: sizes, rng: rng, srcNext: 1 << 32, dstNext: 1 << 40, sentAt: map[uint64]int64{}})
	}
	return s, nil
}

// close releases the models.
func (s *frameSim) close() {
	for _, e := range s.ends {
		if e != nil {
			e.close()
		}
	}
}

// stats are the lockstep and frame counts after secs seconds of simulation.
func (s *frameSim) stats(secs float64) FrameSimStats {
	st := FrameSimStats{Frames: s.sent, Lost: s.lost, Marked: s.marked, Corrupted: s.corrupted, Lib: s.lib}
	for i, e := range s.ends {
		if e != nil {
			st.Sides = append(st.Sides, EndpointRTL{Side: e.name, Cycles: e.cycle, Seconds: secs})
			st.Inputs[i] = e.rec
		}
	}
	return st
}

// step runs one cycle of both tops and the networks.
func (s *frameSim) step(rst bool) error {
	for _, e := range s.ends {
		if err := e.step(rst); err != nil {
			return err
		}
	}
	now := s.ends[0].cycle - 1
	for _, d := range s.dirs {
		d.countWrites(s.inWindow(now), s.bin(now))
	}
	for i, e := range s.ends {
		if err := s.transmit(i, e, now); err != nil {
			return err
		}
		if err := s.deliver(i, now); err != nil {
			return err
		}
	}
	for _, d := range s.dirs {
		if err := s.completions(d, now); err != nil {
			return err
		}
	}
	s.cycles = now + 1
	return nil
}

// inWindow reports whether cycle now is in the measured time.
func (s *frameSim) inWindow(now int64) bool { return s.t0 >= 0 && now >= s.t0 && now < s.t0+s.measured }

// bin is the goodput bin of cycle now (-1 outside the measured time).
func (s *frameSim) bin(now int64) int {
	if !s.inWindow(now) {
		return -1
	}
	return int((now - s.t0) / s.binCycles)
}

// countWrites counts the payload bytes to's top wrote to host memory this cycle.
func (d *fsDir) countWrites(measuring bool, bin int) {
	in, o := &d.to.in, &d.to.rout
	if !o.DmaWrTValid || !in.DmaWrTReady {
		return
	}
	n := int64(bits.OnesCount64(o.DmaWrTKeep))
	d.written += n
	if measuring {
		d.inWindow += n
		for len(d.bins) <= bin {
			d.bins = append(d.bins, 0)
		}
		d.bins[bin] += n
	}
}

// transmit queues the frames e's MAC TX finished this cycle in the MAC's buffer and starts the oldest one on
// network i when the port is free; a frame that starts is recorded (capture, first frames of messages,
// retransmissions).
func (s *frameSim) transmit(i int, e *nrEnd, now int64) error {
	s.macQ[i] = append(s.macQ[i], e.tx...)
	e.tx = e.tx[:0]
	for len(s.macQ[i]) > 0 && s.nets[i].PortFree(now) {
		f := s.macQ[i][0]
		s.macQ[i] = s.macQ[i][1:]
		p, err := roce.Parse(f)
		if err != nil {
			return fmt.Errorf("%s MAC TX frame: %w", e.name, err)
		}
		if !p.IsAck() {
			s.dirOf(e).sentData(&p, now, e.cfg)
			if i == 0 {
				s.dataFrames++
			}
		}
		s.tag++
		s.inFlight[i][s.tag] = fsFrame{f: f, data: !p.IsAck()}
		if err := s.nets[i].Send(now, network.Packet{Bytes: len(f) + frameOverhead, Entropy: p.Data.SrcPort,
			Tag: s.tag}); err != nil {
			return fmt.Errorf("%s MAC TX: %w", e.name, err)
		}
		s.sent++
		s.frames = append(s.frames, f)
		s.stamps = append(s.stamps, time.Unix(0, now*1000/int64(s.o.ClockMHz)))
	}
	return nil
}

// dirOf is the direction e sends data in (nil: e sends none).
func (s *frameSim) dirOf(e *nrEnd) *fsDir {
	for _, d := range s.dirs {
		if d.from == e {
			return d
		}
	}
	return nil
}

// sentData records data frame p leaving d.from: the first frame of a message starts its MCT; a PSN sent before
// is a retransmission.
func (d *fsDir) sentData(p *roce.Packet, now int64, cfg config.Config) {
	if d == nil {
		return
	}
	conn := p.Data.DestQP - uint32(cfg.QPNBase)
	key := uint64(conn)<<24 | uint64(p.Data.PSN)
	if at, ok := d.sentAt[key]; ok {
		d.retx++
		d.resend = append(d.resend, now-at)
	}
	d.sentAt[key] = now
	if !p.Data.First || p.Data.Offset != 0 || int(conn) >= len(d.conns) {
		return
	}
	hm := uint32(uint64(1)<<cfg.HandleWidth - 1)
	for _, m := range d.conns[conn].msgs {
		if m.start < 0 && m.id&hm == p.Data.MsgID {
			m.start = now
			return
		}
	}
}
