// SPDX-License-Identifier: Apache-2.0
/*
 * nic_roce: the frame-level NIC top of the spraynic core.
 *
 * Joins roce_rx (frames in), nic_transport (the transport endpoint), roce_tx (frames out) and
 * nic_roce_csr (AXI4-Lite control) with the units between them: MAC RX enable gate, send queue
 * intake and segmentation, TX path (T1, T2, TXQ, payload router), read status, RX peer and
 * posted-receive check (C1, C2), verdict stage V, payload action queue and write engine, write
 * ledger, receive completion unit, send walker, completion arbiter, control unit, flush engine.
 *
 * Interfaces: s_axis_rx / m_axis_tx (MAC), s_wr (send work requests), s_rq (posted receives),
 * m_cpl (completions), m_dma_rd_desc / s_dma_rd_sts / s_axis_dma_rd (DMA reads),
 * m_dma_wr_desc / s_dma_wr_sts / m_axis_dma_wr (DMA writes), s_axil (control), irq.
 *
 * Contract: docs/nic_roce.md (ports, behaviour, register map); structure and cycle behaviour:
 * docs/nic_roce_rtl.md. The Go twin golden/nicroce implements the same documents.
 */

`resetall
`timescale 1ns / 1ps
`default_nettype none

module nic_roce #(
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
    input  wire                         clk,
    input  wire                         rst,

    /*
     * MAC RX (frames without FCS; tuser = bad frame)
     */
    input  wire [DATA_WIDTH-1:0]        s_axis_rx_tdata,
    input  wire [DATA_WIDTH/8-1:0]      s_axis_rx_tkeep,
    input  wire                         s_axis_rx_tvalid,
    output wire                         s_axis_rx_tready,
    input  wire                         s_axis_rx_tlast,
    input  wire                         s_axis_rx_tuser,

    /*
     * MAC TX
     */
    output wire [DATA_WIDTH-1:0]        m_axis_tx_tdata,
    output wire [DATA_WIDTH/8-1:0]      m_axis_tx_tkeep,
    output wire                         m_axis_tx_tvalid,
    input  wire                         m_axis_tx_tready,
    output wire                         m_axis_tx_tlast,
    output wire                         m_axis_tx_tuser,

    /*
     * Send work requests, posted receives, completions
     */
    input  wire                         s_wr_valid,
    output wire                         s_wr_ready,
    input  wire [$clog2(CONNS)-1:0]     s_wr_conn,
    input  wire [31:0]                  s_wr_id,
    input  wire [63:0]                  s_wr_addr,
    input  wire [31:0]                  s_wr_len,
    input  wire                         s_rq_valid,
    output wire                         s_rq_ready,
    input  wire [$clog2(CONNS)-1:0]     s_rq_conn,
    input  wire [31:0]                  s_rq_id,
    input  wire [63:0]                  s_rq_addr,
    input  wire [31:0]                  s_rq_len,
    output wire                         m_cpl_valid,
    input  wire                         m_cpl_ready,
    output wire                         m_cpl_recv,
    output wire [$clog2(CONNS)-1:0]     m_cpl_conn,
    output wire [31:0]                  m_cpl_id,
    output wire [31:0]                  m_cpl_len,
    output wire [3:0]                   m_cpl_status,

    /*
     * DMA read: descriptor, status, data
     */
    output wire [63:0]                  m_dma_rd_desc_addr,
    output wire [15:0]                  m_dma_rd_desc_len,
    output wire [7:0]                   m_dma_rd_desc_tag,
    output wire                         m_dma_rd_desc_valid,
    input  wire                         m_dma_rd_desc_ready,
    input  wire [7:0]                   s_dma_rd_sts_tag,
    input  wire [3:0]                   s_dma_rd_sts_error,
    input  wire                         s_dma_rd_sts_valid,
    input  wire [DATA_WIDTH-1:0]        s_axis_dma_rd_tdata,
    input  wire [DATA_WIDTH/8-1:0]      s_axis_dma_rd_tkeep,
    input  wire                         s_axis_dma_rd_tvalid,
    output wire                         s_axis_dma_rd_tready,
    input  wire                         s_axis_dma_rd_tlast,
    input  wire                         s_axis_dma_rd_tuser,

    /*
     * DMA write: descriptor, status, data
     */
    output wire [63:0]                  m_dma_wr_desc_addr,
    output wire [15:0]                  m_dma_wr_desc_len,
    output wire [7:0]                   m_dma_wr_desc_tag,
    output wire                         m_dma_wr_desc_valid,
    input  wire                         m_dma_wr_desc_ready,
    input  wire [7:0]                   s_dma_wr_sts_tag,
    input  wire [3:0]                   s_dma_wr_sts_error,
    input  wire                         s_dma_wr_sts_valid,
    output wire [DATA_WIDTH-1:0]        m_axis_dma_wr_tdata,
    output wire [DATA_WIDTH/8-1:0]      m_axis_dma_wr_tkeep,
    output wire                         m_axis_dma_wr_tvalid,
    input  wire                         m_axis_dma_wr_tready,
    output wire                         m_axis_dma_wr_tlast,

    /*
     * AXI4-Lite control
     */
    input  wire [15:0]                  s_axil_awaddr,
    input  wire [2:0]                   s_axil_awprot,
    input  wire                         s_axil_awvalid,
    output wire                         s_axil_awready,
    input  wire [31:0]                  s_axil_wdata,
    input  wire [3:0]                   s_axil_wstrb,
    input  wire                         s_axil_wvalid,
    output wire                         s_axil_wready,
    output wire [1:0]                   s_axil_bresp,
    output wire                         s_axil_bvalid,
    input  wire                         s_axil_bready,
    input  wire [15:0]                  s_axil_araddr,
    input  wire [2:0]                   s_axil_arprot,
    input  wire                         s_axil_arvalid,
    output wire                         s_axil_arready,
    output wire [31:0]                  s_axil_rdata,
    output wire [1:0]                   s_axil_rresp,
    output wire                         s_axil_rvalid,
    input  wire                         s_axil_rready,

    output wire                         irq
);

localparam K = DATA_WIDTH / 8;
localparam CONN_W = $clog2(CONNS);
localparam PATH_W = $clog2(PATHS);
localparam HW = HANDLE_WIDTH;
localparam DMA_LEN_WIDTH = 16;
localparam DMA_TAG_WIDTH = 8;
localparam SQ_DEPTH = 16;
localparam RQ_DEPTH = 16;
localparam TXQ_DEPTH = 32;
localparam TXQ_BEATS = 256;
localparam PAQ_DEPTH = 16;
localparam GEN_W = 8;
localparam SEQ_W = DMA_TAG_WIDTH + 2;
localparam LEN_W = $clog2(MTU + 1);
localparam LM = $clog2(MTU);
localparam SLOT = 4;
localparam PW = SLOT + 1;
localparam SKW = 32 - LM;
localparam TXQ_W = $clog2(TXQ_DEPTH);
localparam PAQ_W = $clog2(PAQ_DEPTH);
localparam KL = $clog2(K);
// the beat counter: T2 and TXQ hold at most TXQ_DEPTH + 1 packets of at most MTU beats
localparam BW = LEN_W + TXQ_W + 1;
localparam [LEN_W:0] K_M1 = {{LEN_W+1-KL{1'b0}}, {KL{1'b1}}};
localparam [BW-1:0] TXB_MAX = TXQ_BEATS;
localparam NCNT = 41;
localparam NBASE = 27;
localparam [32:0] MAX_MSG = 33'd1 << (19 + LM);
localparam [32:0] MTU33 = 33'd1 << LM;
localparam [LEN_W-1:0] MTU_L = {1'b1, {LM{1'b0}}};
localparam [3:0] ST_OK = 4'd0, ST_CONN_ERROR = 4'd1, ST_CLOSED = 4'd2, ST_DMA_ERROR = 4'd3,
    ST_TOO_LONG = 4'd4;
localparam [1:0] CS_CLOSED = 2'd0, CS_OPEN = 2'd1, CS_ERROR = 2'd2;
localparam [1:0] FL_IDLE = 2'd0, FL_SQ = 2'd1, FL_WAIT = 2'd2, FL_RQ = 2'd3;
localparam [PW-1:0] PW_ONE = 1;
localparam [HW-1:0] HW_ONE = 1;
localparam [SEQ_W-1:0] SEQ_ONE = 1;

// The blocks check their own parameters; here the top's (docs/nic_roce_rtl.md, "Parameters
// checked at elaboration").
initial begin
    if (HANDLE_WIDTH < 8 || HANDLE_WIDTH > 32) begin
        $error("Error: HANDLE_WIDTH = %0d (allowed: 8..32) (instance %m)", HANDLE_WIDTH);
        $finish;
    end
    if (2.0 ** (HANDLE_WIDTH - 1) < WINDOW) begin
        $error("Error: WINDOW = %0d (allowed: 2^(HANDLE_WIDTH-1) >= WINDOW) (instance %m)",
            WINDOW);
        $finish;
    end
    if (MTU < 256 || MTU > 4096 || (MTU & (MTU - 1)) != 0 || MTU > 2**DMA_LEN_WIDTH - 1) begin
        $error("Error: MTU = %0d (allowed: power of two, 256..4096) (instance %m)", MTU);
        $finish;
    end
    if (2**DMA_TAG_WIDTH + PAQ_DEPTH >= 2**(SEQ_W - 1)) begin
        $error("Error: 2^DMA_TAG_WIDTH + PAQ_DEPTH >= 2^(SEQ_W-1) (instance %m)");
        $finish;
    end
    if (SQ_DEPTH != RQ_DEPTH || SQ_DEPTH != 2**SLOT || SQ_DEPTH > 63) begin
        $error("Error: SQ_DEPTH = RQ_DEPTH = 2^SLOT <= 63 does not hold (instance %m)");
        $finish;
    end
    if ((TXQ_DEPTH & (TXQ_DEPTH - 1)) != 0) begin
        $error("Error: TXQ_DEPTH = %0d (allowed: power of two) (instance %m)", TXQ_DEPTH);
        $finish;
    end
    if (TXQ_BEATS < 1 || TXQ_BEATS >= 2**BW) begin
        $error("Error: TXQ_BEATS = %0d (allowed: 1..2^%0d-1) (instance %m)", TXQ_BEATS, BW);
        $finish;
    end
end

// packets of a message of len bytes: max(1, ceil(len/MTU))
function [32:0] npkts;
    input [31:0] len;
    reg [32:0] s;
    begin
        s = ({1'b0, len} + MTU33 - 33'd1) >> LM;
        npkts = (len == 32'd0) ? 33'd1 : s;
    end
endfunction

// the same, mod 2^24 (a PSN count)
function [23:0] npkts24;
    input [31:0] len;
    reg [32:0] np_full;
    begin
        np_full = npkts(len);
        npkts24 = np_full[23:0];
    end
endfunction

// E0(c, p) = 16'hC000 | (((c*PATHS + p)*997) mod 2^14); idx = (c*PATHS + p) mod 2^14
function [15:0] entropy_e0;
    input [13:0] idx;
    reg [13:0] prod;
    begin
        prod = idx * 14'd997;
        entropy_e0 = {2'b11, prod};
    end
endfunction


/*
 * Block interconnect
 */

// CSR
wire                    cfg_enable;
wire [47:0]             cfg_local_mac;
wire [31:0]             cfg_local_ip;
wire [5:0]              cfg_dscp;
wire [7:0]              cfg_ttl;
wire                    cmd_valid;
wire                    cmd_open;
wire [CONN_W-1:0]       cmd_conn;
wire [47:0]             cmd_peer_mac;
wire                    cmd_mac_check;
wire [31:0]             cmd_peer_ip;
wire [23:0]             cmd_peer_qpn;
wire [23:0]             cmd_tx_psn;
wire [23:0]             cmd_rx_psn;
wire [2*CONNS-1:0]      csr_conn_state;
wire                    cnt_clear;
wire [CONN_W-1:0]       path_conn;
wire [PATH_W-1:0]       path_path;

// roce_rx
wire                    rx_s_tvalid;
wire                    rx_s_tready;
wire [DATA_WIDTH-1:0]   rx_m_tdata;
wire [K-1:0]            rx_m_tkeep;
wire                    rx_m_tvalid;
wire                    rx_m_tready;
wire                    rx_m_tlast;
wire                    mrx_valid;
wire                    mrx_ready;
wire [CONN_W-1:0]       mrx_conn;
wire [PSN_WIDTH-1:0]    mrx_psn;
wire [PATH_W-1:0]       mrx_path;
wire [PSEQ_WIDTH-1:0]   mrx_pseq;
wire                    mrx_first;
wire                    mrx_last;
wire                    mrx_ack_req;
wire                    mrx_ecn;
wire [HW-1:0]           mrx_handle;
wire [31:0]             mrx_offset;
wire [LEN_W-1:0]        mrx_len;
wire [47:0]             mrx_src_mac;
wire [31:0]             mrx_src_ip;
wire                    mack_valid;
wire                    mack_ready;
wire [CONN_W-1:0]       mack_conn;
wire [PSN_WIDTH-1:0]    mack_psn;
wire [PATH_W-1:0]       mack_path;
wire [PSEQ_WIDTH-1:0]   mack_pseq;
wire [SACK_BITS-1:0]    mack_sack;
wire                    mack_ecn;
wire                    mack_nak;
wire                    mack_has_sack;
wire [47:0]             mack_src_mac;
wire [31:0]             mack_src_ip;
wire [9*32-1:0]         rx_cnt;

// nic_transport
wire                    nt_s_tx_ready;
wire                    nt_s_ctl_valid;
wire                    nt_s_ctl_ready;
wire                    nt_s_ctl_open;
wire [CONN_W-1:0]       nt_s_ctl_conn;
wire [PSN_WIDTH-1:0]    nt_s_ctl_tx_psn;
wire [PSN_WIDTH-1:0]    nt_s_ctl_rx_psn;
wire                    nt_cpl_valid;
wire [CONN_W-1:0]       nt_cpl_conn;
wire [PSN_WIDTH-1:0]    nt_cpl_psn;
wire                    nt_cpl_first;
wire                    nt_cpl_last;
wire [HW-1:0]           nt_cpl_handle;
wire                    nt_rxv_valid;
wire [CONN_W-1:0]       nt_rxv_conn;
wire [PSN_WIDTH-1:0]    nt_rxv_psn;
wire [2:0]              nt_rxv_code;
wire                    nt_una_valid;
wire [CONN_W-1:0]       nt_una_conn;
wire [PSN_WIDTH-1:0]    nt_una_psn;
wire                    nt_err_valid;
wire [CONN_W-1:0]       nt_err_conn;
wire                    nt_status_all_failed;
wire [CONN_W-1:0]       nt_status_conn;
wire [CONNS-1:0]        nt_status_af;
wire [1:0]              nt_rd_state;
wire [11:0]             nt_rd_cwnd;
wire [7:0]              nt_rd_inflight;
wire [15:0]             nt_rd_entropy;
wire                    nt_rd_all_failed;
wire [15:0]             nt_rd_decisions;
wire [15:0]             nt_rd_losses;
wire                    pkt_valid;
wire                    pkt_ready;
wire [CONN_W-1:0]       pkt_conn;
wire [PSN_WIDTH-1:0]    pkt_psn;
wire [PATH_W-1:0]       pkt_path;
wire [PSEQ_WIDTH-1:0]   pkt_pseq;
wire [15:0]             pkt_entropy;
wire [HW-1:0]           pkt_handle;
wire                    pkt_first;
wire                    pkt_last;
wire                    pkt_ack_req;
wire                    pkt_retx;
wire [3:0]              pkt_retries;
wire                    nt_ack_valid;
wire                    nt_ack_ready;
wire [CONN_W-1:0]       nt_ack_conn;
wire [PSN_WIDTH-1:0]    nt_ack_psn;
wire [PATH_W-1:0]       nt_ack_path;
wire [PSEQ_WIDTH-1:0]   nt_ack_pseq;
wire [SACK_BITS-1:0]    nt_ack_sack;
wire                    nt_ack_ecn;
wire                    nt_ack_nak;
wire                    nt_s_rx_ready;
wire                    nt_s_ack_ready;
wire [18*32-1:0]        nt_cnt;

// roce_tx
wire                    tx_s_pkt_valid;
wire                    tx_s_pkt_ready;
wire                    tx_s_pay_tvalid;
wire                    tx_s_pay_tready;
wire                    tx_s_ack_ready;
wire [DATA_WIDTH-1:0]   tx_m_tdata;
wire [K-1:0]            tx_m_tkeep;
wire                    tx_m_tvalid;
wire                    tx_m_tready;
wire                    tx_m_tlast;

/*
 * State: connection state of the top, per connection (flat vectors, entry c at c*W)
 */

reg [2*CONNS-1:0]       cs_q, cs_n;
reg [GEN_W*CONNS-1:0]   gen_q, gen_n;
reg [PW*CONNS-1:0]      head_q, head_n;
reg [PW*CONNS-1:0]      seg_q, seg_n;
reg [PW*CONNS-1:0]      tail_q, tail_n;
reg [HW*CONNS-1:0]      seqt_q, seqt_n;
reg [SKW*CONNS-1:0]     segk_q, segk_n;
reg [24*CONNS-1:0]      apsn_q, apsn_n;
reg [24*CONNS-1:0]      una_q, una_n;
reg [CONNS-1:0]         pend_q, pend_n;
reg [16*CONNS-1:0]      sqd_q, sqd_n;
reg [PW*CONNS-1:0]      rhead_q, rhead_n;
reg [PW*CONNS-1:0]      rtail_q, rtail_n;
reg [PW*CONNS-1:0]      rel_q, rel_n;
reg [HW*CONNS-1:0]      rh_q, rh_n;
reg [16*CONNS-1:0]      rqe_q, rqe_n;
reg [CONNS-1:0]         flr_q, flr_n;
reg [CONNS-1:0]         fkind_q, fkind_n;     // 1: CONN_ERROR, 0: CLOSED
reg [CONNS-1:0]         pop_q, pop_n;         // pend_open
reg [24*CONNS-1:0]      potx_q, potx_n;
reg [24*CONNS-1:0]      porx_q, porx_n;
// the doc's one ic register and the DMA error's wait for conn_err are kept as one bit per
// connection each (two errors in a cycle, or one while another waits, lose nothing); a close of
// c clears both (its gen changed); an open of c waits for the internal close (flushing)
reg [CONNS-1:0]         icr_q, icr_n;         // internal close to send on s_ctl
reg [CONNS-1:0]         cer_q, cer_n;         // error to send on conn_err (DMA, TOO_LONG)

// field access, start-of-cycle
function [PW-1:0] fpw;
    input [PW*CONNS-1:0] v;
    input [CONN_W-1:0] k;
    begin
        fpw = v[k*PW +: PW];
    end
endfunction

function [SLOT-1:0] fslot;
    input [PW*CONNS-1:0] v;
    input [CONN_W-1:0] k;
    begin
        fslot = v[k*PW +: SLOT];
    end
endfunction

function [HW-1:0] fhw;
    input [HW*CONNS-1:0] v;
    input [CONN_W-1:0] k;
    begin
        fhw = v[k*HW +: HW];
    end
endfunction

// a pointer zero-extended to a handle (bit by bit: a width below PW elaborates, so the parameter
// check above reports it)
function [HW-1:0] fzx;
    input [PW-1:0] v;
    integer i;
    begin
        fzx = {HW{1'b0}};
        for (i = 0; i < PW && i < HW; i = i + 1) begin
            fzx[i] = v[i];
        end
    end
endfunction

function [GEN_W-1:0] fgen;
    input [GEN_W*CONNS-1:0] v;
    input [CONN_W-1:0] k;
    begin
        fgen = v[k*GEN_W +: GEN_W];
    end
endfunction

function [1:0] fcs;
    input [2*CONNS-1:0] v;
    input [CONN_W-1:0] k;
    begin
        fcs = v[k*2 +: 2];
    end
endfunction

wire [CONNS-1:0] flushing_q = flr_q | pop_q | icr_q;

/*
 * Stage and unit registers
 */

// enable gates
reg                     gdrop_q, in_frame_q, in_tx_q, tx_held_q;
// SQ and RQ intake: completions of requests for connections not open
reg                     iw_v_q, ir_v_q;
reg [CONN_W-1:0]        iw_c_q, ir_c_q;
reg [31:0]              iw_id_q, ir_id_q;
reg [3:0]               iw_st_q, ir_st_q;
// segmentation
reg                     s2_v_q;
reg [CONN_W-1:0]        s2_c_q;
reg [CONN_W-1:0]        seg_rr_q;
reg [CONN_W-1:0]        seg_fair_q;
// TX path
reg                     t1_v_q;
reg [CONN_W-1:0]        t1_c_q;
reg [PSN_WIDTH-1:0]     t1_psn_q;
reg [PATH_W-1:0]        t1_path_q;
reg [PSEQ_WIDTH-1:0]    t1_pseq_q;
reg [15:0]              t1_ent_q;
reg [HW-1:0]            t1_h_q;
reg                     t1_first_q, t1_last_q, t1_areq_q;
reg [GEN_W-1:0]         t1_gen_q;
reg                     t2_v_q;
reg [CONN_W-1:0]        t2_c_q;
reg [PSN_WIDTH-1:0]     t2_psn_q;
reg [PATH_W-1:0]        t2_path_q;
reg [PSEQ_WIDTH-1:0]    t2_pseq_q;
reg [15:0]              t2_ent_q;
reg [HW-1:0]            t2_h_q;
reg                     t2_first_q, t2_last_q, t2_areq_q;
reg [GEN_W-1:0]         t2_gen_q;
reg [31:0]              t2_off_q;
reg [LEN_W-1:0]         t2_plen_q;
reg [63:0]              t2_addr_q;
localparam TXQ_E = CONN_W + PATH_W + PSEQ_WIDTH + HW + LEN_W + 83;
reg [TXQ_E-1:0]         txq_mem [0:TXQ_DEPTH-1];
// the payload length of each entry again, for the router's pointer
reg [LEN_W-1:0]         txq_plen [0:TXQ_DEPTH-1];
reg [TXQ_DEPTH-1:0]     txq_drop_q;
reg [TXQ_W:0]           txq_wp_q, txq_dp_q, txq_pp_q;
reg [BW-1:0]            txb_q;
reg [7:0]               rd_tag_q;
reg [255:0]             rd_out_q;
// read status
reg                     rs_v_q, rs_err_q;
// RX check
reg                     c1_ack_last_q;
reg                     c2_v_q, c2_ack_q;
reg [CONN_W-1:0]        c2_c_q;
reg [PSN_WIDTH-1:0]     c2_psn_q;
reg [PATH_W-1:0]        c2_path_q;
reg [PSEQ_WIDTH-1:0]    c2_pseq_q;
reg                     c2_first_q, c2_last_q, c2_areq_q, c2_ecn_q, c2_nak_q;
reg [HW-1:0]            c2_h_q;
reg [31:0]              c2_off_q;
reg [LEN_W-1:0]         c2_len_q;
reg [47:0]              c2_smac_q;
reg [31:0]              c2_sip_q;
reg [SACK_BITS-1:0]     c2_sack_q;
reg                     c2_nobuf_q;
reg                     c2_fwd_q;
reg [47:0]              c2_fmac_q;
reg                     c2_fchk_q;
reg [31:0]              c2_fip_q;
// verdict stage
reg                     v_v_q, v_last_q, v_passed_q;
reg [CONN_W-1:0]        v_c_q;
reg [GEN_W-1:0]         v_gen_q;
reg [SLOT-1:0]          v_slot_q;
reg [63:0]              v_addr_q;
reg [LEN_W-1:0]         v_len_q;
reg [31:0]              v_mlen_q;
// PAQ and write engine: entry {c, gen, slot, addr, len}, write bit apart
localparam PAQ_E = CONN_W + GEN_W + SLOT + 64 + LEN_W;
reg [PAQ_E-1:0]         paq_mem [0:PAQ_DEPTH-1];
reg [PAQ_DEPTH-1:0]     paq_wr_q;
reg [SEQ_W-1:0]         push_q, iss_q, dptr_q, ret_q, rr_q;
reg                     iss_hold_q;
// ledger
reg [255:0]             done_q, lerr_q;
reg                     rt_v_q, rt_err_q;
// receive completion unit
reg                     e2_v_q;
reg [CONN_W-1:0]        e2_c_q;
reg [CONN_W-1:0]        e_rr_q;
reg [31:0]              e2_id_h_q, e2_len_h_q;
reg [SEQ_W-1:0]         e2_w_h_q;
reg                     e2_fresh_q;
// send walker
reg                     w2_v_q;
reg [CONN_W-1:0]        w2_c_q;
reg [CONN_W-1:0]        w_rr_q;
reg [87:0]              w2_h_q;
reg                     w2_fresh_q;
// completion arbiter
reg                     cpl_v_q, cpl_recv_q;
reg [CONN_W-1:0]        cpl_c_q;
reg [31:0]              cpl_id_q, cpl_len_q;
reg [3:0]               cpl_st_q;
reg [2:0]               arb_last_q;
// flush engine
reg [1:0]               fl_st_q;
reg [CONN_W-1:0]        fl_c_q;
reg [PW-1:0]            fl_ptr_q;
reg                     fl_dv_q;
reg [SEQ_W-1:0]         fl_wf_q;
reg [CONN_W-1:0]        fl_rr_q;
// events, counters
reg [CONNS-1:0]         af_q;
reg [14*32-1:0]         cnt_q;
reg [NBASE*32-1:0]      base_q;

/*
 * RAM read data
 */

wire [31:0]             seg_len;
wire [119:0]            sqtx_rd;
wire [87:0]             sqcpl_rd;
wire [95:0]             rqchk_rd;
wire [31:0]             rqid_rd;
wire [31:0]             rqlen_rd;
wire [SEQ_W-1:0]        rqw_rd;
wire [80:0]             peer_rd;
wire [CONN_W+SLOT+GEN_W-1:0] led_rd;
wire [CONN_W+HW+GEN_W-1:0]   rdtag_rd;

/*
 * Enable gate (MAC RX) and TX gate
 */

wire rx_drop = in_frame_q ? gdrop_q : !cfg_enable;
assign rx_s_tvalid = s_axis_rx_tvalid && !rx_drop;
assign s_axis_rx_tready = !rst && (rx_drop || rx_s_tready);
wire rx_beat = s_axis_rx_tvalid && s_axis_rx_tready;
wire inc_disabled = rx_beat && rx_drop && s_axis_rx_tlast;

// a beat offered and not taken stays offered (tx_held_q), so enable falling cuts no offer
wire tx_open = in_tx_q || tx_held_q || cfg_enable;
assign tx_m_tready = m_axis_tx_tready && tx_open;
// tvalid is gated with tready so that no beat moves at the MAC that roce_tx did not give
assign m_axis_tx_tvalid = tx_m_tvalid && tx_open;
assign m_axis_tx_tdata = tx_m_tdata;
assign m_axis_tx_tkeep = tx_m_tkeep;
assign m_axis_tx_tlast = tx_m_tlast;
assign m_axis_tx_tuser = 1'b0;
wire tx_beat = tx_m_tvalid && tx_m_tready;

/*
 * SQ intake
 */

wire [1:0]      wr_cs = fcs(cs_q, s_wr_conn);
wire            wr_open = wr_cs == CS_OPEN;
wire [PW-1:0]   wr_tail = fpw(tail_q, s_wr_conn);
wire [PW-1:0]   wr_used = wr_tail - fpw(head_q, s_wr_conn);
// imm_wr free: empty at the start of the cycle (not freed by this cycle's grant)
assign s_wr_ready = !rst && cfg_enable && !flushing_q[s_wr_conn] && !pop_q[s_wr_conn]
    && !iw_v_q && (!wr_open || wr_used < SQ_DEPTH);
wire            wr_take = s_wr_valid && s_wr_ready;
wire            wr_long = {1'b0, s_wr_len} > MAX_MSG;
wire [23:0]     wr_fpsn = apsn_q[s_wr_conn*24 +: 24];
wire [23:0]     wr_epsn = wr_fpsn + npkts24(s_wr_len);
wire            sq_we = wr_take && wr_open;
wire [CONN_W+SLOT-1:0] sq_wa = {s_wr_conn, wr_tail[SLOT-1:0]};

/*
 * RQ intake
 */

wire            rq_open = fcs(cs_q, s_rq_conn) == CS_OPEN;
wire [PW-1:0]   rq_rtail = fpw(rtail_q, s_rq_conn);
wire [PW-1:0]   rq_posted = rq_rtail - fpw(rhead_q, s_rq_conn);
assign s_rq_ready = !rst && !flushing_q[s_rq_conn] && !pop_q[s_rq_conn] && !ir_v_q
    && (!rq_open || rq_posted < RQ_DEPTH);
wire            rq_take = s_rq_valid && s_rq_ready;
wire            rq_we = rq_take && rq_open;
wire [CONN_W+SLOT-1:0] rq_wa = {s_rq_conn, rq_rtail[SLOT-1:0]};

/*
 * Segmentation S2
 */

wire [PW-1:0]   s2_tail = fpw(tail_q, s2_c_q);
wire [PW-1:0]   s2_seg = fpw(seg_q, s2_c_q);
wire [PW-1:0]   s2_lag = s2_tail - s2_seg;
wire [HW-1:0]   s2_handle = fhw(seqt_q, s2_c_q) - fzx(s2_lag);
wire [32:0]     s2_np = npkts(seg_len);
wire [SKW-1:0]  s2_k = segk_q[s2_c_q*SKW +: SKW];
wire [32:0]     s2_np1 = s2_np - 33'd1;
wire            s2_first = s2_k == {SKW{1'b0}};
wire            s2_last = {{33-SKW{1'b0}}, s2_k} == s2_np1;
wire            s_tx_valid = s2_v_q && fcs(cs_q, s2_c_q) == CS_OPEN;
wire            seg_hs = s_tx_valid && nt_s_tx_ready;

/*
 * TX path: T1, T2, TXQ, payload router
 */

wire [63:0]     t1_baddr = sqtx_rd[119:56];
wire [31:0]     t1_mlen = sqtx_rd[55:24];
wire [23:0]     t1_fpsn = sqtx_rd[23:0];
wire [23:0]     t1_k = t1_psn_q - t1_fpsn;
wire [32:0]     t1_np = npkts(t1_mlen);
wire            t1_kok = {9'd0, t1_k} < t1_np;
wire [31:0]     t1_off = {8'd0, t1_k} << LM;
wire [31:0]     t1_rem = t1_mlen - t1_off;
wire [LEN_W-1:0] t1_plen = (t1_mlen == 32'd0) ? {LEN_W{1'b0}} :
    (t1_rem > MTU ? MTU_L : t1_rem[LEN_W-1:0]);
wire [PW-1:0]   t1_used = fpw(tail_q, t1_c_q) - fpw(head_q, t1_c_q);
wire [HW-1:0]   t1_seqh = fhw(seqt_q, t1_c_q) - fzx(t1_used);
wire [HW-1:0]   t1_rel = t1_h_q - t1_seqh;
wire            t1_outst = t1_rel < fzx(t1_used);
wire            t1_ok = fcs(cs_q, t1_c_q) == CS_OPEN && t1_outst && t1_kok;

wire [TXQ_W:0]  txq_fill = txq_wp_q - txq_pp_q;
wire            txq_room = txq_fill != TXQ_DEPTH;
wire            t2_rd = t2_plen_q != {LEN_W{1'b0}};
assign m_dma_rd_desc_valid = t2_v_q && t2_rd && txq_room && !rd_out_q[rd_tag_q];
assign m_dma_rd_desc_addr = t2_addr_q;
assign m_dma_rd_desc_len = {{DMA_LEN_WIDTH-LEN_W{1'b0}}, t2_plen_q};
assign m_dma_rd_desc_tag = rd_tag_q;
wire            rd_hs = m_dma_rd_desc_valid && m_dma_rd_desc_ready;
wire            t2_move = t2_v_q && txq_room && (t2_rd ? rd_hs : 1'b1);
wire            t1_move = t1_v_q && (!t1_ok || !t2_v_q || t2_move);
wire            t2_load = t1_v_q && t1_ok && (!t2_v_q || t2_move);
assign pkt_ready = (!t1_v_q || t1_move) && txb_q < TXB_MAX;
wire            pkt_hs = pkt_valid && pkt_ready;

// TXQ head (descriptor pointer) and payload pointer entries
wire [TXQ_E-1:0] txq_d = txq_mem[txq_dp_q[TXQ_W-1:0]];
// entry layout, high to low: conn, path, pseq, handle, plen, psn, entropy, off, first, last,
// ack_req, gen
wire [CONN_W-1:0]     qd_c = txq_d[TXQ_E-1 -: CONN_W];
wire [PATH_W-1:0]     qd_path = txq_d[TXQ_E-CONN_W-1 -: PATH_W];
wire [PSEQ_WIDTH-1:0] qd_pseq = txq_d[TXQ_E-CONN_W-PATH_W-1 -: PSEQ_WIDTH];
wire [HW-1:0]         qd_h = txq_d[LEN_W+83 +: HW];
wire [LEN_W-1:0]      qd_plen = txq_d[83 +: LEN_W];
wire [23:0]           qd_psn = txq_d[59 +: 24];
wire [15:0]           qd_ent = txq_d[43 +: 16];
wire [31:0]           qd_off = txq_d[11 +: 32];
wire                  qd_first = txq_d[10];
wire                  qd_last = txq_d[9];
wire                  qd_areq = txq_d[8];
wire [GEN_W-1:0]      qd_gen = txq_d[7:0];
wire            txq_has = txq_dp_q != txq_wp_q;
wire            qd_cur = qd_gen == fgen(gen_q, qd_c) && fcs(cs_q, qd_c) == CS_OPEN;
assign tx_s_pkt_valid = txq_has && qd_cur;
wire            pktq_hs = tx_s_pkt_valid && tx_s_pkt_ready;
wire            txq_dmove = pktq_hs || (txq_has && !qd_cur);
wire [LEN_W-1:0] qp_plen = txq_plen[txq_pp_q[TXQ_W-1:0]];
wire            qp_drop = txq_drop_q[txq_pp_q[TXQ_W-1:0]];
wire            qp_passed = txq_pp_q != txq_dp_q;
wire            qp_skip = qp_passed && qp_plen == {LEN_W{1'b0}};
wire            rt_act = qp_passed && qp_plen != {LEN_W{1'b0}};
assign tx_s_pay_tvalid = rt_act && !qp_drop && s_axis_dma_rd_tvalid;
assign s_axis_dma_rd_tready = !rst && rt_act && (qp_drop || tx_s_pay_tready);
wire            pay_last = s_axis_dma_rd_tvalid && s_axis_dma_rd_tready && s_axis_dma_rd_tlast;
wire            txq_pmove = qp_skip || pay_last;
// payload beats of T2 and TXQ: + T1's packet at T2's load, - the router's entry at its end
wire [LEN_W:0]  t1_bsum = {1'b0, t1_plen} + K_M1;
wire [LEN_W:0]  qp_bsum = {1'b0, qp_plen} + K_M1;
wire [LEN_W:0]  t1_beats = t1_bsum >> KL;
wire [LEN_W:0]  qp_beats = qp_bsum >> KL;
wire [BW-1:0]   txb_add = t2_load ? {{TXQ_W{1'b0}}, t1_beats} : {BW{1'b0}};
wire [BW-1:0]   txb_sub = txq_pmove ? {{TXQ_W{1'b0}}, qp_beats} : {BW{1'b0}};

/*
 * Read status: the cycle after a status, its rdtag_mem entry
 */

wire [CONN_W-1:0] rs_c = rdtag_rd[HW+GEN_W +: CONN_W];
wire [HW-1:0]     rs_h = rdtag_rd[GEN_W +: HW];
wire [GEN_W-1:0]  rs_g = rdtag_rd[GEN_W-1:0];
wire            rd_err_evt = rs_v_q && rs_err_q;
wire            rd_err_hit = rd_err_evt && rs_g == fgen(gen_q, rs_c)
    && fcs(cs_q, rs_c) == CS_OPEN;

/*
 * RX check: C1 (take, RAM reads), C2 (peer and posted-receive checks)
 */

// C2 decision
wire [47:0]     c2_pmac = c2_fwd_q ? c2_fmac_q : peer_rd[80:33];
wire            c2_pchk = c2_fwd_q ? c2_fchk_q : peer_rd[32];
wire [31:0]     c2_pip = c2_fwd_q ? c2_fip_q : peer_rd[31:0];
wire            c2_closed = fcs(cs_q, c2_c_q) != CS_OPEN;
wire            c2_bad_ip = !c2_closed && c2_sip_q != c2_pip;
wire            c2_bad_mac = !c2_closed && !c2_bad_ip && c2_pchk && c2_smac_q != c2_pmac;
wire            c2_peer_ok = !c2_closed && !c2_bad_ip && !c2_bad_mac;
wire [HW-1:0]   c2_d = c2_h_q - fhw(rh_q, c2_c_q);
wire            c2_behind = c2_d[HW-1];
wire [63:0]     c2_eaddr = rqchk_rd[95:32];
wire [31:0]     c2_elen = rqchk_rd[31:0];
wire [32:0]     c2_end = {1'b0, c2_off_q} + {{33-LEN_W{1'b0}}, c2_len_q};
wire            c2_nobuf = c2_peer_ok && !c2_ack_q && !c2_behind && c2_nobuf_q;
wire            c2_overrun = c2_peer_ok && !c2_ack_q && !c2_behind && !c2_nobuf_q
    && c2_end > {1'b0, c2_elen};
wire            c2_pass = c2_peer_ok && !c2_nobuf && !c2_overrun;
wire            nt_s_rx_valid = c2_v_q && !c2_ack_q && c2_pass;
wire            nt_s_ack_valid = c2_v_q && c2_ack_q && c2_pass;
wire            c2_move = c2_v_q && (!c2_pass || (c2_ack_q ? nt_s_ack_ready : nt_s_rx_ready));
wire            v_load = c2_move && !c2_ack_q;
wire [SLOT-1:0] c2_slot = fslot(rhead_q, c2_c_q) + c2_d[SLOT-1:0];

// C1
wire            c2_free = !c2_v_q || c2_move;
wire            c1_sel_ack = mack_valid && (!mrx_valid || !c1_ack_last_q);
assign mrx_ready = c2_free && !c1_sel_ack;
assign mack_ready = c2_free && c1_sel_ack;
wire            c1_rx = mrx_valid && mrx_ready;
wire            c1_ack = mack_valid && mack_ready;
wire [CONN_W-1:0] c1_c = c1_sel_ack ? mack_conn : mrx_conn;
wire [HW-1:0]   c1_d = mrx_handle - fhw(rh_q, mrx_conn);
wire [PW-1:0]   c1_posted = fpw(rtail_q, mrx_conn) - fpw(rhead_q, mrx_conn);
wire            c1_nobuf = !c1_d[HW-1] && c1_d >= fzx(c1_posted);
wire [SLOT-1:0] c1_slot = fslot(rhead_q, mrx_conn) + c1_d[SLOT-1:0];

/*
 * Verdict stage V
 */

wire            v_write = v_v_q && v_passed_q && nt_rxv_valid && nt_rxv_code == 3'd0;
wire            paq_push = v_v_q && v_len_q != {LEN_W{1'b0}};
wire            rqlen_we = v_write && v_last_q;

/*
 * PAQ issue and data pointers
 */

wire [PAQ_E-1:0]  pi_e = paq_mem[iss_q[PAQ_W-1:0]];
wire [CONN_W-1:0] pi_c = pi_e[PAQ_E-1 -: CONN_W];
wire [GEN_W-1:0]  pi_gen = pi_e[PAQ_E-CONN_W-1 -: GEN_W];
wire [SLOT-1:0]   pi_slot = pi_e[64+LEN_W +: SLOT];
wire [SEQ_W-1:0]  pi_age = iss_q - rr_q;
wire            pi_first = iss_q != push_q && pi_age < 256 && !iss_hold_q;
wire            pi_dec = paq_wr_q[iss_q[PAQ_W-1:0]] && pi_gen == fgen(gen_q, pi_c)
    && fcs(cs_q, pi_c) == CS_OPEN;
assign m_dma_wr_desc_valid = iss_hold_q || (pi_first && pi_dec);
assign m_dma_wr_desc_addr = pi_e[LEN_W +: 64];
assign m_dma_wr_desc_len = {{DMA_LEN_WIDTH-LEN_W{1'b0}}, pi_e[LEN_W-1:0]};
assign m_dma_wr_desc_tag = iss_q[7:0];
wire            wd_hs = m_dma_wr_desc_valid && m_dma_wr_desc_ready;
wire            iss_move = wd_hs || (pi_first && !pi_dec);

wire            pd_act = dptr_q != iss_q;
wire            pd_wr = paq_wr_q[dptr_q[PAQ_W-1:0]];
assign rx_m_tready = !rst && pd_act && (!pd_wr || m_axis_dma_wr_tready);
assign m_axis_dma_wr_tvalid = pd_act && pd_wr && rx_m_tvalid;
assign m_axis_dma_wr_tdata = rx_m_tdata;
assign m_axis_dma_wr_tkeep = rx_m_tkeep;
assign m_axis_dma_wr_tlast = rx_m_tlast;
wire            pd_move = rx_m_tvalid && rx_m_tready && rx_m_tlast;

/*
 * Ledger
 */

wire            wr_err_evt = s_dma_wr_sts_valid && s_dma_wr_sts_error != 4'd0;
wire            rt_go = done_q[ret_q[7:0]] && ret_q != iss_q;
wire [CONN_W-1:0] lr_c = led_rd[SLOT+GEN_W +: CONN_W];
wire [SLOT-1:0]   lr_slot = led_rd[GEN_W +: SLOT];
wire [GEN_W-1:0]  lr_gen = led_rd[GEN_W-1:0];
wire            rt_seterr = rt_v_q && rt_err_q && lr_gen == fgen(gen_q, lr_c);

/*
 * Receive completion unit: release, E2
 */

wire [CONN_W-1:0] rl_c = nt_cpl_conn;
wire [PW-1:0]   rl_rel = fpw(rel_q, rl_c);
wire            rl_hit = nt_cpl_valid && nt_cpl_last && fcs(cs_q, rl_c) == CS_OPEN
    && nt_cpl_handle == fhw(rh_q, rl_c) + fzx(rl_rel);
wire [SLOT-1:0] rl_slot = fslot(rhead_q, rl_c) + rl_rel[SLOT-1:0];
// E2 holds the entry it read (the flush engine may read rq_id_mem while E2 waits)
wire [31:0]     e2_id = e2_fresh_q ? rqid_rd : e2_id_h_q;
wire [31:0]     e2_len = e2_fresh_q ? rqlen_rd : e2_len_h_q;
wire [SEQ_W-1:0] e2_w = e2_fresh_q ? rqw_rd : e2_w_h_q;
wire [SEQ_W-1:0] e2_rw = rr_q - e2_w;
wire            e2_due = e2_v_q && !e2_rw[SEQ_W-1];
wire [SLOT-1:0] e2_rhead = fslot(rhead_q, e2_c_q);
wire [15:0]     e2_rqe = rqe_q[e2_c_q*16 +: 16];
wire            e2_derr = e2_rqe[e2_rhead];

/*
 * Send walker W2
 */

wire [87:0]     w2_e = w2_fresh_q ? sqcpl_rd : w2_h_q;
wire [23:0]     w2_una = una_q[w2_c_q*24 +: 24];
// una >= end_psn: (una - end_psn) read as a signed 24-bit number >= 0
wire            w2_ge = (w2_una - w2_e[23:0]) < 24'h800000;
wire            w2_due = w2_v_q && w2_ge;
wire            w2_nodue = w2_v_q && !w2_ge;

/*
 * Flush engine offer
 */

wire            fl_sq = fl_st_q == FL_SQ;
wire            fl_rq = fl_st_q == FL_RQ;
wire            fl_offer = fl_dv_q && (fl_sq || fl_rq);
wire [SLOT-1:0] fl_slot = fl_ptr_q[SLOT-1:0];
wire [3:0]      fl_kind_st = fkind_q[fl_c_q] ? ST_CONN_ERROR : ST_CLOSED;
wire [15:0]     fl_sqd = sqd_q[fl_c_q*16 +: 16];
wire [3:0]      fl_sq_st = fl_sqd[fl_slot] ? ST_DMA_ERROR :
    ({1'b0, sqcpl_rd[55:24]} > MAX_MSG ? ST_TOO_LONG : fl_kind_st);

/*
 * Completion arbiter: sources 0 walker, 1 RCU, 2 flush, 3 imm_wr, 4 imm_rq
 */

wire [4:0]      arb_req = {ir_v_q, iw_v_q, fl_offer, e2_due, w2_due};
wire            arb_load = !cpl_v_q || m_cpl_ready;
reg  [2:0]      arb_g;
reg             arb_any;
reg  [2:0]      arb_k;
reg  [3:0]      arb_t;
integer         ia;
always @* begin
    arb_any = 1'b0;
    arb_g = 3'd0;
    for (ia = 1; ia <= 5; ia = ia + 1) begin
        arb_t = {1'b0, arb_last_q} + ia[3:0];
        arb_k = arb_t >= 4'd5 ? arb_t[2:0] - 3'd5 : arb_t[2:0];
        if (!arb_any && arb_req[arb_k]) begin
            arb_any = 1'b1;
            arb_g = arb_k;
        end
    end
end
wire            arb_gnt = arb_load && arb_any;
wire            w2_take = arb_gnt && arb_g == 3'd0;
wire            e2_take = arb_gnt && arb_g == 3'd1;
wire            fl_take = arb_gnt && arb_g == 3'd2;
wire            iw_take = arb_gnt && arb_g == 3'd3;
wire            ir_take = arb_gnt && arb_g == 3'd4;
// W2 not due (pend cleared) is done as well: W1 may load in that cycle
wire            w2_done = w2_take || w2_nodue;
assign m_cpl_valid = cpl_v_q;
assign m_cpl_recv = cpl_recv_q;
assign m_cpl_conn = cpl_c_q;
assign m_cpl_id = cpl_id_q;
assign m_cpl_len = cpl_len_q;
assign m_cpl_status = cpl_st_q;
wire            cpl_hs = cpl_v_q && m_cpl_ready;

/*
 * Control unit: s_ctl sources (cmd pulse, deferred open, internal close), conn_err
 */

// the cmd pulse owns s_ctl in its cycle (also an open deferred by a flush, which sends nothing)
reg             dop_any, icp_any, cep_any;
reg [CONN_W-1:0] dop_c, icp_c, cep_c;
integer         ic;
always @* begin
    dop_any = 1'b0;
    icp_any = 1'b0;
    cep_any = 1'b0;
    dop_c = {CONN_W{1'b0}};
    icp_c = {CONN_W{1'b0}};
    cep_c = {CONN_W{1'b0}};
    // several waiting: the lowest connection first
    for (ic = CONNS - 1; ic >= 0; ic = ic - 1) begin
        if (pop_q[ic] && !flr_q[ic] && !icr_q[ic]) begin
            dop_any = 1'b1;
            dop_c = ic[CONN_W-1:0];
        end
        if (icr_q[ic]) begin
            icp_any = 1'b1;
            icp_c = ic[CONN_W-1:0];
        end
        if (cer_q[ic]) begin
            cep_any = 1'b1;
            cep_c = ic[CONN_W-1:0];
        end
    end
end
// "not flushing" for an open: at the start of the cycle (a flush ending now defers it a cycle)
wire            cmd_now = cmd_valid && (!cmd_open || !flushing_q[cmd_conn]);
wire            dop_send = !cmd_valid && dop_any;
wire            icp_send = !cmd_valid && !dop_any && icp_any;
assign nt_s_ctl_valid = cmd_now || dop_send || icp_send;
assign nt_s_ctl_open = cmd_valid ? cmd_open : dop_send;
assign nt_s_ctl_conn = cmd_valid ? cmd_conn : (dop_send ? dop_c : icp_c);
assign nt_s_ctl_tx_psn = cmd_valid ? cmd_tx_psn : potx_q[dop_c*24 +: 24];
assign nt_s_ctl_rx_psn = cmd_valid ? cmd_rx_psn : porx_q[dop_c*24 +: 24];
wire            merr_open = nt_err_valid && fcs(cs_q, nt_err_conn) == CS_OPEN;
wire            cep_send = !merr_open && cep_any;
wire            conn_err_valid = merr_open || cep_send;
wire [CONN_W-1:0] conn_err_conn = merr_open ? nt_err_conn : cep_c;

/*
 * Per-connection next state, in the same-cycle order of docs/nic_roce_rtl.md ("Control unit"):
 * intake, segmentation handshake, walker/RCU/arbiter take (and the flush end), m_cpl release,
 * retire error, error, close/open; a later step overrides an earlier one.
 */

// flush engine progress this cycle (computed below, used here)
wire            fl_end;
// connections whose W2/E2 entries are emptied (a close or error this cycle)
reg [CONNS-1:0] kill;
reg [PW-1:0]    t_pw;
reg [HW-1:0]    t_hw;
reg [SLOT-1:0]  t_slot;
reg             t_err, t_int;
integer         n;
reg [CONN_W-1:0] nc;
reg [15:0]      t16;

always @* begin
    cs_n = cs_q;
    gen_n = gen_q;
    head_n = head_q;
    seg_n = seg_q;
    tail_n = tail_q;
    seqt_n = seqt_q;
    segk_n = segk_q;
    apsn_n = apsn_q;
    una_n = una_q;
    pend_n = pend_q;
    sqd_n = sqd_q;
    rhead_n = rhead_q;
    rtail_n = rtail_q;
    rel_n = rel_q;
    rh_n = rh_q;
    rqe_n = rqe_q;
    flr_n = flr_q;
    fkind_n = fkind_q;
    pop_n = pop_q;
    potx_n = potx_q;
    porx_n = porx_q;
    icr_n = icr_q;
    cer_n = cer_q;
    kill = {CONNS{1'b0}};
    t_pw = {PW{1'b0}};
    t_hw = {HW{1'b0}};
    t_slot = {SLOT{1'b0}};
    t_err = 1'b0;
    t_int = 1'b0;
    nc = {CONN_W{1'b0}};
    t16 = 16'd0;
    for (n = 0; n < CONNS; n = n + 1) begin
        nc = n[CONN_W-1:0];
        // intake
        if (sq_we && s_wr_conn == nc) begin
            tail_n[n*PW +: PW] = tail_q[n*PW +: PW] + PW_ONE;
            seqt_n[n*HW +: HW] = seqt_q[n*HW +: HW] + HW_ONE;
            if (!wr_long) begin
                apsn_n[n*24 +: 24] = wr_epsn;
            end
        end
        if (rq_we && s_rq_conn == nc) begin
            rtail_n[n*PW +: PW] = rtail_q[n*PW +: PW] + PW_ONE;
        end
        // segmentation handshake
        if (seg_hs && s2_c_q == nc) begin
            if (s2_last) begin
                segk_n[n*SKW +: SKW] = {SKW{1'b0}};
                seg_n[n*PW +: PW] = seg_q[n*PW +: PW] + PW_ONE;
            end else begin
                segk_n[n*SKW +: SKW] = segk_q[n*SKW +: SKW] + {{SKW-1{1'b0}}, 1'b1};
            end
        end
        // walker, RCU, arbiter takes
        if (w2_take && w2_c_q == nc) begin
            head_n[n*PW +: PW] = head_q[n*PW +: PW] + PW_ONE;
        end
        if (w2_nodue && w2_c_q == nc) begin
            pend_n[n] = 1'b0;
        end
        if (nt_una_valid && nt_una_conn == nc) begin
            una_n[n*24 +: 24] = nt_una_psn;
            pend_n[n] = 1'b1;
        end
        if (e2_take && e2_c_q == nc) begin
            t_slot = rhead_q[n*PW +: SLOT];
            rhead_n[n*PW +: PW] = rhead_q[n*PW +: PW] + PW_ONE;
            rh_n[n*HW +: HW] = rh_q[n*HW +: HW] + HW_ONE;
            rel_n[n*PW +: PW] = rel_q[n*PW +: PW] - PW_ONE;
            t16 = rqe_n[n*16 +: 16];
            t16[t_slot] = 1'b0;
            rqe_n[n*16 +: 16] = t16;
        end
        // a flush entry taken: CONN_STATUS counts down
        if (fl_take && fl_c_q == nc) begin
            if (fl_rq) begin
                rhead_n[n*PW +: PW] = rhead_q[n*PW +: PW] + PW_ONE;
            end else begin
                head_n[n*PW +: PW] = head_q[n*PW +: PW] + PW_ONE;
            end
        end
        // flush end
        if (fl_end && fl_c_q == nc) begin
            head_n[n*PW +: PW] = {PW{1'b0}};
            seg_n[n*PW +: PW] = {PW{1'b0}};
            tail_n[n*PW +: PW] = {PW{1'b0}};
            rhead_n[n*PW +: PW] = {PW{1'b0}};
            rtail_n[n*PW +: PW] = {PW{1'b0}};
            rel_n[n*PW +: PW] = {PW{1'b0}};
            seqt_n[n*HW +: HW] = {HW{1'b0}};
            rh_n[n*HW +: HW] = {HW{1'b0}};
            segk_n[n*SKW +: SKW] = {SKW{1'b0}};
            pend_n[n] = 1'b0;
            sqd_n[n*16 +: 16] = 16'd0;
            rqe_n[n*16 +: 16] = 16'd0;
            flr_n[n] = 1'b0;
        end
        // m_cpl release
        if (rl_hit && rl_c == nc) begin
            rel_n[n*PW +: PW] = rel_n[n*PW +: PW] + PW_ONE;
        end
        // retire: error applied
        if (rt_seterr && lr_c == nc) begin
            t16 = rqe_n[n*16 +: 16];
            t16[lr_slot] = 1'b1;
            rqe_n[n*16 +: 16] = t16;
        end
        // control: s_ctl and conn_err sends
        if (icp_send && icp_c == nc) begin
            icr_n[n] = 1'b0;
        end
        if (cep_send && cep_c == nc) begin
            cer_n[n] = 1'b0;
        end
        // error (m_err, a request longer than MAX_MSG, a DMA read error) of an open connection
        t_int = (sq_we && wr_long && s_wr_conn == nc) || (rd_err_hit && rs_c == nc);
        t_err = (merr_open && nt_err_conn == nc) || t_int;
        if (t_err && cs_n[n*2 +: 2] == CS_OPEN) begin
            cs_n[n*2 +: 2] = CS_ERROR;
            gen_n[n*GEN_W +: GEN_W] = gen_n[n*GEN_W +: GEN_W] + 1'b1;
            flr_n[n] = 1'b1;
            fkind_n[n] = 1'b1;
            kill[n] = 1'b1;
            if (t_int) begin
                icr_n[n] = 1'b1;
                cer_n[n] = 1'b1;
            end
            if (rd_err_hit && rs_c == nc) begin
                // the handle is outstanding: rs_h - seq(head) < used
                t_pw = tail_n[n*PW +: PW] - head_n[n*PW +: PW];
                t_hw = rs_h - (seqt_n[n*HW +: HW] - fzx(t_pw));
                if (t_hw < fzx(t_pw)) begin
                    t16 = sqd_n[n*16 +: 16];
                    t16[rs_h[SLOT-1:0]] = 1'b1;
                    sqd_n[n*16 +: 16] = t16;
                end
            end
        end
        // close / open (cmd pulse), deferred open
        if (cmd_valid && cmd_conn == nc) begin
            if (!cmd_open) begin
                cs_n[n*2 +: 2] = CS_CLOSED;
                gen_n[n*GEN_W +: GEN_W] = gen_n[n*GEN_W +: GEN_W] + 1'b1;
                // a flush already running keeps its kind
                if (!(fl_st_q != FL_IDLE && fl_c_q == nc)) begin
                    fkind_n[n] = 1'b0;
                end
                flr_n[n] = 1'b1;
                pop_n[n] = 1'b0;
                icr_n[n] = 1'b0;
                cer_n[n] = 1'b0;
                kill[n] = 1'b1;
            end else if (!flushing_q[n]) begin
                cs_n[n*2 +: 2] = CS_OPEN;
                apsn_n[n*24 +: 24] = cmd_tx_psn;
                una_n[n*24 +: 24] = cmd_tx_psn;
            end else begin
                pop_n[n] = 1'b1;
                potx_n[n*24 +: 24] = cmd_tx_psn;
                porx_n[n*24 +: 24] = cmd_rx_psn;
            end
        end
        if (dop_send && dop_c == nc) begin
            cs_n[n*2 +: 2] = CS_OPEN;
            apsn_n[n*24 +: 24] = potx_q[n*24 +: 24];
            una_n[n*24 +: 24] = potx_q[n*24 +: 24];
            pop_n[n] = 1'b0;
        end
    end
end

wire [CONNS-1:0] flushing_n = flr_n | pop_n | icr_n;

/*
 * Picks (S1, W1, E1, flush): round-robin, on next-state removals, not this cycle's additions
 */

reg             s1_any, w1_any, e1_any, fp_any;
reg [CONN_W-1:0] s1_c, w1_c, e1_c, fp_c;
reg [CONN_W-1:0] p_k;
reg [PW-1:0]    p_rel;
integer         p;

always @* begin
    s1_any = 1'b0;
    w1_any = 1'b0;
    e1_any = 1'b0;
    fp_any = 1'b0;
    s1_c = {CONN_W{1'b0}};
    w1_c = {CONN_W{1'b0}};
    e1_c = {CONN_W{1'b0}};
    fp_c = {CONN_W{1'b0}};
    p_k = {CONN_W{1'b0}};
    p_rel = {PW{1'b0}};
    for (p = 0; p < CONNS; p = p + 1) begin
        p_k = (pkt_valid && !pkt_ready ? seg_fair_q : seg_rr_q) + p[CONN_W-1:0];
        if (!s1_any && cs_n[p_k*2 +: 2] == CS_OPEN && !flushing_n[p_k]
                && seg_n[p_k*PW +: PW] != tail_q[p_k*PW +: PW]) begin
            s1_any = 1'b1;
            s1_c = p_k;
        end
        p_k = w_rr_q + p[CONN_W-1:0];
        if (!w1_any && pend_q[p_k] && !(w2_nodue && w2_c_q == p_k)
                && cs_n[p_k*2 +: 2] == CS_OPEN && !flushing_n[p_k]
                && tail_q[p_k*PW +: PW] != head_n[p_k*PW +: PW]) begin
            w1_any = 1'b1;
            w1_c = p_k;
        end
        p_k = e_rr_q + p[CONN_W-1:0];
        p_rel = rel_q[p_k*PW +: PW] - ((e2_take && e2_c_q == p_k) ? PW_ONE : {PW{1'b0}});
        if (!e1_any && p_rel != {PW{1'b0}} && cs_n[p_k*2 +: 2] == CS_OPEN
                && !flushing_n[p_k]) begin
            e1_any = 1'b1;
            e1_c = p_k;
        end
        p_k = fl_rr_q + p[CONN_W-1:0];
        if (!fp_any && flr_n[p_k]) begin
            fp_any = 1'b1;
            fp_c = p_k;
        end
    end
end

// the flush engine uses sq_cpl_mem during its SQ phase and rq_id_mem during its RQ phase;
// W1's pend is next-state for W2's miss (a removal) but not for this cycle's m_una set (an
// addition; docs/nic_roce_rtl.md, latencies: m_una at t+3, W1 at t+4)
// W2 and E2 emptied by a close or error of their connection (a removal) may load in that cycle
wire            w1_go = w1_any && (!w2_v_q || w2_done || kill[w2_c_q]) && !fl_sq;
wire            e1_go = e1_any && (!e2_v_q || e2_take || kill[e2_c_q]) && !fl_rq;
wire [SLOT-1:0] w1_slot = head_n[w1_c*PW +: SLOT];
wire [SLOT-1:0] e1_slot = rhead_n[e1_c*PW +: SLOT];
wire [SLOT-1:0] s1_slot = seg_n[s1_c*PW +: SLOT];

/*
 * Flush engine step
 */

wire [PW-1:0]   fl_tail = fpw(tail_q, fl_c_q);
wire [PW-1:0]   fl_rhead = fpw(rhead_q, fl_c_q);
wire [PW-1:0]   fl_rtail = fpw(rtail_q, fl_c_q);
wire [PW-1:0]   fl_bound = fl_sq ? fl_tail : fl_rtail;
wire [PW-1:0]   fl_nptr = fl_ptr_q + PW_ONE;
// read the entry at fl_ptr (none held) or the next one (the held one taken)
wire            fl_rd_now = (fl_sq || fl_rq) && !fl_dv_q && fl_ptr_q != fl_bound;
wire            fl_rd_next = (fl_sq || fl_rq) && fl_take && fl_nptr != fl_bound;
wire            fl_rd = fl_rd_now || fl_rd_next;
wire [SLOT-1:0] fl_rptr = fl_dv_q ? fl_nptr[SLOT-1:0] : fl_ptr_q[SLOT-1:0];
wire            fl_sq_done = fl_sq && !fl_dv_q && fl_ptr_q == fl_tail;
wire [SEQ_W-1:0] fl_rw = rr_q - fl_wf_q;
assign fl_end = (fl_sq_done && fl_rhead == fl_rtail) || (fl_rq && !fl_dv_q && fl_ptr_q == fl_rtail);

/*
 * RAMs
 */

wire            c1_rd = c1_rx || c1_ack;
wire            sqcpl_rd_en = (fl_sq && fl_rd) || w1_go;
wire [CONN_W+SLOT-1:0] sqcpl_ra = fl_sq ? {fl_c_q, fl_rptr} : {w1_c, w1_slot};
wire            rqid_rd_en = (fl_rq && fl_rd) || e1_go;
wire [CONN_W+SLOT-1:0] rqid_ra = fl_rq ? {fl_c_q, fl_rptr} : {e1_c, e1_slot};

ram_sdp #(.ADDR_WIDTH(CONN_W+SLOT), .DATA_WIDTH(32))
sq_seg_mem (
    .clk(clk),
    .wr_en(sq_we), .wr_addr(sq_wa), .wr_data(s_wr_len),
    .rd_en(s1_any), .rd_addr({s1_c, s1_slot}), .rd_data(seg_len)
);

ram_sdp #(.ADDR_WIDTH(CONN_W+SLOT), .DATA_WIDTH(120))
sq_tx_mem (
    .clk(clk),
    .wr_en(sq_we), .wr_addr(sq_wa), .wr_data({s_wr_addr, s_wr_len, wr_fpsn}),
    .rd_en(pkt_hs), .rd_addr({pkt_conn, pkt_handle[SLOT-1:0]}), .rd_data(sqtx_rd)
);

ram_sdp #(.ADDR_WIDTH(CONN_W+SLOT), .DATA_WIDTH(88))
sq_cpl_mem (
    .clk(clk),
    .wr_en(sq_we), .wr_addr(sq_wa), .wr_data({s_wr_id, s_wr_len, wr_epsn}),
    .rd_en(sqcpl_rd_en), .rd_addr(sqcpl_ra), .rd_data(sqcpl_rd)
);

ram_sdp #(.ADDR_WIDTH(CONN_W+SLOT), .DATA_WIDTH(96))
rq_chk_mem (
    .clk(clk),
    .wr_en(rq_we), .wr_addr(rq_wa), .wr_data({s_rq_addr, s_rq_len}),
    .rd_en(c1_rx), .rd_addr({mrx_conn, c1_slot}), .rd_data(rqchk_rd)
);

ram_sdp #(.ADDR_WIDTH(CONN_W+SLOT), .DATA_WIDTH(32))
rq_id_mem (
    .clk(clk),
    .wr_en(rq_we), .wr_addr(rq_wa), .wr_data(s_rq_id),
    .rd_en(rqid_rd_en), .rd_addr(rqid_ra), .rd_data(rqid_rd)
);

ram_sdp #(.ADDR_WIDTH(CONN_W+SLOT), .DATA_WIDTH(32))
rq_len_mem (
    .clk(clk),
    .wr_en(rqlen_we), .wr_addr({v_c_q, v_slot_q}), .wr_data(v_mlen_q),
    .rd_en(e1_go), .rd_addr({e1_c, e1_slot}), .rd_data(rqlen_rd)
);

ram_sdp #(.ADDR_WIDTH(CONN_W+SLOT), .DATA_WIDTH(SEQ_W))
rq_w_mem (
    .clk(clk),
    .wr_en(rl_hit), .wr_addr({rl_c, rl_slot}), .wr_data(push_q),
    .rd_en(e1_go), .rd_addr({e1_c, e1_slot}), .rd_data(rqw_rd)
);

ram_sdp #(.ADDR_WIDTH(CONN_W), .DATA_WIDTH(81))
peer_mem (
    .clk(clk),
    .wr_en(cmd_valid && cmd_open), .wr_addr(cmd_conn),
    .wr_data({cmd_peer_mac, cmd_mac_check, cmd_peer_ip}),
    .rd_en(c1_rd), .rd_addr(c1_c), .rd_data(peer_rd)
);

ram_sdp #(.ADDR_WIDTH(8), .DATA_WIDTH(CONN_W+SLOT+GEN_W))
ledger_mem (
    .clk(clk),
    .wr_en(pi_first), .wr_addr(iss_q[7:0]), .wr_data({pi_c, pi_slot, pi_gen}),
    .rd_en(rt_go), .rd_addr(ret_q[7:0]), .rd_data(led_rd)
);

ram_sdp #(.ADDR_WIDTH(8), .DATA_WIDTH(CONN_W+HW+GEN_W))
rdtag_mem (
    .clk(clk),
    .wr_en(rd_hs), .wr_addr(rd_tag_q), .wr_data({t2_c_q, t2_h_q, t2_gen_q}),
    .rd_en(s_dma_rd_sts_valid), .rd_addr(s_dma_rd_sts_tag), .rd_data(rdtag_rd)
);

/*
 * Counters, events, status words
 */

wire [13:0] cnt_inc = {
    wr_err_evt,                                     // CNT_DMA_WR_ERROR
    rd_err_evt,                                     // CNT_DMA_RD_ERROR
    cpl_hs && cpl_st_q != ST_OK,                    // CNT_CPL_ERROR
    cpl_hs && cpl_recv_q,                           // CNT_CPL_RECV
    cpl_hs && !cpl_recv_q,                          // CNT_CPL_SEND
    wr_take,                                        // CNT_WR_TAKEN
    nt_ack_valid && tx_s_ack_ready,                 // CNT_TX_ACK
    pktq_hs,                                        // CNT_TX_DATA
    c2_v_q && c2_overrun,                           // CNT_RX_OVERRUN
    c2_v_q && c2_nobuf,                             // CNT_RX_NO_BUFFER
    inc_disabled,                                   // CNT_DISABLED
    c2_v_q && c2_bad_mac,                           // CNT_PEER_MAC
    c2_v_q && c2_bad_ip,                            // CNT_PEER_IP
    c2_v_q && c2_closed                             // CNT_PEER_CLOSED
};

wire [NBASE*32-1:0] blk_raw = {rx_cnt, nt_cnt};
wire [NCNT*32-1:0]  cnt_in;
genvar g;
generate
    for (g = 0; g < NBASE; g = g + 1) begin : g_base
        assign cnt_in[g*32 +: 32] = blk_raw[g*32 +: 32] - base_q[g*32 +: 32];
    end
endgenerate
assign cnt_in[NCNT*32-1:NBASE*32] = cnt_q;

wire [CONNS-1:0] af_rise = nt_status_af & ~af_q;
wire [3:0]      ev_set = {rd_err_evt || wr_err_evt, c2_v_q && !c2_peer_ok,
    |af_rise, merr_open};

wire [32*CONNS-1:0] conn_info;
generate
    for (g = 0; g < CONNS; g = g + 1) begin : g_info
        assign conn_info[g*32 +: 32] = {10'd0,
            1'b0, rtail_q[g*PW +: PW] - rhead_q[g*PW +: PW], 2'd0,
            1'b0, tail_q[g*PW +: PW] - head_q[g*PW +: PW], 5'd0,
            nt_status_af[g], 2'd0};
    end
endgenerate

/*
 * Registers
 */

integer q;

always @(posedge clk) begin
    // enable gates
    if (!in_frame_q) begin
        gdrop_q <= !cfg_enable;
    end
    if (rx_beat) begin
        in_frame_q <= !s_axis_rx_tlast;
    end
    if (tx_beat) begin
        in_tx_q <= !tx_m_tlast;
    end
    tx_held_q <= m_axis_tx_tvalid && !m_axis_tx_tready;

    // per-connection state
    cs_q <= cs_n;
    gen_q <= gen_n;
    head_q <= head_n;
    seg_q <= seg_n;
    tail_q <= tail_n;
    seqt_q <= seqt_n;
    segk_q <= segk_n;
    apsn_q <= apsn_n;
    una_q <= una_n;
    pend_q <= pend_n;
    sqd_q <= sqd_n;
    rhead_q <= rhead_n;
    rtail_q <= rtail_n;
    rel_q <= rel_n;
    rh_q <= rh_n;
    rqe_q <= rqe_n;
    flr_q <= flr_n;
    fkind_q <= fkind_n;
    pop_q <= pop_n;
    potx_q <= potx_n;
    porx_q <= porx_n;
    icr_q <= icr_n;
    cer_q <= cer_n;

    // intake: completions of requests for connections not open
    if (iw_take) begin
        iw_v_q <= 1'b0;
    end
    if (wr_take && !wr_open) begin
        iw_v_q <= 1'b1;
        iw_c_q <= s_wr_conn;
        iw_id_q <= s_wr_id;
        iw_st_q <= wr_cs == CS_ERROR ? ST_CONN_ERROR : ST_CLOSED;
    end
    if (ir_take) begin
        ir_v_q <= 1'b0;
    end
    if (rq_take && !rq_open) begin
        ir_v_q <= 1'b1;
        ir_c_q <= s_rq_conn;
        ir_id_q <= s_rq_id;
        ir_st_q <= fcs(cs_q, s_rq_conn) == CS_ERROR ? ST_CONN_ERROR : ST_CLOSED;
    end

    // segmentation
    s2_v_q <= s1_any;
    if (s1_any) begin
        s2_c_q <= s1_c;
        seg_rr_q <= s1_c + 1'b1;
    end
    if (seg_hs) begin
        seg_fair_q <= s2_c_q + 1'b1;
    end

    // TX path
    if (pkt_hs) begin
        t1_v_q <= 1'b1;
        t1_c_q <= pkt_conn;
        t1_psn_q <= pkt_psn;
        t1_path_q <= pkt_path;
        t1_pseq_q <= pkt_pseq;
        t1_ent_q <= pkt_entropy;
        t1_h_q <= pkt_handle;
        t1_first_q <= pkt_first;
        t1_last_q <= pkt_last;
        t1_areq_q <= pkt_ack_req;
        t1_gen_q <= fgen(gen_q, pkt_conn);
    end else if (t1_move) begin
        t1_v_q <= 1'b0;
    end
    if (t2_load) begin
        t2_v_q <= 1'b1;
        t2_c_q <= t1_c_q;
        t2_psn_q <= t1_psn_q;
        t2_path_q <= t1_path_q;
        t2_pseq_q <= t1_pseq_q;
        t2_ent_q <= t1_ent_q;
        t2_h_q <= t1_h_q;
        t2_first_q <= t1_first_q;
        t2_last_q <= t1_last_q;
        t2_areq_q <= t1_areq_q;
        t2_gen_q <= t1_gen_q;
        t2_off_q <= t1_off;
        t2_plen_q <= t1_plen;
        t2_addr_q <= t1_baddr + {32'd0, t1_off};
    end else if (t2_move) begin
        t2_v_q <= 1'b0;
    end
    if (t2_move) begin
        txq_mem[txq_wp_q[TXQ_W-1:0]] <= {t2_c_q, t2_path_q, t2_pseq_q, t2_h_q, t2_plen_q,
            t2_psn_q, t2_ent_q, t2_off_q, t2_first_q, t2_last_q, t2_areq_q, t2_gen_q};
        txq_plen[txq_wp_q[TXQ_W-1:0]] <= t2_plen_q;
        txq_wp_q <= txq_wp_q + 1'b1;
    end
    if (txq_dmove) begin
        txq_drop_q[txq_dp_q[TXQ_W-1:0]] <= !pktq_hs;
        txq_dp_q <= txq_dp_q + 1'b1;
    end
    if (txq_pmove) begin
        txq_pp_q <= txq_pp_q + 1'b1;
    end
    txb_q <= txb_q + txb_add - txb_sub;
    if (rd_hs) begin
        rd_out_q[rd_tag_q] <= 1'b1;
        rd_tag_q <= rd_tag_q + 1'b1;
    end
    if (s_dma_rd_sts_valid) begin
        rd_out_q[s_dma_rd_sts_tag] <= 1'b0;
    end

    // read status
    rs_v_q <= s_dma_rd_sts_valid;
    rs_err_q <= s_dma_rd_sts_error != 4'd0;

    // RX check
    if (c1_rx || c1_ack) begin
        c1_ack_last_q <= c1_ack;
        c2_v_q <= 1'b1;
        c2_ack_q <= c1_ack;
        c2_c_q <= c1_c;
        c2_psn_q <= c1_ack ? mack_psn : mrx_psn;
        c2_path_q <= c1_ack ? mack_path : mrx_path;
        c2_pseq_q <= c1_ack ? mack_pseq : mrx_pseq;
        c2_ecn_q <= c1_ack ? mack_ecn : mrx_ecn;
        c2_smac_q <= c1_ack ? mack_src_mac : mrx_src_mac;
        c2_sip_q <= c1_ack ? mack_src_ip : mrx_src_ip;
        c2_first_q <= mrx_first;
        c2_last_q <= mrx_last;
        c2_areq_q <= mrx_ack_req;
        c2_h_q <= mrx_handle;
        c2_off_q <= mrx_offset;
        c2_len_q <= mrx_len;
        c2_nobuf_q <= c1_nobuf;
        c2_sack_q <= mack_sack;
        c2_nak_q <= mack_nak;
        // the peer registers of a connection opened in this cycle: from the command
        c2_fwd_q <= cmd_valid && cmd_open && cmd_conn == c1_c;
        c2_fmac_q <= cmd_peer_mac;
        c2_fchk_q <= cmd_mac_check;
        c2_fip_q <= cmd_peer_ip;
    end else if (c2_move) begin
        c2_v_q <= 1'b0;
    end

    // verdict stage
    v_v_q <= v_load;
    if (v_load) begin
        v_c_q <= c2_c_q;
        v_gen_q <= fgen(gen_q, c2_c_q);
        v_slot_q <= c2_slot;
        v_addr_q <= c2_eaddr + {32'd0, c2_off_q};
        v_len_q <= c2_len_q;
        v_last_q <= c2_last_q;
        v_mlen_q <= c2_end[31:0];
        v_passed_q <= c2_pass;
    end

    // PAQ and write engine
    if (paq_push) begin
        paq_mem[push_q[PAQ_W-1:0]] <= {v_c_q, v_gen_q, v_slot_q, v_addr_q, v_len_q};
        paq_wr_q[push_q[PAQ_W-1:0]] <= v_write;
        push_q <= push_q + SEQ_ONE;
    end
    if (pi_first) begin
        // the issue decision, once and for good; the ledger entry of the tag
        paq_wr_q[iss_q[PAQ_W-1:0]] <= pi_dec;
        done_q[iss_q[7:0]] <= !pi_dec;
        lerr_q[iss_q[7:0]] <= 1'b0;
    end
    iss_hold_q <= (iss_hold_q || (pi_first && pi_dec)) && !wd_hs;
    if (iss_move) begin
        iss_q <= iss_q + SEQ_ONE;
    end
    if (pd_move) begin
        dptr_q <= dptr_q + SEQ_ONE;
    end

    // ledger
    if (s_dma_wr_sts_valid) begin
        done_q[s_dma_wr_sts_tag] <= 1'b1;
        lerr_q[s_dma_wr_sts_tag] <= s_dma_wr_sts_error != 4'd0;
    end
    rt_v_q <= rt_go;
    rt_err_q <= lerr_q[ret_q[7:0]];
    if (rt_go) begin
        ret_q <= ret_q + SEQ_ONE;
    end
    if (rt_v_q) begin
        rr_q <= rr_q + SEQ_ONE;
    end

    // receive completion unit
    e2_fresh_q <= e1_go;
    if (e2_v_q) begin
        e2_id_h_q <= e2_id;
        e2_len_h_q <= e2_len;
        e2_w_h_q <= e2_w;
    end
    if (e1_go) begin
        e2_v_q <= 1'b1;
        e2_c_q <= e1_c;
        e_rr_q <= e1_c + 1'b1;
    end else if (e2_take || kill[e2_c_q]) begin
        e2_v_q <= 1'b0;
    end

    // send walker
    w2_fresh_q <= w1_go;
    if (w2_v_q) begin
        w2_h_q <= w2_e;
    end
    if (w1_go) begin
        w2_v_q <= 1'b1;
        w2_c_q <= w1_c;
        w_rr_q <= w1_c + 1'b1;
    end else if (w2_done || kill[w2_c_q]) begin
        w2_v_q <= 1'b0;
    end

    // completion arbiter
    if (arb_load) begin
        cpl_v_q <= arb_any;
    end
    if (arb_gnt) begin
        arb_last_q <= arb_g;
        case (arb_g)
            3'd0: begin
                cpl_recv_q <= 1'b0;
                cpl_c_q <= w2_c_q;
                cpl_id_q <= w2_e[87:56];
                cpl_len_q <= w2_e[55:24];
                cpl_st_q <= ST_OK;
            end
            3'd1: begin
                cpl_recv_q <= 1'b1;
                cpl_c_q <= e2_c_q;
                cpl_id_q <= e2_id;
                cpl_len_q <= e2_len;
                cpl_st_q <= e2_derr ? ST_DMA_ERROR : ST_OK;
            end
            3'd2: begin
                cpl_recv_q <= fl_rq;
                cpl_c_q <= fl_c_q;
                cpl_id_q <= fl_rq ? rqid_rd : sqcpl_rd[87:56];
                cpl_len_q <= 32'd0;
                cpl_st_q <= fl_rq ? fl_kind_st : fl_sq_st;
            end
            3'd3: begin
                cpl_recv_q <= 1'b0;
                cpl_c_q <= iw_c_q;
                cpl_id_q <= iw_id_q;
                cpl_len_q <= 32'd0;
                cpl_st_q <= iw_st_q;
            end
            default: begin
                cpl_recv_q <= 1'b1;
                cpl_c_q <= ir_c_q;
                cpl_id_q <= ir_id_q;
                cpl_len_q <= 32'd0;
                cpl_st_q <= ir_st_q;
            end
        endcase
    end

    // flush engine
    case (fl_st_q)
        FL_IDLE: begin
            if (fp_any) begin
                fl_st_q <= FL_SQ;
                fl_c_q <= fp_c;
                fl_rr_q <= fp_c + 1'b1;
                fl_ptr_q <= fpw(head_n, fp_c);
                fl_dv_q <= 1'b0;
            end
        end
        FL_WAIT: begin
            if (!fl_rw[SEQ_W-1]) begin
                fl_st_q <= FL_RQ;
            end
        end
        default: begin
            if (fl_rd_now) begin
                fl_dv_q <= 1'b1;
            end else if (fl_take) begin
                fl_ptr_q <= fl_nptr;
                fl_dv_q <= fl_rd_next;
            end
            if (fl_end) begin
                fl_st_q <= FL_IDLE;
            end else if (fl_sq_done) begin
                // RQ phase: wait until every write pushed before it has its status
                fl_st_q <= FL_WAIT;
                fl_wf_q <= push_q;
                fl_ptr_q <= fl_rhead;
            end
        end
    endcase

    // events, counters
    af_q <= nt_status_af;
    // at cnt_clear (the response cycle) a counter goes to 0 without this cycle's event; a base
    // takes the block counter's start-of-cycle value
    for (q = 0; q < 14; q = q + 1) begin
        cnt_q[q*32 +: 32] <= cnt_clear ? 32'd0 : cnt_q[q*32 +: 32] + {31'd0, cnt_inc[q]};
    end
    if (cnt_clear) begin
        base_q <= blk_raw;
    end

    if (rst) begin
        gdrop_q <= 1'b0;
        in_frame_q <= 1'b0;
        in_tx_q <= 1'b0;
        tx_held_q <= 1'b0;
        cs_q <= {2*CONNS{1'b0}};
        gen_q <= {GEN_W*CONNS{1'b0}};
        head_q <= {PW*CONNS{1'b0}};
        seg_q <= {PW*CONNS{1'b0}};
        tail_q <= {PW*CONNS{1'b0}};
        seqt_q <= {HW*CONNS{1'b0}};
        segk_q <= {SKW*CONNS{1'b0}};
        apsn_q <= {24*CONNS{1'b0}};
        una_q <= {24*CONNS{1'b0}};
        pend_q <= {CONNS{1'b0}};
        sqd_q <= {16*CONNS{1'b0}};
        rhead_q <= {PW*CONNS{1'b0}};
        rtail_q <= {PW*CONNS{1'b0}};
        rel_q <= {PW*CONNS{1'b0}};
        rh_q <= {HW*CONNS{1'b0}};
        rqe_q <= {16*CONNS{1'b0}};
        flr_q <= {CONNS{1'b0}};
        fkind_q <= {CONNS{1'b0}};
        pop_q <= {CONNS{1'b0}};
        potx_q <= {24*CONNS{1'b0}};
        porx_q <= {24*CONNS{1'b0}};
        icr_q <= {CONNS{1'b0}};
        cer_q <= {CONNS{1'b0}};
        iw_v_q <= 1'b0;
        ir_v_q <= 1'b0;
        s2_v_q <= 1'b0;
        seg_rr_q <= {CONN_W{1'b0}};
        seg_fair_q <= {CONN_W{1'b0}};
        t1_v_q <= 1'b0;
        t2_v_q <= 1'b0;
        txq_drop_q <= {TXQ_DEPTH{1'b0}};
        txq_wp_q <= {TXQ_W+1{1'b0}};
        txb_q <= {BW{1'b0}};
        txq_dp_q <= {TXQ_W+1{1'b0}};
        txq_pp_q <= {TXQ_W+1{1'b0}};
        rd_tag_q <= 8'd0;
        rd_out_q <= 256'd0;
        rs_v_q <= 1'b0;
        rs_err_q <= 1'b0;
        c1_ack_last_q <= 1'b0;
        c2_v_q <= 1'b0;
        v_v_q <= 1'b0;
        paq_wr_q <= {PAQ_DEPTH{1'b0}};
        push_q <= {SEQ_W{1'b0}};
        iss_q <= {SEQ_W{1'b0}};
        dptr_q <= {SEQ_W{1'b0}};
        ret_q <= {SEQ_W{1'b0}};
        rr_q <= {SEQ_W{1'b0}};
        iss_hold_q <= 1'b0;
        done_q <= 256'd0;
        lerr_q <= 256'd0;
        rt_v_q <= 1'b0;
        rt_err_q <= 1'b0;
        e2_v_q <= 1'b0;
        e_rr_q <= {CONN_W{1'b0}};
        e2_fresh_q <= 1'b0;
        w2_v_q <= 1'b0;
        w_rr_q <= {CONN_W{1'b0}};
        w2_fresh_q <= 1'b0;
        cpl_v_q <= 1'b0;
        arb_last_q <= 3'd0;
        fl_st_q <= FL_IDLE;
        fl_c_q <= {CONN_W{1'b0}};
        fl_ptr_q <= {PW{1'b0}};
        fl_dv_q <= 1'b0;
        fl_wf_q <= {SEQ_W{1'b0}};
        fl_rr_q <= {CONN_W{1'b0}};
        af_q <= {CONNS{1'b0}};
        cnt_q <= {14*32{1'b0}};
        base_q <= {NBASE*32{1'b0}};
    end
end

/*
 * Blocks
 */

// ACK out: E0(c, path) entropy; idx = (c*PATHS + path) mod 2^14
localparam IDX_W = CONN_W + PATH_W;
wire [IDX_W+13:0] ack_idx_wide = {{14{1'b0}}, nt_ack_conn, nt_ack_path};

// every ready of the top is 0 in the reset cycle, the CSR's AXI4-Lite readies too
wire                    csr_awready, csr_wready, csr_arready;
assign s_axil_awready = csr_awready && !rst;
assign s_axil_wready = csr_wready && !rst;
assign s_axil_arready = csr_arready && !rst;

nic_roce_csr #(
    .CONNS(CONNS),
    .PATHS(PATHS),
    .MTU(MTU),
    .DATA_WIDTH(DATA_WIDTH)
)
csr_inst (
    .clk(clk),
    .rst(rst),
    .s_axil_awaddr(s_axil_awaddr),
    .s_axil_awprot(s_axil_awprot),
    .s_axil_awvalid(s_axil_awvalid),
    .s_axil_awready(csr_awready),
    .s_axil_wdata(s_axil_wdata),
    .s_axil_wstrb(s_axil_wstrb),
    .s_axil_wvalid(s_axil_wvalid),
    .s_axil_wready(csr_wready),
    .s_axil_bresp(s_axil_bresp),
    .s_axil_bvalid(s_axil_bvalid),
    .s_axil_bready(s_axil_bready),
    .s_axil_araddr(s_axil_araddr),
    .s_axil_arprot(s_axil_arprot),
    .s_axil_arvalid(s_axil_arvalid),
    .s_axil_arready(csr_arready),
    .s_axil_rdata(s_axil_rdata),
    .s_axil_rresp(s_axil_rresp),
    .s_axil_rvalid(s_axil_rvalid),
    .s_axil_rready(s_axil_rready),
    .cfg_enable(cfg_enable),
    .cfg_local_mac(cfg_local_mac),
    .cfg_local_ip(cfg_local_ip),
    .cfg_dscp(cfg_dscp),
    .cfg_ttl(cfg_ttl),
    .cmd_valid(cmd_valid),
    .cmd_open(cmd_open),
    .cmd_conn(cmd_conn),
    .cmd_peer_mac(cmd_peer_mac),
    .cmd_mac_check(cmd_mac_check),
    .cmd_peer_ip(cmd_peer_ip),
    .cmd_peer_qpn(cmd_peer_qpn),
    .cmd_tx_psn(cmd_tx_psn),
    .cmd_rx_psn(cmd_rx_psn),
    .conn_state(csr_conn_state),
    .conn_err_valid(conn_err_valid),
    .conn_err_conn(conn_err_conn),
    .conn_info(conn_info),
    .cnt_in(cnt_in),
    .cnt_clear(cnt_clear),
    .path_conn(path_conn),
    .path_path(path_path),
    .path_status({4'd0, nt_rd_cwnd, nt_rd_inflight, 5'd0, nt_rd_all_failed, nt_rd_state}),
    .path_entropy(nt_rd_entropy),
    .path_counts({nt_rd_decisions, nt_rd_losses}),
    .ev_set(ev_set),
    .irq(irq)
);

roce_rx #(
    .DATA_WIDTH(DATA_WIDTH),
    .CONNS(CONNS),
    .PATHS(PATHS),
    .QPN_BASE(QPN_BASE),
    .MTU(MTU),
    .SACK_BITS(SACK_BITS),
    .PSN_WIDTH(PSN_WIDTH),
    .PSEQ_WIDTH(PSEQ_WIDTH),
    .HANDLE_WIDTH(HANDLE_WIDTH)
)
roce_rx_inst (
    .clk(clk),
    .rst(rst),
    .s_axis_tdata(s_axis_rx_tdata),
    .s_axis_tkeep(s_axis_rx_tkeep),
    .s_axis_tvalid(rx_s_tvalid),
    .s_axis_tready(rx_s_tready),
    .s_axis_tlast(s_axis_rx_tlast),
    .s_axis_tuser(s_axis_rx_tuser),
    .m_axis_tdata(rx_m_tdata),
    .m_axis_tkeep(rx_m_tkeep),
    .m_axis_tvalid(rx_m_tvalid),
    .m_axis_tready(rx_m_tready),
    .m_axis_tlast(rx_m_tlast),
    .m_rx_valid(mrx_valid),
    .m_rx_ready(mrx_ready),
    .m_rx_conn(mrx_conn),
    .m_rx_psn(mrx_psn),
    .m_rx_path(mrx_path),
    .m_rx_pseq(mrx_pseq),
    .m_rx_first(mrx_first),
    .m_rx_last(mrx_last),
    .m_rx_ack_req(mrx_ack_req),
    .m_rx_ecn(mrx_ecn),
    .m_rx_handle(mrx_handle),
    .m_rx_offset(mrx_offset),
    .m_rx_len(mrx_len),
    .m_rx_src_mac(mrx_src_mac),
    .m_rx_src_ip(mrx_src_ip),
    .m_ack_valid(mack_valid),
    .m_ack_ready(mack_ready),
    .m_ack_conn(mack_conn),
    .m_ack_psn(mack_psn),
    .m_ack_path(mack_path),
    .m_ack_pseq(mack_pseq),
    .m_ack_sack(mack_sack),
    .m_ack_ecn(mack_ecn),
    .m_ack_nak(mack_nak),
    .m_ack_has_sack(mack_has_sack),
    .m_ack_src_mac(mack_src_mac),
    .m_ack_src_ip(mack_src_ip),
    .cnt_data(rx_cnt[0*32 +: 32]),
    .cnt_ack(rx_cnt[1*32 +: 32]),
    .cnt_not_roce(rx_cnt[2*32 +: 32]),
    .cnt_truncated(rx_cnt[3*32 +: 32]),
    .cnt_invalid(rx_cnt[4*32 +: 32]),
    .cnt_unknown_opcode(rx_cnt[5*32 +: 32]),
    .cnt_bad_icrc(rx_cnt[6*32 +: 32]),
    .cnt_limit(rx_cnt[7*32 +: 32]),
    .cnt_mac_error(rx_cnt[8*32 +: 32])
);

nic_transport #(
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
    .ACK_REQ_TICKS(ACK_REQ_TICKS),
    .EARLY_CYCLES(EARLY_CYCLES)
)
nic_transport_inst (
    .clk(clk),
    .rst(rst),
    .s_tx_valid(s_tx_valid),
    .s_tx_ready(nt_s_tx_ready),
    .s_tx_conn(s2_c_q),
    .s_tx_handle(s2_handle),
    .s_tx_first(s2_first),
    .s_tx_last(s2_last),
    .s_ctl_valid(nt_s_ctl_valid),
    .s_ctl_ready(nt_s_ctl_ready),
    .s_ctl_open(nt_s_ctl_open),
    .s_ctl_conn(nt_s_ctl_conn),
    .s_ctl_tx_psn(nt_s_ctl_tx_psn),
    .s_ctl_rx_psn(nt_s_ctl_rx_psn),
    .m_cpl_valid(nt_cpl_valid),
    .m_cpl_ready(1'b1),
    .m_cpl_conn(nt_cpl_conn),
    .m_cpl_psn(nt_cpl_psn),
    .m_cpl_first(nt_cpl_first),
    .m_cpl_last(nt_cpl_last),
    .m_cpl_handle(nt_cpl_handle),
    .m_rxv_valid(nt_rxv_valid),
    .m_rxv_conn(nt_rxv_conn),
    .m_rxv_psn(nt_rxv_psn),
    .m_rxv_code(nt_rxv_code),
    .m_una_valid(nt_una_valid),
    .m_una_conn(nt_una_conn),
    .m_una_psn(nt_una_psn),
    .m_err_valid(nt_err_valid),
    .m_err_conn(nt_err_conn),
    .m_status_all_failed(nt_status_all_failed),
    .m_status_conn(nt_status_conn),
    .m_status_af(nt_status_af),
    .rd_conn(path_conn),
    .rd_path(path_path),
    .rd_state(nt_rd_state),
    .rd_cwnd(nt_rd_cwnd),
    .rd_inflight(nt_rd_inflight),
    .rd_entropy(nt_rd_entropy),
    .rd_all_failed(nt_rd_all_failed),
    .rd_decisions(nt_rd_decisions),
    .rd_losses(nt_rd_losses),
    .m_pkt_valid(pkt_valid),
    .m_pkt_ready(pkt_ready),
    .m_pkt_conn(pkt_conn),
    .m_pkt_psn(pkt_psn),
    .m_pkt_path(pkt_path),
    .m_pkt_pseq(pkt_pseq),
    .m_pkt_entropy(pkt_entropy),
    .m_pkt_handle(pkt_handle),
    .m_pkt_first(pkt_first),
    .m_pkt_last(pkt_last),
    .m_pkt_ack_req(pkt_ack_req),
    .m_pkt_retx(pkt_retx),
    .m_pkt_retries(pkt_retries),
    .m_ack_valid(nt_ack_valid),
    .m_ack_ready(nt_ack_ready),
    .m_ack_conn(nt_ack_conn),
    .m_ack_psn(nt_ack_psn),
    .m_ack_path(nt_ack_path),
    .m_ack_pseq(nt_ack_pseq),
    .m_ack_sack(nt_ack_sack),
    .m_ack_ecn(nt_ack_ecn),
    .m_ack_nak(nt_ack_nak),
    .s_rx_valid(nt_s_rx_valid),
    .s_rx_ready(nt_s_rx_ready),
    .s_rx_conn(c2_c_q),
    .s_rx_psn(c2_psn_q),
    .s_rx_path(c2_path_q),
    .s_rx_pseq(c2_pseq_q),
    .s_rx_first(c2_first_q),
    .s_rx_last(c2_last_q),
    .s_rx_ack_req(c2_areq_q),
    .s_rx_ecn(c2_ecn_q),
    .s_rx_handle(c2_h_q),
    .s_ack_valid(nt_s_ack_valid),
    .s_ack_ready(nt_s_ack_ready),
    .s_ack_conn(c2_c_q),
    .s_ack_psn(c2_psn_q),
    .s_ack_path(c2_path_q),
    .s_ack_pseq(c2_pseq_q),
    .s_ack_sack(c2_sack_q),
    .s_ack_ecn(c2_ecn_q),
    .s_ack_nak(c2_nak_q),
    .cnt_sent(nt_cnt[0*32 +: 32]),
    .cnt_retx_loss(nt_cnt[1*32 +: 32]),
    .cnt_retx_timeout(nt_cnt[2*32 +: 32]),
    .cnt_retx_gbn(nt_cnt[3*32 +: 32]),
    .cnt_timeouts(nt_cnt[4*32 +: 32]),
    .cnt_errors(nt_cnt[5*32 +: 32]),
    .cnt_tx_dropped(nt_cnt[6*32 +: 32]),
    .cnt_ack_ignored(nt_cnt[7*32 +: 32]),
    .cnt_accepted(nt_cnt[8*32 +: 32]),
    .cnt_duplicate(nt_cnt[9*32 +: 32]),
    .cnt_out_of_window(nt_cnt[10*32 +: 32]),
    .cnt_closed(nt_cnt[11*32 +: 32]),
    .cnt_decisions(nt_cnt[12*32 +: 32]),
    .cnt_probes(nt_cnt[13*32 +: 32]),
    .cnt_failures(nt_cnt[14*32 +: 32]),
    .cnt_recoveries(nt_cnt[15*32 +: 32]),
    .cnt_gbn_dropped(nt_cnt[16*32 +: 32]),
    .cnt_naks(nt_cnt[17*32 +: 32])
);

roce_tx #(
    .DATA_WIDTH(DATA_WIDTH),
    .CONNS(CONNS),
    .PATHS(PATHS),
    .SACK_BITS(SACK_BITS),
    .PSEQ_WIDTH(PSEQ_WIDTH),
    .HANDLE_WIDTH(HANDLE_WIDTH),
    .PSN_WIDTH(PSN_WIDTH),
    .MTU(MTU)
)
roce_tx_inst (
    .clk(clk),
    .rst(rst),
    .s_pkt_valid(tx_s_pkt_valid),
    .s_pkt_ready(tx_s_pkt_ready),
    .s_pkt_conn(qd_c),
    .s_pkt_psn(qd_psn),
    .s_pkt_path(qd_path),
    .s_pkt_pseq(qd_pseq),
    .s_pkt_entropy(qd_ent),
    .s_pkt_handle(qd_h),
    .s_pkt_first(qd_first),
    .s_pkt_last(qd_last),
    .s_pkt_ack_req(qd_areq),
    .s_pkt_offset(qd_off),
    .s_pkt_len(qd_plen),
    .s_pay_tdata(s_axis_dma_rd_tdata),
    .s_pay_tkeep(s_axis_dma_rd_tkeep),
    .s_pay_tvalid(tx_s_pay_tvalid),
    .s_pay_tready(tx_s_pay_tready),
    .s_pay_tlast(s_axis_dma_rd_tlast),
    .s_pay_tuser(s_axis_dma_rd_tuser),
    .s_ack_valid(nt_ack_valid),
    .s_ack_ready(tx_s_ack_ready),
    .s_ack_conn(nt_ack_conn),
    .s_ack_psn(nt_ack_psn),
    .s_ack_path(nt_ack_path),
    .s_ack_pseq(nt_ack_pseq),
    .s_ack_sack(nt_ack_sack),
    .s_ack_ecn(nt_ack_ecn),
    .s_ack_nak(nt_ack_nak),
    .s_ack_entropy(entropy_e0(ack_idx_wide[13:0])),
    .tbl_wr_en(cmd_valid && cmd_open),
    .tbl_wr_conn(cmd_conn),
    .tbl_wr_mac(cmd_peer_mac),
    .tbl_wr_ip(cmd_peer_ip),
    .tbl_wr_qpn(cmd_peer_qpn),
    .tbl_wr_dscp(cfg_dscp),
    .tbl_wr_ttl(cfg_ttl),
    .cfg_mac(cfg_local_mac),
    .cfg_ip(cfg_local_ip),
    .m_axis_tdata(tx_m_tdata),
    .m_axis_tkeep(tx_m_tkeep),
    .m_axis_tvalid(tx_m_tvalid),
    .m_axis_tready(tx_m_tready),
    .m_axis_tlast(tx_m_tlast)
);
assign nt_ack_ready = tx_s_ack_ready;

endmodule

`resetall
