package rxreorder

import (
	"github.com/spraynic/spraynic/config"
	"github.com/spraynic/spraynic/golden/wide"
)

// In holds every input port of rx_reorder except clk, one field per port. The `port` tag names the Verilog port
// and its width class (see Widths); the co-simulation checks these against the built model's ports at load time.
// 1-bit ports are bool, ports up to 32 bits uint32, wider ones wide.Vec.
type In struct {
	Rst       bool   `port:"rst,1"`
	PktValid  bool   `port:"s_pkt_valid,1"`
	PktConn   uint32 `port:"s_pkt_conn,conn"`
	PktPSN    uint32 `port:"s_pkt_psn,psn"`
	PktPath   uint32 `port:"s_pkt_path,path"`
	PktPseq   uint32 `port:"s_pkt_pseq,pseq"`
	PktFirst  bool   `port:"s_pkt_first,1"`
	PktLast   bool   `port:"s_pkt_last,1"`
	PktAckReq bool   `port:"s_pkt_ack_req,1"`
	PktECN    bool   `port:"s_pkt_ecn,1"`
	PktHandle uint32 `port:"s_pkt_handle,handle"`
	CtlValid  bool   `port:"s_ctl_valid,1"`
	CtlOpen   bool   `port:"s_ctl_open,1"`
	CtlConn   uint32 `port:"s_ctl_conn,conn"`
	CtlPSN    uint32 `port:"s_ctl_psn,psn"`
	CplReady  bool   `port:"m_cpl_ready,1"`
	AckReady  bool   `port:"m_ack_ready,1"`
}

// Out holds every output port of rx_reorder, in the same form as In.
type Out struct {
	PktReady     bool     `port:"s_pkt_ready,1"`
	CtlReady     bool     `port:"s_ctl_ready,1"`
	CplValid     bool     `port:"m_cpl_valid,1"`
	CplConn      uint32   `port:"m_cpl_conn,conn"`
	CplPSN       uint32   `port:"m_cpl_psn,psn"`
	CplFirst     bool     `port:"m_cpl_first,1"`
	CplLast      bool     `port:"m_cpl_last,1"`
	CplHandle    uint32   `port:"m_cpl_handle,handle"`
	AckValid     bool     `port:"m_ack_valid,1"`
	AckConn      uint32   `port:"m_ack_conn,conn"`
	AckPSN       uint32   `port:"m_ack_psn,psn"`
	AckPath      uint32   `port:"m_ack_path,path"`
	AckPseq      uint32   `port:"m_ack_pseq,pseq"`
	AckSack      wide.Vec `port:"m_ack_sack,sack"`
	AckECN       bool     `port:"m_ack_ecn,1"`
	RxvValid     bool     `port:"m_rxv_valid,1"`
	RxvConn      uint32   `port:"m_rxv_conn,conn"`
	RxvPSN       uint32   `port:"m_rxv_psn,psn"`
	RxvCode      uint32   `port:"m_rxv_code,vcode"`
	CntAccepted  uint32   `port:"cnt_accepted,cnt"`
	CntDuplicate uint32   `port:"cnt_duplicate,cnt"`
	CntOutOfWin  uint32   `port:"cnt_out_of_window,cnt"`
	CntClosed    uint32   `port:"cnt_closed,cnt"`
}

// Verdicts on m_rxv_code (docs/rx_reorder.md "Verdict output").
const (
	// VerdictAccepted is a packet accepted (counted in cnt_accepted).
	VerdictAccepted = 0
	// VerdictDuplicate is a duplicate dropped.
	VerdictDuplicate = 1
	// VerdictOutOfWindow is a packet beyond the window dropped.
	VerdictOutOfWindow = 2
	// VerdictClosed is a packet to a closed connection dropped.
	VerdictClosed = 3
)

// Widths maps each width class used in the port tags to its width in bits under cfg.
func Widths(cfg config.Config) map[string]int {
	return map[string]int{
		"1":      1,
		"conn":   config.Log2(cfg.Conns),
		"path":   config.Log2(cfg.Paths),
		"psn":    cfg.PSNWidth,
		"pseq":   cfg.PseqWidth,
		"handle": cfg.HandleWidth,
		"sack":   cfg.SackBits,
		"vcode":  2,
		"cnt":    32,
	}
}

// Valid reports, for an output port name, the valid signal that qualifies it ("" when compared every cycle).
func Valid(port string) string {
	switch {
	case len(port) > 6 && port[:6] == "m_cpl_" && port != "m_cpl_valid":
		return "m_cpl_valid"
	case len(port) > 6 && port[:6] == "m_ack_" && port != "m_ack_valid":
		return "m_ack_valid"
	case len(port) > 6 && port[:6] == "m_rxv_" && port != "m_rxv_valid":
		return "m_rxv_valid"
	}
	return ""
}
