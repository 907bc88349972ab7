package retx_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/spraynic/spraynic/config"
	"github.com/spraynic/spraynic/golden/retx"
	"github.com/spraynic/spraynic/golden/wide"
)

// pkt is one transfer seen on m_pkt (the cycle is the one with m_pkt_valid && m_pkt_ready).
type pkt struct {
	cycle                     int
	conn, psn, path, pseq     uint32
	entropy, handle           uint32
	first, last, ackReq, retx bool
	retries                   uint32
}

// fb is one transfer seen on m_fb.
type fb struct {
	cycle                   int
	conn, path, kind, count uint32
}

// errEv is one m_err pulse.
type errEv struct {
	cycle int
	conn  uint32
}

// tb drives a model cycle by cycle, records every m_pkt / m_fb transfer and m_err pulse, and checks every cycle
// the rules that hold whatever the stimulus: readies under reset, s_ctl_ready, the m_preq payload rule, the
// AXI-stream hold rule on m_pkt and m_fb, s_path_ready only with s_path_valid, and that every s_path_ready
// loads m_pkt with the offered path and entropy.
type tb struct {
	t     *testing.T
	cfg   config.Config
	m     *retx.Model
	cycle int
	in    retx.In
	out   retx.Out
	prev  retx.Out
	prevI retx.In
	pkts  []pkt
	fbs   []fb
	errs  []errEv
	// prevLoad is set by the stress test: the previous cycle loaded m_pkt.
	prevLoad bool
}

// smallCfg is the default preset cut down to 4 connections, WINDOW 8, 4 paths, SACK_BITS 8, PSEQ_WIDTH 8,
// TICK_CYCLES 4, RTO_TICKS 2, RTO_MAX_TICKS 8, MAX_RETRIES 2, with the ACK request age and early loss off
// (ACK_REQ_TICKS 0, EARLY_CYCLES 0: the tests of those rules switch them on); edit adjusts it. It must validate.
func smallCfg(t *testing.T, edit ...func(*config.Config)) config.Config {
	t.Helper()
	c, err := config.Preset("default")
	require.NoError(t, err)
	c.Name = "small"
	c.Conns = 4
	c.Window = 8
	c.Paths = 4
	c.SackBits = 8
	c.PseqWidth = 8
	c.TickCycles = 4
	c.RTOTicks = 2
	c.RTOMaxTicks = 8
	c.MaxRetries = 2
	c.AckReqTicks = 0
	c.EarlyCycles = 0
	for _, e := range edit {
		e(&c)
	}
	require.NoError(t, c.Validate(), "test config must validate")
	return c
}

// noRTO makes the timeout long enough never to expire in a short test.
func noRTO(c *config.Config) { c.RTOTicks = 60000; c.RTOMaxTicks = 60000 }

// timers switches the ACK request age (ACK_REQ_TICKS) and early loss (EARLY_CYCLES) on.
func timers(ackReqTicks, earlyCycles int) func(*config.Config) {
	return func(c *config.Config) { c.AckReqTicks = ackReqTicks; c.EarlyCycles = earlyCycles }
}

// gbnMode selects go-back-N mode.
func gbnMode(c *config.Config) { c.GBN = 1 }

func newTB(t *testing.T, cfg config.Config) *tb {
	t.Helper()
	m, err := retx.New(cfg)
	require.NoError(t, err, "New(%s)", cfg.Name)
	b := &tb{t: t, cfg: cfg, m: m}
	b.in.PktReady = true
	b.in.FbReady = true
	b.offer(0)
	return b
}

// entropyOf is the entropy the tests offer with path p.
func entropyOf(p uint32) uint32 { return 0xC000 | p<<4 | 7 }

// offer offers path p on s_path from now on.
func (b *tb) offer(p uint32) {
	b.in.PathValid = true
	b.in.PathPath = p
	b.in.PathEntropy = entropyOf(p)
}

// step runs one cycle with b.in and returns its outputs.
func (b *tb) step() retx.Out {
	b.t.Helper()
	b.m.Step(&b.in, &b.out)
	o := b.out
	c := b.cycle
	require.Equal(b.t, !b.in.Rst, o.CtlReady, "cycle %d: s_ctl_ready = !rst", c)
	if b.in.Rst {
		require.False(b.t, o.TxReady || o.PathReady || o.AckReady || o.PreqValid,
			"cycle %d: readies and m_preq_valid low under rst", c)
	}
	if !o.PreqValid {
		require.Zero(b.t, o.PreqConn+o.PreqAvoid, "cycle %d: m_preq payload 0 when !valid", c)
		require.False(b.t, o.PreqRetx, "cycle %d: m_preq payload 0 when !valid", c)
	}
	if o.PathReady {
		require.True(b.t, b.in.PathValid, "cycle %d: s_path_ready without s_path_valid", c)
	}
	if c > 0 && !b.prevI.Rst {
		if b.prev.PktValid && !b.prevI.PktReady {
			require.Equal(b.t, pktOf(b.prev, 0), pktOf(o, 0), "cycle %d: m_pkt must hold while valid && !ready", c)
			require.True(b.t, o.PktValid, "cycle %d: m_pkt_valid must hold", c)
		}
		if b.prev.FbValid && !b.prevI.FbReady {
			require.True(b.t, o.FbValid, "cycle %d: m_fb_valid must hold", c)
			require.Equal(b.t, fbOf(b.prev, 0), fbOf(o, 0), "cycle %d: m_fb must hold while valid && !ready", c)
		}
		if b.prev.PathReady {
			require.True(b.t, o.PktValid, "cycle %d: a transmission loads m_pkt", c)
			require.Equal(b.t, b.prevI.PathPath&uint32(b.cfg.Paths-1), o.PktPath,
				"cycle %d: m_pkt_path is the offered path", c)
			require.Equal(b.t, b.prevI.PathEntropy&0xFFFF, o.PktEntropy,
				"cycle %d: m_pkt_entropy is the offered entropy", c)
		}
	}
	if o.PktValid && b.in.PktReady {
		b.pkts = append(b.pkts, pktOf(o, c))
	}
	if o.FbValid && b.in.FbReady {
		b.fbs = append(b.fbs, fbOf(o, c))
	}
	if o.ErrValid {
		b.errs = append(b.errs, errEv{cycle: c, conn: o.ErrConn})
	}
	b.prev = o
	b.prevI = b.in
	b.cycle++
	return o
}

func pktOf(o retx.Out, cycle int) pkt {
	return pkt{cycle: cycle, conn: o.PktConn, psn: o.PktPSN, path: o.PktPath, pseq: o.PktPseq, entropy: o.PktEntropy,
		handle: o.PktHandle, first: o.PktFirst, last: o.PktLast, ackReq: o.PktAckReq, retx: o.PktRetx,
		retries: o.PktRetries}
}

func fbOf(o retx.Out, cycle int) fb {
	return fb{cycle: cycle, conn: o.FbConn, path: o.FbPath, kind: o.FbKind, count: o.FbCount}
}

// idle runs n cycles with s_tx, s_ack and s_ctl not valid.
func (b *tb) idle(n int) {
	b.t.Helper()
	for range n {
		b.step()
	}
}

// until steps until the cycle counter reaches cycle (the next step runs cycle `cycle`).
func (b *tb) until(cycle int) {
	b.t.Helper()
	require.LessOrEqual(b.t, b.cycle, cycle, "test timing: already past cycle %d", cycle)
	for b.cycle < cycle {
		b.step()
	}
}

// ctl presents one control operation for one cycle (s_ctl_ready is !rst) and returns its cycle.
func (b *tb) ctl(open bool, conn, psn uint32) int {
	b.t.Helper()
	b.in.CtlValid = true
	b.in.CtlOpen = open
	b.in.CtlConn = conn
	b.in.CtlPSN = psn
	c := b.cycle
	o := b.step()
	require.True(b.t, o.CtlReady, "cycle %d: s_ctl_ready", c)
	require.False(b.t, o.TxReady, "cycle %d: frozen: no s_tx taken", c)
	require.False(b.t, o.PathReady, "cycle %d: frozen: nothing sent", c)
	b.in.CtlValid = false
	return c
}

// driveTx puts a new packet on s_tx with valid high.
func (b *tb) driveTx(conn, handle uint32, first, last bool) {
	b.in.TxValid = true
	b.in.TxConn = conn
	b.in.TxHandle = handle
	b.in.TxFirst = first
	b.in.TxLast = last
}

// tx presents one new packet for one cycle, requires the handshake, and returns its cycle.
func (b *tb) tx(conn, handle uint32, first, last bool) int {
	b.t.Helper()
	b.driveTx(conn, handle, first, last)
	c := b.cycle
	o := b.step()
	require.True(b.t, o.TxReady, "cycle %d: s_tx_ready expected high for conn %d", c, conn)
	b.in.TxValid = false
	return c
}

// ackMsg is one ACK to drive on s_ack.
type ackMsg struct {
	conn, psn, path, pseq uint32
	sack                  uint64
	ecn, nak              bool
}

// ack presents an ACK until it is taken (at most 20 cycles) and returns the handshake cycle.
func (b *tb) ack(a ackMsg) int {
	b.t.Helper()
	b.in.AckValid = true
	b.in.AckConn = a.conn
	b.in.AckPSN = a.psn
	b.in.AckPath = a.path
	b.in.AckPseq = a.pseq
	b.in.AckSack = wide.Vec{a.sack}
	b.in.AckECN = a.ecn
	b.in.AckNak = a.nak
	for range 20 {
		c := b.cycle
		if b.step().AckReady {
			b.in.AckValid = false
			return c
		}
	}
	require.FailNow(b.t, "s_ack never ready")
	return 0
}

// sent returns the m_pkt transfers from index from on.
func (b *tb) sent(from int) []pkt { return b.pkts[from:] }
