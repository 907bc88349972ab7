// SPDX-License-Identifier: Apache-2.0
/*
 * path_sel: TX path selector of the spraynic transport core.
 *
 * Answers one path request per cycle with the path (and its UDP source-port entropy) the next
 * packet of a connection goes on: window-weighted round robin over the paths with room in their
 * congestion window, ACTIVE before SUSPECT, a probe on a FAILED path whose hold-off has run out,
 * and a retransmission kept off the path that lost it when another one is usable. Feedback from the
 * retransmit engine (delivered, ECN-marked, lost, timed out) drives per-(connection, path) AIMD
 * windows, failure with a new entropy, hold-off, probe and recovery.
 *
 * Interfaces: s_req (path requests), m_sel (decisions), s_fb (feedback), s_ctl (reopen), rd_*
 * (status read of one (connection, path)), m_status_* (all paths of a connection failed: any, the
 * lowest, per connection), cnt_* (counters).
 *
 * Contract: docs/path_sel.md, cycle by cycle: ports, state and where the RTL keeps it (flip-flops,
 * distributed RAM, block RAM), pipeline, same-cycle order, critical paths. The Go golden model
 * golden/pathsel implements the same document and is compared with this module on every output port
 * in lockstep.
 */

`resetall
`timescale 1ns / 1ps
`default_nettype none

module path_sel #(
    // Number of connections; power of two, 2..1024.
    parameter CONNS = 16,
    // Paths per connection; power of two, 2..64.
    parameter PATHS = 8,
    // Clock cycles per timer tick; 2..65536, and >= CONNS.
    parameter TICK_CYCLES = 256,
    // Window of a path after open or reset, packets; 1..255, <= CWND_MAX.
    parameter CWND_INIT = 16,
    // Window cap, packets; 1..255.
    parameter CWND_MAX = 64,
    // Additive increase per delivered packet, 1/16 packet; 1..16.
    parameter AI_16THS = 2,
    // Consecutive losses/timeouts that fail a path; 1..15.
    parameter FAIL_K = 3,
    // Ticks a failed path waits before its probe; 1..255.
    parameter HOLDOFF_TICKS = 40
) (
    input  wire                         clk,
    input  wire                         rst,

    /*
     * Path request input
     */
    input  wire                         s_req_valid,
    output wire                         s_req_ready,
    input  wire [$clog2(CONNS)-1:0]     s_req_conn,
    input  wire                         s_req_retx,
    input  wire [$clog2(PATHS)-1:0]     s_req_avoid,

    /*
     * Decision output
     */
    output wire                         m_sel_valid,
    input  wire                         m_sel_ready,
    output wire [$clog2(CONNS)-1:0]     m_sel_conn,
    output wire [$clog2(PATHS)-1:0]     m_sel_path,
    output wire [15:0]                  m_sel_entropy,
    output wire                         m_sel_probe,

    /*
     * Feedback input (from the retransmit engine)
     */
    input  wire                         s_fb_valid,
    output wire                         s_fb_ready,
    input  wire [$clog2(CONNS)-1:0]     s_fb_conn,
    input  wire [$clog2(PATHS)-1:0]     s_fb_path,
    input  wire [1:0]                   s_fb_kind,
    input  wire [7:0]                   s_fb_count,

    /*
     * Connection control input
     */
    input  wire                         s_ctl_valid,
    output wire                         s_ctl_ready,
    input  wire [$clog2(CONNS)-1:0]     s_ctl_conn,

    /*
     * Status (registered)
     */
    input  wire [$clog2(CONNS)-1:0]     rd_conn,
    input  wire [$clog2(PATHS)-1:0]     rd_path,
    output wire [1:0]                   rd_state,
    output wire [11:0]                  rd_cwnd,
    output wire [7:0]                   rd_inflight,
    output wire [15:0]                  rd_entropy,
    output wire                         rd_all_failed,
    output wire [15:0]                  rd_decisions,
    output wire [15:0]                  rd_losses,
    output wire                         m_status_all_failed,
    output wire [$clog2(CONNS)-1:0]     m_status_conn,
    output wire [CONNS-1:0]             m_status_af,

    /*
     * Counters (wrap)
     */
    output wire [31:0]                  cnt_decisions,
    output wire [31:0]                  cnt_probes,
    output wire [31:0]                  cnt_failures,
    output wire [31:0]                  cnt_recoveries
`ifdef FORMAL
    ,
    // formal only: stage 1's request {valid, conn, retx}, read by the properties of nic_transport
    output wire [$clog2(CONNS)+1:0]     f_s1_req
`endif
);

// connection, path and flat path index widths; number of (connection, path) entries
localparam CONN_W = $clog2(CONNS);
localparam PATH_W = $clog2(PATHS);
localparam PIDX_W = CONN_W + PATH_W;
localparam NPATHS = CONNS * PATHS;
// tick counter width (TICK_CYCLES >= 2, so at least 1 bit)
localparam TICK_W = TICK_CYCLES > 1 ? $clog2(TICK_CYCLES) : 1;

// per-path field widths (docs: State)
localparam ST_W = 2;
localparam CW_W = 12;
localparam IF_W = 8;
localparam CS_W = 4;
localparam GD_W = 8;
localparam EN_W = 16;
// hold-off time stamp width: HOLDOFF_TICKS plus the ticks of one sweep (CONNS cycles) plus one fit
// below 2^TS_W, so the elapsed ticks of a FAILED path are exact until the cycle after the sweeper
// has seen its hold-off over (docs/path_sel.md "In flight and hold-off out of flip-flops")
localparam SWEEP_TICKS = (CONNS + TICK_CYCLES - 1) / TICK_CYCLES;
localparam TS_W = $clog2(HOLDOFF_TICKS + SWEEP_TICKS + 2);
// rec_mem word: {consec, guard, entropy}
localparam RC_W = CS_W + GD_W + EN_W;
// per-connection round-robin credit width (docs: State)
localparam CR_W = 8;

// path states
localparam [ST_W-1:0] ST_ACTIVE = 2'd0;
localparam [ST_W-1:0] ST_SUSPECT = 2'd1;
localparam [ST_W-1:0] ST_FAILED = 2'd2;
localparam [ST_W-1:0] ST_PROBING = 2'd3;

// feedback kinds
localparam [1:0] FB_DELIVERED = 2'd0;
localparam [1:0] FB_ECN = 2'd1;

// sized constants: last tick counter value, initial window and window cap (8.4), additive increase,
// failure threshold, hold-off, LFSR seed and taps, ECN window floor (one packet)
localparam [31:0] TICK_LAST_32 = TICK_CYCLES - 1;
localparam [31:0] CWND_INIT_32 = CWND_INIT * 16;
localparam [31:0] CWND_CAP_32 = CWND_MAX * 16;
localparam [31:0] AI_32 = AI_16THS;
localparam [31:0] FAIL_K_32 = FAIL_K;
localparam [31:0] HOLDOFF_32 = HOLDOFF_TICKS;
localparam [TICK_W-1:0] TICK_LAST = TICK_LAST_32[TICK_W-1:0];
localparam [CW_W-1:0] CWND_OPEN = CWND_INIT_32[CW_W-1:0];
localparam [CW_W-1:0] CWND_CAP = CWND_CAP_32[CW_W-1:0];
localparam [4:0] AI = AI_32[4:0];
localparam [CS_W-1:0] FAIL_THR = FAIL_K_32[CS_W-1:0];
localparam [TS_W-1:0] HOLDOFF = HOLDOFF_32[TS_W-1:0];
localparam [15:0] LFSR_SEED = 16'hACE1;
localparam [15:0] LFSR_TAPS = 16'hB400;
localparam [CW_W-1:0] CWND_FLOOR = 12'd16;
localparam [31:0] ONE = 1;

initial begin
    if (CONNS < 2 || CONNS > 1024 || (CONNS & (CONNS - 1)) != 0) begin
        $error("Error: CONNS = %0d (allowed: power of two, 2..1024) (instance %m)", CONNS);
        $finish;
    end
    if (PATHS < 2 || PATHS > 64 || (PATHS & (PATHS - 1)) != 0) begin
        $error("Error: PATHS = %0d (allowed: power of two, 2..64) (instance %m)", PATHS);
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
    if (CWND_INIT < 1 || CWND_INIT > 255) begin
        $error("Error: CWND_INIT = %0d (allowed: 1..255) (instance %m)", CWND_INIT);
        $finish;
    end
    if (CWND_MAX < 1 || CWND_MAX > 255) begin
        $error("Error: CWND_MAX = %0d (allowed: 1..255) (instance %m)", CWND_MAX);
        $finish;
    end
    if (CWND_INIT > CWND_MAX) begin
        $error("Error: CWND_INIT = %0d above CWND_MAX = %0d (allowed: %0s) (instance %m)",
            CWND_INIT, CWND_MAX, "CWND_INIT <= CWND_MAX");
        $finish;
    end
    if (AI_16THS < 1 || AI_16THS > 16) begin
        $error("Error: AI_16THS = %0d (allowed: 1..16) (instance %m)", AI_16THS);
        $finish;
    end
    if (FAIL_K < 1 || FAIL_K > 15) begin
        $error("Error: FAIL_K = %0d (allowed: 1..15) (instance %m)", FAIL_K);
        $finish;
    end
    if (HOLDOFF_TICKS < 1 || HOLDOFF_TICKS > 255) begin
        $error("Error: HOLDOFF_TICKS = %0d (allowed: 1..255) (instance %m)", HOLDOFF_TICKS);
        $finish;
    end
end

// E0(c, p) = 16'hC000 | (((c*PATHS + p) * 997) mod 2^14), of idx = {c, p}; only bits 13:0 of idx
// matter, since the product mod 2^14 only depends on the operands mod 2^14. Shifts and adds
// (997 = 1024 - 32 + 4 + 1), so the address-dependent uses (the fresh reads) need no multiplier.
function [EN_W-1:0] entropy_open;
    input [PIDX_W-1:0] idx;
    reg [PIDX_W+13:0] wide;
    reg [13:0] prod;
    begin
        wide = {{14{1'b0}}, idx};
        prod = (wide[13:0] << 10) - (wide[13:0] << 5) + (wide[13:0] << 2) + wide[13:0];
        entropy_open = {2'b11, prod};
    end
endfunction

// loop indices: i and q in the always @*, j in the clocked block, k in the initial block
integer i;
integer q;
integer j;
integer k;

/*
 * State
 */

// per (connection, path), flattened, entry {c, p} at [{c, p}*W +: W]; power-up values (the open
// state) are set by the loop in the initial block below
reg [NPATHS*ST_W-1:0]           state_reg, state_next;
// inflight has two writers per cycle (the feedback's target and the decision's chosen path, on any
// lanes), so it is kept in two sets of lanes, each with one writer: fb_lane (beside cwnd, the
// feedback's result) and fire_lane (the fire's increment), CONNS words per path, and a live-value
// bit per (c, p) says which holds the current value: 1 = fire_lane, 0 = fb_lane (read as 0 while
// rec_fresh is set). A fire sets it, a feedback alone clears it, reset and control clear it (with
// rec_fresh set, inflight reads 0).
reg [NPATHS-1:0]                if_lv_reg, if_lv_next;
// per (connection, path), entry {c, p}: cwnd, consec, guard and entropy, written only by the
// feedback, in distributed RAM (asynchronous read, one write per cycle each: the feedback's result,
// every feedback handshake). cwnd is one memory per path ("lane", CONNS words, generate block
// fb_lane below), since the decision reads every path of s1_conn at once; the others are one
// memory, rec_mem, word {consec, guard, entropy}, read by the feedback (its entropy also by the
// fire and rd_*; one memory, not three: yosys 0.23 cannot map a single-port LUTRAM deeper than 256
// words on UltraScale, docs/fpga.md). A fresh bit per entry makes all four read as the open state
// (CWND_INIT<<4, 0, 0, E0(c, p)); reset and control set it, a feedback write clears it (set wins),
// so neither writes the RAM. The contents are not toggle points (docs/coverage.md); what enters and
// leaves them is.
/*verilator coverage_off*/
reg [RC_W-1:0]                  rec_mem [0:NPATHS-1];
/*verilator coverage_on*/
reg [NPATHS-1:0]                rec_fresh_reg, rec_fresh_next;
// hold-off as a time stamp: a fail writes the tick count the path's hold-off starts at into its
// lane (generate block ho_lane below, CONNS words per path, asynchronous read); the hold-off of a
// FAILED path is over when tick count - stamp >= HOLDOFF_TICKS, or when its ho_over bit is set. The
// sweeper visits one connection per cycle and sets the bit of every path whose hold-off it sees
// over, before the TS_W-bit difference can wrap; a fail clears it (clear wins). Outside FAILED
// neither is used, so reset and control write neither.
reg [NPATHS-1:0]                ho_over_reg, ho_over_next;
// hold-off lane outputs, entry p at [p*TS_W +: TS_W]: word s_req_conn and s1_conn (the decision's
// next connection: a new request or the one held), sweep_conn (the sweeper)
wire [PATHS*TS_W-1:0]           ho_rq;
wire [PATHS*TS_W-1:0]           ho_s1;
wire [PATHS*TS_W-1:0]           ho_sw;
// per path of s1_conn: hold-off over, computed in the previous cycle for the connection S1 holds
// now (the request taken then, or the one held), from that cycle's end state, so the decision does
// not compare
reg [PATHS-1:0]                 c_ho_over_reg = {PATHS{1'b0}}, c_ho_over_next;
// cwnd lane outputs, entry p at [p*CW_W +: CW_W]: word s1_conn (the decision), s_fb_conn (the
// feedback), rd_conn
wire [PATHS*CW_W-1:0]           cw_s1;
wire [PATHS*CW_W-1:0]           cw_fb;
wire [PATHS*CW_W-1:0]           cw_rd;
// inflight lane outputs, entry p at [p*IF_W +: IF_W], of fb_lane (ifb_*) and fire_lane (ifs_*):
// word s1_conn, s_fb_conn, rd_conn
wire [PATHS*IF_W-1:0]           ifb_s1;
wire [PATHS*IF_W-1:0]           ifb_fb;
wire [PATHS*IF_W-1:0]           ifb_rd;
wire [PATHS*IF_W-1:0]           ifs_s1;
wire [PATHS*IF_W-1:0]           ifs_fb;
wire [PATHS*IF_W-1:0]           ifs_rd;
// per-path counters (16 bits, wrapping) in block RAM: decisions on the path (dec) and lost or
// timed-out packets reported for it (loss). Fresh bit per (connection, path) and counter: the word
// reads as 0 (set by reset and control, cleared by the word's write; set wins)
reg [NPATHS-1:0]                dec_fresh_reg, dec_fresh_next;
reg [NPATHS-1:0]                loss_fresh_reg, loss_fresh_next;
// per (connection, path): room = inflight < cwnd_int, kept beside the two fields and written with
// them, so the decision does not compare; always equal to the compare of the fields
reg [NPATHS-1:0]                room_reg, room_next;
// per connection: round-robin pointer, entry c at [c*PATH_W +: PATH_W], and credit (decisions made
// in a row on the path at rr), entry c at [c*CR_W +: CR_W]
reg [CONNS*PATH_W-1:0]          rr_reg, rr_next;
reg [CONNS*CR_W-1:0]            cred_reg, cred_next;

initial begin
    for (k = 0; k < NPATHS; k = k + 1) begin
        state_reg[k*ST_W +: ST_W] = ST_ACTIVE;
        if_lv_reg[k] = 1'b0;
        rec_fresh_reg[k] = 1'b1;
        ho_over_reg[k] = 1'b0;
        dec_fresh_reg[k] = 1'b1;
        loss_fresh_reg[k] = 1'b1;
        room_reg[k] = 1'b1;
    end
    for (k = 0; k < CONNS; k = k + 1) begin
        rr_reg[k*PATH_W +: PATH_W] = {PATH_W{1'b0}};
        cred_reg[k*CR_W +: CR_W] = {CR_W{1'b0}};
    end
end

// global
reg [15:0]                      lfsr_reg = LFSR_SEED, lfsr_next;
reg [TICK_W-1:0]                tick_cnt_reg = {TICK_W{1'b0}}, tick_cnt_next;
// ticks so far (wrapping): the hold-off time base; connection the sweeper visits in this cycle
reg [TS_W-1:0]                  ticks_reg = {TS_W{1'b0}}, ticks_next;
reg [CONN_W-1:0]                sweep_conn_reg = {CONN_W{1'b0}}, sweep_conn_next;

// stage 1: the request taken in a previous cycle, waiting for its decision
reg                             s1_valid_reg = 1'b0, s1_valid_next;
reg [CONN_W-1:0]                s1_conn_reg = {CONN_W{1'b0}}, s1_conn_next;
reg                             s1_retx_reg = 1'b0, s1_retx_next;
reg [PATH_W-1:0]                s1_avoid_reg = {PATH_W{1'b0}}, s1_avoid_next;
reg                             s1_aged_reg = 1'b0, s1_aged_next;

// decision output
reg                             m_sel_valid_reg = 1'b0, m_sel_valid_next;
reg [CONN_W-1:0]                m_sel_conn_reg = {CONN_W{1'b0}}, m_sel_conn_next;
reg [PATH_W-1:0]                m_sel_path_reg = {PATH_W{1'b0}}, m_sel_path_next;
reg [EN_W-1:0]                  m_sel_entropy_reg = {EN_W{1'b0}}, m_sel_entropy_next;
reg                             m_sel_probe_reg = 1'b0, m_sel_probe_next;

// status
reg [ST_W-1:0]                  rd_state_reg = {ST_W{1'b0}}, rd_state_next;
reg [CW_W-1:0]                  rd_cwnd_reg = {CW_W{1'b0}}, rd_cwnd_next;
reg [IF_W-1:0]                  rd_inflight_reg = {IF_W{1'b0}}, rd_inflight_next;
reg [EN_W-1:0]                  rd_entropy_reg = {EN_W{1'b0}}, rd_entropy_next;
reg                             rd_all_failed_reg = 1'b0, rd_all_failed_next;
// rd_decisions / rd_losses: the word written in the read cycle had the same address (then its
// data), or the word was fresh; else the copy RAM's read data
reg                             rd_dec_fwd_reg = 1'b0, rd_dec_fwd_next;
reg [15:0]                      rd_dec_fwd_data_reg = 16'd0, rd_dec_fwd_data_next;
reg                             rd_dec_fresh_reg = 1'b1, rd_dec_fresh_next;
reg                             rd_loss_fwd_reg = 1'b0, rd_loss_fwd_next;
reg [15:0]                      rd_loss_fwd_data_reg = 16'd0, rd_loss_fwd_data_next;
reg                             rd_loss_fresh_reg = 1'b1, rd_loss_fresh_next;
reg                             m_status_all_failed_reg = 1'b0, m_status_all_failed_next;
reg [CONN_W-1:0]                m_status_conn_reg = {CONN_W{1'b0}}, m_status_conn_next;
reg [CONNS-1:0]                 m_status_af_reg = {CONNS{1'b0}}, m_status_af_next;

// per-path counter read-modify-write: the increment whose word was read in the previous cycle and
// is written in this one (address, fire: +1, loss feedback: +count), and whether the word written
// in the read cycle had the same address (then its data is the base, not the RAM's read data)
reg                             dec_rmw_valid_reg = 1'b0, dec_rmw_valid_next;
reg [PIDX_W-1:0]                dec_rmw_addr_reg = {PIDX_W{1'b0}}, dec_rmw_addr_next;
reg                             dec_rmw_fwd_reg = 1'b0, dec_rmw_fwd_next;
reg [15:0]                      dec_rmw_fwd_data_reg = 16'd0, dec_rmw_fwd_data_next;
reg                             loss_rmw_valid_reg = 1'b0, loss_rmw_valid_next;
reg [PIDX_W-1:0]                loss_rmw_addr_reg = {PIDX_W{1'b0}}, loss_rmw_addr_next;
reg [7:0]                       loss_rmw_inc_reg = 8'd0, loss_rmw_inc_next;
reg                             loss_rmw_fwd_reg = 1'b0, loss_rmw_fwd_next;
reg [15:0]                      loss_rmw_fwd_data_reg = 16'd0, loss_rmw_fwd_data_next;

// counters
reg [31:0]                      cnt_decisions_reg = 32'd0, cnt_decisions_next;
reg [31:0]                      cnt_probes_reg = 32'd0, cnt_probes_next;
reg [31:0]                      cnt_failures_reg = 32'd0, cnt_failures_next;
reg [31:0]                      cnt_recoveries_reg = 32'd0, cnt_recoveries_next;

/*
 * Combinational signals (all assigned in the one always @* below)
 */

// input
reg                             s_req_ready_int;
reg                             s_fb_ready_int;
reg                             s_ctl_ready_int;
reg                             req_hs;
reg                             fb_hs;
reg                             ctl_hs;
reg                             tick;

// stage 1: fields of the paths of s1_conn
reg [PATHS*ST_W-1:0]            c_state;
reg [PATHS*CW_W-1:0]            c_cwnd;
reg [PATHS*IF_W-1:0]            c_inflight;
reg [PATHS-1:0]                 sw_ho_over;
reg [PATHS-1:0]                 rq_ho_over;
reg [PATHS-1:0]                 s1_ho_over;
reg [PIDX_W-1:0]                sidx;
reg [PATHS-1:0]                 c_room;
reg [PATH_W-1:0]                c_rr;
reg [CR_W-1:0]                  c_cred;
reg [ST_W-1:0]                  p_state;
reg [PATHS-1:0]                 act;
reg [PATHS-1:0]                 sus;
reg [PATHS-1:0]                 prb;
reg [PATHS-1:0]                 nfl;
reg [PATHS-1:0]                 guard_in;
reg [PATHS-1:0]                 usable;
reg [PATHS-1:0]                 avoid_mask;
reg [PATHS-1:0]                 pick_in;
reg [2*PATHS-1:0]               pick_dbl;
reg [2*PATHS-1:0]               pick_dbl_onehot;
reg [PATHS-1:0]                 pick_onehot;
reg                             sel_probe;
reg                             found;
reg [PATH_W-1:0]                sel_path;
reg                             s1_fire;
reg [IF_W-1:0]                  p_quantum;
reg [CR_W-1:0]                  cred_inc;
reg [PATHS-1:0]                 q_done;
reg                             sel_q_done;
reg [PATH_W-1:0]                rr_fire_next;
reg [CR_W-1:0]                  sel_n;
reg [PATH_W-1:0]                rr_fire;
reg [CR_W-1:0]                  cred_fire;
reg [PATHS*IF_W-1:0]            c_inflight_inc;
reg [PATHS*IF_W-1:0]            c_inflight_wr;
reg [IF_W-1:0]                  f_inflight_inc;
reg [PATHS-1:0]                 c_room_inc;
reg                             f_room_new;
reg                             f_room_inc;
reg                             fb_hit;
reg                             s1_hit;

// feedback: start-of-cycle fields of the target and its result
reg [PIDX_W-1:0]                fidx;
reg [ST_W-1:0]                  f_state;
reg [CW_W-1:0]                  f_cwnd;
reg [IF_W-1:0]                  f_inflight;
reg [CS_W-1:0]                  f_consec;
reg [GD_W-1:0]                  f_guard;
reg [EN_W-1:0]                  f_entropy;
reg                             f_nz;
reg [IF_W-1:0]                  f_inflight_sub;
reg [CW_W:0]                    f_ai;
reg [CW_W:0]                    f_cwnd_sum;
reg [CW_W-1:0]                  f_cwnd_half;
reg [8:0]                       f_consec_sum;
reg [CS_W-1:0]                  f_consec_sat;
reg                             f_fail;
reg                             f_recover;
reg [15:0]                      lfsr_step;
reg [EN_W-1:0]                  f_entropy_fail;
reg [ST_W-1:0]                  f_state_new;
reg [CW_W-1:0]                  f_cwnd_new;
reg [IF_W-1:0]                  f_inflight_new;
reg [CS_W-1:0]                  f_consec_new;
reg [GD_W-1:0]                  f_guard_new;
reg [EN_W-1:0]                  f_entropy_new;

// status
reg [CONNS-1:0]                 all_failed;
reg [PIDX_W-1:0]                ridx;

// per-path counters: RAM ports (the *_rd_data ones are the RAMs' output registers) and this cycle's
// write
reg [PIDX_W-1:0]                dec_rd_addr;
wire [15:0]                     dec_rd_data;
wire [15:0]                     dec_copy_rd_data;
reg                             dec_wr_en;
reg [15:0]                      dec_wr_data;
wire [15:0]                     loss_rd_data;
wire [15:0]                     loss_copy_rd_data;
reg                             loss_wr_en;
reg [15:0]                      loss_wr_data;

/*
 * Outputs
 */

assign s_req_ready = s_req_ready_int;
assign s_fb_ready = s_fb_ready_int;
assign s_ctl_ready = s_ctl_ready_int;

assign m_sel_valid = m_sel_valid_reg;
assign m_sel_conn = m_sel_conn_reg;
assign m_sel_path = m_sel_path_reg;
assign m_sel_entropy = m_sel_entropy_reg;
assign m_sel_probe = m_sel_probe_reg;

assign rd_state = rd_state_reg;
assign rd_cwnd = rd_cwnd_reg;
assign rd_inflight = rd_inflight_reg;
assign rd_entropy = rd_entropy_reg;
assign rd_all_failed = rd_all_failed_reg;
assign rd_decisions = rd_dec_fwd_reg ? rd_dec_fwd_data_reg :
                      rd_dec_fresh_reg ? 16'd0 : dec_copy_rd_data;
assign rd_losses = rd_loss_fwd_reg ? rd_loss_fwd_data_reg :
                   rd_loss_fresh_reg ? 16'd0 : loss_copy_rd_data;
assign m_status_all_failed = m_status_all_failed_reg;
assign m_status_conn = m_status_conn_reg;
assign m_status_af = m_status_af_reg;

assign cnt_decisions = cnt_decisions_reg;
assign cnt_probes = cnt_probes_reg;
assign cnt_failures = cnt_failures_reg;
assign cnt_recoveries = cnt_recoveries_reg;

/*
 * Per-path counters: one RAM per counter for the read-modify-write and a copy with the same writes
 * for the rd_* read, all CONNS x PATHS x 16 bits, address {c, p}
 */

ram_sdp #(
    .ADDR_WIDTH(PIDX_W),
    .DATA_WIDTH(16)
)
dec_ram_inst (
    .clk(clk),
    .wr_en(dec_wr_en),
    .wr_addr(dec_rmw_addr_reg),
    .wr_data(dec_wr_data),
    .rd_en(1'b1),
    .rd_addr(dec_rd_addr),
    .rd_data(dec_rd_data)
);

ram_sdp #(
    .ADDR_WIDTH(PIDX_W),
    .DATA_WIDTH(16)
)
dec_copy_ram_inst (
    .clk(clk),
    .wr_en(dec_wr_en),
    .wr_addr(dec_rmw_addr_reg),
    .wr_data(dec_wr_data),
    .rd_en(1'b1),
    .rd_addr(ridx),
    .rd_data(dec_copy_rd_data)
);

ram_sdp #(
    .ADDR_WIDTH(PIDX_W),
    .DATA_WIDTH(16)
)
loss_ram_inst (
    .clk(clk),
    .wr_en(loss_wr_en),
    .wr_addr(loss_rmw_addr_reg),
    .wr_data(loss_wr_data),
    .rd_en(1'b1),
    .rd_addr(fidx),
    .rd_data(loss_rd_data)
);

ram_sdp #(
    .ADDR_WIDTH(PIDX_W),
    .DATA_WIDTH(16)
)
loss_copy_ram_inst (
    .clk(clk),
    .wr_en(loss_wr_en),
    .wr_addr(loss_rmw_addr_reg),
    .wr_data(loss_wr_data),
    .rd_en(1'b1),
    .rd_addr(ridx),
    .rd_data(loss_copy_rd_data)
);

/*
 * cwnd lanes: lane p holds cwnd of (c, p) for every connection c, written by a feedback on path p
 */

genvar g;
generate
    for (g = 0; g < PATHS; g = g + 1) begin : fb_lane
        localparam [31:0] LANE_32 = g;
        /*verilator coverage_off*/
        reg [IF_W+CW_W-1:0] mem [0:CONNS-1];
        /*verilator coverage_on*/

        always @(posedge clk) begin
            if (fb_hs && s_fb_path == LANE_32[PATH_W-1:0]) begin
                mem[s_fb_conn] <= {f_inflight_new, f_cwnd_new};
            end
        end

        assign {ifb_s1[g*IF_W +: IF_W], cw_s1[g*CW_W +: CW_W]} = mem[s1_conn_reg];
        assign {ifb_fb[g*IF_W +: IF_W], cw_fb[g*CW_W +: CW_W]} = mem[s_fb_conn];
        assign {ifb_rd[g*IF_W +: IF_W], cw_rd[g*CW_W +: CW_W]} = mem[rd_conn];
    end
endgenerate

/*
 * fire lanes: lane p holds inflight of (c, p) after the last decision on it, written when a
 * decision fires on path p (on top of a feedback on the same path in that cycle)
 */

generate
    for (g = 0; g < PATHS; g = g + 1) begin : fire_lane
        /*verilator coverage_off*/
        reg [IF_W-1:0] mem [0:CONNS-1];
        /*verilator coverage_on*/

        always @(posedge clk) begin
            if (s1_fire && pick_onehot[g]) begin
                mem[s1_conn_reg] <= c_inflight_wr[g*IF_W +: IF_W];
            end
        end

        assign ifs_s1[g*IF_W +: IF_W] = mem[s1_conn_reg];
        assign ifs_fb[g*IF_W +: IF_W] = mem[s_fb_conn];
        assign ifs_rd[g*IF_W +: IF_W] = mem[rd_conn];
    end
endgenerate

/*
 * Hold-off lanes: lane p holds the hold-off start (the tick count after the fail's cycle) of (c, p)
 * for every connection c, written by a feedback that fails path p
 */

generate
    for (g = 0; g < PATHS; g = g + 1) begin : ho_lane
        localparam [31:0] LANE_32 = g;
        /*verilator coverage_off*/
        reg [TS_W-1:0] mem [0:CONNS-1];
        /*verilator coverage_on*/

        always @(posedge clk) begin
            if (fb_hs && f_fail && s_fb_path == LANE_32[PATH_W-1:0]) begin
                mem[s_fb_conn] <= ticks_next;
            end
        end

        assign ho_rq[g*TS_W +: TS_W] = mem[s_req_conn];
        assign ho_s1[g*TS_W +: TS_W] = mem[s1_conn_reg];
        assign ho_sw[g*TS_W +: TS_W] = mem[sweep_conn_reg];
    end
endgenerate

/*
 * Next state
 */

always @* begin
    state_next = state_reg;
    if_lv_next = if_lv_reg;
    rec_fresh_next = rec_fresh_reg;
    dec_fresh_next = dec_fresh_reg;
    loss_fresh_next = loss_fresh_reg;
    room_next = room_reg;
    ho_over_next = ho_over_reg;
    rr_next = rr_reg;
    cred_next = cred_reg;

    lfsr_next = lfsr_reg;
    tick_cnt_next = tick_cnt_reg;
    ticks_next = ticks_reg;

    s1_valid_next = s1_valid_reg;
    s1_conn_next = s1_conn_reg;
    s1_retx_next = s1_retx_reg;
    s1_avoid_next = s1_avoid_reg;
    s1_aged_next = s1_aged_reg;

    m_sel_valid_next = m_sel_valid_reg;
    m_sel_conn_next = m_sel_conn_reg;
    m_sel_path_next = m_sel_path_reg;
    m_sel_entropy_next = m_sel_entropy_reg;
    m_sel_probe_next = m_sel_probe_reg;

    rd_state_next = rd_state_reg;
    rd_cwnd_next = rd_cwnd_reg;
    rd_inflight_next = rd_inflight_reg;
    rd_entropy_next = rd_entropy_reg;
    rd_all_failed_next = rd_all_failed_reg;
    rd_dec_fwd_next = rd_dec_fwd_reg;
    rd_dec_fwd_data_next = rd_dec_fwd_data_reg;
    rd_dec_fresh_next = rd_dec_fresh_reg;
    rd_loss_fwd_next = rd_loss_fwd_reg;
    rd_loss_fwd_data_next = rd_loss_fwd_data_reg;
    rd_loss_fresh_next = rd_loss_fresh_reg;
    m_status_all_failed_next = m_status_all_failed_reg;
    m_status_conn_next = m_status_conn_reg;
    m_status_af_next = m_status_af_reg;

    cnt_decisions_next = cnt_decisions_reg;
    cnt_probes_next = cnt_probes_reg;
    cnt_failures_next = cnt_failures_reg;
    cnt_recoveries_next = cnt_recoveries_reg;

    /*
     * Timer: a tick cycle is one where the counter holds TICK_CYCLES-1.
     */
    tick = tick_cnt_reg == TICK_LAST;
    if (tick) begin
        tick_cnt_next = {TICK_W{1'b0}};
        ticks_next = ticks_reg + ONE[TS_W-1:0];
    end else begin
        tick_cnt_next = tick_cnt_reg + ONE[TICK_W-1:0];
    end
    // the sweeper: every connection once per CONNS cycles (CONNS is a power of two)
    sweep_conn_next = sweep_conn_reg + ONE[CONN_W-1:0];

    /*
     * Stage 1 decision, on the start-of-cycle state of the paths of s1_conn:
     *   room = inflight < cwnd_int; act = ACTIVE && room; sus = SUSPECT && room;
     *   prb = FAILED && hold-off over
     *   usable = act | sus, without the avoided path for a retransmission if that leaves any
     *   probe on prb (a retransmission only when nothing is usable), else act & usable,
     *   else sus & usable, else, once the request has waited through a tick (s1_aged), the
     *   starvation guard: any path that is not FAILED whatever its window (without the avoided one
     *   for a retransmission if that leaves any), or, when every path is FAILED, a probe on any of
     *   them;
     *   round robin from rr[c]; on fire rr[c]/cred[c] move by the window-weighted rule (below)
     */
    c_state = state_reg[s1_conn_reg*(PATHS*ST_W) +: PATHS*ST_W];
    for (i = 0; i < PATHS; i = i + 1) begin
        c_cwnd[i*CW_W +: CW_W] = rec_fresh_reg[s1_conn_reg*PATHS + i] ? CWND_OPEN :
            cw_s1[i*CW_W +: CW_W];
    end
    for (i = 0; i < PATHS; i = i + 1) begin
        if (if_lv_reg[s1_conn_reg*PATHS + i]) begin
            c_inflight[i*IF_W +: IF_W] = ifs_s1[i*IF_W +: IF_W];
        end else if (rec_fresh_reg[s1_conn_reg*PATHS + i]) begin
            c_inflight[i*IF_W +: IF_W] = {IF_W{1'b0}};
        end else begin
            c_inflight[i*IF_W +: IF_W] = ifb_s1[i*IF_W +: IF_W];
        end
    end
    c_room = room_reg[s1_conn_reg*PATHS +: PATHS];
    for (i = 0; i < PATHS; i = i + 1) begin
        sw_ho_over[i] = ticks_reg - ho_sw[i*TS_W +: TS_W] >= HOLDOFF;
    end
    c_rr = rr_reg[s1_conn_reg*PATH_W +: PATH_W];
    c_cred = cred_reg[s1_conn_reg*CR_W +: CR_W];

    for (i = 0; i < PATHS; i = i + 1) begin
        p_state = c_state[i*ST_W +: ST_W];
        act[i] = p_state == ST_ACTIVE && c_room[i];
        sus[i] = p_state == ST_SUSPECT && c_room[i];
        prb[i] = p_state == ST_FAILED && c_ho_over_reg[i];
        nfl[i] = p_state != ST_FAILED;
    end

    usable = act | sus;
    avoid_mask = ~({{PATHS-1{1'b0}}, 1'b1} << s1_avoid_reg);
    if (s1_retx_reg && (usable & avoid_mask) != {PATHS{1'b0}}) begin
        usable = usable & avoid_mask;
    end

    sel_probe = 1'b0;
    guard_in = {PATHS{1'b0}};
    if (prb != {PATHS{1'b0}} && (!s1_retx_reg || usable == {PATHS{1'b0}})) begin
        sel_probe = 1'b1;
        pick_in = prb;
    end else if ((act & usable) != {PATHS{1'b0}}) begin
        pick_in = act & usable;
    end else if ((sus & usable) != {PATHS{1'b0}}) begin
        pick_in = sus & usable;
    end else if (s1_aged_reg) begin
        guard_in = nfl;
        if (nfl == {PATHS{1'b0}}) begin
            sel_probe = 1'b1;
            guard_in = {PATHS{1'b1}};
        end
        if (s1_retx_reg && (guard_in & avoid_mask) != {PATHS{1'b0}}) begin
            guard_in = guard_in & avoid_mask;
        end
        pick_in = guard_in;
    end else begin
        pick_in = {PATHS{1'b0}};
    end
    found = pick_in != {PATHS{1'b0}};

    // rrpick: {m, m & mask(>= rr)} with its lowest set bit isolated, folded back to PATHS bits
    pick_dbl = {pick_in, pick_in & ({PATHS{1'b1}} << c_rr)};
    pick_dbl_onehot = pick_dbl & (-pick_dbl);
    pick_onehot = pick_dbl_onehot[PATHS-1:0] | pick_dbl_onehot[2*PATHS-1:PATHS];
    sel_path = {PATH_W{1'b0}};
    for (i = 0; i < PATHS; i = i + 1) begin
        if (pick_onehot[i]) begin
            sel_path = sel_path | i[PATH_W-1:0];
        end
    end
    sidx = {s1_conn_reg, sel_path};

    s1_fire = s1_valid_reg && found && (!m_sel_valid_reg || m_sel_ready);

    // window-weighted round robin: n = (path == rr) ? cred + 1 : 1 (saturating at 255),
    // quantum = max(1, cwnd_int(path) >> 2) from the start-of-cycle window; on fire, if probe or
    // n >= quantum: rr = path + 1, cred = 0; else rr = path, cred = n. The compare n >= quantum is
    // made for every path in parallel with the pick, and the one-hot selects its result (no
    // encode -> cwnd mux -> compare in series).
    if (c_cred == {CR_W{1'b1}}) begin
        cred_inc = {CR_W{1'b1}};
    end else begin
        cred_inc = c_cred + {{CR_W-1{1'b0}}, 1'b1};
    end
    sel_q_done = 1'b0;
    rr_fire_next = {PATH_W{1'b0}};
    for (i = 0; i < PATHS; i = i + 1) begin
        p_quantum = {2'b00, c_cwnd[i*CW_W + 6 +: IF_W-2]};
        if (p_quantum == {IF_W{1'b0}}) begin
            p_quantum = {{IF_W-1{1'b0}}, 1'b1};
        end
        if (c_rr == i[PATH_W-1:0]) begin
            q_done[i] = cred_inc >= p_quantum;
        end else begin
            q_done[i] = ONE[CR_W-1:0] >= p_quantum;
        end
        if (pick_onehot[i]) begin
            sel_q_done = sel_q_done | q_done[i];
            rr_fire_next = rr_fire_next | (i[PATH_W-1:0] + ONE[PATH_W-1:0]);
        end
    end
    sel_n = pick_onehot[c_rr] ? cred_inc : {{CR_W-1{1'b0}}, 1'b1};
    if (sel_probe || sel_q_done) begin
        rr_fire = rr_fire_next;
        cred_fire = {CR_W{1'b0}};
    end else begin
        rr_fire = sel_path;
        cred_fire = sel_n;
    end

    /*
     * Input handshakes
     */
    s_fb_ready_int = !rst;
    s_ctl_ready_int = !rst;
    s_req_ready_int = !rst && (!s1_valid_reg || s1_fire);
    req_hs = s_req_valid && s_req_ready_int;
    fb_hs = s_fb_valid && s_fb_ready_int;
    ctl_hs = s_ctl_valid && s_ctl_ready_int;

    if (req_hs) begin
        s1_valid_next = 1'b1;
        s1_conn_next = s_req_conn;
        s1_retx_next = s_req_retx;
        s1_avoid_next = s_req_avoid;
        s1_aged_next = 1'b0;
    end else if (s1_fire) begin
        s1_valid_next = 1'b0;
    end else if (s1_valid_reg && tick) begin
        s1_aged_next = 1'b1;
    end

    if (s1_fire) begin
        m_sel_valid_next = 1'b1;
        m_sel_conn_next = s1_conn_reg;
        m_sel_path_next = sel_path;
        m_sel_entropy_next = rec_fresh_reg[sidx] ? entropy_open(sidx) : rec_mem[sidx][EN_W-1:0];
        m_sel_probe_next = sel_probe;
        cnt_decisions_next = cnt_decisions_reg + 32'd1;
        if (sel_probe) begin
            cnt_probes_next = cnt_probes_reg + 32'd1;
        end
    end else if (m_sel_ready) begin
        m_sel_valid_next = 1'b0;
    end

    /*
     * Feedback on (s_fb_conn, s_fb_path), n = s_fb_count, from the start-of-cycle fields:
     *   delivered: inflight -= n, cwnd = min(cwnd + n*AI, CWND_MAX<<4), guard -= n (floors 0);
     *              n > 0: consec = 0, SUSPECT/PROBING -> ACTIVE (PROBING: a recovery)
     *   ECN:       n > 0 and guard == 0: guard = cwnd_int, cwnd = max(cwnd >> 1, 16)
     *   loss/tmo:  inflight -= n (floor 0); n > 0: ACTIVE/SUSPECT: consec = min(consec + n, 15),
     *              fail at FAIL_K else SUSPECT; PROBING: fail
     *   fail:      FAILED, inflight = 0, consec = 0, holdoff = HOLDOFF_TICKS (stamp = ticks_next),
     *              entropy from the stepped LFSR
     */
    fidx = {s_fb_conn, s_fb_path};
    f_state = state_reg[fidx*ST_W +: ST_W];
    f_cwnd = rec_fresh_reg[fidx] ? CWND_OPEN : cw_fb[s_fb_path*CW_W +: CW_W];
    if (if_lv_reg[fidx]) begin
        f_inflight = ifs_fb[s_fb_path*IF_W +: IF_W];
    end else if (rec_fresh_reg[fidx]) begin
        f_inflight = {IF_W{1'b0}};
    end else begin
        f_inflight = ifb_fb[s_fb_path*IF_W +: IF_W];
    end
    f_consec = rec_fresh_reg[fidx] ? {CS_W{1'b0}} : rec_mem[fidx][EN_W+GD_W +: CS_W];
    f_guard = rec_fresh_reg[fidx] ? {GD_W{1'b0}} : rec_mem[fidx][EN_W +: GD_W];
    f_entropy = rec_fresh_reg[fidx] ? entropy_open(fidx) : rec_mem[fidx][EN_W-1:0];

    f_nz = s_fb_count != 8'd0;
    if (f_inflight > s_fb_count) begin
        f_inflight_sub = f_inflight - s_fb_count;
    end else begin
        f_inflight_sub = {IF_W{1'b0}};
    end
    f_ai = {5'd0, s_fb_count} * {8'd0, AI};
    f_cwnd_sum = {1'b0, f_cwnd} + f_ai;
    f_cwnd_half = {1'b0, f_cwnd[CW_W-1:1]};
    f_consec_sum = {5'd0, f_consec} + {1'b0, s_fb_count};
    if (f_consec_sum > 9'd15) begin
        f_consec_sat = 4'd15;
    end else begin
        f_consec_sat = f_consec_sum[CS_W-1:0];
    end

    f_state_new = f_state;
    f_cwnd_new = f_cwnd;
    f_inflight_new = f_inflight;
    f_consec_new = f_consec;
    f_guard_new = f_guard;
    f_entropy_new = f_entropy;
    f_fail = 1'b0;
    f_recover = 1'b0;

    if (s_fb_kind == FB_DELIVERED) begin
        f_inflight_new = f_inflight_sub;
        if (f_cwnd_sum > {1'b0, CWND_CAP}) begin
            f_cwnd_new = CWND_CAP;
        end else begin
            f_cwnd_new = f_cwnd_sum[CW_W-1:0];
        end
        if (f_guard > s_fb_count) begin
            f_guard_new = f_guard - s_fb_count;
        end else begin
            f_guard_new = {GD_W{1'b0}};
        end
        if (f_nz) begin
            f_consec_new = {CS_W{1'b0}};
            if (f_state == ST_SUSPECT) begin
                f_state_new = ST_ACTIVE;
            end
            if (f_state == ST_PROBING) begin
                f_state_new = ST_ACTIVE;
                f_recover = 1'b1;
            end
        end
    end else if (s_fb_kind == FB_ECN) begin
        if (f_nz && f_guard == {GD_W{1'b0}}) begin
            f_guard_new = f_cwnd[CW_W-1:4];
            if (f_cwnd_half < CWND_FLOOR) begin
                f_cwnd_new = CWND_FLOOR;
            end else begin
                f_cwnd_new = f_cwnd_half;
            end
        end
    end else begin
        f_inflight_new = f_inflight_sub;
        if (f_nz) begin
            if (f_state == ST_ACTIVE || f_state == ST_SUSPECT) begin
                if (f_consec_sat >= FAIL_THR) begin
                    f_fail = 1'b1;
                end else begin
                    f_consec_new = f_consec_sat;
                    f_state_new = ST_SUSPECT;
                end
            end else if (f_state == ST_PROBING) begin
                f_fail = 1'b1;
            end
        end
    end

    // new entropy: one Galois step, then 16'hC000 | lfsr[13:0], bit 0 flipped if equal to the old
    // entropy
    lfsr_step = {1'b0, lfsr_reg[15:1]} ^ (lfsr_reg[0] ? LFSR_TAPS : 16'h0000);
    f_entropy_fail = {2'b11, lfsr_step[13:0]};
    if (f_entropy_fail == f_entropy) begin
        f_entropy_fail = f_entropy_fail ^ 16'h0001;
    end

    if (f_fail) begin
        f_state_new = ST_FAILED;
        f_inflight_new = {IF_W{1'b0}};
        f_consec_new = {CS_W{1'b0}};
        f_entropy_new = f_entropy_fail;
    end

    if (fb_hs && f_fail) begin
        lfsr_next = lfsr_step;
        cnt_failures_next = cnt_failures_reg + 32'd1;
    end
    if (fb_hs && f_recover) begin
        cnt_recoveries_next = cnt_recoveries_reg + 32'd1;
    end

    /*
     * Hold-off over, per path, at the start of the next cycle, of the connection S1 holds then: the
     * sweeper saw it before this cycle (ho_over), or ticks - stamp >= HOLDOFF_TICKS at the next
     * cycle's tick count (exact until the cycle after the sweeper sees it: TS_W); a fail in this
     * cycle restarts it (not over). Both candidates (a request taken in this cycle, the connection
     * held) are computed, and req_hs picks one.
     */
    for (i = 0; i < PATHS; i = i + 1) begin
        rq_ho_over[i] = !(fb_hs && f_fail && s_fb_conn == s_req_conn && s_fb_path == i[PATH_W-1:0])
            && (ho_over_reg[s_req_conn*PATHS + i]
                || ticks_next - ho_rq[i*TS_W +: TS_W] >= HOLDOFF);
        s1_ho_over[i] = !(fb_hs && f_fail && s_fb_conn == s1_conn_reg && s_fb_path == i[PATH_W-1:0])
            && (ho_over_reg[s1_conn_reg*PATHS + i]
                || ticks_next - ho_s1[i*TS_W +: TS_W] >= HOLDOFF);
    end
    c_ho_over_next = req_hs ? rq_ho_over : s1_ho_over;

    /*
     * Stage-1 update of the chosen path, on top of the feedback result of the same cycle:
     * inflight + 1 (saturating at 255), a probe turns a FAILED path PROBING. The increments are
     * computed for every path of s1_conn and for the feedback result, so the round-robin pick only
     * drives the write enables.
     */
    for (i = 0; i < PATHS; i = i + 1) begin
        if (c_inflight[i*IF_W +: IF_W] == {IF_W{1'b1}}) begin
            c_inflight_inc[i*IF_W +: IF_W] = {IF_W{1'b1}};
        end else begin
            c_inflight_inc[i*IF_W +: IF_W] = c_inflight[i*IF_W +: IF_W] + {{IF_W-1{1'b0}}, 1'b1};
        end
    end
    if (f_inflight_new == {IF_W{1'b1}}) begin
        f_inflight_inc = {IF_W{1'b1}};
    end else begin
        f_inflight_inc = f_inflight_new + {{IF_W-1{1'b0}}, 1'b1};
    end
    // room after each write of inflight/cwnd (the open state has room: CWND_INIT >= 1)
    for (i = 0; i < PATHS; i = i + 1) begin
        c_room_inc[i] = c_inflight_inc[i*IF_W +: IF_W] < c_cwnd[i*CW_W + 4 +: IF_W];
    end
    f_room_new = f_inflight_new < f_cwnd_new[CW_W-1:4];
    f_room_inc = f_inflight_inc < f_cwnd_new[CW_W-1:4];
    // the fire lanes' write data, per path of s1_conn: on top of a feedback on the same path in
    // this cycle
    for (i = 0; i < PATHS; i = i + 1) begin
        if (fb_hs && s_fb_conn == s1_conn_reg && s_fb_path == i[PATH_W-1:0]) begin
            c_inflight_wr[i*IF_W +: IF_W] = f_inflight_inc;
        end else begin
            c_inflight_wr[i*IF_W +: IF_W] = c_inflight_inc[i*IF_W +: IF_W];
        end
    end

    /*
     * Per-path counters in block RAM. This cycle writes the increment whose word was read in the
     * previous cycle, on top of the word written then if it had the same address, else 0 if the
     * word is fresh, else the RAM's read data; and it reads the words of this cycle's increments (a
     * fire: +1 on {s1_conn, path}; a loss or timeout feedback: +count on its target). An increment
     * is dropped when reset or a control of its connection is in its cycle (control overrides). The
     * fresh bits follow in the per-path loop below.
     */
    dec_wr_en = dec_rmw_valid_reg;
    if (dec_rmw_fwd_reg) begin
        dec_wr_data = dec_rmw_fwd_data_reg + 16'd1;
    end else if (dec_fresh_reg[dec_rmw_addr_reg]) begin
        dec_wr_data = 16'd1;
    end else begin
        dec_wr_data = dec_rd_data + 16'd1;
    end
    loss_wr_en = loss_rmw_valid_reg;
    if (loss_rmw_fwd_reg) begin
        loss_wr_data = loss_rmw_fwd_data_reg + {8'd0, loss_rmw_inc_reg};
    end else if (loss_fresh_reg[loss_rmw_addr_reg]) begin
        loss_wr_data = {8'd0, loss_rmw_inc_reg};
    end else begin
        loss_wr_data = loss_rd_data + {8'd0, loss_rmw_inc_reg};
    end

    dec_rd_addr = {s1_conn_reg, sel_path};
    dec_rmw_valid_next = s1_fire && !rst && !(ctl_hs && s_ctl_conn == s1_conn_reg);
    dec_rmw_addr_next = dec_rd_addr;
    dec_rmw_fwd_next = dec_wr_en && dec_rmw_addr_reg == dec_rd_addr;
    dec_rmw_fwd_data_next = dec_wr_data;
    loss_rmw_valid_next = fb_hs && s_fb_kind[1] && !(ctl_hs && s_ctl_conn == s_fb_conn);
    loss_rmw_addr_next = fidx;
    loss_rmw_inc_next = s_fb_count;
    loss_rmw_fwd_next = loss_wr_en && loss_rmw_addr_reg == fidx;
    loss_rmw_fwd_data_next = loss_wr_data;

    /*
     * Per path, in order: sweeper, feedback, stage 1, control.
     */
    for (i = 0; i < NPATHS; i = i + 1) begin
        if (sweep_conn_reg == i[PIDX_W-1:PATH_W] && sw_ho_over[i % PATHS]) begin
            ho_over_next[i] = 1'b1;
        end
        fb_hit = fb_hs && fidx == i[PIDX_W-1:0];
        s1_hit = s1_fire && s1_conn_reg == i[PIDX_W-1:PATH_W] && pick_onehot[i % PATHS];
        if (fb_hit) begin
            state_next[i*ST_W +: ST_W] = f_state_new;
            if_lv_next[i] = 1'b0;
            rec_fresh_next[i] = 1'b0;
            room_next[i] = f_room_new;
            if (f_fail) begin
                ho_over_next[i] = 1'b0;
            end
        end
        if (dec_wr_en && dec_rmw_addr_reg == i[PIDX_W-1:0]) begin
            dec_fresh_next[i] = 1'b0;
        end
        if (loss_wr_en && loss_rmw_addr_reg == i[PIDX_W-1:0]) begin
            loss_fresh_next[i] = 1'b0;
        end
        if (s1_hit && fb_hit) begin
            if_lv_next[i] = 1'b1;
            room_next[i] = f_room_inc;
            if (sel_probe && f_state_new == ST_FAILED) begin
                state_next[i*ST_W +: ST_W] = ST_PROBING;
            end
        end else if (s1_hit) begin
            if_lv_next[i] = 1'b1;
            room_next[i] = c_room_inc[i % PATHS];
            if (sel_probe && c_state[(i % PATHS)*ST_W +: ST_W] == ST_FAILED) begin
                state_next[i*ST_W +: ST_W] = ST_PROBING;
            end
        end
        if (ctl_hs && s_ctl_conn == i[PIDX_W-1:PATH_W]) begin
            state_next[i*ST_W +: ST_W] = ST_ACTIVE;
            if_lv_next[i] = 1'b0;
            rec_fresh_next[i] = 1'b1;
            dec_fresh_next[i] = 1'b1;
            loss_fresh_next[i] = 1'b1;
            room_next[i] = 1'b1;
        end
    end

    for (i = 0; i < CONNS; i = i + 1) begin
        if (s1_fire && s1_conn_reg == i[CONN_W-1:0]) begin
            rr_next[i*PATH_W +: PATH_W] = rr_fire;
            cred_next[i*CR_W +: CR_W] = cred_fire;
        end
        if (ctl_hs && s_ctl_conn == i[CONN_W-1:0]) begin
            rr_next[i*PATH_W +: PATH_W] = {PATH_W{1'b0}};
            cred_next[i*CR_W +: CR_W] = {CR_W{1'b0}};
        end
    end

    /*
     * Status, from the start-of-cycle state: all_failed(c) = every path of c FAILED or PROBING
     * (state[1]).
     */
    for (i = 0; i < CONNS; i = i + 1) begin
        all_failed[i] = 1'b1;
        for (q = 0; q < PATHS; q = q + 1) begin
            if (!state_reg[(i*PATHS + q)*ST_W + 1]) begin
                all_failed[i] = 1'b0;
            end
        end
    end
    m_status_all_failed_next = all_failed != {CONNS{1'b0}};
    m_status_af_next = all_failed;
    m_status_conn_next = {CONN_W{1'b0}};
    for (i = CONNS - 1; i >= 0; i = i - 1) begin
        if (all_failed[i]) begin
            m_status_conn_next = i[CONN_W-1:0];
        end
    end

    ridx = {rd_conn, rd_path};
    rd_state_next = state_reg[ridx*ST_W +: ST_W];
    rd_cwnd_next = rec_fresh_reg[ridx] ? CWND_OPEN : cw_rd[rd_path*CW_W +: CW_W];
    if (if_lv_reg[ridx]) begin
        rd_inflight_next = ifs_rd[rd_path*IF_W +: IF_W];
    end else if (rec_fresh_reg[ridx]) begin
        rd_inflight_next = {IF_W{1'b0}};
    end else begin
        rd_inflight_next = ifb_rd[rd_path*IF_W +: IF_W];
    end
    rd_entropy_next = rec_fresh_reg[ridx] ? entropy_open(ridx) : rec_mem[ridx][EN_W-1:0];
    rd_all_failed_next = all_failed[rd_conn];
    rd_dec_fwd_next = dec_wr_en && dec_rmw_addr_reg == ridx;
    rd_dec_fwd_data_next = dec_wr_data;
    rd_dec_fresh_next = dec_fresh_reg[ridx];
    rd_loss_fwd_next = loss_wr_en && loss_rmw_addr_reg == ridx;
    rd_loss_fwd_data_next = loss_wr_data;
    rd_loss_fresh_next = loss_fresh_reg[ridx];
end

always @(posedge clk) begin
    state_reg <= state_next;
    if_lv_reg <= if_lv_next;
    rec_fresh_reg <= rec_fresh_next;
    if (fb_hs) begin
        rec_mem[fidx] <= {f_consec_new, f_guard_new, f_entropy_new};
    end
    dec_fresh_reg <= dec_fresh_next;
    loss_fresh_reg <= loss_fresh_next;
    room_reg <= room_next;
    ho_over_reg <= ho_over_next;
    c_ho_over_reg <= c_ho_over_next;
    rr_reg <= rr_next;
    cred_reg <= cred_next;

    lfsr_reg <= lfsr_next;
    tick_cnt_reg <= tick_cnt_next;
    ticks_reg <= ticks_next;
    sweep_conn_reg <= sweep_conn_next;

    s1_valid_reg <= s1_valid_next;
    s1_conn_reg <= s1_conn_next;
    s1_retx_reg <= s1_retx_next;
    s1_avoid_reg <= s1_avoid_next;
    s1_aged_reg <= s1_aged_next;

    m_sel_valid_reg <= m_sel_valid_next;
    m_sel_conn_reg <= m_sel_conn_next;
    m_sel_path_reg <= m_sel_path_next;
    m_sel_entropy_reg <= m_sel_entropy_next;
    m_sel_probe_reg <= m_sel_probe_next;

    rd_state_reg <= rd_state_next;
    rd_cwnd_reg <= rd_cwnd_next;
    rd_inflight_reg <= rd_inflight_next;
    rd_entropy_reg <= rd_entropy_next;
    rd_all_failed_reg <= rd_all_failed_next;
    rd_dec_fwd_reg <= rd_dec_fwd_next;
    rd_dec_fwd_data_reg <= rd_dec_fwd_data_next;
    rd_dec_fresh_reg <= rd_dec_fresh_next;
    rd_loss_fwd_reg <= rd_loss_fwd_next;
    rd_loss_fwd_data_reg <= rd_loss_fwd_data_next;
    rd_loss_fresh_reg <= rd_loss_fresh_next;

    dec_rmw_valid_reg <= dec_rmw_valid_next;
    dec_rmw_addr_reg <= dec_rmw_addr_next;
    dec_rmw_fwd_reg <= dec_rmw_fwd_next;
    dec_rmw_fwd_data_reg <= dec_rmw_fwd_data_next;
    loss_rmw_valid_reg <= loss_rmw_valid_next;
    loss_rmw_addr_reg <= loss_rmw_addr_next;
    loss_rmw_inc_reg <= loss_rmw_inc_next;
    loss_rmw_fwd_reg <= loss_rmw_fwd_next;
    loss_rmw_fwd_data_reg <= loss_rmw_fwd_data_next;
    m_status_all_failed_reg <= m_status_all_failed_next;
    m_status_conn_reg <= m_status_conn_next;
    m_status_af_reg <= m_status_af_next;

    cnt_decisions_reg <= cnt_decisions_next;
    cnt_probes_reg <= cnt_probes_next;
    cnt_failures_reg <= cnt_failures_next;
    cnt_recoveries_reg <= cnt_recoveries_next;

    if (rst) begin
        for (j = 0; j < NPATHS; j = j + 1) begin
            state_reg[j*ST_W +: ST_W] <= ST_ACTIVE;
            if_lv_reg[j] <= 1'b0;
            rec_fresh_reg[j] <= 1'b1;
            dec_fresh_reg[j] <= 1'b1;
            loss_fresh_reg[j] <= 1'b1;
            room_reg[j] <= 1'b1;
        end
        for (j = 0; j < CONNS; j = j + 1) begin
            rr_reg[j*PATH_W +: PATH_W] <= {PATH_W{1'b0}};
            cred_reg[j*CR_W +: CR_W] <= {CR_W{1'b0}};
        end
        lfsr_reg <= LFSR_SEED;
        tick_cnt_reg <= {TICK_W{1'b0}};
        ticks_reg <= {TS_W{1'b0}};
        sweep_conn_reg <= {CONN_W{1'b0}};
        s1_valid_reg <= 1'b0;
        s1_aged_reg <= 1'b0;
        m_sel_valid_reg <= 1'b0;
        rd_state_reg <= {ST_W{1'b0}};
        rd_cwnd_reg <= {CW_W{1'b0}};
        rd_inflight_reg <= {IF_W{1'b0}};
        rd_entropy_reg <= {EN_W{1'b0}};
        rd_all_failed_reg <= 1'b0;
        rd_dec_fwd_reg <= 1'b0;
        rd_dec_fresh_reg <= 1'b1;
        rd_loss_fwd_reg <= 1'b0;
        rd_loss_fresh_reg <= 1'b1;
        dec_rmw_valid_reg <= 1'b0;
        loss_rmw_valid_reg <= 1'b0;
        m_status_all_failed_reg <= 1'b0;
        m_status_conn_reg <= {CONN_W{1'b0}};
        m_status_af_reg <= {CONNS{1'b0}};
        cnt_decisions_reg <= 32'd0;
        cnt_probes_reg <= 32'd0;
        cnt_failures_reg <= 32'd0;
        cnt_recoveries_reg <= 32'd0;
    end
end

`ifdef FORMAL
assign f_s1_req = {s1_valid_reg, s1_conn_reg, s1_retx_reg};

/*
 * Properties (docs/formal.md). Set path_sel (k-induction): reference fields (f_g_*) kept by the
 * contract (docs/path_sel.md) per (connection, path), inflight, consec and the hold-off
 * down-counter, and the RTL's fields read through the fresh bits, the live-value bit and the lanes
 * (f_*_eff), which must agree with them. Set path_sel_io (FORMAL_PS_IO, k-induction): the output
 * handshake, status registers and counters. Set path_sel_bmc (FORMAL_BMC, bounded): path_sel plus
 * the failure, heal, hold-off and decision rules.
 */
// the set: path_sel_bmc (FORMAL_BMC), or one of the split sets of its rules, each proved by
// k-induction with only the helpers it needs: path_sel_fail (FORMAL_PS_FAIL: failure, heal, probe
// flag and move), path_sel_hold (FORMAL_PS_HOLD: hold-off), path_sel_pick (FORMAL_PS_PICK: room
// and avoid on the RTL's inflight f_if_eff, with ps_room_h and ps_cwnd_range; ps_inflight of the
// path_sel set makes f_if_eff the reference f_g_if, which path_sel_bmc states them with)
`ifdef FORMAL_BMC
localparam F_BMC = 1'b1;
`else
localparam F_BMC = 1'b0;
`endif
`ifdef FORMAL_PS_FAIL
localparam F_FAIL = 1'b1;
`else
localparam F_FAIL = 1'b0;
`endif
`ifdef FORMAL_PS_HOLD
localparam F_HOLD = 1'b1;
`else
localparam F_HOLD = 1'b0;
`endif
`ifdef FORMAL_PS_PICK
localparam F_PICK = 1'b1;
`else
localparam F_PICK = 1'b0;
`endif
localparam F_SPLIT = F_FAIL || F_HOLD || F_PICK;
reg                     f_past_valid = 1'b0;
reg [NPATHS*IF_W-1:0]   f_g_if;
reg [NPATHS*CS_W-1:0]   f_g_cs;
reg [NPATHS*8-1:0]      f_g_ho;
reg [NPATHS*IF_W-1:0]   f_g_if_next;
reg [NPATHS*CS_W-1:0]   f_g_cs_next;
reg [NPATHS*8-1:0]      f_g_ho_next;
// the feedback's target by the contract: sum of losses (saturating) and whether it fails
reg [ST_W-1:0]          f_fb_st;
reg [8:0]               f_fb_sum;
reg [CS_W-1:0]          f_fb_sat;
reg                     f_fb_fail;
reg                     f_fb_recover;
// last cycle: reset, counters, events {recovery, failure, probe, decision}, status inputs
reg                     f_rst_prev = 1'b1;
reg [4*32-1:0]          f_cnt_prev;
reg [3:0]               f_ev_prev;
reg                     f_sel_hold_prev = 1'b0;
reg [CONN_W+PATH_W+EN_W:0] f_sel_prev;
reg [CONNS-1:0]         f_af_prev;
reg [CONN_W-1:0]        f_af_low_prev;
reg [PIDX_W-1:0]        f_ridx_prev;
reg [NPATHS*ST_W-1:0]   f_state_prev;
reg [NPATHS*IF_W-1:0]   f_if_prev;
reg [NPATHS*CW_W-1:0]   f_cw_prev;
// the inflight the room and avoid rules read: the RTL's (path_sel_pick), else the reference
wire [NPATHS*IF_W-1:0]  f_pk_if;
// per (c, p), entry {c, p}: the RTL's fields as the contract sees them, and the hold-off stamp
wire [NPATHS*CW_W-1:0]  f_cw_eff;
wire [NPATHS*IF_W-1:0]  f_if_eff;
wire [NPATHS*CS_W-1:0]  f_cs_eff;
wire [NPATHS*EN_W-1:0]  f_en_eff;
wire [NPATHS*TS_W-1:0]  f_stamp;
reg [CONNS-1:0]         f_af;
reg [CONN_W-1:0]        f_af_low;
reg [ST_W-1:0]          f_st;
reg [TS_W-1:0]          f_elapsed;
reg [7:0]               f_ho_left;
reg [PIDX_W-1:0]        f_e;
reg                     f_ok;
reg                     f_allf;
reg                     f_ps_cwnd_range;
reg                     f_ps_inflight;
reg                     f_ps_consec;
reg                     f_ps_entropy_form;
reg                     f_ps_room_h;
reg                     f_ps_consec_h;
reg                     f_ps_holdoff_h;
reg                     f_ps_holdoff_stamp_h;
reg                     f_ps_fail_after_k;
reg                     f_ps_fail_at_k;
reg                     f_ps_heal_probe;
reg                     f_ps_heal_delivered;
reg                     f_ps_ho_over_h;
reg                     f_ps_ho_seen_h;
reg                     f_ps_ho_set_h;
// the previous cycle's control handshake {conn, taken}; ps_ctl_open's verdict
reg [CONN_W:0]          f_ctl_prev = {CONN_W+1{1'b0}};
reg                     f_ps_ctl_open;
integer                 f_m;
reg                     f_ho_ended;
reg                     f_none_as;
reg [CONN_W-1:0]        f_sw_dist;
reg [31:0]              f_to_tick;
reg [ST_W-1:0]          f_af_st;
integer                 f_i;
integer                 f_j;
integer                 f_k;
integer                 f_l;

genvar f_gc;
genvar f_gp;
generate
    for (f_gc = 0; f_gc < CONNS; f_gc = f_gc + 1) begin : f_conn
        for (f_gp = 0; f_gp < PATHS; f_gp = f_gp + 1) begin : f_path
            localparam integer E = f_gc * PATHS + f_gp;
            localparam [31:0] E_32 = E;
            wire [IF_W+CW_W-1:0] fbw = fb_lane[f_gp].mem[f_gc];
            assign f_cw_eff[E*CW_W +: CW_W] = rec_fresh_reg[E] ? CWND_OPEN : fbw[CW_W-1:0];
            assign f_if_eff[E*IF_W +: IF_W] = if_lv_reg[E] ? fire_lane[f_gp].mem[f_gc] :
                rec_fresh_reg[E] ? {IF_W{1'b0}} : fbw[CW_W +: IF_W];
            assign f_cs_eff[E*CS_W +: CS_W] = rec_fresh_reg[E] ? {CS_W{1'b0}} :
                rec_mem[E][EN_W+GD_W +: CS_W];
            assign f_en_eff[E*EN_W +: EN_W] = rec_fresh_reg[E] ? entropy_open(E_32[PIDX_W-1:0]) :
                rec_mem[E][EN_W-1:0];
            assign f_stamp[E*TS_W +: TS_W] = ho_lane[f_gp].mem[f_gc];
        end
    end
endgenerate

assign f_pk_if = F_PICK ? f_if_eff : f_g_if;

always @* begin
    // contract (docs/path_sel.md, Ports): rst is a synchronous reset, high in the first cycle
    if (!f_past_valid) begin
        assume (rst);
    end
end

// the reference fields' next values, by the contract's order: tick, feedback, stage 1, control
always @* begin
    f_fb_st = state_reg[fidx*ST_W +: ST_W];
    f_fb_sum = {5'd0, f_g_cs[fidx*CS_W +: CS_W]} + {1'b0, s_fb_count};
    f_fb_sat = f_fb_sum > 9'd15 ? 4'd15 : f_fb_sum[CS_W-1:0];
    f_fb_fail = fb_hs && s_fb_kind[1] && s_fb_count != 8'd0 && (f_fb_st == ST_PROBING ||
        (f_fb_st[1] == 1'b0 && f_fb_sat >= FAIL_THR));
    f_fb_recover = fb_hs && s_fb_kind == FB_DELIVERED && s_fb_count != 8'd0 &&
        f_fb_st == ST_PROBING;
    f_g_if_next = f_g_if;
    f_g_cs_next = f_g_cs;
    f_g_ho_next = f_g_ho;
    for (f_k = 0; f_k < NPATHS; f_k = f_k + 1) begin
        if (tick && state_reg[f_k*ST_W +: ST_W] == ST_FAILED && f_g_ho[f_k*8 +: 8] != 8'd0) begin
            f_g_ho_next[f_k*8 +: 8] = f_g_ho[f_k*8 +: 8] - 8'd1;
        end
        if (fb_hs && fidx == f_k[PIDX_W-1:0]) begin
            if (s_fb_kind != FB_ECN) begin
                f_g_if_next[f_k*IF_W +: IF_W] = f_g_if[f_k*IF_W +: IF_W] > s_fb_count ?
                    f_g_if[f_k*IF_W +: IF_W] - s_fb_count : {IF_W{1'b0}};
            end
            if (s_fb_kind == FB_DELIVERED && s_fb_count != 8'd0) begin
                f_g_cs_next[f_k*CS_W +: CS_W] = {CS_W{1'b0}};
            end
            if (s_fb_kind[1] && s_fb_count != 8'd0 && f_fb_st[1] == 1'b0) begin
                f_g_cs_next[f_k*CS_W +: CS_W] = f_fb_sat;
            end
            if (f_fb_fail) begin
                f_g_if_next[f_k*IF_W +: IF_W] = {IF_W{1'b0}};
                f_g_cs_next[f_k*CS_W +: CS_W] = {CS_W{1'b0}};
                f_g_ho_next[f_k*8 +: 8] = HOLDOFF_TICKS;
            end
        end
        if (s1_fire && sidx == f_k[PIDX_W-1:0] &&
                f_g_if_next[f_k*IF_W +: IF_W] != {IF_W{1'b1}}) begin
            f_g_if_next[f_k*IF_W +: IF_W] = f_g_if_next[f_k*IF_W +: IF_W] + 8'd1;
        end
        if (rst || (ctl_hs && s_ctl_conn == f_k[PIDX_W-1:PATH_W])) begin
            f_g_if_next[f_k*IF_W +: IF_W] = {IF_W{1'b0}};
            f_g_cs_next[f_k*CS_W +: CS_W] = {CS_W{1'b0}};
            f_g_ho_next[f_k*8 +: 8] = 8'd0;
        end
    end
    // all_failed(c) by the contract: every path FAILED or PROBING; the lowest such c
    f_af_low = {CONN_W{1'b0}};
    for (f_k = CONNS - 1; f_k >= 0; f_k = f_k - 1) begin
        f_af[f_k] = 1'b1;
        for (f_l = 0; f_l < PATHS; f_l = f_l + 1) begin
            f_af_st = state_reg[(f_k*PATHS + f_l)*ST_W +: ST_W];
            if (f_af_st != ST_FAILED && f_af_st != ST_PROBING) begin
                f_af[f_k] = 1'b0;
            end
        end
        if (f_af[f_k]) begin
            f_af_low = f_k[CONN_W-1:0];
        end
    end
end

always @(posedge clk) begin
    f_past_valid <= 1'b1;
    f_g_if <= f_g_if_next;
    f_g_cs <= f_g_cs_next;
    f_g_ho <= f_g_ho_next;
    f_rst_prev <= rst;
    f_cnt_prev <= {cnt_recoveries_reg, cnt_failures_reg, cnt_probes_reg, cnt_decisions_reg};
    f_ev_prev <= {fb_hs && f_recover, fb_hs && f_fail, s1_fire && sel_probe, s1_fire};
    f_sel_hold_prev <= !rst && m_sel_valid_reg && !m_sel_ready;
    f_sel_prev <= {m_sel_conn_reg, m_sel_path_reg, m_sel_entropy_reg, m_sel_probe_reg};
    f_af_prev <= f_af;
    f_af_low_prev <= f_af_low;
    f_ridx_prev <= ridx;
    f_state_prev <= state_reg;
    f_if_prev <= f_if_eff;
    f_cw_prev <= f_cw_eff;
    f_ctl_prev <= {s_ctl_conn, ctl_hs};
end

// after a control of connection c every path of c is in the open state (docs/path_sel.md,
// Control and State): ACTIVE with room, cwnd CWND_INIT, entropy E0(c, p); rr and cred of c 0
// (inflight and consec 0: ps_inflight, ps_consec)
always @* begin
    f_ps_ctl_open = 1'b1;
    if (f_ctl_prev[0] && !f_rst_prev) begin
        for (f_m = 0; f_m < NPATHS; f_m = f_m + 1) begin
            if (f_m / PATHS == f_ctl_prev[CONN_W:1] && !(state_reg[f_m*ST_W +: ST_W] == ST_ACTIVE
                    && room_reg[f_m] && f_cw_eff[f_m*CW_W +: CW_W] == CWND_OPEN &&
                    f_en_eff[f_m*EN_W +: EN_W] == entropy_open(f_m[PIDX_W-1:0]))) begin
                f_ps_ctl_open = 1'b0;
            end
        end
        if (rr_reg[f_ctl_prev[CONN_W:1]*PATH_W +: PATH_W] != {PATH_W{1'b0}} ||
                cred_reg[f_ctl_prev[CONN_W:1]*CR_W +: CR_W] != {CR_W{1'b0}}) begin
            f_ps_ctl_open = 1'b0;
        end
    end
end

always @* begin
    if (f_past_valid && !rst) begin
        f_ps_cwnd_range = 1'b1;
        f_ps_inflight = 1'b1;
        f_ps_consec = 1'b1;
        f_ps_entropy_form = 1'b1;
        f_ps_room_h = 1'b1;
        f_ps_consec_h = 1'b1;
        f_ps_holdoff_h = 1'b1;
        f_ps_holdoff_stamp_h = 1'b1;
        f_ps_fail_after_k = 1'b1;
        f_ps_fail_at_k = 1'b1;
        f_ps_heal_probe = 1'b1;
        f_ps_heal_delivered = 1'b1;
        f_ps_ho_over_h = 1'b1;
        f_ps_ho_set_h = 1'b1;
        // cycles to the next tick cycle; the tick counter within its range
        f_to_tick = TICK_LAST_32 - {{32-TICK_W{1'b0}}, tick_cnt_reg};
        f_ps_ho_seen_h = tick_cnt_reg <= TICK_LAST;
        for (f_i = 0; f_i < NPATHS; f_i = f_i + 1) begin
            // window within [1 packet, CWND_MAX] (8.4); inflight, consec as the contract counts
            // them (inflight: decisions minus feedback, saturating at 0 and 255)
            if (!(f_cw_eff[f_i*CW_W +: CW_W] >= CWND_FLOOR &&
                f_cw_eff[f_i*CW_W +: CW_W] <= CWND_CAP)) begin
                f_ps_cwnd_range = 1'b0;
            end
            if (!(f_if_eff[f_i*IF_W +: IF_W] == f_g_if[f_i*IF_W +: IF_W])) begin
                f_ps_inflight = 1'b0;
            end
            if (!(f_cs_eff[f_i*CS_W +: CS_W] == f_g_cs[f_i*CS_W +: CS_W])) begin
                f_ps_consec = 1'b0;
            end
            if (!(f_en_eff[f_i*EN_W + 14 +: 2] == 2'b11)) begin
                f_ps_entropy_form = 1'b0;
            end
            // (helper) the room bit is the compare of the fields
            if (!(room_reg[f_i] == (f_if_eff[f_i*IF_W +: IF_W] <
                f_cw_eff[f_i*CW_W + 4 +: IF_W]))) begin
                f_ps_room_h = 1'b0;
            end
            // (helper) consec below FAIL_K, and 0 outside ACTIVE and SUSPECT
            f_st = state_reg[f_i*ST_W +: ST_W];
            if (!(f_g_cs[f_i*CS_W +: CS_W] < FAIL_THR &&
                (f_st[1] == 1'b0 || f_g_cs[f_i*CS_W +: CS_W] == {CS_W{1'b0}}))) begin
                f_ps_consec_h = 1'b0;
            end
            // (helper) a FAILED path whose hold-off runs: the stamp is HOLDOFF_TICKS - left
            // ticks back, and the sweeper has not marked it over
            f_elapsed = ticks_reg - f_stamp[f_i*TS_W +: TS_W];
            f_ho_left = f_g_ho[f_i*8 +: 8];
            if (f_st == ST_FAILED) begin
                if (!(f_ho_left <= HOLDOFF_TICKS)) begin
                    f_ps_holdoff_h = 1'b0;
                end
                if (f_ho_left != 8'd0) begin
                    if (!(!ho_over_reg[f_i] &&
                        {{8-TS_W{1'b0}}, f_elapsed} == HOLDOFF_TICKS - f_ho_left)) begin
                        f_ps_holdoff_stamp_h = 1'b0;
                    end
                end
                // (helper) one whose hold-off ended and the sweeper has not marked: the stamp is
                // HOLDOFF_TICKS back and the sweeper visits it by the next tick cycle (no wrap)
                if (f_ho_left == 8'd0 && !ho_over_reg[f_i]) begin
                    f_sw_dist = f_i[PIDX_W-1:PATH_W] - sweep_conn_reg;
                    if (!({{8-TS_W{1'b0}}, f_elapsed} == HOLDOFF_TICKS &&
                        {{32-CONN_W{1'b0}}, f_sw_dist} <= f_to_tick)) begin
                        f_ps_ho_seen_h = 1'b0;
                    end
                end
            end
            // a path becomes FAILED only by a fail: FAIL_K consecutive losses or a loss while
            // PROBING; FAIL_K consecutive losses always fail it (control overrides)
            if (f_st != ST_FAILED && state_next[f_i*ST_W +: ST_W] == ST_FAILED) begin
                if (!(f_fb_fail && fidx == f_i[PIDX_W-1:0])) begin
                    f_ps_fail_after_k = 1'b0;
                end
            end
            if (f_fb_fail && fidx == f_i[PIDX_W-1:0] &&
                    !(ctl_hs && s_ctl_conn == f_i[PIDX_W-1:PATH_W])) begin
                if (!(state_next[f_i*ST_W +: ST_W] == ST_FAILED)) begin
                    f_ps_fail_at_k = 1'b0;
                end
            end
            // a FAILED path leaves FAILED only by a probe (or control): after its hold-off, or by
            // the starvation guard when every path of the connection is FAILED
            if (f_st == ST_FAILED && state_next[f_i*ST_W +: ST_W] != ST_FAILED &&
                    !(ctl_hs && s_ctl_conn == f_i[PIDX_W-1:PATH_W])) begin
                if (!(s1_fire && sel_probe && sidx == f_i[PIDX_W-1:0] &&
                    state_next[f_i*ST_W +: ST_W] == ST_PROBING)) begin
                    f_ps_heal_probe = 1'b0;
                end
            end
            // PROBING returns to ACTIVE only on a delivery
            if (f_st == ST_PROBING && state_next[f_i*ST_W +: ST_W] == ST_ACTIVE &&
                    !(ctl_hs && s_ctl_conn == f_i[PIDX_W-1:PATH_W])) begin
                if (!(f_fb_recover && fidx == f_i[PIDX_W-1:0])) begin
                    f_ps_heal_delivered = 1'b0;
                end
            end
        end
        // (helper) the hold-off-over bits S1 reads: set only for a FAILED path whose hold-off is
        // over
        for (f_j = 0; f_j < PATHS; f_j = f_j + 1) begin
            f_e = {s1_conn_reg, f_j[PATH_W-1:0]};
            if (state_reg[f_e*ST_W +: ST_W] == ST_FAILED && c_ho_over_reg[f_j]) begin
                if (!(f_g_ho[f_e*8 +: 8] == 8'd0)) begin
                    f_ps_ho_over_h = 1'b0;
                end
            end
            // and set for every FAILED path whose hold-off ended
            if (state_reg[f_e*ST_W +: ST_W] == ST_FAILED && f_g_ho[f_e*8 +: 8] == 8'd0 &&
                    !c_ho_over_reg[f_j]) begin
                f_ps_ho_set_h = 1'b0;
            end
        end

`ifndef FORMAL_PS_IO
        // path_sel and path_sel_bmc: all; the split sets only the helpers their rules need (fail
        // and hold: consec, as the reference fail, hold-off and inflight follow the RTL's fail
        // only with it; pick: the room bit and the window range, as its rules read no reference
        // field)
        if (!F_PICK) begin
            ps_consec: assert (f_ps_consec);
            ps_consec_h: assert (f_ps_consec_h);
        end
        if (!F_SPLIT) begin
            ps_entropy_form: assert (f_ps_entropy_form);
            ps_inflight: assert (f_ps_inflight);
            ps_ctl_open: assert (f_ps_ctl_open);
        end
        if (!F_SPLIT || F_PICK) begin
            ps_cwnd_range: assert (f_ps_cwnd_range);
            ps_room_h: assert (f_ps_room_h);
        end
        if (F_BMC || F_HOLD) begin
            ps_holdoff_h: assert (f_ps_holdoff_h);
            ps_holdoff_stamp_h: assert (f_ps_holdoff_stamp_h);
            ps_ho_over_h: assert (f_ps_ho_over_h);
        end
        if (F_HOLD) begin
            ps_ho_seen_h: assert (f_ps_ho_seen_h);
            ps_ho_set_h: assert (f_ps_ho_set_h);
        end
        if (F_BMC || F_FAIL) begin
            ps_fail_after_k: assert (f_ps_fail_after_k);
            ps_fail_at_k: assert (f_ps_fail_at_k);
            ps_heal_probe: assert (f_ps_heal_probe);
            ps_heal_delivered: assert (f_ps_heal_delivered);
        end

        // decisions (start-of-cycle state of s1_conn)
        f_allf = 1'b1;
        f_ok = 1'b1;
        f_ho_ended = 1'b0;
        f_none_as = 1'b1;
        for (f_j = 0; f_j < PATHS; f_j = f_j + 1) begin
            f_e = {s1_conn_reg, f_j[PATH_W-1:0]};
            f_st = state_reg[f_e*ST_W +: ST_W];
            if (f_st != ST_FAILED) begin
                f_allf = 1'b0;
            end
            // a FAILED path whose hold-off ended; an ACTIVE or SUSPECT path (usable if it has room)
            if (f_st == ST_FAILED && f_g_ho[f_e*8 +: 8] == 8'd0) begin
                f_ho_ended = 1'b1;
            end
            if (f_st[1] == 1'b0) begin
                f_none_as = 1'b0;
            end
            // another path is usable (ACTIVE or SUSPECT with room)
            if (f_j[PATH_W-1:0] != s1_avoid_reg && f_st[1] == 1'b0 &&
                    f_pk_if[f_e*IF_W +: IF_W] < f_cw_eff[f_e*CW_W + 4 +: IF_W]) begin
                f_ok = 1'b0;
            end
        end
        f_st = state_reg[sidx*ST_W +: ST_W];
        // the other direction: a request with a FAILED path whose hold-off ended is a probe on
        // such a path when the output is free, unless it is a retransmission and a path of its
        // connection is ACTIVE or SUSPECT
        if (F_HOLD && s1_valid_reg && (!m_sel_valid_reg || m_sel_ready) && f_ho_ended &&
                (!s1_retx_reg || f_none_as)) begin
            ps_probe_after_holdoff: assert (s1_fire && sel_probe && f_st == ST_FAILED &&
                f_g_ho[sidx*8 +: 8] == 8'd0);
        end
        if (s1_fire) begin
            // a decision names a FAILED path exactly when it is a probe
            if (F_BMC || F_FAIL) begin
                ps_pick_probe: assert (sel_probe == (f_st == ST_FAILED));
            end
            // a probe moves its FAILED path to PROBING (unless a control of its connection)
            if (F_FAIL && sel_probe && !(ctl_hs && s_ctl_conn == s1_conn_reg)) begin
                ps_probe_moves: assert (state_next[sidx*ST_W +: ST_W] == ST_PROBING);
            end
            // a probe after the hold-off, or by the guard when every path is FAILED
            if ((F_BMC || F_HOLD) && sel_probe) begin
                ps_probe_holdoff: assert (f_g_ho[sidx*8 +: 8] == 8'd0 || (f_allf && s1_aged_reg));
            end
            // before the starvation guard: ACTIVE or SUSPECT with room in its window
            if ((F_BMC || F_PICK) && !sel_probe && !s1_aged_reg) begin
                ps_pick_room: assert (f_st[1] == 1'b0 &&
                    f_pk_if[sidx*IF_W +: IF_W] < f_cw_eff[sidx*CW_W + 4 +: IF_W]);
            end
            // a retransmission goes on the path that lost it only when no other is usable
            if ((F_BMC || F_PICK) && s1_retx_reg && !sel_probe && sel_path == s1_avoid_reg) begin
                ps_pick_avoid: assert (f_ok);
            end
        end
`else
        // decision output: held until taken, its fields stable
        if (f_sel_hold_prev) begin
            ps_sel_hold: assert (m_sel_valid_reg &&
                {m_sel_conn_reg, m_sel_path_reg, m_sel_entropy_reg, m_sel_probe_reg} == f_sel_prev);
        end
        if (!f_rst_prev) begin
            // status registers show the start of the previous cycle
            ps_status: assert (m_status_all_failed_reg == (f_af_prev != {CONNS{1'b0}}));
            ps_status_conn: assert (m_status_conn_reg == f_af_low_prev);
            ps_status_af: assert (m_status_af == f_af_prev);
            ps_status_any: assert (m_status_all_failed == |m_status_af);
            ps_rd_all_failed: assert (rd_all_failed_reg == f_af_prev[f_ridx_prev[PIDX_W-1:PATH_W]]);
            ps_rd_state: assert (rd_state_reg == f_state_prev[f_ridx_prev*ST_W +: ST_W]);
            ps_rd_inflight: assert (rd_inflight_reg == f_if_prev[f_ridx_prev*IF_W +: IF_W]);
            ps_rd_cwnd: assert (rd_cwnd_reg == f_cw_prev[f_ridx_prev*CW_W +: CW_W]);
            // counters: each moves by one on its event and by nothing otherwise
            ps_cnt_decisions: assert (cnt_decisions_reg == f_cnt_prev[0 +: 32] + f_ev_prev[0]);
            ps_cnt_probes: assert (cnt_probes_reg == f_cnt_prev[32 +: 32] + f_ev_prev[1]);
            ps_cnt_failures: assert (cnt_failures_reg == f_cnt_prev[64 +: 32] + f_ev_prev[2]);
            ps_cnt_recoveries: assert (cnt_recoveries_reg == f_cnt_prev[96 +: 32] + f_ev_prev[3]);
        end
`endif
    end
end

`ifdef FORMAL_PS_COVER
// Set path_sel_cover: the path_sel set's assertions (bounded) with the environment narrowed for
// its covers: no reset after the first cycle and no control (the reset opens every path), a
// request of connection 0 in every cycle, neither a retransmission nor back-pressure, feedback of
// connection 0 only, delivered or lost, of FAIL_K packets, status read of (0, 0). These
// assumptions only remove input sequences, so a cover reached here is reached in the path_sel
// set's environment (rst alone assumed); they bring the covers within the solver's reach.
localparam [7:0] F_COV_COUNT = FAIL_K_32[7:0];
// every path of s1_conn FAILED; and each with its hold-off running (reference down-counter)
reg                     f_cv_allf;
reg                     f_cv_run;
integer                 f_cv_j;

always @* begin
    if (f_past_valid) begin
        assume (!rst && !s_ctl_valid && m_sel_ready);
        assume (s_req_valid && s_req_conn == {CONN_W{1'b0}} && !s_req_retx &&
            s_req_avoid == {PATH_W{1'b0}});
        assume (s_fb_conn == {CONN_W{1'b0}} && s_fb_count == F_COV_COUNT &&
            (s_fb_kind == FB_DELIVERED || s_fb_kind == 2'd2));
        assume (rd_conn == {CONN_W{1'b0}} && rd_path == {PATH_W{1'b0}});
    end
end

always @* begin
    f_cv_allf = 1'b1;
    f_cv_run = 1'b1;
    for (f_cv_j = 0; f_cv_j < PATHS; f_cv_j = f_cv_j + 1) begin
        if (state_reg[{s1_conn_reg, f_cv_j[PATH_W-1:0]}*ST_W +: ST_W] != ST_FAILED) begin
            f_cv_allf = 1'b0;
        end
        if (f_g_ho[{s1_conn_reg, f_cv_j[PATH_W-1:0]}*8 +: 8] == 8'd0) begin
            f_cv_run = 1'b0;
        end
    end
end
`endif

// covers, per set: path_sel a failure, a decision that fills a window at CWND_MAX, every path of a
// connection failed; path_sel_io the status showing it, a decision held by back-pressure, a
// failure counted; path_sel_bmc a retransmission kept off the path that lost it; path_sel_pick
// and path_sel_cover (below)
always @* begin
    if (f_past_valid && !rst) begin
`ifndef FORMAL_PS_IO
`ifdef FORMAL_PS_FAIL
        // path_sel_fail: a fail by FAIL_K losses
        c_ps_fail: cover (f_fb_fail && f_fb_st != ST_PROBING);
`elsif FORMAL_PS_HOLD
        // path_sel_hold: the hold-off of a FAILED path counted down by a tick
        c_ps_holdoff_tick: cover (state_reg[0 +: ST_W] == ST_FAILED &&
            f_g_ho[0 +: 8] == HOLDOFF_TICKS - 1);
`elsif FORMAL_PS_COVER
        // path_sel_cover: a probe after the hold-off ended (the guard's case does not hold), a
        // heal (PROBING to ACTIVE by a delivery), a guard probe (every path FAILED, hold-offs
        // running, the request aged)
        c_ps_probe_after_holdoff: cover (s1_fire && sel_probe &&
            state_reg[sidx*ST_W +: ST_W] == ST_FAILED && f_g_ho[sidx*8 +: 8] == 8'd0 &&
            !(f_cv_allf && s1_aged_reg));
        c_ps_heal: cover (f_fb_recover && state_next[fidx*ST_W +: ST_W] == ST_ACTIVE);
        c_ps_guard_probe: cover (s1_fire && sel_probe && f_cv_allf && f_cv_run && s1_aged_reg);
`elsif FORMAL_PS_PICK
        // path_sel_pick: a retransmission kept off its avoided path (ACTIVE with room), one put
        // on it (no other path usable), a decision filling the window at CWND_MAX
        c_ps_retx_avoid: cover (s1_fire && s1_retx_reg && sel_path != s1_avoid_reg &&
            state_reg[{s1_conn_reg, s1_avoid_reg}*ST_W +: ST_W] == ST_ACTIVE &&
            room_reg[{s1_conn_reg, s1_avoid_reg}]);
        c_ps_retx_on_avoid: cover (s1_fire && s1_retx_reg && !sel_probe &&
            sel_path == s1_avoid_reg);
        c_ps_window_edge: cover (s1_fire && !sel_probe && f_cw_eff[sidx*CW_W +: CW_W] == CWND_CAP &&
            f_if_eff[sidx*IF_W +: IF_W] + 8'd1 == f_cw_eff[sidx*CW_W + 4 +: IF_W]);
`else
        c_ps_fail: cover (f_fb_fail && f_fb_st != ST_PROBING);
        c_ps_window_edge: cover (s1_fire && !sel_probe && f_cw_eff[sidx*CW_W +: CW_W] == CWND_CAP &&
            f_g_if[sidx*IF_W +: IF_W] + 8'd1 == f_cw_eff[sidx*CW_W + 4 +: IF_W]);
        c_ps_all_failed: cover (f_af != {CONNS{1'b0}});
`ifdef FORMAL_BMC
        c_ps_retx_avoid: cover (s1_fire && s1_retx_reg && sel_path != s1_avoid_reg &&
            state_reg[{s1_conn_reg, s1_avoid_reg}*ST_W +: ST_W] == ST_ACTIVE &&
            room_reg[{s1_conn_reg, s1_avoid_reg}]);
`endif
`endif
`else
        c_ps_status: cover (m_status_all_failed_reg);
        c_ps_sel_held: cover (f_sel_hold_prev && m_sel_valid_reg);
        c_ps_cnt_failures: cover (!f_rst_prev && f_ev_prev[2]);
`endif
    end
end
`endif

endmodule

`resetall
