// SPDX-License-Identifier: Apache-2.0
/*
 * retx: TX retransmit engine of the spraynic transport core.
 *
 * Numbers new packets (connection PSN and per-path sequence), remembers every outstanding packet,
 * applies the receiver's ACKs (cumulative PSN + one path's SACK bitmap, the rx_reorder m_ack
 * format, plus a NAK), retransmits exactly the packet a SACK hole reveals as lost, backs everything
 * up with a per-connection retransmission timeout with exponential backoff, and puts a connection
 * into error after too many retries. Reports per-path delivered / ECN / loss / timeout events to
 * the path selector. GBN = 1 selects a go-back-N mode (RoCEv2-like: rewind on NAK or timeout), the
 * baseline. Two timers keep the RTO a backstop: a busy connection asks for an ACK at least once per
 * ACK_REQ_TICKS ticks, and a duplicate ACK marks the oldest outstanding packet lost once its path
 * has been quiet for EARLY_CYCLES cycles (early loss).
 *
 * Interfaces: s_tx (new packets), s_path (path decisions) with m_preq (the hint asking for one),
 * m_pkt (transmissions), s_ack (ACKs / NAKs), s_ctl (open / close), m_fb (path feedback), m_err
 * (connection error), m_una (cumulative ACK progress), cnt_* (counters).
 *
 * Contract: docs/retx.md, cycle by cycle: ports, state, the send slot and lookup pipeline, memories
 * and their forwarding, same-cycle order, critical paths. The Go golden model golden/retx
 * implements the same document and is compared with this module on every output port in lockstep.
 * Comments below cite its rules.
 */

`resetall
`timescale 1ns / 1ps
`default_nettype none

module retx #(
    // Number of connections; power of two, 2..1024.
    parameter CONNS = 16,
    // PSNs outstanding per connection at most; power of two, 8..1024.
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
    // Clock cycles per timer tick; 2..65536, and >= CONNS (one connection visited per cycle).
    parameter TICK_CYCLES = 256,
    // Initial retransmission timeout, ticks; 1..65535.
    parameter RTO_TICKS = 8,
    // Backoff cap, ticks; RTO_TICKS..65535.
    parameter RTO_MAX_TICKS = 64,
    // Retransmissions of one packet before the connection errors; 1..15.
    parameter MAX_RETRIES = 7,
    // 0: selective (SACK) mode; 1: go-back-N mode.
    parameter GBN = 0,
    // ACK request age, ticks: a new packet asks for an ACK when its connection sent none that did
    // for this many ticks; 0..15, 0 off.
    parameter ACK_REQ_TICKS = 1,
    // Early loss age, cycles: a duplicate ACK marks the oldest outstanding packet lost when nothing
    // was sent on its path for this long (selective mode); 0..32767, 0 off.
    parameter EARLY_CYCLES = 950
) (
    input  wire                         clk,
    input  wire                         rst,

    /*
     * New work input
     */
    input  wire                         s_tx_valid,
    output wire                         s_tx_ready,
    input  wire [$clog2(CONNS)-1:0]     s_tx_conn,
    input  wire [HANDLE_WIDTH-1:0]      s_tx_handle,
    input  wire                         s_tx_first,
    input  wire                         s_tx_last,

    /*
     * Path decision input (from the path selector)
     */
    input  wire                         s_path_valid,
    output wire                         s_path_ready,
    input  wire [$clog2(PATHS)-1:0]     s_path_path,
    input  wire [15:0]                  s_path_entropy,

    /*
     * Path request hint (combinational)
     */
    output wire                         m_preq_valid,
    output wire [$clog2(CONNS)-1:0]     m_preq_conn,
    output wire                         m_preq_retx,
    output wire [$clog2(PATHS)-1:0]     m_preq_avoid,

    /*
     * Transmission output
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
     * ACK input (rx_reorder m_ack format, plus nak)
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
     * Connection control input
     */
    input  wire                         s_ctl_valid,
    output wire                         s_ctl_ready,
    input  wire                         s_ctl_open,
    input  wire [$clog2(CONNS)-1:0]     s_ctl_conn,
    input  wire [PSN_WIDTH-1:0]         s_ctl_psn,

    /*
     * Path feedback output (path_sel s_fb format)
     */
    output wire                         m_fb_valid,
    input  wire                         m_fb_ready,
    output wire [$clog2(CONNS)-1:0]     m_fb_conn,
    output wire [$clog2(PATHS)-1:0]     m_fb_path,
    output wire [1:0]                   m_fb_kind,
    output wire [7:0]                   m_fb_count,

    /*
     * Error output (one-cycle pulse)
     */
    output wire                         m_err_valid,
    output wire [$clog2(CONNS)-1:0]     m_err_conn,

    /*
     * Cumulative ACK: una of m_una_conn moved forward to m_una_psn (one-cycle pulse, no ready)
     */
    output wire                         m_una_valid,
    output wire [$clog2(CONNS)-1:0]     m_una_conn,
    output wire [PSN_WIDTH-1:0]         m_una_psn,

    /*
     * Counters (wrap)
     */
    output wire [31:0]                  cnt_sent,
    output wire [31:0]                  cnt_retx_loss,
    output wire [31:0]                  cnt_retx_timeout,
    output wire [31:0]                  cnt_retx_gbn,
    output wire [31:0]                  cnt_timeouts,
    output wire [31:0]                  cnt_errors,
    output wire [31:0]                  cnt_tx_dropped,
    output wire [31:0]                  cnt_ack_ignored
);

// connection, path, tx slot and SACK index widths (docs: Derived)
localparam CONN_W = $clog2(CONNS);
localparam PATH_W = $clog2(PATHS);
localparam SLOT_W = $clog2(WINDOW);
localparam SACK_W = $clog2(SACK_BITS);
// flat (connection, path) index width and count
localparam PIDX_W = CONN_W + PATH_W;
localparam NPATHS = CONNS * PATHS;
// tick counter width (TICK_CYCLES >= 2, so at least 1 bit)
localparam TICK_W = TICK_CYCLES > 1 ? $clog2(TICK_CYCLES) : 1;
// timer field widths (docs: State)
localparam RTO_W = 16;
localparam RETR_W = 4;

// tx table: {psn, path, pseq, retries, handle, first, last}
localparam TX_AW = CONN_W + SLOT_W;
localparam TX_DW = PSN_WIDTH + PATH_W + PSEQ_WIDTH + RETR_W + HANDLE_WIDTH + 2;
// path map: tx slot
localparam PM_AW = CONN_W + PATH_W + SACK_W;
localparam PM_DW = SLOT_W;

// lookup kinds (L1, L2)
localparam [1:0] K_HOLE = 2'd0;
localparam [1:0] K_RTO = 2'd1;
localparam [1:0] K_GBN = 2'd2;
localparam [1:0] K_EARLY = 2'd3;

// feedback kinds (path_sel s_fb_kind)
localparam [1:0] FB_DELIVERED = 2'd0;
localparam [1:0] FB_ECN = 2'd1;
localparam [1:0] FB_LOSS = 2'd2;
localparam [1:0] FB_TIMEOUT = 2'd3;

// mode; the early loss and ACK request age logic exist only when on (generate blocks below)
localparam GBN_MODE = GBN != 0;
localparam EARLY_ON = EARLY_CYCLES != 0 && !GBN_MODE;
localparam ARQ_ON = ACK_REQ_TICKS != 0;
// ACK request age width (saturates at 15) and early loss clock width (docs: State)
localparam ARQ_W = 4;
localparam NOW_W = 16;

// sized constants: last tick value, connection count (visit range), timeouts, retry limit, window,
// region cap r <= min(SACK_BITS, 255)
localparam [31:0] TICK_LAST_32 = TICK_CYCLES - 1;
localparam [31:0] CONNS_32 = CONNS;
localparam [31:0] RTO_32 = RTO_TICKS;
localparam [31:0] RTO_MAX_32 = RTO_MAX_TICKS;
localparam [31:0] MAX_RETRIES_32 = MAX_RETRIES;
localparam [31:0] WINDOW_32 = WINDOW;
localparam [31:0] RMAX_32 = SACK_BITS < 255 ? SACK_BITS : 255;
localparam [TICK_W-1:0] TICK_LAST = TICK_LAST_32[TICK_W-1:0];
localparam [RTO_W-1:0] RTO_INIT = RTO_32[RTO_W-1:0];
localparam [RTO_W:0] RTO_CAP = RTO_MAX_32[RTO_W:0];
localparam [RETR_W-1:0] RETR_MAX = MAX_RETRIES_32[RETR_W-1:0];
localparam [PSN_WIDTH-1:0] WIN_PSN = WINDOW_32[PSN_WIDTH-1:0];
localparam [PSEQ_WIDTH-1:0] RMAX_SEQ = RMAX_32[PSEQ_WIDTH-1:0];
localparam [PSN_WIDTH-1:0] PSN_ONE = 1;
localparam [PSEQ_WIDTH-1:0] SEQ_ONE = 1;
localparam [31:0] ACK_REQ_32 = ACK_REQ_TICKS;
localparam [31:0] EARLY_32 = EARLY_CYCLES;
localparam [31:0] SACK_BITS_32 = SACK_BITS;
localparam [ARQ_W-1:0] ARQ_DUE = ACK_REQ_32[ARQ_W-1:0];
localparam [NOW_W-1:0] EARLY_AGE = EARLY_32[NOW_W-1:0];
localparam [PSEQ_WIDTH-1:0] SACK_SEQ = SACK_BITS_32[PSEQ_WIDTH-1:0];
localparam [PSEQ_WIDTH-1:0] LOSS_MAX_SEQ = 255;
localparam [ARQ_W-1:0] ARQ_MAX = {ARQ_W{1'b1}};
localparam [ARQ_W-1:0] ARQ_ONE = 1;
localparam [NOW_W-1:0] NOW_ONE = 1;

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
    if (TICK_CYCLES < 2 || TICK_CYCLES > 65536) begin
        $error("Error: TICK_CYCLES = %0d (allowed: 2..65536) (instance %m)", TICK_CYCLES);
        $finish;
    end
    if (TICK_CYCLES < CONNS) begin
        $error("Error: TICK_CYCLES = %0d below CONNS = %0d (allowed: %0s) (instance %m)",
            TICK_CYCLES, CONNS, "TICK_CYCLES >= CONNS");
        $finish;
    end
    if (RTO_TICKS < 1 || RTO_TICKS > 65535) begin
        $error("Error: RTO_TICKS = %0d (allowed: 1..65535) (instance %m)", RTO_TICKS);
        $finish;
    end
    if (RTO_MAX_TICKS < 1 || RTO_MAX_TICKS > 65535) begin
        $error("Error: RTO_MAX_TICKS = %0d (allowed: 1..65535) (instance %m)", RTO_MAX_TICKS);
        $finish;
    end
    if (RTO_MAX_TICKS < RTO_TICKS) begin
        $error("Error: RTO_MAX_TICKS = %0d below RTO_TICKS = %0d (allowed: %0s) (instance %m)",
            RTO_MAX_TICKS, RTO_TICKS, "RTO_TICKS <= RTO_MAX_TICKS");
        $finish;
    end
    if (MAX_RETRIES < 1 || MAX_RETRIES > 15) begin
        $error("Error: MAX_RETRIES = %0d (allowed: 1..15) (instance %m)", MAX_RETRIES);
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

// loop indices: one per always block (b: ACK, h: lookup, c: per connection, p: per path, j:
// clocked, k: initial)
integer b;
integer h;
integer c;
integer j;
integer k;

/*
 * State
 */

// per connection, flattened, entry c at [c*W +: W]; power-up values (closed, zero) set by the
// initial block
reg [CONNS-1:0]                 open_reg, open_next;
reg [CONNS-1:0]                 err_reg, err_next;
reg [CONNS*PSN_WIDTH-1:0]       una_reg, una_next;
reg [CONNS*PSN_WIDTH-1:0]       nxt_reg, nxt_next;
reg [CONNS*RTO_W-1:0]           rto_cnt_reg, rto_cnt_next;
reg [CONNS*RTO_W-1:0]           rto_lim_reg, rto_lim_next;
reg [CONNS-1:0]                 rto_pend_reg, rto_pend_next;
reg [CONNS-1:0]                 gbn_act_reg, gbn_act_next;
reg [CONNS*PSN_WIDTH-1:0]       rw_reg, rw_next;
// per (connection, path), entry {c, p}: distributed RAM (asynchronous read, one write per cycle
// each). A fresh bit per entry makes it read as 0 (set by reset and by an open of its connection,
// cleared by a write), so neither clears the RAM. The contents are not toggle points
// (docs/coverage.md); what enters and leaves them is.
/*verilator coverage_off*/
reg [PSEQ_WIDTH-1:0]            pnx_mem [0:NPATHS-1];
reg [PSEQ_WIDTH-1:0]            ahi_mem [0:NPATHS-1];
/*verilator coverage_on*/
reg [NPATHS-1:0]                pnx_fresh_reg, pnx_fresh_next;
reg [NPATHS-1:0]                ahi_fresh_reg, ahi_fresh_next;

initial begin
    for (k = 0; k < CONNS; k = k + 1) begin
        open_reg[k] = 1'b0;
        err_reg[k] = 1'b0;
        una_reg[k*PSN_WIDTH +: PSN_WIDTH] = {PSN_WIDTH{1'b0}};
        nxt_reg[k*PSN_WIDTH +: PSN_WIDTH] = {PSN_WIDTH{1'b0}};
        rto_cnt_reg[k*RTO_W +: RTO_W] = {RTO_W{1'b0}};
        rto_lim_reg[k*RTO_W +: RTO_W] = {RTO_W{1'b0}};
        rto_pend_reg[k] = 1'b0;
        gbn_act_reg[k] = 1'b0;
        rw_reg[k*PSN_WIDTH +: PSN_WIDTH] = {PSN_WIDTH{1'b0}};
    end
    pnx_fresh_reg = {NPATHS{1'b1}};
    ahi_fresh_reg = {NPATHS{1'b1}};
end

// A: one ACK waiting to be processed
reg                             a_valid_reg = 1'b0, a_valid_next;
reg [CONN_W-1:0]                a_conn_reg = {CONN_W{1'b0}}, a_conn_next;
reg [PSN_WIDTH-1:0]             a_psn_reg = {PSN_WIDTH{1'b0}}, a_psn_next;
reg [PATH_W-1:0]                a_path_reg = {PATH_W{1'b0}}, a_path_next;
reg [PSEQ_WIDTH-1:0]            a_pseq_reg = {PSEQ_WIDTH{1'b0}}, a_pseq_next;
// pnx and ahi of A's (connection, path) and una and nxt of its connection, kept equal to the state
// entries (read at the handshake from the state or from this cycle's write of that entry, and
// following its writes while the ACK waits), so ACK processing starts from registers instead of
// CONNS*PATHS:1 and CONNS:1 muxes
reg [PSEQ_WIDTH-1:0]            a_pnx_op_reg = {PSEQ_WIDTH{1'b0}}, a_pnx_op_next;
reg [PSEQ_WIDTH-1:0]            a_ahi_op_reg = {PSEQ_WIDTH{1'b0}}, a_ahi_op_next;
reg [PSN_WIDTH-1:0]             a_una_op_reg = {PSN_WIDTH{1'b0}}, a_una_op_next;
reg [PSN_WIDTH-1:0]             a_nxt_op_reg = {PSN_WIDTH{1'b0}}, a_nxt_op_next;
// una and nxt of L2's connection, kept the same way (loaded when L2 loads), for the send slot's
// window check
reg [PSN_WIDTH-1:0]             l2_una_op_reg = {PSN_WIDTH{1'b0}}, l2_una_op_next;
reg [PSN_WIDTH-1:0]             l2_nxt_op_reg = {PSN_WIDTH{1'b0}}, l2_nxt_op_next;
reg [SACK_BITS-1:0]             a_sack_reg = {SACK_BITS{1'b0}}, a_sack_next;
reg                             a_ecn_reg = 1'b0, a_ecn_next;
reg                             a_nak_reg = 1'b0, a_nak_next;

// S: the hole scanner {c, p, n, mask}; it holds work while mask != 0
reg [CONN_W-1:0]                sc_conn_reg = {CONN_W{1'b0}}, sc_conn_next;
reg [PATH_W-1:0]                sc_path_reg = {PATH_W{1'b0}}, sc_path_next;
reg [PSEQ_WIDTH-1:0]            sc_n_reg = {PSEQ_WIDTH{1'b0}}, sc_n_next;
reg [SACK_BITS-1:0]             sc_mask_reg = {SACK_BITS{1'b0}}, sc_mask_next;

// L1: lookup issued, path map read in flight {kind, c, p, q, psn}; l1_fwd_*: the path map write of
// the issue cycle at L1's address (write-first)
reg                             l1_valid_reg = 1'b0, l1_valid_next;
reg [1:0]                       l1_kind_reg = K_HOLE, l1_kind_next;
reg [CONN_W-1:0]                l1_conn_reg = {CONN_W{1'b0}}, l1_conn_next;
reg [PATH_W-1:0]                l1_path_reg = {PATH_W{1'b0}}, l1_path_next;
reg [PSEQ_WIDTH-1:0]            l1_pseq_reg = {PSEQ_WIDTH{1'b0}}, l1_pseq_next;
reg [PSN_WIDTH-1:0]             l1_psn_reg = {PSN_WIDTH{1'b0}}, l1_psn_next;
reg                             l1_fwd_reg = 1'b0, l1_fwd_next;
reg [PM_DW-1:0]                 l1_fwd_slot_reg = {PM_DW{1'b0}}, l1_fwd_slot_next;

// L2: retransmission candidate, tx table read in flight; l2_fwd_*: the tx table write of the load
// cycle at L2's address (forwarding)
reg                             l2_valid_reg = 1'b0, l2_valid_next;
reg [1:0]                       l2_kind_reg = K_HOLE, l2_kind_next;
reg [CONN_W-1:0]                l2_conn_reg = {CONN_W{1'b0}}, l2_conn_next;
reg [PATH_W-1:0]                l2_path_reg = {PATH_W{1'b0}}, l2_path_next;
reg [PSEQ_WIDTH-1:0]            l2_pseq_reg = {PSEQ_WIDTH{1'b0}}, l2_pseq_next;
reg [PSN_WIDTH-1:0]             l2_psn_reg = {PSN_WIDTH{1'b0}}, l2_psn_next;
reg                             l2_fwd_reg = 1'b0, l2_fwd_next;
reg [TX_DW-1:0]                 l2_fwd_ent_reg = {TX_DW{1'b0}}, l2_fwd_ent_next;

// E: feedback events of one ACK {c, p, deliv, ecn, loss}
reg                             ev_valid_reg = 1'b0, ev_valid_next;
reg [CONN_W-1:0]                ev_conn_reg = {CONN_W{1'b0}}, ev_conn_next;
reg [PATH_W-1:0]                ev_path_reg = {PATH_W{1'b0}}, ev_path_next;
reg [7:0]                       ev_deliv_reg = 8'd0, ev_deliv_next;
reg                             ev_ecn_reg = 1'b0, ev_ecn_next;
reg [7:0]                       ev_loss_reg = 8'd0, ev_loss_next;

// T: one timeout event {c, p}
reg                             to_valid_reg = 1'b0, to_valid_next;
reg [CONN_W-1:0]                to_conn_reg = {CONN_W{1'b0}}, to_conn_next;
reg [PATH_W-1:0]                to_path_reg = {PATH_W{1'b0}}, to_path_next;

// transmission output
reg                             m_pkt_valid_reg = 1'b0, m_pkt_valid_next;
reg [CONN_W-1:0]                m_pkt_conn_reg = {CONN_W{1'b0}}, m_pkt_conn_next;
reg [PSN_WIDTH-1:0]             m_pkt_psn_reg = {PSN_WIDTH{1'b0}}, m_pkt_psn_next;
reg [PATH_W-1:0]                m_pkt_path_reg = {PATH_W{1'b0}}, m_pkt_path_next;
reg [PSEQ_WIDTH-1:0]            m_pkt_pseq_reg = {PSEQ_WIDTH{1'b0}}, m_pkt_pseq_next;
reg [15:0]                      m_pkt_entropy_reg = 16'd0, m_pkt_entropy_next;
reg [HANDLE_WIDTH-1:0]          m_pkt_handle_reg = {HANDLE_WIDTH{1'b0}}, m_pkt_handle_next;
reg                             m_pkt_first_reg = 1'b0, m_pkt_first_next;
reg                             m_pkt_last_reg = 1'b0, m_pkt_last_next;
reg                             m_pkt_ack_req_reg = 1'b0, m_pkt_ack_req_next;
reg                             m_pkt_retx_reg = 1'b0, m_pkt_retx_next;
reg [RETR_W-1:0]                m_pkt_retries_reg = {RETR_W{1'b0}}, m_pkt_retries_next;

// feedback output
reg                             m_fb_valid_reg = 1'b0, m_fb_valid_next;
reg [CONN_W-1:0]                m_fb_conn_reg = {CONN_W{1'b0}}, m_fb_conn_next;
reg [PATH_W-1:0]                m_fb_path_reg = {PATH_W{1'b0}}, m_fb_path_next;
reg [1:0]                       m_fb_kind_reg = 2'd0, m_fb_kind_next;
reg [7:0]                       m_fb_count_reg = 8'd0, m_fb_count_next;

// error output
reg                             m_err_valid_reg = 1'b0, m_err_valid_next;
reg [CONN_W-1:0]                m_err_conn_reg = {CONN_W{1'b0}}, m_err_conn_next;
reg                             m_una_valid_reg = 1'b0;
reg [CONN_W-1:0]                m_una_conn_reg = {CONN_W{1'b0}};
reg [PSN_WIDTH-1:0]             m_una_psn_reg = {PSN_WIDTH{1'b0}};

// timer tick counter
reg [TICK_W-1:0]                tick_reg = {TICK_W{1'b0}}, tick_next;

// counters
reg [31:0]                      cnt_sent_reg = 32'd0, cnt_sent_next;
reg [31:0]                      cnt_retx_loss_reg = 32'd0, cnt_retx_loss_next;
reg [31:0]                      cnt_retx_timeout_reg = 32'd0, cnt_retx_timeout_next;
reg [31:0]                      cnt_retx_gbn_reg = 32'd0, cnt_retx_gbn_next;
reg [31:0]                      cnt_timeouts_reg = 32'd0, cnt_timeouts_next;
reg [31:0]                      cnt_errors_reg = 32'd0, cnt_errors_next;
reg [31:0]                      cnt_tx_dropped_reg = 32'd0, cnt_tx_dropped_next;
reg [31:0]                      cnt_ack_ignored_reg = 32'd0, cnt_ack_ignored_next;

/*
 * Combinational signals
 */

// cycle
reg                             frozen;
reg                             ctl_hs;

// send slot: L2 validation
reg [TX_DW-1:0]                 ent;
reg [PSN_WIDTH-1:0]             ent_psn;
reg [PATH_W-1:0]                ent_path;
reg [PSEQ_WIDTH-1:0]            ent_pseq;
reg [RETR_W-1:0]                ent_retries;
reg [HANDLE_WIDTH-1:0]          ent_handle;
reg                             ent_first;
reg                             ent_last;
reg                             l2_live;
reg [PSN_WIDTH-1:0]             l2_una;
reg [PSN_WIDTH-1:0]             l2_nxt;
reg [PSN_WIDTH-1:0]             l2_off;
reg [PSN_WIDTH-1:0]             l2_span;
reg                             l2_outst;
reg                             l2_ok;
reg                             l2_maxed;
reg                             l2_nok;
reg                             l2_drop;
reg                             l2_err;
reg                             l2_send;
reg                             l2_done;
reg                             out_free;

// send slot: new packet
reg                             tx_drop;
reg [PSN_WIDTH-1:0]             tx_una;
reg [PSN_WIDTH-1:0]             tx_nxt;
reg [PSN_WIDTH-1:0]             tx_span;
reg [PSN_WIDTH-1:0]             tx_fill;
reg                             tx_room;
reg                             slot_free;
reg                             new_send;
reg                             tx_dropped;
reg                             s_tx_ready_int;
reg                             s_path_ready_int;
reg                             m_preq_valid_int;
reg [CONN_W-1:0]                m_preq_conn_int;
reg                             m_preq_retx_int;
reg [PATH_W-1:0]                m_preq_avoid_int;

// transmission
reg                             xmit;
reg [CONN_W-1:0]                x_conn;
reg [PIDX_W-1:0]                x_pidx;
reg [PSN_WIDTH-1:0]             x_psn;
reg [PSEQ_WIDTH-1:0]            x_pseq;
reg [PSEQ_WIDTH-1:0]            x_pseq_inc;
reg [RETR_W-1:0]                x_retries;
reg [HANDLE_WIDTH-1:0]          x_handle;
reg                             x_first;
reg                             x_last;
reg                             x_ack_req;

// tx table ports
reg                             tx_wr_en;
reg [TX_AW-1:0]                 tx_wr_addr;
reg [TX_DW-1:0]                 tx_wr_data;
reg                             tx_rd_en;
reg [TX_AW-1:0]                 tx_rd_addr;
wire [TX_DW-1:0]                tx_rd_data;

// path map ports
reg                             pm_wr_en;
reg [PM_AW-1:0]                 pm_wr_addr;
reg [PM_DW-1:0]                 pm_wr_data;
reg                             pm_rd_en;
reg [PM_AW-1:0]                 pm_rd_addr;
wire [PM_DW-1:0]                pm_rd_data;

// ACK processing
reg                             a_fire;
reg                             ack_hs;
reg                             s_ack_ready_int;
reg                             a_live;
reg [PSN_WIDTH-1:0]             a_una;
reg [PSN_WIDTH-1:0]             a_nxt;
reg [PSN_WIDTH-1:0]             a_rw;
reg                             a_gbn;
reg [PSEQ_WIDTH-1:0]            a_ahi;
reg [PSEQ_WIDTH-1:0]            a_pnx;
reg [PSN_WIDTH-1:0]             a_off;
reg [PSN_WIDTH-1:0]             a_span;
reg                             adv_ok;
reg                             a_rw_reset;
reg                             a_rw_done;
reg [PSEQ_WIDTH-1:0]            a_d;
reg [PSEQ_WIDTH-1:0]            a_sent;
reg                             path_ok;
reg [7:0]                       a_r;
reg [SACK_BITS-1:0]             a_region;
reg [SACK_BITS-1:0]             a_got;
reg [7:0]                       a_deliv;
reg [7:0]                       a_loss;
reg [SACK_BITS-1:0]             a_holes;
reg [PSN_WIDTH-1:0]             a_una_after;
reg                             nak_ok;
reg                             a_progress;
reg                             a_path_upd;
reg                             a_nak_upd;
reg                             a_ignored;
reg                             ev_load;

// lookup pipeline
reg                             adv;
reg                             sc_busy;
reg [SACK_W-1:0]                hole_i;
reg [PSEQ_WIDTH-1:0]            hole_q;
reg                             rto_any;
reg [CONN_W-1:0]                rto_c;
reg                             gbn_any;
reg [CONN_W-1:0]                gbn_c;
reg [PSN_WIDTH-1:0]             gbn_rw_inc;
reg                             gbn_last;
reg                             issue_hole;
reg                             issue_rto;
reg                             issue_gbn;
reg                             issue_early;
reg [PM_DW-1:0]                 l1_slot;

// early loss (g_early below; constant 0 when EARLY_ON is 0): early_load loads S and E from the
// EARLY candidate in L2; early_any / early_c: the lowest connection with early_pend
wire                            early_load;
wire                            early_any;
wire [CONN_W-1:0]               early_c;
wire [PSEQ_WIDTH-1:0]           early_n;
wire [SACK_BITS-1:0]            early_mask;
wire [7:0]                      early_loss;

// ACK request age (g_arq below; 0 when ARQ_ON is 0): arq of s_tx_conn has reached ACK_REQ_TICKS
wire                            arq_due;

// feedback
reg                             fb_free;
reg                             to_take;
reg                             ev_take;

// timers
reg                             v_hit;
reg [CONN_W-1:0]                v_conn;
reg [RTO_W-1:0]                 v_cnt;
reg [RTO_W-1:0]                 v_lim;
reg [RTO_W-1:0]                 v_cnt_inc;
reg [RTO_W:0]                   v_lim_dbl;
reg [RTO_W-1:0]                 v_lim_new;
reg                             v_elig;
reg                             v_discard;
reg                             visit;
reg                             v_expire;

/*
 * Outputs
 */

assign s_tx_ready = s_tx_ready_int;
assign s_path_ready = s_path_ready_int;
assign s_ack_ready = s_ack_ready_int;
assign s_ctl_ready = !rst;

assign m_preq_valid = m_preq_valid_int;
assign m_preq_conn = m_preq_conn_int;
assign m_preq_retx = m_preq_retx_int;
assign m_preq_avoid = m_preq_avoid_int;

assign m_pkt_valid = m_pkt_valid_reg;
assign m_pkt_conn = m_pkt_conn_reg;
assign m_pkt_psn = m_pkt_psn_reg;
assign m_pkt_path = m_pkt_path_reg;
assign m_pkt_pseq = m_pkt_pseq_reg;
assign m_pkt_entropy = m_pkt_entropy_reg;
assign m_pkt_handle = m_pkt_handle_reg;
assign m_pkt_first = m_pkt_first_reg;
assign m_pkt_last = m_pkt_last_reg;
assign m_pkt_ack_req = m_pkt_ack_req_reg;
assign m_pkt_retx = m_pkt_retx_reg;
assign m_pkt_retries = m_pkt_retries_reg;

assign m_fb_valid = m_fb_valid_reg;
assign m_fb_conn = m_fb_conn_reg;
assign m_fb_path = m_fb_path_reg;
assign m_fb_kind = m_fb_kind_reg;
assign m_fb_count = m_fb_count_reg;

assign m_err_valid = m_err_valid_reg;
assign m_err_conn = m_err_conn_reg;
assign m_una_valid = m_una_valid_reg;
assign m_una_conn = m_una_conn_reg;
assign m_una_psn = m_una_psn_reg;

assign cnt_sent = cnt_sent_reg;
assign cnt_retx_loss = cnt_retx_loss_reg;
assign cnt_retx_timeout = cnt_retx_timeout_reg;
assign cnt_retx_gbn = cnt_retx_gbn_reg;
assign cnt_timeouts = cnt_timeouts_reg;
assign cnt_errors = cnt_errors_reg;
assign cnt_tx_dropped = cnt_tx_dropped_reg;
assign cnt_ack_ignored = cnt_ack_ignored_reg;

/*
 * Memories (read enable = adv: the read data of L1 and L2 hold while the pipeline stalls)
 */

ram_sdp #(
    .ADDR_WIDTH(TX_AW),
    .DATA_WIDTH(TX_DW)
)
tx_table_inst (
    .clk(clk),
    .wr_en(tx_wr_en),
    .wr_addr(tx_wr_addr),
    .wr_data(tx_wr_data),
    .rd_en(tx_rd_en),
    .rd_addr(tx_rd_addr),
    .rd_data(tx_rd_data)
);

ram_sdp #(
    .ADDR_WIDTH(PM_AW),
    .DATA_WIDTH(PM_DW)
)
path_map_inst (
    .clk(clk),
    .wr_en(pm_wr_en),
    .wr_addr(pm_wr_addr),
    .wr_data(pm_wr_data),
    .rd_en(pm_rd_en),
    .rd_addr(pm_rd_addr),
    .rd_data(pm_rd_data)
);

/*
 * Send slot (docs: The send slot), first half: L2 validation, new packet room and the selector
 * hint, none of which depends on s_path_*. All from the start-of-cycle state.
 */
always @* begin
    // frozen = s_ctl_valid: control has the cycle
    frozen = s_ctl_valid;
    ctl_hs = s_ctl_valid && !rst;
    out_free = !m_pkt_valid_reg || m_pkt_ready;

    // L2's tx entry e: the tx table read of the cycle L1 moved into L2, or the write of that cycle
    // (forwarding)
    ent = l2_fwd_reg ? l2_fwd_ent_reg : tx_rd_data;
    {ent_psn, ent_path, ent_pseq, ent_retries, ent_handle, ent_first, ent_last} = ent;

    // live = open && !err; outst = e.psn in [una, nxt)
    l2_live = open_reg[l2_conn_reg] && !err_reg[l2_conn_reg];
    l2_una = l2_una_op_reg;
    l2_nxt = l2_nxt_op_reg;
    l2_off = ent_psn - l2_una;
    l2_span = l2_nxt - l2_una;
    l2_outst = l2_off < l2_span;
    case (l2_kind_reg)
        K_HOLE: l2_ok = l2_live && l2_outst && ent_path == l2_path_reg && ent_pseq == l2_pseq_reg;
        K_RTO: l2_ok = l2_live && l2_una != l2_nxt && ent_psn == l2_una;
        K_GBN: l2_ok = l2_live && l2_outst && ent_psn == l2_psn_reg;
        // EARLY never sends: its own check (g_early) decides early_load, so here it reads as not
        // ok: l2_err, l2_send and the hint are 0, and slot_free = !L2_valid || l2_drop ||
        // kind == EARLY = !L2_valid || l2_nok.
        default: l2_ok = 1'b0; // K_EARLY
    endcase
    l2_maxed = ent_retries == RETR_MAX;

    // in a frozen cycle l2_drop, l2_err and l2_send are all 0; l2_nok: L2 does not send (the
    // docs' l2_drop, or an EARLY candidate that loads S and E, which is not done: l2_drop below)
    l2_nok = !frozen && l2_valid_reg && !l2_ok;
    l2_err = !frozen && l2_valid_reg && l2_ok && l2_maxed;

    // new packet on c = s_tx_conn
    tx_una = una_reg[s_tx_conn*PSN_WIDTH +: PSN_WIDTH];
    tx_nxt = nxt_reg[s_tx_conn*PSN_WIDTH +: PSN_WIDTH];
    tx_span = tx_nxt - tx_una;
    tx_fill = tx_nxt + PSN_ONE - tx_una;
    tx_drop = !open_reg[s_tx_conn] || err_reg[s_tx_conn];
    tx_room = !tx_drop && !gbn_act_reg[s_tx_conn] && tx_span < WIN_PSN;
    slot_free = !l2_valid_reg || l2_nok;

    // selector hint (combinational; 0 during reset)
    m_preq_valid_int = 1'b0;
    m_preq_conn_int = {CONN_W{1'b0}};
    m_preq_retx_int = 1'b0;
    m_preq_avoid_int = {PATH_W{1'b0}};
    if (!rst && l2_valid_reg && l2_ok && !l2_maxed && !frozen) begin
        m_preq_valid_int = 1'b1;
        m_preq_conn_int = l2_conn_reg;
        m_preq_retx_int = 1'b1;
        m_preq_avoid_int = ent_path;
    end else if (!rst && s_tx_valid && tx_room && slot_free && !frozen) begin
        m_preq_valid_int = 1'b1;
        m_preq_conn_int = s_tx_conn;
    end

end

/*
 * Send slot, second half: what takes s_path. Kept apart from the hint above so that m_preq never
 * depends on s_path_* even in the simulator's view (the glue of nic_transport drives s_path from
 * m_preq).
 */
always @* begin
    l2_send = !frozen && l2_valid_reg && l2_ok && !l2_maxed && out_free && s_path_valid &&
        (l2_kind_reg != K_RTO || !to_valid_reg);
    // an EARLY candidate that loads S and E is not dropped, so not done: it stays in L2 for a
    // cycle (nothing moves in the lookup pipeline), and is dropped in the next (S or E busy)
    l2_drop = l2_nok && !early_load;
    l2_done = l2_drop || l2_err || l2_send;
    new_send = s_tx_valid && tx_room && slot_free && out_free && s_path_valid && !frozen;
    s_tx_ready_int = !rst && !frozen &&
        (tx_drop || (tx_room && slot_free && out_free && s_path_valid));
    tx_dropped = s_tx_valid && s_tx_ready_int && tx_drop;

    // at most one of l2_send, new_send is 1
    s_path_ready_int = !rst && (l2_send || new_send);

    // a transmission: path P = s_path_path, Q = pnx[c][P]
    xmit = l2_send || new_send;
    x_conn = l2_send ? l2_conn_reg : s_tx_conn;
    x_pidx = {x_conn, s_path_path};
    x_pseq = pnx_fresh_reg[x_pidx] ? {PSEQ_WIDTH{1'b0}} : pnx_mem[x_pidx];
    x_pseq_inc = x_pseq + SEQ_ONE;
    if (l2_send) begin
        x_psn = ent_psn;
        x_retries = ent_retries + {{RETR_W-1{1'b0}}, 1'b1};
        x_handle = ent_handle;
        x_first = ent_first;
        x_last = ent_last;
        x_ack_req = 1'b1;
    end else begin
        x_psn = tx_nxt;
        x_retries = {RETR_W{1'b0}};
        x_handle = s_tx_handle;
        x_first = s_tx_first;
        x_last = s_tx_last;
        // ack_req = last || (nxt + 1 - una == WINDOW) || arq >= ACK_REQ_TICKS (ACK_REQ_TICKS != 0)
        x_ack_req = s_tx_last || tx_fill == WIN_PSN || arq_due;
    end

    // tx table [c][psn] <- {psn, P, Q, retries, handle, first, last};
    // path map [c][P][Q] <- psn mod WINDOW.
    // Nothing is written in a reset cycle (the memories keep their contents).
    tx_wr_en = xmit && !rst;
    tx_wr_addr = {x_conn, x_psn[SLOT_W-1:0]};
    tx_wr_data = {x_psn, s_path_path, x_pseq, x_retries, x_handle, x_first, x_last};
    pm_wr_en = xmit && !rst;
    pm_wr_addr = {x_conn, s_path_path, x_pseq[SACK_W-1:0]};
    pm_wr_data = x_psn[SLOT_W-1:0];
end

/*
 * ACK processing (docs: ACK processing), on the ACK in A when a_fire.
 */
always @* begin
    a_fire = a_valid_reg && !frozen && sc_mask_reg == {SACK_BITS{1'b0}} && !ev_valid_reg &&
        !early_load;
    s_ack_ready_int = !rst && (!a_valid_reg || a_fire);
    ack_hs = s_ack_valid && s_ack_ready_int;

    a_live = open_reg[a_conn_reg] && !err_reg[a_conn_reg];
    a_una = a_una_op_reg;
    a_nxt = a_nxt_op_reg;
    a_rw = rw_reg[a_conn_reg*PSN_WIDTH +: PSN_WIDTH];
    a_gbn = gbn_act_reg[a_conn_reg];
    a_ahi = a_ahi_op_reg;
    a_pnx = a_pnx_op_reg;

    // 2. cumulative: adv_ok = 0 < psn - una <= nxt - una
    a_off = a_psn_reg - a_una;
    a_span = a_nxt - a_una;
    adv_ok = a_off != {PSN_WIDTH{1'b0}} && a_off <= a_span;
    // GBN progress: if gbn_act and rw not in [psn, nxt): rw = psn, and gbn_act = 0 if psn == nxt
    a_rw_reset = GBN_MODE && a_gbn && !((a_rw - a_psn_reg) < (a_nxt - a_psn_reg));
    a_rw_done = a_psn_reg == a_nxt;

    // 3. selective path part: d = n - ahi, sent = pnx - ahi, path_ok = 1 <= d <= sent
    a_d = a_pseq_reg - a_ahi;
    a_sent = a_pnx - a_ahi;
    path_ok = !GBN_MODE && a_d != {PSEQ_WIDTH{1'b0}} && a_d <= a_sent;
    // r = min(d, SACK_BITS, 255), R = (1 << r) - 1 (all ones when r == SACK_BITS)
    if (a_d >= RMAX_SEQ) begin
        a_r = RMAX_32[7:0];
    end else begin
        a_r = a_d[7:0];
    end
    a_region = ~({SACK_BITS{1'b1}} << a_r);
    a_got = a_sack_reg & a_region;
    // popcount; the sum is at most r <= 255, so an 8-bit accumulator is exact
    a_deliv = 8'd0;
    for (b = 0; b < SACK_BITS; b = b + 1) begin
        a_deliv = a_deliv + {7'd0, a_got[b]};
    end
    a_loss = a_r - a_deliv;
    a_holes = a_region & ~a_sack_reg;

    // 4. GBN nak: psn in [una, nxt) with una after step 2
    a_una_after = adv_ok ? a_psn_reg : a_una;
    nak_ok = GBN_MODE && a_nak_reg && (a_psn_reg - a_una_after) < (a_nxt - a_una_after);

    // effects (1: closed or errored connection: ignored, nothing else)
    a_progress = a_fire && a_live && adv_ok;
    a_path_upd = a_fire && a_live && path_ok;
    a_nak_upd = a_fire && a_live && nak_ok;
    // (5. early loss: g_early)
    // 6. ignored: closed/errored, or none of 2, 3, 4 applied
    a_ignored = a_fire && (!a_live || !(adv_ok || path_ok || nak_ok));
    // E loads when deliv, ecn or loss is non-zero (docs), which every path update meets:
    // deliv + loss = r and path_ok means d >= 1, so r >= 1. Written as a_path_upd, the popcount
    // stays off E's load enable.
    ev_load = a_path_upd;

    // A: loads at the handshake, empties when processed; control invalidates it if it holds that
    // connection
    a_valid_next = a_valid_reg;
    a_conn_next = a_conn_reg;
    a_psn_next = a_psn_reg;
    a_path_next = a_path_reg;
    a_pseq_next = a_pseq_reg;
    a_sack_next = a_sack_reg;
    a_ecn_next = a_ecn_reg;
    a_nak_next = a_nak_reg;
    if (ack_hs) begin
        a_valid_next = 1'b1;
        a_conn_next = s_ack_conn;
        a_psn_next = s_ack_psn;
        a_path_next = s_ack_path;
        a_pseq_next = s_ack_pseq;
        a_sack_next = s_ack_sack;
        a_ecn_next = s_ack_ecn;
        a_nak_next = s_ack_nak;
    end else if (a_fire) begin
        a_valid_next = 1'b0;
    end
    // (a frozen cycle only takes an ACK into an empty A, so this only hits the start-of-cycle
    // contents)
    if (ctl_hs && a_valid_reg && a_conn_reg == s_ctl_conn) begin
        a_valid_next = 1'b0;
    end
end

/*
 * Lookup pipeline S -> L1 -> L2 (docs: The lookup pipeline). Nothing moves and the memories hold
 * their read data unless adv.
 */
always @* begin
    adv = !frozen && (!l2_valid_reg || l2_done);

    // 1. hole: i = highest set bit of S.mask (the oldest hole), q = S.n - 1 - i
    sc_busy = sc_mask_reg != {SACK_BITS{1'b0}};
    hole_i = {SACK_W{1'b0}};
    for (h = 0; h < SACK_BITS; h = h + 1) begin
        if (sc_mask_reg[h]) begin
            hole_i = h[SACK_W-1:0];
        end
    end
    hole_q = sc_n_reg - SEQ_ONE - {{PSEQ_WIDTH-SACK_W{1'b0}}, hole_i};

    // 2. timeout (selective): lowest c with rto_pend; 3. rewind (GBN): lowest c with gbn_act
    rto_any = rto_pend_reg != {CONNS{1'b0}};
    rto_c = {CONN_W{1'b0}};
    gbn_any = gbn_act_reg != {CONNS{1'b0}};
    gbn_c = {CONN_W{1'b0}};
    for (h = CONNS - 1; h >= 0; h = h - 1) begin
        if (rto_pend_reg[h]) begin
            rto_c = h[CONN_W-1:0];
        end
        if (gbn_act_reg[h]) begin
            gbn_c = h[CONN_W-1:0];
        end
    end
    gbn_rw_inc = rw_reg[gbn_c*PSN_WIDTH +: PSN_WIDTH] + PSN_ONE;
    gbn_last = gbn_rw_inc == nxt_reg[gbn_c*PSN_WIDTH +: PSN_WIDTH];

    issue_hole = adv && sc_busy;
    issue_rto = adv && !sc_busy && !GBN_MODE && rto_any;
    // the rewind only in a cycle where A does not fire
    issue_gbn = adv && !sc_busy && GBN_MODE && !a_fire && gbn_any;
    // 3. early (selective): lowest c with early_pend, after the timeouts
    issue_early = adv && !sc_busy && EARLY_ON && !rto_any && early_any;

    // path map read at [S.c][S.p][q]
    pm_rd_en = adv && !rst;
    pm_rd_addr = {sc_conn_reg, sc_path_reg, hole_q[SACK_W-1:0]};

    // tx table read at L1's address: HOLE: slot from the path map read (or the path map write of
    // L1's issue cycle: write-first); RTO and EARLY: una[c] mod WINDOW (start of this cycle); GBN:
    // psn mod WINDOW
    l1_slot = l1_fwd_reg ? l1_fwd_slot_reg : pm_rd_data;
    tx_rd_en = adv && !rst;
    case (l1_kind_reg)
        K_HOLE: tx_rd_addr = {l1_conn_reg, l1_slot};
        K_GBN: tx_rd_addr = {l1_conn_reg, l1_psn_reg[SLOT_W-1:0]};
        default: tx_rd_addr = {l1_conn_reg, una_reg[l1_conn_reg*PSN_WIDTH +: SLOT_W]}; // RTO, EARLY
    endcase

    // S: clear the issued hole; A loads it with the new region's holes, an EARLY candidate with
    // every sequence of its path from the oldest outstanding packet on (both only while
    // S.mask == 0, and A does not fire when early_load)
    sc_conn_next = sc_conn_reg;
    sc_path_next = sc_path_reg;
    sc_n_next = sc_n_reg;
    sc_mask_next = sc_mask_reg;
    if (issue_hole) begin
        sc_mask_next[hole_i] = 1'b0;
    end
    if (a_path_upd) begin
        sc_conn_next = a_conn_reg;
        sc_path_next = a_path_reg;
        sc_n_next = a_pseq_reg;
        sc_mask_next = a_holes;
    end
    if (early_load) begin
        sc_conn_next = l2_conn_reg;
        sc_path_next = ent_path;
        sc_n_next = early_n;
        sc_mask_next = early_mask;
    end

    // L1 <- first of hole, timeout, early, rewind, else empty
    l1_valid_next = l1_valid_reg;
    l1_kind_next = l1_kind_reg;
    l1_conn_next = l1_conn_reg;
    l1_path_next = l1_path_reg;
    l1_pseq_next = l1_pseq_reg;
    l1_psn_next = l1_psn_reg;
    l1_fwd_next = l1_fwd_reg;
    l1_fwd_slot_next = l1_fwd_slot_reg;
    if (adv) begin
        l1_valid_next = issue_hole || issue_rto || issue_early || issue_gbn;
        l1_path_next = sc_path_reg;
        l1_pseq_next = hole_q;
        l1_psn_next = rw_reg[gbn_c*PSN_WIDTH +: PSN_WIDTH];
        if (issue_hole) begin
            l1_kind_next = K_HOLE;
            l1_conn_next = sc_conn_reg;
        end else if (issue_rto) begin
            l1_kind_next = K_RTO;
            l1_conn_next = rto_c;
        end else if (issue_early) begin
            l1_kind_next = K_EARLY;
            l1_conn_next = early_c;
        end else begin
            l1_kind_next = K_GBN;
            l1_conn_next = gbn_c;
        end
        l1_fwd_next = pm_wr_en && pm_wr_addr == pm_rd_addr;
        l1_fwd_slot_next = pm_wr_data;
    end

    // L2 <- L1 (or empty); keeps this cycle's tx table write of the same address instead of the
    // read
    l2_valid_next = l2_valid_reg;
    l2_kind_next = l2_kind_reg;
    l2_conn_next = l2_conn_reg;
    l2_path_next = l2_path_reg;
    l2_pseq_next = l2_pseq_reg;
    l2_psn_next = l2_psn_reg;
    l2_fwd_next = l2_fwd_reg;
    l2_fwd_ent_next = l2_fwd_ent_reg;
    if (adv) begin
        l2_valid_next = l1_valid_reg;
        l2_kind_next = l1_kind_reg;
        l2_conn_next = l1_conn_reg;
        l2_path_next = l1_path_reg;
        l2_pseq_next = l1_pseq_reg;
        l2_psn_next = l1_psn_reg;
        l2_fwd_next = tx_wr_en && tx_wr_addr == tx_rd_addr;
        l2_fwd_ent_next = tx_wr_data;
    end

    // control invalidates S, L1 and L2 if they hold its connection (nothing moves in a frozen
    // cycle)
    if (ctl_hs && sc_conn_reg == s_ctl_conn) begin
        sc_mask_next = {SACK_BITS{1'b0}};
    end
    if (ctl_hs && l1_valid_reg && l1_conn_reg == s_ctl_conn) begin
        l1_valid_next = 1'b0;
    end
    if (ctl_hs && l2_valid_reg && l2_conn_reg == s_ctl_conn) begin
        l2_valid_next = 1'b0;
    end
end

/*
 * Feedback output (docs: Feedback output): T first, else E's first non-zero field (deliv, ecn,
 * loss).
 */
always @* begin
    fb_free = !m_fb_valid_reg || m_fb_ready;
    to_take = fb_free && to_valid_reg;
    ev_take = fb_free && !to_valid_reg && ev_valid_reg;

    m_fb_valid_next = m_fb_valid_reg;
    m_fb_conn_next = m_fb_conn_reg;
    m_fb_path_next = m_fb_path_reg;
    m_fb_kind_next = m_fb_kind_reg;
    m_fb_count_next = m_fb_count_reg;

    ev_valid_next = ev_valid_reg;
    ev_conn_next = ev_conn_reg;
    ev_path_next = ev_path_reg;
    ev_deliv_next = ev_deliv_reg;
    ev_ecn_next = ev_ecn_reg;
    ev_loss_next = ev_loss_reg;

    to_valid_next = to_valid_reg;
    to_conn_next = to_conn_reg;
    to_path_next = to_path_reg;

    if (to_take) begin
        m_fb_valid_next = 1'b1;
        m_fb_conn_next = to_conn_reg;
        m_fb_path_next = to_path_reg;
        m_fb_kind_next = FB_TIMEOUT;
        m_fb_count_next = 8'd1;
        to_valid_next = 1'b0;
    end else if (ev_take) begin
        m_fb_valid_next = 1'b1;
        m_fb_conn_next = ev_conn_reg;
        m_fb_path_next = ev_path_reg;
        if (ev_deliv_reg != 8'd0) begin
            m_fb_kind_next = FB_DELIVERED;
            m_fb_count_next = ev_deliv_reg;
            ev_deliv_next = 8'd0;
        end else if (ev_ecn_reg) begin
            m_fb_kind_next = FB_ECN;
            m_fb_count_next = 8'd1;
            ev_ecn_next = 1'b0;
        end else begin
            m_fb_kind_next = FB_LOSS;
            m_fb_count_next = ev_loss_reg;
            ev_loss_next = 8'd0;
        end
        // E empties with its last non-zero field
        ev_valid_next = ev_deliv_next != 8'd0 || ev_ecn_next || ev_loss_next != 8'd0;
    end else if (m_fb_ready) begin
        m_fb_valid_next = 1'b0;
    end

    // E loads from A (A fires only while E is empty) or from an EARLY candidate (early_load: only
    // while E is empty, and A does not fire); T loads at an RTO retransmission (only while T is
    // empty)
    if (ev_load) begin
        ev_valid_next = 1'b1;
        ev_conn_next = a_conn_reg;
        ev_path_next = a_path_reg;
        ev_deliv_next = a_deliv;
        ev_ecn_next = a_ecn_reg;
        ev_loss_next = a_loss;
    end
    if (early_load) begin
        ev_valid_next = 1'b1;
        ev_conn_next = l2_conn_reg;
        ev_path_next = ent_path;
        ev_deliv_next = 8'd0;
        ev_ecn_next = 1'b0;
        ev_loss_next = early_loss;
    end
    if (l2_send && l2_kind_reg == K_RTO) begin
        to_valid_next = 1'b1;
        to_conn_next = l2_conn_reg;
        to_path_next = ent_path;
    end
end

/*
 * Timers (docs: Timers): connection tick is visited when tick < CONNS.
 */
always @* begin
    if (tick_reg == TICK_LAST) begin
        tick_next = {TICK_W{1'b0}};
    end else begin
        tick_next = tick_reg + {{TICK_W-1{1'b0}}, 1'b1};
    end

    v_hit = {{32-TICK_W{1'b0}}, tick_reg} < CONNS_32;
    v_conn = tick_reg[CONN_W-1:0];
    v_cnt = rto_cnt_reg[v_conn*RTO_W +: RTO_W];
    v_lim = rto_lim_reg[v_conn*RTO_W +: RTO_W];
    v_elig = v_hit && open_reg[v_conn] && !err_reg[v_conn] &&
        una_reg[v_conn*PSN_WIDTH +: PSN_WIDTH] != nxt_reg[v_conn*PSN_WIDTH +: PSN_WIDTH] &&
        !rto_pend_reg[v_conn] && !gbn_act_reg[v_conn];
    // discarded: control for c, progress for c, an error of c. The docs' third case, a new
    // transmission of c restarting the timer, needs una == nxt, which v_elig excludes, so it is
    // left out: new_send stays out of the visit and expiry logic (it still restarts the timer,
    // below).
    v_discard = (ctl_hs && s_ctl_conn == v_conn) ||
        (a_progress && a_conn_reg == v_conn) ||
        (l2_err && l2_conn_reg == v_conn);
    visit = v_elig && !v_discard;
    // expiry: rto_cnt >= rto_lim (rto_lim whole ticks since the restart); rto_lim =
    // min(2*rto_lim, RTO_MAX_TICKS). rto_cnt never passes rto_lim, so rto_cnt + 1 does not wrap.
    v_cnt_inc = v_cnt + {{RTO_W-1{1'b0}}, 1'b1};
    v_expire = visit && v_cnt >= v_lim;
    v_lim_dbl = {v_lim, 1'b0};
    if (v_lim_dbl > RTO_CAP) begin
        v_lim_new = RTO_CAP[RTO_W-1:0];
    end else begin
        v_lim_new = v_lim_dbl[RTO_W-1:0];
    end
end

/*
 * Per-connection state, in the docs' order (docs: Same cycle, one connection): timer visit, ACK
 * processing, lookup issue, transmission, error, control; a later update overrides an earlier one.
 */
always @* begin
    open_next = open_reg;
    err_next = err_reg;
    una_next = una_reg;
    nxt_next = nxt_reg;
    rto_cnt_next = rto_cnt_reg;
    rto_lim_next = rto_lim_reg;
    rto_pend_next = rto_pend_reg;
    gbn_act_next = gbn_act_reg;
    rw_next = rw_reg;

    for (c = 0; c < CONNS; c = c + 1) begin
        // timer visit
        if (visit && v_conn == c[CONN_W-1:0]) begin
            if (v_expire) begin
                rto_cnt_next[c*RTO_W +: RTO_W] = {RTO_W{1'b0}};
                rto_lim_next[c*RTO_W +: RTO_W] = v_lim_new;
                if (GBN_MODE) begin
                    gbn_act_next[c] = 1'b1;
                    rw_next[c*PSN_WIDTH +: PSN_WIDTH] = una_reg[c*PSN_WIDTH +: PSN_WIDTH];
                end else begin
                    rto_pend_next[c] = 1'b1;
                end
            end else begin
                rto_cnt_next[c*RTO_W +: RTO_W] = v_cnt_inc;
            end
        end

        // ACK processing: progress (step 2) and GBN nak (step 4)
        if (a_progress && a_conn_reg == c[CONN_W-1:0]) begin
            una_next[c*PSN_WIDTH +: PSN_WIDTH] = a_psn_reg;
            rto_cnt_next[c*RTO_W +: RTO_W] = {RTO_W{1'b0}};
            rto_lim_next[c*RTO_W +: RTO_W] = RTO_INIT;
            rto_pend_next[c] = 1'b0;
            if (a_rw_reset) begin
                rw_next[c*PSN_WIDTH +: PSN_WIDTH] = a_psn_reg;
                if (a_rw_done) begin
                    gbn_act_next[c] = 1'b0;
                end
            end
        end
        if (a_nak_upd && a_conn_reg == c[CONN_W-1:0]) begin
            gbn_act_next[c] = 1'b1;
            rw_next[c*PSN_WIDTH +: PSN_WIDTH] = a_psn_reg;
        end

        // lookup issue: rto_pend clear, rw step
        if (issue_rto && rto_c == c[CONN_W-1:0]) begin
            rto_pend_next[c] = 1'b0;
        end
        if (issue_gbn && gbn_c == c[CONN_W-1:0]) begin
            rw_next[c*PSN_WIDTH +: PSN_WIDTH] = gbn_rw_inc;
            if (gbn_last) begin
                gbn_act_next[c] = 1'b0;
            end
        end

        // transmission of a new packet: nxt += 1, timer restart if nothing was outstanding
        if (new_send && s_tx_conn == c[CONN_W-1:0]) begin
            nxt_next[c*PSN_WIDTH +: PSN_WIDTH] = tx_nxt + PSN_ONE;
            if (tx_una == tx_nxt) begin
                rto_cnt_next[c*RTO_W +: RTO_W] = {RTO_W{1'b0}};
            end
        end

        // error
        if (l2_err && l2_conn_reg == c[CONN_W-1:0]) begin
            err_next[c] = 1'b1;
            rto_pend_next[c] = 1'b0;
            gbn_act_next[c] = 1'b0;
        end

        // control (wins over every other update of that connection)
        if (ctl_hs && s_ctl_conn == c[CONN_W-1:0]) begin
            rto_pend_next[c] = 1'b0;
            gbn_act_next[c] = 1'b0;
            if (s_ctl_open) begin
                open_next[c] = 1'b1;
                err_next[c] = 1'b0;
                una_next[c*PSN_WIDTH +: PSN_WIDTH] = s_ctl_psn;
                nxt_next[c*PSN_WIDTH +: PSN_WIDTH] = s_ctl_psn;
                rto_cnt_next[c*RTO_W +: RTO_W] = {RTO_W{1'b0}};
                rto_lim_next[c*RTO_W +: RTO_W] = RTO_INIT;
                rw_next[c*PSN_WIDTH +: PSN_WIDTH] = s_ctl_psn;
            end else begin
                open_next[c] = 1'b0;
            end
        end
    end
end

/*
 * Per-(connection, path) state: pnx += 1 at a transmission on (c, P); ahi = n at an accepted path
 * part (the RAM writes, in the clocked block, clear the word's fresh bit); open clears both for
 * every path of the connection by setting their fresh bits. A transmission or an ACK never meets
 * control in one cycle (a control cycle is frozen).
 */
always @* begin
    pnx_fresh_next = pnx_fresh_reg;
    ahi_fresh_next = ahi_fresh_reg;
    if (xmit) begin
        pnx_fresh_next[x_pidx] = 1'b0;
    end
    if (a_path_upd) begin
        ahi_fresh_next[{a_conn_reg, a_path_reg}] = 1'b0;
    end
    if (ctl_hs && s_ctl_open) begin
        pnx_fresh_next[s_ctl_conn*PATHS +: PATHS] = {PATHS{1'b1}};
        ahi_fresh_next[s_ctl_conn*PATHS +: PATHS] = {PATHS{1'b1}};
    end

    // A's operands next cycle: the entry A holds then, as the writes above leave it
    a_pnx_op_next = pnx_fresh_reg[{a_conn_next, a_path_next}] ? {PSEQ_WIDTH{1'b0}} :
        pnx_mem[{a_conn_next, a_path_next}];
    a_ahi_op_next = ahi_fresh_reg[{a_conn_next, a_path_next}] ? {PSEQ_WIDTH{1'b0}} :
        ahi_mem[{a_conn_next, a_path_next}];
    if (xmit && x_pidx == {a_conn_next, a_path_next}) begin
        a_pnx_op_next = x_pseq_inc;
    end
    if (a_path_upd && {a_conn_reg, a_path_reg} == {a_conn_next, a_path_next}) begin
        a_ahi_op_next = a_pseq_reg;
    end
    if (ctl_hs && s_ctl_open && s_ctl_conn == a_conn_next) begin
        a_pnx_op_next = {PSEQ_WIDTH{1'b0}};
        a_ahi_op_next = {PSEQ_WIDTH{1'b0}};
    end

    // the same for una and nxt of A's connection (writers: ACK progress, a new transmission, an
    // open)
    a_una_op_next = una_reg[a_conn_next*PSN_WIDTH +: PSN_WIDTH];
    a_nxt_op_next = nxt_reg[a_conn_next*PSN_WIDTH +: PSN_WIDTH];
    if (a_progress && a_conn_reg == a_conn_next) begin
        a_una_op_next = a_psn_reg;
    end
    if (new_send && s_tx_conn == a_conn_next) begin
        a_nxt_op_next = tx_nxt + PSN_ONE;
    end
    if (ctl_hs && s_ctl_open && s_ctl_conn == a_conn_next) begin
        a_una_op_next = s_ctl_psn;
        a_nxt_op_next = s_ctl_psn;
    end
    l2_una_op_next = una_reg[l2_conn_next*PSN_WIDTH +: PSN_WIDTH];
    l2_nxt_op_next = nxt_reg[l2_conn_next*PSN_WIDTH +: PSN_WIDTH];
    if (a_progress && a_conn_reg == l2_conn_next) begin
        l2_una_op_next = a_psn_reg;
    end
    if (new_send && s_tx_conn == l2_conn_next) begin
        l2_nxt_op_next = tx_nxt + PSN_ONE;
    end
    if (ctl_hs && s_ctl_open && s_ctl_conn == l2_conn_next) begin
        l2_una_op_next = s_ctl_psn;
        l2_nxt_op_next = s_ctl_psn;
    end
end

/*
 * Early loss (docs: The send slot, EARLY; ACK processing, step 5; The lookup pipeline, early).
 * Only when EARLY_CYCLES != 0 in selective mode; otherwise nothing of it exists.
 *
 * State: now (cycles since reset, wraps), lts (now at the last transmission per (connection, path):
 * distributed RAM with fresh bits, written by the transmission, as pnx; one lane per path),
 * early_pend per connection. The EARLY candidate in L2 is checked from the start-of-cycle state:
 * the age compare comes from registers computed a cycle ahead for every path of L2's next
 * connection (age_ok, wr_hit), ahi and pnx are read at L2's connection and its tx entry's path
 * (asynchronous reads beside the send slot's). It never sends and never holds the send slot, so
 * slot_free and the hint see only L2's kind; early_load loads S and E instead, A does not fire
 * then, and the candidate stays in L2 for one more cycle (not l2_done, so adv waits for the check),
 * to be dropped then: E is busy.
 */
generate
if (EARLY_ON) begin : g_early
    reg [NOW_W-1:0]             now_reg = {NOW_W{1'b0}};
    reg [NPATHS-1:0]            lts_fresh_reg = {NPATHS{1'b1}}, lts_fresh_next;
    reg [CONNS-1:0]             early_pend_reg = {CONNS{1'b0}}, early_pend_next;
    // the age check per path of the connection L2 holds (timing copy, docs: State): age_ok[p] =
    // (now - lts[c][p]) mod 2^16 >= EARLY_CYCLES, and wr_hit[p]: lts[c][p] was written in the
    // previous cycle (age 1), both computed a cycle ahead for c = L2's next connection
    reg [PATHS-1:0]             age_ok_reg = {PATHS{1'b0}}, age_ok_next;
    reg [PATHS-1:0]             wr_hit_reg = {PATHS{1'b0}}, wr_hit_next;

    // lts in one lane per path (CONNS words each, one write and one read port): the row read at
    // one connection is PATHS reads of one port each
    wire [PATHS*NOW_W-1:0]      row_lts;
    // L2's next connection: L1's when L2 moves, L2's own when it holds in a frozen cycle. An EARLY
    // candidate also holds in its load cycle, but the next cycle's check has E busy and does not
    // use the age; a held candidate of another kind does not use it at all.
    wire [CONN_W-1:0]           row_conn = frozen ? l2_conn_reg : l1_conn_reg;
    reg [NOW_W-1:0]             row_lts_p;
    reg [NOW_W-1:0]             now_inc;
    genvar                      gp;
    for (gp = 0; gp < PATHS; gp = gp + 1) begin : g_lts
        localparam [PATH_W-1:0] LANE = gp;
        /*verilator coverage_off*/
        reg [NOW_W-1:0]         lts_mem [0:CONNS-1];
        /*verilator coverage_on*/
        assign row_lts[gp*NOW_W +: NOW_W] = lts_mem[row_conn];
        always @(posedge clk) begin
            if (xmit && !rst && s_path_path == LANE) begin
                lts_mem[x_conn] <= now_reg;
            end
        end
    end

    reg                         set_pend;
    reg [PIDX_W-1:0]            e_pidx;
    reg [PSEQ_WIDTH-1:0]        e_ahi;
    reg [PSEQ_WIDTH-1:0]        e_pnx;
    reg                         e_old;
    reg [PSEQ_WIDTH-1:0]        e_past;
    reg                         e_later;
    reg                         e_ok;
    reg                         e_load;
    reg [PSEQ_WIDTH-1:0]        e_k;
    reg [SACK_BITS-1:0]         e_mask;
    reg [7:0]                   e_loss;
    reg                         e_any;
    reg [CONN_W-1:0]            e_c;
    // loop indices: e in the check, f in the next state
    integer                     e;
    integer                     f;

    assign early_load = e_load;
    assign early_any = e_any;
    assign early_c = e_c;
    assign early_n = e_pnx;
    assign early_mask = e_mask;
    assign early_loss = e_loss;

    always @* begin
        // EARLY: ok = live && una != nxt && e.psn == una && (now - lts[c][e.path]) mod 2^16 >=
        // EARLY_CYCLES && !later; later: (ahi[c][e.path] - e.pseq) mod 2^PSEQ_WIDTH in
        // [1, 2^(PSEQ_WIDTH-1))
        e_pidx = {l2_conn_reg, ent_path};
        // the age compare, registered per path a cycle ahead (below); a write in the previous
        // cycle makes the age 1
        e_old = wr_hit_reg[ent_path] ? EARLY_AGE <= NOW_ONE : age_ok_reg[ent_path];
        e_ahi = ahi_fresh_reg[e_pidx] ? {PSEQ_WIDTH{1'b0}} : ahi_mem[e_pidx];
        e_pnx = pnx_fresh_reg[e_pidx] ? {PSEQ_WIDTH{1'b0}} : pnx_mem[e_pidx];
        e_past = e_ahi - ent_pseq;
        e_later = e_past != {PSEQ_WIDTH{1'b0}} && !e_past[PSEQ_WIDTH-1];
        e_ok = l2_valid_reg && l2_kind_reg == K_EARLY && l2_live && l2_una != l2_nxt &&
            ent_psn == l2_una && e_old && !e_later;
        e_load = e_ok && sc_mask_reg == {SACK_BITS{1'b0}} && !ev_valid_reg && !frozen;
        // k = (pnx[c][e.path] - e.pseq) mod 2^PSEQ_WIDTH: S.mask = (1 << min(k, SACK_BITS)) - 1,
        // E.loss = min(k, 255)
        e_k = e_pnx - ent_pseq;
        // (a thermometer code, not a shift: yosys would share a shifter with the ACK's region mask,
        // putting early_load in front of the popcount)
        for (e = 0; e < SACK_BITS; e = e + 1) begin
            e_mask[e] = e_k >= SACK_SEQ || e_k[SACK_W-1:0] > e[SACK_W-1:0];
        end
        if (e_k >= LOSS_MAX_SEQ) begin
            e_loss = 8'd255;
        end else begin
            e_loss = e_k[7:0];
        end

        // lowest c with early_pend
        e_any = early_pend_reg != {CONNS{1'b0}};
        e_c = {CONN_W{1'b0}};
        for (e = CONNS - 1; e >= 0; e = e - 1) begin
            if (early_pend_reg[e]) begin
                e_c = e[CONN_W-1:0];
            end
        end
    end

    // next state, apart from the check above (which a_fire, and so a_path_upd, depends on)
    always @* begin
        // the age check of L2's next connection (a frozen cycle has no transmission: only now
        // moves)
        now_inc = now_reg + NOW_ONE;
        for (f = 0; f < PATHS; f = f + 1) begin
            row_lts_p = lts_fresh_reg[row_conn*PATHS + f] ? {NOW_W{1'b0}} :
                row_lts[f*NOW_W +: NOW_W];
            age_ok_next[f] = now_inc - row_lts_p >= EARLY_AGE;
            wr_hit_next[f] = xmit && x_conn == row_conn && s_path_path == f[PATH_W-1:0];
        end

        // early_pend in the docs' order: ACK processing (progress clears; step 5 sets: the path
        // part applied, psn == una, which excludes progress, and una != nxt), lookup issue, error,
        // control (open and close clear)
        set_pend = a_path_upd && a_psn_reg == a_una && a_una != a_nxt;
        early_pend_next = early_pend_reg;
        if (a_progress) begin
            early_pend_next[a_conn_reg] = 1'b0;
        end
        if (set_pend) begin
            early_pend_next[a_conn_reg] = 1'b1;
        end
        if (issue_early) begin
            early_pend_next[e_c] = 1'b0;
        end
        if (l2_err) begin
            early_pend_next[l2_conn_reg] = 1'b0;
        end
        if (ctl_hs) begin
            early_pend_next[s_ctl_conn] = 1'b0;
        end

        // lts: a transmission writes now (clocked block) and clears the fresh bit; open sets the
        // connection's fresh bits
        lts_fresh_next = lts_fresh_reg;
        if (xmit) begin
            lts_fresh_next[x_pidx] = 1'b0;
        end
        if (ctl_hs && s_ctl_open) begin
            lts_fresh_next[s_ctl_conn*PATHS +: PATHS] = {PATHS{1'b1}};
        end
    end

    always @(posedge clk) begin
        now_reg <= now_reg + NOW_ONE;
        lts_fresh_reg <= lts_fresh_next;
        early_pend_reg <= early_pend_next;
        age_ok_reg <= age_ok_next;
        wr_hit_reg <= wr_hit_next;

        if (rst) begin
            now_reg <= {NOW_W{1'b0}};
            lts_fresh_reg <= {NPATHS{1'b1}};
            early_pend_reg <= {CONNS{1'b0}};
            age_ok_reg <= {PATHS{1'b0}};
            wr_hit_reg <= {PATHS{1'b0}};
        end
    end
end else begin : g_no_early
    assign early_load = 1'b0;
    assign early_any = 1'b0;
    assign early_c = {CONN_W{1'b0}};
    assign early_n = {PSEQ_WIDTH{1'b0}};
    assign early_mask = {SACK_BITS{1'b0}};
    assign early_loss = 8'd0;
end
endgenerate

/*
 * ACK request age (docs: Timers; A transmission): arq per connection, 4 bits, saturating at 15.
 * Only when ACK_REQ_TICKS != 0.
 */
generate
if (ARQ_ON) begin : g_arq
    reg [CONNS*ARQ_W-1:0]       arq_reg = {CONNS*ARQ_W{1'b0}}, arq_next;
    reg [ARQ_W-1:0]             q_visit;

    // a new packet sees the start-of-cycle arq of its connection
    assign arq_due = arq_reg[s_tx_conn*ARQ_W +: ARQ_W] >= ARQ_DUE;

    // in the docs' order: visit, transmission (with ack_req: arq = 0), control (open: arq = 15)
    always @* begin
        arq_next = arq_reg;
        q_visit = arq_reg[v_conn*ARQ_W +: ARQ_W];
        if (v_hit && open_reg[v_conn] && !err_reg[v_conn] && q_visit != ARQ_MAX) begin
            arq_next[v_conn*ARQ_W +: ARQ_W] = q_visit + ARQ_ONE;
        end
        if (xmit && x_ack_req) begin
            arq_next[x_conn*ARQ_W +: ARQ_W] = {ARQ_W{1'b0}};
        end
        if (ctl_hs && s_ctl_open) begin
            arq_next[s_ctl_conn*ARQ_W +: ARQ_W] = ARQ_MAX;
        end
    end

    always @(posedge clk) begin
        arq_reg <= arq_next;
        if (rst) begin
            arq_reg <= {CONNS*ARQ_W{1'b0}};
        end
    end
end else begin : g_no_arq
    assign arq_due = 1'b0;
end
endgenerate

/*
 * Transmission, error outputs and counters.
 */
always @* begin
    m_pkt_valid_next = m_pkt_valid_reg;
    m_pkt_conn_next = m_pkt_conn_reg;
    m_pkt_psn_next = m_pkt_psn_reg;
    m_pkt_path_next = m_pkt_path_reg;
    m_pkt_pseq_next = m_pkt_pseq_reg;
    m_pkt_entropy_next = m_pkt_entropy_reg;
    m_pkt_handle_next = m_pkt_handle_reg;
    m_pkt_first_next = m_pkt_first_reg;
    m_pkt_last_next = m_pkt_last_reg;
    m_pkt_ack_req_next = m_pkt_ack_req_reg;
    m_pkt_retx_next = m_pkt_retx_reg;
    m_pkt_retries_next = m_pkt_retries_reg;

    if (xmit) begin
        m_pkt_valid_next = 1'b1;
        m_pkt_conn_next = x_conn;
        m_pkt_psn_next = x_psn;
        m_pkt_path_next = s_path_path;
        m_pkt_pseq_next = x_pseq;
        m_pkt_entropy_next = s_path_entropy;
        m_pkt_handle_next = x_handle;
        m_pkt_first_next = x_first;
        m_pkt_last_next = x_last;
        m_pkt_ack_req_next = x_ack_req;
        m_pkt_retx_next = l2_send;
        m_pkt_retries_next = x_retries;
    end else if (m_pkt_ready) begin
        m_pkt_valid_next = 1'b0;
    end

    // m_err_valid is a one-cycle pulse
    m_err_valid_next = l2_err;
    m_err_conn_next = l2_err ? l2_conn_reg : m_err_conn_reg;

    cnt_sent_next = cnt_sent_reg + {31'd0, new_send};
    cnt_retx_loss_next = cnt_retx_loss_reg + {31'd0, l2_send && l2_kind_reg == K_HOLE};
    cnt_retx_timeout_next = cnt_retx_timeout_reg + {31'd0, l2_send && l2_kind_reg == K_RTO};
    cnt_retx_gbn_next = cnt_retx_gbn_reg + {31'd0, l2_send && l2_kind_reg == K_GBN};
    cnt_timeouts_next = cnt_timeouts_reg + {31'd0, v_expire};
    cnt_errors_next = cnt_errors_reg + {31'd0, l2_err};
    cnt_tx_dropped_next = cnt_tx_dropped_reg + {31'd0, tx_dropped};
    cnt_ack_ignored_next = cnt_ack_ignored_reg + {31'd0, a_ignored};
end

/*
 * Registers. In a reset cycle nothing but the reset happens: every flip-flop is cleared (docs:
 * Reset).
 */
always @(posedge clk) begin
    open_reg <= open_next;
    err_reg <= err_next;
    una_reg <= una_next;
    nxt_reg <= nxt_next;
    rto_cnt_reg <= rto_cnt_next;
    rto_lim_reg <= rto_lim_next;
    rto_pend_reg <= rto_pend_next;
    gbn_act_reg <= gbn_act_next;
    rw_reg <= rw_next;
    pnx_fresh_reg <= pnx_fresh_next;
    ahi_fresh_reg <= ahi_fresh_next;
    if (xmit && !rst) begin
        pnx_mem[x_pidx] <= x_pseq_inc;
    end
    if (a_path_upd && !rst) begin
        ahi_mem[{a_conn_reg, a_path_reg}] <= a_pseq_reg;
    end

    a_valid_reg <= a_valid_next;
    a_conn_reg <= a_conn_next;
    a_psn_reg <= a_psn_next;
    a_path_reg <= a_path_next;
    a_pseq_reg <= a_pseq_next;
    a_pnx_op_reg <= a_pnx_op_next;
    a_ahi_op_reg <= a_ahi_op_next;
    a_una_op_reg <= a_una_op_next;
    a_nxt_op_reg <= a_nxt_op_next;
    l2_una_op_reg <= l2_una_op_next;
    l2_nxt_op_reg <= l2_nxt_op_next;
    a_sack_reg <= a_sack_next;
    a_ecn_reg <= a_ecn_next;
    a_nak_reg <= a_nak_next;

    sc_conn_reg <= sc_conn_next;
    sc_path_reg <= sc_path_next;
    sc_n_reg <= sc_n_next;
    sc_mask_reg <= sc_mask_next;

    l1_valid_reg <= l1_valid_next;
    l1_kind_reg <= l1_kind_next;
    l1_conn_reg <= l1_conn_next;
    l1_path_reg <= l1_path_next;
    l1_pseq_reg <= l1_pseq_next;
    l1_psn_reg <= l1_psn_next;
    l1_fwd_reg <= l1_fwd_next;
    l1_fwd_slot_reg <= l1_fwd_slot_next;

    l2_valid_reg <= l2_valid_next;
    l2_kind_reg <= l2_kind_next;
    l2_conn_reg <= l2_conn_next;
    l2_path_reg <= l2_path_next;
    l2_pseq_reg <= l2_pseq_next;
    l2_psn_reg <= l2_psn_next;
    l2_fwd_reg <= l2_fwd_next;
    l2_fwd_ent_reg <= l2_fwd_ent_next;

    ev_valid_reg <= ev_valid_next;
    ev_conn_reg <= ev_conn_next;
    ev_path_reg <= ev_path_next;
    ev_deliv_reg <= ev_deliv_next;
    ev_ecn_reg <= ev_ecn_next;
    ev_loss_reg <= ev_loss_next;

    to_valid_reg <= to_valid_next;
    to_conn_reg <= to_conn_next;
    to_path_reg <= to_path_next;

    m_pkt_valid_reg <= m_pkt_valid_next;
    m_pkt_conn_reg <= m_pkt_conn_next;
    m_pkt_psn_reg <= m_pkt_psn_next;
    m_pkt_path_reg <= m_pkt_path_next;
    m_pkt_pseq_reg <= m_pkt_pseq_next;
    m_pkt_entropy_reg <= m_pkt_entropy_next;
    m_pkt_handle_reg <= m_pkt_handle_next;
    m_pkt_first_reg <= m_pkt_first_next;
    m_pkt_last_reg <= m_pkt_last_next;
    m_pkt_ack_req_reg <= m_pkt_ack_req_next;
    m_pkt_retx_reg <= m_pkt_retx_next;
    m_pkt_retries_reg <= m_pkt_retries_next;

    m_fb_valid_reg <= m_fb_valid_next;
    m_fb_conn_reg <= m_fb_conn_next;
    m_fb_path_reg <= m_fb_path_next;
    m_fb_kind_reg <= m_fb_kind_next;
    m_fb_count_reg <= m_fb_count_next;

    m_err_valid_reg <= m_err_valid_next;
    m_err_conn_reg <= m_err_conn_next;
    // m_una: the progress of this cycle's ACK (a_fire is 0 in a control cycle)
    m_una_valid_reg <= a_progress;
    if (a_progress) begin
        m_una_conn_reg <= a_conn_reg;
        m_una_psn_reg <= a_psn_reg;
    end

    tick_reg <= tick_next;

    cnt_sent_reg <= cnt_sent_next;
    cnt_retx_loss_reg <= cnt_retx_loss_next;
    cnt_retx_timeout_reg <= cnt_retx_timeout_next;
    cnt_retx_gbn_reg <= cnt_retx_gbn_next;
    cnt_timeouts_reg <= cnt_timeouts_next;
    cnt_errors_reg <= cnt_errors_next;
    cnt_tx_dropped_reg <= cnt_tx_dropped_next;
    cnt_ack_ignored_reg <= cnt_ack_ignored_next;

    if (rst) begin
        open_reg <= {CONNS{1'b0}};
        err_reg <= {CONNS{1'b0}};
        rto_pend_reg <= {CONNS{1'b0}};
        gbn_act_reg <= {CONNS{1'b0}};
        for (j = 0; j < CONNS; j = j + 1) begin
            una_reg[j*PSN_WIDTH +: PSN_WIDTH] <= {PSN_WIDTH{1'b0}};
            nxt_reg[j*PSN_WIDTH +: PSN_WIDTH] <= {PSN_WIDTH{1'b0}};
            rto_cnt_reg[j*RTO_W +: RTO_W] <= {RTO_W{1'b0}};
            rto_lim_reg[j*RTO_W +: RTO_W] <= {RTO_W{1'b0}};
            rw_reg[j*PSN_WIDTH +: PSN_WIDTH] <= {PSN_WIDTH{1'b0}};
        end
        pnx_fresh_reg <= {NPATHS{1'b1}};
        ahi_fresh_reg <= {NPATHS{1'b1}};

        a_valid_reg <= 1'b0;
        a_conn_reg <= {CONN_W{1'b0}};
        a_psn_reg <= {PSN_WIDTH{1'b0}};
        a_path_reg <= {PATH_W{1'b0}};
        a_pseq_reg <= {PSEQ_WIDTH{1'b0}};
        a_pnx_op_reg <= {PSEQ_WIDTH{1'b0}};
        a_ahi_op_reg <= {PSEQ_WIDTH{1'b0}};
        a_una_op_reg <= {PSN_WIDTH{1'b0}};
        a_nxt_op_reg <= {PSN_WIDTH{1'b0}};
        l2_una_op_reg <= {PSN_WIDTH{1'b0}};
        l2_nxt_op_reg <= {PSN_WIDTH{1'b0}};
        a_sack_reg <= {SACK_BITS{1'b0}};
        a_ecn_reg <= 1'b0;
        a_nak_reg <= 1'b0;

        sc_conn_reg <= {CONN_W{1'b0}};
        sc_path_reg <= {PATH_W{1'b0}};
        sc_n_reg <= {PSEQ_WIDTH{1'b0}};
        sc_mask_reg <= {SACK_BITS{1'b0}};

        l1_valid_reg <= 1'b0;
        l1_kind_reg <= K_HOLE;
        l1_conn_reg <= {CONN_W{1'b0}};
        l1_path_reg <= {PATH_W{1'b0}};
        l1_pseq_reg <= {PSEQ_WIDTH{1'b0}};
        l1_psn_reg <= {PSN_WIDTH{1'b0}};
        l1_fwd_reg <= 1'b0;
        l1_fwd_slot_reg <= {PM_DW{1'b0}};

        l2_valid_reg <= 1'b0;
        l2_kind_reg <= K_HOLE;
        l2_conn_reg <= {CONN_W{1'b0}};
        l2_path_reg <= {PATH_W{1'b0}};
        l2_pseq_reg <= {PSEQ_WIDTH{1'b0}};
        l2_psn_reg <= {PSN_WIDTH{1'b0}};
        l2_fwd_reg <= 1'b0;
        l2_fwd_ent_reg <= {TX_DW{1'b0}};

        ev_valid_reg <= 1'b0;
        ev_conn_reg <= {CONN_W{1'b0}};
        ev_path_reg <= {PATH_W{1'b0}};
        ev_deliv_reg <= 8'd0;
        ev_ecn_reg <= 1'b0;
        ev_loss_reg <= 8'd0;

        to_valid_reg <= 1'b0;
        to_conn_reg <= {CONN_W{1'b0}};
        to_path_reg <= {PATH_W{1'b0}};

        m_pkt_valid_reg <= 1'b0;
        m_pkt_conn_reg <= {CONN_W{1'b0}};
        m_pkt_psn_reg <= {PSN_WIDTH{1'b0}};
        m_pkt_path_reg <= {PATH_W{1'b0}};
        m_pkt_pseq_reg <= {PSEQ_WIDTH{1'b0}};
        m_pkt_entropy_reg <= 16'd0;
        m_pkt_handle_reg <= {HANDLE_WIDTH{1'b0}};
        m_pkt_first_reg <= 1'b0;
        m_pkt_last_reg <= 1'b0;
        m_pkt_ack_req_reg <= 1'b0;
        m_pkt_retx_reg <= 1'b0;
        m_pkt_retries_reg <= {RETR_W{1'b0}};

        m_fb_valid_reg <= 1'b0;
        m_fb_conn_reg <= {CONN_W{1'b0}};
        m_fb_path_reg <= {PATH_W{1'b0}};
        m_fb_kind_reg <= 2'd0;
        m_fb_count_reg <= 8'd0;

        m_err_valid_reg <= 1'b0;
        m_err_conn_reg <= {CONN_W{1'b0}};
        m_una_valid_reg <= 1'b0;
        m_una_conn_reg <= {CONN_W{1'b0}};
        m_una_psn_reg <= {PSN_WIDTH{1'b0}};

        tick_reg <= {TICK_W{1'b0}};

        cnt_sent_reg <= 32'd0;
        cnt_retx_loss_reg <= 32'd0;
        cnt_retx_timeout_reg <= 32'd0;
        cnt_retx_gbn_reg <= 32'd0;
        cnt_timeouts_reg <= 32'd0;
        cnt_errors_reg <= 32'd0;
        cnt_tx_dropped_reg <= 32'd0;
        cnt_ack_ignored_reg <= 32'd0;
    end
end

`ifdef FORMAL
/*
 * Properties (docs/formal.md). Set retx (k-induction): the send slot's window and outstanding
 * rules, una within WINDOW behind nxt, one transmission per cycle held until taken, the retries
 * field counting transmissions, an error only for an outstanding packet whose entry counts
 * MAX_RETRIES retransmissions; strengthened by the timing copies (a_una_op, a_nxt_op, l2_una_op,
 * l2_nxt_op) equal to the state they copy. Sets retx_cover (FORMAL_COVER), retx_cover_tx
 * (FORMAL_COVER, FORMAL_COVER_TX) and retx_cover_deep (FORMAL_COVER, FORMAL_COVER_DEEP): the same
 * assertions with the environment narrowed for the covers (below).
 */
reg                     f_past_valid = 1'b0;
reg                     f_hold_prev = 1'b0;
reg [CONN_W+PSN_WIDTH+PATH_W+PSEQ_WIDTH+HANDLE_WIDTH+RETR_W+5:0] f_pkt_prev;
reg [PSN_WIDTH-1:0]     f_una;
reg [PSN_WIDTH-1:0]     f_nxt;
reg [PSN_WIDTH-1:0]     f_l2_una;
reg [PSN_WIDTH-1:0]     f_l2_nxt;
reg                     f_retx_new_window;
reg                     f_retx_retx_outst;
reg                     f_retx_una_nxt;
reg                     f_retx_err_retries;
reg                     f_retx_copy_h;
reg                     f_retx_retries_step;
integer                 f_i;

always @* begin
    // contract (docs/retx.md, Ports and Reset): rst is the synchronous reset; the state (open,
    // una, nxt, the pipeline) is defined only after it, so it is high in the first cycle. No other
    // input is constrained: every ACK, control, path decision and back-pressure is legal.
    if (!f_past_valid) begin
        assume (rst);
    end
end

always @(posedge clk) begin
    f_past_valid <= 1'b1;
    f_hold_prev <= !rst && m_pkt_valid_reg && !m_pkt_ready;
    f_pkt_prev <= {m_pkt_conn_reg, m_pkt_psn_reg, m_pkt_path_reg, m_pkt_pseq_reg, m_pkt_handle_reg,
        m_pkt_retries_reg, m_pkt_first_reg, m_pkt_last_reg, m_pkt_ack_req_reg, m_pkt_retx_reg,
        m_pkt_valid_reg, 1'b1};
end

always @* begin
    f_retx_new_window = 1'b1;
    f_retx_retx_outst = 1'b1;
    f_retx_una_nxt = 1'b1;
    f_retx_err_retries = 1'b1;
    f_retx_copy_h = 1'b1;
    f_retx_retries_step = 1'b1;
    f_una = {PSN_WIDTH{1'b0}};
    f_nxt = {PSN_WIDTH{1'b0}};
    f_l2_una = una_reg[l2_conn_reg*PSN_WIDTH +: PSN_WIDTH];
    f_l2_nxt = nxt_reg[l2_conn_reg*PSN_WIDTH +: PSN_WIDTH];
    if (f_past_valid && !rst) begin
        // a new packet leaves at nxt, in [una, una + WINDOW)
        if (new_send && x_psn - una_reg[s_tx_conn*PSN_WIDTH +: PSN_WIDTH] >= WIN_PSN) begin
            f_retx_new_window = 1'b0;
        end
        // a retransmission leaves with a PSN in [una, nxt) of its connection (start of the cycle:
        // not cumulatively acknowledged)
        if (l2_send && x_psn - f_l2_una >= f_l2_nxt - f_l2_una) begin
            f_retx_retx_outst = 1'b0;
        end
        for (f_i = 0; f_i < CONNS; f_i = f_i + 1) begin
            f_una = una_reg[f_i*PSN_WIDTH +: PSN_WIDTH];
            f_nxt = nxt_reg[f_i*PSN_WIDTH +: PSN_WIDTH];
            // una is at most WINDOW PSNs behind nxt and never passes it
            if (f_nxt - f_una > WIN_PSN) begin
                f_retx_una_nxt = 1'b0;
            end
            // an error comes only from L2's candidate of this connection: outstanding (live, in
            // [una, nxt)) and its entry counting MAX_RETRIES retransmissions
            if (err_next[f_i] && !err_reg[f_i] && !(l2_valid_reg && l2_conn_reg == f_i[CONN_W-1:0]
                    && open_reg[f_i] && ent_retries == RETR_MAX && ent_psn - f_una < f_nxt - f_una))
                    begin
                f_retx_err_retries = 1'b0;
            end
        end
        // a new packet leaves with retries 0, a retransmission with its entry's retries + 1
        if ((new_send && x_retries != {RETR_W{1'b0}}) ||
                (l2_send && x_retries != ent_retries + {{RETR_W-1{1'b0}}, 1'b1})) begin
            f_retx_retries_step = 1'b0;
        end
        // (strengthening) the timing copies equal the state they copy
        if (a_una_op_reg != una_reg[a_conn_reg*PSN_WIDTH +: PSN_WIDTH] ||
                a_nxt_op_reg != nxt_reg[a_conn_reg*PSN_WIDTH +: PSN_WIDTH] ||
                l2_una_op_reg != f_l2_una || l2_nxt_op_reg != f_l2_nxt) begin
            f_retx_copy_h = 1'b0;
        end

`ifndef FORMAL_COPY_ONLY
`ifndef FORMAL_SLOT_ONLY
        retx_new_window: assert (f_retx_new_window);
        retx_retx_outst: assert (f_retx_retx_outst);
        retx_err_retries: assert (f_retx_err_retries);
        retx_retries_step: assert (f_retx_retries_step);
`endif
        retx_una_nxt: assert (f_retx_una_nxt);
        // one transmission per cycle, and m_pkt held (valid, every field) until taken
        retx_one_send: assert (!(l2_send && new_send));
        if (f_hold_prev) begin
            retx_pkt_hold: assert (f_pkt_prev == {m_pkt_conn_reg, m_pkt_psn_reg, m_pkt_path_reg,
                m_pkt_pseq_reg, m_pkt_handle_reg, m_pkt_retries_reg, m_pkt_first_reg,
                m_pkt_last_reg, m_pkt_ack_req_reg, m_pkt_retx_reg, m_pkt_valid_reg, 1'b1});
        end
`endif
        retx_copy_h: assert (f_retx_copy_h);
    end
end

`ifdef FORMAL_CNT
/*
 * Sets retx_cnt (FORMAL_CNT) and retx_gbn (FORMAL_CNT, FORMAL_GBN): every counter is a register
 * loaded at the edge that ends its event's cycle, so in each cycle it is its value of the cycle
 * before plus 1 if the event happened then (32-bit wrap), and 0 after a reset cycle. The events
 * are stated from ports and the docs' registers (f_*_prev hold the previous cycle's):
 * a transmission is the s_path handshake, a new packet or a retransmission by m_pkt_retx, the
 * retransmission's kind L2's; a refused s_tx packet is an s_tx handshake of a closed or errored
 * connection; an error is the m_err pulse (loaded at the same edge as the counter); an expiry is
 * a visit (tick == c < CONNS) of an open connection without error, una != nxt, no rto_pend or
 * gbn_act and rto_cnt >= rto_lim, without control of c then, nor progress (una moved) or error
 * of c at its edge; an ignored ACK is one processed (a_fire) of a closed or errored connection,
 * or without progress (una moved), path part (E loaded: A fires only while E is empty) or
 * applicable NAK (GBN: psn in [una, nxt) with the una after it).
 */
reg                     f_rst_prev = 1'b1;
reg [8*32-1:0]          f_cnt_prev;
reg                     f_xmit_prev;
reg [1:0]               f_kind_prev;
reg                     f_txd_prev;
reg                     f_afire_prev;
reg                     f_alive_prev;
reg                     f_anak_prev;
reg [CONN_W-1:0]        f_aconn_prev;
reg [PSN_WIDTH-1:0]     f_apsn_prev;
reg [PSN_WIDTH-1:0]     f_auna_prev;
reg [PSN_WIDTH-1:0]     f_anxt_prev;
reg                     f_exp_prev;
reg [CONN_W-1:0]        f_vconn_prev;
reg [PSN_WIDTH-1:0]     f_vuna_prev;
reg [CONN_W-1:0]        f_v;
reg [PSN_WIDTH-1:0]     f_una_now;
reg                     f_ev_sent;
reg                     f_ev_loss;
reg                     f_ev_rto;
reg                     f_ev_gbn;
reg                     f_ev_exp;
reg                     f_ev_ign;
reg                     f_ev_una;
// the previous cycle's control handshake {open, psn, conn, taken} and whether A took an ACK then
reg [PSN_WIDTH+CONN_W+1:0] f_ctl_prev = {PSN_WIDTH+CONN_W+2{1'b0}};
reg                     f_atake_prev;
reg [CONN_W-1:0]        f_cc;
reg [PSN_WIDTH-1:0]     f_cpsn;
reg                     f_ctl_left;
reg                     f_ctl_state;
// the previous cycle's memory writes {tx addr, tx data, path map addr, path map data}
reg [TX_AW+TX_DW+PM_AW+PM_DW-1:0] f_wr_prev;

always @* begin
    f_v = tick_reg[CONN_W-1:0];
end

always @(posedge clk) begin
    f_rst_prev <= rst;
    f_cnt_prev <= {cnt_sent_reg, cnt_retx_loss_reg, cnt_retx_timeout_reg, cnt_retx_gbn_reg,
        cnt_timeouts_reg, cnt_errors_reg, cnt_tx_dropped_reg, cnt_ack_ignored_reg};
    f_xmit_prev <= s_path_valid && s_path_ready;
    f_kind_prev <= l2_kind_reg;
    f_txd_prev <= s_tx_valid && s_tx_ready && (!open_reg[s_tx_conn] || err_reg[s_tx_conn]);
    f_afire_prev <= a_fire;
    f_alive_prev <= open_reg[a_conn_reg] && !err_reg[a_conn_reg];
    f_anak_prev <= a_nak_reg;
    f_aconn_prev <= a_conn_reg;
    f_apsn_prev <= a_psn_reg;
    f_auna_prev <= una_reg[a_conn_reg*PSN_WIDTH +: PSN_WIDTH];
    f_anxt_prev <= nxt_reg[a_conn_reg*PSN_WIDTH +: PSN_WIDTH];
    f_exp_prev <= {{32-TICK_W{1'b0}}, tick_reg} < CONNS_32 && open_reg[f_v] && !err_reg[f_v] &&
        una_reg[f_v*PSN_WIDTH +: PSN_WIDTH] != nxt_reg[f_v*PSN_WIDTH +: PSN_WIDTH] &&
        !rto_pend_reg[f_v] && !gbn_act_reg[f_v] &&
        rto_cnt_reg[f_v*RTO_W +: RTO_W] >= rto_lim_reg[f_v*RTO_W +: RTO_W] &&
        !(s_ctl_valid && s_ctl_ready && s_ctl_conn == f_v);
    f_vconn_prev <= f_v;
    f_vuna_prev <= una_reg[f_v*PSN_WIDTH +: PSN_WIDTH];
    f_ctl_prev <= {s_ctl_open, s_ctl_psn, s_ctl_conn, ctl_hs};
    f_atake_prev <= ack_hs && !a_valid_reg;
    f_wr_prev <= {tx_wr_addr, tx_wr_data, pm_wr_addr, pm_wr_data};
end

// after a control of connection c (docs/retx.md, Control): no stage of A, S, L1, L2 holds c but
// an ACK A took in the control cycle itself, and c's fields are the control's (open: open, no
// error, una = nxt = rw = the PSN, the timer restarted; both: rto_pend and gbn_act clear)
always @* begin
    f_cc = f_ctl_prev[1 +: CONN_W];
    f_cpsn = f_ctl_prev[CONN_W+1 +: PSN_WIDTH];
    f_ctl_left = (a_valid_reg && a_conn_reg == f_cc && !f_atake_prev) ||
        (sc_mask_reg != {SACK_BITS{1'b0}} && sc_conn_reg == f_cc) ||
        (l1_valid_reg && l1_conn_reg == f_cc) || (l2_valid_reg && l2_conn_reg == f_cc);
    f_ctl_state = open_reg[f_cc] == f_ctl_prev[PSN_WIDTH+CONN_W+1] && !rto_pend_reg[f_cc] &&
        !gbn_act_reg[f_cc] && (!f_ctl_prev[PSN_WIDTH+CONN_W+1] || (!err_reg[f_cc] &&
        una_reg[f_cc*PSN_WIDTH +: PSN_WIDTH] == f_cpsn &&
        nxt_reg[f_cc*PSN_WIDTH +: PSN_WIDTH] == f_cpsn &&
        rw_reg[f_cc*PSN_WIDTH +: PSN_WIDTH] == f_cpsn &&
        rto_cnt_reg[f_cc*RTO_W +: RTO_W] == {RTO_W{1'b0}} &&
        rto_lim_reg[f_cc*RTO_W +: RTO_W] == RTO_INIT));
end

always @* begin
    f_ev_sent = f_xmit_prev && !m_pkt_retx_reg;
    f_ev_loss = f_xmit_prev && m_pkt_retx_reg && f_kind_prev == K_HOLE;
    f_ev_rto = f_xmit_prev && m_pkt_retx_reg && f_kind_prev == K_RTO;
    f_ev_gbn = f_xmit_prev && m_pkt_retx_reg && f_kind_prev == K_GBN;
    f_ev_exp = f_exp_prev && una_reg[f_vconn_prev*PSN_WIDTH +: PSN_WIDTH] == f_vuna_prev &&
        !err_reg[f_vconn_prev];
    f_una_now = una_reg[f_aconn_prev*PSN_WIDTH +: PSN_WIDTH];
    f_ev_una = f_afire_prev && f_una_now != f_auna_prev;
    f_ev_ign = f_afire_prev && (!f_alive_prev || !(f_una_now != f_auna_prev || ev_valid_reg ||
        (GBN_MODE && f_anak_prev && f_apsn_prev - f_una_now < f_anxt_prev - f_una_now)));
    if (f_past_valid) begin
        if (f_rst_prev) begin
            retx_cnt_reset: assert ({cnt_sent_reg, cnt_retx_loss_reg, cnt_retx_timeout_reg,
                cnt_retx_gbn_reg, cnt_timeouts_reg, cnt_errors_reg, cnt_tx_dropped_reg,
                cnt_ack_ignored_reg} == {8*32{1'b0}});
        end else begin
            retx_cnt_sent: assert (cnt_sent_reg == f_cnt_prev[7*32 +: 32] + {31'd0, f_ev_sent});
            retx_cnt_retx_loss: assert (cnt_retx_loss_reg ==
                f_cnt_prev[6*32 +: 32] + {31'd0, f_ev_loss});
            retx_cnt_retx_timeout: assert (cnt_retx_timeout_reg ==
                f_cnt_prev[5*32 +: 32] + {31'd0, f_ev_rto});
            retx_cnt_retx_gbn: assert (cnt_retx_gbn_reg ==
                f_cnt_prev[4*32 +: 32] + {31'd0, f_ev_gbn});
            retx_cnt_timeouts: assert (cnt_timeouts_reg ==
                f_cnt_prev[3*32 +: 32] + {31'd0, f_ev_exp});
            retx_cnt_errors: assert (cnt_errors_reg ==
                f_cnt_prev[2*32 +: 32] + {31'd0, m_err_valid_reg});
            retx_cnt_tx_dropped: assert (cnt_tx_dropped_reg ==
                f_cnt_prev[1*32 +: 32] + {31'd0, f_txd_prev});
            retx_cnt_ack_ignored: assert (cnt_ack_ignored_reg ==
                f_cnt_prev[0*32 +: 32] + {31'd0, f_ev_ign});
        end
`ifndef FORMAL_GBN
        // m_una pulses exactly in the cycle after an ACK processed (a_fire) moved una of its
        // connection forward, into (una, nxt], with that connection and its new una (retx_cnt
        // only: kept out of the go-back-N sets to keep their induction step as it is)
        retx_una_out: assert (f_rst_prev ? !m_una_valid : m_una_valid == f_ev_una &&
            (!m_una_valid || (m_una_conn == f_aconn_prev && m_una_psn == f_una_now &&
            f_una_now - f_auna_prev <= f_anxt_prev - f_auna_prev)));
`endif
        if (!f_rst_prev && f_ctl_prev[0]) begin
            retx_ctl_clears: assert (!f_ctl_left && f_ctl_state);
        end
        // the tx table and the path map are written exactly in a transmission's cycle (the s_path
        // handshake), at and with what m_pkt shows in the next cycle: tx [c][psn mod WINDOW] <-
        // {psn, P, Q, retries, handle, first, last}, path map [c][P][Q mod SACK_BITS] <- psn mod
        // WINDOW (docs/retx.md, Memories)
        retx_mem_write: assert (tx_wr_en == (s_path_valid && s_path_ready) &&
            pm_wr_en == tx_wr_en);
        if (!f_rst_prev && f_xmit_prev) begin
            retx_mem_data: assert (f_wr_prev == {m_pkt_conn_reg, m_pkt_psn_reg[SLOT_W-1:0],
                m_pkt_psn_reg, m_pkt_path_reg, m_pkt_pseq_reg, m_pkt_retries_reg, m_pkt_handle_reg,
                m_pkt_first_reg, m_pkt_last_reg, m_pkt_conn_reg, m_pkt_path_reg,
                m_pkt_pseq_reg[SACK_W-1:0], m_pkt_psn_reg[SLOT_W-1:0]});
        end
    end
end
`endif

`ifdef FORMAL_GBN
/*
 * Sets retx_gbn, retx_gbn_rw (FORMAL_GBN_RW), retx_gbn_all (preset rt2g, GBN = 1): go-back-N.
 * No feedback (E and T stay empty, m_fb_valid never rises); the lookup pipeline holds only
 * rewind (GBN) candidates, so every retransmission is one; a rewind resends only PSNs in
 * [una, nxt) of its connection (start of the cycle); no new packet of a connection while its
 * rewind runs (gbn_act); while gbn_act, rw is in [una, nxt) (the rewind stops when rw + 1
 * reaches nxt, so rw never reaches it). retx_gbn_all (nightly) adds the retx set's properties.
 */
reg                     f_gbn_rw;
reg                     f_gbn_kind_h;
reg [PSN_WIDTH-1:0]     f_rw;
reg [PSN_WIDTH-1:0]     f_g_una;
reg [PSN_WIDTH-1:0]     f_g_nxt;
integer                 f_gi;

always @* begin
    f_gbn_rw = 1'b1;
    f_gbn_kind_h = 1'b1;
    f_rw = {PSN_WIDTH{1'b0}};
    f_g_una = {PSN_WIDTH{1'b0}};
    f_g_nxt = {PSN_WIDTH{1'b0}};
    if (f_past_valid && !rst) begin
        for (f_gi = 0; f_gi < CONNS; f_gi = f_gi + 1) begin
            f_g_una = una_reg[f_gi*PSN_WIDTH +: PSN_WIDTH];
            f_g_nxt = nxt_reg[f_gi*PSN_WIDTH +: PSN_WIDTH];
            f_rw = rw_reg[f_gi*PSN_WIDTH +: PSN_WIDTH];
            if (gbn_act_reg[f_gi] && f_rw - f_g_una >= f_g_nxt - f_g_una) begin
                f_gbn_rw = 1'b0;
            end
        end
        // (strengthening) no hole scan, no RTO pending, L1 and L2 hold rewind candidates only
        if (sc_mask_reg != {SACK_BITS{1'b0}} || rto_pend_reg != {CONNS{1'b0}} ||
                (l1_valid_reg && l1_kind_reg != K_GBN) || (l2_valid_reg && l2_kind_reg != K_GBN))
                begin
            f_gbn_kind_h = 1'b0;
        end
        // rw in [una, nxt): set retx_gbn_rw (FORMAL_GBN_RW) and retx_gbn_all; apart from the
        // rest of retx_gbn, which it would make 5 times slower to prove
`ifdef FORMAL_GBN_RW
        retx_gbn_rw: assert (f_gbn_rw);
`elsif FORMAL_COPY_ONLY
`else
        retx_gbn_rw: assert (f_gbn_rw);
`endif
`ifndef FORMAL_GBN_RW
        retx_gbn_kind_h: assert (f_gbn_kind_h);
        retx_gbn_kind: assert (!l2_send || l2_kind_reg == K_GBN);
        retx_gbn_fb_h: assert (!ev_valid_reg && !to_valid_reg);
        retx_gbn_no_fb: assert (!m_fb_valid_reg);
        retx_gbn_no_new: assert (!new_send || !gbn_act_reg[s_tx_conn]);
        retx_gbn_outst: assert (!l2_send || x_psn - f_l2_una < f_l2_nxt - f_l2_una);
`endif
    end
end
`endif

`ifdef FORMAL_COVER
// Sets retx_cover, retx_cover_tx, retx_cover_deep: the retx set's assertions (bounded) with the
// environment narrowed to one connection, opened once at PSN 2^24 - 2, one path offered every
// cycle, no back-pressure, ACKs at that PSN (no progress) with an empty SACK bitmap and a path
// sequence below 4, no NAK or ECN, fixed handle and entropy (retx_cover_tx: no ACK at all, new
// work every cycle). These assumptions only remove input
// sequences, so a cover reached here is reachable in the retx set's environment (rst alone
// assumed); they bring the covers within the solver's reach (cvc4 took minutes per step beyond
// step 5 without them).
localparam [PSN_WIDTH-1:0] F_COV_PSN = {{PSN_WIDTH-1{1'b1}}, 1'b0};
reg                     f_cov_open = 1'b1;

always @(posedge clk) begin
    if (f_past_valid && !rst) begin
        f_cov_open <= 1'b0;
    end
end

always @* begin
    if (f_past_valid && !rst) begin
        assume (s_ctl_valid == f_cov_open);
        assume (s_ctl_open && s_ctl_conn == {CONN_W{1'b0}} && s_ctl_psn == F_COV_PSN);
        assume (s_tx_conn == {CONN_W{1'b0}} && s_path_valid && s_path_path == {PATH_W{1'b0}});
        assume (m_pkt_ready && m_fb_ready);
        assume (s_tx_handle == {HANDLE_WIDTH{1'b0}} && !s_tx_first && !s_tx_last &&
            s_path_entropy == 16'd0);
        // ACKs of connection 0 and path 0 that never move una and report every sequence lost
        assume (s_ack_conn == {CONN_W{1'b0}} && s_ack_path == {PATH_W{1'b0}} && !s_ack_nak &&
            !s_ack_ecn && s_ack_psn == F_COV_PSN && s_ack_sack == {SACK_BITS{1'b0}} &&
            s_ack_pseq[PSEQ_WIDTH-1:2] == {PSEQ_WIDTH-2{1'b0}});
`ifdef FORMAL_COVER_TX
        // retx_cover_tx: no ACK, new work every cycle
        assume (!s_ack_valid && s_tx_valid);
`endif
    end
end
`endif

// covers: retx a new packet wrapping nxt past 2^24 - 1; retx_cover a retransmission of a SACK
// hole; retx_cover_tx a new packet filling the window; retx_cover_deep a retransmission on RTO
// and a connection going to error; retx_gbn a rewind resend; retx_gbn_rw a rewind of
// connection 0 past una (it issued a resend); retx_cnt a new packet, a refused s_tx packet and
// an ignored ACK counted, and an m_una pulse
always @* begin
    if (f_past_valid && !rst) begin
`ifdef FORMAL_COVER_TX
        c_retx_full_window: cover (new_send && tx_fill == WIN_PSN);
`elsif FORMAL_COVER_DEEP
        c_retx_rto: cover (l2_send && l2_kind_reg == K_RTO);
        c_retx_error: cover (l2_err);
`elsif FORMAL_COVER
        c_retx_hole: cover (l2_send && l2_kind_reg == K_HOLE);
`elsif FORMAL_GBN_RW
        c_retx_gbn_rewind: cover (gbn_act_reg[0] &&
            rw_reg[0 +: PSN_WIDTH] != una_reg[0 +: PSN_WIDTH]);
`elsif FORMAL_GBN
        c_retx_gbn_resend: cover (l2_send && l2_kind_reg == K_GBN);
`elsif FORMAL_CNT
        c_retx_cnt_sent: cover (!f_rst_prev && f_ev_sent);
        c_retx_cnt_dropped: cover (!f_rst_prev && f_txd_prev);
        c_retx_cnt_ignored: cover (!f_rst_prev && f_ev_ign);
        c_retx_una: cover (m_una_valid);
`else
        c_retx_wrap: cover (new_send && tx_nxt == {PSN_WIDTH{1'b1}});
`endif
    end
end
`endif

`ifdef FORMAL_CNT
`ifndef FORMAL_GBN
/*
 * Set retx_cnt (selective mode): the selector hint against s_path. Every transmission (s_path
 * handshake) is the one m_preq names in its cycle: its connection, its kind (retx) and, for a
 * retransmission, the path of its previous transmission (the tx entry's), 0 for a new packet. A
 * hint is taken when a path is offered and m_pkt is free (empty or taken this cycle), except an
 * RTO retransmission while T is full (docs/retx.md, The send slot).
 */
always @* begin
    if (f_past_valid && !rst) begin
        retx_preq_use: assert (!(s_path_valid && s_path_ready) || (m_preq_valid &&
            m_preq_conn == x_conn && m_preq_retx == l2_send &&
            m_preq_avoid == (l2_send ? ent_path : {PATH_W{1'b0}})));
        retx_preq_take: assert (s_path_ready == (m_preq_valid && s_path_valid && out_free &&
            !(m_preq_retx && l2_kind_reg == K_RTO && to_valid_reg)));
    end
end
`endif
`endif

`ifdef FORMAL_RESP
/*
 * Set retx_resp (FORMAL_RESP, FORMAL_COPY_ONLY, selective mode): bounded response. Under a path
 * offered every cycle and m_pkt_ready and m_fb_ready high (assumed below), a loss candidate is
 * decided in L2 (sent, refused by validation, or the connection's error) within a bound of
 * cycles not frozen by control: a SACK hole within SACK_BITS + 3 cycles of the first cycle S
 * holds it, a timeout of connection 0 (the lowest, which the issue serves first) within
 * 3 * SACK_BITS + 5 cycles of the first cycle rto_pend is set. Ages count unfrozen cycles and
 * hold in frozen ones (nothing moves then). The bounds are a ranking: f_bt counts the cycles
 * L2 can still stall (an RTO candidate behind T: T, then an RTO in L1 behind one in L2), each
 * stall drains T, and S is refilled (by A) only while it is empty, so only a stall can delay a
 * waiting timeout by a refill of up to SACK_BITS holes.
 */
localparam [31:0] F_KS = SACK_BITS + 2;
localparam [31:0] F_KR = 3 * SACK_BITS + 2;
localparam [31:0] F_SB1 = SACK_BITS + 1;
reg [7:0]               f_s_age = 8'd0;
reg [7:0]               f_r_age = 8'd0;
reg [7:0]               f_l1_age = 8'd0;
reg [7:0]               f_l2_age = 8'd0;
reg [31:0]              f_pop;
reg [31:0]              f_bt;
reg                     f_l1_rto;
reg                     f_l2_rto;
integer                 f_ri;

always @* begin
    // narrowed environment (docs/formal.md, Assumptions): a path offered every cycle, no
    // back-pressure on m_pkt and m_fb
    if (f_past_valid && !rst) begin
        assume (s_path_valid && m_pkt_ready && m_fb_ready);
    end
end

always @(posedge clk) begin
    if (rst) begin
        f_s_age <= 8'd0;
        f_r_age <= 8'd0;
        f_l1_age <= 8'd0;
        f_l2_age <= 8'd0;
    end else begin
        if (a_path_upd) begin
            f_s_age <= 8'd0;
        end else if (sc_mask_reg != {SACK_BITS{1'b0}} && !frozen) begin
            f_s_age <= f_s_age + 8'd1;
        end
        if (!rto_pend_reg[0]) begin
            f_r_age <= 8'd0;
        end else if (!frozen) begin
            f_r_age <= f_r_age + 8'd1;
        end
        if (adv) begin
            f_l1_age <= issue_hole ? f_s_age + 8'd1 : f_r_age + 8'd1;
            f_l2_age <= f_l1_age + 8'd1;
        end else if (!frozen) begin
            f_l1_age <= f_l1_age + 8'd1;
            f_l2_age <= f_l2_age + 8'd1;
        end
    end
end

always @* begin
    f_pop = 32'd0;
    for (f_ri = 0; f_ri < SACK_BITS; f_ri = f_ri + 1) begin
        f_pop = f_pop + {31'd0, sc_mask_reg[f_ri]};
    end
    f_l1_rto = l1_valid_reg && l1_kind_reg == K_RTO;
    f_l2_rto = l2_valid_reg && l2_kind_reg == K_RTO;
    f_bt = {31'd0, f_l2_rto && to_valid_reg} + {31'd0, f_l1_rto && f_l2_rto};
    if (f_past_valid && !rst) begin
        // a hole in L2 is decided in its first unfrozen cycle there, at most SACK_BITS + 3
        // cycles after the first cycle S held it
        retx_resp_hole: assert (!(l2_valid_reg && l2_kind_reg == K_HOLE) ||
            ({24'd0, f_l2_age} <= F_KS + 32'd1 && (frozen || l2_done)));
        // a timeout of connection 0 in L2 is decided at most 3 * SACK_BITS + 5 cycles after
        // the first cycle its rto_pend was set (T drains in the cycle it stalls)
        retx_resp_rto: assert (!(f_l2_rto && l2_conn_reg == {CONN_W{1'b0}}) ||
            {24'd0, f_l2_age} + {31'd0, to_valid_reg} <= F_KR + 32'd3);
        // (strengthening) the ranking of S, L1 and a waiting timeout of connection 0
        retx_resp_s_h: assert (sc_mask_reg == {SACK_BITS{1'b0}} ||
            {24'd0, f_s_age} + f_pop + f_bt <= F_KS);
        retx_resp_l1_h: assert (!(l1_valid_reg && l1_kind_reg == K_HOLE) ||
            {24'd0, f_l1_age} + f_bt <= F_KS);
        retx_resp_pend_h: assert (!rto_pend_reg[0] ||
            {24'd0, f_r_age} + f_pop + F_SB1 * f_bt <= F_KR);
        retx_resp_l1_rto_h: assert (!(f_l1_rto && l1_conn_reg == {CONN_W{1'b0}}) ||
            {24'd0, f_l1_age} + {31'd0, f_l2_rto && to_valid_reg} + {31'd0, f_l2_rto} <=
            F_KR + 32'd2);
        // a hole decided in L2 (retransmitted), a timeout of connection 0 issued
        c_retx_resp_hole: cover (l2_send && l2_kind_reg == K_HOLE);
    end
end
`endif

endmodule

`resetall
