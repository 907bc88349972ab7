package dmahost

import (
	"math/rand/v2"

	"github.com/spraynic/spraynic/stimulus/eventq"
)

// rdOp is a read taken: its bytes (snapshot or poison), how many have moved, the tick its first beat may show.
type rdOp struct {
	tag, err uint32
	data     []byte
	sent     int
	at       int64
}

// wrOp is a write taken: its range and the bytes received so far.
type wrOp struct {
	tag, err uint32
	addr     uint64
	len      int
	got      []byte
}

// status is a status waiting for its cycle; wr is the write it completes (nil for a read).
type status struct {
	tag, err uint32
	wr       *wrOp
}

// desc is one descriptor as the DUT shows it.
type desc struct {
	addr     uint64
	len, tag uint32
}

// beat is one write-data beat as the DUT shows it.
type beat struct {
	data [MaxLanes]byte
	keep uint64
	last bool
}

// Stats counts what the host did.
type Stats struct {
	// Reads and Writes taken; RdBeats and WrBeats moved; RdErrors and WrErrors injected.
	Reads, Writes, RdBeats, WrBeats, RdErrors, WrErrors int64
}

// Host serves nic_roce's DMA ports from Mem, cycle by cycle (package doc: Drive, then Observe, each cycle).
type Host struct {
	// Mem is the host memory; the harness fills and inspects it directly.
	Mem *Memory
	// Stats counts the operations.
	Stats Stats
	cfg   Config
	k     int
	rng   *rand.Rand
	// now counts the edges taken; driven is set by Drive for cycle; out is what Drive gave.
	now     int64
	driven  bool
	cycle   int64
	out     HostOut
	err     error
	rdShown bool
	// rdQ are reads whose data has not all moved, in order; rdSts their statuses, in order; rdLast the due
	// tick of the last read status queued.
	rdQ    []*rdOp
	rdSts  eventq.Queue[status]
	rdLast int64
	// wrQ are writes whose data has not all moved, in order; wrSts the statuses by due tick.
	wrQ   []*wrOp
	wrSts eventq.Queue[status]
	// rdOut and wrOut count operations outstanding; rdTags and wrTags are their tags.
	rdOut, wrOut   int
	rdTags, wrTags [256]bool
	// held* are the items the DUT showed last cycle that did not move.
	heldRd, heldWr *desc
	heldBeat       *beat
}

// New returns a host for cfg with an empty memory, or the config field out of range.
func New(cfg Config) (*Host, error) {
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	return &Host{Mem: NewMemory(), cfg: cfg, k: cfg.lanes(),
		rng: rand.New(rand.NewPCG(cfg.Seed, 0xd3a405e))}, nil
}

func (h *Host) chance(p float64) bool { return p > 0 && h.rng.Float64() < p }

func (h *Host) latency() int64 {
	return int64(h.cfg.LatencyMin + h.rng.IntN(h.cfg.LatencyMax-h.cfg.LatencyMin+1))
}

// errCode draws the status error of a new operation: 0, or 1..15 with probability rate.
func (h *Host) errCode(rate float64) uint32 {
	if h.chance(rate) {
		return 1 + uint32(h.rng.IntN(15))
	}
	return 0
}

// Err is the violation that stopped the host, or nil.
func (h *Host) Err() error { return h.err }

// Outstanding is the number of reads and writes outstanding.
func (h *Host) Outstanding() (reads, writes int) { return h.rdOut, h.wrOut }

// Drive sets the host's outputs of cycle from its state alone; a status shown here is given (no ready), and a
// write's bytes land in memory with it.
func (h *Host) Drive(cycle int64, out *HostOut) {
	*out = HostOut{}
	h.driven, h.cycle = true, cycle
	if h.err != nil {
		h.out = *out
		return
	}
	out.RdDescReady = h.rdOut < h.cfg.MaxOutstanding && !h.chance(h.cfg.Stall)
	out.WrDescReady = h.wrOut < h.cfg.MaxOutstanding && !h.chance(h.cfg.Stall)
	out.WrDataReady = len(h.wrQ) > 0 && !h.chance(h.cfg.Stall)
	h.driveRead(out)
	if h.rdSts.Due(h.now) {
		s := h.rdSts.Pop()
		out.RdStsValid, out.RdStsTag, out.RdStsError = true, s.tag, s.err
		h.rdTags[s.tag] = false
		h.rdOut--
	}
	if h.wrSts.Due(h.now) {
		s := h.wrSts.Pop()
		out.WrStsValid, out.WrStsTag, out.WrStsError = true, s.tag, s.err
		h.wrTags[s.tag] = false
		h.wrOut--
		if s.err == 0 {
			h.Mem.store(s.wr.addr, s.wr.got, true)
		}
	}
	h.out = *out
}

// driveRead shows the next read beat, unless one is shown already (it is held) or a gap is drawn.
func (h *Host) driveRead(out *HostOut) {
	if len(h.rdQ) == 0 || h.rdQ[0].at > h.now {
		return
	}
	if !h.rdShown && h.chance(h.cfg.Stall) {
		return
	}
	h.rdShown = true
	op := h.rdQ[0]
	n := min(h.k, len(op.data)-op.sent)
	copy(out.RdData[:], op.data[op.sent:op.sent+n])
	out.RdKeep = 1<<uint(n) - 1
	if n == 64 {
		out.RdKeep = ^uint64(0)
	}
	out.RdValid, out.RdLast = true, op.sent+n == len(op.data)
	// tuser: a failed read marks its data on its last beat (at the latest, as the contract allows)
	out.RdUser = out.RdLast && op.err != 0
}

// Observe takes the clock edge of cycle with the DUT's outputs in: every handshake of the cycle, checked
// against the port rules. It returns the first violation, and that violation again on every later call.
func (h *Host) Observe(cycle int64, in *DUTOut) error {
	if h.err != nil {
		return h.err
	}
	if !h.driven || cycle != h.cycle {
		h.err = &ProtocolError{Cycle: cycle, Port: PortHarness, What: "Observe without Drive of the same cycle",
			Allowed: "Drive(cycle) then Observe(cycle), once each per cycle"}
		return h.err
	}
	h.driven = false
	defer func() { h.now++ }()
	if in.Rst {
		h.reset()
		return nil
	}
	if pe := h.observe(in); pe != nil {
		pe.Cycle = cycle
		h.err = pe
		return h.err
	}
	return nil
}

// observe checks and takes the handshakes of one cycle.
func (h *Host) observe(in *DUTOut) *ProtocolError {
	rd := desc{addr: in.RdDescAddr, len: in.RdDescLen, tag: in.RdDescTag}
	if pe := h.checkDesc(PortRdDesc, in.RdDescValid, rd, h.heldRd); pe != nil {
		return pe
	}
	wr := desc{addr: in.WrDescAddr, len: in.WrDescLen, tag: in.WrDescTag}
	if pe := h.checkDesc(PortWrDesc, in.WrDescValid, wr, h.heldWr); pe != nil {
		return pe
	}
	b := beat{data: in.WrData, keep: in.WrKeep, last: in.WrLast}
	if pe := h.checkBeat(in.WrValid, b); pe != nil {
		return pe
	}
	h.heldRd, h.heldWr, h.heldBeat = held(in.RdDescValid && !h.out.RdDescReady, rd),
		held(in.WrDescValid && !h.out.WrDescReady, wr), held(in.WrValid && !h.out.WrDataReady, b)
	if h.out.RdValid && in.RdDataReady {
		h.readMoved()
	}
	if in.RdDescValid && h.out.RdDescReady {
		if pe := h.takeRead(rd); pe != nil {
			return pe
		}
	}
	if in.WrValid && h.out.WrDataReady {
		if pe := h.writeBeat(b); pe != nil {
			return pe
		}
	}
	if in.WrDescValid && h.out.WrDescReady {
		return h.takeWrite(wr)
	}
	return nil
}

// held is a copy of v when it stays shown into the next cycle, else nil.
func held[T any](stays bool, v T) *T {
	if !stays {
		return nil
	}
	return &v
}

// reset drops everything in flight; memory keeps its bytes.
func (h *Host) reset() {
	h.rdQ, h.wrQ = nil, nil
	h.rdSts.Clear()
	h.wrSts.Clear()
	h.rdOut, h.wrOut, h.rdShown = 0, 0, false
	h.rdTags, h.wrTags = [256]bool{}, [256]bool{}
	h.heldRd, h.heldWr, h.heldBeat = nil, nil, nil
}
