// SPDX-License-Identifier: Apache-2.0
/*
 * roce_icrc: RoCEv2 invariant CRC (ICRC) engine over an Ethernet frame on AXI-Stream.
 *
 * Computes the IBTA ICRC of every frame that arrives on s_axis (one beat per cycle, tready always
 * high, frames back to back) and reports it with the ICRC the frame carries and whether the two
 * match. The frame starts with the Ethernet header in byte 0 of its first beat and ends with the
 * 4-byte ICRC (no Ethernet padding, no FCS); byte i of a beat is tdata[8*i+7:8*i].
 *
 * What the CRC covers (docs/protocol.md "ICRC", Go reference system/roce ICRC), frame offsets:
 *
 *   bytes          field                         in the CRC as
 *   -              LRH stand-in, 8 bytes         0xFF x 8 (folded into the start value)
 *   0..13          Ethernet header               not covered
 *   15             IPv4 TOS (DSCP, ECN)          0xFF
 *   22             IPv4 TTL                      0xFF
 *   24..25         IPv4 header checksum          0xFF 0xFF
 *   14+4*IHL+6..7  UDP checksum                  0xFF 0xFF
 *   14+4*IHL+12    BTH byte 4 (FECN, BECN, resv) 0xFF
 *   other bytes    up to the last 4 (the ICRC)   as received
 *
 * IHL (5..15) is read from frame byte 14, so the UDP and BTH fields move with IPv4 options.
 *
 * Technique: each beat is masked into a register, then runs through a parallel CRC over the whole
 * beat (an XOR matrix generated at elaboration by crc_matrix, each row an explicit tree of 6-input
 * XORs); every byte of the frame goes through it, ICRC bytes included, with the Ethernet bytes
 * forced to zero (the start value is chosen so that 14 zero bytes bring it to the state after the
 * 8 bytes of ones). The ragged last beat runs through the same step with its empty lanes as zero
 * bytes; a pipeline of 32 x 32 maps (crc_back_matrix) then steps the state back over
 * KEEP_WIDTH/2, ..., 4 zero bytes, each when its bit of the empty-byte count is set, and last over
 * 0..3 bytes. A last linear map (crc_undo_matrix) steps the CRC back over the 4 ICRC bytes; the
 * ICRC matches when the state after them equals the CRC-32 residue. With RX_ICRC 2 the verdict
 * alone: the state after the whole last beat against the residue run on over its empty lanes.
 *
 * Interfaces: s_axis (frames in), m_icrc_* (one result per frame, no backpressure): m_icrc_valid
 * is high log2(DATA_WIDTH/8)+2 cycles after the cycle of the frame's tlast transfer.
 *
 * Contract: docs/roce_rtl.md (ports, latency, throughput, masking, the tkeep rule, resources).
 */

`resetall
`timescale 1ns / 1ps
`default_nettype none

module roce_icrc #(
    // Width of the AXI-Stream data bus, bits; 64, 128, 256 or 512.
    parameter DATA_WIDTH = 64,
    // 1: the frame's last 4 bytes are the ICRC it carries (m_icrc_rx, m_icrc_ok report it); 2:
    // the same, the verdict alone (m_icrc_ok; m_icrc and m_icrc_rx are 0, and the logic that
    // computes them is left out); 0: they are zero, a builder's place for the ICRC it fills in
    // (m_icrc_rx and m_icrc_ok are 0, and the logic that reads the received bytes is left out).
    parameter RX_ICRC = 1
) (
    input  wire                         clk,
    input  wire                         rst,

    /*
     * Ethernet frame input (tkeep contiguous from byte 0; all ones except on the tlast beat)
     */
    input  wire [DATA_WIDTH-1:0]        s_axis_tdata,
    input  wire [DATA_WIDTH/8-1:0]      s_axis_tkeep,
    input  wire                         s_axis_tvalid,
    output wire                         s_axis_tready,
    input  wire                         s_axis_tlast,

    /*
     * ICRC result output (a one-cycle strobe per frame; values hold until the next one)
     */
    output wire                         m_icrc_valid,
    output wire [31:0]                  m_icrc,
    output wire [31:0]                  m_icrc_rx,
    output wire                         m_icrc_ok
);

// Byte lanes of a beat.
localparam KEEP_WIDTH = DATA_WIDTH / 8;
// Steps of the last-beat pipeline: log2(KEEP_WIDTH).
localparam KEEP_LOG = $clog2(KEEP_WIDTH);
// Reflected CRC-32 polynomial (IEEE 802.3, 0x04C11DB7 bit-reversed).
localparam [31:0] POLY = 32'hEDB88320;
// Width of a matrix row: 32 state bits then up to DATA_WIDTH data bits.
localparam MW = 32 + DATA_WIDTH;
// One past the last frame byte that may be masked: BTH byte 4 at IHL 15 is byte 14+60+8+4 = 86.
localparam HDR_END = 87;
// Beats that may hold masked bytes; the beat counter saturates there.
localparam HDR_BEATS = (HDR_END + KEEP_WIDTH - 1) / KEEP_WIDTH;
localparam BEAT_W = $clog2(HDR_BEATS + 1);
// Beat and lane of frame byte 14 (IPv4 version and IHL).
localparam IHL_BEAT = 14 / KEEP_WIDTH;
localparam IHL_LANE = 14 % KEEP_WIDTH;

// crc_matrix: the state after nbits data bits as a linear map. Row j ([j*MW +: MW]) has bit b set
// when output bit j depends on input state bit b (b < 32) or data bit b-32 (data bit i is
// tdata[i]: byte 0 first, least significant bit first, as a reflected CRC shifts).
function [32*MW-1:0] crc_matrix;
    input integer nbits;
    reg [32*MW-1:0] m;
    reg [MW-1:0] fb;
    integer i, j;
    begin
        for (j = 0; j < 32; j = j + 1) begin
            m[j*MW +: MW] = {MW{1'b0}};
            m[j*MW + j] = 1'b1;
        end
        for (i = 0; i < nbits; i = i + 1) begin
            fb = m[0 +: MW];
            fb[32 + i] = ~fb[32 + i];
            for (j = 0; j < 31; j = j + 1) begin
                m[j*MW +: MW] = m[(j+1)*MW +: MW] ^ (POLY[j] ? fb : {MW{1'b0}});
            end
            m[31*MW +: MW] = fb;
        end
        crc_matrix = m;
    end
endfunction

// crc_undo_matrix: the state before the last nbits data bits, from the state after them (row bits
// 0..31) and those data bits (row bits 32..63). Inverse of one step: the feedback bit is the new
// bit 31 (POLY bit 31 is set and the shift clears it).
function [32*64-1:0] crc_undo_matrix;
    input integer nbits;
    reg [32*64-1:0] m;
    reg [63:0] fb;
    integer i, j;
    begin
        m = {32*64{1'b0}};
        for (j = 0; j < 32; j = j + 1) begin
            m[j*64 + j] = 1'b1;
        end
        for (i = nbits - 1; i >= 0; i = i - 1) begin
            fb = m[31*64 +: 64];
            for (j = 31; j > 0; j = j - 1) begin
                m[j*64 +: 64] = m[(j-1)*64 +: 64] ^ (POLY[j-1] ? fb : 64'd0);
            end
            fb[32 + i] = ~fb[32 + i];
            m[0 +: 64] = fb;
        end
        crc_undo_matrix = m;
    end
endfunction

// crc_back_matrix: the state before nbits zero data bits, from the state after them: row j
// ([j*32 +: 32]) has bit b set when output bit j depends on state bit b. The steps of
// crc_undo_matrix without the data bits.
function [32*32-1:0] crc_back_matrix;
    input integer nbits;
    reg [32*32-1:0] m;
    reg [31:0] fb;
    integer i, j;
    begin
        m = {32*32{1'b0}};
        for (j = 0; j < 32; j = j + 1) begin
            m[j*32 + j] = 1'b1;
        end
        for (i = 0; i < nbits; i = i + 1) begin
            fb = m[31*32 +: 32];
            for (j = 31; j > 0; j = j - 1) begin
                m[j*32 +: 32] = m[(j-1)*32 +: 32] ^ (POLY[j-1] ? fb : 32'd0);
            end
            m[0 +: 32] = fb;
        end
        crc_back_matrix = m;
    end
endfunction

// crc_start: the state to start a frame in. ones_bytes of 0xFF from 0xFFFFFFFF, then skip_bytes
// zero bytes stepped backwards, so that the skip_bytes Ethernet bytes, forced to zero, lead back to
// the state after the ones.
function [31:0] crc_start;
    input integer ones_bytes;
    input integer skip_bytes;
    reg [31:0] s;
    integer i;
    begin
        s = 32'hFFFFFFFF;
        for (i = 0; i < 8*ones_bytes; i = i + 1) begin
            s = s[0] ? {1'b0, s[31:1]} : ({1'b0, s[31:1]} ^ POLY);
        end
        for (i = 0; i < 8*skip_bytes; i = i + 1) begin
            s = {s[30:0] ^ (s[31] ? POLY[30:0] : 31'd0), s[31]};
        end
        crc_start = s;
    end
endfunction

// crc_residue: the state after a message whose state is s, followed by its CRC (~s, little-endian);
// the same for every s (the CRC-32 residue).
function [31:0] crc_residue;
    input [31:0] s;
    reg [31:0] c;
    reg [31:0] d;
    integer i;
    begin
        c = s;
        d = ~s;
        for (i = 0; i < 32; i = i + 1) begin
            c = (c[0] ^ d[i]) ? ({1'b0, c[31:1]} ^ POLY) : {1'b0, c[31:1]};
        end
        crc_residue = c;
    end
endfunction

// mask_var: bit v is set when frame byte p is masked at IHL v (the UDP checksum at 14+4*IHL+6..7,
// BTH byte 4 at 14+4*IHL+12); mask_fix: byte p is masked at every IHL (TOS, TTL, header checksum).
function [15:0] mask_var;
    input integer p;
    integer v;
    begin
        for (v = 0; v < 16; v = v + 1) begin
            mask_var[v] = p == 20 + 4*v || p == 21 + 4*v || p == 26 + 4*v;
        end
    end
endfunction

function mask_fix;
    input integer p;
    begin
        mask_fix = p == 15 || p == 22 || p == 24 || p == 25;
    end
endfunction

// lane_var, lane_fix, lane_zero: per beat index bt (0..2^BEAT_W-1, saturating at HDR_BEATS) the
// masks of lane i: its mask_var, its mask_fix, and whether it is an Ethernet byte (forced to zero).
// Beats from HDR_BEATS on hold no masked byte.
function [16*(1<<BEAT_W)-1:0] lane_var;
    input integer i;
    integer bt;
    begin
        lane_var = {16*(1<<BEAT_W){1'b0}};
        for (bt = 0; bt < HDR_BEATS; bt = bt + 1) begin
            lane_var[16*bt +: 16] = mask_var(bt*KEEP_WIDTH + i);
        end
    end
endfunction

function [(1<<BEAT_W)-1:0] lane_fix;
    input integer i;
    integer bt;
    begin
        lane_fix = {(1<<BEAT_W){1'b0}};
        for (bt = 0; bt < HDR_BEATS; bt = bt + 1) begin
            lane_fix[bt] = mask_fix(bt*KEEP_WIDTH + i);
        end
    end
endfunction

function [(1<<BEAT_W)-1:0] lane_zero;
    input integer i;
    integer bt;
    begin
        lane_zero = {(1<<BEAT_W){1'b0}};
        for (bt = 0; bt < HDR_BEATS; bt = bt + 1) begin
            lane_zero[bt] = bt*KEEP_WIDTH + i < 14;
        end
    end
endfunction

// row_count: the set bits of a matrix row; row_index: their positions, IX_W bits each, in order.
localparam IX_W = $clog2(MW);

function integer row_count;
    input [MW-1:0] r;
    integer i;
    begin
        row_count = 0;
        for (i = 0; i < MW; i = i + 1) begin
            if (r[i]) begin
                row_count = row_count + 1;
            end
        end
    end
endfunction

function [IX_W*MW-1:0] row_index;
    input [MW-1:0] r;
    integer i, n;
    begin
        row_index = {IX_W*MW{1'b0}};
        n = 0;
        for (i = 0; i < MW; i = i + 1) begin
            if (r[i]) begin
                row_index[IX_W*n +: IX_W] = i[IX_W-1:0];
                n = n + 1;
            end
        end
    end
endfunction

// residue_z: entry z (bits 32*z +: 32) is the state s run on over z zero bytes, z = 0..KEEP_WIDTH-1
function [32*KEEP_WIDTH-1:0] residue_z;
    input [31:0] s;
    reg [31:0] c;
    integer z, i;
    begin
        c = s;
        for (z = 0; z < KEEP_WIDTH; z = z + 1) begin
            residue_z[32*z +: 32] = c;
            for (i = 0; i < 8; i = i + 1) begin
                c = c[0] ? ({1'b0, c[31:1]} ^ POLY) : {1'b0, c[31:1]};
            end
        end
    end
endfunction

// cnt_off: where stage s of the last-beat pipeline keeps its KEEP_LOG-s count bits
function integer cnt_off;
    input integer s;
    integer i;
    begin
        cnt_off = 0;
        for (i = 0; i < s; i = i + 1) begin
            cnt_off = cnt_off + KEEP_LOG - i;
        end
    end
endfunction

localparam [31:0] CRC_START = crc_start(8, 14);
localparam [31:0] RESIDUE = crc_residue(32'hFFFFFFFF);
localparam [32*KEEP_WIDTH-1:0] RES_Z = residue_z(RESIDUE);
localparam [32*MW-1:0] MAT_FULL = crc_matrix(DATA_WIDTH);
localparam [32*64-1:0] MAT_UNDO = crc_undo_matrix(32);

// check configuration
initial begin
    if (DATA_WIDTH != 64 && DATA_WIDTH != 128 && DATA_WIDTH != 256 && DATA_WIDTH != 512) begin
        $error("Error: DATA_WIDTH must be 64, 128, 256 or 512, got %0d (instance %m)", DATA_WIDTH);
        $finish;
    end
    if (RX_ICRC != 0 && RX_ICRC != 1 && RX_ICRC != 2) begin
        $error("Error: RX_ICRC must be 0, 1 or 2, got %0d (instance %m)", RX_ICRC);
        $finish;
    end
end

// input stage: beat index (saturating), IHL, last 3 bytes of the previous beat
reg [BEAT_W-1:0] frame_beat_reg = {BEAT_W{1'b0}}, frame_beat_next;
reg [3:0] ihl_reg = 4'd5, ihl_next;
reg [23:0] prev_reg = 24'd0, prev_next;

// mask register: the masked beat and what the tail needs of it (empty-byte count, received ICRC)
reg [DATA_WIDTH-1:0] mb_data_reg = {DATA_WIDTH{1'b0}};
reg mb_valid_reg = 1'b0;
reg mb_last_reg = 1'b0;
reg [KEEP_LOG-1:0] mb_cnt_reg = {KEEP_LOG{1'b0}};
reg [31:0] mb_rx_reg = 32'd0;

// CRC so far; CRC_START between frames
reg [31:0] crc_reg = CRC_START, crc_next;

// last-beat pipeline: KEEP_LOG stages (valid, CRC, received ICRC, zero-byte count left); stage s
// keeps the low KEEP_LOG-s bits of the count (the bits its step and the later ones read) at
// cnt_off(s)
localparam CNT_BITS = cnt_off(KEEP_LOG - 1);
reg [KEEP_LOG-1:0] tail_valid_reg = {KEEP_LOG{1'b0}};
wire [KEEP_LOG-1:0] tail_valid_next;
reg [32*KEEP_LOG-1:0] tail_crc_reg = {32*KEEP_LOG{1'b0}};
wire [32*KEEP_LOG-1:0] tail_crc_next;
reg [32*KEEP_LOG-1:0] tail_rx_reg = {32*KEEP_LOG{1'b0}};
wire [32*KEEP_LOG-1:0] tail_rx_next;
reg [CNT_BITS-1:0] tail_cnt_reg = {CNT_BITS{1'b0}};
wire [CNT_BITS-1:0] tail_cnt_next;
// RX_ICRC 2: the verdict, from stage 1 on
reg [KEEP_LOG-1:1] tail_ok_reg = {KEEP_LOG-1{1'b0}};
wire [KEEP_LOG-1:1] tail_ok_next;

// result
reg m_icrc_valid_reg = 1'b0, m_icrc_valid_next;
reg [31:0] m_icrc_reg = 32'd0, m_icrc_next;
reg [31:0] m_icrc_rx_reg = 32'd0, m_icrc_rx_next;
reg m_icrc_ok_reg = 1'b0, m_icrc_ok_next;

// input beat, combinational
reg [3:0] ihl_cur;
wire [DATA_WIDTH-1:0] beat_masked;
reg [KEEP_LOG-1:0] zero_cnt;
reg [KEEP_WIDTH-1:0] keep_rev;
reg [31:0] rx_cur;
reg [KEEP_WIDTH-1:0] rx_end;
reg [KEEP_WIDTH-1:0] rx_col;
reg [KEEP_WIDTH/2-1:0] cnt_terms;
wire [DATA_WIDTH+23:0] rx_window = {s_axis_tdata, prev_reg};
wire [MW-1:0] full_in = {mb_data_reg, crc_reg};
wire [31:0] crc_full;
wire [31:0] crc_undo;

assign s_axis_tready = 1'b1;

assign m_icrc_valid = m_icrc_valid_reg;
assign m_icrc = m_icrc_reg;
assign m_icrc_rx = m_icrc_rx_reg;
assign m_icrc_ok = m_icrc_ok_reg;

integer b, q;

// IHL, byte count, received ICRC
always @* begin
    ihl_cur = ihl_reg;
    if (frame_beat_reg == IHL_BEAT[BEAT_W-1:0]) begin
        ihl_cur = s_axis_tdata[8*IHL_LANE +: 4];
    end

    // empty bytes at the end of the beat, z = KEEP_WIDTH - n (0..KEEP_WIDTH-1), from the cleared
    // tkeep bits read from the top as a thermometer code (keep_rev[m-1] is z >= m): bit b of z is
    // set when z lies in [q*2^(b+1) + 2^b, (q+1)*2^(b+1)) for some q (no priority chain)
    for (b = 0; b < KEEP_WIDTH; b = b + 1) begin
        keep_rev[b] = !s_axis_tkeep[KEEP_WIDTH-1-b];
    end
    for (b = 0; b < KEEP_LOG; b = b + 1) begin
        cnt_terms = {KEEP_WIDTH/2{1'b0}};
        for (q = 0; q < (KEEP_WIDTH >> (b + 1)); q = q + 1) begin
            cnt_terms[q] = keep_rev[q*(2 << b) + (1 << b) - 1] &&
                           !keep_rev[(q+1)*(2 << b) - 1];
        end
        zero_cnt[b] = |cnt_terms;
    end

    // the last 4 bytes of the frame, from this beat and the 3 bytes before it: an AND-OR over the
    // one-hot end position (byte m is the last one when tkeep[m] is set and tkeep[m+1] is not);
    // reduction operators, so that synthesis builds trees, not chains
    rx_end = {1'b0, s_axis_tkeep[KEEP_WIDTH-1:1]} ^ s_axis_tkeep;
    for (b = 0; b < 32; b = b + 1) begin
        for (q = 0; q < KEEP_WIDTH; q = q + 1) begin
            rx_col[q] = rx_window[8*q + b];
        end
        rx_cur[b] = RX_ICRC == 1 && |(rx_end & rx_col);
    end
end

// masking: lane i of beat frame_beat_reg is zero, ones or as received; tables built at elaboration
// (a lookup of the beat index and IHL per lane, no position arithmetic); a lane past tkeep is zero
genvar j, s, g;
generate
    for (j = 0; j < KEEP_WIDTH; j = j + 1) begin : g_mask
        localparam [16*(1<<BEAT_W)-1:0] VAR = lane_var(j);
        localparam [(1<<BEAT_W)-1:0] FIX = lane_fix(j);
        localparam [(1<<BEAT_W)-1:0] ZERO = lane_zero(j);
        wire [15:0] var_row = VAR[16*frame_beat_reg +: 16];
        wire ones = FIX[frame_beat_reg] || var_row[ihl_cur];

        assign beat_masked[8*j +: 8] = ZERO[frame_beat_reg] || !s_axis_tkeep[j] ? 8'h00 :
                                       ones ? 8'hFF : s_axis_tdata[8*j +: 8];
    end
endgenerate

// the full-beat XOR matrix over the mask register and crc_reg: row j as an explicit tree of
// 6-input XORs, two levels kept as nets (abc maps a flat XOR of hundreds of inputs less densely)
generate
    for (j = 0; j < 32; j = j + 1) begin : g_full
        localparam [MW-1:0] ROW = MAT_FULL[j*MW +: MW];
        localparam N0 = row_count(ROW);
        localparam [IX_W*MW-1:0] IX = row_index(ROW);
        localparam N1 = (N0 + 5) / 6;
        localparam N2 = (N1 + 5) / 6;
        wire [6*N1-1:0] t0;
        wire [6*N2-1:0] t1;
        wire [N2-1:0] t2;

        for (g = 0; g < 6*N1; g = g + 1) begin : g_in
            if (g < N0) begin : g_bit
                assign t0[g] = full_in[IX[IX_W*g +: IX_W]];
            end else begin : g_pad
                assign t0[g] = 1'b0;
            end
        end
        for (g = 0; g < 6*N2; g = g + 1) begin : g_l1
            if (g < N1) begin : g_x
                (* keep *) wire x = ^t0[6*g +: 6];
                assign t1[g] = x;
            end else begin : g_pad
                assign t1[g] = 1'b0;
            end
        end
        for (g = 0; g < N2; g = g + 1) begin : g_l2
            (* keep *) wire x = ^t1[6*g +: 6];
            assign t2[g] = x;
        end
        assign crc_full[j] = ^t2;
    end
endgenerate

// input stage and mask register
always @* begin
    frame_beat_next = frame_beat_reg;
    ihl_next = ihl_reg;
    prev_next = prev_reg;

    if (s_axis_tvalid) begin
        prev_next = s_axis_tdata[DATA_WIDTH-1 -: 24];
        if (s_axis_tlast) begin
            frame_beat_next = {BEAT_W{1'b0}};
        end else begin
            ihl_next = ihl_cur;
            if (frame_beat_reg != HDR_BEATS[BEAT_W-1:0]) begin
                frame_beat_next = frame_beat_reg + 1'b1;
            end
        end
    end
end

// CRC: each masked beat steps crc_reg; a tlast beat's result goes to the tail instead and crc_reg
// returns to CRC_START for the next frame's first beat
always @* begin
    crc_next = crc_reg;
    if (mb_valid_reg) begin
        crc_next = mb_last_reg ? CRC_START : crc_full;
    end
end

// last-beat pipeline, stage 0: the CRC after the whole beat, its empty lanes run as zero bytes,
// and their count z; the received ICRC
assign tail_valid_next = {tail_valid_reg[KEEP_LOG-2:0], mb_valid_reg && mb_last_reg};
assign tail_crc_next[0 +: 32] = crc_full;
assign tail_rx_next = {tail_rx_reg[0 +: 32*(KEEP_LOG-1)], mb_rx_reg};
assign tail_cnt_next[0 +: KEEP_LOG] = mb_cnt_reg;

// stage s+1 from stage s: the CRC stepped back over 2^k zero bytes, k = KEEP_LOG-1-s, when bit k of
// z is set (a 32 x 32 map; the maps commute, so the order of the bits does not matter); the last
// step handles bits 1 and 0 together, a 4-way select of the identity and the maps back over 1, 2
// and 3 bytes
generate
    for (s = 0; s < KEEP_LOG - 1; s = s + 1) begin : g_step
        localparam S = s;
        localparam k = KEEP_LOG - 1 - s;
        wire [31:0] s_crc = tail_crc_reg[32*S +: 32];
        wire [k:0] s_cnt = tail_cnt_reg[cnt_off(S) +: k + 1];

        if (k > 1) begin : g_one
            localparam [32*32-1:0] MAT = crc_back_matrix(8 << k);
            wire [31:0] step_crc;

            for (j = 0; j < 32; j = j + 1) begin : g_row
                assign step_crc[j] = ^(MAT[j*32 +: 32] & s_crc);
            end
            assign tail_crc_next[32*(S+1) +: 32] = s_cnt[k] ? step_crc : s_crc;
            assign tail_cnt_next[cnt_off(S + 1) +: k] = s_cnt[k-1:0];
        end else begin : g_two
            localparam [32*32-1:0] MAT1 = crc_back_matrix(8);
            localparam [32*32-1:0] MAT2 = crc_back_matrix(16);
            localparam [32*32-1:0] MAT3 = crc_back_matrix(24);
            wire [31:0] step1, step2, step3;

            for (j = 0; j < 32; j = j + 1) begin : g_row
                assign step1[j] = ^(MAT1[j*32 +: 32] & s_crc);
                assign step2[j] = ^(MAT2[j*32 +: 32] & s_crc);
                assign step3[j] = ^(MAT3[j*32 +: 32] & s_crc);
            end
            assign tail_crc_next[32*(S+1) +: 32] = s_cnt[1] ? (s_cnt[0] ? step3 : step2) :
                                                             (s_cnt[0] ? step1 : s_crc);
        end
    end
endgenerate

// RX_ICRC 2: the verdict from tail stage 0, the state after the whole beat, without stepping back:
// the state after the frame is the residue exactly when the state after the beat is the residue
// run on over the z empty lanes as zero bytes (RES_Z entry z); then delayed to the result stage
wire ok_z = tail_crc_reg[0 +: 32] == RES_Z[32*tail_cnt_reg[0 +: KEEP_LOG] +: 32];

generate
    if (KEEP_LOG > 2) begin : g_ok_line
        assign tail_ok_next = {tail_ok_reg[KEEP_LOG-2:1], ok_z};
    end else begin : g_ok_one
        assign tail_ok_next = ok_z;
    end
endgenerate

// the CRC before the 4 ICRC bytes
generate
    for (j = 0; j < 32; j = j + 1) begin : g_undo
        assign crc_undo[j] = ^(MAT_UNDO[j*64 +: 64] & {tail_rx_reg[32*(KEEP_LOG-1) +: 32],
                                                      tail_crc_reg[32*(KEEP_LOG-1) +: 32]});
    end
endgenerate

// result
always @* begin
    m_icrc_valid_next = tail_valid_reg[KEEP_LOG-1];
    m_icrc_next = m_icrc_reg;
    m_icrc_rx_next = m_icrc_rx_reg;
    m_icrc_ok_next = m_icrc_ok_reg;

    if (tail_valid_reg[KEEP_LOG-1]) begin
        m_icrc_next = RX_ICRC == 2 ? 32'd0 : ~crc_undo;
        m_icrc_rx_next = tail_rx_reg[32*(KEEP_LOG-1) +: 32];
        m_icrc_ok_next = RX_ICRC == 2 ? tail_ok_reg[KEEP_LOG-1] :
                         RX_ICRC == 1 && tail_crc_reg[32*(KEEP_LOG-1) +: 32] == RESIDUE;
    end
end

always @(posedge clk) begin
    frame_beat_reg <= frame_beat_next;
    ihl_reg <= ihl_next;
    prev_reg <= prev_next;
    mb_data_reg <= beat_masked;
    mb_valid_reg <= s_axis_tvalid;
    mb_last_reg <= s_axis_tlast;
    mb_cnt_reg <= zero_cnt;
    mb_rx_reg <= rx_cur;
    crc_reg <= crc_next;
    tail_valid_reg <= tail_valid_next;
    tail_crc_reg <= tail_crc_next;
    tail_rx_reg <= tail_rx_next;
    tail_cnt_reg <= tail_cnt_next;
    tail_ok_reg <= tail_ok_next;
    m_icrc_valid_reg <= m_icrc_valid_next;
    m_icrc_reg <= m_icrc_next;
    m_icrc_rx_reg <= m_icrc_rx_next;
    m_icrc_ok_reg <= m_icrc_ok_next;

    if (rst) begin
        frame_beat_reg <= {BEAT_W{1'b0}};
        mb_valid_reg <= 1'b0;
        crc_reg <= CRC_START;
        tail_valid_reg <= {KEEP_LOG{1'b0}};
        m_icrc_valid_reg <= 1'b0;
    end
end

endmodule

`resetall
