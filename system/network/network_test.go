package network_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/spraynic/spraynic/system/network"
	"github.com/stretchr/testify/require"
)

// arrival is one packet returned by Poll and the cycle it arrived.
type arrival struct {
	// cycle is the arrival cycle; p the packet.
	cycle int64
	p     network.Packet
}

// tagged makes packets of the given bytes, packet i tagged i (for drive).
func tagged(bytes int) func(i int) network.Packet {
	return func(i int) network.Packet { return network.Packet{Bytes: bytes, Tag: uint64(i)} }
}

// drive sends count packets made by mk, packet i in the first cycle >= earliest(i) in which the port is free
// (earliest nil: back to back), polls every arrival in its cycle (Next) and drains the network at the end.
func drive(t testing.TB, n *network.Network, count int, earliest func(i int) int64,
	mk func(i int) network.Packet) []arrival {
	t.Helper()
	var out []arrival
	poll := func(until int64) {
		for {
			c, ok := n.Next()
			if !ok || c > until {
				return
			}
			p, ok := n.Poll(c)
			require.True(t, ok, "Poll(%d) after Next said a packet arrives in cycle %d", c, c)
			if len(out) > 0 && c < out[len(out)-1].cycle {
				require.GreaterOrEqual(t, c, out[len(out)-1].cycle, "arrival cycles never go back (tag %d)", p.Tag)
			}
			out = append(out, arrival{cycle: c, p: p})
		}
	}
	for i := range count {
		at := n.PortFreeAt()
		if earliest != nil {
			at = max(at, earliest(i))
		}
		require.True(t, n.PortFree(at), "port free in cycle %d (PortFreeAt %d)", at, n.PortFreeAt())
		poll(at)
		require.NoError(t, n.Send(at, mk(i)), "send packet %d in cycle %d", i, at)
	}
	poll(math.MaxInt64)
	require.Zero(t, n.Pending(), "packets left on the wire after draining")
	return out
}

// onePath is a config with one lossless path of gbps behind a port of portGbps at 250 MHz.
func onePath(portGbps, gbps int) network.Config {
	return network.Config{ClockMHz: 250, PortGbps: portGbps, Seed: 1,
		Paths: []network.PathConfig{{Gbps: gbps, QueueBytes: 1 << 30, ECNBytes: 1 << 30}}}
}

// tags lists the packets' tags in arrival order.
func tags(as []arrival) []uint64 {
	out := make([]uint64, len(as))
	for i, a := range as {
		out[i] = a.p.Tag
	}
	return out
}

// seq is the tags lo..hi-1.
func seq(lo, hi int) []uint64 {
	var out []uint64
	for i := lo; i < hi; i++ {
		out = append(out, uint64(i))
	}
	return out
}

func TestCycles(t *testing.T) {
	for _, tc := range []struct {
		name             string
		bytes, gbps, mhz int
		wantNum, wantDen int64
	}{
		{name: "400G 250MHz 4194B", bytes: 4194, gbps: 400, mhz: 250, wantNum: 2097, wantDen: 100},
		{name: "400G 250MHz 200B is one cycle", bytes: 200, gbps: 400, mhz: 250, wantNum: 1, wantDen: 1},
		{name: "7G 250MHz 1000B", bytes: 1000, gbps: 7, mhz: 250, wantNum: 2000, wantDen: 7},
		{name: "1600G 2000MHz 1B", bytes: 1, gbps: 1600, mhz: 2000, wantNum: 1, wantDen: 100},
	} {
		t.Run(tc.name, func(t *testing.T) {
			num, den := network.Cycles(tc.bytes, tc.gbps, tc.mhz)
			require.Equal(t, [2]int64{tc.wantNum, tc.wantDen}, [2]int64{num, den},
				"num/den of %d bytes at %d Gb/s, %d MHz", tc.bytes, tc.gbps, tc.mhz)
		})
	}
}

// TestRate checks the port and path rates over 10^5 back-to-back packets against an independent exact reference
// (all times in units of 1/(1000*port*path) cycle).
func TestRate(t *testing.T) {
	const count = 100_000
	for _, tc := range []struct {
		name            string
		port, path      int
		bytes           int
		delay           int64
		wantPortFreeAt  int64 // PortFreeAt after the last packet
		wantLastArrival int64
	}{
		{name: "400G port and path", port: 400, path: 400, bytes: 4194,
			wantPortFreeAt: 2_097_000, wantLastArrival: 2_097_021},
		{name: "400G port, 100G path", port: 400, path: 100, bytes: 4194,
			wantPortFreeAt: 2_097_000, wantLastArrival: 8_388_021},
		{name: "400G port, 300G path", port: 400, path: 300, bytes: 4194,
			wantPortFreeAt: 2_097_000, wantLastArrival: 2_796_021},
		{name: "100G port, 400G path, delay", port: 100, path: 400, bytes: 4194, delay: 1000,
			wantPortFreeAt: 8_388_000, wantLastArrival: 8_389_021},
		// port 2000/7 cycles per packet, path 2000/13: last port end 2e8/7, last arrival ceil(2e8/7 + 2000/13).
		{name: "7G port, 13G path", port: 7, path: 13, bytes: 1000,
			wantPortFreeAt: 28_571_428, wantLastArrival: 28_571_583},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := onePath(tc.port, tc.path)
			cfg.Paths[0].Delay = tc.delay
			n, err := network.New(cfg)
			require.NoError(t, err)
			got := drive(t, n, count, nil, tagged(tc.bytes))
			require.Equal(t, tc.wantPortFreeAt, n.PortFreeAt(), "cycle the port is free after the last packet")
			require.True(t, n.PortFree(tc.wantPortFreeAt), "port free in cycle %d", tc.wantPortFreeAt)
			require.False(t, n.PortFree(tc.wantPortFreeAt-1), "port busy in cycle %d", tc.wantPortFreeAt-1)
			require.Len(t, got, count, "delivered packets")
			require.Equal(t, tc.wantLastArrival, got[count-1].cycle, "last arrival")

			// Reference: port end k = (k+1)*portSer, link end = max(port end, previous link end) + pathSer.
			den := int64(1000 * tc.port * tc.path)
			portSer := int64(tc.bytes*8*250) * int64(tc.path)
			pathSer := int64(tc.bytes*8*250) * int64(tc.port)
			var portEnd, linkEnd int64
			for k := range count {
				portEnd += portSer
				linkEnd = max(portEnd, linkEnd) + pathSer
				want := (linkEnd+den-1)/den + tc.delay
				if got[k].cycle != want || got[k].p.Tag != uint64(k) {
					wantArrival := arrival{cycle: want, p: network.Packet{Bytes: tc.bytes, Tag: uint64(k)}}
					require.Equal(t, wantArrival, got[k], "arrival %d", k)
				}
			}
			// Throughput: the port sent count packets in exactly count*portSer; the link was busy count*pathSer.
			st := n.Stats().Paths[0]
			require.Equal(t, portEnd/den, n.PortFreeAt(), "the port end matches the reference")
			require.Equal(t, int64(count*tc.bytes), st.BytesDelivered, "bytes delivered")
			if portEnd%den == 0 {
				require.Equal(t, st.BytesDelivered*8*250, n.PortFreeAt()*int64(tc.port)*1000,
					"bits*MHz = cycles*Gbps*1000: the port rate is exact")
			}
			require.Equal(t, count*pathSer/den, st.BusyCycles, "link busy cycles")
		})
	}
}

func TestOrder(t *testing.T) {
	for _, tc := range []struct {
		name        string
		paths       int
		wantReorder bool
	}{
		{name: "one path, large jitter: in order", paths: 1},
		{name: "four paths, large jitter: in order per path, reordered across", paths: 4, wantReorder: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := network.Config{ClockMHz: 250, PortGbps: 100, Seed: 7}
			for range tc.paths {
				cfg.Paths = append(cfg.Paths, network.PathConfig{Gbps: 100, Delay: 100, Jitter: 10_000,
					QueueBytes: 1 << 20, ECNBytes: 1 << 20})
			}
			n, err := network.New(cfg)
			require.NoError(t, err)
			got := drive(t, n, 20_000, nil, func(i int) network.Packet {
				return network.Packet{Bytes: 1000, Entropy: uint16(i), Tag: uint64(i)}
			})
			require.Len(t, got, 20_000, "delivered packets (lossless)")
			last := make([]int64, tc.paths)
			for i := range last {
				last[i] = -1
			}
			inversions, jittered := 0, 0
			for i, a := range got {
				p := n.PathOf(a.p.Entropy)
				require.Greater(t, int64(a.p.Tag), last[p], "arrival %d: tag %d on path %d after tag %d",
					i, a.p.Tag, p, last[p])
				last[p] = int64(a.p.Tag)
				if i > 0 && a.p.Tag < got[i-1].p.Tag {
					inversions++
				}
				// Equal rates, no queueing: the last bit leaves the link at 20(k+2), then Delay + [0, Jitter].
				lo := 20*(int64(a.p.Tag)+2) + 100
				require.True(t, a.cycle >= lo && a.cycle <= lo+10_000, "tag %d arrives in cycle %d, want %d..%d",
					a.p.Tag, a.cycle, lo, lo+10_000)
				if a.cycle > lo {
					jittered++
				}
			}
			require.Greater(t, jittered, len(got)/2, "jitter delays most packets")
			if tc.wantReorder {
				require.Greater(t, inversions, 1000, "packets of different paths reorder")
			}
		})
	}
}

// lossRun sends count packets over one path with loss model l and returns the tags lost, in order.
func lossRun(t *testing.T, l network.Loss, count int) (lost []uint64, st network.PathStats) {
	t.Helper()
	cfg := onePath(100, 100)
	cfg.Seed = 42
	cfg.Paths[0].Loss = l
	n, err := network.New(cfg)
	require.NoError(t, err)
	got := drive(t, n, count, nil, tagged(100))
	next := uint64(0)
	for _, a := range got {
		for ; next < a.p.Tag; next++ {
			lost = append(lost, next)
		}
		next++
	}
	for ; next < uint64(count); next++ {
		lost = append(lost, next)
	}
	st = n.Stats().Paths[0]
	require.Equal(t, int64(len(lost)), st.DroppedLoss, "DroppedLoss counts the missing tags")
	require.Equal(t, int64(count-len(lost)), st.Delivered, "Delivered")
	return lost, st
}

func TestBernoulli(t *testing.T) {
	const count = 100_000
	for _, p := range []float64{0, 0.001, 0.01, 0.1, 0.5, 1} {
		t.Run(fmt.Sprint(p), func(t *testing.T) {
			lost, _ := lossRun(t, network.Loss{Model: "bernoulli", P: p}, count)
			// Binomial: 5 sigma (exact for p = 0 and 1).
			mean, sd := count*p, math.Sqrt(count*p*(1-p))
			require.InDelta(t, mean, float64(len(lost)), 5*sd, "lost packets of %d at p=%v", count, p)
		})
	}
}

func TestGilbertElliott(t *testing.T) {
	const count = 200_000
	for _, tc := range []struct {
		name string
		l    network.Loss
	}{
		{name: "bad loses all", l: network.Loss{Model: "gilbert", GoodToBad: 0.01, BadToGood: 0.2, LossBad: 1}},
		{name: "long bursts", l: network.Loss{Model: "gilbert", GoodToBad: 0.001, BadToGood: 0.05, LossBad: 1}},
		{name: "partial",
			l: network.Loss{Model: "gilbert", GoodToBad: 0.02, BadToGood: 0.3, LossGood: 0.001, LossBad: 0.6}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			lost, _ := lossRun(t, tc.l, count)
			// Stationary: piB = p/(p+r); mean loss m = piG*LossGood + piB*LossBad. The variance of the loss count of
			// a two-state chain with lambda = 1-p-r is about
			// n*(m(1-m) + 2(LossBad-LossGood)^2 piB piG lambda/(1-lambda)).
			p, r := tc.l.GoodToBad, tc.l.BadToGood
			piB := p / (p + r)
			piG := 1 - piB
			m := piG*tc.l.LossGood + piB*tc.l.LossBad
			lambda := 1 - p - r
			dh := tc.l.LossBad - tc.l.LossGood
			sd := math.Sqrt(count * (m*(1-m) + 2*dh*dh*piB*piG*lambda/(1-lambda)))
			require.InDelta(t, count*m, float64(len(lost)), 5*sd, "lost packets of %d, stationary loss %v", count, m)
			if tc.l.LossGood != 0 || tc.l.LossBad != 1 {
				return
			}
			// Bursts are the bad sojourns: geometric, mean 1/r, variance (1-r)/r^2.
			var bursts []int
			for i, tag := range lost {
				if i > 0 && tag == lost[i-1]+1 {
					bursts[len(bursts)-1]++
				} else {
					bursts = append(bursts, 1)
				}
			}
			meanBurst := float64(len(lost)) / float64(len(bursts))
			sdMean := math.Sqrt((1 - r) / (r * r) / float64(len(bursts)))
			require.InDelta(t, 1/r, meanBurst, 5*sdMean, "mean burst length over %d bursts", len(bursts))
			require.Greater(t, meanBurst, 4.0, "losses come in bursts (Bernoulli at the same rate gives ~1.05)")
		})
	}
}

// TestECNAndTailDrop: a 100G port (1000 bytes: 20 cycles) in front of a 10G path (200 cycles). Back to back,
// packet k enters at 20(k+1) and finds 1000*min(k, 9) bytes queued (packet 0 leaves the link at 220, when packet 10
// enters); the queue of 10000 bytes is then full: packet 11 is tail-dropped. Later packets paced 400 cycles apart
// find the queue empty.
func TestECNAndTailDrop(t *testing.T) {
	for _, tc := range []struct {
		name string
		ecn  int
	}{
		{name: "mark above 0", ecn: 0},
		{name: "mark above 2500", ecn: 2500},
		{name: "mark above 3000 (3000 is not marked)", ecn: 3000},
		{name: "mark above 8999", ecn: 8999},
		{name: "ecn_bytes = queue_bytes never marks", ecn: 10000},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := onePath(100, 10)
			cfg.Paths[0].QueueBytes = 10000
			cfg.Paths[0].ECNBytes = tc.ecn
			n, err := network.New(cfg)
			require.NoError(t, err)
			got := drive(t, n, 12, nil, tagged(1000))
			require.Equal(t, seq(0, 11), tags(got), "packets 0..10 delivered, 11 tail-dropped")
			for k, a := range got {
				occ := 1000 * min(k, 9)
				require.Equal(t, occ > tc.ecn, a.p.CE, "packet %d found %d bytes queued, threshold %d", k, occ, tc.ecn)
			}
			st := n.Stats().Paths[0]
			require.Equal(t, int64(1), st.DroppedTail, "tail drops")
			require.Equal(t, 10000, st.MaxQueueBytes, "max queue")
			var marks int64
			for _, a := range got {
				if a.p.CE {
					marks++
				}
			}
			require.Equal(t, marks, st.Marked, "Marked counts the CE packets")

			start := n.PortFreeAt() + 10_000
			paced := drive(t, n, 50, func(i int) int64 { return start + 400*int64(i) }, func(i int) network.Packet {
				return network.Packet{Bytes: 1000, Tag: uint64(100 + i)}
			})
			require.Len(t, paced, 50, "paced packets all delivered")
			for _, a := range paced {
				require.False(t, a.p.CE, "packet %d paced after cycle %d marked with an empty queue", a.p.Tag, start)
			}
		})
	}
}

func TestTailDropOverload(t *testing.T) {
	cfg := onePath(100, 10)
	cfg.Paths[0].QueueBytes = 20_000
	cfg.Paths[0].ECNBytes = 5_000
	n, err := network.New(cfg)
	require.NoError(t, err)
	got := drive(t, n, 1000, nil, tagged(1000))
	st := n.Stats().Paths[0]
	require.Equal(t, int64(1000), st.Sent, "sent")
	require.Equal(t, int64(1000), st.Delivered+st.DroppedTail, "every packet delivered or tail-dropped")
	require.Greater(t, st.DroppedTail, int64(800), "a 10x overload drops most packets")
	require.Equal(t, 20_000, st.MaxQueueBytes, "the queue fills up to its capacity")
	for i := 1; i < len(got); i++ {
		require.Equal(t, got[i-1].cycle+200, got[i].cycle,
			"a backlogged 10G path delivers one 1000-byte packet per 200 cycles (arrival %d)", i)
	}
}

func TestDown(t *testing.T) {
	for _, tc := range []struct {
		name       string
		port, path int
		down       []network.Interval
		count      int
		want       []uint64 // delivered tags
	}{
		// Equal rates: packet k enters the path and starts on its link at 20(k+1).
		{name: "drops at entry exactly inside [From, To)", port: 100, path: 100, count: 150,
			down: []network.Interval{{From: 1000, To: 2000}}, want: append(seq(0, 49), seq(99, 150)...)},
		{name: "two intervals", port: 100, path: 100, count: 150,
			down: []network.Interval{{From: 1000, To: 1100}, {From: 1500, To: 1600}},
			want: append(append(seq(0, 49), seq(54, 74)...), seq(79, 150)...)},
		{name: "boundaries: [20, 21) drops the packet entering at 20, [41, 60) none", port: 100, path: 100, count: 10,
			down: []network.Interval{{From: 20, To: 21}, {From: 41, To: 60}}, want: seq(1, 10)},
		// 50G path: packet k starts at 20+40k up to packet 24 (980..1020, on the link at 1000: delivered); 25..73
		// would start in [1000, 1500) (queued ones are flushed; later ones enter before 1500); 74 enters at 1500.
		{name: "queued packets flushed", port: 100, path: 50, count: 100,
			down: []network.Interval{{From: 1000, To: 1500}}, want: append(seq(0, 25), seq(74, 100)...)},
		// 10G path: packet 0 is on the link 20..220; packet 4 enters at 100, inside [100, 120), and is dropped
		// although it would have started on the link after 120; packets 1..3 and 5.. wait and are delivered.
		{name: "entering while down drops", port: 100, path: 10, count: 10,
			down: []network.Interval{{From: 100, To: 120}}, want: append(seq(0, 4), seq(5, 10)...)},
		{name: "none", port: 100, path: 100, count: 100, want: seq(0, 100)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := onePath(tc.port, tc.path)
			cfg.Paths[0].Down = tc.down
			n, err := network.New(cfg)
			require.NoError(t, err)
			got := drive(t, n, tc.count, nil, tagged(1000))
			require.Equal(t, tc.want, tags(got), "delivered tags")
			require.Equal(t, int64(tc.count-len(tc.want)), n.Stats().Paths[0].DroppedDown, "DroppedDown")
		})
	}
}

// TestTies: packets arriving in the same cycle come out in Send order. 1000-byte packets take 5 cycles on the 400G
// port and on either 400G path, sent at 0, 5, 10. Packet 1 (path A, delay 1) arrives at 10+1; packet 2 (path B,
// delay 6) at 15+6 = 21; packet 3 (path A) at 20+1 = 21 too, and comes out behind packet 2 although path A is
// ahead of path B in the arrival heap.
func TestTies(t *testing.T) {
	cfg := network.Config{ClockMHz: 250, PortGbps: 400, Paths: []network.PathConfig{
		{Gbps: 400, Delay: 1, QueueBytes: 1 << 20, ECNBytes: 1 << 20},
		{Gbps: 400, Delay: 6, QueueBytes: 1 << 20, ECNBytes: 1 << 20},
	}}
	n, err := network.New(cfg)
	require.NoError(t, err)
	var entropy [2]uint16
	for e, found := uint16(0), 0; found != 3; e++ {
		p := n.PathOf(e)
		entropy[p] = e
		found |= 1 << p
	}
	onPath := []int{0, 1, 0}
	got := drive(t, n, 3, nil, func(i int) network.Packet {
		return network.Packet{Bytes: 1000, Entropy: entropy[onPath[i]], Tag: uint64(i + 1)}
	})
	want := []arrival{
		{cycle: 11, p: network.Packet{Bytes: 1000, Entropy: entropy[0], Tag: 1}},
		{cycle: 21, p: network.Packet{Bytes: 1000, Entropy: entropy[1], Tag: 2}},
		{cycle: 21, p: network.Packet{Bytes: 1000, Entropy: entropy[0], Tag: 3}},
	}
	require.Equal(t, want, got, "arrivals")
}

func TestPathOf(t *testing.T) {
	// MurmurHash3_x86_32 of the 4 zero bytes with seed 0 (the reference test vector).
	require.Equal(t, uint32(0x2362f9de), network.Hash(0, 0), "murmur3 known answer")
	for _, tc := range []struct {
		paths   int
		maxChi2 float64 // P(chi2 >= maxChi2) < 1e-6 for paths-1 degrees of freedom
	}{
		{paths: 2, maxChi2: 25},
		{paths: 3, maxChi2: 29},
		{paths: 8, maxChi2: 41},
		{paths: 64, maxChi2: 135},
	} {
		t.Run(fmt.Sprint(tc.paths), func(t *testing.T) {
			mk := func(hashSeed uint32) *network.Network {
				cfg := network.Config{ClockMHz: 250, PortGbps: 100, HashSeed: hashSeed}
				for range tc.paths {
					cfg.Paths = append(cfg.Paths, network.PathConfig{Gbps: 100, QueueBytes: 1 << 20})
				}
				n, err := network.New(cfg)
				require.NoError(t, err)
				return n
			}
			a, b, c := mk(0x1234), mk(0x1234), mk(0x1235)
			const count = 1000
			hist := make([]int, tc.paths)
			moved, reseeded := 0, 0
			for e := 0xC000; e < 0xC000+count; e++ {
				p := a.PathOf(uint16(e))
				require.Equal(t, p, b.PathOf(uint16(e)), "entropy %#x: same config, same path", e)
				require.Equal(t, int(network.Hash(uint16(e), 0x1234)%uint32(tc.paths)), p,
					"entropy %#x: Hash mod paths", e)
				hist[p]++
				if a.PathOf(uint16(e+1)) != p {
					moved++
				}
				if c.PathOf(uint16(e)) != p {
					reseeded++
				}
			}
			expect := float64(count) / float64(tc.paths)
			chi2 := 0.0
			for _, h := range hist {
				chi2 += (float64(h) - expect) * (float64(h) - expect) / expect
			}
			require.Less(t, chi2, tc.maxChi2, "chi-square of the path histogram %v", hist)
			q := float64(tc.paths-1) / float64(tc.paths)
			sd := math.Sqrt(count * q * (1 - q))
			require.InDelta(t, count*q, float64(moved), 5*sd, "entropy+1 moves a flow with probability (N-1)/N")
			require.InDelta(t, count*q, float64(reseeded), 5*sd,
				"another hash seed moves a flow with probability (N-1)/N")
		})
	}
}

// validConfig is a valid two-path config with every field set.
func validConfig() network.Config {
	return network.Config{ClockMHz: 250, PortGbps: 400, HashSeed: 1, Seed: 2, Paths: []network.PathConfig{
		{Gbps: 100, Delay: 1000, Jitter: 50, QueueBytes: 100_000, ECNBytes: 20_000,
			Loss: network.Loss{Model: "bernoulli", P: 0.01}},
		{Gbps: 100, Delay: 1000, QueueBytes: 100_000, ECNBytes: 20_000,
			Loss: network.Loss{Model: "gilbert", GoodToBad: 0.01, BadToGood: 0.5, LossGood: 0, LossBad: 1},
			Down: []network.Interval{{From: 10, To: 20}, {From: 20, To: 30}}},
	}}
}

func TestValidate(t *testing.T) {
	for _, tc := range []struct {
		name string
		edit func(c *network.Config)
		want string
	}{
		{name: "valid", edit: func(c *network.Config) {}},
		{name: "empty loss model is none", edit: func(c *network.Config) { c.Paths[0].Loss = network.Loss{} }},
		{name: "clock low", edit: func(c *network.Config) { c.ClockMHz = 0 },
			want: "clock_mhz: value 0 out of range (allowed 1..2000)"},
		{name: "clock high", edit: func(c *network.Config) { c.ClockMHz = 2001 },
			want: "clock_mhz: value 2001 out of range (allowed 1..2000)"},
		{name: "port", edit: func(c *network.Config) { c.PortGbps = 1601 },
			want: "port_gbps: value 1601 out of range (allowed 1..1600)"},
		{name: "no paths", edit: func(c *network.Config) { c.Paths = nil },
			want: "paths: 0 paths out of range (allowed 1..64)"},
		{name: "65 paths", edit: func(c *network.Config) {
			for len(c.Paths) < 65 {
				c.Paths = append(c.Paths, c.Paths[0])
			}
		}, want: "paths: 65 paths out of range (allowed 1..64)"},
		{name: "gbps", edit: func(c *network.Config) { c.Paths[1].Gbps = 0 },
			want: "paths[1].gbps: value 0 out of range (allowed 1..1600)"},
		{name: "delay", edit: func(c *network.Config) { c.Paths[0].Delay = -1 },
			want: "paths[0].delay: value -1 out of range (allowed 0..1000000000)"},
		{name: "jitter", edit: func(c *network.Config) { c.Paths[1].Jitter = 1_000_000_001 },
			want: "paths[1].jitter: value 1000000001 out of range (allowed 0..1000000000)"},
		{name: "queue", edit: func(c *network.Config) { c.Paths[0].QueueBytes = 0 },
			want: "paths[0].queue_bytes: value 0 out of range (allowed 1..1073741824)"},
		{name: "ecn above queue", edit: func(c *network.Config) { c.Paths[1].ECNBytes = 100_001 },
			want: "paths[1].ecn_bytes: value 100001 out of range (allowed 0..100000, at most queue_bytes)"},
		{name: "ecn negative", edit: func(c *network.Config) { c.Paths[0].ECNBytes = -1 },
			want: "paths[0].ecn_bytes: value -1 out of range (allowed 0..100000, at most queue_bytes)"},
		{name: "loss model", edit: func(c *network.Config) { c.Paths[1].Loss.Model = "uniform" },
			want: `paths[1].loss.model: unknown model "uniform" (allowed none, bernoulli, gilbert)`},
		{name: "loss p", edit: func(c *network.Config) { c.Paths[0].Loss.P = 1.5 },
			want: "paths[0].loss.p: value 1.5 out of range (allowed 0..1)"},
		{name: "loss p NaN", edit: func(c *network.Config) { c.Paths[0].Loss.P = math.NaN() },
			want: "paths[0].loss.p: value NaN out of range (allowed 0..1)"},
		{name: "good_to_bad", edit: func(c *network.Config) { c.Paths[1].Loss.GoodToBad = -0.1 },
			want: "paths[1].loss.good_to_bad: value -0.1 out of range (allowed 0..1)"},
		{name: "bad_to_good", edit: func(c *network.Config) { c.Paths[1].Loss.BadToGood = 2 },
			want: "paths[1].loss.bad_to_good: value 2 out of range (allowed 0..1)"},
		{name: "loss_good", edit: func(c *network.Config) { c.Paths[1].Loss.LossGood = 1.01 },
			want: "paths[1].loss.loss_good: value 1.01 out of range (allowed 0..1)"},
		{name: "loss_bad", edit: func(c *network.Config) { c.Paths[1].Loss.LossBad = -1 },
			want: "paths[1].loss.loss_bad: value -1 out of range (allowed 0..1)"},
		{name: "down from negative", edit: func(c *network.Config) { c.Paths[1].Down[0].From = -5 },
			want: "paths[1].down[0].from: value -5 out of range (allowed 0..9223372036854775807)"},
		{name: "down empty", edit: func(c *network.Config) { c.Paths[1].Down[1].To = 20 },
			want: "paths[1].down[1].to: value 20 not above from 20 (allowed: from < to)"},
		{name: "down overlapping", edit: func(c *network.Config) { c.Paths[1].Down[1].From = 19 },
			want: "paths[1].down[1].from: value 19 below down[0].to 20 (allowed: intervals ascending, " +
				"not overlapping)"},
		{name: "two errors joined", edit: func(c *network.Config) {
			c.ClockMHz = 0
			c.Paths[0].Gbps = 0
		}, want: "clock_mhz: value 0 out of range (allowed 1..2000)\n" +
			"paths[0].gbps: value 0 out of range (allowed 1..1600)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := validConfig()
			tc.edit(&c)
			err := c.Validate()
			_, newErr := network.New(c)
			if tc.want == "" {
				require.NoError(t, err, "valid config")
				require.NoError(t, newErr, "New of a valid config")
				return
			}
			require.EqualError(t, err, tc.want, "Validate")
			require.EqualError(t, newErr, tc.want, "New validates")
		})
	}
}

func TestSendErrors(t *testing.T) {
	n, err := network.New(onePath(400, 400))
	require.NoError(t, err)
	require.EqualError(t, n.Send(0, network.Packet{Bytes: 0}), "packet bytes: value 0 out of range (allowed 1..65535)")
	require.EqualError(t, n.Send(0, network.Packet{Bytes: 65536}),
		"packet bytes: value 65536 out of range (allowed 1..65535)")
	require.NoError(t, n.Send(10, network.Packet{Bytes: 4194}))
	require.False(t, n.PortFree(29), "port busy until 30.97")
	require.EqualError(t, n.Send(29, network.Packet{Bytes: 100}),
		"port busy in cycle 29: the previous packet leaves the port in cycle 30")
	require.True(t, n.PortFree(30), "the next packet can start at 30.97, inside cycle 30")
	require.NoError(t, n.Send(30, network.Packet{Bytes: 4194}))
	require.Equal(t, int64(51), n.PortFreeAt(), "second packet ends at 30.97+20.97 = 51.94")
	require.Equal(t, 2, n.Pending(), "two packets on the wire")
	_, ok := n.Poll(51)
	require.False(t, ok, "first packet arrives at ceil(30.97+20.97) = 52")
	p, ok := n.Poll(52)
	require.True(t, ok, "first packet arrives in cycle 52")
	require.Equal(t, 4194, p.Bytes, "bytes")
}

// mixedConfig exercises every feature on four paths.
func mixedConfig(seed uint64, hashSeed uint32) network.Config {
	return network.Config{ClockMHz: 250, PortGbps: 400, Seed: seed, HashSeed: hashSeed, Paths: []network.PathConfig{
		{Gbps: 100, Delay: 500, Jitter: 300, QueueBytes: 200_000, ECNBytes: 50_000},
		{Gbps: 100, Delay: 700, Jitter: 30, QueueBytes: 200_000, ECNBytes: 50_000,
			Loss: network.Loss{Model: "bernoulli", P: 0.01}},
		{Gbps: 50, Delay: 400, QueueBytes: 60_000, ECNBytes: 10_000,
			Loss: network.Loss{Model: "gilbert", GoodToBad: 0.01, BadToGood: 0.3, LossGood: 0.001, LossBad: 0.5}},
		{Gbps: 200, Delay: 900, Jitter: 1000, QueueBytes: 200_000, ECNBytes: 50_000,
			Down: []network.Interval{{From: 20_000, To: 40_000}}},
	}}
}

// mixedTraffic runs 20000 packets of random size and entropy (from a fixed test seed) with random gaps.
func mixedTraffic(t testing.TB, cfg network.Config) []arrival {
	n, err := network.New(cfg)
	require.NoError(t, err)
	rng := rand.New(rand.NewPCG(3, 4))
	at := int64(0)
	earliest := func(int) int64 {
		at = max(at, n.PortFreeAt()) + rng.Int64N(30)
		return at
	}
	return drive(t, n, 20_000, earliest, func(i int) network.Packet {
		return network.Packet{Bytes: 64 + rng.IntN(4100), Entropy: uint16(rng.Uint32()), Tag: uint64(i)}
	})
}

func TestDeterminism(t *testing.T) {
	base := mixedTraffic(t, mixedConfig(1, 1))
	require.NotEmpty(t, base, "delivered packets")
	require.Equal(t, base, mixedTraffic(t, mixedConfig(1, 1)), "same config, same arrivals")
	require.NotEqual(t, base, mixedTraffic(t, mixedConfig(2, 1)), "another seed changes loss and jitter")
	require.NotEqual(t, base, mixedTraffic(t, mixedConfig(1, 2)), "another hash seed changes the paths")
}

func TestNoAllocation(t *testing.T) {
	n, err := network.New(mixedConfig(1, 1))
	require.NoError(t, err)
	now, i := int64(0), 0
	step := func() {
		now = max(now, n.PortFreeAt())
		for {
			if _, ok := n.Poll(now); !ok {
				break
			}
		}
		if err := n.Send(now, network.Packet{Bytes: 1500, Entropy: uint16(i * 7919), Tag: uint64(i)}); err != nil {
			panic(err)
		}
		i++
	}
	for range 100_000 { // grow the buffers
		step()
	}
	require.Zero(t, testing.AllocsPerRun(10_000, step), "allocations per packet in steady state")
	idle := func() {
		now++
		_ = n.PortFree(now)
		_, _ = n.Poll(now)
		_, _ = n.Next()
	}
	require.Zero(t, testing.AllocsPerRun(10_000, idle), "allocations per idle cycle")
}

// BenchmarkNetwork sends back-to-back 1500-byte packets over 8 paths with jitter and loss, polling as they arrive.
func BenchmarkNetwork(b *testing.B) {
	cfg := network.Config{ClockMHz: 250, PortGbps: 400, Seed: 1}
	for range 8 {
		cfg.Paths = append(cfg.Paths, network.PathConfig{Gbps: 100, Delay: 2500, Jitter: 100, QueueBytes: 1 << 20,
			ECNBytes: 100_000, Loss: network.Loss{Model: "bernoulli", P: 0.001}})
	}
	n, err := network.New(cfg)
	require.NoError(b, err)
	now := int64(0)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		now = max(now, n.PortFreeAt())
		for {
			if _, ok := n.Poll(now); !ok {
				break
			}
		}
		if err := n.Send(now, network.Packet{Bytes: 1500, Entropy: uint16(i), Tag: uint64(i)}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "pkts/s")
}
