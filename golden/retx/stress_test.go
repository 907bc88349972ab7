package retx_test

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/spraynic/spraynic/config"
	"github.com/spraynic/spraynic/golden/retx"
	"github.com/spraynic/spraynic/golden/wide"
)

// tracker follows, from the ports only, what every m_pkt load must look like: new PSNs consecutive from the open
// PSN, path sequences consecutive per (connection, path) from the open, retransmissions of PSNs already sent with
// retries 1..MAX_RETRIES, nothing from a connection in error, cnt_sent equal to the new loads.
type tracker struct {
	cfg      config.Config
	open     []bool
	failed   []bool
	first    []uint32 // open PSN
	nxt      []uint32 // next new PSN
	cum      []uint32 // a cumulative PSN the fake receiver may report, in [first, nxt]
	pnx      []uint32 // next path sequence of (c,p)
	ahi      []uint32 // the highest path sequence the fake receiver has reported, per (c,p)
	newLoads uint32
}

func newTracker(cfg config.Config) *tracker {
	n, np := cfg.Conns, cfg.Conns*cfg.Paths
	return &tracker{cfg: cfg, open: make([]bool, n), failed: make([]bool, n), first: make([]uint32, n),
		nxt: make([]uint32, n), cum: make([]uint32, n), pnx: make([]uint32, np), ahi: make([]uint32, np)}
}

func (k *tracker) reset() {
	*k = *newTracker(k.cfg)
}

func (k *tracker) openConn(c, psn uint32) {
	k.open[c] = true
	k.failed[c] = false
	k.first[c] = psn
	k.nxt[c] = psn
	k.cum[c] = psn
	for p := range k.cfg.Paths {
		k.pnx[int(c)*k.cfg.Paths+p] = 0
		k.ahi[int(c)*k.cfg.Paths+p] = 0
	}
}

const psnM = 1<<24 - 1

// load checks one m_pkt load.
func (k *tracker) load(t *testing.T, cycle int, o *retx.Out) {
	c := o.PktConn
	require.True(t, k.open[c] && !k.failed[c], "cycle %d: load for closed or errored conn %d", cycle, c)
	pi := int(c)*k.cfg.Paths + int(o.PktPath)
	require.Equal(t, k.pnx[pi], o.PktPseq, "cycle %d: fresh path sequence on (%d,%d)", cycle, c, o.PktPath)
	k.pnx[pi] = (k.pnx[pi] + 1) & (1<<k.cfg.PseqWidth - 1)
	if !o.PktRetx {
		require.Equal(t, k.nxt[c], o.PktPSN, "cycle %d: new PSN of conn %d", cycle, c)
		require.Zero(t, o.PktRetries)
		k.nxt[c] = (k.nxt[c] + 1) & psnM
		require.LessOrEqual(t, (k.nxt[c]-k.first[c])&psnM, uint32(1<<23), "test keeps far from PSN wrap")
		k.newLoads++
		return
	}
	require.True(t, o.PktAckReq)
	require.Less(t, (o.PktPSN-k.first[c])&psnM, (k.nxt[c]-k.first[c])&psnM,
		"cycle %d: retransmission of a PSN sent", cycle)
	require.True(t, o.PktRetries >= 1 && int(o.PktRetries) <= k.cfg.MaxRetries,
		"cycle %d: retries %d", cycle, o.PktRetries)
}

// TestStress drives plausible random traffic (random path offers, output stalls, loss-revealing ACKs, stale and
// duplicate ACKs, NAKs, control and resets) and, besides the harness rules, checks the tracker's invariants.
func TestStress(t *testing.T) {
	cases := []struct {
		name   string
		cycles int
		edit   func(*config.Config)
	}{
		{name: "small selective", cycles: 40000},
		{name: "small gbn", cycles: 40000, edit: gbnMode},
		{name: "small selective timers", cycles: 40000, edit: timers(1, 24)},
		{name: "small gbn timers", cycles: 20000, edit: func(c *config.Config) { gbnMode(c); timers(2, 24)(c) }},
		{name: "wide sack", cycles: 20000, edit: func(c *config.Config) {
			c.Conns = 2
			c.Window = 512
			c.Paths = 2
			c.SackBits = 256
			c.PseqWidth = 10
			c.TickCycles = 2
			c.MaxRetries = 4
		}},
		{name: "many conns", cycles: 20000, edit: func(c *config.Config) {
			c.Conns = 128
			c.Window = 16
			c.Paths = 8
			c.SackBits = 16
			c.PseqWidth = 12
			c.TickCycles = 128
			c.RTOTicks = 1
			c.RTOMaxTicks = 4
		}},
	}
	for ci, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var edits []func(*config.Config)
			if tc.edit != nil {
				edits = append(edits, tc.edit)
			}
			cfg := smallCfg(t, edits...)
			b := newTB(t, cfg)
			k := newTracker(cfg)
			r := rand.New(rand.NewPCG(uint64(ci), 7))
			conns := uint32(cfg.Conns)
			for range tc.cycles {
				in := &b.in
				// Control: mostly opens, sometimes closes; a reset now and then.
				in.CtlValid = r.IntN(200) == 0
				in.CtlOpen = r.IntN(4) != 0
				in.CtlConn = r.Uint32N(conns)
				in.CtlPSN = r.Uint32N(1 << 24)
				in.Rst = r.IntN(8000) == 0
				// Traffic to open connections mostly; the ports also see out-of-range values (truncated).
				in.TxValid = r.IntN(3) != 0
				in.TxConn = r.Uint32N(conns)
				if r.IntN(50) == 0 {
					in.TxConn = r.Uint32()
				}
				in.TxHandle = r.Uint32()
				in.TxFirst = r.IntN(4) == 0
				in.TxLast = r.IntN(4) == 0
				in.PathValid = r.IntN(5) != 0
				in.PathPath = r.Uint32N(uint32(cfg.Paths))
				in.PathEntropy = r.Uint32()
				in.PktReady = r.IntN(6) != 0
				in.FbReady = r.IntN(4) != 0
				if !b.prevI.AckValid || b.prev.AckReady || r.IntN(20) == 0 { // mostly hold an ACK until taken
					in.AckValid = r.IntN(3) == 0
					c := r.Uint32N(conns)
					p := r.Uint32N(uint32(cfg.Paths))
					pi := int(c)*cfg.Paths + int(p)
					// cumulative: anywhere in [cum, nxt] of the tracker, sometimes stale.
					out := (k.nxt[c] - k.cum[c]) & psnM
					if out > 0 && r.IntN(3) == 0 {
						k.cum[c] = (k.cum[c] + 1 + r.Uint32N(out)) & psnM
					}
					psn := k.cum[c]
					if r.IntN(10) == 0 {
						psn = (psn - r.Uint32N(4)) & psnM
					}
					// path part: n in [ahi, pnx], random loss pattern.
					sent := (k.pnx[pi] - k.ahi[pi]) & (1<<cfg.PseqWidth - 1)
					if sent > 0 && r.IntN(2) == 0 {
						k.ahi[pi] = (k.ahi[pi] + 1 + r.Uint32N(sent)) & (1<<cfg.PseqWidth - 1)
					}
					var sack wide.Vec
					for w := range sack {
						sack[w] = r.Uint64() | r.Uint64() // mostly received
					}
					in.AckConn = c
					in.AckPSN = psn
					in.AckPath = p
					in.AckPseq = k.ahi[pi]
					in.AckSack = sack
					in.AckECN = r.IntN(8) == 0
					in.AckNak = r.IntN(6) == 0
				}

				cyc := b.cycle
				o := b.step()
				if cyc > 0 && b.prevLoad {
					k.load(t, cyc, &o)
				}
				b.prevLoad = o.PathReady && !in.Rst
				if !in.Rst {
					require.Equal(t, k.newLoads, o.CntSent, "cycle %d: cnt_sent", cyc)
				}
				if o.ErrValid {
					k.failed[o.ErrConn] = true
				}
				switch {
				case in.Rst:
					k.reset()
				case in.CtlValid && in.CtlOpen:
					k.openConn(in.CtlConn, in.CtlPSN)
				case in.CtlValid:
					k.open[in.CtlConn] = false
				}
			}
		})
	}
}

// TestStepDoesNotAllocate: Step allocates nothing.
func TestStepDoesNotAllocate(t *testing.T) {
	cfg := smallCfg(t)
	m, err := retx.New(cfg)
	require.NoError(t, err)
	var in retx.In
	var out retx.Out
	r := rand.New(rand.NewPCG(1, 2))
	allocs := testing.AllocsPerRun(2000, func() {
		in = retx.In{TxValid: true, TxConn: r.Uint32N(4), PathValid: true, PathPath: r.Uint32N(4),
			PktReady: r.IntN(4) != 0, AckValid: r.IntN(4) == 0, AckConn: r.Uint32N(4), AckPSN: r.Uint32N(16),
			AckPseq: r.Uint32N(16), AckSack: wide.Vec{r.Uint64()}, CtlValid: r.IntN(50) == 0, CtlOpen: true,
			CtlConn: r.Uint32N(4), FbReady: true}
		m.Step(&in, &out)
	})
	require.Zero(t, allocs)
}

// BenchmarkStep measures one cycle of the default preset under saturated new traffic with ACKs.
func BenchmarkStep(b *testing.B) {
	cfg, err := config.Preset("default")
	if err != nil {
		b.Fatal(err)
	}
	m, err := retx.New(cfg)
	if err != nil {
		b.Fatal(err)
	}
	var in retx.In
	var out retx.Out
	for c := range uint32(cfg.Conns) {
		in = retx.In{CtlValid: true, CtlOpen: true, CtlConn: c}
		m.Step(&in, &out)
	}
	in = retx.In{TxValid: true, PathValid: true, PktReady: true, FbReady: true}
	b.ResetTimer()
	for i := range b.N {
		in.TxConn = uint32(i) & 15
		in.PathPath = uint32(i>>4) & 7
		in.AckValid = i&3 == 0
		in.AckConn = uint32(i>>2) & 15
		in.AckPSN = uint32(i >> 6)
		in.AckPath = uint32(i>>6) & 7
		in.AckPseq = uint32(i >> 9)
		in.AckSack = wide.Vec{0xFFFF_FFFF_FFFF_FFF7}
		m.Step(&in, &out)
	}
}
