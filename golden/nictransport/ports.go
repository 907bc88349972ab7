package nictransport

import (
	"strings"

	"github.com/spraynic/spraynic/config"
	"github.com/spraynic/spraynic/golden/pathsel"
	"github.com/spraynic/spraynic/golden/retx"
	"github.com/spraynic/spraynic/golden/rxreorder"
	"github.com/spraynic/spraynic/golden/wide"
)

// TopIn holds the input ports of rtl/nic_transport.v, one field per port (tag: port name, width key).
type TopIn struct {
	Rst         bool     `port:"rst,1"`
	TxValid     bool     `port:"s_tx_valid,1"`
	TxConn      uint32   `port:"s_tx_conn,conn"`
	TxHandle    uint32   `port:"s_tx_handle,handle"`
	TxFirst     bool     `port:"s_tx_first,1"`
	TxLast      bool     `port:"s_tx_last,1"`
	CtlValid    bool     `port:"s_ctl_valid,1"`
	CtlOpen     bool     `port:"s_ctl_open,1"`
	CtlConn     uint32   `port:"s_ctl_conn,conn"`
	CtlTxPSN    uint32   `port:"s_ctl_tx_psn,psn"`
	CtlRxPSN    uint32   `port:"s_ctl_rx_psn,psn"`
	CplReady    bool     `port:"m_cpl_ready,1"`
	RdConn      uint32   `port:"rd_conn,conn"`
	RdPath      uint32   `port:"rd_path,path"`
	PktReady    bool     `port:"m_pkt_ready,1"`
	AckOutReady bool     `port:"m_ack_ready,1"`
	RxValid     bool     `port:"s_rx_valid,1"`
	RxConn      uint32   `port:"s_rx_conn,conn"`
	RxPSN       uint32   `port:"s_rx_psn,psn"`
	RxPath      uint32   `port:"s_rx_path,path"`
	RxPseq      uint32   `port:"s_rx_pseq,pseq"`
	RxFirst     bool     `port:"s_rx_first,1"`
	RxLast      bool     `port:"s_rx_last,1"`
	RxAckReq    bool     `port:"s_rx_ack_req,1"`
	RxECN       bool     `port:"s_rx_ecn,1"`
	RxHandle    uint32   `port:"s_rx_handle,handle"`
	AckValid    bool     `port:"s_ack_valid,1"`
	AckConn     uint32   `port:"s_ack_conn,conn"`
	AckPSN      uint32   `port:"s_ack_psn,psn"`
	AckPath     uint32   `port:"s_ack_path,path"`
	AckPseq     uint32   `port:"s_ack_pseq,pseq"`
	AckSack     wide.Vec `port:"s_ack_sack,sack"`
	AckECN      bool     `port:"s_ack_ecn,1"`
	AckNak      bool     `port:"s_ack_nak,1"`
}

// TopOut holds the output ports of rtl/nic_transport.v.
type TopOut struct {
	TxReady        bool     `port:"s_tx_ready,1"`
	CtlReady       bool     `port:"s_ctl_ready,1"`
	CplValid       bool     `port:"m_cpl_valid,1"`
	CplConn        uint32   `port:"m_cpl_conn,conn"`
	CplPSN         uint32   `port:"m_cpl_psn,psn"`
	CplFirst       bool     `port:"m_cpl_first,1"`
	CplLast        bool     `port:"m_cpl_last,1"`
	CplHandle      uint32   `port:"m_cpl_handle,handle"`
	RxvValid       bool     `port:"m_rxv_valid,1"`
	RxvConn        uint32   `port:"m_rxv_conn,conn"`
	RxvPSN         uint32   `port:"m_rxv_psn,psn"`
	RxvCode        uint32   `port:"m_rxv_code,rxv_code"`
	UnaValid       bool     `port:"m_una_valid,1"`
	UnaConn        uint32   `port:"m_una_conn,conn"`
	UnaPSN         uint32   `port:"m_una_psn,psn"`
	ErrValid       bool     `port:"m_err_valid,1"`
	ErrConn        uint32   `port:"m_err_conn,conn"`
	StatusAllFail  bool     `port:"m_status_all_failed,1"`
	StatusConn     uint32   `port:"m_status_conn,conn"`
	StatusAF       wide.Vec `port:"m_status_af,conns"`
	RdState        uint32   `port:"rd_state,state"`
	RdCwnd         uint32   `port:"rd_cwnd,cwnd"`
	RdInflight     uint32   `port:"rd_inflight,inflight"`
	RdEntropy      uint32   `port:"rd_entropy,entropy"`
	RdAllFailed    bool     `port:"rd_all_failed,1"`
	RdDecisions    uint32   `port:"rd_decisions,cnt16"`
	RdLosses       uint32   `port:"rd_losses,cnt16"`
	PktValid       bool     `port:"m_pkt_valid,1"`
	PktConn        uint32   `port:"m_pkt_conn,conn"`
	PktPSN         uint32   `port:"m_pkt_psn,psn"`
	PktPath        uint32   `port:"m_pkt_path,path"`
	PktPseq        uint32   `port:"m_pkt_pseq,pseq"`
	PktEntropy     uint32   `port:"m_pkt_entropy,entropy"`
	PktHandle      uint32   `port:"m_pkt_handle,handle"`
	PktFirst       bool     `port:"m_pkt_first,1"`
	PktLast        bool     `port:"m_pkt_last,1"`
	PktAckReq      bool     `port:"m_pkt_ack_req,1"`
	PktRetx        bool     `port:"m_pkt_retx,1"`
	PktRetries     uint32   `port:"m_pkt_retries,retries"`
	AckOutValid    bool     `port:"m_ack_valid,1"`
	AckOutConn     uint32   `port:"m_ack_conn,conn"`
	AckOutPSN      uint32   `port:"m_ack_psn,psn"`
	AckOutPath     uint32   `port:"m_ack_path,path"`
	AckOutPseq     uint32   `port:"m_ack_pseq,pseq"`
	AckOutSack     wide.Vec `port:"m_ack_sack,sack"`
	AckOutECN      bool     `port:"m_ack_ecn,1"`
	AckOutNak      bool     `port:"m_ack_nak,1"`
	RxReady        bool     `port:"s_rx_ready,1"`
	AckReady       bool     `port:"s_ack_ready,1"`
	CntSent        uint32   `port:"cnt_sent,cnt"`
	CntRetxLoss    uint32   `port:"cnt_retx_loss,cnt"`
	CntRetxTimeout uint32   `port:"cnt_retx_timeout,cnt"`
	CntRetxGBN     uint32   `port:"cnt_retx_gbn,cnt"`
	CntTimeouts    uint32   `port:"cnt_timeouts,cnt"`
	CntErrors      uint32   `port:"cnt_errors,cnt"`
	CntTxDropped   uint32   `port:"cnt_tx_dropped,cnt"`
	CntAckIgnored  uint32   `port:"cnt_ack_ignored,cnt"`
	CntAccepted    uint32   `port:"cnt_accepted,cnt"`
	CntDuplicate   uint32   `port:"cnt_duplicate,cnt"`
	CntOutOfWin    uint32   `port:"cnt_out_of_window,cnt"`
	CntClosed      uint32   `port:"cnt_closed,cnt"`
	CntDecisions   uint32   `port:"cnt_decisions,cnt"`
	CntProbes      uint32   `port:"cnt_probes,cnt"`
	CntFailures    uint32   `port:"cnt_failures,cnt"`
	CntRecoveries  uint32   `port:"cnt_recoveries,cnt"`
	CntGBNDropped  uint32   `port:"cnt_gbn_dropped,cnt"`
	CntNaks        uint32   `port:"cnt_naks,cnt"`
}

// VerdictGBNDropped is the m_rxv_code of a data descriptor the go-back-N receive filter dropped; codes 0..3 are
// rx_reorder's (rxreorder.Verdict*).
const VerdictGBNDropped = 4

// Widths maps the width keys of TopIn/TopOut to bits under cfg: the blocks' keys together, and rxv_code.
func Widths(cfg config.Config) map[string]int {
	w := map[string]int{"rxv_code": 3}
	for _, m := range []map[string]int{retx.Widths(cfg), rxreorder.Widths(cfg), pathsel.Widths(cfg)} {
		for k, v := range m {
			w[k] = v
		}
	}
	return w
}

// Valid names the valid qualifying an output port's payload ("" for ports compared every cycle).
func Valid(port string) string {
	for _, p := range []string{"m_cpl_", "m_pkt_", "m_ack_", "m_err_", "m_rxv_", "m_una_"} {
		if strings.HasPrefix(port, p) && !strings.HasSuffix(port, "_valid") {
			return p + "valid"
		}
	}
	return ""
}

// Top is the endpoint behind the flat port structs of the RTL top.
type Top struct {
	// m is the endpoint; in and out are reused every cycle.
	m   *Model
	in  In
	out Out
}

// NewTop returns the endpoint of cfg behind its RTL ports.
func NewTop(cfg config.Config) (*Top, error) {
	m, err := New(cfg)
	if err != nil {
		return nil, err
	}
	return &Top{m: m}, nil
}

// Model returns the endpoint inside.
func (t *Top) Model() *Model { return t.m }

// Step runs one cycle with the RTL top's ports.
func (t *Top) Step(in *TopIn, out *TopOut) {
	ToIn(in, &t.in)
	t.m.Step(&t.in, &t.out)
	FromOut(&t.out, out)
}

// ToIn converts the RTL top's input ports to the endpoint's inputs.
func ToIn(p *TopIn, in *In) {
	*in = In{
		Rst:         p.Rst,
		TxValid:     p.TxValid,
		TxConn:      p.TxConn,
		TxHandle:    p.TxHandle,
		TxFirst:     p.TxFirst,
		TxLast:      p.TxLast,
		CtlValid:    p.CtlValid,
		CtlOpen:     p.CtlOpen,
		CtlConn:     p.CtlConn,
		CtlTxPSN:    p.CtlTxPSN,
		CtlRxPSN:    p.CtlRxPSN,
		CplReady:    p.CplReady,
		PktReady:    p.PktReady,
		AckOutReady: p.AckOutReady,
		RxValid:     p.RxValid,
		Rx: RxDesc{Conn: p.RxConn, PSN: p.RxPSN, Path: p.RxPath, Pseq: p.RxPseq, First: p.RxFirst, Last: p.RxLast,
			AckReq: p.RxAckReq, ECN: p.RxECN, Handle: p.RxHandle},
		AckInValid: p.AckValid,
		AckIn: AckDesc{Conn: p.AckConn, PSN: p.AckPSN, Path: p.AckPath, Pseq: p.AckPseq, Sack: p.AckSack,
			ECN: p.AckECN, Nak: p.AckNak},
		RdConn: p.RdConn,
		RdPath: p.RdPath,
	}
}

// FromIn converts the endpoint's inputs to the RTL top's input ports (the inverse of ToIn).
func FromIn(in *In, p *TopIn) {
	*p = TopIn{
		Rst:         in.Rst,
		TxValid:     in.TxValid,
		TxConn:      in.TxConn,
		TxHandle:    in.TxHandle,
		TxFirst:     in.TxFirst,
		TxLast:      in.TxLast,
		CtlValid:    in.CtlValid,
		CtlOpen:     in.CtlOpen,
		CtlConn:     in.CtlConn,
		CtlTxPSN:    in.CtlTxPSN,
		CtlRxPSN:    in.CtlRxPSN,
		CplReady:    in.CplReady,
		RdConn:      in.RdConn,
		RdPath:      in.RdPath,
		PktReady:    in.PktReady,
		AckOutReady: in.AckOutReady,
		RxValid:     in.RxValid,
		RxConn:      in.Rx.Conn,
		RxPSN:       in.Rx.PSN,
		RxPath:      in.Rx.Path,
		RxPseq:      in.Rx.Pseq,
		RxFirst:     in.Rx.First,
		RxLast:      in.Rx.Last,
		RxAckReq:    in.Rx.AckReq,
		RxECN:       in.Rx.ECN,
		RxHandle:    in.Rx.Handle,
		AckValid:    in.AckInValid,
		AckConn:     in.AckIn.Conn,
		AckPSN:      in.AckIn.PSN,
		AckPath:     in.AckIn.Path,
		AckPseq:     in.AckIn.Pseq,
		AckSack:     in.AckIn.Sack,
		AckECN:      in.AckIn.ECN,
		AckNak:      in.AckIn.Nak,
	}
}

// FromOut converts the endpoint's outputs to the RTL top's output ports.
func FromOut(o *Out, p *TopOut) {
	x, r, s := &o.Retx, &o.Rx, &o.PathSel
	*p = TopOut{
		TxReady:        x.TxReady,
		CtlReady:       o.CtlReady,
		CplValid:       r.CplValid,
		CplConn:        r.CplConn,
		CplPSN:         r.CplPSN,
		CplFirst:       r.CplFirst,
		CplLast:        r.CplLast,
		CplHandle:      r.CplHandle,
		RxvValid:       o.RxvValid,
		RxvConn:        o.Rxv.Conn,
		RxvPSN:         o.Rxv.PSN,
		RxvCode:        o.Rxv.Code,
		UnaValid:       x.UnaValid,
		UnaConn:        x.UnaConn,
		UnaPSN:         x.UnaPSN,
		ErrValid:       x.ErrValid,
		ErrConn:        x.ErrConn,
		StatusAllFail:  s.StatusAllFail,
		StatusConn:     s.StatusConn,
		StatusAF:       s.StatusAF,
		RdState:        s.RdState,
		RdCwnd:         s.RdCwnd,
		RdInflight:     s.RdInflight,
		RdEntropy:      s.RdEntropy,
		RdAllFailed:    s.RdAllFailed,
		RdDecisions:    s.RdDecisions,
		RdLosses:       s.RdLosses,
		PktValid:       x.PktValid,
		PktConn:        x.PktConn,
		PktPSN:         x.PktPSN,
		PktPath:        x.PktPath,
		PktPseq:        x.PktPseq,
		PktEntropy:     x.PktEntropy,
		PktHandle:      x.PktHandle,
		PktFirst:       x.PktFirst,
		PktLast:        x.PktLast,
		PktAckReq:      x.PktAckReq,
		PktRetx:        x.PktRetx,
		PktRetries:     x.PktRetries,
		AckOutValid:    o.AckOutValid,
		AckOutConn:     o.AckOut.Conn,
		AckOutPSN:      o.AckOut.PSN,
		AckOutPath:     o.AckOut.Path,
		AckOutPseq:     o.AckOut.Pseq,
		AckOutSack:     o.AckOut.Sack,
		AckOutECN:      o.AckOut.ECN,
		AckOutNak:      o.AckOut.Nak,
		RxReady:        o.RxReady,
		AckReady:       o.AckInReady,
		CntSent:        x.CntSent,
		CntRetxLoss:    x.CntRetxLoss,
		CntRetxTimeout: x.CntRetxTimeout,
		CntRetxGBN:     x.CntRetxGBN,
		CntTimeouts:    x.CntTimeouts,
		CntErrors:      x.CntErrors,
		CntTxDropped:   x.CntTxDropped,
		CntAckIgnored:  x.CntAckIgnored,
		CntAccepted:    r.CntAccepted,
		CntDuplicate:   r.CntDuplicate,
		CntOutOfWin:    r.CntOutOfWin,
		CntClosed:      r.CntClosed,
		CntDecisions:   s.CntDecisions,
		CntProbes:      s.CntProbes,
		CntFailures:    s.CntFailures,
		CntRecoveries:  s.CntRecoveries,
		CntGBNDropped:  o.GBNDropped,
		CntNaks:        o.Naks,
	}
}
