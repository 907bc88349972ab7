package cosim

import (
	"fmt"

	"github.com/spraynic/spraynic/config"
	"github.com/spraynic/spraynic/cosim/bridge"
	"github.com/spraynic/spraynic/golden/endpoint"
)

// nicStep is one step of a directed nic_transport script.
type nicStep struct {
	// rx presents a data packet with this PSN (connection 3) until s_rx_ready; ctl opens connection 3 for one
	// cycle with RX PSN ctlPSN; idle runs that many cycles; ackReady sets m_ack_ready from this step on.
	rx       bool
	psn      uint32
	ctl      bool
	ctlPSN   uint32
	idle     int
	ackReady bool
}

// nicScript drives a nic_transport top through a list of steps, following s_rx_ready.
type nicScript struct {
	// steps and at are the script and the current step; left counts the current idle step; ackReady is the
	// m_ack_ready level; done is set at the end.
	steps    []nicStep
	at, left int
	ackReady bool
	// last is the latest output observed.
	last endpoint.TopOut
}

// gbnFilterScript exercises the go-back-N receive filter of the top: in-order packets across the PSN wrap, a gap
// (NAK with the expected PSN, once), packets past it dropped, the rewind, a duplicate (must reach rx_reorder),
// ACKs and a NAK waiting together (rx_reorder's ACK goes first), and a reopen while a NAK waits (the NAK is
// dropped).
var gbnFilterScript = []nicStep{
	{ctl: true, ctlPSN: 0xFFFFFE},
	{rx: true, psn: 0xFFFFFE}, {rx: true, psn: 0x000001}, {rx: true, psn: 0x000002}, {idle: 6},
	{ackReady: true}, {idle: 8},
	{rx: true, psn: 0xFFFFFF}, {rx: true, psn: 0x000000}, {rx: true, psn: 0x000001}, {rx: true, psn: 0xFFFFFE},
	{idle: 8},
	{ackReady: false}, {rx: true, psn: 0x000003}, {idle: 3}, {ctl: true, ctlPSN: 0x000010}, {idle: 2},
	{ackReady: true}, {idle: 8},
	{rx: true, psn: 0x000010}, {rx: true, psn: 0x000012}, {idle: 10},
}

func (d *nicScript) Drive(cycle int64, in *endpoint.TopIn) {
	*in = endpoint.TopIn{Rst: cycle < 2, CplReady: true, PktReady: true, AckOutReady: d.ackReady}
	if in.Rst {
		return
	}
	for d.at < len(d.steps) {
		s := d.steps[d.at]
		switch {
		case s.rx:
			in.RxValid, in.RxConn, in.RxPSN, in.RxPath, in.RxPseq, in.RxAckReq, in.RxHandle =
				true, 3, s.psn, 0, s.psn&0xFF, true, s.psn&0xFF
			return
		case s.ctl:
			in.CtlValid, in.CtlOpen, in.CtlConn, in.CtlTxPSN, in.CtlRxPSN = true, true, 3, 100, s.ctlPSN
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

func (d *nicScript) Observe(cycle int64, in *endpoint.TopIn, out *endpoint.TopOut) {
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

// check requires the script to have run to its end and the filter to have done what it is for.
func (d *nicScript) check() error {
	o := &d.last
	switch {
	case d.at < len(d.steps):
		return fmt.Errorf("script stopped at step %d of %d", d.at, len(d.steps))
	case o.CntNaks != 3 || o.CntGBNDropped != 4:
		return fmt.Errorf("naks %d, gbn_dropped %d; want 3 and 4", o.CntNaks, o.CntGBNDropped)
	case o.CntAccepted != 5 || o.CntDuplicate != 1:
		return fmt.Errorf("accepted %d, duplicate %d; want 5 and 1", o.CntAccepted, o.CntDuplicate)
	}
	return nil
}

func init() {
	register(Test{Name: "nic_dir_gbn_filter", Block: "nic_transport",
		Doc:       "directed: go-back-N receive filter of the top (NAK once per gap with the expected PSN across the wrap, drops past the gap, duplicates pass, ACK before NAK, reopen drops a waiting NAK)",
		configure: func(cfg config.Config) config.Config { cfg.GBN = 1; return cfg },
		CyclesFor: func(config.Config) int64 { return 200 },
		ports: func(cfg config.Config) ([]bridge.Port, func(string) string, error) {
			p, err := portsOf[endpoint.TopIn, endpoint.TopOut](endpoint.Widths(cfg))
			return p, endpoint.Valid, err
		},
		run: func(r Request, dut *bridge.Model) (Result, error) {
			g, err := endpoint.NewTop(r.Config)
			if err != nil {
				return Result{}, err
			}
			drv := &nicScript{steps: gbnFilterScript}
			st, err := Lockstep[endpoint.TopIn, endpoint.TopOut](dut, g, drv, nil, endpoint.Valid, Options{
				Cycles: r.Cycles, Batch: batchOf(r), Repro: r.Repro(), Sampler: r.sampler, History: 8, TraceFile: r.Waves, TraceFrom: r.WavesFrom})
			res := Result{Cycles: st.Cycles, Packets: int64(drv.last.CntAccepted + drv.last.CntGBNDropped),
				Detail: fmt.Sprintf("accepted=%d duplicate=%d gbn_dropped=%d naks=%d", drv.last.CntAccepted,
					drv.last.CntDuplicate, drv.last.CntGBNDropped, drv.last.CntNaks)}
			if err == nil {
				if err = drv.check(); err != nil {
					err = &CheckError{Cycle: st.Cycles, Err: err, Repro: r.Repro()}
				}
			}
			return res, err
		}})
}
