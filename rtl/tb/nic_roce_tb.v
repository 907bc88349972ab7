// SPDX-License-Identifier: Apache-2.0
/*
 * nic_roce_tb: nic_roce for the lockstep with its Go twin golden/nicroce (simulation only, not a
 * synthesizable top). The top's ports pass through; the outputs of the roce_rx and roce_tx
 * instances and what the top drives into them come out by hierarchical reference as extra
 * outputs named rx_<port> and tx_<port> (docs/nic_roce_rtl.md, "Twin and lockstep").
 */

`resetall
`timescale 1ns / 1ps
`default_nettype none

module nic_roce_tb #(
    parameter CONNS = 16,
    parameter WINDOW = 64,
    parameter PATHS = 8,
    parameter SACK_BITS = 64,
    parameter PSN_WIDTH = 24,
    parameter PSEQ_WIDTH = 16,
    parameter HANDLE_WIDTH = 16,
    parameter ACK_EVERY = 4,
    parameter ACK_FIFO_DEPTH = 16,
    parameter TICK_CYCLES = 256,
    parameter CWND_INIT = 16,
    parameter CWND_MAX = 64,
    parameter AI_16THS = 2,
    parameter FAIL_K = 3,
    parameter HOLDOFF_TICKS = 40,
    parameter RTO_TICKS = 8,
    parameter RTO_MAX_TICKS = 64,
    parameter MAX_RETRIES = 7,
    parameter GBN = 0,
    parameter QPN_BASE = 256,
    parameter ACK_REQ_TICKS = 1,
    parameter EARLY_CYCLES = 950,
    parameter DATA_WIDTH = 256,
    parameter MTU = 4096
) (
    input  wire                              clk,
    input  wire                              rst,
    input  wire [DATA_WIDTH-1:0]             s_axis_rx_tdata,
    input  wire [DATA_WIDTH/8-1:0]           s_axis_rx_tkeep,
    input  wire                              s_axis_rx_tvalid,
    output wire                              s_axis_rx_tready,
    input  wire                              s_axis_rx_tlast,
    input  wire                              s_axis_rx_tuser,
    output wire [DATA_WIDTH-1:0]             m_axis_tx_tdata,
    output wire [DATA_WIDTH/8-1:0]           m_axis_tx_tkeep,
    output wire                              m_axis_tx_tvalid,
    input  wire                              m_axis_tx_tready,
    output wire                              m_axis_tx_tlast,
    output wire                              m_axis_tx_tuser,
    input  wire                              s_wr_valid,
    output wire                              s_wr_ready,
    input  wire [$clog2(CONNS)-1:0]          s_wr_conn,
    input  wire [31:0]                       s_wr_id,
    input  wire [63:0]                       s_wr_addr,
    input  wire [31:0]                       s_wr_len,
    input  wire                              s_rq_valid,
    output wire                              s_rq_ready,
    input  wire [$clog2(CONNS)-1:0]          s_rq_conn,
    input  wire [31:0]                       s_rq_id,
    input  wire [63:0]                       s_rq_addr,
    input  wire [31:0]                       s_rq_len,
    output wire                              m_cpl_valid,
    input  wire                              m_cpl_ready,
    output wire                              m_cpl_recv,
    output wire [$clog2(CONNS)-1:0]          m_cpl_conn,
    output wire [31:0]                       m_cpl_id,
    output wire [31:0]                       m_cpl_len,
    output wire [3:0]                        m_cpl_status,
    output wire [63:0]                       m_dma_rd_desc_addr,
    output wire [15:0]                       m_dma_rd_desc_len,
    output wire [7:0]                        m_dma_rd_desc_tag,
    output wire                              m_dma_rd_desc_valid,
    input  wire                              m_dma_rd_desc_ready,
    input  wire [7:0]                        s_dma_rd_sts_tag,
    input  wire [3:0]                        s_dma_rd_sts_error,
    input  wire                              s_dma_rd_sts_valid,
    input  wire [DATA_WIDTH-1:0]             s_axis_dma_rd_tdata,
    input  wire [DATA_WIDTH/8-1:0]           s_axis_dma_rd_tkeep,
    input  wire                              s_axis_dma_rd_tvalid,
    output wire                              s_axis_dma_rd_tready,
    input  wire                              s_axis_dma_rd_tlast,
    input  wire                              s_axis_dma_rd_tuser,
    output wire [63:0]                       m_dma_wr_desc_addr,
    output wire [15:0]                       m_dma_wr_desc_len,
    output wire [7:0]                        m_dma_wr_desc_tag,
    output wire                              m_dma_wr_desc_valid,
    input  wire                              m_dma_wr_desc_ready,
    input  wire [7:0]                        s_dma_wr_sts_tag,
    input  wire [3:0]                        s_dma_wr_sts_error,
    input  wire                              s_dma_wr_sts_valid,
    output wire [DATA_WIDTH-1:0]             m_axis_dma_wr_tdata,
    output wire [DATA_WIDTH/8-1:0]           m_axis_dma_wr_tkeep,
    output wire                              m_axis_dma_wr_tvalid,
    input  wire                              m_axis_dma_wr_tready,
    output wire                              m_axis_dma_wr_tlast,
    input  wire [15:0]                       s_axil_awaddr,
    input  wire [2:0]                        s_axil_awprot,
    input  wire                              s_axil_awvalid,
    output wire                              s_axil_awready,
    input  wire [31:0]                       s_axil_wdata,
    input  wire [3:0]                        s_axil_wstrb,
    input  wire                              s_axil_wvalid,
    output wire                              s_axil_wready,
    output wire [1:0]                        s_axil_bresp,
    output wire                              s_axil_bvalid,
    input  wire                              s_axil_bready,
    input  wire [15:0]                       s_axil_araddr,
    input  wire [2:0]                        s_axil_arprot,
    input  wire                              s_axil_arvalid,
    output wire                              s_axil_arready,
    output wire [31:0]                       s_axil_rdata,
    output wire [1:0]                        s_axil_rresp,
    output wire                              s_axil_rvalid,
    input  wire                              s_axil_rready,
    output wire                              irq,
    output wire                              rx_s_axis_tready,
    output wire [DATA_WIDTH-1:0]             rx_m_axis_tdata,
    output wire [DATA_WIDTH/8-1:0]           rx_m_axis_tkeep,
    output wire                              rx_m_axis_tvalid,
    output wire                              rx_m_axis_tlast,
    output wire                              rx_m_rx_valid,
    output wire [CONN_W-1:0]                 rx_m_rx_conn,
    output wire [PSN_WIDTH-1:0]              rx_m_rx_psn,
    output wire [PATH_W-1:0]                 rx_m_rx_path,
    output wire [PSEQ_WIDTH-1:0]             rx_m_rx_pseq,
    output wire                              rx_m_rx_first,
    output wire                              rx_m_rx_last,
    output wire                              rx_m_rx_ack_req,
    output wire                              rx_m_rx_ecn,
    output wire [HANDLE_WIDTH-1:0]           rx_m_rx_handle,
    output wire [31:0]                       rx_m_rx_offset,
    output wire [LEN_W-1:0]                  rx_m_rx_len,
    output wire [47:0]                       rx_m_rx_src_mac,
    output wire [31:0]                       rx_m_rx_src_ip,
    output wire                              rx_m_ack_valid,
    output wire [CONN_W-1:0]                 rx_m_ack_conn,
    output wire [PSN_WIDTH-1:0]              rx_m_ack_psn,
    output wire [PATH_W-1:0]                 rx_m_ack_path,
    output wire [PSEQ_WIDTH-1:0]             rx_m_ack_pseq,
    output wire [SACK_BITS-1:0]              rx_m_ack_sack,
    output wire                              rx_m_ack_ecn,
    output wire                              rx_m_ack_nak,
    output wire                              rx_m_ack_has_sack,
    output wire [47:0]                       rx_m_ack_src_mac,
    output wire [31:0]                       rx_m_ack_src_ip,
    output wire [31:0]                       rx_cnt_data,
    output wire [31:0]                       rx_cnt_ack,
    output wire [31:0]                       rx_cnt_not_roce,
    output wire [31:0]                       rx_cnt_truncated,
    output wire [31:0]                       rx_cnt_invalid,
    output wire [31:0]                       rx_cnt_unknown_opcode,
    output wire [31:0]                       rx_cnt_bad_icrc,
    output wire [31:0]                       rx_cnt_limit,
    output wire [31:0]                       rx_cnt_mac_error,
    output wire                              tx_s_pkt_ready,
    output wire                              tx_s_ack_ready,
    output wire                              tx_s_pay_tready,
    output wire [DATA_WIDTH-1:0]             tx_m_axis_tdata,
    output wire [DATA_WIDTH/8-1:0]           tx_m_axis_tkeep,
    output wire                              tx_m_axis_tvalid,
    output wire                              tx_m_axis_tlast,
    output wire                              rx_s_axis_tvalid,
    output wire [DATA_WIDTH-1:0]             rx_s_axis_tdata,
    output wire [DATA_WIDTH/8-1:0]           rx_s_axis_tkeep,
    output wire                              rx_s_axis_tlast,
    output wire                              rx_s_axis_tuser,
    output wire                              rx_m_rx_ready,
    output wire                              rx_m_ack_ready,
    output wire                              rx_m_axis_tready,
    output wire                              tx_s_pkt_valid,
    output wire [CONN_W-1:0]                 tx_s_pkt_conn,
    output wire [PSN_WIDTH-1:0]              tx_s_pkt_psn,
    output wire [PATH_W-1:0]                 tx_s_pkt_path,
    output wire [PSEQ_WIDTH-1:0]             tx_s_pkt_pseq,
    output wire [15:0]                       tx_s_pkt_entropy,
    output wire [HANDLE_WIDTH-1:0]           tx_s_pkt_handle,
    output wire                              tx_s_pkt_first,
    output wire                              tx_s_pkt_last,
    output wire                              tx_s_pkt_ack_req,
    output wire [31:0]                       tx_s_pkt_offset,
    output wire [LEN_W-1:0]                  tx_s_pkt_len,
    output wire                              tx_s_pay_tvalid,
    output wire [DATA_WIDTH-1:0]             tx_s_pay_tdata,
    output wire [DATA_WIDTH/8-1:0]           tx_s_pay_tkeep,
    output wire                              tx_s_pay_tlast,
    output wire                              tx_s_pay_tuser,
    output wire                              tx_s_ack_valid,
    output wire [CONN_W-1:0]                 tx_s_ack_conn,
    output wire [PSN_WIDTH-1:0]              tx_s_ack_psn,
    output wire [PATH_W-1:0]                 tx_s_ack_path,
    output wire [PSEQ_WIDTH-1:0]             tx_s_ack_pseq,
    output wire [SACK_BITS-1:0]              tx_s_ack_sack,
    output wire                              tx_s_ack_ecn,
    output wire                              tx_s_ack_nak,
    output wire [15:0]                       tx_s_ack_entropy,
    output wire                              tx_tbl_wr_en,
    output wire [CONN_W-1:0]                 tx_tbl_wr_conn,
    output wire [47:0]                       tx_tbl_wr_mac,
    output wire [31:0]                       tx_tbl_wr_ip,
    output wire [23:0]                       tx_tbl_wr_qpn,
    output wire [5:0]                        tx_tbl_wr_dscp,
    output wire [7:0]                        tx_tbl_wr_ttl,
    output wire [47:0]                       tx_cfg_mac,
    output wire [31:0]                       tx_cfg_ip,
    output wire                              tx_m_axis_tready
);

localparam CONN_W = $clog2(CONNS);
localparam PATH_W = $clog2(PATHS);
localparam LEN_W = $clog2(MTU + 1);

nic_roce #(
    .CONNS(CONNS),
    .WINDOW(WINDOW),
    .PATHS(PATHS),
    .SACK_BITS(SACK_BITS),
    .PSN_WIDTH(PSN_WIDTH),
    .PSEQ_WIDTH(PSEQ_WIDTH),
    .HANDLE_WIDTH(HANDLE_WIDTH),
    .ACK_EVERY(ACK_EVERY),
    .ACK_FIFO_DEPTH(ACK_FIFO_DEPTH),
    .TICK_CYCLES(TICK_CYCLES),
    .CWND_INIT(CWND_INIT),
    .CWND_MAX(CWND_MAX),
    .AI_16THS(AI_16THS),
    .FAIL_K(FAIL_K),
    .HOLDOFF_TICKS(HOLDOFF_TICKS),
    .RTO_TICKS(RTO_TICKS),
    .RTO_MAX_TICKS(RTO_MAX_TICKS),
    .MAX_RETRIES(MAX_RETRIES),
    .GBN(GBN),
    .QPN_BASE(QPN_BASE),
    .ACK_REQ_TICKS(ACK_REQ_TICKS),
    .EARLY_CYCLES(EARLY_CYCLES),
    .DATA_WIDTH(DATA_WIDTH),
    .MTU(MTU)
)
dut (
    .clk(clk),
    .rst(rst),
    .s_axis_rx_tdata(s_axis_rx_tdata),
    .s_axis_rx_tkeep(s_axis_rx_tkeep),
    .s_axis_rx_tvalid(s_axis_rx_tvalid),
    .s_axis_rx_tready(s_axis_rx_tready),
    .s_axis_rx_tlast(s_axis_rx_tlast),
    .s_axis_rx_tuser(s_axis_rx_tuser),
    .m_axis_tx_tdata(m_axis_tx_tdata),
    .m_axis_tx_tkeep(m_axis_tx_tkeep),
    .m_axis_tx_tvalid(m_axis_tx_tvalid),
    .m_axis_tx_tready(m_axis_tx_tready),
    .m_axis_tx_tlast(m_axis_tx_tlast),
    .m_axis_tx_tuser(m_axis_tx_tuser),
    .s_wr_valid(s_wr_valid),
    .s_wr_ready(s_wr_ready),
    .s_wr_conn(s_wr_conn),
    .s_wr_id(s_wr_id),
    .s_wr_addr(s_wr_addr),
    .s_wr_len(s_wr_len),
    .s_rq_valid(s_rq_valid),
    .s_rq_ready(s_rq_ready),
    .s_rq_conn(s_rq_conn),
    .s_rq_id(s_rq_id),
    .s_rq_addr(s_rq_addr),
    .s_rq_len(s_rq_len),
    .m_cpl_valid(m_cpl_valid),
    .m_cpl_ready(m_cpl_ready),
    .m_cpl_recv(m_cpl_recv),
    .m_cpl_conn(m_cpl_conn),
    .m_cpl_id(m_cpl_id),
    .m_cpl_len(m_cpl_len),
    .m_cpl_status(m_cpl_status),
    .m_dma_rd_desc_addr(m_dma_rd_desc_addr),
    .m_dma_rd_desc_len(m_dma_rd_desc_len),
    .m_dma_rd_desc_tag(m_dma_rd_desc_tag),
    .m_dma_rd_desc_valid(m_dma_rd_desc_valid),
    .m_dma_rd_desc_ready(m_dma_rd_desc_ready),
    .s_dma_rd_sts_tag(s_dma_rd_sts_tag),
    .s_dma_rd_sts_error(s_dma_rd_sts_error),
    .s_dma_rd_sts_valid(s_dma_rd_sts_valid),
    .s_axis_dma_rd_tdata(s_axis_dma_rd_tdata),
    .s_axis_dma_rd_tkeep(s_axis_dma_rd_tkeep),
    .s_axis_dma_rd_tvalid(s_axis_dma_rd_tvalid),
    .s_axis_dma_rd_tready(s_axis_dma_rd_tready),
    .s_axis_dma_rd_tlast(s_axis_dma_rd_tlast),
    .s_axis_dma_rd_tuser(s_axis_dma_rd_tuser),
    .m_dma_wr_desc_addr(m_dma_wr_desc_addr),
    .m_dma_wr_desc_len(m_dma_wr_desc_len),
    .m_dma_wr_desc_tag(m_dma_wr_desc_tag),
    .m_dma_wr_desc_valid(m_dma_wr_desc_valid),
    .m_dma_wr_desc_ready(m_dma_wr_desc_ready),
    .s_dma_wr_sts_tag(s_dma_wr_sts_tag),
    .s_dma_wr_sts_error(s_dma_wr_sts_error),
    .s_dma_wr_sts_valid(s_dma_wr_sts_valid),
    .m_axis_dma_wr_tdata(m_axis_dma_wr_tdata),
    .m_axis_dma_wr_tkeep(m_axis_dma_wr_tkeep),
    .m_axis_dma_wr_tvalid(m_axis_dma_wr_tvalid),
    .m_axis_dma_wr_tready(m_axis_dma_wr_tready),
    .m_axis_dma_wr_tlast(m_axis_dma_wr_tlast),
    .s_axil_awaddr(s_axil_awaddr),
    .s_axil_awprot(s_axil_awprot),
    .s_axil_awvalid(s_axil_awvalid),
    .s_axil_awready(s_axil_awready),
    .s_axil_wdata(s_axil_wdata),
    .s_axil_wstrb(s_axil_wstrb),
    .s_axil_wvalid(s_axil_wvalid),
    .s_axil_wready(s_axil_wready),
    .s_axil_bresp(s_axil_bresp),
    .s_axil_bvalid(s_axil_bvalid),
    .s_axil_bready(s_axil_bready),
    .s_axil_araddr(s_axil_araddr),
    .s_axil_arprot(s_axil_arprot),
    .s_axil_arvalid(s_axil_arvalid),
    .s_axil_arready(s_axil_arready),
    .s_axil_rdata(s_axil_rdata),
    .s_axil_rresp(s_axil_rresp),
    .s_axil_rvalid(s_axil_rvalid),
    .s_axil_rready(s_axil_rready),
    .irq(irq)
);

assign rx_s_axis_tready = dut.roce_rx_inst.s_axis_tready;
assign rx_m_axis_tdata = dut.roce_rx_inst.m_axis_tdata;
assign rx_m_axis_tkeep = dut.roce_rx_inst.m_axis_tkeep;
assign rx_m_axis_tvalid = dut.roce_rx_inst.m_axis_tvalid;
assign rx_m_axis_tlast = dut.roce_rx_inst.m_axis_tlast;
assign rx_m_rx_valid = dut.roce_rx_inst.m_rx_valid;
assign rx_m_rx_conn = dut.roce_rx_inst.m_rx_conn;
assign rx_m_rx_psn = dut.roce_rx_inst.m_rx_psn;
assign rx_m_rx_path = dut.roce_rx_inst.m_rx_path;
assign rx_m_rx_pseq = dut.roce_rx_inst.m_rx_pseq;
assign rx_m_rx_first = dut.roce_rx_inst.m_rx_first;
assign rx_m_rx_last = dut.roce_rx_inst.m_rx_last;
assign rx_m_rx_ack_req = dut.roce_rx_inst.m_rx_ack_req;
assign rx_m_rx_ecn = dut.roce_rx_inst.m_rx_ecn;
assign rx_m_rx_handle = dut.roce_rx_inst.m_rx_handle;
assign rx_m_rx_offset = dut.roce_rx_inst.m_rx_offset;
assign rx_m_rx_len = dut.roce_rx_inst.m_rx_len;
assign rx_m_rx_src_mac = dut.roce_rx_inst.m_rx_src_mac;
assign rx_m_rx_src_ip = dut.roce_rx_inst.m_rx_src_ip;
assign rx_m_ack_valid = dut.roce_rx_inst.m_ack_valid;
assign rx_m_ack_conn = dut.roce_rx_inst.m_ack_conn;
assign rx_m_ack_psn = dut.roce_rx_inst.m_ack_psn;
assign rx_m_ack_path = dut.roce_rx_inst.m_ack_path;
assign rx_m_ack_pseq = dut.roce_rx_inst.m_ack_pseq;
assign rx_m_ack_sack = dut.roce_rx_inst.m_ack_sack;
assign rx_m_ack_ecn = dut.roce_rx_inst.m_ack_ecn;
assign rx_m_ack_nak = dut.roce_rx_inst.m_ack_nak;
assign rx_m_ack_has_sack = dut.roce_rx_inst.m_ack_has_sack;
assign rx_m_ack_src_mac = dut.roce_rx_inst.m_ack_src_mac;
assign rx_m_ack_src_ip = dut.roce_rx_inst.m_ack_src_ip;
assign rx_cnt_data = dut.roce_rx_inst.cnt_data;
assign rx_cnt_ack = dut.roce_rx_inst.cnt_ack;
assign rx_cnt_not_roce = dut.roce_rx_inst.cnt_not_roce;
assign rx_cnt_truncated = dut.roce_rx_inst.cnt_truncated;
assign rx_cnt_invalid = dut.roce_rx_inst.cnt_invalid;
assign rx_cnt_unknown_opcode = dut.roce_rx_inst.cnt_unknown_opcode;
assign rx_cnt_bad_icrc = dut.roce_rx_inst.cnt_bad_icrc;
assign rx_cnt_limit = dut.roce_rx_inst.cnt_limit;
assign rx_cnt_mac_error = dut.roce_rx_inst.cnt_mac_error;
assign tx_s_pkt_ready = dut.roce_tx_inst.s_pkt_ready;
assign tx_s_ack_ready = dut.roce_tx_inst.s_ack_ready;
assign tx_s_pay_tready = dut.roce_tx_inst.s_pay_tready;
assign tx_m_axis_tdata = dut.roce_tx_inst.m_axis_tdata;
assign tx_m_axis_tkeep = dut.roce_tx_inst.m_axis_tkeep;
assign tx_m_axis_tvalid = dut.roce_tx_inst.m_axis_tvalid;
assign tx_m_axis_tlast = dut.roce_tx_inst.m_axis_tlast;
assign rx_s_axis_tvalid = dut.roce_rx_inst.s_axis_tvalid;
assign rx_s_axis_tdata = dut.roce_rx_inst.s_axis_tdata;
assign rx_s_axis_tkeep = dut.roce_rx_inst.s_axis_tkeep;
assign rx_s_axis_tlast = dut.roce_rx_inst.s_axis_tlast;
assign rx_s_axis_tuser = dut.roce_rx_inst.s_axis_tuser;
assign rx_m_rx_ready = dut.roce_rx_inst.m_rx_ready;
assign rx_m_ack_ready = dut.roce_rx_inst.m_ack_ready;
assign rx_m_axis_tready = dut.roce_rx_inst.m_axis_tready;
assign tx_s_pkt_valid = dut.roce_tx_inst.s_pkt_valid;
assign tx_s_pkt_conn = dut.roce_tx_inst.s_pkt_conn;
assign tx_s_pkt_psn = dut.roce_tx_inst.s_pkt_psn;
assign tx_s_pkt_path = dut.roce_tx_inst.s_pkt_path;
assign tx_s_pkt_pseq = dut.roce_tx_inst.s_pkt_pseq;
assign tx_s_pkt_entropy = dut.roce_tx_inst.s_pkt_entropy;
assign tx_s_pkt_handle = dut.roce_tx_inst.s_pkt_handle;
assign tx_s_pkt_first = dut.roce_tx_inst.s_pkt_first;
assign tx_s_pkt_last = dut.roce_tx_inst.s_pkt_last;
assign tx_s_pkt_ack_req = dut.roce_tx_inst.s_pkt_ack_req;
assign tx_s_pkt_offset = dut.roce_tx_inst.s_pkt_offset;
assign tx_s_pkt_len = dut.roce_tx_inst.s_pkt_len;
assign tx_s_pay_tvalid = dut.roce_tx_inst.s_pay_tvalid;
assign tx_s_pay_tdata = dut.roce_tx_inst.s_pay_tdata;
assign tx_s_pay_tkeep = dut.roce_tx_inst.s_pay_tkeep;
assign tx_s_pay_tlast = dut.roce_tx_inst.s_pay_tlast;
assign tx_s_pay_tuser = dut.roce_tx_inst.s_pay_tuser;
assign tx_s_ack_valid = dut.roce_tx_inst.s_ack_valid;
assign tx_s_ack_conn = dut.roce_tx_inst.s_ack_conn;
assign tx_s_ack_psn = dut.roce_tx_inst.s_ack_psn;
assign tx_s_ack_path = dut.roce_tx_inst.s_ack_path;
assign tx_s_ack_pseq = dut.roce_tx_inst.s_ack_pseq;
assign tx_s_ack_sack = dut.roce_tx_inst.s_ack_sack;
assign tx_s_ack_ecn = dut.roce_tx_inst.s_ack_ecn;
assign tx_s_ack_nak = dut.roce_tx_inst.s_ack_nak;
assign tx_s_ack_entropy = dut.roce_tx_inst.s_ack_entropy;
assign tx_tbl_wr_en = dut.roce_tx_inst.tbl_wr_en;
assign tx_tbl_wr_conn = dut.roce_tx_inst.tbl_wr_conn;
assign tx_tbl_wr_mac = dut.roce_tx_inst.tbl_wr_mac;
assign tx_tbl_wr_ip = dut.roce_tx_inst.tbl_wr_ip;
assign tx_tbl_wr_qpn = dut.roce_tx_inst.tbl_wr_qpn;
assign tx_tbl_wr_dscp = dut.roce_tx_inst.tbl_wr_dscp;
assign tx_tbl_wr_ttl = dut.roce_tx_inst.tbl_wr_ttl;
assign tx_cfg_mac = dut.roce_tx_inst.cfg_mac;
assign tx_cfg_ip = dut.roce_tx_inst.cfg_ip;
assign tx_m_axis_tready = dut.roce_tx_inst.m_axis_tready;

endmodule

`resetall
