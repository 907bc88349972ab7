package dmahost_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/spraynic/spraynic/stimulus/dmahost"
	"github.com/spraynic/spraynic/testseed"
)

// rdExp is a read the bench DUT issues: where, what it must get back, what came.
type rdExp struct {
	tag   uint32
	addr  uint64
	want  []byte
	got   []byte
	taken bool
	// user lists the beats (0-based) that came with tuser high.
	user []int
}

// wrExp is a write the bench DUT issues: where, its payload, bytes sent so far.
type wrExp struct {
	tag         uint32
	addr        uint64
	data        []byte
	sent        int
	taken, done bool
}

// benchDUT is a correct DUT: it issues the reads and writes of its lists with random valid gaps and ready
// back-pressure, holds every item until it moves and checks everything the host gives back.
type benchDUT struct {
	t      *testing.T
	k      int
	stall  float64
	rng    *rand.Rand
	host   *dmahost.Host
	rdTodo []*rdExp
	wrTodo []*wrExp
	// rdShown and wrShown are the descriptors shown; rdData the reads taken awaiting data, in order; rdSts the
	// reads whose data came, awaiting status, in order; wrData the writes shown awaiting data, in order.
	rdShown        *rdExp
	wrShownW       *wrExp
	rdData, rdSts  []*rdExp
	wrData         []*wrExp
	rdBusy, wrBusy map[uint32]bool
	wrOut          map[uint32]*wrExp
	beat           *dmahost.DUTOut
	// ends counts the last beats by bytes on them (tkeep end positions), reads and writes.
	rdEnds, wrEnds map[int]int
	rdErr, wrErr   int
}

func (d *benchDUT) chance(p float64) bool { return p > 0 && d.rng.Float64() < p }

// freeTag returns a random tag not in use, or false.
func (d *benchDUT) freeTag(busy map[uint32]bool) (uint32, bool) {
	if len(busy) == 256 {
		return 0, false
	}
	for {
		if tag := uint32(d.rng.IntN(256)); !busy[tag] {
			return tag, true
		}
	}
}

// outputs sets the DUT's outputs of a cycle; the read-data ready depends on the host's valid.
func (d *benchDUT) outputs(in *dmahost.DUTOut, ho *dmahost.HostOut) {
	*in = dmahost.DUTOut{}
	if d.rdShown == nil && len(d.rdTodo) > 0 && !d.chance(d.stall) {
		if tag, ok := d.freeTag(d.rdBusy); ok {
			d.rdShown, d.rdTodo = d.rdTodo[0], d.rdTodo[1:]
			d.rdShown.tag, d.rdBusy[tag] = tag, true
		}
	}
	if r := d.rdShown; r != nil {
		in.RdDescValid, in.RdDescAddr, in.RdDescLen, in.RdDescTag = true, r.addr, uint32(len(r.want)), r.tag
	}
	if d.wrShownW == nil && len(d.wrTodo) > 0 && !d.chance(d.stall) {
		if tag, ok := d.freeTag(d.wrBusy); ok {
			w := d.wrTodo[0]
			d.wrShownW, d.wrTodo = w, d.wrTodo[1:]
			w.tag, d.wrBusy[tag], d.wrOut[tag] = tag, true, w
			d.wrData = append(d.wrData, w)
		}
	}
	if w := d.wrShownW; w != nil {
		in.WrDescValid, in.WrDescAddr, in.WrDescLen, in.WrDescTag = true, w.addr, uint32(len(w.data)), w.tag
	}
	if d.beat == nil && len(d.wrData) > 0 && !d.chance(d.stall) {
		w := d.wrData[0]
		n := min(d.k, len(w.data)-w.sent)
		b := &dmahost.DUTOut{WrValid: true, WrKeep: keepOf(n), WrLast: w.sent+n == len(w.data)}
		copy(b.WrData[:], w.data[w.sent:w.sent+n])
		for i := n; i < d.k; i++ {
			b.WrData[i] = byte(d.rng.IntN(256)) // null lanes: anything, held with the beat
		}
		d.beat = b
	}
	if b := d.beat; b != nil {
		in.WrValid, in.WrData, in.WrKeep, in.WrLast = true, b.WrData, b.WrKeep, b.WrLast
	}
	in.RdDataReady = ho.RdValid && !d.chance(d.stall)
}

func keepOf(n int) uint64 {
	if n == 64 {
		return ^uint64(0)
	}
	return 1<<uint(n) - 1
}

// edges follows the handshakes of the cycle and checks the read beats.
func (d *benchDUT) edges(cycle int64, in *dmahost.DUTOut, ho *dmahost.HostOut) {
	t := d.t
	if in.RdDescValid && ho.RdDescReady {
		d.rdShown.taken = true
		d.rdData, d.rdShown = append(d.rdData, d.rdShown), nil
	}
	if in.WrDescValid && ho.WrDescReady {
		d.wrShownW.taken, d.wrShownW = true, nil
	}
	if ho.RdValid && in.RdDataReady {
		require.NotEmpty(t, d.rdData, "cycle %d: read beat with no read taken", cycle)
		r := d.rdData[0]
		n := min(d.k, len(r.want)-len(r.got))
		require.Equal(t, keepOf(n), ho.RdKeep, "cycle %d: read tag %d tkeep at byte %d of %d", cycle, r.tag,
			len(r.got), len(r.want))
		require.Equal(t, len(r.got)+n == len(r.want), ho.RdLast, "cycle %d: read tag %d tlast", cycle, r.tag)
		if ho.RdUser {
			r.user = append(r.user, len(r.got)/d.k)
		}
		r.got = append(r.got, ho.RdData[:n]...)
		if ho.RdLast {
			d.rdEnds[n]++
			d.rdData, d.rdSts = d.rdData[1:], append(d.rdSts, r)
		}
	}
	if in.WrValid && ho.WrDataReady {
		w := d.wrData[0]
		require.True(t, w.taken, "cycle %d: write tag %d beat taken before its descriptor", cycle, w.tag)
		n := min(d.k, len(w.data)-w.sent)
		w.sent += n
		d.beat = nil
		if w.sent == len(w.data) {
			d.wrEnds[n]++
			w.done, d.wrData = true, d.wrData[1:]
		}
	}
}

// statuses checks the statuses the host gives in a cycle, and memory for a write's.
func (d *benchDUT) statuses(cycle int64, ho *dmahost.HostOut) {
	t := d.t
	if ho.RdStsValid {
		require.NotEmpty(t, d.rdSts, "cycle %d: read status tag %d with no read whose data all came", cycle,
			ho.RdStsTag)
		r := d.rdSts[0]
		require.Equal(t, r.tag, ho.RdStsTag, "cycle %d: read status out of order", cycle)
		if ho.RdStsError == 0 {
			require.Equal(t, r.want, r.got, "cycle %d: read tag %d at %#x: data", cycle, r.tag, r.addr)
			require.Empty(t, r.user, "cycle %d: read tag %d without error: beats with tuser", cycle, r.tag)
		} else {
			d.rdErr++
			require.Equal(t, poison(len(r.want)), r.got, "cycle %d: failed read tag %d: data", cycle, r.tag)
			last := (len(r.want) - 1) / d.k
			require.Equal(t, []int{last}, r.user, "cycle %d: failed read tag %d: beats with tuser", cycle, r.tag)
		}
		d.rdSts = d.rdSts[1:]
		delete(d.rdBusy, r.tag)
	}
	if ho.WrStsValid {
		w := d.wrOut[ho.WrStsTag]
		require.NotNil(t, w, "cycle %d: write status tag %d not outstanding", cycle, ho.WrStsTag)
		require.True(t, w.done, "cycle %d: write status tag %d before its last beat (%d of %d bytes)", cycle,
			w.tag, w.sent, len(w.data))
		got, err := d.host.Mem.Read(w.addr, len(w.data))
		require.NoError(t, err)
		if ho.WrStsError == 0 {
			require.Equal(t, w.data, got, "cycle %d: memory at the status of write tag %d at %#x", cycle, w.tag,
				w.addr)
		} else {
			d.wrErr++
			w.data = nil // nothing may be written: memory checked at the end
			require.Equal(t, make([]byte, len(got)), got, "cycle %d: failed write tag %d wrote", cycle, w.tag)
		}
		delete(d.wrOut, w.tag)
		delete(d.wrBusy, w.tag)
	}
}

func poison(n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = dmahost.Poison
	}
	return b
}

// idle reports whether every operation has completed.
func (d *benchDUT) idle() bool {
	return len(d.rdTodo)+len(d.wrTodo)+len(d.rdBusy)+len(d.wrBusy) == 0
}

// run steps host and DUT until every operation completed.
func (d *benchDUT) run(limit int64) int64 {
	var ho dmahost.HostOut
	var in dmahost.DUTOut
	for c := int64(0); ; c++ {
		require.Less(d.t, c, limit, "not done after %d cycles: %d reads, %d writes left", limit,
			len(d.rdTodo)+len(d.rdBusy), len(d.wrTodo)+len(d.wrBusy))
		d.host.Drive(c, &ho)
		d.statuses(c, &ho)
		if d.idle() {
			return c
		}
		d.outputs(&in, &ho)
		require.NoError(d.t, d.host.Observe(c, &in))
		d.edges(c, &in, &ho)
	}
}

// lengths are n lengths in 1..mtu: every residue mod k (k itself for 0) early, the edges 1 and mtu, the
// rest random.
func lengths(rng *rand.Rand, n, k, mtu int) []int {
	var ls []int
	for r := 1; r <= k; r++ {
		ls = append(ls, r+k*rng.IntN(mtu/k))
	}
	ls = append(ls, 1, mtu)
	for len(ls) < n {
		ls = append(ls, 1+rng.IntN(mtu))
	}
	rng.Shuffle(len(ls), func(i, j int) { ls[i], ls[j] = ls[j], ls[i] })
	return ls
}

// srcBase and dstBase are the send and receive areas; the last write ends at 2^64.
const (
	srcBase = uint64(0x0000_7f00_0000_0ff0)
	srcLen  = 64 << 10
	dstBase = uint64(0x0001_0000_0000_0003)
)

// newBench fills the send area and lists the reads (inside it) and the writes (disjoint, with gaps, the last
// one ending at 2^64).
func newBench(t *testing.T, cfg dmahost.Config, stall float64, n int) (*benchDUT, []*wrExp) {
	h, err := dmahost.New(cfg)
	require.NoError(t, err)
	rng := rand.New(rand.NewPCG(cfg.Seed, 7))
	src := make([]byte, srcLen)
	for i := range src {
		src[i] = byte(rng.IntN(256))
	}
	require.NoError(t, h.Mem.Write(srcBase, src))
	k := cfg.DataWidth / 8
	d := &benchDUT{t: t, k: k, stall: stall, rng: rng, host: h, rdBusy: map[uint32]bool{},
		wrBusy: map[uint32]bool{}, wrOut: map[uint32]*wrExp{}, rdEnds: map[int]int{}, wrEnds: map[int]int{}}
	for _, l := range lengths(rng, n, k, cfg.MTU) {
		off := rng.IntN(srcLen - l + 1)
		d.rdTodo = append(d.rdTodo, &rdExp{addr: srcBase + uint64(off), want: src[off : off+l]})
	}
	addr := dstBase
	for i, l := range lengths(rng, n, k, cfg.MTU) {
		w := &wrExp{addr: addr, data: make([]byte, l)}
		for j := range w.data {
			w.data[j] = byte(rng.IntN(256))
		}
		if i == n-1 {
			w.addr = -uint64(l)
		}
		addr += uint64(l + rng.IntN(3)*rng.IntN(64))
		d.wrTodo = append(d.wrTodo, w)
	}
	return d, append([]*wrExp{}, d.wrTodo...)
}

// checkMemory checks every write's bytes and that DMA wrote nothing else.
func checkMemory(t *testing.T, h *dmahost.Host, ws []*wrExp) {
	var allowed []dmahost.Range
	for _, w := range ws {
		if w.data == nil {
			continue // failed: nothing written
		}
		got, err := h.Mem.Read(w.addr, len(w.data))
		require.NoError(t, err)
		require.Equal(t, w.data, got, "write tag %d at %#x", w.tag, w.addr)
		allowed = append(allowed, dmahost.Range{Addr: w.addr, Len: uint64(len(w.data))})
	}
	require.Empty(t, h.Mem.WrittenOutside(allowed...), "DMA bytes outside the writes")
	var n uint64
	for _, r := range h.Mem.Written() {
		n += r.Len
	}
	var want uint64
	for _, r := range allowed {
		want += r.Len
	}
	require.Equal(t, want, n, "bytes written by DMA")
}

func TestBench(t *testing.T) {
	seed := testseed.Seed(t)
	t.Logf("seed: SEED=%d", seed)
	for _, width := range []int{64, 512} {
		for _, stall := range []float64{0, 0.3} {
			t.Run(fmt.Sprintf("width%d_stall%v", width, stall), func(t *testing.T) {
				// Full rate needs a few operations in flight; under back-pressure any limit, 1 included.
				outstanding := 1 + int(seed%256)
				if stall == 0 {
					outstanding = 8 + int(seed%249)
				}
				cfg := dmahost.Config{DataWidth: width, MTU: 4096, MaxOutstanding: outstanding,
					LatencyMin: 1, LatencyMax: 1 + int(stall*40), Stall: stall, Seed: seed}
				d, ws := newBench(t, cfg, stall, 200)
				cycles := d.run(2_000_000)
				for e := 1; e <= width/8; e++ {
					require.Positive(t, d.rdEnds[e], "no read ends with %d bytes on its last beat", e)
					require.Positive(t, d.wrEnds[e], "no write ends with %d bytes on its last beat", e)
				}
				checkMemory(t, d.host, ws)
				r, w := d.host.Outstanding()
				require.Zero(t, r+w, "outstanding at the end")
				if stall == 0 { // one beat per cycle, back to back, in both directions
					st := d.host.Stats
					require.LessOrEqual(t, cycles, max(st.RdBeats, st.WrBeats)+8, "cycles for %+v", st)
				}
				t.Logf("%d cycles, %+v", cycles, d.host.Stats)
			})
		}
	}
}

func TestBenchErrors(t *testing.T) {
	seed := testseed.Seed(t)
	t.Logf("seed: SEED=%d", seed)
	cfg := dmahost.Config{DataWidth: 128, MTU: 1024, MaxOutstanding: 8, LatencyMin: 2, LatencyMax: 9,
		Stall: 0.2, RdErrorRate: 0.3, WrErrorRate: 0.3, Seed: seed}
	d, ws := newBench(t, cfg, 0.2, 100)
	d.run(1_000_000)
	require.Positive(t, d.rdErr, "no failed read")
	require.Positive(t, d.wrErr, "no failed write")
	require.Equal(t, int64(d.rdErr), d.host.Stats.RdErrors)
	require.Equal(t, int64(d.wrErr), d.host.Stats.WrErrors)
	checkMemory(t, d.host, ws)
}
