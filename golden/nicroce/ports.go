package nicroce

import "github.com/spraynic/spraynic/golden/wide"

// Lanes is the byte lanes of the widest data bus (DATA_WIDTH 512); byte i of a beat is lane i.
const Lanes = 64

// Beat is one beat of an AXI-Stream data bus: tdata as bytes, tkeep, tlast and tuser.
type Beat struct {
	// Data holds lane i in Data[i]; Keep bit i marks lane i valid.
	Data [Lanes]byte
	Keep uint64
	// Last and User are tlast and tuser.
	Last, User bool
}

// TopIn holds the input ports of rtl/nic_roce.v (tag: port name, width key), then the outputs of roce_rx (Rx,
// tag prefix rx_) and of roce_tx (Tx, tag prefix tx_) the twin takes as inputs.
type TopIn struct {
	Rst            bool   `port:"rst,1"`
	MacRxValid     bool   `port:"s_axis_rx_tvalid,1"`
	MacRx          Beat   `port:"s_axis_rx_,beat"`
	MacTxReady     bool   `port:"m_axis_tx_tready,1"`
	WrValid        bool   `port:"s_wr_valid,1"`
	WrConn         uint32 `port:"s_wr_conn,conn"`
	WrID           uint32 `port:"s_wr_id,32"`
	WrAddr         uint64 `port:"s_wr_addr,64"`
	WrLen          uint32 `port:"s_wr_len,32"`
	RqValid        bool   `port:"s_rq_valid,1"`
	RqConn         uint32 `port:"s_rq_conn,conn"`
	RqID           uint32 `port:"s_rq_id,32"`
	RqAddr         uint64 `port:"s_rq_addr,64"`
	RqLen          uint32 `port:"s_rq_len,32"`
	CplReady       bool   `port:"m_cpl_ready,1"`
	DmaRdDescReady bool   `port:"m_dma_rd_desc_ready,1"`
	DmaRdStsValid  bool   `port:"s_dma_rd_sts_valid,1"`
	DmaRdStsTag    uint32 `port:"s_dma_rd_sts_tag,8"`
	DmaRdStsError  uint32 `port:"s_dma_rd_sts_error,4"`
	DmaRdValid     bool   `port:"s_axis_dma_rd_tvalid,1"`
	DmaRd          Beat   `port:"s_axis_dma_rd_,beat"`
	DmaWrDescReady bool   `port:"m_dma_wr_desc_ready,1"`
	DmaWrStsValid  bool   `port:"s_dma_wr_sts_valid,1"`
	DmaWrStsTag    uint32 `port:"s_dma_wr_sts_tag,8"`
	DmaWrStsError  uint32 `port:"s_dma_wr_sts_error,4"`
	DmaWrReady     bool   `port:"m_axis_dma_wr_tready,1"`
	AxilAWValid    bool   `port:"s_axil_awvalid,1"`
	AxilAWAddr     uint32 `port:"s_axil_awaddr,16"`
	AxilAWProt     uint32 `port:"s_axil_awprot,3"`
	AxilWValid     bool   `port:"s_axil_wvalid,1"`
	AxilWData      uint32 `port:"s_axil_wdata,32"`
	AxilWStrb      uint8  `port:"s_axil_wstrb,4"`
	AxilBReady     bool   `port:"s_axil_bready,1"`
	AxilARValid    bool   `port:"s_axil_arvalid,1"`
	AxilARAddr     uint32 `port:"s_axil_araddr,16"`
	AxilARProt     uint32 `port:"s_axil_arprot,3"`
	AxilRReady     bool   `port:"s_axil_rready,1"`

	Rx RxOut
	Tx TxOut
}

// RxOut holds the outputs of roce_rx (docs/roce_rx.md), inputs of the twin.
type RxOut struct {
	SAxisTReady bool     `port:"rx_s_axis_tready,1"`
	MAxisTValid bool     `port:"rx_m_axis_tvalid,1"`
	MAxis       Beat     `port:"rx_m_axis_,beat"`
	MRxValid    bool     `port:"rx_m_rx_valid,1"`
	MRxConn     uint32   `port:"rx_m_rx_conn,conn"`
	MRxPSN      uint32   `port:"rx_m_rx_psn,psn"`
	MRxPath     uint32   `port:"rx_m_rx_path,path"`
	MRxPseq     uint32   `port:"rx_m_rx_pseq,pseq"`
	MRxFirst    bool     `port:"rx_m_rx_first,1"`
	MRxLast     bool     `port:"rx_m_rx_last,1"`
	MRxAckReq   bool     `port:"rx_m_rx_ack_req,1"`
	MRxECN      bool     `port:"rx_m_rx_ecn,1"`
	MRxHandle   uint32   `port:"rx_m_rx_handle,handle"`
	MRxOffset   uint32   `port:"rx_m_rx_offset,32"`
	MRxLen      uint32   `port:"rx_m_rx_len,len"`
	MRxSrcMAC   uint64   `port:"rx_m_rx_src_mac,48"`
	MRxSrcIP    uint32   `port:"rx_m_rx_src_ip,32"`
	MAckValid   bool     `port:"rx_m_ack_valid,1"`
	MAckConn    uint32   `port:"rx_m_ack_conn,conn"`
	MAckPSN     uint32   `port:"rx_m_ack_psn,psn"`
	MAckPath    uint32   `port:"rx_m_ack_path,path"`
	MAckPseq    uint32   `port:"rx_m_ack_pseq,pseq"`
	MAckSack    wide.Vec `port:"rx_m_ack_sack,sack"`
	MAckECN     bool     `port:"rx_m_ack_ecn,1"`
	MAckNak     bool     `port:"rx_m_ack_nak,1"`
	MAckHasSack bool     `port:"rx_m_ack_has_sack,1"`
	MAckSrcMAC  uint64   `port:"rx_m_ack_src_mac,48"`
	MAckSrcIP   uint32   `port:"rx_m_ack_src_ip,32"`
	// Cnt holds cnt_data, cnt_ack, cnt_not_roce, cnt_truncated, cnt_invalid, cnt_unknown_opcode, cnt_bad_icrc,
	// cnt_limit, cnt_mac_error in that order.
	Cnt [9]uint32 `port:"rx_cnt_,cnt"`
}

// TxOut holds the outputs of roce_tx (docs/roce_tx.md), inputs of the twin.
type TxOut struct {
	SPktReady   bool `port:"tx_s_pkt_ready,1"`
	SAckReady   bool `port:"tx_s_ack_ready,1"`
	SPayTReady  bool `port:"tx_s_pay_tready,1"`
	MAxisTValid bool `port:"tx_m_axis_tvalid,1"`
	MAxis       Beat `port:"tx_m_axis_,beat"`
}

// TopOut holds the output ports of rtl/nic_roce.v, then what the top drives into roce_rx (Rx) and roce_tx (Tx).
type TopOut struct {
	MacRxReady     bool   `port:"s_axis_rx_tready,1"`
	MacTxValid     bool   `port:"m_axis_tx_tvalid,1"`
	MacTx          Beat   `port:"m_axis_tx_,beat"`
	WrReady        bool   `port:"s_wr_ready,1"`
	RqReady        bool   `port:"s_rq_ready,1"`
	CplValid       bool   `port:"m_cpl_valid,1"`
	Cpl            Cpl    `port:"m_cpl_,cpl"`
	DmaRdDescValid bool   `port:"m_dma_rd_desc_valid,1"`
	DmaRdDescAddr  uint64 `port:"m_dma_rd_desc_addr,64"`
	DmaRdDescLen   uint32 `port:"m_dma_rd_desc_len,16"`
	DmaRdDescTag   uint32 `port:"m_dma_rd_desc_tag,8"`
	DmaRdReady     bool   `port:"s_axis_dma_rd_tready,1"`
	DmaWrDescValid bool   `port:"m_dma_wr_desc_valid,1"`
	DmaWrDescAddr  uint64 `port:"m_dma_wr_desc_addr,64"`
	DmaWrDescLen   uint32 `port:"m_dma_wr_desc_len,16"`
	DmaWrDescTag   uint32 `port:"m_dma_wr_desc_tag,8"`
	DmaWrValid     bool   `port:"m_axis_dma_wr_tvalid,1"`
	DmaWr          Beat   `port:"m_axis_dma_wr_,beat"`
	AxilAWReady    bool   `port:"s_axil_awready,1"`
	AxilWReady     bool   `port:"s_axil_wready,1"`
	AxilBValid     bool   `port:"s_axil_bvalid,1"`
	AxilBResp      uint8  `port:"s_axil_bresp,2"`
	AxilARReady    bool   `port:"s_axil_arready,1"`
	AxilRValid     bool   `port:"s_axil_rvalid,1"`
	AxilRData      uint32 `port:"s_axil_rdata,32"`
	AxilRResp      uint8  `port:"s_axil_rresp,2"`
	IRQ            bool   `port:"irq,1"`

	Rx RxIn
	Tx TxIn
}

// Cpl is a completion: m_cpl_recv, _conn, _id, _len, _status.
type Cpl struct {
	Recv          bool
	Conn, ID, Len uint32
	Status        uint32
}

// Completion status codes (docs/nic_roce.md "Completions").
const (
	StatusOK        = 0
	StatusConnError = 1
	StatusClosed    = 2
	StatusDMAError  = 3
	StatusTooLong   = 4
)

// RxIn holds what the top drives into roce_rx: the MAC RX stream after the enable gate and the readies.
type RxIn struct {
	SAxisTValid bool `port:"rx_s_axis_tvalid,1"`
	SAxis       Beat `port:"rx_s_axis_,beat"`
	MRxReady    bool `port:"rx_m_rx_ready,1"`
	MAckReady   bool `port:"rx_m_ack_ready,1"`
	MAxisTReady bool `port:"rx_m_axis_tready,1"`
}

// TxIn holds what the top drives into roce_tx: s_pkt, s_pay, s_ack, the table write, cfg_* and m_axis_tready.
type TxIn struct {
	SPktValid   bool     `port:"tx_s_pkt_valid,1"`
	SPktConn    uint32   `port:"tx_s_pkt_conn,conn"`
	SPktPSN     uint32   `port:"tx_s_pkt_psn,psn"`
	SPktPath    uint32   `port:"tx_s_pkt_path,path"`
	SPktPseq    uint32   `port:"tx_s_pkt_pseq,pseq"`
	SPktEntropy uint32   `port:"tx_s_pkt_entropy,16"`
	SPktHandle  uint32   `port:"tx_s_pkt_handle,handle"`
	SPktFirst   bool     `port:"tx_s_pkt_first,1"`
	SPktLast    bool     `port:"tx_s_pkt_last,1"`
	SPktAckReq  bool     `port:"tx_s_pkt_ack_req,1"`
	SPktOffset  uint32   `port:"tx_s_pkt_offset,32"`
	SPktLen     uint32   `port:"tx_s_pkt_len,len"`
	SPayTValid  bool     `port:"tx_s_pay_tvalid,1"`
	SPay        Beat     `port:"tx_s_pay_,beat"`
	SAckValid   bool     `port:"tx_s_ack_valid,1"`
	SAckConn    uint32   `port:"tx_s_ack_conn,conn"`
	SAckPSN     uint32   `port:"tx_s_ack_psn,psn"`
	SAckPath    uint32   `port:"tx_s_ack_path,path"`
	SAckPseq    uint32   `port:"tx_s_ack_pseq,pseq"`
	SAckSack    wide.Vec `port:"tx_s_ack_sack,sack"`
	SAckECN     bool     `port:"tx_s_ack_ecn,1"`
	SAckNak     bool     `port:"tx_s_ack_nak,1"`
	SAckEntropy uint32   `port:"tx_s_ack_entropy,16"`
	TblWrEn     bool     `port:"tx_tbl_wr_en,1"`
	TblWrConn   uint32   `port:"tx_tbl_wr_conn,conn"`
	TblWrMAC    uint64   `port:"tx_tbl_wr_mac,48"`
	TblWrIP     uint32   `port:"tx_tbl_wr_ip,32"`
	TblWrQPN    uint32   `port:"tx_tbl_wr_qpn,24"`
	TblWrDSCP   uint32   `port:"tx_tbl_wr_dscp,6"`
	TblWrTTL    uint32   `port:"tx_tbl_wr_ttl,8"`
	CfgMAC      uint64   `port:"tx_cfg_mac,48"`
	CfgIP       uint32   `port:"tx_cfg_ip,32"`
	MAxisTReady bool     `port:"tx_m_axis_tready,1"`
}
