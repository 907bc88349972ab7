package cosim

import (
	"fmt"

	"github.com/spraynic/spraynic/config"
	"github.com/spraynic/spraynic/cosim/bridge"
	"github.com/spraynic/spraynic/golden/nictransport"
)

// nicStep is one step of a directed nic_transport script.
type nicStep struct {
	// rx presents a data packet with this PSN on connection conn until s_rx_ready; ctl opens connection conn
	// with RX PSN ctlPSN until s_ctl_ready; idle runs that many cycles; ackReady sets m_ack_ready from this
	// step on.
	rx       bool
	conn     uint32
	psn      uint32
	ctl      bool
	ctlPSN   uint32
	idle     int
	ackReady bool
}

// onConn puts every rx and ctl step of steps on connection c.
func onConn(c uint32, steps []nicStep) []nicStep {
	for i := range steps {
		steps[i].conn = c
	}
	return steps
}

// nicScript drives a nic_transport top through a list of steps, following s_rx_ready.
type nicScript struct {
	// steps and at are the script and the current step; left counts the current idle step; ackReady is the
	// m_ack_ready level.
	steps    []nicStep
	at, left int
	ackReady bool
	// last is the latest output observed; want the counters the script must end with.
	last nictransport.TopOut
	want nicCounts
}

// gbnFilterScript exercises the go-back-N receive filter of the top: in-order packets across the PSN wrap, a gap
// (NAK with the expected PSN, once), packets past it dropped, the rewind, a duplicate (must reach rx_reorder),
// ACKs and a NAK waiting together (rx_reorder's ACK goes first), and a reopen while a NAK waits (the NAK is
// dropped).
var gbnFilterScript = onConn(3, []nicStep{
	{ctl: true, ctlPSN: 0xFFFFFE},
	{rx: true, psn: 0xFFFFFE}, {rx: true, psn: 0x000001}, {rx: true, psn: 0x000002}, {idle: 6},
	{ackReady: true}, {idle: 8},
	{rx: true, psn: 0xFFFFFF}, {rx: true, psn: 0x000000}, {rx: true, psn: 0x000001}, {rx: true, psn: 0xFFFFFE},
	{idle: 8},
	{ackReady: false}, {rx: true, psn: 0x000003}, {idle: 3}, {ctl: true, ctlPSN: 0x000010}, {idle: 2},
	{ackReady: true}, {idle: 8},
	{rx: true, psn: 0x000010}, {rx: true, psn: 0x000012}, {idle: 10},
})

// gbnConnsScript runs the go-back-N filter on every connection at once, one phase over all of them before the
// next: open at 0xFFFFFF (every bit of the expected PSN goes 0 -> 1), the in-order 0xFFFFFF (the expected PSN
// wraps to 0: every bit 1 -> 0), a gap at 2 (one NAK each), a second packet past the gap (dropped, no NAK: the
// NAK-sent flag of each connection is its own), the missing 0 (accepted, flag cleared), then 1 and 2 in order.
// Gap and drop phases run while every other connection's flag is set, so a flag shared between connections
// shows as a missing or extra NAK. Counts at the end: accepted 4 x conns, dropped 2 x conns, NAKs conns.
func gbnConnsScript(cfg config.Config) ([]nicStep, nicCounts) {
	conns := cfg.Conns
	var s []nicStep
	phase := func(st nicStep) {
		for c := 0; c < conns; c++ {
			st.conn = uint32(c)
			s = append(s, st)
		}
		s = append(s, nicStep{idle: 4})
	}
	s = append(s, nicStep{ackReady: true})
	phase(nicStep{ctl: true, ctlPSN: 0xFFFFFF})
	for _, psn := range []uint32{0xFFFFFF, 0x000002, 0x000003, 0x000000, 0x000001, 0x000002} {
		phase(nicStep{rx: true, psn: psn})
	}
	n := uint32(conns)
	return append(s, nicStep{idle: 10}), nicCounts{naks: n, dropped: 2 * n, accepted: 4 * n}
}

func (d *nicScript) Drive(cycle int64, in *nictransport.TopIn) {
	*in = nictransport.TopIn{Rst: cycle < 2, CplReady: true, PktReady: true, AckOutReady: d.ackReady}
	if in.Rst {
		return
	}
	for d.at < len(d.steps) {
		s := d.steps[d.at]
		switch {
		case s.rx:
			in.RxValid = true
			in.RxConn = s.conn
			in.RxPSN = s.psn
			in.RxPath = 0
			in.RxPseq = s.psn & 0xFF
			in.RxAckReq = true
			in.RxHandle = s.psn & 0xFF
			return
		case s.ctl:
			in.CtlValid = true
			in.CtlOpen = true
			in.CtlConn = s.conn
			in.CtlTxPSN = 100
			in.CtlRxPSN = s.ctlPSN
			return
		case s.idle > 0:
			if d.left == 0 {
				d.left = s.idle
			}
			return
		default:
			d.ackReady = s.ackReady
			in.AckOutReady = s.ackReady
			d.at++
		}
	}
}

func (d *nicScript) Observe(cycle int64, in *nictransport.TopIn, out *nictransport.TopOut) {
	d.last = *out
	if in.Rst || d.at >= len(d.steps) {
		return
	}
	s := d.steps[d.at]
	switch {
	case s.rx && out.RxReady, s.ctl && out.CtlReady:
		d.at++
	case s.idle > 0:
		if d.left--; d.left == 0 {
			d.at++
		}
	}
}

// nicCounts are the counters a directed script must end with.
type nicCounts struct {
	naks, dropped, accepted, duplicate uint32
}

// check requires the script to have run to its end and the filter to have done what it is for.
func (d *nicScript) check() error {
	o, want := &d.last, d.want
	switch {
	case d.at < len(d.steps):
		return fmt.Errorf("script stopped at step %d of %d", d.at, len(d.steps))
	case o.CntNaks != want.naks || o.CntGBNDropped != want.dropped:
		return fmt.Errorf("naks %d, gbn_dropped %d; want %d and %d", o.CntNaks, o.CntGBNDropped, want.naks,
			want.dropped)
	case o.CntAccepted != want.accepted || o.CntDuplicate != want.duplicate:
		return fmt.Errorf("accepted %d, duplicate %d; want %d and %d", o.CntAccepted, o.CntDuplicate,
			want.accepted, want.duplicate)
	}
	return nil
}

func (d *nicScript) result() (int64, string) {
	o := &d.last
	return int64(o.CntAccepted + o.CntGBNDropped), fmt.Sprintf("accepted=%d duplicate=%d gbn_dropped=%d naks=%d",
		o.CntAccepted, o.CntDuplicate, o.CntGBNDropped, o.CntNaks)
}

// nicDirected is the driver of a directed test of the top: it follows the handshakes, then says whether
// the run ended as it must and what it did.
type nicDirected interface {
	Driver[nictransport.TopIn, nictransport.TopOut]
	check() error
	result() (packets int64, detail string)
}

// registerNicDirected registers t (name, doc, length, seed cap) as a directed test of the top: the driver newDrv
// makes for the request, in lockstep with the golden top, then the driver's own check. The top runs in
// go-back-N mode unless t.configure is set.
func registerNicDirected(t Test, newDrv func(Request) nicDirected) {
	t.Block = "nic_transport"
	t.Directed = true
	if t.configure == nil {
		t.configure = func(cfg config.Config) config.Config { cfg.GBN = 1; return cfg }
	}
	t.ports = NicTransportPorts
	t.run = func(r Request, dut *bridge.Model) (Result, error) {
		g, err := nictransport.NewTop(r.Config)
		if err != nil {
			return Result{}, err
		}
		drv := newDrv(r)
		sb := newNicVerdicts()
		st, err := Lockstep[nictransport.TopIn, nictransport.TopOut](dut, g, drv, sb, nictransport.Valid,
			r.lockstepOptions())
		res := Result{Cycles: st.Cycles}
		res.Packets, res.Detail = drv.result()
		res.Detail += fmt.Sprintf(" verdicts=%d", sb.Verdicts)
		if err == nil {
			if err = drv.check(); err != nil {
				err = &CheckError{Cycle: st.Cycles, Err: err, Repro: r.Repro()}
			}
		}
		return res, err
	}
	register(t)
}

// registerNicScript registers a directed go-back-N test of the top that runs a step list and ends with the
// counters the list gives.
func registerNicScript(name, doc string, script func(config.Config) ([]nicStep, nicCounts),
	cycles func(config.Config) int64) {
	minFor := func(cfg config.Config) Minimum {
		_, want := script(cfg)
		return Minimum{N: int64(want.accepted + want.dropped),
			Why: "the packets the script expects accepted or dropped by the go-back-N filter"}
	}
	registerNicDirected(Test{Name: name, Doc: doc, CyclesFor: cycles, MinFor: minFor}, func(r Request) nicDirected {
		steps, want := script(r.Config)
		return &nicScript{steps: steps, want: want}
	})
}

func init() {
	registerNicScript(
		"nic_dir_gbn_filter",
		"directed: go-back-N receive filter of the top (NAK once per gap with the expected PSN across the wrap, "+
			"drops past the gap, duplicates pass, ACK before NAK, reopen drops a waiting NAK)",
		func(config.Config) ([]nicStep, nicCounts) {
			return gbnFilterScript, nicCounts{naks: 3, dropped: 4, accepted: 5, duplicate: 1}
		},
		func(config.Config) int64 { return 200 },
	)
	registerNicScript(
		"nic_dir_gbn_conns",
		"directed: go-back-N receive filter on every connection at once (expected PSN through every bit and the wrap, "+
			"one NAK per connection's gap with every other connection's NAK-sent flag set, drops past the gap)",
		gbnConnsScript,
		func(cfg config.Config) int64 { return 100 + 7*(2*int64(cfg.Conns)+8) },
	)
}
