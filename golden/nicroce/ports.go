package nicroce

import "github.com/spraynic/spraynic/golden/wide"

// Lanes is the byte lanes of the widest data bus (DATA_WIDTH 512); byte i of tdata is lane i.
const Lanes = 64

// Data is a tdata bus as bytes by lane.
type Data = [Lanes]byte

// TopIn holds the input ports of rtl/nic_roce.v, one field per port (tag: port name, width key), then the outputs
// of roce_rx (prefix Rx, tag rx_<port>) and of roce_tx (prefix Tx, tag tx_<port>) the twin takes as inputs.
type TopIn struct {
	Rst                bool     `port:"rst,1"`
	MacRxTValid        bool     `port:"s_axis_rx_tvalid,1"`
	MacRxTData         Data     `port:"s_axis_rx_tdata,data"`
	MacRxTKeep         uint64   `port:"s_axis_rx_tkeep,keep"`
	MacRxTLast         bool     `port:"s_axis_rx_tlast,1"`
	MacRxTUser         bool     `port:"s_axis_rx_tuser,1"`
	MacTxTReady        bool     `port:"m_axis_tx_tready,1"`
	WrValid            bool     `port:"s_wr_valid,1"`
	WrConn             uint32   `port:"s_wr_conn,conn"`
	WrID               uint32   `port:"s_wr_id,32"`
	WrAddr             uint64   `port:"s_wr_addr,64"`
	WrLen              uint32   `port:"s_wr_len,32"`
	RqValid            bool     `port:"s_rq_valid,1"`
	RqConn             uint32   `port:"s_rq_conn,conn"`
	RqID               uint32   `port:"s_rq_id,32"`
	RqAddr             uint64   `port:"s_rq_addr,64"`
	RqLen              uint32   `port:"s_rq_len,32"`
	CplReady           bool     `port:"m_cpl_ready,1"`
	DmaRdDescReady     bool     `port:"m_dma_rd_desc_ready,1"`
	DmaRdStsValid      bool     `port:"s_dma_rd_sts_valid,1"`
	DmaRdStsTag        uint32   `port:"s_dma_rd_sts_tag,8"`
	DmaRdStsError      uint32   `port:"s_dma_rd_sts_error,4"`
	DmaRdTValid        bool     `port:"s_axis_dma_rd_tvalid,1"`
	DmaRdTData         Data     `port:"s_axis_dma_rd_tdata,data"`
	DmaRdTKeep         uint64   `port:"s_axis_dma_rd_tkeep,keep"`
	DmaRdTLast         bool     `port:"s_axis_dma_rd_tlast,1"`
	DmaRdTUser         bool     `port:"s_axis_dma_rd_tuser,1"`
	DmaWrDescReady     bool     `port:"m_dma_wr_desc_ready,1"`
	DmaWrStsValid      bool     `port:"s_dma_wr_sts_valid,1"`
	DmaWrStsTag        uint32   `port:"s_dma_wr_sts_tag,8"`
	DmaWrStsError      uint32   `port:"s_dma_wr_sts_error,4"`
	DmaWrTReady        bool     `port:"m_axis_dma_wr_tready,1"`
	AxilAWValid        bool     `port:"s_axil_awvalid,1"`
	AxilAWAddr         uint32   `port:"s_axil_awaddr,16"`
	AxilAWProt         uint32   `port:"s_axil_awprot,3"`
	AxilWValid         bool     `port:"s_axil_wvalid,1"`
	AxilWData          uint32   `port:"s_axil_wdata,32"`
	AxilWStrb          uint8    `port:"s_axil_wstrb,4"`
	AxilBReady         bool     `port:"s_axil_bready,1"`
	AxilARValid        bool     `port:"s_axil_arvalid,1"`
	AxilARAddr         uint32   `port:"s_axil_araddr,16"`
	AxilARProt         uint32   `port:"s_axil_arprot,3"`
	AxilRReady         bool     `port:"s_axil_rready,1"`
	RxSAxisTReady      bool     `port:"rx_s_axis_tready,1"`
	RxMAxisTValid      bool     `port:"rx_m_axis_tvalid,1"`
	RxMAxisTData       Data     `port:"rx_m_axis_tdata,data"`
	RxMAxisTKeep       uint64   `port:"rx_m_axis_tkeep,keep"`
	RxMAxisTLast       bool     `port:"rx_m_axis_tlast,1"`
	RxMRxValid         bool     `port:"rx_m_rx_valid,1"`
	RxMRxConn          uint32   `port:"rx_m_rx_conn,conn"`
	RxMRxPSN           uint32   `port:"rx_m_rx_psn,psn"`
	RxMRxPath          uint32   `port:"rx_m_rx_path,path"`
	RxMRxPseq          uint32   `port:"rx_m_rx_pseq,pseq"`
	RxMRxFirst         bool     `port:"rx_m_rx_first,1"`
	RxMRxLast          bool     `port:"rx_m_rx_last,1"`
	RxMRxAckReq        bool     `port:"rx_m_rx_ack_req,1"`
	RxMRxECN           bool     `port:"rx_m_rx_ecn,1"`
	RxMRxHandle        uint32   `port:"rx_m_rx_handle,handle"`
	RxMRxOffset        uint32   `port:"rx_m_rx_offset,32"`
	RxMRxLen           uint32   `port:"rx_m_rx_len,len"`
	RxMRxSrcMAC        uint64   `port:"rx_m_rx_src_mac,48"`
	RxMRxSrcIP         uint32   `port:"rx_m_rx_src_ip,32"`
	RxMAckValid        bool     `port:"rx_m_ack_valid,1"`
	RxMAckConn         uint32   `port:"rx_m_ack_conn,conn"`
	RxMAckPSN          uint32   `port:"rx_m_ack_psn,psn"`
	RxMAckPath         uint32   `port:"rx_m_ack_path,path"`
	RxMAckPseq         uint32   `port:"rx_m_ack_pseq,pseq"`
	RxMAckSack         wide.Vec `port:"rx_m_ack_sack,sack"`
	RxMAckECN          bool     `port:"rx_m_ack_ecn,1"`
	RxMAckNak          bool     `port:"rx_m_ack_nak,1"`
	RxMAckHasSack      bool     `port:"rx_m_ack_has_sack,1"`
	RxMAckSrcMAC       uint64   `port:"rx_m_ack_src_mac,48"`
	RxMAckSrcIP        uint32   `port:"rx_m_ack_src_ip,32"`
	RxCntData          uint32   `port:"rx_cnt_data,cnt"`
	RxCntAck           uint32   `port:"rx_cnt_ack,cnt"`
	RxCntNotRoCE       uint32   `port:"rx_cnt_not_roce,cnt"`
	RxCntTruncated     uint32   `port:"rx_cnt_truncated,cnt"`
	RxCntInvalid       uint32   `port:"rx_cnt_invalid,cnt"`
	RxCntUnknownOpcode uint32   `port:"rx_cnt_unknown_opcode,cnt"`
	RxCntBadICRC       uint32   `port:"rx_cnt_bad_icrc,cnt"`
	RxCntLimit         uint32   `port:"rx_cnt_limit,cnt"`
	RxCntMacError      uint32   `port:"rx_cnt_mac_error,cnt"`
	TxSPktReady        bool     `port:"tx_s_pkt_ready,1"`
	TxSAckReady        bool     `port:"tx_s_ack_ready,1"`
	TxSPayTReady       bool     `port:"tx_s_pay_tready,1"`
	TxMAxisTValid      bool     `port:"tx_m_axis_tvalid,1"`
	TxMAxisTData       Data     `port:"tx_m_axis_tdata,data"`
	TxMAxisTKeep       uint64   `port:"tx_m_axis_tkeep,keep"`
	TxMAxisTLast       bool     `port:"tx_m_axis_tlast,1"`
}

// TopOut holds the output ports of rtl/nic_roce.v, then what the top drives into roce_rx (prefix Rx) and
// roce_tx (prefix Tx).
type TopOut struct {
	MacRxTReady    bool     `port:"s_axis_rx_tready,1"`
	MacTxTValid    bool     `port:"m_axis_tx_tvalid,1"`
	MacTxTData     Data     `port:"m_axis_tx_tdata,data"`
	MacTxTKeep     uint64   `port:"m_axis_tx_tkeep,keep"`
	MacTxTLast     bool     `port:"m_axis_tx_tlast,1"`
	MacTxTUser     bool     `port:"m_axis_tx_tuser,1"`
	WrReady        bool     `port:"s_wr_ready,1"`
	RqReady        bool     `port:"s_rq_ready,1"`
	CplValid       bool     `port:"m_cpl_valid,1"`
	CplRecv        bool     `port:"m_cpl_recv,1"`
	CplConn        uint32   `port:"m_cpl_conn,conn"`
	CplID          uint32   `port:"m_cpl_id,32"`
	CplLen         uint32   `port:"m_cpl_len,32"`
	CplStatus      uint32   `port:"m_cpl_status,4"`
	DmaRdDescValid bool     `port:"m_dma_rd_desc_valid,1"`
	DmaRdDescAddr  uint64   `port:"m_dma_rd_desc_addr,64"`
	DmaRdDescLen   uint32   `port:"m_dma_rd_desc_len,16"`
	DmaRdDescTag   uint32   `port:"m_dma_rd_desc_tag,8"`
	DmaRdTReady    bool     `port:"s_axis_dma_rd_tready,1"`
	DmaWrDescValid bool     `port:"m_dma_wr_desc_valid,1"`
	DmaWrDescAddr  uint64   `port:"m_dma_wr_desc_addr,64"`
	DmaWrDescLen   uint32   `port:"m_dma_wr_desc_len,16"`
	DmaWrDescTag   uint32   `port:"m_dma_wr_desc_tag,8"`
	DmaWrTValid    bool     `port:"m_axis_dma_wr_tvalid,1"`
	DmaWrTData     Data     `port:"m_axis_dma_wr_tdata,data"`
	DmaWrTKeep     uint64   `port:"m_axis_dma_wr_tkeep,keep"`
	DmaWrTLast     bool     `port:"m_axis_dma_wr_tlast,1"`
	AxilAWReady    bool     `port:"s_axil_awready,1"`
	AxilWReady     bool     `port:"s_axil_wready,1"`
	AxilBValid     bool     `port:"s_axil_bvalid,1"`
	AxilBResp      uint8    `port:"s_axil_bresp,2"`
	AxilARReady    bool     `port:"s_axil_arready,1"`
	AxilRValid     bool     `port:"s_axil_rvalid,1"`
	AxilRData      uint32   `port:"s_axil_rdata,32"`
	AxilRResp      uint8    `port:"s_axil_rresp,2"`
	IRQ            bool     `port:"irq,1"`
	RxSAxisTValid  bool     `port:"rx_s_axis_tvalid,1"`
	RxSAxisTData   Data     `port:"rx_s_axis_tdata,data"`
	RxSAxisTKeep   uint64   `port:"rx_s_axis_tkeep,keep"`
	RxSAxisTLast   bool     `port:"rx_s_axis_tlast,1"`
	RxSAxisTUser   bool     `port:"rx_s_axis_tuser,1"`
	RxMRxReady     bool     `port:"rx_m_rx_ready,1"`
	RxMAckReady    bool     `port:"rx_m_ack_ready,1"`
	RxMAxisTReady  bool     `port:"rx_m_axis_tready,1"`
	TxSPktValid    bool     `port:"tx_s_pkt_valid,1"`
	TxSPktConn     uint32   `port:"tx_s_pkt_conn,conn"`
	TxSPktPSN      uint32   `port:"tx_s_pkt_psn,psn"`
	TxSPktPath     uint32   `port:"tx_s_pkt_path,path"`
	TxSPktPseq     uint32   `port:"tx_s_pkt_pseq,pseq"`
	TxSPktEntropy  uint32   `port:"tx_s_pkt_entropy,16"`
	TxSPktHandle   uint32   `port:"tx_s_pkt_handle,handle"`
	TxSPktFirst    bool     `port:"tx_s_pkt_first,1"`
	TxSPktLast     bool     `port:"tx_s_pkt_last,1"`
	TxSPktAckReq   bool     `port:"tx_s_pkt_ack_req,1"`
	TxSPktOffset   uint32   `port:"tx_s_pkt_offset,32"`
	TxSPktLen      uint32   `port:"tx_s_pkt_len,len"`
	TxSPayTValid   bool     `port:"tx_s_pay_tvalid,1"`
	TxSPayTData    Data     `port:"tx_s_pay_tdata,data"`
	TxSPayTKeep    uint64   `port:"tx_s_pay_tkeep,keep"`
	TxSPayTLast    bool     `port:"tx_s_pay_tlast,1"`
	TxSPayTUser    bool     `port:"tx_s_pay_tuser,1"`
	TxSAckValid    bool     `port:"tx_s_ack_valid,1"`
	TxSAckConn     uint32   `port:"tx_s_ack_conn,conn"`
	TxSAckPSN      uint32   `port:"tx_s_ack_psn,psn"`
	TxSAckPath     uint32   `port:"tx_s_ack_path,path"`
	TxSAckPseq     uint32   `port:"tx_s_ack_pseq,pseq"`
	TxSAckSack     wide.Vec `port:"tx_s_ack_sack,sack"`
	TxSAckECN      bool     `port:"tx_s_ack_ecn,1"`
	TxSAckNak      bool     `port:"tx_s_ack_nak,1"`
	TxSAckEntropy  uint32   `port:"tx_s_ack_entropy,16"`
	TxTblWrEn      bool     `port:"tx_tbl_wr_en,1"`
	TxTblWrConn    uint32   `port:"tx_tbl_wr_conn,conn"`
	TxTblWrMAC     uint64   `port:"tx_tbl_wr_mac,48"`
	TxTblWrIP      uint32   `port:"tx_tbl_wr_ip,32"`
	TxTblWrQPN     uint32   `port:"tx_tbl_wr_qpn,24"`
	TxTblWrDSCP    uint32   `port:"tx_tbl_wr_dscp,6"`
	TxTblWrTTL     uint32   `port:"tx_tbl_wr_ttl,8"`
	TxCfgMAC       uint64   `port:"tx_cfg_mac,48"`
	TxCfgIP        uint32   `port:"tx_cfg_ip,32"`
	TxMAxisTReady  bool     `port:"tx_m_axis_tready,1"`
}

// Cpl is a completion: m_cpl_recv, _conn, _id, _len, _status.
type Cpl struct {
	Recv          bool
	Conn, ID, Len uint32
	Status        uint32
}

// Cpl returns the completion on the m_cpl ports.
func (o *TopOut) Cpl() Cpl {
	return Cpl{Recv: o.CplRecv, Conn: o.CplConn, ID: o.CplID, Len: o.CplLen, Status: o.CplStatus}
}

// Completion status codes (docs/nic_roce.md "Completions").
const (
	StatusOK        = 0
	StatusConnError = 1
	StatusClosed    = 2
	StatusDMAError  = 3
	StatusTooLong   = 4
)
