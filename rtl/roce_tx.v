// SPDX-License-Identifier: Apache-2.0
/*
 * roce_tx: RoCEv2 frame builder: data and ACK descriptors plus payload in, Ethernet frames out.
 *
 * Builds the frames roce.BuildData and roce.BuildAck build (docs/protocol.md): Ethernet II, IPv4
 * (IHL 5, DF, ECT(0), header checksum), UDP (checksum 0), BTH, then the spray extension and the
 * payload (data) or the AETH and the SACK extension (ACK/NAK), pad bytes and the ICRC, computed by
 * a roce_icrc instance and written into the frame on its way out through an output FIFO.
 *
 * Interfaces:
 *   s_pkt_*   data descriptor (nic_transport m_pkt_* fields, plus offset and payload length)
 *   s_pay_*   payload AXI-Stream, payload byte 0 in lane 0, exactly ceil(len/KEEP_WIDTH) beats;
 *             tuser on any beat of a frame's payload (poison) inverts that frame's ICRC
 *   s_ack_*   ACK/NAK descriptor (nic_transport m_ack_* fields, plus the UDP source port)
 *   tbl_wr_*  connection table write port (peer MAC, peer IP, destination QPN, DSCP, TTL)
 *   cfg_*     local MAC and IPv4 address, sampled when a descriptor is accepted
 *   m_axis_*  frames out, byte i of a beat in tdata[8*i+7:8*i], tkeep contiguous on tlast
 *
 * Contract: docs/roce_tx.md (ports, cycle behaviour, latency, verification, resources); the ICRC
 * engine: docs/roce_rtl.md.
 */

`resetall
`timescale 1ns / 1ps
`default_nettype none

module roce_tx #(
    // Width of the AXI-Stream data buses, bits; 64, 128, 256 or 512.
    parameter DATA_WIDTH = 64,
    // Connections (table entries); power of two, 2..1024.
    parameter CONNS = 16,
    // Paths per connection; power of two, 2..64.
    parameter PATHS = 8,
    // ACK bitmap bits; power of two, 8..256 (sent as max(1, SACK_BITS/32) words).
    parameter SACK_BITS = 64,
    // Path sequence width, bits; 8..24 (sent zero-extended to 24).
    parameter PSEQ_WIDTH = 16,
    // Payload handle width, bits; 1..32 (sent zero-extended as the 32-bit message id).
    parameter HANDLE_WIDTH = 16,
    // PSN width, bits; exactly 24.
    parameter PSN_WIDTH = 24,
    // Largest payload, bytes; an IBTA path MTU: power of two, 256..4096.
    parameter MTU = 4096
) (
    input  wire                         clk,
    input  wire                         rst,

    /*
     * Data descriptor (nic_transport m_pkt_*, plus offset and length)
     */
    input  wire                         s_pkt_valid,
    output wire                         s_pkt_ready,
    input  wire [$clog2(CONNS)-1:0]     s_pkt_conn,
    input  wire [PSN_WIDTH-1:0]         s_pkt_psn,
    input  wire [$clog2(PATHS)-1:0]     s_pkt_path,
    input  wire [PSEQ_WIDTH-1:0]        s_pkt_pseq,
    input  wire [15:0]                  s_pkt_entropy,
    input  wire [HANDLE_WIDTH-1:0]      s_pkt_handle,
    input  wire                         s_pkt_first,
    input  wire                         s_pkt_last,
    input  wire                         s_pkt_ack_req,
    input  wire [31:0]                  s_pkt_offset,
    input  wire [$clog2(MTU+1)-1:0]     s_pkt_len,

    /*
     * Payload (ceil(len/KEEP_WIDTH) beats per data descriptor, none for length 0)
     */
    input  wire [DATA_WIDTH-1:0]        s_pay_tdata,
    input  wire [DATA_WIDTH/8-1:0]      s_pay_tkeep,
    input  wire                         s_pay_tvalid,
    output wire                         s_pay_tready,
    input  wire                         s_pay_tlast,
    // poison: high on any payload beat of a frame inverts that frame's ICRC
    input  wire                         s_pay_tuser,

    /*
     * ACK/NAK descriptor (nic_transport m_ack_*, plus the UDP source port)
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
    input  wire [15:0]                  s_ack_entropy,

    /*
     * Connection table write port
     */
    input  wire                         tbl_wr_en,
    input  wire [$clog2(CONNS)-1:0]     tbl_wr_conn,
    input  wire [47:0]                  tbl_wr_mac,
    input  wire [31:0]                  tbl_wr_ip,
    input  wire [23:0]                  tbl_wr_qpn,
    input  wire [5:0]                   tbl_wr_dscp,
    input  wire [7:0]                   tbl_wr_ttl,

    /*
     * Local addresses (sampled with each accepted descriptor)
     */
    input  wire [47:0]                  cfg_mac,
    input  wire [31:0]                  cfg_ip,

    /*
     * Frame output
     */
    output wire [DATA_WIDTH-1:0]        m_axis_tdata,
    output wire [DATA_WIDTH/8-1:0]      m_axis_tkeep,
    output wire                         m_axis_tvalid,
    input  wire                         m_axis_tready,
    output wire                         m_axis_tlast
);

localparam KW = DATA_WIDTH / 8;
localparam KEEP_LOG = $clog2(KW);
// width of the last-beat byte count register: KEEP_LOG on every width the checks accept
localparam C4_W = KEEP_LOG > 3 ? KEEP_LOG : 3;
localparam PATH_W = $clog2(PATHS);
localparam CONN_W = $clog2(CONNS);
// zero padding of descriptor fields to their wire widths (0 for widths the checks refuse, so that
// such a configuration compiles and reaches the checks)
localparam PSEQ_PAD = PSEQ_WIDTH < 24 ? 24 - PSEQ_WIDTH : 0;
localparam HDL_PAD = HANDLE_WIDTH < 32 ? 32 - HANDLE_WIDTH : 0;
localparam LEN_W = $clog2(MTU + 1);
// SACK bitmap words on the wire, and the ACK frame length (fixed per instance).
localparam WORDS = SACK_BITS < 32 ? 1 : SACK_BITS / 32;
localparam ACK_LEN = 70 + 4 * WORDS;
// Header vector: bytes 0..ACK_LEN-1 (the data header is bytes 0..69), in HB beats.
localparam HB = (ACK_LEN + KW - 1) / KW;
localparam HV_W = HB * DATA_WIDTH;
// Output beat H holds header bytes 64..69 in lanes 0..5 and payload from lane 6 (H * KW = 64).
localparam H = 64 / KW;
// Frame lengths: up to 74 + MTU rounded up to 4; beats per frame.
localparam MAX_LEN = 74 + ((MTU + 3) / 4) * 4;
localparam L_W = $clog2(MAX_LEN + 1);
localparam B_W = L_W - KEEP_LOG;
localparam IN_W = L_W - KEEP_LOG;
// ICRC placement: 4-byte groups per beat.
localparam G = KW / 4;
localparam GI_W = G > 2 ? $clog2(G) : 1;
localparam [GI_W-1:0] GLAST = {GI_W{1'b1}};
// ICRC engine latency (docs/roce_rtl.md) and the output FIFO.
localparam LAT = KEEP_LOG + 2;
localparam DEPTH = 32;
localparam PTR_W = 5;
// A frame's first beat leaves once this many beats are buffered (or its ICRC is known), so that its
// ICRC is ready before the first beat holding ICRC bytes (the tlast beat or the one before it) is
// due: frames leave without idle beats.
localparam THR = LAT + 2;
localparam FW = 5 + GI_W + KW + DATA_WIDTH;
localparam TBL_W = 48 + 32 + 24 + 6 + 8;

initial begin
    if (DATA_WIDTH != 64 && DATA_WIDTH != 128 && DATA_WIDTH != 256 && DATA_WIDTH != 512) begin
        $error("Error: DATA_WIDTH = %0d (allowed: 64, 128, 256, 512) (instance %m)", DATA_WIDTH);
        $finish;
    end
    if (CONNS < 2 || CONNS > 1024 || (CONNS & (CONNS - 1)) != 0) begin
        $error("Error: CONNS = %0d (allowed: power of two, 2..1024) (instance %m)", CONNS);
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
    if (PSEQ_WIDTH < 8 || PSEQ_WIDTH > 24) begin
        $error("Error: PSEQ_WIDTH = %0d (allowed: 8..24) (instance %m)", PSEQ_WIDTH);
        $finish;
    end
    if (HANDLE_WIDTH < 1 || HANDLE_WIDTH > 32) begin
        $error("Error: HANDLE_WIDTH = %0d (allowed: 1..32) (instance %m)", HANDLE_WIDTH);
        $finish;
    end
    if (PSN_WIDTH != 24) begin
        $error("Error: PSN_WIDTH = %0d (allowed: exactly 24) (instance %m)", PSN_WIDTH);
        $finish;
    end
    if (MTU < 256 || MTU > 4096 || (MTU & (MTU - 1)) != 0) begin
        $error("Error: MTU = %0d (allowed: power of two, 256..4096) (instance %m)", MTU);
        $finish;
    end
    if ((1 << (PSEQ_WIDTH - 1)) <= SACK_BITS) begin
        $error("Error: PSEQ_WIDTH = %0d too small for SACK_BITS = %0d (allowed: %0s) (instance %m)",
            PSEQ_WIDTH, SACK_BITS, "2^(PSEQ_WIDTH-1) > SACK_BITS");
        $finish;
    end
end

// loop indices, one per always block (a shared one would be driven by several)
integer ia, ib, ic, id, ie, ig;

/*
 * Stage 0: accept a descriptor (data and ACK alternate when both wait) into stage 1
 */
reg v1 = 1'b0, v2 = 1'b0, v3 = 1'b0, v4 = 1'b0, v5 = 1'b0, nv = 1'b0;
reg rr = 1'b0;
wire pick_ack = s_ack_valid && (!s_pkt_valid || rr);
wire acc = !v1 && (s_pkt_valid || s_ack_valid);
assign s_pkt_ready = !v1 && !pick_ack;
assign s_ack_ready = !v1 && pick_ack;

/*
 * Connection table: {peer MAC, peer IP, QPN, DSCP, TTL}, read when a descriptor is taken (stage 0)
 * into tbl1; read-first, so a write at the same edge is seen by the next descriptor
 */
wire [TBL_W-1:0] tbl1;

ram_sdp #(
    .ADDR_WIDTH(CONN_W),
    .DATA_WIDTH(TBL_W)
) tbl_ram (
    .clk(clk),
    .wr_en(tbl_wr_en),
    .wr_addr(tbl_wr_conn),
    .wr_data({tbl_wr_mac, tbl_wr_ip, tbl_wr_qpn, tbl_wr_dscp, tbl_wr_ttl}),
    .rd_en(acc),
    .rd_addr(pick_ack ? s_ack_conn : s_pkt_conn),
    .rd_data(tbl1)
);

// stage 1: the descriptor (union of both kinds; the other kind's fields are zero)
reg k1;
reg [15:0] ent1;
reg [23:0] psn1, pseq1;
reg [7:0] path1;
reg [31:0] hdl1, off1;
reg fst1, lst1, areq1, ecn1, nak1;
reg [LEN_W-1:0] len1;
reg [SACK_BITS-1:0] sack1;
reg [47:0] smac1;
reg [31:0] sip1;

// rr is the one stage-0 register with a reset, kept in this block: two always blocks writing it
// would be two drivers to synthesis (yosys resolves the conflict to a constant)
always @(posedge clk) begin
    if (rst) rr <= 1'b0;
    else if (acc) rr <= !pick_ack;
end

always @(posedge clk) begin
    if (acc) begin
        k1 <= pick_ack;
        smac1 <= cfg_mac;
        sip1 <= cfg_ip;
        ent1 <= pick_ack ? s_ack_entropy : s_pkt_entropy;
        psn1 <= pick_ack ? s_ack_psn : s_pkt_psn;
        pseq1 <= {{PSEQ_PAD{1'b0}}, pick_ack ? s_ack_pseq : s_pkt_pseq};
        path1 <= {{(8-PATH_W){1'b0}}, pick_ack ? s_ack_path : s_pkt_path};
        hdl1 <= pick_ack ? 32'd0 : {{HDL_PAD{1'b0}}, s_pkt_handle};
        off1 <= pick_ack ? 32'd0 : s_pkt_offset;
        fst1 <= !pick_ack && s_pkt_first;
        lst1 <= !pick_ack && s_pkt_last;
        areq1 <= !pick_ack && s_pkt_ack_req;
        len1 <= pick_ack ? {LEN_W{1'b0}} : s_pkt_len;
        sack1 <= pick_ack ? s_ack_sack : {SACK_BITS{1'b0}};
        ecn1 <= pick_ack && s_ack_ecn;
        nak1 <= pick_ack && s_ack_nak;
    end
end

// table fields of stage 1
wire [47:0] dmac1 = tbl1[TBL_W-1 -: 48];
wire [31:0] dip1 = tbl1[TBL_W-49 -: 32];
wire [23:0] qpn1 = tbl1[TBL_W-81 -: 24];
wire [5:0] dscp1 = tbl1[13:8];
wire [7:0] ttl1 = tbl1[7:0];

/*
 * Stages 2..5: lengths, beat counts and the IPv4 checksum, one adder deep per stage. Each stage
 * moves when the next one is empty (a frame is at least 2 beats, so one frame per 2 cycles is
 * enough); the fields that only pass through are copied stage to stage.
 */
localparam PASS_W = 1 + 16 + 24 + 24 + 8 + 32 + 32 + 5 + SACK_BITS + 48 + 32 + 48 + 32 + 24 + 6 + 8;
reg [PASS_W-1:0] pass2, pass3, pass4, pass5;
wire [PASS_W-1:0] pass1 = {k1, ent1, psn1, pseq1, path1, hdl1, off1,
                           fst1, lst1, areq1, ecn1, nak1, sack1, smac1, sip1,
                           dmac1, dip1, qpn1, dscp1, ttl1};

// stage 2
reg [L_W-1:0] len2;
reg [1:0] pad2;
reg [IN_W-1:0] in2;
reg [KW-1:0] inkeep2;
reg [16:0] pa2, pb2, pc2;
reg [L_W-3:0] lsum;
reg [L_W-1:0] lin;
reg [IN_W-1:0] in_n;
reg [KW-1:0] therm_n;
always @* begin
    lin = {{(L_W-LEN_W){1'b0}}, len1};
    // (74 + len rounded up to 4) / 4 = len / 4 + 18, + 1 when len is not a multiple of 4
    lsum = lin[L_W-1:2] + 18 + {{(L_W-3){1'b0}}, |len1[1:0]};
    in_n = lin[L_W-1:KEEP_LOG] + {{(IN_W-1){1'b0}}, |lin[KEEP_LOG-1:0]};
    therm_n = {KW{1'b1}};
    for (ia = 0; ia < KW; ia = ia + 1) begin
        if (len1[KEEP_LOG-1:0] != 0 && ia >= len1[KEEP_LOG-1:0]) begin
            therm_n[ia] = 1'b0;
        end
    end
end

always @(posedge clk) begin
    if (v1 && !v2) begin
        pass2 <= pass1;
        // data: 74 + len rounded up to 4 = ((len + 75) & ~3) | 2; ACK: fixed
        len2 <= k1 ? ACK_LEN[L_W-1:0] : {lsum, 2'b10};
        pad2 <= 2'd0 - len1[1:0];
        in2 <= in_n;
        inkeep2 <= therm_n;
        pa2 <= sip1[31:16] + sip1[15:0];
        pb2 <= dip1[31:16] + dip1[15:0];
        // {0x45, tos} + 0x4000 (DF) + {ttl, 17} - 14 (total length = frame length - 14)
        pc2 <= {ttl1, 8'h03} + {8'h85, dscp1, 2'b10};
    end
end
// stage 3
reg [L_W-1:0] len3;
reg [1:0] pad3;
reg [IN_W-1:0] in3;
reg [KW-1:0] inkeep3;
reg [17:0] qa3, qb3;
always @(posedge clk) begin
    if (v2 && !v3) begin
        pass3 <= pass2;
        len3 <= len2;
        pad3 <= pad2;
        in3 <= in2;
        inkeep3 <= inkeep2;
        qa3 <= pa2 + pb2;
        qb3 <= {1'b0, pc2} + {{(18-L_W){1'b0}}, len2};
    end
end

// stage 4
reg [B_W-1:0] b_n;
always @* begin
    b_n = len3[L_W-1:KEEP_LOG] + {{(B_W-1){1'b0}}, |len3[KEEP_LOG-1:0]};
end
reg [1:0] pad4;
reg [IN_W-1:0] in4;
reg [KW-1:0] inkeep4;
reg [18:0] s4;
reg [15:0] tot4;
reg [B_W-1:0] b4;
reg [C4_W-1:0] c4;
always @(posedge clk) begin
    if (v3 && !v4) begin
        pass4 <= pass3;
        pad4 <= pad3;
        in4 <= in3;
        inkeep4 <= inkeep3;
        s4 <= qa3 + qb3;
        tot4 <= {{(16-L_W){1'b0}}, len3} - 16'd14;
        b4 <= b_n;
        c4 <= len3[KEEP_LOG-1:0];
    end
end

// stage 5
reg [1:0] pad5;
reg [IN_W-1:0] in5;
reg [KW-1:0] inkeep5;
reg [16:0] f5;
reg [15:0] tot5;
reg [B_W-1:0] b5;
reg [KW-1:0] lkeep5;
reg [GI_W-1:0] gi5;
always @(posedge clk) begin
    if (v4 && !v5) begin
        pass5 <= pass4;
        pad5 <= pad4;
        in5 <= in4;
        inkeep5 <= inkeep4;
        f5 <= {1'b0, s4[15:0]} + {14'd0, s4[18:16]};
        tot5 <= tot4;
        b5 <= b4;
        for (ib = 0; ib < KW; ib = ib + 1) begin
            lkeep5[ib] <= ib < c4;
        end
        // ICRC at lanes c-4..c-1 (c = 2 mod 4): group gi upper half, group gi+1 lower half
        gi5 <= c4[C4_W-1:2] - 1;
    end
end

/*
 * Stage 6 (next frame): the header vector
 */
wire k5 = pass5[PASS_W-1];
wire [15:0] ent5 = pass5[PASS_W-2 -: 16];
wire [23:0] psn5 = pass5[PASS_W-18 -: 24];
wire [23:0] pseq5 = pass5[PASS_W-42 -: 24];
wire [7:0] path5 = pass5[PASS_W-66 -: 8];
wire [31:0] hdl5 = pass5[PASS_W-74 -: 32];
wire [31:0] off5 = pass5[PASS_W-106 -: 32];
wire fst5 = pass5[PASS_W-138];
wire lst5 = pass5[PASS_W-139];
wire areq5 = pass5[PASS_W-140];
wire ecn5 = pass5[PASS_W-141];
wire nak5 = pass5[PASS_W-142];
wire [SACK_BITS-1:0] sack5 = pass5[PASS_W-143 -: SACK_BITS];
localparam PR = PASS_W - 143 - SACK_BITS;
wire [47:0] smac5 = pass5[PR -: 48];
wire [31:0] sip5 = pass5[PR-48 -: 32];
wire [47:0] dmac5 = pass5[PR-80 -: 48];
wire [31:0] dip5 = pass5[PR-128 -: 32];
wire [23:0] qpn5 = pass5[PR-160 -: 24];
wire [5:0] dscp5 = pass5[PR-184 -: 6];
wire [7:0] ttl5 = pass5[7:0];

reg [HV_W-1:0] hv;
reg [32*WORDS-1:0] bm;
reg [15:0] csum;
reg [15:0] udp5;

// put big-endian field v (nbytes) at frame byte off
task put;
    input integer off;
    input integer nbytes;
    input [63:0] v;
    integer b;
    begin
        for (b = 0; b < nbytes; b = b + 1) begin
            hv[8*(off+b) +: 8] = v[8*(nbytes-1-b) +: 8];
        end
    end
endtask

always @* begin
    csum = ~(f5[15:0] + {15'd0, f5[16]});
    udp5 = tot5 - 16'd20;
    bm = {32*WORDS{1'b0}};
    bm[SACK_BITS-1:0] = sack5;
    hv = {HV_W{1'b0}};
    ic = 0;
    put(0, 6, {16'd0, dmac5});
    put(6, 6, {16'd0, smac5});
    put(12, 2, 64'h0800);
    put(14, 2, {48'd0, 8'h45, dscp5, 2'b10});
    put(16, 2, {48'd0, tot5});
    put(20, 1, 64'h40);
    put(22, 2, {48'd0, ttl5, 8'h11});
    put(24, 2, {48'd0, csum});
    put(26, 4, {32'd0, sip5});
    put(30, 4, {32'd0, dip5});
    put(34, 2, {48'd0, ent5});
    put(36, 2, 64'd4791);
    put(38, 2, {48'd0, udp5});
    put(42, 2, k5 ? 64'h1100 : {48'd0, 8'h04, 2'b00, pad5, 4'h0});
    put(44, 2, 64'hFFFF);
    put(47, 3, {40'd0, qpn5});
    put(50, 1, {56'd0, areq5, 7'd0});
    put(51, 3, {40'd0, k5 && !nak5 ? psn5 - 24'd1 : psn5});
    if (k5) begin
        put(54, 1, nak5 ? 64'h60 : 64'h1F);
        put(58, 4, {32'd0, path5, pseq5});
        put(62, 2, {48'd0, ecn5, 7'd0, WORDS[7:0]});
        for (ic = 0; ic < WORDS; ic = ic + 1) begin
            put(66 + 4*ic, 4, {32'd0, bm[32*ic +: 32]});
        end
    end else begin
        put(54, 4, {32'd0, 8'hB5, path5, fst5, lst5, 6'd0, 8'h01});
        put(58, 4, {32'd0, hdl5});
        put(62, 4, {32'd0, off5});
        put(66, 4, {32'd0, 8'h10, pseq5});
    end
end

reg [HV_W-1:0] nhv;
reg nk;
reg [B_W-1:0] nb;
reg nb2;
reg [IN_W-1:0] nin;
reg nin1;
reg [KW-1:0] ninkeep, nlkeep;
reg [GI_W-1:0] ngi;

/*
 * Frame builder: one beat per cycle of the current frame into the beat register
 */
reg cv = 1'b0;
reg [HV_W-1:0] chv;
reg [B_W-1:0] ccnt;
reg clast, cpen;
reg [HB-1:0] hsel;
reg con;
reg [IN_W-1:0] cin;
reg cin1;
reg chas;
reg [KW-1:0] cinkeep, clkeep;
reg [GI_W-1:0] cgi;
// poison of the current frame: OR of s_pay_tuser over the payload beats taken so far
reg cpois;
reg [47:0] carry = 48'd0;
reg [5:0] used = 6'd0;

wire room = used < DEPTH;
wire adv = cv && room && (!con || s_pay_tvalid);
wire cload = nv && (!cv || (adv && clast));
assign s_pay_tready = cv && room && con;
// the frame's poison including the beat taken now; every payload beat is taken at or before the
// beat holding the frame's first ICRC byte, so that beat carries the frame's final poison
wire pois = cpois || (con && s_pay_tuser);

// beat register: written into the FIFO and the ICRC engine
reg bv = 1'b0;
reg [DATA_WIDTH-1:0] bdata;
reg [KW-1:0] bkeep;
reg blast, bfirst, bhi, blo, bpois;
reg [GI_W-1:0] bgi;

reg [DATA_WIDTH-1:0] beat;
reg [KW-1:0] lane_en;
always @* begin
    beat = {DATA_WIDTH{1'b0}};
    for (id = 0; id < HB; id = id + 1) begin
        beat = beat | (chv[id*DATA_WIDTH +: DATA_WIDTH] & {DATA_WIDTH{hsel[id]}});
    end
    for (id = 0; id < KW; id = id + 1) begin
        lane_en[id] = con && (!cin1 || cinkeep[id]);
    end
    beat[47:0] = beat[47:0] | carry;
    for (id = 0; id < KW - 6; id = id + 1) begin
        beat[8*(id+6) +: 8] = beat[8*(id+6) +: 8] | (s_pay_tdata[8*id +: 8] & {8{lane_en[id]}});
    end
end

always @(posedge clk) begin
    if (v5 && !nv) begin
        nhv <= hv;
        nk <= k5;
        nb <= b5;
        nb2 <= b5 == 2;
        nin <= in5;
        nin1 <= in5 == 1;
        ninkeep <= inkeep5;
        nlkeep <= lkeep5;
        ngi <= gi5;
    end
    bv <= adv;
    if (adv) begin
        bdata <= beat;
        bkeep <= clast ? clkeep : {KW{1'b1}};
        blast <= clast;
        bfirst <= hsel[0];
        blo <= clast;
        bhi <= (clast && cgi != GLAST) || (cpen && cgi == GLAST);
        bgi <= cgi;
        bpois <= pois;
        for (ie = 0; ie < 6; ie = ie + 1) begin
            carry[8*ie +: 8] <= s_pay_tdata[8*(KW-6+ie) +: 8] & {8{lane_en[KW-6+ie]}};
        end
        ccnt <= ccnt - 1;
        clast <= cpen;
        cpen <= ccnt == 3;
        hsel <= hsel << 1;
        if (hsel[H-1] && chas) begin
            con <= 1'b1;
        end
        cpois <= pois;
        if (con) begin
            cin <= cin - 1;
            cin1 <= cin == 2;
            con <= !cin1;
        end
    end
    if (cload) begin
        chv <= nhv;
        ccnt <= nb;
        clast <= 1'b0;
        cpen <= nb2;
        hsel <= {{(HB-1){1'b0}}, 1'b1};
        con <= 1'b0;
        cin <= nin;
        cin1 <= nin1;
        chas <= nin != 0 && !nk;
        cinkeep <= ninkeep;
        clkeep <= nlkeep;
        cgi <= ngi;
        cpois <= 1'b0;
    end
    if (cload) begin
        cv <= 1'b1;
    end else if (adv && clast) begin
        cv <= 1'b0;
    end
    if (acc) v1 <= 1'b1; else if (v1 && !v2) v1 <= 1'b0;
    if (v1 && !v2) v2 <= 1'b1; else if (v2 && !v3) v2 <= 1'b0;
    if (v2 && !v3) v3 <= 1'b1; else if (v3 && !v4) v3 <= 1'b0;
    if (v3 && !v4) v4 <= 1'b1; else if (v4 && !v5) v4 <= 1'b0;
    if (v4 && !v5) v5 <= 1'b1; else if (v5 && !nv) v5 <= 1'b0;
    if (v5 && !nv) nv <= 1'b1; else if (cload) nv <= 1'b0;
    if (rst) begin
        v1 <= 1'b0;
        v2 <= 1'b0;
        v3 <= 1'b0;
        v4 <= 1'b0;
        v5 <= 1'b0;
        nv <= 1'b0;
        cv <= 1'b0;
        bv <= 1'b0;
        carry <= 48'd0;
    end
end

/*
 * ICRC engine on the beat register
 */
wire icrc_valid;
wire [31:0] icrc;
wire [31:0] icrc_rx_unused;
wire icrc_ok_unused;
wire icrc_ready_unused;

roce_icrc #(
    .DATA_WIDTH(DATA_WIDTH),
    .RX_ICRC(0)
) icrc_inst (
    .clk(clk),
    .rst(rst),
    .s_axis_tdata(bdata),
    .s_axis_tkeep(bkeep),
    .s_axis_tvalid(bv),
    .s_axis_tready(icrc_ready_unused),
    .s_axis_tlast(blast),
    .m_icrc_valid(icrc_valid),
    .m_icrc(icrc),
    .m_icrc_rx(icrc_rx_unused),
    .m_icrc_ok(icrc_ok_unused)
);

/*
 * Output FIFO (beats) and ICRC FIFO (one entry per frame), then the output register
 */
reg [FW-1:0] fmem [0:DEPTH-1];
reg [31:0] imem [0:DEPTH-1];
reg [PTR_W-1:0] wp = {PTR_W{1'b0}}, rp = {PTR_W{1'b0}};
reg [PTR_W-1:0] iwp = {PTR_W{1'b0}}, irp = {PTR_W{1'b0}};
reg [5:0] fcnt = 6'd0, icnt = 6'd0;

reg mv = 1'b0;
reg [DATA_WIDTH-1:0] mdata;
reg [KW-1:0] mkeep;
reg mlast;

wire [FW-1:0] head = fmem[rp];
wire [31:0] ihead = imem[irp];
wire h_first = head[FW-1];
wire h_last = head[FW-2];
wire h_hi = head[FW-3];
wire h_lo = head[FW-4];
wire h_pois = head[FW-5];
wire [GI_W-1:0] h_gi = head[FW-6 -: GI_W];
wire [KW-1:0] h_keep = head[DATA_WIDTH +: KW];
wire [DATA_WIDTH-1:0] h_data = head[DATA_WIDTH-1:0];

wire have_icrc = icnt != 0;
wire start_ok = !h_first || {26'd0, fcnt} >= THR || have_icrc;
wire can = fcnt != 0 && (!(h_hi || h_lo) || have_icrc) && start_ok;
wire pop = can && (!mv || m_axis_tready);

// the ICRC as written into the frame: inverted (all 32 bits) when the frame is poisoned
wire [31:0] icrc_out = ihead ^ {32{h_pois}};
reg [DATA_WIDTH-1:0] ins;
reg [GI_W-1:0] gprev;
always @* begin
    ins = {DATA_WIDTH{1'b0}};
    for (ig = 0; ig < G; ig = ig + 1) begin
        gprev = ig[GI_W-1:0] + GLAST;
        if (h_hi && h_gi == ig[GI_W-1:0]) begin
            ins[32*ig+16 +: 16] = icrc_out[15:0];
        end
        if (h_lo && h_gi == gprev) begin
            ins[32*ig +: 16] = icrc_out[31:16];
        end
    end
end

always @(posedge clk) begin
    if (bv) begin
        fmem[wp] <= {bfirst, blast, bhi, blo, bpois, bgi, bkeep, bdata};
        wp <= wp + 1;
    end
    if (icrc_valid) begin
        imem[iwp] <= icrc;
        iwp <= iwp + 1;
    end
    if (pop) begin
        rp <= rp + 1;
        mdata <= h_data | ins;
        mkeep <= h_keep;
        mlast <= h_last;
        mv <= 1'b1;
    end else if (m_axis_tready) begin
        mv <= 1'b0;
    end
    if (pop && h_lo) begin
        irp <= irp + 1;
    end
    fcnt <= fcnt + {5'd0, bv} - {5'd0, pop};
    icnt <= icnt + {5'd0, icrc_valid} - {5'd0, pop && h_lo};
    used <= used + {5'd0, adv} - {5'd0, pop};
    if (rst) begin
        wp <= {PTR_W{1'b0}};
        rp <= {PTR_W{1'b0}};
        iwp <= {PTR_W{1'b0}};
        irp <= {PTR_W{1'b0}};
        fcnt <= 6'd0;
        icnt <= 6'd0;
        used <= 6'd0;
        mv <= 1'b0;
    end
end

assign m_axis_tdata = mdata;
assign m_axis_tkeep = mkeep;
assign m_axis_tvalid = mv;
assign m_axis_tlast = mlast;

endmodule

`resetall
