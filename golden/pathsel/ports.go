package pathsel

import (
	"github.com/spraynic/spraynic/config"
	"github.com/spraynic/spraynic/golden/wide"
)

// In holds every input port of path_sel except clk, one field per port; the `port` tag names the Verilog port
// and its width class (see Widths). The co-simulation checks them against the built model at load time.
type In struct {
	Rst      bool   `port:"rst,1"`
	ReqValid bool   `port:"s_req_valid,1"`
	ReqConn  uint32 `port:"s_req_conn,conn"`
	ReqRetx  bool   `port:"s_req_retx,1"`
	ReqAvoid uint32 `port:"s_req_avoid,path"`
	SelReady bool   `port:"m_sel_ready,1"`
	FbValid  bool   `port:"s_fb_valid,1"`
	FbConn   uint32 `port:"s_fb_conn,conn"`
	FbPath   uint32 `port:"s_fb_path,path"`
	FbKind   uint32 `port:"s_fb_kind,kind"`
	FbCount  uint32 `port:"s_fb_count,count"`
	CtlValid bool   `port:"s_ctl_valid,1"`
	CtlConn  uint32 `port:"s_ctl_conn,conn"`
	RdConn   uint32 `port:"rd_conn,conn"`
	RdPath   uint32 `port:"rd_path,path"`
}

// Out holds every output port of path_sel, in the same form as In.
type Out struct {
	ReqReady      bool     `port:"s_req_ready,1"`
	SelValid      bool     `port:"m_sel_valid,1"`
	SelConn       uint32   `port:"m_sel_conn,conn"`
	SelPath       uint32   `port:"m_sel_path,path"`
	SelEntropy    uint32   `port:"m_sel_entropy,entropy"`
	SelProbe      bool     `port:"m_sel_probe,1"`
	FbReady       bool     `port:"s_fb_ready,1"`
	CtlReady      bool     `port:"s_ctl_ready,1"`
	RdState       uint32   `port:"rd_state,state"`
	RdCwnd        uint32   `port:"rd_cwnd,cwnd"`
	RdInflight    uint32   `port:"rd_inflight,inflight"`
	RdEntropy     uint32   `port:"rd_entropy,entropy"`
	RdAllFailed   bool     `port:"rd_all_failed,1"`
	RdDecisions   uint32   `port:"rd_decisions,cnt16"`
	RdLosses      uint32   `port:"rd_losses,cnt16"`
	StatusAllFail bool     `port:"m_status_all_failed,1"`
	StatusConn    uint32   `port:"m_status_conn,conn"`
	StatusAF      wide.Vec `port:"m_status_af,conns"`
	CntDecisions  uint32   `port:"cnt_decisions,cnt"`
	CntProbes     uint32   `port:"cnt_probes,cnt"`
	CntFailures   uint32   `port:"cnt_failures,cnt"`
	CntRecoveries uint32   `port:"cnt_recoveries,cnt"`
}

// Feedback kinds on s_fb_kind.
const (
	// FbDelivered reports packets delivered.
	FbDelivered = 0
	// FbECN reports delivered packets that carried CE.
	FbECN = 1
	// FbLoss reports packets lost (a SACK hole).
	FbLoss = 2
	// FbTimeout reports packets that timed out.
	FbTimeout = 3
)

// Path states on rd_state.
const (
	// StateActive is a healthy path.
	StateActive = 0
	// StateSuspect has seen a loss or timeout since its last delivery.
	StateSuspect = 1
	// StateFailed is excluded, waiting for its hold-off to end.
	StateFailed = 2
	// StateProbing has its probe in flight.
	StateProbing = 3
)

// Widths maps each width class used in the port tags to its width in bits under cfg.
func Widths(cfg config.Config) map[string]int {
	return map[string]int{
		"1":        1,
		"conn":     config.Log2(cfg.Conns),
		"conns":    cfg.Conns,
		"path":     config.Log2(cfg.Paths),
		"kind":     2,
		"count":    8,
		"entropy":  16,
		"state":    2,
		"cwnd":     12,
		"inflight": 8,
		"cnt":      32,
		"cnt16":    16,
	}
}

// Valid reports, for an output port, the valid signal that qualifies it ("" when compared every cycle).
func Valid(port string) string {
	switch port {
	case "m_sel_conn", "m_sel_path", "m_sel_entropy", "m_sel_probe":
		return "m_sel_valid"
	}
	return ""
}
