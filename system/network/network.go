package network

import (
	"fmt"
	"math/rand/v2"
)

// Packet is one frame on the network.
type Packet struct {
	// Bytes is the frame length on the wire as the caller counts it (preamble and inter-frame gap included if the
	// caller wants them on the wire), 1..65535.
	Bytes int
	// Entropy is the UDP source port, hashed onto a path (ECMP).
	Entropy uint16
	// CE is set by the network when it marks the packet (a packet sent with CE set keeps it).
	CE bool
	// Tag is opaque to the network (the caller's packet id).
	Tag uint64
}

// Stats counts what the network did, per path.
type Stats struct {
	// Paths holds one entry per configured path.
	Paths []PathStats
}

// PathStats counts one path. Drops, marks and BusyCycles are counted when Send decides a packet's fate (its fate is
// fixed then, possibly before the instant it happens); Delivered and BytesDelivered when Poll returns it.
type PathStats struct {
	// Sent is the packets hashed onto the path.
	Sent int64
	// Delivered is the packets Poll has returned.
	Delivered int64
	// DroppedLoss is the packets lost by the random loss model after the link.
	DroppedLoss int64
	// DroppedTail is the packets that did not fit into the queue.
	DroppedTail int64
	// DroppedDown is the packets dropped by a Down interval.
	DroppedDown int64
	// Marked is the packets the queue CE-marked (some may be dropped later).
	Marked int64
	// BytesDelivered is the bytes of the Delivered packets.
	BytesDelivered int64
	// BusyCycles is the whole cycles (rounded down) the link spent serialising.
	BusyCycles int64
	// MaxQueueBytes is the largest queue occupancy, the entering packet included.
	MaxQueueBytes int
}

// lossKind is a loss model; the zero value is invalid.
type lossKind int

const (
	// lossInvalid is the zero value, never configured.
	lossInvalid lossKind = iota
	// lossNone loses nothing.
	lossNone
	// lossBernoulli loses independently per packet.
	lossBernoulli
	// lossGilbert is the Gilbert-Elliott state machine.
	lossGilbert
)

// String names the model as Loss.Model does.
func (k lossKind) String() string {
	switch k {
	case lossInvalid:
		return "invalid"
	case lossNone:
		return LossNone
	case lossBernoulli:
		return LossBernoulli
	case lossGilbert:
		return LossGilbert
	}
	return fmt.Sprintf("lossKind(%d)", int(k))
}

// departure is a packet leaving a path's queue.
type departure struct {
	// at is when its last bit leaves the link (or when it is dropped at the head of the queue).
	at instant
	// bytes is its length.
	bytes int
}

// flight is a packet on its way to the far end.
type flight struct {
	// arrive is the cycle it arrives at the far end.
	arrive int64
	// seq is its Send number, which orders packets arriving in the same cycle.
	seq uint64
	// pkt is the packet.
	pkt Packet
}

// path is the state of one path. Its instants are in units of 1/den cycle.
type path struct {
	// cfg is the path's configuration.
	cfg PathConfig
	// loss is cfg.Loss.Model parsed.
	loss lossKind
	// den is 1000*lcm(PortGbps, Gbps): the instants' units per cycle, in which both port and link times are whole.
	den int64
	// fromPort converts a port fraction (units of 1/(1000*PortGbps) cycle) to this path's units.
	fromPort int64
	// perByte is the link's serialisation time of one byte, in this path's units.
	perByte int64
	// free is when the link has sent the last bit of the last packet it serialises.
	free instant
	// busy is the total serialisation time of the link.
	busy instant
	// occ is the bytes queued (the packet on the link included) as of the last enqueue.
	occ int
	// queued are the departures of the packets counted in occ, in order.
	queued ring[departure]
	// downIn and downStart are the first Down intervals not yet over for enqueue and link-start instants.
	downIn, downStart int
	// bad is the Gilbert-Elliott state (false: good).
	bad bool
	// lossRNG draws losses, jitterRNG jitter.
	lossRNG, jitterRNG *rand.Rand
	// lastArrive is the arrival cycle of the path's last delivered packet (arrivals never go back).
	lastArrive int64
	// flights are the path's packets on the wire, in Send order (and arrival order).
	flights ring[flight]
	// stats counts the path.
	stats PathStats
}

// Network is one direction of a multipath network.
type Network struct {
	// cfg is the configuration.
	cfg Config
	// portDen is 1000*PortGbps, the port's units per cycle; portPerByte the serialisation time of a byte in them.
	portDen, portPerByte int64
	// portFree is when the port has sent the last bit of the last packet, in port units.
	portFree instant
	// paths are the paths.
	paths []path
	// heap holds the paths with packets on the wire, a min-heap by the (arrive, seq) of their first packet.
	heap []head
	// seq counts Send calls that started a packet.
	seq uint64
	// pending is the packets on the wire not yet polled.
	pending int
}

// New returns a network for cfg, which must be valid.
func New(cfg Config) (*Network, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	n := &Network{
		cfg:         cfg,
		portDen:     1000 * int64(cfg.PortGbps),
		portPerByte: 8 * int64(cfg.ClockMHz),
		paths:       make([]path, len(cfg.Paths)),
		heap:        make([]head, 0, len(cfg.Paths)),
	}
	n.cfg.Paths = make([]PathConfig, len(cfg.Paths))
	for i, pc := range cfg.Paths {
		pc.Down = append([]Interval(nil), pc.Down...)
		n.cfg.Paths[i] = pc
		port, link := int64(cfg.PortGbps), int64(pc.Gbps)
		lcm := port / gcd(port, link) * link
		kind := lossNone
		switch pc.Loss.Model {
		case LossBernoulli:
			kind = lossBernoulli
		case LossGilbert:
			kind = lossGilbert
		}
		j := 4 * uint64(i)
		n.paths[i] = path{
			cfg:       pc,
			loss:      kind,
			den:       1000 * lcm,
			fromPort:  lcm / port,
			perByte:   8 * int64(cfg.ClockMHz) * (lcm / link),
			lossRNG:   rand.New(rand.NewPCG(splitmix64(cfg.Seed, j), splitmix64(cfg.Seed, j+1))),
			jitterRNG: rand.New(rand.NewPCG(splitmix64(cfg.Seed, j+2), splitmix64(cfg.Seed, j+3))),
		}
	}
	return n, nil
}

// PathOf is the path ECMP puts entropy on: Hash(entropy, HashSeed) mod len(Paths).
func (n *Network) PathOf(entropy uint16) int {
	return int(Hash(entropy, n.cfg.HashSeed) % uint32(len(n.paths)))
}

// PortFree reports whether the egress port can start a packet in cycle now: the previous packet's last bit leaves
// the port at or before some instant inside cycle now (a new packet starts exactly then, so back-to-back packets
// keep the exact port rate).
func (n *Network) PortFree(now int64) bool { return n.portFree.cyc <= now }

// PortFreeAt is the first cycle in which PortFree is true.
func (n *Network) PortFreeAt() int64 { return n.portFree.cyc }

// Pending is the number of packets on the wire that Poll has not returned yet.
func (n *Network) Pending() int { return n.pending }

// Next is the arrival cycle of the next packet Poll will return; false if none is on the wire.
func (n *Network) Next() (int64, bool) {
	if len(n.heap) == 0 {
		return 0, false
	}
	return n.heap[0].arrive, true
}

// Send starts serialising p on the port in cycle now, at max(now, the instant the previous packet's last bit
// left). When p's last bit has left the port it enters path PathOf(p.Entropy), where its fate is decided (in this
// call; docs/network.md, "Pipeline"):
//
//	t = instant the last bit leaves the port
//	if t in a Down interval:                       drop (down)
//	if occ(t) + p.Bytes > QueueBytes:              drop (tail)
//	if occ(t) > ECNBytes:                          mark CE
//	s = max(t, link free)                          start on the link
//	if s in a Down interval:                       drop (down); the link stays free
//	e = s + p.Bytes*8*ClockMHz/(Gbps*1000)         last bit leaves the link; link free = e
//	if the loss model loses it:                    drop (loss)
//	arrive = max(ceil(e) + Delay + U[0, Jitter], previous arrival on the path)
//
// occ(t) is the bytes of the packets admitted to the path that have not left the link (or been dropped at the head
// of the queue) by t. Send fails if the port is busy or p.Bytes is out of range.
func (n *Network) Send(now int64, p Packet) error {
	if p.Bytes < MinPacketBytes || p.Bytes > MaxPacketBytes {
		return fmt.Errorf("packet bytes: value %d out of range (allowed %d..%d)",
			p.Bytes, MinPacketBytes, MaxPacketBytes)
	}
	if !n.PortFree(now) {
		return fmt.Errorf("port busy in cycle %d: the previous packet leaves the port in cycle %d", now, n.portFree.cyc)
	}
	n.serialisePort(now, p.Bytes)
	idx := n.PathOf(p.Entropy)
	pa := &n.paths[idx]
	pa.stats.Sent++
	t := instant{cyc: n.portFree.cyc, frac: n.portFree.frac * pa.fromPort}
	mark, admitted := pa.enqueue(t, p.Bytes)
	if !admitted {
		return nil
	}
	if mark {
		p.CE = true
	}
	e, sent := pa.serialise(t, p.Bytes)
	if !sent {
		return nil
	}
	if pa.lose() {
		pa.stats.DroppedLoss++
		return nil
	}
	n.launch(idx, pa.arrival(e), p)
	return nil
}

// serialisePort starts a packet of the given bytes on the port in cycle now, at max(now, portFree), moves
// portFree to the instant its last bit leaves the port, and numbers it.
func (n *Network) serialisePort(now int64, bytes int) {
	start := instant{cyc: now}
	if start.before(n.portFree) {
		start = n.portFree
	}
	n.portFree = start.add(int64(bytes)*n.portPerByte, n.portDen)
	n.seq++
}

// enqueue offers a packet of the given bytes, whose last bit left the port at t (path units), to the path's
// queue; it reports whether the packet is CE-marked and whether it was admitted:
//
//	if t in a Down interval:                       drop (down)
//	if occ(t) + bytes > QueueBytes:                drop (tail)
//	if occ(t) > ECNBytes:                          mark CE
//	occ += bytes
func (pa *path) enqueue(t instant, bytes int) (mark, admitted bool) {
	st := &pa.stats
	if pa.down(&pa.downIn, t.cyc) {
		st.DroppedDown++
		return false, false
	}
	for pa.queued.n > 0 && !t.before(pa.queued.front().at) {
		pa.occ -= pa.queued.front().bytes
		pa.queued.pop()
	}
	if pa.occ+bytes > pa.cfg.QueueBytes {
		st.DroppedTail++
		return false, false
	}
	if pa.occ > pa.cfg.ECNBytes {
		mark = true
		st.Marked++
	}
	pa.occ += bytes
	st.MaxQueueBytes = max(st.MaxQueueBytes, pa.occ)
	return mark, true
}

// serialise takes an admitted packet of the given bytes, queued at t, onto the path's link when the link is free;
// it returns the instant e its last bit leaves the link, and false if the path is down when its turn comes:
//
//	s = max(t, link free)                          start on the link
//	if s in a Down interval:                       drop (down); the link stays free
//	e = s + bytes*8*ClockMHz/(Gbps*1000)           last bit leaves the link; link free = e
func (pa *path) serialise(t instant, bytes int) (e instant, sent bool) {
	s := t
	if s.before(pa.free) {
		s = pa.free
	}
	if pa.down(&pa.downStart, s.cyc) {
		// s > t here (t is not down), so the packet waited in the queue until s.
		pa.stats.DroppedDown++
		pa.queued.push(departure{at: s, bytes: bytes})
		return instant{}, false
	}
	ser := int64(bytes) * pa.perByte
	pa.free = s.add(ser, pa.den)
	pa.busy = pa.busy.add(ser, pa.den)
	pa.queued.push(departure{at: pa.free, bytes: bytes})
	return pa.free, true
}

// arrival is the arrival cycle at the far end of a delivered packet whose last bit left the link at e:
// max(ceil(e) + Delay + U[0, Jitter], the previous arrival on the path).
func (pa *path) arrival(e instant) int64 {
	arrive := e.ceil() + pa.cfg.Delay
	if pa.cfg.Jitter > 0 {
		arrive += pa.jitterRNG.Int64N(pa.cfg.Jitter + 1)
	}
	arrive = max(arrive, pa.lastArrive)
	pa.lastArrive = arrive
	return arrive
}

// launch puts p, the packet of the current Send, on the wire of path idx to arrive in cycle arrive; a path
// whose wire was empty joins the arrival heap.
func (n *Network) launch(idx int, arrive int64, p Packet) {
	pa := &n.paths[idx]
	pa.flights.push(flight{arrive: arrive, seq: n.seq, pkt: p})
	n.pending++
	if pa.flights.n == 1 {
		n.heap = append(n.heap, head{arrive: arrive, seq: n.seq, path: idx})
		n.siftUp(len(n.heap) - 1)
	}
}

// Poll returns the next packet that has arrived at the far end by cycle now, in arrival order; packets arriving in
// the same cycle come in Send order. Call it until it returns false.
func (n *Network) Poll(now int64) (Packet, bool) {
	if len(n.heap) == 0 || n.heap[0].arrive > now {
		return Packet{}, false
	}
	pa := &n.paths[n.heap[0].path]
	p := pa.flights.front().pkt
	pa.flights.pop()
	n.pending--
	pa.stats.Delivered++
	pa.stats.BytesDelivered += int64(p.Bytes)
	if pa.flights.n > 0 {
		f := pa.flights.front()
		n.heap[0].arrive = f.arrive
		n.heap[0].seq = f.seq
	} else {
		last := len(n.heap) - 1
		n.heap[0] = n.heap[last]
		n.heap = n.heap[:last]
	}
	n.siftDown(0)
	return p, true
}

// Stats returns a copy of the counters.
func (n *Network) Stats() Stats {
	s := Stats{Paths: make([]PathStats, len(n.paths))}
	for i := range n.paths {
		s.Paths[i] = n.paths[i].stats
		s.Paths[i].BusyCycles = n.paths[i].busy.cyc
	}
	return s
}

// down reports whether cycle c is in one of the path's Down intervals; *cur is the first interval that was not
// over at the previous query with the same cursor (the queries of one cursor never go back in time).
func (pa *path) down(cur *int, c int64) bool {
	d := pa.cfg.Down
	for *cur < len(d) && d[*cur].To <= c {
		*cur++
	}
	return *cur < len(d) && d[*cur].From <= c
}

// lose steps the loss model for one packet that crossed the link and reports whether it is lost.
//
//	bernoulli: lost = u < P
//	gilbert:   bad = bad ? !(u1 < BadToGood) : u1 < GoodToBad;  lost = u2 < (bad ? LossBad : LossGood)
//
// u, u1, u2 are fresh uniform [0, 1) draws of the path's loss generator.
func (pa *path) lose() bool {
	switch pa.loss {
	case lossBernoulli:
		return pa.lossRNG.Float64() < pa.cfg.Loss.P
	case lossGilbert:
		u := pa.lossRNG.Float64()
		if pa.bad {
			pa.bad = !(u < pa.cfg.Loss.BadToGood)
		} else {
			pa.bad = u < pa.cfg.Loss.GoodToBad
		}
		h := pa.cfg.Loss.LossGood
		if pa.bad {
			h = pa.cfg.Loss.LossBad
		}
		return pa.lossRNG.Float64() < h
	case lossInvalid, lossNone:
	}
	return false
}

// head is a path with packets on the wire in the arrival heap, keyed by its first packet.
type head struct {
	// arrive is the first packet's arrival cycle.
	arrive int64
	// seq is the first packet's Send number.
	seq uint64
	// path is the path's index.
	path int
}

// less orders heap entries i and j by (arrive, seq).
func (n *Network) less(i, j int) bool {
	a, b := &n.heap[i], &n.heap[j]
	return a.arrive < b.arrive || (a.arrive == b.arrive && a.seq < b.seq)
}

// siftUp restores the heap above entry i.
func (n *Network) siftUp(i int) {
	for i > 0 {
		p := (i - 1) / 2
		if !n.less(i, p) {
			return
		}
		n.heap[i], n.heap[p] = n.heap[p], n.heap[i]
		i = p
	}
}

// siftDown restores the heap below entry i.
func (n *Network) siftDown(i int) {
	for {
		l, m := 2*i+1, i
		if l < len(n.heap) && n.less(l, m) {
			m = l
		}
		if r := l + 1; r < len(n.heap) && n.less(r, m) {
			m = r
		}
		if m == i {
			return
		}
		n.heap[i], n.heap[m] = n.heap[m], n.heap[i]
		i = m
	}
}

// ring is a FIFO in a power-of-two circular buffer that grows by doubling.
type ring[T any] struct {
	// buf holds the items; head is the index of the first, n their number.
	buf     []T
	head, n int
}

// push appends v.
func (r *ring[T]) push(v T) {
	if r.n == len(r.buf) {
		buf := make([]T, max(8, 2*len(r.buf)))
		for i := 0; i < r.n; i++ {
			buf[i] = r.buf[(r.head+i)&(len(r.buf)-1)]
		}
		r.buf = buf
		r.head = 0
	}
	r.buf[(r.head+r.n)&(len(r.buf)-1)] = v
	r.n++
}

// front is the first item; the ring must not be empty.
func (r *ring[T]) front() *T { return &r.buf[r.head] }

// pop removes the first item; the ring must not be empty.
func (r *ring[T]) pop() {
	r.head = (r.head + 1) & (len(r.buf) - 1)
	r.n--
}
