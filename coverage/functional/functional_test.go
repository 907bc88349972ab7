package functional

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/spraynic/spraynic/config"
	"github.com/spraynic/spraynic/golden/rxreorder"
	"github.com/spraynic/spraynic/golden/wide"
	"github.com/stretchr/testify/require"
)

func sampleGroup() *Group {
	g := NewGroup("g", "test group")
	a := g.Point("a", "", "x", "y", "z")
	a.Unreachable("z", "never")
	b := g.Point("b", "", "p", "q")
	g.Cross("axb", "", a, b)
	return g
}

func TestBinsAndCross(t *testing.T) {
	g := sampleGroup()
	a, b, x := g.Find("a"), g.Find("b"), g.Find("axb")
	require.Equal(t, []string{"x/p", "x/q", "y/p", "y/q", "z/p", "z/q"}, binNames(x))
	require.Equal(t, "never", x.Bins[4].Unreachable, "a cross bin with an unreachable side is unreachable")
	require.Equal(t, "", x.Bins[0].Unreachable)
	hit, reach := g.Count()
	require.Equal(t, 0, hit)
	require.Equal(t, 2+2+4, reach, "z and z/* are not targets")
	a.Hit("x")
	a.Hit("x")
	b.Hit("q")
	x.HitCross("x", "q")
	a.Hit("z") // counted, still not a target
	require.Equal(t, uint64(2), a.Hits("x"))
	require.Equal(t, uint64(1), a.Hits("z"))
	hit, reach = g.Count()
	require.Equal(t, 3, hit)
	require.Equal(t, 8, reach)
	require.Equal(t, []string{"a.y", "b.p", "axb.x/p", "axb.y/p", "axb.y/q"}, g.Holes())
	require.Panics(t, func() { a.Hit("nope") })
}

func binNames(p *Point) []string {
	var n []string
	for _, b := range p.Bins {
		n = append(n, b.Name)
	}
	return n
}

func TestMerge(t *testing.T) {
	g1, g2 := sampleGroup(), sampleGroup()
	g1.Find("a").Hit("x")
	g1.Samples = 10
	g2.Find("a").Hit("x")
	g2.Find("b").Hit("p")
	g2.Find("a").Bins[0].Unreachable = "in g2's config"
	g2.Find("b").Bins[1].Unreachable = "in g2's config"
	g1.Find("b").Bins[1].Unreachable = "in g1's config"
	g2.Samples = 5
	e := &Entry{Top: "t", Config: "c"}
	require.NoError(t, e.Add([]*Group{g1}))
	require.NoError(t, e.Add([]*Group{g2}))
	m := e.Group("g")
	require.Equal(t, 2, e.Runs)
	require.Equal(t, uint64(15), m.Samples)
	require.Equal(t, uint64(2), m.Find("a").Hits("x"))
	require.Equal(t, uint64(1), m.Find("b").Hits("p"))
	require.Equal(t, "", m.Find("a").Bins[0].Unreachable, "reachable in one run's config: a target of the merge")
	require.NotEqual(t, "", m.Find("b").Bins[1].Unreachable, "unreachable in every run: stays unreachable")
	require.Equal(t, uint64(1), g1.Find("a").Hits("x"), "Add copies the first run, it does not alias it")

	other := NewGroup("g", "")
	other.Point("a", "", "x")
	require.ErrorContains(t, e.Add([]*Group{other}), "points")
	renamed := sampleGroup()
	renamed.Find("b").Bins[0].Name = "r"
	require.ErrorContains(t, e.Add([]*Group{renamed}), `bin 0 is "p", the other has "r"`)
}

func TestJSONRoundTripAndValidate(t *testing.T) {
	g := sampleGroup()
	g.Find("a").Hit("y")
	g.Find("axb").HitCross("y", "p")
	e := Entry{Top: "t", Config: "c", Runs: 1, Groups: []*Group{g}}
	b, err := json.Marshal(e)
	require.NoError(t, err)
	var back Entry
	require.NoError(t, json.Unmarshal(b, &back))
	require.NoError(t, back.Validate("functional[0]"))
	require.Equal(t, g.Holes(), back.Groups[0].Holes())
	h1, r1 := g.Count()
	h2, r2 := back.Groups[0].Count()
	require.Equal(t, [2]int{h1, r1}, [2]int{h2, r2})
	require.Equal(t, uint64(1), back.Groups[0].Find("axb").Hits("y/p"), "the index is rebuilt after decoding")
	require.Equal(t, "never", back.Groups[0].Find("a").Bins[2].Unreachable)

	for _, tc := range []struct{ edit, want string }{
		{edit: `"name":"g"`, want: `field functional[0].groups[0].name: value ""`},
		{edit: `"name":"x"`, want: `field functional[0].groups[0].points[0].bins[0].name: empty`},
		{edit: `"cross":["a","b"]`, want: `points[2].cross: "zz" is not an earlier point`},
		{edit: `"runs":1`, want: `field functional[0].runs: value 0`},
	} {
		repl := map[string]string{`"name":"g"`: `"name":""`, `"name":"x"`: `"name":""`,
			`"cross":["a","b"]`: `"cross":["a","zz"]`, `"runs":1`: `"runs":0`}[tc.edit]
		s := strings.Replace(string(b), tc.edit, repl, 1)
		require.NotEqual(t, string(b), s, tc.edit)
		var bad Entry
		require.NoError(t, json.Unmarshal([]byte(s), &bad))
		require.ErrorContains(t, bad.Validate("functional[0]"), tc.want)
	}
}

func TestDiffBins(t *testing.T) {
	base, cur := sampleGroup(), sampleGroup()
	base.Find("a").Hit("x") // hit in base, not in cur: lost
	base.Find("b").Hit("p") // hit in both
	cur.Find("b").Hit("p")
	cur.Find("b").Hit("q")  // gained
	base.Find("a").Hit("y") // hit in base; unreachable in cur: dropped, not lost
	cur.Find("a").Bins[1].Unreachable = "not in this config"
	be := []Entry{{Top: "t", Config: "c", Runs: 1, Groups: []*Group{base}}}
	ce := []Entry{{Top: "t", Config: "c", Runs: 1, Groups: []*Group{cur, NewGroup("newgroup", "")}}}
	ce[0].Groups[1].Point("p", "", "b")
	ds := Diff(be, ce)
	require.Len(t, ds, 2)
	d := ds[0]
	require.Equal(t, "g", d.Group)
	require.True(t, d.Fail())
	require.Equal(t, []string{"g.a.x"}, changeNames(d.Lost))
	require.Equal(t, []string{"g.b.q"}, changeNames(d.Gained))
	require.Equal(t, []string{"g.a.y"}, changeNames(d.Dropped))
	require.Equal(t, 3, d.BaseHit)
	require.True(t, ds[1].New)
	require.False(t, ds[1].Fail(), "a group only in the new report is new, not a loss")

	// No functional part in the base (an old report): everything is new, nothing fails.
	for _, d := range Diff(nil, ce) {
		require.True(t, d.New)
		require.False(t, d.Fail())
	}
	// A group of the base missing from the new report fails.
	ds = Diff(ce, be)
	require.Equal(t, "newgroup", ds[1].Group)
	require.True(t, ds[1].Missing && ds[1].Fail(), "%+v", ds[1])
	// Same report: nothing lost or gained.
	for _, d := range Diff(be, be) {
		require.False(t, d.Fail())
		require.Empty(t, d.Gained)
	}
}

func changeNames(cs []BinChange) []string {
	var n []string
	for _, c := range cs {
		n = append(n, c.String())
	}
	return n
}

func TestLog2BinsAndHoles(t *testing.T) {
	n, lo, hi := log2Bins(64)
	require.Equal(t, []string{"0", "1", "2..3", "4..7", "8..15", "16..31", "32..63"}, n)
	require.Equal(t, 32, lo[6])
	require.Equal(t, 63, hi[6])
	v := wide.Vec{0b1}
	require.Equal(t, "0", holeBin(v, 64))
	v = wide.Vec{0b1011}
	require.Equal(t, "1", holeBin(v, 64))
	v = wide.Vec{1 | 1<<9}
	require.Equal(t, "8+", holeBin(v, 64))
	v = wide.Vec{1, 1} // bit 64 and bit 0: 63 zeros between
	require.Equal(t, "8+", holeBin(v, 128))
	require.Equal(t, "0", holeBin(wide.Vec{}, 64))
}

// TestRxSampler drives the rx_reorder sampler with hand-made port values and checks the bins it fills.
func TestRxSampler(t *testing.T) {
	cfg, err := config.Resolve("default") // WINDOW 64, 16 connections
	require.NoError(t, err)
	c, err := New("rx_reorder", cfg)
	require.NoError(t, err)
	rx := c.(*rxCov)
	g := rx.g
	step := func(in rxreorder.In, out rxreorder.Out) { rx.Sample(0, &in, &out) }
	ready := rxreorder.Out{PktReady: true, CtlReady: true}
	// Open connection 3 at 2^24-2.
	step(rxreorder.In{CtlValid: true, CtlOpen: true, CtlConn: 3, CtlPSN: 1<<24 - 2}, ready)
	require.Equal(t, uint64(1), g.Find("ctl").Hits("open"))
	// Packets at distance 0, 5 and 50 (back of the window), -1 (behind), 64 (beyond).
	for _, psn := range []uint32{1<<24 - 2, 3, 48, 1<<24 - 3, 62} {
		step(rxreorder.In{PktValid: true, PktConn: 3, PktPSN: psn, PktECN: psn == 3}, ready)
	}
	d := g.Find("distance")
	require.Equal(t, uint64(1), d.Hits("0"))
	require.Equal(t, uint64(1), d.Hits("4..7"))
	require.Equal(t, uint64(1), d.Hits("32..63"))
	require.Equal(t, uint64(1), d.Hits("behind"))
	require.Equal(t, uint64(1), d.Hits("beyond"))
	require.Equal(t, uint64(1), g.Find("distance_x_pos").Hits("32..63/back"))
	require.Equal(t, uint64(1), g.Find("distance_x_pos").Hits("4..7/front"))
	require.Equal(t, uint64(1), g.Find("ecn").Hits("pkt_ce"))
	require.Equal(t, "distance 4..7 never lies in the back of a 64-PSN window",
		g.Find("distance_x_pos").Bins[indexOf(g.Find("distance_x_pos"), "4..7/back")].Unreachable)
	// Completions 2^24-1 then 0 on connection 3: a wrap; an ACK with two holes; back-pressure on m_cpl.
	step(rxreorder.In{CplReady: true}, rxreorder.Out{CplValid: true, CplConn: 3, CplPSN: 1<<24 - 1})
	require.Zero(t, g.Find("psn_wrap").Hits("completion"))
	step(rxreorder.In{CplReady: false}, rxreorder.Out{CplValid: true, CplConn: 3, CplPSN: 0})
	require.Equal(t, uint64(1), g.Find("backpressure").Hits("m_cpl"))
	step(rxreorder.In{CplReady: true, AckReady: true}, rxreorder.Out{CplValid: true, CplConn: 3, CplPSN: 0,
		AckValid: true, AckConn: 3, AckPSN: 1, AckSack: wide.Vec{0b1001}, AckECN: true})
	require.Equal(t, uint64(1), g.Find("psn_wrap").Hits("completion"))
	require.Equal(t, uint64(1), g.Find("psn_wrap").Hits("ack"), "cumulative PSN 2^24-2 -> 1")
	require.Equal(t, uint64(1), g.Find("sack_holes").Hits("2..3"))
	require.Equal(t, uint64(1), g.Find("ecn").Hits("ack_echo"))
	// Counter increments; a reset after traffic; the counters falling to 0 is no event.
	step(rxreorder.In{}, rxreorder.Out{CntAccepted: 2, CntDuplicate: 1})
	step(rxreorder.In{Rst: true}, rxreorder.Out{CntAccepted: 2, CntDuplicate: 1})
	step(rxreorder.In{}, rxreorder.Out{})
	require.Equal(t, uint64(1), g.Find("verdict").Hits("accepted"))
	require.Equal(t, uint64(1), g.Find("verdict").Hits("duplicate"))
	require.Zero(t, g.Find("verdict").Hits("closed"))
	require.Equal(t, uint64(1), g.Find("reset").Hits("after_traffic"))
	// Reopen of connection 3.
	step(rxreorder.In{CtlValid: true, CtlOpen: true, CtlConn: 3, CtlPSN: 100}, ready)
	require.Equal(t, uint64(1), g.Find("ctl").Hits("reopen"))
	// conn_gap: the open and the five packets before the reset were back to back on connection 3 (five gaps of
	// 1); the reset forgot them, so the reopen is no gap. Now gaps of 2, 4 and 9 cycles, and a first handshake on
	// connection 5 (no gap); a packet refused (not ready) is no handshake.
	gap := g.Find("conn_gap")
	require.Equal(t, uint64(5), gap.Hits("1"))
	pkt := func(conn uint32) { step(rxreorder.In{PktValid: true, PktConn: conn, PktPSN: 100}, ready) }
	idle := func(n int) {
		for i := 0; i < n; i++ {
			step(rxreorder.In{PktValid: true, PktConn: 3}, rxreorder.Out{CtlReady: true})
		}
	}
	idle(1)
	pkt(3)
	idle(3)
	pkt(3)
	pkt(5)
	idle(7)
	pkt(3)
	require.Equal(t, uint64(5), gap.Hits("1"))
	require.Equal(t, uint64(1), gap.Hits("2"))
	require.Equal(t, uint64(1), gap.Hits("3..7"))
	require.Equal(t, uint64(1), gap.Hits("8+"))
}

func indexOf(p *Point, bin string) int {
	for i, b := range p.Bins {
		if b.Name == bin {
			return i
		}
	}
	return -1
}

// TestUnreachablePerConfig: go-back-N bins are targets only with gbn=1, SACK/RTO/feedback bins only with gbn=0.
func TestUnreachablePerConfig(t *testing.T) {
	cfg, err := config.Resolve("default")
	require.NoError(t, err)
	sel := Catalog(cfg)
	cfg.GBN = 1
	gbn := Catalog(cfg)
	unr := func(gs map[string][]*Group, top, group, point, bin string) bool {
		for _, g := range gs[top] {
			if g.Name == group {
				return g.Find(point).Bins[indexOf(g.Find(point), bin)].Unreachable != ""
			}
		}
		t.Fatalf("no group %s", group)
		return false
	}
	require.True(t, unr(sel, "retx", "retx", "tx", "retx_gbn"))
	require.False(t, unr(sel, "retx", "retx", "tx", "retx_loss"))
	require.False(t, unr(gbn, "retx", "retx", "tx", "retx_gbn"))
	require.True(t, unr(gbn, "retx", "retx", "tx", "retx_loss"))
	require.True(t, unr(gbn, "retx", "retx", "feedback", "loss"))
	require.True(t, unr(sel, "nic_transport", "nic_transport", "gbn_filter", "nak"))
	require.False(t, unr(gbn, "nic_transport", "nic_transport", "gbn_filter", "nak"))
	require.True(t, unr(gbn, "nic_transport", "nic_path_sel", "events", "decision"))
	// The top's groups leave out what its ports do not show.
	for _, g := range sel["nic_transport"] {
		if g.Name == "nic_path_sel" {
			require.Nil(t, g.Find("fb_kind"))
		}
		if g.Name == "nic_retx" {
			require.Nil(t, g.Find("feedback"))
		}
	}
	_, err = New("nope", cfg)
	require.ErrorContains(t, err, "no cover groups")
}
