package rtlcheck_test

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/spraynic/spraynic/golden/nicrocecsr"
	"github.com/spraynic/spraynic/regmap"
)

// csrCycles is the length of a random run, cycles.
const csrCycles = 40000

// csrGen makes the random stimulus of TestNicRoCECSR, driven by the twin's outputs (a VALID is held until
// its READY, as an AXI4-Lite master must).
type csrGen struct {
	r   *rand.Rand
	m   regmap.Map
	p   nicrocecsr.Params
	md  *nicrocecsr.Model
	cnt []uint32
	inf []uint32
	// the write in progress: address and data each presented from its cycle until taken
	wLive, awDone, wDone bool
	wAddr, wData         uint32
	wStrb                uint8
	awAt, wAt            int
	// the read in progress
	rLive  bool
	rAddr  uint32
	rAt    int
	bp, rp int // percent of cycles with BREADY, RREADY high
	in     nicrocecsr.In
}

// csrRandom returns the random steps of preset number k and the twin's output line of every cycle, and counts
// of what the run did.
func csrRandom(t *testing.T, p nicrocecsr.Params, sd, k uint64) ([]csrStep, []string, map[string]int) {
	md, err := nicrocecsr.New(p)
	require.NoError(t, err)
	m := regmap.NicRoCE()
	g := &csrGen{r: rand.New(rand.NewPCG(sd, 0xc5a0+k)), m: m, p: p, md: md,
		cnt: make([]uint32, len(csrCounters(&m).Registers)), inf: make([]uint32, p.Conns), bp: 100, rp: 100}
	counts := map[string]int{}
	var steps []csrStep
	var want []string
	for c := 0; c < csrCycles; c++ {
		o := md.Out()
		want = append(want, outLine(p, o))
		s := g.step(c)
		g.count(counts, o, s.in)
		require.NoError(t, md.Step(s.in))
		g.handshakes(o, s.in)
		steps = append(steps, s)
	}
	return steps, want, counts
}

// csrCounters returns the counter block of m.
func csrCounters(m *regmap.Map) *regmap.Block {
	for i := range m.Blocks {
		if m.Blocks[i].Name == "counters" {
			return &m.Blocks[i]
		}
	}
	return nil
}

// count records the responses and commands of cycle o.
func (g *csrGen) count(counts map[string]int, o nicrocecsr.Out, in nicrocecsr.In) {
	if o.BValid && in.BReady {
		counts[map[uint8]string{0: "write OKAY", 2: "write SLVERR"}[o.BResp]]++
	}
	if o.RValid && in.RReady {
		counts[map[uint8]string{0: "read OKAY", 2: "read SLVERR"}[o.RResp]]++
	}
	if o.CmdValid {
		counts[map[bool]string{true: "open", false: "close"}[o.Cmd.Open]]++
	}
	if o.CntClear {
		counts["clear"]++
	}
}

// handshakes ends the channels taken in the cycle of outputs o and inputs in.
func (g *csrGen) handshakes(o nicrocecsr.Out, in nicrocecsr.In) {
	if in.AWValid && o.AWReady {
		g.awDone = true
	}
	if in.WValid && o.WReady {
		g.wDone = true
	}
	if g.awDone && g.wDone {
		g.wLive = false
	}
	if in.ARValid && o.ARReady {
		g.rLive = false
	}
}

// step returns the inputs of cycle c.
func (g *csrGen) step(c int) csrStep {
	r := g.r
	var s csrStep
	if c%2500 == 0 {
		g.bp, g.rp = []int{100, 70, 25}[r.IntN(3)], []int{100, 70, 25}[r.IntN(3)]
	}
	if c < 2 || r.IntN(5000) == 0 {
		g.wLive, g.rLive = false, false
		s.in = nicrocecsr.In{Rst: true, ConnInfo: g.inf, Cnt: g.cnt}
		return s
	}
	g.newTransactions(c)
	in := nicrocecsr.In{ConnInfo: g.inf, Cnt: g.cnt, BReady: r.IntN(100) < g.bp, RReady: r.IntN(100) < g.rp,
		PathStatus: g.in.PathStatus, PathEntropy: g.in.PathEntropy, PathCounts: g.in.PathCounts}
	in.AWValid, in.AWAddr = g.wLive && !g.awDone && c >= g.awAt, g.wAddr
	in.WValid, in.WData, in.WStrb = g.wLive && !g.wDone && c >= g.wAt, g.wData, g.wStrb
	in.ARValid, in.ARAddr = g.rLive && c >= g.rAt, g.rAddr
	if r.IntN(30) == 0 {
		in.ErrValid, in.ErrConn = true, g.conn()
	}
	if r.IntN(25) == 0 {
		in.EvSet = r.Uint32N(16)
	}
	if r.IntN(3) == 0 {
		s.cntWE, s.cntIdx, s.cntVal = true, r.IntN(len(g.cnt)), r.Uint32()
		g.cnt[s.cntIdx] = s.cntVal
	}
	if r.IntN(4) == 0 {
		s.infoWE, s.infoIdx, s.infoVal = true, g.conn(), r.Uint32()
		g.inf[s.infoIdx] = s.infoVal
	}
	for _, w := range []*uint32{&in.PathStatus, &in.PathEntropy, &in.PathCounts} {
		if r.IntN(8) == 0 {
			*w = r.Uint32()
			if w == &in.PathEntropy {
				*w &= 0xFFFF
			}
		}
	}
	g.in, s.in = in, in
	return s
}

// newTransactions starts a write or a read when none is in progress, each channel after a random delay.
func (g *csrGen) newTransactions(c int) {
	r := g.r
	if !g.wLive && r.IntN(3) == 0 {
		g.wLive, g.awDone, g.wDone = true, false, false
		g.wAddr = g.addr()
		g.wData, g.wStrb = g.data(g.wAddr), 0xF
		if r.IntN(10) == 0 {
			g.wStrb = uint8(r.IntN(16))
		}
		g.awAt, g.wAt = c+r.IntN(4), c+r.IntN(4)
	}
	if !g.rLive && r.IntN(3) == 0 {
		g.rLive, g.rAddr, g.rAt = true, g.addr(), c+r.IntN(3)
	}
}

// conn returns a connection, the first two and the last more often.
func (g *csrGen) conn() int {
	return []int{0, 1, g.p.Conns - 1, g.r.IntN(g.p.Conns)}[g.r.IntN(4)]
}

// addr returns a bus address: mostly a register of the map, else beyond the window, unaligned, a hole or
// anything.
func (g *csrGen) addr() uint32 {
	r := g.r
	switch x := r.IntN(20); {
	case x < 13:
		return g.regAddr()
	case x < 15:
		b := g.m.Blocks[len(g.m.Blocks)-1]
		return (b.Base + b.Stride*uint32(g.p.Conns+r.IntN(b.MaxCount-g.p.Conns+2)) + 4*r.Uint32N(8)) & 0xFFFF
	case x < 17:
		return g.regAddr() + 1 + r.Uint32N(3)
	case x < 19:
		return 4 * r.Uint32N(0x80)
	}
	return r.Uint32N(1 << 16)
}

// regAddr returns the address of a register of the map (a connection entry below CONNS; CONN_CMD often).
func (g *csrGen) regAddr() uint32 {
	r := g.r
	b := g.m.Blocks[r.IntN(len(g.m.Blocks))]
	if r.IntN(3) == 0 {
		b = g.m.Blocks[len(g.m.Blocks)-1]
	}
	reg := b.Registers[r.IntN(len(b.Registers))]
	if b.Stride == 0 {
		return b.Base + reg.Offset
	}
	if r.IntN(3) == 0 {
		reg = b.Registers[len(b.Registers)-2] // CONN_CMD
	}
	return b.Base + b.Stride*uint32(g.conn()) + reg.Offset
}

// data returns write data for address a: mostly legal, else one bit flipped or random.
func (g *csrGen) data(a uint32) uint32 {
	r := g.r
	d, ok := nicrocecsr.Decode(&g.m, g.p, a)
	if !ok || r.IntN(6) == 0 {
		return r.Uint32()
	}
	v := g.legal(d.Reg)
	if r.IntN(4) == 0 {
		v ^= 1 << r.IntN(32)
	}
	return v
}

// legal returns a value of every field of reg: legal, often at the edges of its range, at times one beyond.
func (g *csrGen) legal(reg *regmap.Register) uint32 {
	var v uint32
	for _, f := range reg.Fields {
		top := uint32(uint64(1)<<f.Width - 1)
		lo, hi := f.Min, f.Max
		if lo == 0 && hi == 0 {
			hi = top
		}
		if f.Below != "" {
			n, _ := g.p.Param(f.Below)
			hi = min(hi, uint32(n-1))
		}
		// mostly legal, at times just outside the range (the value wraps to the field's width)
		x := []uint32{lo, hi, lo + uint32(g.r.Uint64N(uint64(hi-lo)+1)), lo - 1, hi + 1}[g.r.IntN(5)] & top
		if g.r.IntN(3) != 0 {
			x = []uint32{lo, hi, lo + uint32(g.r.Uint64N(uint64(hi-lo)+1))}[g.r.IntN(3)]
		}
		if f.Values != nil {
			x = f.Values[g.r.IntN(len(f.Values))]
		}
		v |= x << f.Lsb
	}
	return v
}
