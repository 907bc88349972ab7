// SPDX-License-Identifier: Apache-2.0
/*
 * rx_reorder: RX reorder block of the spraynic transport core.
 *
 * Accepts data-packet descriptors of up to CONNS connections in any PSN order (the payload is
 * already placed, the descriptor carries an opaque handle), drops duplicates, beyond-window packets
 * and packets to closed connections, and releases one completion per accepted packet, exactly once
 * and in PSN order per connection. It keeps the per-(connection, path) receive state (highest path
 * sequence, SACK bitmap, ECN) and emits coalesced ACKs carrying it.
 *
 * Interfaces: s_pkt (descriptors in), s_ctl (open / close), m_cpl (completions), m_ack (ACKs),
 * m_rxv (receive verdicts), cnt_* (counters).
 *
 * Contract: docs/rx_reorder.md, cycle by cycle: ports, state, pipeline, memories and their
 * forwarding, critical paths. The Go golden model golden/rxreorder implements the same document and
 * is compared with this module on every output port in lockstep.
 */

`resetall
`timescale 1ns / 1ps
`default_nettype none

module rx_reorder #(
    // Number of connections; power of two, 2..1024.
    parameter CONNS = 16,
    // Receive window in PSNs (bitmap bits per connection); power of two, 8..1024.
    parameter WINDOW = 64,
    // Paths per connection; power of two, 2..64.
    parameter PATHS = 8,
    // SACK bitmap bits per path; power of two, 8..256.
    parameter SACK_BITS = 64,
    // Connection PSN width; exactly 24.
    parameter PSN_WIDTH = 24,
    // Path sequence width; 8..24, and 2^(PSEQ_WIDTH-1) > SACK_BITS.
    parameter PSEQ_WIDTH = 16,
    // Opaque payload handle width; 1..32.
    parameter HANDLE_WIDTH = 16,
    // ACK coalescing: an ACK after this many accepted packets of a connection; 1..64.
    parameter ACK_EVERY = 4,
    // ACK FIFO entries; power of two, 4..64.
    parameter ACK_FIFO_DEPTH = 16
) (
    input  wire                         clk,
    input  wire                         rst,

    /*
     * Packet descriptor input
     */
    input  wire                         s_pkt_valid,
    output wire                         s_pkt_ready,
    input  wire [$clog2(CONNS)-1:0]     s_pkt_conn,
    input  wire [PSN_WIDTH-1:0]         s_pkt_psn,
    input  wire [$clog2(PATHS)-1:0]     s_pkt_path,
    input  wire [PSEQ_WIDTH-1:0]        s_pkt_pseq,
    input  wire                         s_pkt_first,
    input  wire                         s_pkt_last,
    input  wire                         s_pkt_ack_req,
    input  wire                         s_pkt_ecn,
    input  wire [HANDLE_WIDTH-1:0]      s_pkt_handle,

    /*
     * Connection control input
     */
    input  wire                         s_ctl_valid,
    output wire                         s_ctl_ready,
    input  wire                         s_ctl_open,
    input  wire [$clog2(CONNS)-1:0]     s_ctl_conn,
    input  wire [PSN_WIDTH-1:0]         s_ctl_psn,

    /*
     * Completion output
     */
    output wire                         m_cpl_valid,
    input  wire                         m_cpl_ready,
    output wire [$clog2(CONNS)-1:0]     m_cpl_conn,
    output wire [PSN_WIDTH-1:0]         m_cpl_psn,
    output wire                         m_cpl_first,
    output wire                         m_cpl_last,
    output wire [HANDLE_WIDTH-1:0]      m_cpl_handle,

    /*
     * ACK output
     */
    output wire                         m_ack_valid,
    input  wire                         m_ack_ready,
    output wire [$clog2(CONNS)-1:0]     m_ack_conn,
    output wire [PSN_WIDTH-1:0]         m_ack_psn,
    output wire [$clog2(PATHS)-1:0]     m_ack_path,
    output wire [PSEQ_WIDTH-1:0]        m_ack_pseq,
    output wire [SACK_BITS-1:0]         m_ack_sack,
    output wire                         m_ack_ecn,

    /*
     * Receive verdict of the packet in stage 1 (no ready): 0 accepted, 1 duplicate,
     * 2 out of window, 3 closed connection
     */
    output wire                         m_rxv_valid,
    output wire [$clog2(CONNS)-1:0]     m_rxv_conn,
    output wire [PSN_WIDTH-1:0]         m_rxv_psn,
    output wire [1:0]                   m_rxv_code,

    /*
     * Counters (wrap)
     */
    output wire [31:0]                  cnt_accepted,
    output wire [31:0]                  cnt_duplicate,
    output wire [31:0]                  cnt_out_of_window,
    output wire [31:0]                  cnt_closed
);

// connection, path, window index widths
localparam CONN_W = $clog2(CONNS);
localparam PATH_W = $clog2(PATHS);
localparam WIN_W = $clog2(WINDOW);
localparam SACK_W = $clog2(SACK_BITS);
// handle slots per connection: 4 x WINDOW
localparam SLOT_W = WIN_W + 2;
// lag counter (docs: SLOT_W+1 bits)
localparam LAG_W = SLOT_W + 1;
// trailing-ones count L: 0..WINDOW
localparam L_W = WIN_W + 1;
// ackcnt counter (docs: 7 bits)
localparam ACKCNT_W = 7;
localparam AF_W = $clog2(ACK_FIFO_DEPTH);
localparam PIDX_W = CONN_W + PATH_W;

// handle RAM: {first, last, handle}
localparam HRAM_AW = CONN_W + SLOT_W;
localparam HRAM_DW = HANDLE_WIDTH + 2;
// path RAM: {pnext, psack, pecn}
localparam PRAM_DW = PSEQ_WIDTH + SACK_BITS + 1;
// connection RAM: {cum, bitmap}
localparam CRAM_DW = PSN_WIDTH + WINDOW;
// ACK FIFO entry: {conn, psn, path, pseq, sack, ecn}
localparam ACK_DW = CONN_W + PSN_WIDTH + PATH_W + PSEQ_WIDTH + SACK_BITS + 1;

// sized constants: lag limit of the input (WINDOW), last ackcnt value before an ACK, highest ACK
// FIFO count that still takes a packet
localparam [31:0] ACK_EVERY_M1 = ACK_EVERY - 1;
localparam [31:0] AF_DEPTH_M2 = ACK_FIFO_DEPTH - 2;
localparam [31:0] ONE = 1;
localparam [LAG_W-1:0] LAG_MAX = {3'b001, {WIN_W{1'b0}}};
localparam [ACKCNT_W-1:0] ACKCNT_LAST = ACK_EVERY_M1[ACKCNT_W-1:0];
localparam [AF_W:0] AF_ROOM_MAX = AF_DEPTH_M2[AF_W:0];

initial begin
    if (CONNS < 2 || CONNS > 1024 || (CONNS & (CONNS - 1)) != 0) begin
        $error("Error: CONNS = %0d (allowed: power of two, 2..1024) (instance %m)", CONNS);
        $finish;
    end
    if (WINDOW < 8 || WINDOW > 1024 || (WINDOW & (WINDOW - 1)) != 0) begin
        $error("Error: WINDOW = %0d (allowed: power of two, 8..1024) (instance %m)", WINDOW);
        $finish;
    end
    if (PATHS < 2 || PATHS > 64 || (PATHS & (PATHS - 1)) != 0) begin
        $error("Error: PATHS = %0d (allowed: power of two, 2..64) (instance %m)", PATHS);
        $finish;
    end
    if (SACK_BITS < 8 || SACK_BITS > 256 || (SACK_BITS & (SACK_BITS - 1)) != 0) begin
        $error("Error: SACK_BITS = %0d (allowed: power of two, 8..256) (instance %m)", SACK_BITS);
        $finish;
    end
    if (PSN_WIDTH != 24) begin
        $error("Error: PSN_WIDTH = %0d (allowed: exactly 24) (instance %m)", PSN_WIDTH);
        $finish;
    end
    if (PSEQ_WIDTH < 8 || PSEQ_WIDTH > 24) begin
        $error("Error: PSEQ_WIDTH = %0d (allowed: 8..24) (instance %m)", PSEQ_WIDTH);
        $finish;
    end
    if ((1 << (PSEQ_WIDTH - 1)) <= SACK_BITS) begin
        $error("Error: PSEQ_WIDTH = %0d too small for SACK_BITS = %0d (allowed: %0s) (instance %m)",
            PSEQ_WIDTH, SACK_BITS, "2^(PSEQ_WIDTH-1) > SACK_BITS");
        $finish;
    end
    if (HANDLE_WIDTH < 1 || HANDLE_WIDTH > 32) begin
        $error("Error: HANDLE_WIDTH = %0d (allowed: 1..32) (instance %m)", HANDLE_WIDTH);
        $finish;
    end
    if (ACK_EVERY < 1 || ACK_EVERY > 64) begin
        $error("Error: ACK_EVERY = %0d (allowed: 1..64) (instance %m)", ACK_EVERY);
        $finish;
    end
    if (ACK_FIFO_DEPTH < 4 || ACK_FIFO_DEPTH > 64 ||
            (ACK_FIFO_DEPTH & (ACK_FIFO_DEPTH - 1)) != 0) begin
        $error("Error: ACK_FIFO_DEPTH = %0d (allowed: power of two, 4..64) (instance %m)",
            ACK_FIFO_DEPTH);
        $finish;
    end
end

// loop indices: i in the always @*, j in the clocked block, k in the initial block
integer i;
integer j;
integer k;

/*
 * State
 */

// per connection, flattened: entry c at [c*W +: W]. Power-up values are set by the loop in the
// initial block below (a replication this wide trips lint). cum and bitmap are in the connection
// RAM (conn_ram_inst): no reset or power-up value: its read data is used only while open, and open
// writes it.
reg [CONNS-1:0]                 open_reg, open_next;
reg [CONNS*LAG_W-1:0]           lag_reg, lag_next;
reg [CONNS*ACKCNT_W-1:0]        ackcnt_reg, ackcnt_next;
// next PSN to release, cum - lag (open sets it to the open PSN, an accept moves cum and lag alike,
// a release adds one), kept so the release reads it instead of subtracting; no power-up value (read
// only while lag != 0)
reg [CONNS*PSN_WIDTH-1:0]       head_reg, head_next;
// per (connection, path), index {conn, path}
reg [CONNS*PATHS-1:0]           pvalid_reg, pvalid_next;

initial begin
    for (k = 0; k < CONNS; k = k + 1) begin
        open_reg[k] = 1'b0;
        lag_reg[k*LAG_W +: LAG_W] = {LAG_W{1'b0}};
        ackcnt_reg[k*ACKCNT_W +: ACKCNT_W] = {ACKCNT_W{1'b0}};
        pvalid_reg[k*PATHS +: PATHS] = {PATHS{1'b0}};
    end
end

// stage 1: the operation taken in last cycle (packet or control)
reg                             s1_valid_reg = 1'b0, s1_valid_next;
reg                             s1_is_ctl_reg = 1'b0, s1_is_ctl_next;
reg                             s1_open_reg = 1'b0, s1_open_next;
reg [CONN_W-1:0]                s1_conn_reg = {CONN_W{1'b0}}, s1_conn_next;
reg [PSN_WIDTH-1:0]             s1_psn_reg = {PSN_WIDTH{1'b0}}, s1_psn_next;
reg [PATH_W-1:0]                s1_path_reg = {PATH_W{1'b0}}, s1_path_next;
reg [PSEQ_WIDTH-1:0]            s1_pseq_reg = {PSEQ_WIDTH{1'b0}}, s1_pseq_next;
reg                             s1_first_reg = 1'b0, s1_first_next;
reg                             s1_last_reg = 1'b0, s1_last_next;
reg                             s1_ack_req_reg = 1'b0, s1_ack_req_next;
reg                             s1_ecn_reg = 1'b0, s1_ecn_next;
reg [HANDLE_WIDTH-1:0]          s1_handle_reg = {HANDLE_WIDTH{1'b0}}, s1_handle_next;

// stage 1 operands: open of s1_conn, read when the operation loads S1 (from the state, or from S1's
// own result when the operation before it was on the same connection), so S1 starts from a register
// instead of a CONNS:1 mux of the state. cum and bitmap come from the connection RAM's read
// register (read at the same edge), or, when the operation before was on the same connection, from
// op_fwd_*: the RAM read at that edge missed S1's write. No power-up value: S1 reads them only when
// s1_valid, and every load of S1 loads them.
reg                             op_open_reg, op_open_next;
reg                             op_fwd_reg, op_fwd_next;
reg [PSN_WIDTH-1:0]             op_fwd_cum_reg, op_fwd_cum_next;
reg [WINDOW-1:0]                op_fwd_bitmap_reg, op_fwd_bitmap_next;

// path RAM write of last cycle, forwarded to S1
reg                             fwd_valid_reg = 1'b0, fwd_valid_next;
reg [PIDX_W-1:0]                fwd_idx_reg = {PIDX_W{1'b0}}, fwd_idx_next;
reg [PRAM_DW-1:0]               fwd_data_reg = {PRAM_DW{1'b0}}, fwd_data_next;

// release
reg [CONN_W-1:0]                rr_reg = {CONN_W{1'b0}}, rr_next;
reg                             m_cpl_valid_reg = 1'b0, m_cpl_valid_next;
reg [CONN_W-1:0]                m_cpl_conn_reg = {CONN_W{1'b0}}, m_cpl_conn_next;
reg [PSN_WIDTH-1:0]             m_cpl_psn_reg = {PSN_WIDTH{1'b0}}, m_cpl_psn_next;

// ACK FIFO; toggle coverage leaves its storage out and covers what enters and leaves it
// (ack_push_data, m_ack_*)
/*verilator coverage_off*/
reg [ACK_DW-1:0]                ack_mem [0:ACK_FIFO_DEPTH-1];
/*verilator coverage_on*/
reg [AF_W-1:0]                  ack_wr_ptr_reg = {AF_W{1'b0}}, ack_wr_ptr_next;
reg [AF_W-1:0]                  ack_rd_ptr_reg = {AF_W{1'b0}}, ack_rd_ptr_next;
reg [AF_W:0]                    ack_count_reg = {AF_W+1{1'b0}}, ack_count_next;

// counters
reg [31:0]                      cnt_accepted_reg = 32'd0, cnt_accepted_next;
reg [31:0]                      cnt_duplicate_reg = 32'd0, cnt_duplicate_next;
reg [31:0]                      cnt_out_of_window_reg = 32'd0, cnt_out_of_window_next;
reg [31:0]                      cnt_closed_reg = 32'd0, cnt_closed_next;

/*
 * Combinational signals (all assigned in the one always @* below)
 */

// input
reg                             s_pkt_ready_int;
reg                             s_ctl_ready_int;
reg                             ack_room;
reg                             lag_ok;
reg                             ctl_hs;
reg                             pkt_hs;

// stage 1
reg                             s1_pkt;
reg                             s1_ctl;
reg                             c_open;
reg [PSN_WIDTH-1:0]             c_cum;
reg [WINDOW-1:0]                c_bitmap;
reg [LAG_W-1:0]                 c_lag;
reg [ACKCNT_W-1:0]              c_ackcnt;
reg [PSN_WIDTH-1:0]             d;
reg                             d_in_win;
reg                             d_neg;
reg                             d_zero;
reg                             is_accept;
reg                             is_dup;
reg                             is_oow;
reg [WINDOW-1:0]                first_zero_in;
reg [WINDOW-1:0]                first_zero_onehot;
reg [L_W-1:0]                   ones_run;
reg [L_W-1:0]                   run_len;
reg [WINDOW-1:0]                bitmap_new;
reg [L_W:0]                     cum_lo_sum;
reg [PSN_WIDTH-L_W-1:0]         cum_hi_inc;
reg [PSN_WIDTH-1:0]             cum_new;
reg                             s1_open_res;
reg [PSN_WIDTH-1:0]             s1_cum_res;
reg [WINDOW-1:0]                s1_bitmap_res;
reg [PIDX_W-1:0]                pidx;
reg [PSEQ_WIDTH-1:0]            p_next;
reg [SACK_BITS-1:0]             p_sack;
reg                             p_ecn;
reg [PSEQ_WIDTH-1:0]            e;
reg [PSEQ_WIDTH-1:0]            e_late;
reg                             gap;
reg [PSEQ_WIDTH-1:0]            p_next_new;
reg [SACK_BITS-1:0]             p_sack_new;
reg                             p_ecn_new;
reg                             ack;

// connection RAM ports
wire [CRAM_DW-1:0]              cram_rd_data;

// path RAM ports
reg                             pram_wr_en;
reg [PRAM_DW-1:0]               pram_wr_data;
wire [PRAM_DW-1:0]              pram_rd_data;

// handle RAM ports
reg                             hram_wr_en;
reg [HRAM_AW-1:0]               hram_wr_addr;
reg [HRAM_DW-1:0]               hram_wr_data;
reg                             hram_rd_en;
reg [HRAM_AW-1:0]               hram_rd_addr;
wire [HRAM_DW-1:0]              hram_rd_data;

// release
reg [CONNS-1:0]                 rel_req;
reg [2*CONNS-1:0]               rel_dbl;
reg [2*CONNS-1:0]               rel_dbl_onehot;
reg [CONNS-1:0]                 rel_onehot;
reg [CONN_W-1:0]                rel_grant;
reg                             rel_fire;
reg [PSN_WIDTH-1:0]             rel_psn;

// ACK FIFO
reg                             ack_push;
reg [ACK_DW-1:0]                ack_push_data;
reg                             ack_pop;

/*
 * Outputs
 */

assign s_pkt_ready = s_pkt_ready_int;
assign s_ctl_ready = s_ctl_ready_int;

assign m_cpl_valid = m_cpl_valid_reg;
assign m_cpl_conn = m_cpl_conn_reg;
assign m_cpl_psn = m_cpl_psn_reg;
assign {m_cpl_first, m_cpl_last, m_cpl_handle} = hram_rd_data;

assign m_ack_valid = ack_count_reg != {AF_W+1{1'b0}};
assign {m_ack_conn, m_ack_psn, m_ack_path, m_ack_pseq, m_ack_sack, m_ack_ecn} =
    ack_mem[ack_rd_ptr_reg];

// verdict: stage 1's packet and class (duplicate, out of window and closed exclude each other)
assign m_rxv_valid = s1_pkt && !rst;
assign m_rxv_conn = s1_conn_reg;
assign m_rxv_psn = s1_psn_reg;
assign m_rxv_code = {is_oow || !c_open, is_dup || !c_open};

assign cnt_accepted = cnt_accepted_reg;
assign cnt_duplicate = cnt_duplicate_reg;
assign cnt_out_of_window = cnt_out_of_window_reg;
assign cnt_closed = cnt_closed_reg;

/*
 * Memories
 */

// cum and bitmap of every connection: written by S1 at s1_conn (every operation, with S1's result),
// read every cycle at the connection S1 holds next (the operation loading S1, else S1's own
// connection)
ram_sdp #(
    .ADDR_WIDTH(CONN_W),
    .DATA_WIDTH(CRAM_DW)
)
conn_ram_inst (
    .clk(clk),
    .wr_en(s1_valid_reg),
    .wr_addr(s1_conn_reg),
    .wr_data({s1_cum_res, s1_bitmap_res}),
    .rd_en(1'b1),
    .rd_addr(s1_conn_next),
    .rd_data(cram_rd_data)
);

ram_sdp #(
    .ADDR_WIDTH(PIDX_W),
    .DATA_WIDTH(PRAM_DW)
)
path_ram_inst (
    .clk(clk),
    .wr_en(pram_wr_en),
    .wr_addr(pidx),
    .wr_data(pram_wr_data),
    .rd_en(pkt_hs),
    .rd_addr({s_pkt_conn, s_pkt_path}),
    .rd_data(pram_rd_data)
);

ram_sdp #(
    .ADDR_WIDTH(HRAM_AW),
    .DATA_WIDTH(HRAM_DW)
)
handle_ram_inst (
    .clk(clk),
    .wr_en(hram_wr_en),
    .wr_addr(hram_wr_addr),
    .wr_data(hram_wr_data),
    .rd_en(hram_rd_en),
    .rd_addr(hram_rd_addr),
    .rd_data(hram_rd_data)
);

/*
 * Next state
 */

always @* begin
    open_next = open_reg;
    lag_next = lag_reg;
    ackcnt_next = ackcnt_reg;
    head_next = head_reg;
    pvalid_next = pvalid_reg;

    s1_valid_next = 1'b0;
    s1_is_ctl_next = s1_is_ctl_reg;
    s1_open_next = s1_open_reg;
    s1_conn_next = s1_conn_reg;
    s1_psn_next = s1_psn_reg;
    s1_path_next = s1_path_reg;
    s1_pseq_next = s1_pseq_reg;
    s1_first_next = s1_first_reg;
    s1_last_next = s1_last_reg;
    s1_ack_req_next = s1_ack_req_reg;
    s1_ecn_next = s1_ecn_reg;
    s1_handle_next = s1_handle_reg;

    fwd_valid_next = 1'b0;
    fwd_idx_next = fwd_idx_reg;
    fwd_data_next = fwd_data_reg;

    rr_next = rr_reg;
    m_cpl_valid_next = m_cpl_valid_reg;
    m_cpl_conn_next = m_cpl_conn_reg;
    m_cpl_psn_next = m_cpl_psn_reg;

    ack_wr_ptr_next = ack_wr_ptr_reg;
    ack_rd_ptr_next = ack_rd_ptr_reg;
    ack_count_next = ack_count_reg;

    cnt_accepted_next = cnt_accepted_reg;
    cnt_duplicate_next = cnt_duplicate_reg;
    cnt_out_of_window_next = cnt_out_of_window_reg;
    cnt_closed_next = cnt_closed_reg;

    /*
     * Input (cycle t): control has priority, both load the one stage-1 slot.
     * s_pkt_ready = !rst && !s_ctl_valid && ack_room && lag_ok, from the state at the start of the
     * cycle.
     */
    ack_room = ack_count_reg <= AF_ROOM_MAX;
    lag_ok = 1'b1;
    for (i = 0; i < CONNS; i = i + 1) begin
        if (lag_reg[i*LAG_W +: LAG_W] > LAG_MAX) begin
            lag_ok = 1'b0;
        end
    end
    s_ctl_ready_int = !rst;
    s_pkt_ready_int = !rst && !s_ctl_valid && ack_room && lag_ok;
    ctl_hs = s_ctl_valid && s_ctl_ready_int;
    pkt_hs = s_pkt_valid && s_pkt_ready_int;

    if (ctl_hs) begin
        s1_valid_next = 1'b1;
        s1_is_ctl_next = 1'b1;
        s1_open_next = s_ctl_open;
        s1_conn_next = s_ctl_conn;
        s1_psn_next = s_ctl_psn;
    end else if (pkt_hs) begin
        // the path RAM is read at {s_pkt_conn, s_pkt_path} (rd_en = pkt_hs), data seen by S1 next
        // cycle
        s1_valid_next = 1'b1;
        s1_is_ctl_next = 1'b0;
        s1_conn_next = s_pkt_conn;
        s1_psn_next = s_pkt_psn;
        s1_path_next = s_pkt_path;
        s1_pseq_next = s_pkt_pseq;
        s1_first_next = s_pkt_first;
        s1_last_next = s_pkt_last;
        s1_ack_req_next = s_pkt_ack_req;
        s1_ecn_next = s_pkt_ecn;
        s1_handle_next = s_pkt_handle;
    end

    /*
     * Stage 1 (cycle t+1): one operation on the state as it is at the start of the cycle.
     */
    s1_pkt = s1_valid_reg && !s1_is_ctl_reg;
    s1_ctl = s1_valid_reg && s1_is_ctl_reg;

    c_open = op_open_reg;
    if (op_fwd_reg) begin
        c_cum = op_fwd_cum_reg;
        c_bitmap = op_fwd_bitmap_reg;
    end else begin
        {c_cum, c_bitmap} = cram_rd_data;
    end
    c_lag = lag_reg[s1_conn_reg*LAG_W +: LAG_W];
    c_ackcnt = ackcnt_reg[s1_conn_reg*ACKCNT_W +: ACKCNT_W];

    // classify on d = signed24(psn - cum):
    //   0 <= d < WINDOW                    -> accept if bitmap[d] clear, else duplicate
    //   -(2^23-1) <= d <= -1               -> duplicate
    //   d >= WINDOW or d == -2^23          -> out of window
    d = s1_psn_reg - c_cum;
    d_in_win = d[PSN_WIDTH-1:WIN_W] == {PSN_WIDTH-WIN_W{1'b0}};
    d_neg = d[PSN_WIDTH-1] && (d[PSN_WIDTH-2:0] != {PSN_WIDTH-1{1'b0}});
    // d == 0 is psn == cum: an equality, beside the subtract rather than behind it
    d_zero = s1_psn_reg == c_cum;
    is_accept = s1_pkt && c_open && d_in_win && !c_bitmap[d[WIN_W-1:0]];
    is_dup = s1_pkt && c_open && ((d_in_win && c_bitmap[d[WIN_W-1:0]]) || d_neg);
    is_oow = s1_pkt && c_open && !d_in_win && !d_neg;

    // accept: b = bitmap | (1 << d); L = trailing ones of b; bitmap = b >> L; cum += L; lag += L.
    // Bitmap bit 0 is always clear, so L = 0 unless d == 0, and for d == 0 L is the index of the
    // first zero of (bitmap | 1) (WINDOW if none) and b >> L == bitmap >> L. That search depends on
    // the bitmap only, not on d.
    first_zero_in = ~(c_bitmap | {{WINDOW-1{1'b0}}, 1'b1});
    first_zero_onehot = first_zero_in & (-first_zero_in);
    ones_run = {first_zero_in == {WINDOW{1'b0}}, {WIN_W{1'b0}}};
    for (i = 0; i < WINDOW; i = i + 1) begin
        if (first_zero_onehot[i]) begin
            ones_run = ones_run | i[L_W-1:0];
        end
    end
    if (d_zero) begin
        run_len = ones_run;
        bitmap_new = c_bitmap >> ones_run;
    end else begin
        run_len = {L_W{1'b0}};
        bitmap_new = c_bitmap | ({{WINDOW-1{1'b0}}, 1'b1} << d[WIN_W-1:0]);
    end
    // cum + L: L is 0 unless d == 0, and then cum == psn, so the adder takes psn (a register) and
    // the search result, and does not wait for d. Carry select: only the low L_W bits wait for the
    // search, the high part (psn_hi + 1, from registers) is ready before it.
    cum_lo_sum = {1'b0, s1_psn_reg[L_W-1:0]} + {1'b0, ones_run};
    cum_hi_inc = s1_psn_reg[PSN_WIDTH-1:L_W] + ONE[PSN_WIDTH-L_W-1:0];
    if (d_zero) begin
        cum_new = {cum_lo_sum[L_W] ? cum_hi_inc : s1_psn_reg[PSN_WIDTH-1:L_W], cum_lo_sum[L_W-1:0]};
    end else begin
        cum_new = c_cum;
    end

    // path state: forwarded from last cycle's write of the same (conn, path), else RAM, else zeros
    pidx = {s1_conn_reg, s1_path_reg};
    if (fwd_valid_reg && fwd_idx_reg == pidx) begin
        {p_next, p_sack, p_ecn} = fwd_data_reg;
    end else if (pvalid_reg[pidx]) begin
        {p_next, p_sack, p_ecn} = pram_rd_data;
    end else begin
        {p_next, p_sack, p_ecn} = {PRAM_DW{1'b0}};
    end

    // path update, e = signed(pseq - pnext):
    //   e >= 0: s = e+1; psack = (s >= SACK_BITS) ? 1 : (psack << s) | 1; pnext = pseq+1;
    //           gap = e > 0
    //   e < 0 and -e-1 < SACK_BITS: set bit -e-1
    //   otherwise no change
    // s >= SACK_BITS is e >= SACK_BITS-1, and psack << s is (psack << e) << 1 (no adder before the
    // shifter). -e-1 is ~e.
    e = s1_pseq_reg - p_next;
    e_late = ~e;
    p_next_new = p_next;
    p_sack_new = p_sack;
    gap = 1'b0;
    if (!e[PSEQ_WIDTH-1]) begin
        if (e[PSEQ_WIDTH-1:SACK_W] != {PSEQ_WIDTH-SACK_W{1'b0}} || &e[SACK_W-1:0]) begin
            p_sack_new = {{SACK_BITS-1{1'b0}}, 1'b1};
        end else begin
            p_sack_new = ((p_sack << e[SACK_W-1:0]) << 1) | {{SACK_BITS-1{1'b0}}, 1'b1};
        end
        p_next_new = s1_pseq_reg + {{PSEQ_WIDTH-1{1'b0}}, 1'b1};
        gap = e != {PSEQ_WIDTH{1'b0}};
    end else if (e_late[PSEQ_WIDTH-1:SACK_W] == {PSEQ_WIDTH-SACK_W{1'b0}}) begin
        p_sack_new = p_sack | ({{SACK_BITS-1{1'b0}}, 1'b1} << e_late[SACK_W-1:0]);
    end
    p_ecn_new = p_ecn || s1_ecn_reg;

    // ACK decision (not for out of window)
    ack = (is_accept || is_dup) &&
        (s1_ack_req_reg || is_dup || gap || (is_accept && c_ackcnt == ACKCNT_LAST));

    // path RAM write (every packet to an open connection), forwarded to next cycle's S1
    pram_wr_en = s1_pkt && c_open;
    pram_wr_data = {p_next_new, p_sack_new, p_ecn_new && !ack};
    fwd_valid_next = pram_wr_en;
    fwd_idx_next = pidx;
    fwd_data_next = pram_wr_data;

    // handle RAM write on accept
    hram_wr_en = is_accept;
    hram_wr_addr = {s1_conn_reg, s1_psn_reg[SLOT_W-1:0]};
    hram_wr_data = {s1_first_reg, s1_last_reg, s1_handle_reg};

    // ACK push
    ack_push = ack;
    ack_push_data = {s1_conn_reg, cum_new, s1_path_reg, p_next_new, p_sack_new, p_ecn_new};

    if (pram_wr_en) begin
        pvalid_next[pidx] = 1'b1;
    end

    // S1's connection after this cycle (what the loop below writes to open of s1_conn, and the
    // connection RAM to cum and bitmap)
    s1_open_res = s1_ctl ? s1_open_reg : c_open;
    if (s1_ctl) begin
        s1_cum_res = s1_open_reg ? s1_psn_reg : c_cum;
        s1_bitmap_res = {WINDOW{1'b0}};
    end else if (is_accept) begin
        s1_cum_res = cum_new;
        s1_bitmap_res = bitmap_new;
    end else begin
        s1_cum_res = c_cum;
        s1_bitmap_res = c_bitmap;
    end

    // next S1's operands: the state at the start of next cycle of s1_conn_next (the release does
    // not write open, cum or bitmap, so only this cycle's S1 can have changed them). The connection
    // RAM reads cum and bitmap at s1_conn_next at the same edge; when this cycle's S1 writes that
    // connection, the read returns the old contents and S1's result is taken from op_fwd_* instead.
    op_fwd_next = s1_valid_reg && s1_conn_next == s1_conn_reg;
    op_fwd_cum_next = s1_cum_res;
    op_fwd_bitmap_next = s1_bitmap_res;
    if (op_fwd_next) begin
        op_open_next = s1_open_res;
    end else begin
        op_open_next = open_reg[s1_conn_next];
    end

    for (i = 0; i < CONNS; i = i + 1) begin
        if (s1_conn_reg == i[CONN_W-1:0]) begin
            if (s1_ctl) begin
                // open: open=1, cum=head=psn; close: open=0; both: bitmap, lag, ackcnt, paths
                // cleared (open, cum and bitmap through s1_*_res below)
                if (s1_open_reg) begin
                    head_next[i*PSN_WIDTH +: PSN_WIDTH] = s1_psn_reg;
                end
                lag_next[i*LAG_W +: LAG_W] = {LAG_W{1'b0}};
                ackcnt_next[i*ACKCNT_W +: ACKCNT_W] = {ACKCNT_W{1'b0}};
                pvalid_next[i*PATHS +: PATHS] = {PATHS{1'b0}};
            end
            if (s1_valid_reg) begin
                open_next[i] = s1_open_res;
            end
            if (is_accept) begin
                lag_next[i*LAG_W +: LAG_W] = c_lag + {{LAG_W-L_W{1'b0}}, run_len};
            end
            if (ack) begin
                ackcnt_next[i*ACKCNT_W +: ACKCNT_W] = {ACKCNT_W{1'b0}};
            end else if (is_accept) begin
                ackcnt_next[i*ACKCNT_W +: ACKCNT_W] = c_ackcnt + {{ACKCNT_W-1{1'b0}}, 1'b1};
            end
        end
    end

    if (s1_pkt && !c_open) begin
        cnt_closed_next = cnt_closed_reg + 32'd1;
    end
    if (is_accept) begin
        cnt_accepted_next = cnt_accepted_reg + 32'd1;
    end
    if (is_dup) begin
        cnt_duplicate_next = cnt_duplicate_reg + 32'd1;
    end
    if (is_oow) begin
        cnt_out_of_window_next = cnt_out_of_window_reg + 32'd1;
    end

    /*
     * Release (every cycle, independent of stage 1, on the state at the start of the cycle).
     * Candidates lag != 0 except the connection of a control operation in S1; round robin from rr:
     * {req, req & mask(>= rr)} with its lowest set bit isolated, folded back to CONNS bits.
     */
    for (i = 0; i < CONNS; i = i + 1) begin
        rel_req[i] = lag_reg[i*LAG_W +: LAG_W] != {LAG_W{1'b0}} &&
            !(s1_ctl && s1_conn_reg == i[CONN_W-1:0]);
    end
    rel_dbl = {rel_req, rel_req & ({CONNS{1'b1}} << rr_reg)};
    rel_dbl_onehot = rel_dbl & (-rel_dbl);
    rel_onehot = rel_dbl_onehot[CONNS-1:0] | rel_dbl_onehot[2*CONNS-1:CONNS];
    rel_grant = {CONN_W{1'b0}};
    for (i = 0; i < CONNS; i = i + 1) begin
        if (rel_onehot[i]) begin
            rel_grant = rel_grant | i[CONN_W-1:0];
        end
    end
    rel_fire = rel_req != {CONNS{1'b0}} && (!m_cpl_valid_reg || m_cpl_ready);
    // cum - lag of the grant, selected by the one-hot (no encoder in front of the mux)
    rel_psn = {PSN_WIDTH{1'b0}};
    for (i = 0; i < CONNS; i = i + 1) begin
        if (rel_onehot[i]) begin
            rel_psn = rel_psn | head_reg[i*PSN_WIDTH +: PSN_WIDTH];
        end
    end

    hram_rd_en = rel_fire;
    hram_rd_addr = {rel_grant, rel_psn[SLOT_W-1:0]};

    if (rel_fire) begin
        m_cpl_valid_next = 1'b1;
        m_cpl_conn_next = rel_grant;
        m_cpl_psn_next = rel_psn;
        rr_next = rel_grant + ONE[CONN_W-1:0];
        for (i = 0; i < CONNS; i = i + 1) begin
            if (rel_onehot[i]) begin
                // after S1: an accept on the same connection gives lag + L - 1
                lag_next[i*LAG_W +: LAG_W] = lag_next[i*LAG_W +: LAG_W] - {{LAG_W-1{1'b0}}, 1'b1};
                head_next[i*PSN_WIDTH +: PSN_WIDTH] = rel_psn + ONE[PSN_WIDTH-1:0];
            end
        end
    end else if (m_cpl_ready) begin
        m_cpl_valid_next = 1'b0;
    end

    /*
     * ACK FIFO: push at the end of S1 (visible next cycle), pop on m_ack handshake. The input
     * stalls while count > DEPTH-2, so the at most two pushes in flight never overflow it.
     */
    ack_pop = ack_count_reg != {AF_W+1{1'b0}} && m_ack_ready;
    if (ack_push) begin
        ack_wr_ptr_next = ack_wr_ptr_reg + {{AF_W-1{1'b0}}, 1'b1};
    end
    if (ack_pop) begin
        ack_rd_ptr_next = ack_rd_ptr_reg + {{AF_W-1{1'b0}}, 1'b1};
    end
    if (ack_push && !ack_pop) begin
        ack_count_next = ack_count_reg + {{AF_W{1'b0}}, 1'b1};
    end else if (!ack_push && ack_pop) begin
        ack_count_next = ack_count_reg - {{AF_W{1'b0}}, 1'b1};
    end
end

always @(posedge clk) begin
    open_reg <= open_next;
    lag_reg <= lag_next;
    ackcnt_reg <= ackcnt_next;
    head_reg <= head_next;
    pvalid_reg <= pvalid_next;

    s1_valid_reg <= s1_valid_next;
    s1_is_ctl_reg <= s1_is_ctl_next;
    s1_open_reg <= s1_open_next;
    s1_conn_reg <= s1_conn_next;
    s1_psn_reg <= s1_psn_next;
    s1_path_reg <= s1_path_next;
    s1_pseq_reg <= s1_pseq_next;
    s1_first_reg <= s1_first_next;
    s1_last_reg <= s1_last_next;
    s1_ack_req_reg <= s1_ack_req_next;
    s1_ecn_reg <= s1_ecn_next;
    s1_handle_reg <= s1_handle_next;

    op_open_reg <= op_open_next;
    op_fwd_reg <= op_fwd_next;
    op_fwd_cum_reg <= op_fwd_cum_next;
    op_fwd_bitmap_reg <= op_fwd_bitmap_next;

    fwd_valid_reg <= fwd_valid_next;
    fwd_idx_reg <= fwd_idx_next;
    fwd_data_reg <= fwd_data_next;

    rr_reg <= rr_next;
    m_cpl_valid_reg <= m_cpl_valid_next;
    m_cpl_conn_reg <= m_cpl_conn_next;
    m_cpl_psn_reg <= m_cpl_psn_next;

    if (ack_push) begin
        ack_mem[ack_wr_ptr_reg] <= ack_push_data;
    end
    ack_wr_ptr_reg <= ack_wr_ptr_next;
    ack_rd_ptr_reg <= ack_rd_ptr_next;
    ack_count_reg <= ack_count_next;

    cnt_accepted_reg <= cnt_accepted_next;
    cnt_duplicate_reg <= cnt_duplicate_next;
    cnt_out_of_window_reg <= cnt_out_of_window_next;
    cnt_closed_reg <= cnt_closed_next;

    if (rst) begin
        for (j = 0; j < CONNS; j = j + 1) begin
            open_reg[j] <= 1'b0;
            lag_reg[j*LAG_W +: LAG_W] <= {LAG_W{1'b0}};
            ackcnt_reg[j*ACKCNT_W +: ACKCNT_W] <= {ACKCNT_W{1'b0}};
            pvalid_reg[j*PATHS +: PATHS] <= {PATHS{1'b0}};
        end
        s1_valid_reg <= 1'b0;
        fwd_valid_reg <= 1'b0;
        rr_reg <= {CONN_W{1'b0}};
        m_cpl_valid_reg <= 1'b0;
        ack_wr_ptr_reg <= {AF_W{1'b0}};
        ack_rd_ptr_reg <= {AF_W{1'b0}};
        ack_count_reg <= {AF_W+1{1'b0}};
        cnt_accepted_reg <= 32'd0;
        cnt_duplicate_reg <= 32'd0;
        cnt_out_of_window_reg <= 32'd0;
        cnt_closed_reg <= 32'd0;
    end
end

`ifdef FORMAL
/*
 * Properties (docs/formal.md, property sets rx_reorder, rx_reorder_bmc and rx_reorder_rxv). The
 * first group holds by k-induction; the group under FORMAL_BMC reads the connection and path RAMs,
 * whose contents induction leaves free, and is checked by bounded model checking. Set
 * rx_reorder_rxv (FORMAL_RXV) holds the verdict output's properties alone, by 1-induction.
 */
reg                     f_past_valid = 1'b0;
// per connection, since its last open: open PSN, any completion yet, last completed PSN
reg [CONNS*PSN_WIDTH-1:0] f_open_psn;
reg [CONNS-1:0]         f_cpl_any;
reg [CONNS*PSN_WIDTH-1:0] f_cpl_last;
// control operation of last cycle's S1 and its connection
reg                     f_ctl_done = 1'b0;
reg [CONN_W-1:0]        f_ctl_conn;
// last cycle's reset, counters and events {closed, out of window, duplicate, accepted}
reg                     f_rst_prev = 1'b1;
reg [4*32-1:0]          f_cnt_prev;
reg [3:0]               f_ev_prev;
reg [PSN_WIDTH-1:0]     f_d;
reg [PSN_WIDTH-1:0]     f_adv;
reg [PSN_WIDTH-1:0]     f_expect;
integer                 f_i;
reg                     f_ok;

always @(posedge clk) begin
    f_past_valid <= 1'b1;
    f_ctl_done <= s1_ctl;
    f_rst_prev <= rst;
    f_cnt_prev <= {cnt_closed_reg, cnt_out_of_window_reg, cnt_duplicate_reg, cnt_accepted_reg};
    f_ev_prev <= {s1_pkt && !c_open, is_oow, is_dup, is_accept};
    f_ctl_conn <= s1_conn_reg;
    if (rel_fire) begin
        f_cpl_any[rel_grant] <= 1'b1;
        f_cpl_last[rel_grant*PSN_WIDTH +: PSN_WIDTH] <= rel_psn;
    end
    if (s1_ctl && s1_open_reg) begin
        f_open_psn[s1_conn_reg*PSN_WIDTH +: PSN_WIDTH] <= s1_psn_reg;
        f_cpl_any[s1_conn_reg] <= 1'b0;
    end
end

always @* begin
    // contract (docs/rx_reorder.md, Ports): rst is a synchronous reset, high in the first cycle
    if (!f_past_valid) begin
        assume (rst);
    end
end

`ifndef FORMAL_RXV
always @* begin
    f_d = s1_psn_reg - c_cum;
    f_adv = s1_cum_res - c_cum;
    if (f_past_valid && !rst) begin
        // a packet to an open connection is exactly one of accepted, duplicate, out of window
        if (s1_pkt && c_open) begin
            rx_classify: assert ({is_accept, is_dup, is_oow} == 3'b100 ||
                {is_accept, is_dup, is_oow} == 3'b010 || {is_accept, is_dup, is_oow} == 3'b001);
        end
        if (s1_pkt && !c_open) begin
            rx_closed_drop: assert (!is_accept && !is_dup && !is_oow && !ack);
        end
        // no PSN outside [cum, cum+WINDOW) accepted, and none accepted twice
        if (is_accept) begin
            rx_accept_window: assert (f_d < WINDOW);
            rx_accept_new: assert (!c_bitmap[f_d[WIN_W-1:0]]);
        end
        if (s1_pkt) begin
            // cum never moves back and moves at most WINDOW; it passes only received PSNs: the one
            // accepted now (at cum) and those the bitmap holds
            rx_cum_forward: assert (f_adv <= WINDOW);
            if (f_adv != {PSN_WIDTH{1'b0}}) begin
                rx_cum_received: assert (is_accept && f_d == {PSN_WIDTH{1'b0}});
            end
            f_ok = 1'b1;
            for (f_i = 1; f_i < WINDOW; f_i = f_i + 1) begin
                if (f_i < f_adv && !c_bitmap[f_i]) begin
                    f_ok = 1'b0;
                end
            end
            rx_cum_bitmap: assert (f_ok);
        end
        // completions of a connection in PSN order from its open PSN, without gaps
        if (rel_fire) begin
            f_expect = f_cpl_any[rel_grant] ?
                f_cpl_last[rel_grant*PSN_WIDTH +: PSN_WIDTH] + ONE[PSN_WIDTH-1:0] :
                f_open_psn[rel_grant*PSN_WIDTH +: PSN_WIDTH];
            rx_cpl_order: assert (rel_psn == f_expect);
        end
        // strengthening: head is the next PSN to release while open; a closed connection has
        // nothing to release; S1's copy of open is the connection's
        f_ok = 1'b1;
        for (f_i = 0; f_i < CONNS; f_i = f_i + 1) begin
            if (!open_reg[f_i] && lag_reg[f_i*LAG_W +: LAG_W] != {LAG_W{1'b0}}) begin
                f_ok = 1'b0;
            end
        end
        rx_closed_idle: assert (f_ok);
        if (s1_valid_reg) begin
            rx_op_open: assert (op_open_reg == open_reg[s1_conn_reg]);
        end
        f_ok = 1'b1;
        for (f_i = 0; f_i < CONNS; f_i = f_i + 1) begin
            if (open_reg[f_i] &&
                    head_reg[f_i*PSN_WIDTH +: PSN_WIDTH] != (f_cpl_any[f_i] ?
                    f_cpl_last[f_i*PSN_WIDTH +: PSN_WIDTH] + ONE[PSN_WIDTH-1:0] :
                    f_open_psn[f_i*PSN_WIDTH +: PSN_WIDTH])) begin
                f_ok = 1'b0;
            end
        end
        rx_head: assert (f_ok);
        // the ACK FIFO never overflows (two pushes in flight at most)
        rx_ack_fifo: assert (ack_count_reg <= ACK_FIFO_DEPTH);
        if (s1_pkt) begin
            rx_ack_fifo_s1: assert (ack_count_reg < ACK_FIFO_DEPTH);
        end
        rx_ack_fifo_ptr: assert (ack_count_reg[AF_W-1:0] == ack_wr_ptr_reg - ack_rd_ptr_reg);
        // housekeeping: after an open or close nothing of the connection is left in flight
        if (f_ctl_done) begin
            rx_ctl_clears: assert (lag_reg[f_ctl_conn*LAG_W +: LAG_W] == {LAG_W{1'b0}} &&
                ackcnt_reg[f_ctl_conn*ACKCNT_W +: ACKCNT_W] == {ACKCNT_W{1'b0}} &&
                pvalid_reg[f_ctl_conn*PATHS +: PATHS] == {PATHS{1'b0}});
        end
        if (s1_ctl) begin
            rx_ctl_no_release: assert (!(rel_fire && rel_grant == s1_conn_reg));
        end
        // memories are written only on the events their contract names
        rx_hram_write: assert (hram_wr_en == is_accept);
        rx_pram_write: assert (pram_wr_en == (s1_pkt && c_open));
        rx_ack_only_rx: assert (!ack_push || is_accept || is_dup);
    end
    if (f_past_valid && !rst && !f_rst_prev) begin
        // counters agree with events: each moves by one on its event, by nothing otherwise
        rx_cnt_accepted: assert (cnt_accepted_reg == f_cnt_prev[0 +: 32] + f_ev_prev[0]);
        rx_cnt_duplicate: assert (cnt_duplicate_reg == f_cnt_prev[32 +: 32] + f_ev_prev[1]);
        rx_cnt_oow: assert (cnt_out_of_window_reg == f_cnt_prev[64 +: 32] + f_ev_prev[2]);
        rx_cnt_closed: assert (cnt_closed_reg == f_cnt_prev[96 +: 32] + f_ev_prev[3]);
    end
end

// non-vacuity
always @* begin
    if (f_past_valid && !rst) begin
        // a full window: an accept at the window's last PSN, cum + WINDOW - 1
        c_full_window: cover (is_accept && f_d == WINDOW - 1);
        // a PSN wrap: cum passes 2^24-1
        c_psn_wrap: cover (is_accept && cum_new < c_cum);
        c_release: cover (rel_fire && m_cpl_valid_reg);
        c_duplicate: cover (is_dup);
        c_out_of_window: cover (is_oow);
        c_closed: cover (s1_pkt && !c_open);
    end
end
`else
/*
 * Set rx_reorder_rxv: one verdict per packet taken, in the cycle after its s_pkt handshake (none
 * in a reset cycle), with its connection and PSN; its code is the counter that moved at the end
 * of that cycle (0 cnt_accepted, 1 cnt_duplicate, 2 cnt_out_of_window, 3 cnt_closed), and no
 * counter moves in a cycle without a verdict. Stated from ports alone (f_*_prev: the cycle before).
 */
reg                     f_hs_prev = 1'b0;
reg [CONN_W-1:0]        f_hs_conn_prev;
reg [PSN_WIDTH-1:0]     f_hs_psn_prev;
reg                     f_rxv_prev;
reg [1:0]               f_code_prev;
reg [3:0]               f_code_ev;

always @(posedge clk) begin
    f_hs_prev <= s_pkt_valid && s_pkt_ready;
    f_hs_conn_prev <= s_pkt_conn;
    f_hs_psn_prev <= s_pkt_psn;
    f_rxv_prev <= m_rxv_valid;
    f_code_prev <= m_rxv_code;
end

always @* begin
    // last cycle's verdict as the counter it names: {closed, out of window, duplicate, accepted}
    f_code_ev = f_rxv_prev ? 4'b0001 << f_code_prev : 4'b0000;
    if (f_past_valid) begin
        rx_rxv_pkt: assert (m_rxv_valid == (f_hs_prev && !rst) && (!m_rxv_valid ||
            (m_rxv_conn == f_hs_conn_prev && m_rxv_psn == f_hs_psn_prev)));
    end
    if (f_past_valid && !f_rst_prev) begin
        rx_rxv_code: assert (
            cnt_accepted == f_cnt_prev[0 +: 32] + {31'd0, f_code_ev[0]} &&
            cnt_duplicate == f_cnt_prev[32 +: 32] + {31'd0, f_code_ev[1]} &&
            cnt_out_of_window == f_cnt_prev[64 +: 32] + {31'd0, f_code_ev[2]} &&
            cnt_closed == f_cnt_prev[96 +: 32] + {31'd0, f_code_ev[3]});
    end
end

// non-vacuity: a verdict of each code
always @* begin
    if (f_past_valid && !rst) begin
        c_rxv_accepted: cover (m_rxv_valid && m_rxv_code == 2'd0);
        c_rxv_duplicate: cover (m_rxv_valid && m_rxv_code == 2'd1);
        c_rxv_oow: cover (m_rxv_valid && m_rxv_code == 2'd2);
        c_rxv_closed: cover (m_rxv_valid && m_rxv_code == 2'd3);
    end
end
`endif

`ifdef FORMAL_BMC
// one connection f_c, one PSN f_psn, one path f_p, one path sequence f_q stand for all (anyconst):
// since the last open of f_c, f_got says f_psn was accepted, f_done that it completed, f_q_got that
// a packet of sequence f_q arrived on f_p
(* anyconst *) reg [CONN_W-1:0] f_c;
(* anyconst *) reg [PSN_WIDTH-1:0] f_psn;
(* anyconst *) reg [PATH_W-1:0] f_p;
(* anyconst *) reg [PSEQ_WIDTH-1:0] f_q;
reg                     f_opened = 1'b0;
reg                     f_got = 1'b0;
reg                     f_done = 1'b0;
reg                     f_q_got = 1'b0;
reg [PSEQ_WIDTH-1:0]    f_bit;

always @(posedge clk) begin
    if (is_accept && s1_conn_reg == f_c && s1_psn_reg == f_psn) begin
        f_got <= 1'b1;
    end
    if (rel_fire && rel_grant == f_c && rel_psn == f_psn) begin
        f_done <= 1'b1;
    end
    if (s1_pkt && c_open && s1_conn_reg == f_c && s1_path_reg == f_p && s1_pseq_reg == f_q) begin
        f_q_got <= 1'b1;
    end
    if (s1_ctl && s1_conn_reg == f_c) begin
        f_opened <= s1_open_reg;
        f_got <= 1'b0;
        f_done <= 1'b0;
        f_q_got <= 1'b0;
    end
    if (rst) begin
        f_opened <= 1'b0;
    end
end

always @* begin
    f_bit = p_next_new - f_q - {{PSEQ_WIDTH-1{1'b0}}, 1'b1};
    if (f_past_valid && !rst && f_opened) begin
        // a PSN completes at most once, and only after it was accepted
        if (rel_fire && rel_grant == f_c && rel_psn == f_psn) begin
            rx_cpl_once: assert (!f_done);
            rx_cpl_received: assert (f_got);
        end
        // cum (what an ACK carries) never passes an unreceived PSN
        if (s1_pkt && s1_conn_reg == f_c &&
                f_psn - f_open_psn[f_c*PSN_WIDTH +: PSN_WIDTH] <
                s1_cum_res - f_open_psn[f_c*PSN_WIDTH +: PSN_WIDTH]) begin
            rx_ack_received: assert (f_got || (is_accept && s1_psn_reg == f_psn));
        end
        // a SACK bit is set only for a received packet
        if (ack_push && s1_conn_reg == f_c && s1_path_reg == f_p && f_bit < SACK_BITS) begin
            if (p_sack_new[f_bit[SACK_W-1:0]]) begin
                rx_sack_received: assert (f_q_got || s1_pseq_reg == f_q);
            end
        end
        c_cpl_checked: cover (rel_fire && rel_grant == f_c && rel_psn == f_psn && f_got);
        c_sack_checked: cover (ack_push && s1_conn_reg == f_c && s1_path_reg == f_p &&
            f_bit != {PSEQ_WIDTH{1'b0}} && f_bit < SACK_BITS && p_sack_new[f_bit[SACK_W-1:0]]);
    end
end
`endif
`endif

endmodule

`resetall
