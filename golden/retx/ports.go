package retx

import (
	"strings"

	"github.com/spraynic/spraynic/config"
	"github.com/spraynic/spraynic/golden/wide"
)

// In holds every input port of retx except clk, one field per port; the `port` tag names the Verilog port and
// its width class (see Widths). The co-simulation checks them against the built model at load time.
type In struct {
	Rst         bool     `port:"rst,1"`
	TxValid     bool     `port:"s_tx_valid,1"`
	TxConn      uint32   `port:"s_tx_conn,conn"`
	TxHandle    uint32   `port:"s_tx_handle,handle"`
	TxFirst     bool     `port:"s_tx_first,1"`
	TxLast      bool     `port:"s_tx_last,1"`
	PathValid   bool     `port:"s_path_valid,1"`
	PathPath    uint32   `port:"s_path_path,path"`
	PathEntropy uint32   `port:"s_path_entropy,entropy"`
	PktReady    bool     `port:"m_pkt_ready,1"`
	AckValid    bool     `port:"s_ack_valid,1"`
	AckConn     uint32   `port:"s_ack_conn,conn"`
	AckPSN      uint32   `port:"s_ack_psn,psn"`
	AckPath     uint32   `port:"s_ack_path,path"`
	AckPseq     uint32   `port:"s_ack_pseq,pseq"`
	AckSack     wide.Vec `port:"s_ack_sack,sack"`
	AckECN      bool     `port:"s_ack_ecn,1"`
	AckNak      bool     `port:"s_ack_nak,1"`
	CtlValid    bool     `port:"s_ctl_valid,1"`
	CtlOpen     bool     `port:"s_ctl_open,1"`
	CtlConn     uint32   `port:"s_ctl_conn,conn"`
	CtlPSN      uint32   `port:"s_ctl_psn,psn"`
	FbReady     bool     `port:"m_fb_ready,1"`
}

// Out holds every output port of retx, in the same form as In.
type Out struct {
	TxReady        bool   `port:"s_tx_ready,1"`
	PathReady      bool   `port:"s_path_ready,1"`
	PreqValid      bool   `port:"m_preq_valid,1"`
	PreqConn       uint32 `port:"m_preq_conn,conn"`
	PreqRetx       bool   `port:"m_preq_retx,1"`
	PreqAvoid      uint32 `port:"m_preq_avoid,path"`
	PktValid       bool   `port:"m_pkt_valid,1"`
	PktConn        uint32 `port:"m_pkt_conn,conn"`
	PktPSN         uint32 `port:"m_pkt_psn,psn"`
	PktPath        uint32 `port:"m_pkt_path,path"`
	PktPseq        uint32 `port:"m_pkt_pseq,pseq"`
	PktEntropy     uint32 `port:"m_pkt_entropy,entropy"`
	PktHandle      uint32 `port:"m_pkt_handle,handle"`
	PktFirst       bool   `port:"m_pkt_first,1"`
	PktLast        bool   `port:"m_pkt_last,1"`
	PktAckReq      bool   `port:"m_pkt_ack_req,1"`
	PktRetx        bool   `port:"m_pkt_retx,1"`
	PktRetries     uint32 `port:"m_pkt_retries,retries"`
	AckReady       bool   `port:"s_ack_ready,1"`
	CtlReady       bool   `port:"s_ctl_ready,1"`
	FbValid        bool   `port:"m_fb_valid,1"`
	FbConn         uint32 `port:"m_fb_conn,conn"`
	FbPath         uint32 `port:"m_fb_path,path"`
	FbKind         uint32 `port:"m_fb_kind,kind"`
	FbCount        uint32 `port:"m_fb_count,count"`
	ErrValid       bool   `port:"m_err_valid,1"`
	ErrConn        uint32 `port:"m_err_conn,conn"`
	UnaValid       bool   `port:"m_una_valid,1"`
	UnaConn        uint32 `port:"m_una_conn,conn"`
	UnaPSN         uint32 `port:"m_una_psn,psn"`
	CntSent        uint32 `port:"cnt_sent,cnt"`
	CntRetxLoss    uint32 `port:"cnt_retx_loss,cnt"`
	CntRetxTimeout uint32 `port:"cnt_retx_timeout,cnt"`
	CntRetxGBN     uint32 `port:"cnt_retx_gbn,cnt"`
	CntTimeouts    uint32 `port:"cnt_timeouts,cnt"`
	CntErrors      uint32 `port:"cnt_errors,cnt"`
	CntTxDropped   uint32 `port:"cnt_tx_dropped,cnt"`
	CntAckIgnored  uint32 `port:"cnt_ack_ignored,cnt"`
}

// Feedback kinds on m_fb_kind (the path_sel s_fb_kind encoding).
const (
	// FbDelivered reports packets delivered.
	FbDelivered = 0
	// FbECN reports an ACK that echoed a CE mark.
	FbECN = 1
	// FbLoss reports packets lost (SACK holes).
	FbLoss = 2
	// FbTimeout reports a packet that timed out.
	FbTimeout = 3
)

// Widths maps each width class used in the port tags to its width in bits under cfg.
func Widths(cfg config.Config) map[string]int {
	return map[string]int{
		"1":       1,
		"conn":    config.Log2(cfg.Conns),
		"path":    config.Log2(cfg.Paths),
		"psn":     cfg.PSNWidth,
		"pseq":    cfg.PseqWidth,
		"handle":  cfg.HandleWidth,
		"sack":    cfg.SackBits,
		"entropy": 16,
		"retries": 4,
		"kind":    2,
		"count":   8,
		"cnt":     32,
	}
}

// Valid reports, for an output port name, the valid signal that qualifies it ("" when compared every cycle).
func Valid(port string) string {
	for _, p := range []string{"m_preq_", "m_pkt_", "m_fb_", "m_err_", "m_una_"} {
		if strings.HasPrefix(port, p) && !strings.HasSuffix(port, "_valid") {
			return p + "valid"
		}
	}
	return ""
}
