package rxreorder_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/spraynic/spraynic/config"
	"github.com/spraynic/spraynic/golden/rxreorder"
	"github.com/spraynic/spraynic/golden/wide"
)

// cpl is one completion transfer seen on m_cpl.
type cpl struct {
	cycle  int
	conn   uint32
	psn    uint32
	first  bool
	last   bool
	handle uint32
}

// ack is one ACK transfer seen on m_ack.
type ack struct {
	cycle int
	conn  uint32
	psn   uint32
	path  uint32
	pseq  uint32
	sack  wide.Vec
	ecn   bool
}

// pkt is one packet descriptor to drive on s_pkt.
type pkt struct {
	conn, psn, path, pseq uint32
	first, last           bool
	ackReq, ecn           bool
	handle                uint32
}

// tb drives a model cycle by cycle, records every m_cpl and m_ack transfer and checks the AXI-stream hold rule
// on both source streams every cycle.
type tb struct {
	t     *testing.T
	cfg   config.Config
	m     *rxreorder.Model
	cycle int
	in    rxreorder.In
	out   rxreorder.Out
	prev  rxreorder.Out
	prevI rxreorder.In
	cpls  []cpl
	acks  []ack
}

func newTB(t *testing.T, cfg config.Config) *tb {
	t.Helper()
	m, err := rxreorder.New(cfg)
	require.NoError(t, err, "New(%s)", cfg.Name)
	b := &tb{t: t, cfg: cfg, m: m}
	b.in.CplReady = true
	b.in.AckReady = true
	return b
}

func defaultCfg(t *testing.T) config.Config { t.Helper(); return presetCfg(t, "default") }

func presetCfg(t *testing.T, name string) config.Config {
	t.Helper()
	cfg, err := config.Preset(name)
	require.NoError(t, err, "preset %s", name)
	return cfg
}

func smallCfg() config.Config {
	return config.Config{Name: "small", Conns: 2, Window: 8, Paths: 2, SackBits: 8, PSNWidth: 24, PseqWidth: 8,
		HandleWidth: 8, AckEvery: 2, AckFifoDepth: 4,
		TickCycles: 16, CwndInit: 4, CwndMax: 16, AI16ths: 2, FailK: 2, HoldoffTicks: 4,
		RTOTicks: 8, RTOMaxTicks: 64, MaxRetries: 7, QPNBase: 256, DataWidth: 64, MTU: 1024}
}

// step runs one cycle with b.in and returns its outputs.
func (b *tb) step() rxreorder.Out {
	b.t.Helper()
	b.m.Step(&b.in, &b.out)
	o := b.out
	if b.cycle > 0 && !b.prevI.Rst {
		if b.prev.CplValid && !b.prevI.CplReady {
			require.Equal(b.t, cplOf(b.prev, 0), cplOf(o, 0),
				"cycle %d: m_cpl must hold while valid && !ready", b.cycle)
			require.True(b.t, o.CplValid, "cycle %d: m_cpl_valid must hold while !ready", b.cycle)
		}
		if b.prev.AckValid && !b.prevI.AckReady {
			require.Equal(b.t, ackOf(b.prev, 0), ackOf(o, 0),
				"cycle %d: m_ack must hold while valid && !ready", b.cycle)
			require.True(b.t, o.AckValid, "cycle %d: m_ack_valid must hold while !ready", b.cycle)
		}
	}
	require.Equal(b.t, !b.in.Rst, o.CtlReady, "cycle %d: s_ctl_ready = !rst", b.cycle)
	if b.in.Rst || b.in.CtlValid {
		require.False(b.t, o.PktReady, "cycle %d: s_pkt_ready low under rst or s_ctl_valid", b.cycle)
	}
	if o.CplValid && b.in.CplReady {
		b.cpls = append(b.cpls, cplOf(o, b.cycle))
	}
	if o.AckValid && b.in.AckReady {
		b.acks = append(b.acks, ackOf(o, b.cycle))
	}
	b.prev = o
	b.prevI = b.in
	b.cycle++
	return o
}

func cplOf(o rxreorder.Out, cycle int) cpl {
	return cpl{cycle: cycle, conn: o.CplConn, psn: o.CplPSN, first: o.CplFirst, last: o.CplLast, handle: o.CplHandle}
}

func ackOf(o rxreorder.Out, cycle int) ack {
	return ack{cycle: cycle, conn: o.AckConn, psn: o.AckPSN, path: o.AckPath, pseq: o.AckPseq, sack: o.AckSack,
		ecn: o.AckECN}
}

// idle runs n cycles with no input valid.
func (b *tb) idle(n int) {
	b.t.Helper()
	for range n {
		b.step()
	}
}

// ctl performs one control handshake (s_ctl_ready is !rst, so it takes one cycle) and returns its cycle.
func (b *tb) ctl(open bool, conn, psn uint32) int {
	b.t.Helper()
	b.in.CtlValid = true
	b.in.CtlOpen = open
	b.in.CtlConn = conn
	b.in.CtlPSN = psn
	c := b.cycle
	o := b.step()
	require.True(b.t, o.CtlReady, "cycle %d: s_ctl_ready", c)
	b.in.CtlValid = false
	return c
}

// drive puts p on s_pkt with valid high.
func (b *tb) drive(p pkt) {
	b.in.PktValid = true
	b.in.PktConn = p.conn
	b.in.PktPSN = p.psn
	b.in.PktPath = p.path
	b.in.PktPseq = p.pseq
	b.in.PktFirst = p.first
	b.in.PktLast = p.last
	b.in.PktAckReq = p.ackReq
	b.in.PktECN = p.ecn
	b.in.PktHandle = p.handle
}

// send presents p for one cycle, requires the handshake, and returns its cycle.
func (b *tb) send(p pkt) int {
	b.t.Helper()
	b.drive(p)
	c := b.cycle
	o := b.step()
	require.True(b.t, o.PktReady, "cycle %d: s_pkt_ready expected high for %+v", c, p)
	b.in.PktValid = false
	return c
}

// sendWait holds p on s_pkt until the handshake (at most limit cycles) and returns its cycle, or -1.
func (b *tb) sendWait(p pkt, limit int) int {
	b.t.Helper()
	b.drive(p)
	for range limit {
		c := b.cycle
		if o := b.step(); o.PktReady {
			b.in.PktValid = false
			return c
		}
	}
	return -1
}

// sackOf returns a SACK vector with the given bits set.
func sackOf(bits ...int) wide.Vec {
	var v wide.Vec
	for _, i := range bits {
		v = v.Set(i)
	}
	return v
}

// lowBits returns a vector with bits 0..n-1 set.
func lowBits(n int) wide.Vec {
	var v wide.Vec
	for i := range n {
		v = v.Set(i)
	}
	return v
}
