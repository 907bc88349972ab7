// SPDX-License-Identifier: Apache-2.0
/*
 * nic_transport: one transport endpoint of the spraynic core.
 *
 * Joins retx (TX reliability), path_sel (TX path choice) and rx_reorder (RX reorder and ACK
 * generation), with the glue between them: decision slots between retx's path hint and path_sel's
 * decisions, a go-back-N receive filter (GBN = 1) and the merge of rx_reorder's ACKs with the
 * filter's NAKs.
 *
 * Interfaces: host side s_tx, s_ctl, m_cpl, m_rxv, m_una, m_err, m_status_*, rd_*; network side
 * m_pkt, m_ack (out), s_rx, s_ack (in); cnt_* (every block's counters and the glue's).
 *
 * Contract: docs/nic_transport.md: wiring, decision slots, filter, ACK merge, glue state and its
 * update order, combinational paths through the glue. The Go golden twin golden/nictransport
 * implements the same document and is compared with this module on every output port in lockstep.
 */

`resetall
`timescale 1ns / 1ps
`default_nettype none

module nic_transport #(
    // Connections; power of two, 2..1024.
    parameter CONNS = 16,
    // PSNs outstanding per connection (the receiver's bitmap); power of two, 8..1024.
    parameter WINDOW = 64,
    // Paths per connection; power of two, 2..64.
    parameter PATHS = 8,
    // SACK bitmap bits per path; power of two, 8..256.
    parameter SACK_BITS = 64,
    // Connection PSN width; exactly 24.
    parameter PSN_WIDTH = 24,
    // Path sequence width; 8..24, and 2^(PSEQ_WIDTH-1) > SACK_BITS.
    parameter PSEQ_WIDTH = 16,
    // Payload handle width; 1..32.
    parameter HANDLE_WIDTH = 16,
    // rx_reorder: ACK after this many accepted packets; 1..64.
    parameter ACK_EVERY = 4,
    // rx_reorder: ACK queue entries; power of two, 4..64.
    parameter ACK_FIFO_DEPTH = 16,
    // Clock cycles per timer tick; 2..65536 and >= CONNS.
    parameter TICK_CYCLES = 256,
    // path_sel: window of a path after open, packets; 1..255, <= CWND_MAX.
    parameter CWND_INIT = 16,
    // path_sel: window cap, packets; 1..255.
    parameter CWND_MAX = 64,
    // path_sel: additive increase per delivered packet, 1/16 packet; 1..16.
    parameter AI_16THS = 2,
    // path_sel: consecutive losses/timeouts that fail a path; 1..15.
    parameter FAIL_K = 3,
    // path_sel: ticks a failed path waits before its probe; 1..255.
    parameter HOLDOFF_TICKS = 40,
    // retx: initial retransmission timeout, ticks; 1..65535.
    parameter RTO_TICKS = 8,
    // retx: backoff cap, ticks; RTO_TICKS..65535.
    parameter RTO_MAX_TICKS = 64,
    // retx: retransmissions of one packet before the connection errors; 1..15.
    parameter MAX_RETRIES = 7,
    // 0: selective mode, packets sprayed by path_sel; 1: go-back-N (RoCEv2), path 0, receive filter
    // with NAKs.
    parameter GBN = 0,
    // retx: ACK request age, ticks (a new packet asks for an ACK when its connection sent none that
    // did for this many ticks); 0..15, 0 off.
    parameter ACK_REQ_TICKS = 1,
    // retx: early loss age, cycles (selective mode); 0..32767, 0 off.
    parameter EARLY_CYCLES = 950
) (
    input  wire                         clk,
    input  wire                         rst,

    /*
     * Host TX: one packet of work
     */
    input  wire                         s_tx_valid,
    output wire                         s_tx_ready,
    input  wire [$clog2(CONNS)-1:0]     s_tx_conn,
    input  wire [HANDLE_WIDTH-1:0]      s_tx_handle,
    input  wire                         s_tx_first,
    input  wire                         s_tx_last,

    /*
     * Host control: open (both directions' initial PSNs) or close
     */
    input  wire                         s_ctl_valid,
    output wire                         s_ctl_ready,
    input  wire                         s_ctl_open,
    input  wire [$clog2(CONNS)-1:0]     s_ctl_conn,
    input  wire [PSN_WIDTH-1:0]         s_ctl_tx_psn,
    input  wire [PSN_WIDTH-1:0]         s_ctl_rx_psn,

    /*
     * Host completions: in order, exactly once
     */
    output wire                         m_cpl_valid,
    input  wire                         m_cpl_ready,
    output wire [$clog2(CONNS)-1:0]     m_cpl_conn,
    output wire [PSN_WIDTH-1:0]         m_cpl_psn,
    output wire                         m_cpl_first,
    output wire                         m_cpl_last,
    output wire [HANDLE_WIDTH-1:0]      m_cpl_handle,

    /*
     * Host receive verdicts, one per data descriptor taken on s_rx, the cycle after (no ready):
     * 0 accepted, 1 duplicate, 2 out of window, 3 closed connection, 4 go-back-N filter drop
     */
    output wire                         m_rxv_valid,
    output wire [$clog2(CONNS)-1:0]     m_rxv_conn,
    output wire [PSN_WIDTH-1:0]         m_rxv_psn,
    output wire [2:0]                   m_rxv_code,

    /*
     * Host send progress: una of m_una_conn moved forward to m_una_psn (retx m_una, no ready)
     */
    output wire                         m_una_valid,
    output wire [$clog2(CONNS)-1:0]     m_una_conn,
    output wire [PSN_WIDTH-1:0]         m_una_psn,

    /*
     * Host status
     */
    output wire                         m_err_valid,
    output wire [$clog2(CONNS)-1:0]     m_err_conn,
    output wire                         m_status_all_failed,
    output wire [$clog2(CONNS)-1:0]     m_status_conn,
    output wire [CONNS-1:0]             m_status_af,
    input  wire [$clog2(CONNS)-1:0]     rd_conn,
    input  wire [$clog2(PATHS)-1:0]     rd_path,
    output wire [1:0]                   rd_state,
    output wire [11:0]                  rd_cwnd,
    output wire [7:0]                   rd_inflight,
    output wire [15:0]                  rd_entropy,
    output wire                         rd_all_failed,
    output wire [15:0]                  rd_decisions,
    output wire [15:0]                  rd_losses,

    /*
     * Network out: data packet descriptors
     */
    output wire                         m_pkt_valid,
    input  wire                         m_pkt_ready,
    output wire [$clog2(CONNS)-1:0]     m_pkt_conn,
    output wire [PSN_WIDTH-1:0]         m_pkt_psn,
    output wire [$clog2(PATHS)-1:0]     m_pkt_path,
    output wire [PSEQ_WIDTH-1:0]        m_pkt_pseq,
    output wire [15:0]                  m_pkt_entropy,
    output wire [HANDLE_WIDTH-1:0]      m_pkt_handle,
    output wire                         m_pkt_first,
    output wire                         m_pkt_last,
    output wire                         m_pkt_ack_req,
    output wire                         m_pkt_retx,
    output wire [3:0]                   m_pkt_retries,

    /*
     * Network out: ACK / NAK descriptors
     */
    output wire                         m_ack_valid,
    input  wire                         m_ack_ready,
    output wire [$clog2(CONNS)-1:0]     m_ack_conn,
    output wire [PSN_WIDTH-1:0]         m_ack_psn,
    output wire [$clog2(PATHS)-1:0]     m_ack_path,
    output wire [PSEQ_WIDTH-1:0]        m_ack_pseq,
    output wire [SACK_BITS-1:0]         m_ack_sack,
    output wire                         m_ack_ecn,
    output wire                         m_ack_nak,

    /*
     * Network in: data packet descriptors (payload already placed by handle)
     */
    input  wire                         s_rx_valid,
    output wire                         s_rx_ready,
    input  wire [$clog2(CONNS)-1:0]     s_rx_conn,
    input  wire [PSN_WIDTH-1:0]         s_rx_psn,
    input  wire [$clog2(PATHS)-1:0]     s_rx_path,
    input  wire [PSEQ_WIDTH-1:0]        s_rx_pseq,
    input  wire                         s_rx_first,
    input  wire                         s_rx_last,
    input  wire                         s_rx_ack_req,
    input  wire                         s_rx_ecn,
    input  wire [HANDLE_WIDTH-1:0]      s_rx_handle,

    /*
     * Network in: ACK / NAK descriptors
     */
    input  wire                         s_ack_valid,
    output wire                         s_ack_ready,
    input  wire [$clog2(CONNS)-1:0]     s_ack_conn,
    input  wire [PSN_WIDTH-1:0]         s_ack_psn,
    input  wire [$clog2(PATHS)-1:0]     s_ack_path,
    input  wire [PSEQ_WIDTH-1:0]        s_ack_pseq,
    input  wire [SACK_BITS-1:0]         s_ack_sack,
    input  wire                         s_ack_ecn,
    input  wire                         s_ack_nak,

    /*
     * Counters (32 bits, wrapping)
     */
    output wire [31:0]                  cnt_sent,
    output wire [31:0]                  cnt_retx_loss,
    output wire [31:0]                  cnt_retx_timeout,
    output wire [31:0]                  cnt_retx_gbn,
    output wire [31:0]                  cnt_timeouts,
    output wire [31:0]                  cnt_errors,
    output wire [31:0]                  cnt_tx_dropped,
    output wire [31:0]                  cnt_ack_ignored,
    output wire [31:0]                  cnt_accepted,
    output wire [31:0]                  cnt_duplicate,
    output wire [31:0]                  cnt_out_of_window,
    output wire [31:0]                  cnt_closed,
    output wire [31:0]                  cnt_decisions,
    output wire [31:0]                  cnt_probes,
    output wire [31:0]                  cnt_failures,
    output wire [31:0]                  cnt_recoveries,
    output wire [31:0]                  cnt_gbn_dropped,
    output wire [31:0]                  cnt_naks
);

localparam CONN_W = $clog2(CONNS);
localparam PATH_W = $clog2(PATHS);
localparam SLOTS = 2 * CONNS;
localparam SLOT_IW = CONN_W + 1;
localparam GBN_MODE = GBN != 0;
localparam [PSN_WIDTH-1:0] PSN_ONE = {{PSN_WIDTH-1{1'b0}}, 1'b1};

// The blocks check their own parameters; here the glue's, and the retx timers' (named at this top
// too).
initial begin
    if (PSN_WIDTH != 24) begin
        $error("Error: PSN_WIDTH = %0d (allowed: exactly 24) (instance %m)", PSN_WIDTH);
        $finish;
    end
    if (GBN < 0 || GBN > 1) begin
        $error("Error: GBN = %0d (allowed: 0..1) (instance %m)", GBN);
        $finish;
    end
    if (ACK_REQ_TICKS < 0 || ACK_REQ_TICKS > 15) begin
        $error("Error: ACK_REQ_TICKS = %0d (allowed: 0..15) (instance %m)", ACK_REQ_TICKS);
        $finish;
    end
    if (EARLY_CYCLES < 0 || EARLY_CYCLES > 32767) begin
        $error("Error: EARLY_CYCLES = %0d (allowed: 0..32767) (instance %m)", EARLY_CYCLES);
        $finish;
    end
end

// E0(c, 0) = 16'hC000 | ((c*PATHS*997) mod 2^14): path_sel's open entropy of path 0 (the GBN path);
// idx is (c*PATHS) mod 2^14, enough since the product mod 2^14 only depends on the
// operands mod 2^14
function [15:0] entropy_path0;
    input [13:0] idx;
    reg [13:0] prod;
    begin
        prod = idx * 14'd997;
        entropy_path0 = {2'b11, prod};
    end
endfunction

// (c*PATHS) mod 2^14 of the hint's connection, PATHS a power of two
localparam IDX_W = CONN_W + PATH_W;
wire [IDX_W+13:0] preq_idx_wide = {{14{1'b0}}, tx_preq_conn, {PATH_W{1'b0}}};
wire [13:0]       preq_idx = preq_idx_wide[13:0];

// loop indices: j in the clocked block, k in the initial block
integer j;
integer k;

/*
 * Block interconnect
 */

wire                    tx_s_path_ready;
wire                    tx_preq_valid;
wire [CONN_W-1:0]       tx_preq_conn;
wire                    tx_preq_retx;
wire [PATH_W-1:0]       tx_preq_avoid;
wire                    tx_fb_valid;
wire [CONN_W-1:0]       tx_fb_conn;
wire [PATH_W-1:0]       tx_fb_path;
wire [1:0]              tx_fb_kind;
wire [7:0]              tx_fb_count;
wire                    ps_fb_ready;
wire                    ps_req_ready;
wire                    ps_sel_valid;
wire [CONN_W-1:0]       ps_sel_conn;
wire [PATH_W-1:0]       ps_sel_path;
wire [15:0]             ps_sel_entropy;
wire                    ps_sel_probe;
wire                    ps_ctl_ready;
wire                    rx_pkt_ready;
wire                    rx_ctl_ready;
wire                    rx_ack_valid;
wire [CONN_W-1:0]       rx_ack_conn;
wire [PSN_WIDTH-1:0]    rx_ack_psn;
wire [PATH_W-1:0]       rx_ack_path;
wire [PSEQ_WIDTH-1:0]   rx_ack_pseq;
wire [SACK_BITS-1:0]    rx_ack_sack;
wire                    rx_ack_ecn;
wire                    tx_ctl_ready;
wire                    rx_rxv_valid;
wire [CONN_W-1:0]       rx_rxv_conn;
wire [PSN_WIDTH-1:0]    rx_rxv_psn;
wire [1:0]              rx_rxv_code;
`ifdef FORMAL
// formal only: path_sel's stage 1 request {valid, conn, retx}
wire [CONN_W+1:0]       f_ps_s1;
`endif

/*
 * Glue state
 */

reg [SLOTS-1:0]             slot_valid_reg = {SLOTS{1'b0}}, slot_valid_next;
reg [SLOTS-1:0]             slot_pend_reg = {SLOTS{1'b0}}, slot_pend_next;
reg [SLOTS*PATH_W-1:0]      slot_path_reg, slot_path_next;
reg [SLOTS*16-1:0]          slot_ent_reg, slot_ent_next;

reg                         req_valid_reg = 1'b0, req_valid_next;
reg [CONN_W-1:0]            req_conn_reg = {CONN_W{1'b0}}, req_conn_next;
reg                         req_retx_reg = 1'b0, req_retx_next;
reg [PATH_W-1:0]            req_avoid_reg = {PATH_W{1'b0}}, req_avoid_next;

reg [3:0]                   kinds_reg = 4'd0, kinds_next;
reg [1:0]                   kinds_head_reg = 2'd0, kinds_head_next;
reg [2:0]                   kinds_cnt_reg = 3'd0, kinds_cnt_next;

reg [CONNS*PSN_WIDTH-1:0]   exp_reg, exp_next;
reg [CONNS-1:0]             nak_sent_reg = {CONNS{1'b0}}, nak_sent_next;
reg                         nak_valid_reg = 1'b0, nak_valid_next;
reg [CONN_W-1:0]            nak_conn_reg = {CONN_W{1'b0}}, nak_conn_next;
reg [PSN_WIDTH-1:0]         nak_psn_reg = {PSN_WIDTH{1'b0}}, nak_psn_next;

// go-back-N verdict register: the descriptor the filter dropped last cycle
reg                         gv_valid_reg = 1'b0;
reg [CONN_W-1:0]            gv_conn_reg = {CONN_W{1'b0}};
reg [PSN_WIDTH-1:0]         gv_psn_reg = {PSN_WIDTH{1'b0}};

reg [31:0]                  cnt_gbn_dropped_reg = 32'd0, cnt_gbn_dropped_next;
reg [31:0]                  cnt_naks_reg = 32'd0, cnt_naks_next;

initial begin
    for (k = 0; k < SLOTS; k = k + 1) begin
        slot_path_reg[k*PATH_W +: PATH_W] = {PATH_W{1'b0}};
        slot_ent_reg[k*16 +: 16] = 16'd0;
    end
    for (k = 0; k < CONNS; k = k + 1) begin
        exp_reg[k*PSN_WIDTH +: PSN_WIDTH] = {PSN_WIDTH{1'b0}};
    end
end

/*
 * Combinational glue
 */

// decision slot of this cycle's hint
wire [SLOT_IW-1:0]  h_idx = {tx_preq_conn, tx_preq_retx};
wire                h_full = slot_valid_reg[h_idx];
wire                tx_s_path_valid = tx_preq_valid && (GBN_MODE || h_full);
wire [PATH_W-1:0]   tx_s_path_path = GBN_MODE ? {PATH_W{1'b0}} :
                                     slot_path_reg[h_idx*PATH_W +: PATH_W];
wire [15:0]         tx_s_path_entropy = GBN_MODE ? entropy_path0(preq_idx) :
                                        slot_ent_reg[h_idx*16 +: 16];

// go-back-N receive filter: d = s_rx_psn - exp[c] as a signed 24-bit number
wire [PSN_WIDTH-1:0] rx_exp = exp_reg[s_rx_conn*PSN_WIDTH +: PSN_WIDTH];
wire [PSN_WIDTH-1:0] rx_d = s_rx_psn - rx_exp;
wire                 rx_ahead = !rx_d[PSN_WIDTH-1] && rx_d != {PSN_WIDTH{1'b0}};
wire                 rx_pass = s_rx_valid && (!GBN_MODE || !rx_ahead);
wire                 rx_need_nak = GBN_MODE && s_rx_valid && rx_ahead && !nak_sent_reg[s_rx_conn];
wire                 rx_ready_int = rst ? 1'b0 :
                                    (rx_pass ? rx_pkt_ready : !(rx_need_nak && nak_valid_reg));

assign s_rx_ready = rx_ready_int;
// every block takes control in any cycle outside reset (s_ctl_ready = !rst in each)
assign s_ctl_ready = tx_ctl_ready && rx_ctl_ready && ps_ctl_ready;

// ACK merge: rx_reorder's ACK first, else the NAK register
assign m_ack_valid = rx_ack_valid || nak_valid_reg;
assign m_ack_conn = rx_ack_valid ? rx_ack_conn : nak_conn_reg;
assign m_ack_psn = rx_ack_valid ? rx_ack_psn : nak_psn_reg;
assign m_ack_path = rx_ack_valid ? rx_ack_path : {PATH_W{1'b0}};
assign m_ack_pseq = rx_ack_valid ? rx_ack_pseq : {PSEQ_WIDTH{1'b0}};
assign m_ack_sack = rx_ack_valid ? rx_ack_sack : {SACK_BITS{1'b0}};
assign m_ack_ecn = rx_ack_valid && rx_ack_ecn;
assign m_ack_nak = !rx_ack_valid && nak_valid_reg;

// receive verdict: rx_reorder's (a descriptor that passed the filter), else the filter's drop
// (the two never in one cycle; none in a reset cycle)
assign m_rxv_valid = rx_rxv_valid || (gv_valid_reg && !rst);
assign m_rxv_conn = rx_rxv_valid ? rx_rxv_conn : gv_conn_reg;
assign m_rxv_psn = rx_rxv_valid ? rx_rxv_psn : gv_psn_reg;
assign m_rxv_code = rx_rxv_valid ? {1'b0, rx_rxv_code} : 3'd4;

assign cnt_gbn_dropped = cnt_gbn_dropped_reg;
assign cnt_naks = cnt_naks_reg;

/*
 * Next state, in the document's order
 */

reg                 sel_kind;
reg [SLOT_IW-1:0]   sel_idx;
reg [CONN_W-1:0]    ctl_c;
reg [1:0]           kinds_tail;

always @* begin
    slot_valid_next = slot_valid_reg;
    slot_pend_next = slot_pend_reg;
    slot_path_next = slot_path_reg;
    slot_ent_next = slot_ent_reg;
    req_valid_next = req_valid_reg;
    req_conn_next = req_conn_reg;
    req_retx_next = req_retx_reg;
    req_avoid_next = req_avoid_reg;
    kinds_next = kinds_reg;
    kinds_head_next = kinds_head_reg;
    kinds_cnt_next = kinds_cnt_reg;
    exp_next = exp_reg;
    nak_sent_next = nak_sent_reg;
    nak_valid_next = nak_valid_reg;
    nak_conn_next = nak_conn_reg;
    nak_psn_next = nak_psn_reg;
    cnt_gbn_dropped_next = cnt_gbn_dropped_reg;
    cnt_naks_next = cnt_naks_reg;

    sel_kind = kinds_reg[kinds_head_reg];
    sel_idx = {ps_sel_conn, sel_kind};
    ctl_c = s_ctl_conn;
    kinds_tail = 2'd0;

    // NAK register: pops when shown and taken
    if (!rx_ack_valid && nak_valid_reg && m_ack_ready) begin
        nak_valid_next = 1'b0;
    end

    // go-back-N filter: the expected PSN moves on an accepted in-order packet; a dropped one may
    // load a NAK
    if (GBN_MODE && s_rx_valid && rx_ready_int) begin
        if (rx_pass && rx_d == {PSN_WIDTH{1'b0}}) begin
            exp_next[s_rx_conn*PSN_WIDTH +: PSN_WIDTH] = rx_exp + PSN_ONE;
            nak_sent_next[s_rx_conn] = 1'b0;
        end else if (!rx_pass) begin
            cnt_gbn_dropped_next = cnt_gbn_dropped_reg + 32'd1;
            if (rx_need_nak) begin
                nak_valid_next = 1'b1;
                nak_conn_next = s_rx_conn;
                nak_psn_next = rx_exp;
                nak_sent_next[s_rx_conn] = 1'b1;
                cnt_naks_next = cnt_naks_reg + 32'd1;
            end
        end
    end

    // decision slots: the transmission empties its slot; m_sel fills the oldest request's slot
    if (!GBN_MODE && tx_preq_valid && tx_s_path_ready) begin
        slot_valid_next[h_idx] = 1'b0;
    end
    if (ps_sel_valid) begin
        slot_valid_next[sel_idx] = 1'b1;
        slot_pend_next[sel_idx] = 1'b0;
        slot_path_next[sel_idx*PATH_W +: PATH_W] = ps_sel_path;
        slot_ent_next[sel_idx*16 +: 16] = ps_sel_entropy;
        kinds_head_next = kinds_head_reg + 2'd1;
        kinds_cnt_next = kinds_cnt_reg - 3'd1;
    end

    // request register: taken, then loaded from the hint when its slot is empty and not pending and
    // no transmission took a path this cycle
    if (req_valid_reg && ps_req_ready) begin
        kinds_tail = kinds_head_next + kinds_cnt_next[1:0];
        kinds_next[kinds_tail] = req_retx_reg;
        kinds_cnt_next = kinds_cnt_next + 3'd1;
        req_valid_next = 1'b0;
    end
    if (!req_valid_next && tx_preq_valid && !GBN_MODE && !tx_s_path_ready &&
            !slot_valid_next[h_idx] && !slot_pend_next[h_idx]) begin
        req_valid_next = 1'b1;
        req_conn_next = tx_preq_conn;
        req_retx_next = tx_preq_retx;
        req_avoid_next = tx_preq_avoid;
        slot_pend_next[h_idx] = 1'b1;
    end

    // control: the connection's filter restarts at the RX initial PSN
    if (s_ctl_valid) begin
        exp_next[ctl_c*PSN_WIDTH +: PSN_WIDTH] = s_ctl_rx_psn;
        nak_sent_next[ctl_c] = 1'b0;
        if (nak_valid_next && nak_conn_next == ctl_c) begin
            nak_valid_next = 1'b0;
        end
    end
end

always @(posedge clk) begin
    gv_valid_reg <= GBN_MODE && s_rx_valid && rx_ready_int && !rx_pass;
    if (GBN_MODE && s_rx_valid && rx_ready_int && !rx_pass) begin
        gv_conn_reg <= s_rx_conn;
        gv_psn_reg <= s_rx_psn;
    end
    slot_valid_reg <= slot_valid_next;
    slot_pend_reg <= slot_pend_next;
    slot_path_reg <= slot_path_next;
    slot_ent_reg <= slot_ent_next;
    req_valid_reg <= req_valid_next;
    req_conn_reg <= req_conn_next;
    req_retx_reg <= req_retx_next;
    req_avoid_reg <= req_avoid_next;
    kinds_reg <= kinds_next;
    kinds_head_reg <= kinds_head_next;
    kinds_cnt_reg <= kinds_cnt_next;
    exp_reg <= exp_next;
    nak_sent_reg <= nak_sent_next;
    nak_valid_reg <= nak_valid_next;
    nak_conn_reg <= nak_conn_next;
    nak_psn_reg <= nak_psn_next;
    cnt_gbn_dropped_reg <= cnt_gbn_dropped_next;
    cnt_naks_reg <= cnt_naks_next;

    if (rst) begin
        gv_valid_reg <= 1'b0;
        slot_valid_reg <= {SLOTS{1'b0}};
        slot_pend_reg <= {SLOTS{1'b0}};
        for (j = 0; j < SLOTS; j = j + 1) begin
            slot_path_reg[j*PATH_W +: PATH_W] <= {PATH_W{1'b0}};
            slot_ent_reg[j*16 +: 16] <= 16'd0;
        end
        req_valid_reg <= 1'b0;
        req_conn_reg <= {CONN_W{1'b0}};
        req_retx_reg <= 1'b0;
        req_avoid_reg <= {PATH_W{1'b0}};
        kinds_reg <= 4'd0;
        kinds_head_reg <= 2'd0;
        kinds_cnt_reg <= 3'd0;
        for (j = 0; j < CONNS; j = j + 1) begin
            exp_reg[j*PSN_WIDTH +: PSN_WIDTH] <= {PSN_WIDTH{1'b0}};
        end
        nak_sent_reg <= {CONNS{1'b0}};
        nak_valid_reg <= 1'b0;
        nak_conn_reg <= {CONN_W{1'b0}};
        nak_psn_reg <= {PSN_WIDTH{1'b0}};
        cnt_gbn_dropped_reg <= 32'd0;
        cnt_naks_reg <= 32'd0;
    end
end

/*
 * Blocks
 */

retx #(
    .CONNS(CONNS),
    .WINDOW(WINDOW),
    .PATHS(PATHS),
    .SACK_BITS(SACK_BITS),
    .PSN_WIDTH(PSN_WIDTH),
    .PSEQ_WIDTH(PSEQ_WIDTH),
    .HANDLE_WIDTH(HANDLE_WIDTH),
    .TICK_CYCLES(TICK_CYCLES),
    .RTO_TICKS(RTO_TICKS),
    .RTO_MAX_TICKS(RTO_MAX_TICKS),
    .MAX_RETRIES(MAX_RETRIES),
    .GBN(GBN),
    .ACK_REQ_TICKS(ACK_REQ_TICKS),
    .EARLY_CYCLES(EARLY_CYCLES)
) retx_inst (
    .clk(clk),
    .rst(rst),
    .s_tx_valid(s_tx_valid),
    .s_tx_ready(s_tx_ready),
    .s_tx_conn(s_tx_conn),
    .s_tx_handle(s_tx_handle),
    .s_tx_first(s_tx_first),
    .s_tx_last(s_tx_last),
    .s_path_valid(tx_s_path_valid),
    .s_path_ready(tx_s_path_ready),
    .s_path_path(tx_s_path_path),
    .s_path_entropy(tx_s_path_entropy),
    .m_preq_valid(tx_preq_valid),
    .m_preq_conn(tx_preq_conn),
    .m_preq_retx(tx_preq_retx),
    .m_preq_avoid(tx_preq_avoid),
    .m_pkt_valid(m_pkt_valid),
    .m_pkt_ready(m_pkt_ready),
    .m_pkt_conn(m_pkt_conn),
    .m_pkt_psn(m_pkt_psn),
    .m_pkt_path(m_pkt_path),
    .m_pkt_pseq(m_pkt_pseq),
    .m_pkt_entropy(m_pkt_entropy),
    .m_pkt_handle(m_pkt_handle),
    .m_pkt_first(m_pkt_first),
    .m_pkt_last(m_pkt_last),
    .m_pkt_ack_req(m_pkt_ack_req),
    .m_pkt_retx(m_pkt_retx),
    .m_pkt_retries(m_pkt_retries),
    .s_ack_valid(s_ack_valid),
    .s_ack_ready(s_ack_ready),
    .s_ack_conn(s_ack_conn),
    .s_ack_psn(s_ack_psn),
    .s_ack_path(s_ack_path),
    .s_ack_pseq(s_ack_pseq),
    .s_ack_sack(s_ack_sack),
    .s_ack_ecn(s_ack_ecn),
    .s_ack_nak(s_ack_nak),
    .s_ctl_valid(s_ctl_valid),
    .s_ctl_ready(tx_ctl_ready),
    .s_ctl_open(s_ctl_open),
    .s_ctl_conn(s_ctl_conn),
    .s_ctl_psn(s_ctl_tx_psn),
    .m_fb_valid(tx_fb_valid),
    .m_fb_ready(ps_fb_ready),
    .m_fb_conn(tx_fb_conn),
    .m_fb_path(tx_fb_path),
    .m_fb_kind(tx_fb_kind),
    .m_fb_count(tx_fb_count),
    .m_err_valid(m_err_valid),
    .m_err_conn(m_err_conn),
    .m_una_valid(m_una_valid),
    .m_una_conn(m_una_conn),
    .m_una_psn(m_una_psn),
    .cnt_sent(cnt_sent),
    .cnt_retx_loss(cnt_retx_loss),
    .cnt_retx_timeout(cnt_retx_timeout),
    .cnt_retx_gbn(cnt_retx_gbn),
    .cnt_timeouts(cnt_timeouts),
    .cnt_errors(cnt_errors),
    .cnt_tx_dropped(cnt_tx_dropped),
    .cnt_ack_ignored(cnt_ack_ignored)
);

path_sel #(
    .CONNS(CONNS),
    .PATHS(PATHS),
    .TICK_CYCLES(TICK_CYCLES),
    .CWND_INIT(CWND_INIT),
    .CWND_MAX(CWND_MAX),
    .AI_16THS(AI_16THS),
    .FAIL_K(FAIL_K),
    .HOLDOFF_TICKS(HOLDOFF_TICKS)
) path_sel_inst (
    .clk(clk),
    .rst(rst),
    .s_req_valid(req_valid_reg),
    .s_req_ready(ps_req_ready),
    .s_req_conn(req_conn_reg),
    .s_req_retx(req_retx_reg),
    .s_req_avoid(req_avoid_reg),
    .m_sel_valid(ps_sel_valid),
    .m_sel_ready(1'b1),
    .m_sel_conn(ps_sel_conn),
    .m_sel_path(ps_sel_path),
    .m_sel_entropy(ps_sel_entropy),
    .m_sel_probe(ps_sel_probe),
    .s_fb_valid(tx_fb_valid),
    .s_fb_ready(ps_fb_ready),
    .s_fb_conn(tx_fb_conn),
    .s_fb_path(tx_fb_path),
    .s_fb_kind(tx_fb_kind),
    .s_fb_count(tx_fb_count),
    .s_ctl_valid(s_ctl_valid && s_ctl_open),
    .s_ctl_ready(ps_ctl_ready),
    .s_ctl_conn(s_ctl_conn),
    .rd_conn(rd_conn),
    .rd_path(rd_path),
    .rd_state(rd_state),
    .rd_cwnd(rd_cwnd),
    .rd_inflight(rd_inflight),
    .rd_entropy(rd_entropy),
    .rd_all_failed(rd_all_failed),
    .rd_decisions(rd_decisions),
    .rd_losses(rd_losses),
    .m_status_all_failed(m_status_all_failed),
    .m_status_conn(m_status_conn),
    .m_status_af(m_status_af),
    .cnt_decisions(cnt_decisions),
    .cnt_probes(cnt_probes),
    .cnt_failures(cnt_failures),
    .cnt_recoveries(cnt_recoveries)
`ifdef FORMAL
    ,
    .f_s1_req(f_ps_s1)
`endif
);

rx_reorder #(
    .CONNS(CONNS),
    .WINDOW(WINDOW),
    .PATHS(PATHS),
    .SACK_BITS(SACK_BITS),
    .PSN_WIDTH(PSN_WIDTH),
    .PSEQ_WIDTH(PSEQ_WIDTH),
    .HANDLE_WIDTH(HANDLE_WIDTH),
    .ACK_EVERY(ACK_EVERY),
    .ACK_FIFO_DEPTH(ACK_FIFO_DEPTH)
) rx_reorder_inst (
    .clk(clk),
    .rst(rst),
    .s_pkt_valid(rx_pass),
    .s_pkt_ready(rx_pkt_ready),
    .s_pkt_conn(s_rx_conn),
    .s_pkt_psn(s_rx_psn),
    .s_pkt_path(s_rx_path),
    .s_pkt_pseq(s_rx_pseq),
    .s_pkt_first(s_rx_first),
    .s_pkt_last(s_rx_last),
    .s_pkt_ack_req(s_rx_ack_req),
    .s_pkt_ecn(s_rx_ecn),
    .s_pkt_handle(s_rx_handle),
    .s_ctl_valid(s_ctl_valid),
    .s_ctl_ready(rx_ctl_ready),
    .s_ctl_open(s_ctl_open),
    .s_ctl_conn(s_ctl_conn),
    .s_ctl_psn(s_ctl_rx_psn),
    .m_cpl_valid(m_cpl_valid),
    .m_cpl_ready(m_cpl_ready),
    .m_cpl_conn(m_cpl_conn),
    .m_cpl_psn(m_cpl_psn),
    .m_cpl_first(m_cpl_first),
    .m_cpl_last(m_cpl_last),
    .m_cpl_handle(m_cpl_handle),
    .m_ack_valid(rx_ack_valid),
    .m_ack_ready(m_ack_ready),
    .m_ack_conn(rx_ack_conn),
    .m_ack_psn(rx_ack_psn),
    .m_ack_path(rx_ack_path),
    .m_ack_pseq(rx_ack_pseq),
    .m_ack_sack(rx_ack_sack),
    .m_ack_ecn(rx_ack_ecn),
    .m_rxv_valid(rx_rxv_valid),
    .m_rxv_conn(rx_rxv_conn),
    .m_rxv_psn(rx_rxv_psn),
    .m_rxv_code(rx_rxv_code),
    .cnt_accepted(cnt_accepted),
    .cnt_duplicate(cnt_duplicate),
    .cnt_out_of_window(cnt_out_of_window),
    .cnt_closed(cnt_closed)
);

`ifdef FORMAL
/*
 * Properties (docs/formal.md). Set nic_transport (k-induction, selective mode): the decision
 * slots. The requests path_sel holds or is offered (the request register R, path_sel's stage 1 S1
 * and its m_sel register M, each with the slot {conn, retx} it is for; M's kind is the retx flag
 * S1 held the cycle before, f_m_kind) are for different slots, and a slot is pending exactly when
 * one of them is for it; a decision fills the pending, empty slot of its request (none lost, none
 * without a request); a transmission takes a path only from a full slot and empties it (none used
 * twice). Strengthened by the kind FIFO: it counts S1 and M, and holds their kinds in order.
 */
reg                     f_past_valid = 1'b0;
reg                     f_use_prev = 1'b0;
reg [SLOT_IW-1:0]       f_use_idx_prev = {SLOT_IW{1'b0}};
reg                     f_m_kind = 1'b0;
wire                    f_s1_valid = f_ps_s1[CONN_W+1];
wire [SLOT_IW-1:0]      f_s1_idx = f_ps_s1[CONN_W:0];
wire [SLOT_IW-1:0]      f_r_idx = {req_conn_reg, req_retx_reg};
wire [SLOT_IW-1:0]      f_m_idx = {ps_sel_conn, f_m_kind};
wire [1:0]              f_s1_pos = kinds_head_reg + {1'b0, ps_sel_valid};
wire                    f_use = !rst && tx_s_path_ready;
reg [1:0]               f_n;
reg                     f_nt_req_once;
reg                     f_nt_pend_h;
reg                     f_nt_slot_excl;
integer                 f_i;

always @* begin
    // contract (docs/nic_transport.md, Ports): rst is the synchronous reset of the three blocks
    // and the glue; the slots, the request register and the kind FIFO are defined only after it.
    // No other input is constrained.
    if (!f_past_valid) begin
        assume (rst);
    end
end

always @(posedge clk) begin
    f_past_valid <= 1'b1;
    f_use_prev <= f_use;
    f_use_idx_prev <= h_idx;
    // with m_sel_ready = 1, M is valid exactly in the cycle after S1 fired: its kind is S1's
    f_m_kind <= f_ps_s1[0];
end

always @* begin
    f_nt_req_once = 1'b1;
    f_nt_pend_h = 1'b1;
    f_nt_slot_excl = 1'b1;
    f_n = 2'd0;
    for (f_i = 0; f_i < SLOTS; f_i = f_i + 1) begin
        // outstanding requests for slot f_i: in R, in S1, in M
        f_n = {1'b0, req_valid_reg && f_r_idx == f_i[SLOT_IW-1:0]} +
            {1'b0, f_s1_valid && f_s1_idx == f_i[SLOT_IW-1:0]} +
            {1'b0, ps_sel_valid && f_m_idx == f_i[SLOT_IW-1:0]};
        if (f_n > 2'd1) begin
            f_nt_req_once = 1'b0;
        end
        if (slot_pend_reg[f_i] != (f_n != 2'd0)) begin
            f_nt_pend_h = 1'b0;
        end
        if (slot_valid_reg[f_i] && slot_pend_reg[f_i]) begin
            f_nt_slot_excl = 1'b0;
        end
    end
    if (f_past_valid && !GBN_MODE) begin
        // at most one outstanding request per slot: one decision per request
        nt_req_once: assert (f_nt_req_once);
        // a slot is pending exactly while its one request is in R, S1 or M
        nt_pend_h: assert (f_nt_pend_h);
        // a slot never holds a decision while it waits for another
        nt_slot_excl: assert (f_nt_slot_excl);
        // a decision fills the slot of its request, which waits for it and is empty: no decision
        // lost or unasked
        if (ps_sel_valid) begin
            nt_sel_slot: assert (sel_idx == f_m_idx && slot_pend_reg[sel_idx] &&
                !slot_valid_reg[sel_idx]);
        end
        // a transmission takes a path only from the full slot of its hint
        if (f_use) begin
            nt_use_full: assert (tx_preq_valid && h_full);
        end
        // ... and empties it: the decision is not used twice
        if (f_use_prev) begin
            nt_use_once: assert (!slot_valid_reg[f_use_idx_prev]);
        end
        // (strengthening) the kind FIFO counts S1 and M and holds their kinds in order
        nt_kinds_h: assert (kinds_cnt_reg == {2'd0, f_s1_valid} + {2'd0, ps_sel_valid} &&
            (!ps_sel_valid || kinds_reg[kinds_head_reg] == f_m_kind) &&
            (!f_s1_valid || kinds_reg[f_s1_pos] == f_ps_s1[0]));
    end
end

// each mode's covers exist only in that mode (a cover that cannot be reached fails its set)
if (!GBN_MODE) begin : g_f_cover_slots
    always @* begin
        if (f_past_valid && !rst) begin
            // a request taken by path_sel
            c_nt_request: cover (req_valid_reg && ps_req_ready);
        end
    end
end

/*
 * Set nic_transport_gbn (k-induction, go-back-N): the NAK register, the glue's one pipeline entry
 * of a connection in that mode. A control leaves no NAK of its connection waiting and restarts its
 * filter (expected PSN, NAK-sent flag); a NAK is kept, unchanged, until it is shown and taken or
 * dropped by a control of its connection; a NAK is loaded only for a connection with none sent.
 */
reg                     f_ctl_prev = 1'b0;
reg [CONN_W-1:0]        f_ctl_conn_prev = {CONN_W{1'b0}};
reg [PSN_WIDTH-1:0]     f_ctl_psn_prev = {PSN_WIDTH{1'b0}};
reg                     f_nak_kept_prev = 1'b0;
reg [CONN_W+PSN_WIDTH-1:0] f_nak_prev = {CONN_W+PSN_WIDTH{1'b0}};
wire                    f_nak_pop = !rx_ack_valid && nak_valid_reg && m_ack_ready;
wire                    f_nak_load = GBN_MODE && s_rx_valid && rx_ready_int && !rx_pass &&
                                     rx_need_nak;

always @(posedge clk) begin
    f_ctl_prev <= !rst && s_ctl_valid;
    f_ctl_conn_prev <= s_ctl_conn;
    f_ctl_psn_prev <= s_ctl_rx_psn;
    f_nak_kept_prev <= !rst && nak_valid_reg && !f_nak_pop &&
        !(s_ctl_valid && s_ctl_conn == nak_conn_reg);
    f_nak_prev <= {nak_conn_reg, nak_psn_reg};
end

always @* begin
    if (f_past_valid && GBN_MODE) begin
        // an open or close leaves no NAK of its connection waiting, and restarts its filter
        if (f_ctl_prev) begin
            nt_ctl_clears: assert (!(nak_valid_reg && nak_conn_reg == f_ctl_conn_prev) &&
                !nak_sent_reg[f_ctl_conn_prev] &&
                exp_reg[f_ctl_conn_prev*PSN_WIDTH +: PSN_WIDTH] == f_ctl_psn_prev);
        end
        // a waiting NAK is neither lost nor changed before it is taken (or dropped by a control)
        if (f_nak_kept_prev) begin
            nt_nak_kept: assert (nak_valid_reg && {nak_conn_reg, nak_psn_reg} == f_nak_prev);
        end
        // a NAK is loaded only for a connection with none sent since its last in-order packet or
        // control, into an empty register
        if (!rst && f_nak_load) begin
            nt_nak_once: assert (!nak_sent_reg[s_rx_conn] && (!nak_valid_reg || f_nak_pop));
        end
    end
end

/*
 * Set nic_transport_gbn, the filter's rules (docs/nic_transport.md, "Go-back-N receive filter",
 * "Receive verdicts"), for a descriptor taken on s_rx of connection c with d = psn - exp[c]
 * (signed): rx_reorder takes it exactly when d <= 0; exp[c] moves by one at d == 0 and otherwise
 * only at a control of c; NAK-sent is cleared by d == 0 and set by a NAK; both are 0 after a
 * reset; each filtered (d > 0) descriptor counts once in cnt_gbn_dropped and each NAK once in
 * cnt_naks; a filtered descriptor shows on m_rxv with code 4, its connection and PSN the next
 * cycle, and code 4 shows for nothing else (rx_reorder's verdicts, cut here, take precedence:
 * rx_reorder_rxv proves they come only the cycle after it took a descriptor, never after a
 * filtered one). The ACK merge: m_ack is rx_reorder's ACK when it is valid, else the waiting NAK
 * (path fields 0). The path choice: every hint gets path 0 with entropy
 * E0(c, 0) = 16'hC000 | ((c * PATHS * 997) mod 2^14) at once.
 */
wire [31:0]             f_e0 = {{32-CONN_W{1'b0}}, tx_preq_conn} * PATHS * 32'd997;
wire [PSN_WIDTH-1:0]    f_exp_c = exp_reg[s_rx_conn*PSN_WIDTH +: PSN_WIDTH];
wire [PSN_WIDTH-1:0]    f_d = s_rx_psn - f_exp_c;
wire                    f_take = !rst && s_rx_valid && s_rx_ready;
wire                    f_in_order = f_take && f_d == {PSN_WIDTH{1'b0}};
wire                    f_filtered = f_take && !f_d[PSN_WIDTH-1] && f_d != {PSN_WIDTH{1'b0}};
wire                    f_naked = f_filtered && !nak_sent_reg[s_rx_conn];
reg                     f_rst_prev = 1'b1;
reg                     f_in_order_prev = 1'b0;
reg                     f_filtered_prev = 1'b0;
reg                     f_naked_prev = 1'b0;
reg [CONN_W-1:0]        f_rx_conn_prev = {CONN_W{1'b0}};
reg [PSN_WIDTH-1:0]     f_rx_psn_prev = {PSN_WIDTH{1'b0}};
reg [CONNS*PSN_WIDTH-1:0] f_exp_prev = {CONNS*PSN_WIDTH{1'b0}};
reg [CONNS-1:0]         f_sent_prev = {CONNS{1'b0}};
reg [31:0]              f_dropped_prev = 32'd0;
reg [31:0]              f_naks_prev = 32'd0;
reg                     f_nt_gbn_exp;
reg                     f_nt_gbn_sent;
reg                     f_ev;
integer                 f_c;

always @(posedge clk) begin
    f_rst_prev <= rst;
    f_in_order_prev <= f_in_order;
    f_filtered_prev <= f_filtered;
    f_naked_prev <= f_naked;
    f_rx_conn_prev <= s_rx_conn;
    f_rx_psn_prev <= s_rx_psn;
    f_exp_prev <= exp_reg;
    f_sent_prev <= nak_sent_reg;
    f_dropped_prev <= cnt_gbn_dropped_reg;
    f_naks_prev <= cnt_naks_reg;
end

always @* begin
    f_nt_gbn_exp = 1'b1;
    f_nt_gbn_sent = 1'b1;
    f_ev = 1'b0;
    for (f_c = 0; f_c < CONNS; f_c = f_c + 1) begin
        f_ev = f_rx_conn_prev == f_c[CONN_W-1:0];
        // after a reset: exp 0, no NAK sent
        if (f_rst_prev && exp_reg[f_c*PSN_WIDTH +: PSN_WIDTH] != {PSN_WIDTH{1'b0}}) begin
            f_nt_gbn_exp = 1'b0;
        end
        if (f_rst_prev && nak_sent_reg[f_c]) begin
            f_nt_gbn_sent = 1'b0;
        end
        // a control of f_c last cycle is nt_ctl_clears's
        if (!f_rst_prev && !(f_ctl_prev && f_ctl_conn_prev == f_c[CONN_W-1:0])) begin
            if (exp_reg[f_c*PSN_WIDTH +: PSN_WIDTH] != f_exp_prev[f_c*PSN_WIDTH +: PSN_WIDTH] +
                    {{PSN_WIDTH-1{1'b0}}, f_in_order_prev && f_ev}) begin
                f_nt_gbn_exp = 1'b0;
            end
            if (nak_sent_reg[f_c] != (f_in_order_prev && f_ev ? 1'b0 :
                    f_naked_prev && f_ev ? 1'b1 : f_sent_prev[f_c])) begin
                f_nt_gbn_sent = 1'b0;
            end
        end
    end
    if (f_past_valid && GBN_MODE) begin
        // rx_reorder takes a descriptor exactly when it is taken on s_rx at or behind exp
        if (!rst) begin
            nt_gbn_pass: assert ((rx_pass && rx_pkt_ready) ==
                (f_take && (f_d == {PSN_WIDTH{1'b0}} || f_d[PSN_WIDTH-1])));
        end
        // exp moves only by one at an in-order descriptor (or at a control); NAK-sent follows
        nt_gbn_exp: assert (f_nt_gbn_exp);
        nt_gbn_sent: assert (f_nt_gbn_sent);
        // the counters count the filter's events, once each
        nt_gbn_cnt: assert (f_rst_prev ? cnt_gbn_dropped_reg == 32'd0 && cnt_naks_reg == 32'd0 :
            cnt_gbn_dropped_reg == f_dropped_prev + {31'd0, f_filtered_prev} &&
            cnt_naks_reg == f_naks_prev + {31'd0, f_naked_prev});
        // code 4 on m_rxv: the descriptor filtered the cycle before, and nothing else
        if (!rst && !rx_rxv_valid) begin
            nt_gbn_verdict: assert ((m_rxv_valid && m_rxv_code == 3'd4) == f_filtered_prev &&
                (!f_filtered_prev || (m_rxv_conn == f_rx_conn_prev && m_rxv_psn == f_rx_psn_prev)));
        end
        nt_ack_merge: assert (m_ack_valid == (rx_ack_valid || nak_valid_reg) &&
            m_ack_nak == (!rx_ack_valid && nak_valid_reg) &&
            (rx_ack_valid ? m_ack_conn == rx_ack_conn && m_ack_psn == rx_ack_psn &&
                m_ack_path == rx_ack_path && m_ack_pseq == rx_ack_pseq &&
                m_ack_sack == rx_ack_sack && m_ack_ecn == rx_ack_ecn :
                m_ack_conn == nak_conn_reg && m_ack_psn == nak_psn_reg &&
                m_ack_path == {PATH_W{1'b0}} && m_ack_pseq == {PSEQ_WIDTH{1'b0}} &&
                m_ack_sack == {SACK_BITS{1'b0}} && !m_ack_ecn));
        nt_gbn_path: assert (tx_s_path_valid == tx_preq_valid &&
            tx_s_path_path == {PATH_W{1'b0}} && tx_s_path_entropy == {2'b11, f_e0[13:0]});
    end
end

if (GBN_MODE) begin : g_f_cover_gbn
    always @* begin
        if (f_past_valid && !rst) begin
            // a control of the connection of a waiting NAK
            c_nt_ctl_drops_nak: cover (s_ctl_valid && nak_valid_reg &&
                s_ctl_conn == nak_conn_reg);
            // a packet that needs a NAK waits behind a full NAK register
            c_nt_nak_waits: cover (rx_need_nak && nak_valid_reg && !f_nak_pop);
            // a descriptor filtered with its gap's NAK already sent
            c_nt_gbn_quiet_drop: cover (f_filtered && nak_sent_reg[s_rx_conn]);
        end
    end
end

`ifdef FORMAL_COVER
// Set nic_transport_cover: the nic_transport set's assertions (bounded) with the environment
// narrowed for its covers: connection 0 opened in the first cycle after reset and connection 1 in
// the second (TX PSN 0), no other control, no received data or ACK, no back-pressure, new work on
// every cycle from the third. These assumptions only remove input sequences, so a cover reached
// here is reachable in the nic_transport set's environment; they bring the covers within the
// solver's reach.
reg [2:0]               f_cycle = 3'd0;

always @(posedge clk) begin
    if (f_cycle != 3'd7) begin
        f_cycle <= f_cycle + 3'd1;
    end
end

always @* begin
    if (f_past_valid) begin
        assume (!rst);
        assume (s_ctl_valid == (f_cycle == 3'd1 || f_cycle == 3'd2));
        assume (s_ctl_open && s_ctl_conn == f_cycle[CONN_W-1:0] + {CONN_W{1'b1}});
        assume (s_ctl_tx_psn == {PSN_WIDTH{1'b0}} && s_ctl_rx_psn == {PSN_WIDTH{1'b0}});
        assume (!s_rx_valid && !s_ack_valid && m_pkt_ready && m_ack_ready && m_cpl_ready);
        assume (s_tx_valid == (f_cycle >= 3'd3));
    end
end

always @* begin
    if (f_past_valid && !rst) begin
        // a path decision taken by a transmission
        c_nt_decision_used: cover (tx_s_path_valid && tx_s_path_ready);
        // two requests in path_sel at once (S1 and M), for different slots
        c_nt_two_in_flight: cover (f_s1_valid && ps_sel_valid);
    end
end
`endif
`endif

endmodule

`resetall
