package pathsel_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/spraynic/spraynic/config"
	"github.com/spraynic/spraynic/golden/pathsel"
)

// First entropies after reset, worked out by hand from the doc: lfsr 16'hACE1 stepped once, twice, three times
// gives 16'hE270, 16'h7138, 16'h389C; entropy = 16'hC000 | lfsr[13:0].
const (
	newEntropy1 = 0xE270
	newEntropy2 = 0xF138
	newEntropy3 = 0xF89C
)

// sel is one decision transfer seen on m_sel.
type sel struct {
	cycle   int
	conn    uint32
	path    uint32
	entropy uint32
	probe   bool
}

// view is what the rd_* ports show of one (connection, path).
type view struct {
	state     uint32
	cwnd      uint32
	inflight  uint32
	entropy   uint32
	allFailed bool
}

// tb drives a model cycle by cycle, records every m_sel transfer and checks the ready rules and the AXI-stream
// hold rule on m_sel every cycle.
type tb struct {
	t     *testing.T
	cfg   config.Config
	m     *pathsel.Model
	cycle int
	in    pathsel.In
	out   pathsel.Out
	prev  pathsel.Out
	prevI pathsel.In
	sels  []sel
}

func newTB(t *testing.T, cfg config.Config) *tb {
	t.Helper()
	m, err := pathsel.New(cfg)
	require.NoError(t, err, "New(%s)", cfg.Name)
	b := &tb{t: t, cfg: cfg, m: m}
	b.in.SelReady = true
	return b
}

func presetCfg(t *testing.T, name string) config.Config {
	t.Helper()
	cfg, err := config.Preset(name)
	require.NoError(t, err, "preset %s", name)
	return cfg
}

// smallCfg is a 4-connection, 4-path configuration with small windows and short timers; edit adjusts it.
func smallCfg(edit ...func(*config.Config)) config.Config {
	c := config.Config{Name: "small", Conns: 4, Window: 8, Paths: 4, SackBits: 8, PSNWidth: 24, PseqWidth: 8,
		HandleWidth: 8, AckEvery: 2, AckFifoDepth: 4,
		TickCycles: 4, CwndInit: 1, CwndMax: 4, AI16ths: 4, FailK: 2, HoldoffTicks: 3,
		RTOTicks: 8, RTOMaxTicks: 64, MaxRetries: 7, QPNBase: 256, DataWidth: 64, MTU: 1024}
	for _, e := range edit {
		e(&c)
	}
	return c
}

// step runs one cycle with b.in and returns its outputs.
func (b *tb) step() pathsel.Out {
	b.t.Helper()
	b.m.Step(&b.in, &b.out)
	o := b.out
	if b.cycle > 0 && !b.prevI.Rst && b.prev.SelValid && !b.prevI.SelReady {
		require.True(b.t, o.SelValid, "cycle %d: m_sel_valid must hold while !ready", b.cycle)
		require.Equal(b.t, selOf(b.prev, 0), selOf(o, 0), "cycle %d: m_sel must hold while valid && !ready", b.cycle)
	}
	require.Equal(b.t, !b.in.Rst, o.FbReady, "cycle %d: s_fb_ready = !rst", b.cycle)
	require.Equal(b.t, !b.in.Rst, o.CtlReady, "cycle %d: s_ctl_ready = !rst", b.cycle)
	if b.in.Rst {
		require.False(b.t, o.ReqReady, "cycle %d: s_req_ready low under rst", b.cycle)
	}
	if o.SelValid && b.in.SelReady {
		b.sels = append(b.sels, selOf(o, b.cycle))
	}
	b.prev = o
	b.prevI = b.in
	b.cycle++
	return o
}

func selOf(o pathsel.Out, cycle int) sel {
	return sel{cycle: cycle, conn: o.SelConn, path: o.SelPath, entropy: o.SelEntropy, probe: o.SelProbe}
}

// idle runs n cycles with no handshake input valid.
func (b *tb) idle(n int) {
	b.t.Helper()
	for range n {
		b.step()
	}
}

// drive puts a request on s_req with valid high.
func (b *tb) drive(conn uint32, retx bool, avoid uint32) {
	b.in.ReqValid = true
	b.in.ReqConn = conn
	b.in.ReqRetx = retx
	b.in.ReqAvoid = avoid
}

// req presents a request for one cycle, requires the handshake, and returns its cycle.
func (b *tb) req(conn uint32, retx bool, avoid uint32) int {
	b.t.Helper()
	b.drive(conn, retx, avoid)
	c := b.cycle
	o := b.step()
	require.True(b.t, o.ReqReady, "cycle %d: s_req_ready expected high for conn %d", c, conn)
	b.in.ReqValid = false
	return c
}

// driveFb puts a feedback on s_fb with valid high.
func (b *tb) driveFb(conn, path, kind, n uint32) {
	b.in.FbValid = true
	b.in.FbConn = conn
	b.in.FbPath = path
	b.in.FbKind = kind
	b.in.FbCount = n
}

// fb presents one feedback for one cycle (s_fb_ready is !rst) and returns its cycle.
func (b *tb) fb(conn, path, kind, n uint32) int {
	b.t.Helper()
	b.driveFb(conn, path, kind, n)
	c := b.cycle
	b.step()
	b.in.FbValid = false
	return c
}

// ctl reopens conn (one cycle) and returns its cycle.
func (b *tb) ctl(conn uint32) int {
	b.t.Helper()
	b.in.CtlValid = true
	b.in.CtlConn = conn
	c := b.cycle
	b.step()
	b.in.CtlValid = false
	return c
}

// read points rd_* at (conn, path) and returns, two cycles later, the state it had before the call (nothing
// but ticks and a request already in stage 1 act in the first of those cycles).
func (b *tb) read(conn, path uint32) view {
	b.t.Helper()
	b.in.RdConn = conn
	b.in.RdPath = path
	b.step()
	return viewOf(b.step())
}

func viewOf(o pathsel.Out) view {
	return view{state: o.RdState, cwnd: o.RdCwnd, inflight: o.RdInflight, entropy: o.RdEntropy,
		allFailed: o.RdAllFailed}
}

// fail sends FAIL_K single losses to (conn, path), which must be ACTIVE or SUSPECT with consec 0.
func (b *tb) fail(conn, path uint32) int {
	b.t.Helper()
	c := 0
	for range b.cfg.FailK {
		c = b.fb(conn, path, pathsel.FbLoss, 1)
	}
	return c
}

// e0 is E0(c,p) computed the way the doc writes it.
func e0(paths int, c, p uint32) uint32 {
	return 0xC000 | ((c*uint32(paths)+p)*997)%(1<<14)
}

// paths lists the paths of b.sels from index from on.
func (b *tb) paths(from int) []uint32 {
	var ps []uint32
	for _, s := range b.sels[from:] {
		ps = append(ps, s.path)
	}
	return ps
}
