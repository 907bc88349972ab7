// SPDX-License-Identifier: Apache-2.0
/*
 * roce_rx: RoCEv2 receive frame parser, AXI-Stream frames in, descriptors and payload out.
 *
 * Makes every check of docs/protocol.md "Receiver checks" (steps 1..5, the ICRC through an
 * instance of roce_icrc) on each Ethernet frame of s_axis, store-and-forward: the payload of a
 * data packet goes into a buffer and becomes visible only when every check has passed; a frame that
 * fails any check changes no state but its reason counter. Accepted data packets give an m_rx
 * descriptor (the nic_transport s_rx_* fields, plus offset and len) and len payload bytes on
 * m_axis, realigned to lane 0; accepted ACKs and NAKs give an m_ack descriptor (the s_ack_*
 * fields, plus has_sack); both descriptors carry the frame's source MAC and IPv4 address.
 *
 * Interfaces: s_axis (frames in; tuser = MAC bad-frame flag), m_axis (payload out), m_rx (data
 * descriptors), m_ack (ACK/NAK descriptors), cnt_* (per-reason reject and accept counters).
 *
 * Contract: docs/roce_rx.md (parameters, ports, pipeline and latency, buffer, drop rules, the Go
 * error each counter counts). The Go reference is system/roce Limits.Parse.
 */

`resetall
`timescale 1ns / 1ps
`default_nettype none

module roce_rx #(
    // Width of the AXI-Stream data buses, bits; 64, 128, 256 or 512.
    parameter DATA_WIDTH = 64,
    // Connections; power of two, 2..1024.
    parameter CONNS = 16,
    // Paths per connection; power of two, 2..64.
    parameter PATHS = 8,
    // QPN of connection 0; 2..2^24-2-CONNS.
    parameter QPN_BASE = 256,
    // Largest data payload, bytes; an IBTA path MTU: power of two, 256..4096.
    parameter MTU = 4096,
    // SACK bitmap bits per path; power of two, 8..256.
    parameter SACK_BITS = 64,
    // PSN width; exactly 24.
    parameter PSN_WIDTH = 24,
    // Path sequence width; 8..24, and 2^(PSEQ_WIDTH-1) > SACK_BITS.
    parameter PSEQ_WIDTH = 16,
    // Payload handle (message id) width; 1..32.
    parameter HANDLE_WIDTH = 16
) (
    input  wire                         clk,
    input  wire                         rst,

    /*
     * Ethernet frames in (tkeep contiguous from bit 0 on the tlast beat; tuser = bad frame)
     */
    input  wire [DATA_WIDTH-1:0]        s_axis_tdata,
    input  wire [DATA_WIDTH/8-1:0]      s_axis_tkeep,
    input  wire                         s_axis_tvalid,
    output wire                         s_axis_tready,
    input  wire                         s_axis_tlast,
    input  wire                         s_axis_tuser,

    /*
     * Payload out: the payload of each m_rx descriptor with len > 0, byte 0 in lane 0
     */
    output reg  [DATA_WIDTH-1:0]        m_axis_tdata,
    output reg  [DATA_WIDTH/8-1:0]      m_axis_tkeep,
    output reg                          m_axis_tvalid,
    input  wire                         m_axis_tready,
    output reg                          m_axis_tlast,

    /*
     * Data packet descriptors out
     */
    output wire                         m_rx_valid,
    input  wire                         m_rx_ready,
    output wire [$clog2(CONNS)-1:0]     m_rx_conn,
    output wire [PSN_WIDTH-1:0]         m_rx_psn,
    output wire [$clog2(PATHS)-1:0]     m_rx_path,
    output wire [PSEQ_WIDTH-1:0]        m_rx_pseq,
    output wire                         m_rx_first,
    output wire                         m_rx_last,
    output wire                         m_rx_ack_req,
    output wire                         m_rx_ecn,
    output wire [HANDLE_WIDTH-1:0]      m_rx_handle,
    output wire [31:0]                  m_rx_offset,
    output wire [$clog2(MTU+1)-1:0]     m_rx_len,
    output wire [47:0]                  m_rx_src_mac,
    output wire [31:0]                  m_rx_src_ip,

    /*
     * ACK / NAK descriptors out
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
    output wire                         m_ack_has_sack,
    output wire [47:0]                  m_ack_src_mac,
    output wire [31:0]                  m_ack_src_ip,

    /*
     * Counters (32 bits, wrapping): accepted frames, rejected frames by reason
     */
    output reg  [31:0]                  cnt_data,
    output reg  [31:0]                  cnt_ack,
    output reg  [31:0]                  cnt_not_roce,
    output reg  [31:0]                  cnt_truncated,
    output reg  [31:0]                  cnt_invalid,
    output reg  [31:0]                  cnt_unknown_opcode,
    output reg  [31:0]                  cnt_bad_icrc,
    output reg  [31:0]                  cnt_limit,
    output reg  [31:0]                  cnt_mac_error
);

// Byte lanes of a beat and log2 of them.
localparam K = DATA_WIDTH / 8;
localparam KL = $clog2(K);
// Latency of roce_icrc plus its input register; the frame delay line is one cycle shorter (the
// verdict of a frame arrives no later than the cycle after its delayed tlast beat, the next
// frame's later).
localparam ICRC_LAT = KL + 3;
localparam DLY = ICRC_LAT - 1;
localparam CONN_W = $clog2(CONNS);
localparam PATH_W = $clog2(PATHS);
localparam LEN_W = $clog2(MTU + 1);
// Payload words of the largest packet; buffer and descriptor pointer widths.
localparam MAXW = (MTU + K - 1) / K;
// payload buffer, DATA_WIDTH-bit words: two frames of MTU payload (MTU and K are powers of two)
localparam BUF_WORDS = 2 * MAXW;
// entries of each descriptor FIFO
localparam DESC_DEPTH = 16;
localparam BAW = $clog2(BUF_WORDS);
localparam [BAW+1:0] BUF_WORDS_N = BUF_WORDS[BAW+1:0];
localparam DAW = $clog2(DESC_DEPTH);
// Header bytes kept: Ethernet, IPv4 with 40 option bytes, UDP, BTH, AETH, SACK with 8 words.
localparam HB = 138;
// Beat index of the delayed stream: saturates past the last beat that can write a payload word.
localparam DBW_N = $clog2(MAXW + 128 / K + 4) > BAW + 1 ? $clog2(MAXW + 128 / K + 4) : BAW + 1;
localparam DBW = DBW_N > 7 ? DBW_N : 7;
localparam [DBW-1:0] DB_MAX = {DBW{1'b1}};
// Beat index of the input stream: saturates at MAXW (the beats that reserve a buffer word).
localparam IBW = $clog2(MAXW + 1);
localparam SACK_WORDS = SACK_BITS / 32 > 1 ? SACK_BITS / 32 : 1;
// Frame byte 16 (IPv4 total length): its beat offset and lane.
localparam TOT_OFF = (16 / K) * K;
localparam TOT_LANE = 16 % K;
localparam [16:0] TOT_OFF17 = TOT_OFF[16:0];
localparam [16:0] K17 = K[16:0];
localparam [16:0] OFF_SAT = 17'h1FFFF - K17;
localparam [DBW:0] MAXW_D = MAXW[DBW:0];
localparam [24:0] QPN_LO = QPN_BASE[24:0];
localparam [24:0] QPN_HI = QPN_BASE[24:0] + CONNS[24:0];
localparam [8:0] PATHS9 = PATHS[8:0];
localparam [15:0] MTU40 = MTU[15:0] + 16'd40;
localparam [7:0] SACK_WORDS8 = SACK_WORDS[7:0];
// Reject reasons (R_OK: accepted).
localparam [2:0] R_OK = 3'd0, R_NOTROCE = 3'd1, R_TRUNC = 3'd2, R_INVALID = 3'd3,
                 R_OPCODE = 3'd4, R_ICRC = 3'd5, R_LIMIT = 3'd6, R_MAC = 3'd7;
// Descriptor FIFO entry widths (both end with the 80 bits of source MAC and IPv4 address).
localparam DD_W = CONN_W + PSN_WIDTH + PATH_W + PSEQ_WIDTH + 4 + HANDLE_WIDTH + 32 + 80;
localparam AD_W = CONN_W + PSN_WIDTH + PATH_W + PSEQ_WIDTH + SACK_BITS + 3 + 80;

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
    if (QPN_BASE < 2 || QPN_BASE + CONNS > 16777215) begin
        $error("Error: QPN_BASE = %0d (allowed: 2..%0d) (instance %m)", QPN_BASE,
            16777215 - CONNS);
        $finish;
    end
    if (MTU < 256 || MTU > 4096 || (MTU & (MTU - 1)) != 0) begin
        $error("Error: MTU = %0d (allowed: power of two, 256..4096) (instance %m)", MTU);
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
    if (HANDLE_WIDTH < 1 || HANDLE_WIDTH > 32) begin
        $error("Error: HANDLE_WIDTH = %0d (allowed: 1..32) (instance %m)", HANDLE_WIDTH);
        $finish;
    end
    if ((1 << (PSEQ_WIDTH - 1)) <= SACK_BITS) begin
        $error("Error: PSEQ_WIDTH = %0d too small for SACK_BITS = %0d (allowed: %0s) (instance %m)",
            PSEQ_WIDTH, SACK_BITS, "2^(PSEQ_WIDTH-1) > SACK_BITS");
        $finish;
    end
end

// keep_last: the index of the last byte of a contiguous tkeep (bytes - 1), from its one-hot end.
function [KL-1:0] keep_last;
    input [K-1:0] keep;
    reg [K-1:0] e;
    integer i, b;
    begin
        e = keep & ~(keep >> 1);
        keep_last = {KL{1'b0}};
        for (b = 0; b < KL; b = b + 1) begin
            for (i = 0; i < K; i = i + 1) begin
                if (((i >> b) & 1) == 1) begin
                    keep_last[b] = keep_last[b] | e[i];
                end
            end
        end
    end
endfunction

// thermo: a tkeep with bytes 0..last set.
function [K-1:0] thermo;
    input [KL-1:0] last;
    integer i;
    begin
        for (i = 0; i < K; i = i + 1) begin
            thermo[i] = i <= last;
        end
    end
endfunction

// ihl4_plus: c + 4 x IHL, written as a table of constants (one LUT level, not an adder).
function [15:0] ihl4_plus;
    input [3:0] ihl;
    input [15:0] c;
    integer v;
    begin
        ihl4_plus = c;
        for (v = 1; v < 16; v = v + 1) begin
            if (ihl == v[3:0]) begin
                ihl4_plus = c + 16'd4 * v[15:0];
            end
        end
    end
endfunction

// inc32: x + 1, given f = (x[3:0] == 15) from a register: the low 4 bits in LUTs, f carried into
// the upper 28 (a carry chain of 7 cells, not 8 after a LUT)
function [31:0] inc32;
    input [31:0] x;
    input f;
    begin
        inc32 = {x[31:4] + {27'd0, f}, x[3:0] + 4'd1};
    end
endfunction

// over, under: x > y, x < y, for a two's complement x and a y below 64 (6 bits)
function over;
    input [16:0] x;
    input [5:0] y;
    begin
        over = !x[16] && (x[15:6] != 10'd0 || x[5:0] > y);
    end
endfunction

function under;
    input [16:0] x;
    input [5:0] y;
    begin
        under = x[16] || (x[15:6] == 10'd0 && x[5:0] < y);
    end
endfunction

/*
 * Input side: reservations (tready), the ICRC engine on the stream cut at the IPv4 total length
 */
reg                 in_frame_reg = 1'b0;
reg [IBW-1:0]       in_beat_reg = {IBW{1'b0}};
reg [16:0]          in_off_reg = 17'd0;
// the ICRC cut of the frame (byte 13 + total length): its beat and its lanes in that beat
reg [16-KL:0]       in_endb_reg = {17-KL{1'b0}};
reg [KL-1:0]        in_endl_reg = {KL{1'b0}};
reg                 in_tot_ok_reg = 1'b0;
reg                 ic_done_reg = 1'b0;
// frames between the input and the commit stage; buffer words they reserve
reg [DAW:0]         infl_reg = {DAW+1{1'b0}};
reg [BAW:0]         wres_reg = {BAW+1{1'b0}};
// buffer pointers (committed write end, read) and descriptor FIFO pointers
reg [BAW:0]         wptr_reg = {BAW+1{1'b0}};
reg [BAW:0]         rptr_reg = {BAW+1{1'b0}};
reg [DAW:0]         dwr_reg = {DAW+1{1'b0}};
reg [DAW:0]         drd_reg = {DAW+1{1'b0}};
reg [DAW:0]         prd_reg = {DAW+1{1'b0}};
reg [DAW:0]         awr_reg = {DAW+1{1'b0}};
reg [DAW:0]         ard_reg = {DAW+1{1'b0}};

wire [DAW:0] occ_desc = dwr_reg - drd_reg;
wire [DAW:0] occ_pay = dwr_reg - prd_reg;
wire [DAW:0] occ_d = occ_desc > occ_pay ? occ_desc : occ_pay;
wire [DAW:0] occ_a = awr_reg - ard_reg;
wire [BAW:0] wused = wptr_reg - rptr_reg;
wire [BAW+1:0] wtotal = {1'b0, wused} + {1'b0, wres_reg};
wire need_word = in_beat_reg < MAXW[IBW-1:0];
// Room, registered: computed from the last cycle's state with room for the one frame start or
// the one reserved word that cycle may have added (descriptors and words are freed, never taken,
// by anything else), so tready is two LUT levels from registers.
reg  start_ok_reg = 1'b0;
reg  word_ok_reg = 1'b0;
assign s_axis_tready = (in_frame_reg || start_ok_reg) && (!need_word || word_ok_reg);
wire in_xfer = s_axis_tvalid && s_axis_tready;

// ICRC cut: the frame ends for roce_icrc at byte 14 + total length (or at tlast, if earlier).
// On the beat that holds the total length the cut is a compare with constants (that beat's
// offset is TOT_OFF); after it, a compare of registers (the cut beat and lanes, registered).
localparam [16:0] TOT_LIM = TOT_OFF17 + K17 - 17'd13;
localparam END_LO_I = 13 % K;
localparam [KL-1:0] END_LO = END_LO_I[KL-1:0];
wire        tot_here = in_off_reg == TOT_OFF17;
wire [15:0] tot_in = {s_axis_tdata[8*TOT_LANE +: 8], s_axis_tdata[8*(TOT_LANE+1) +: 8]};
wire [16:0] ip_end_m1 = {1'b0, tot_in} + 17'd13;
wire [KL-1:0] end_lo = tot_in[KL-1:0] + END_LO;
wire        cut_here = {1'b0, tot_in} < TOT_LIM;
wire        eq_here = TOT_OFF < 13 || {1'b0, tot_in} >= TOT_OFF17 - 17'd13;
wire        cut_eq = tot_here ? eq_here : in_endb_reg == in_off_reg[16:KL];
wire        cut = tot_here ? cut_here : in_tot_ok_reg && in_endb_reg <= in_off_reg[16:KL];
wire [K-1:0] cut_keep = cut_eq ? thermo(tot_here ? end_lo : in_endl_reg) : {{K-1{1'b0}}, 1'b1};
wire [K-1:0] ic_keep = !cut ? s_axis_tkeep : s_axis_tlast ? cut_keep & s_axis_tkeep : cut_keep;
wire        ic_valid = in_xfer && !ic_done_reg;
// the cut beat is registered in front of roce_icrc (the cut arithmetic ends at a register)
reg [DATA_WIDTH-1:0] ic_data_reg;
reg [K-1:0] ic_keep_reg;
reg         ic_valid_reg = 1'b0;
reg         ic_last_reg;

always @(posedge clk) begin
    ic_data_reg <= s_axis_tdata;
    ic_keep_reg <= ic_keep;
    ic_valid_reg <= ic_valid && !rst;
    ic_last_reg <= s_axis_tlast || cut;
end

wire        ic_m_valid;
wire [31:0] ic_m_icrc;
wire [31:0] ic_m_icrc_rx;
wire        ic_m_ok;
wire        ic_tready;
reg         icrc_ok_reg = 1'b0;
// per counter (cnt_data, cnt_ack, then the reject counters in port order): low 4 bits are 15
reg [8:0]   cnt_lf_reg = 9'd0;

roce_icrc #(
    .DATA_WIDTH(DATA_WIDTH),
    .RX_ICRC(2)
) icrc (
    .clk(clk),
    .rst(rst),
    .s_axis_tdata(ic_data_reg),
    .s_axis_tkeep(ic_keep_reg),
    .s_axis_tvalid(ic_valid_reg),
    .s_axis_tready(ic_tready),
    .s_axis_tlast(ic_last_reg),
    .m_icrc_valid(ic_m_valid),
    .m_icrc(ic_m_icrc),
    .m_icrc_rx(ic_m_icrc_rx),
    .m_icrc_ok(ic_m_ok)
);

/*
 * IPv4 header checksum, from the input stream (DLY cycles ahead of the delayed copy): the 16-bit
 * words of frame bytes 14..73, word j (bytes 14+2j, 15+2j) counted when j < 2 x IHL, as hdr_reg
 * would hold them. Stage A registers the beat (ic_data_reg), its index and the frame's IHL; stage
 * B masks its K/2 words; a tree of KL-1 registered pairwise adds sums them; the accumulator adds
 * the beat sums of a frame; the compare stage writes cs_ok_reg. KL+3 = DLY+1 stages for every
 * beat, idle cycles included, so cs_ok_reg holds a frame's verdict exactly in stage F (T+1).
 */
localparam NW = K / 2;
// (2 below DATA_WIDTH 64, which the parameter check refuses: no zero-width select before it)
localparam CSL = KL > 2 ? KL - 1 : 2;
localparam IHL_BEAT = 14 / K;
localparam IHL_LANE = 14 % K;
reg [3:0]           cs_in_beat_reg = 4'd0;
reg                 cs_a_valid_reg = 1'b0;
reg [3:0]           cs_a_beat_reg;
reg [3:0]           cs_a_ihl_reg;
reg [NW*16-1:0]     cs_b_w_reg;
reg                 cs_b_first_reg = 1'b0;
// adder tree as a heap: node n (1..NW-1) is the sum of nodes 2n and 2n+1, nodes NW..2NW-1 are
// stage B's words; node 1 is the beat sum, CSL cycles after stage B
reg [NW*21-1:0]     cs_t_reg;
reg [CSL-1:0]       cs_t_first_reg = {CSL{1'b0}};
reg [20:0]          cs_acc_reg;
reg                 cs_ok_reg;
reg [NW*16-1:0]     cs_m;
reg [2*NW*21-1:0]   cs_node;
reg                 cs_ok_c;
reg [20:0]          cs_mul;
reg [11:0]          cs_o;
integer q;

always @* begin
    // a word counts when its frame byte o is in 14 .. 13 + 4 x IHL
    for (q = 0; q < NW; q = q + 1) begin
        cs_o = {{8-KL{1'b0}}, cs_a_beat_reg, {KL{1'b0}}} + {q[10:0], 1'b0};
        cs_m[16*q +: 16] = {ic_data_reg[16*q +: 8], ic_data_reg[16*q+8 +: 8]} &
            {16{cs_a_valid_reg && cs_o >= 12'd14 &&
            cs_o < {6'd0, cs_a_ihl_reg, 2'b00} + 12'd14}};
    end
    cs_node = {2*NW*21{1'b0}};
    for (q = 0; q < NW; q = q + 1) begin
        cs_node[21*(NW+q) +: 21] = {5'd0, cs_b_w_reg[16*q +: 16]};
    end
    for (q = 1; q < NW; q = q + 1) begin
        cs_node[21*q +: 21] = cs_t_reg[21*q +: 21];
    end
    // a non-zero multiple of 0xFFFF (at most 30 words): the folded sum is 0xFFFF
    cs_ok_c = 1'b0;
    cs_mul = 21'd0;
    for (q = 1; q <= 30; q = q + 1) begin
        cs_mul = cs_mul + 21'h0FFFF;
        cs_ok_c = cs_ok_c | (cs_acc_reg == cs_mul);
    end
end

always @(posedge clk) begin
    cs_a_valid_reg <= in_xfer && !rst;
    cs_a_beat_reg <= cs_in_beat_reg;
    if (in_xfer && cs_in_beat_reg == IHL_BEAT[3:0]) begin
        cs_a_ihl_reg <= s_axis_tdata[8*IHL_LANE +: 4];
    end
    if (in_xfer) begin
        cs_in_beat_reg <= s_axis_tlast ? 4'd0 :
            cs_in_beat_reg == 4'd15 ? cs_in_beat_reg : cs_in_beat_reg + 4'd1;
    end
    cs_b_w_reg <= cs_m;
    cs_b_first_reg <= cs_a_valid_reg && cs_a_beat_reg == 4'd0;
    for (q = 1; q < NW; q = q + 1) begin
        cs_t_reg[21*q +: 21] <= cs_node[21*(2*q) +: 21] + cs_node[21*(2*q+1) +: 21];
    end
    cs_t_first_reg <= {cs_t_first_reg[0 +: CSL-1], cs_b_first_reg};
    cs_acc_reg <= cs_t_first_reg[CSL-1] ? cs_t_reg[21 +: 21] : cs_acc_reg + cs_t_reg[21 +: 21];
    cs_ok_reg <= cs_ok_c;
    if (rst) begin
        cs_in_beat_reg <= 4'd0;
    end
end

// frame delay line: DLY stages of {last, user, keep, data}, valid apart (reset)
localparam BW = 2 + K + DATA_WIDTH;
reg [DLY-1:0]       dl_valid_reg = {DLY{1'b0}};
reg [DLY*BW-1:0]    dl_bus_reg;
wire [BW-1:0]       dl_in = {s_axis_tlast, s_axis_tuser, s_axis_tkeep, s_axis_tdata};

always @(posedge clk) begin
    dl_bus_reg <= {dl_bus_reg[0 +: (DLY-1)*BW], dl_in};
end

wire                    dv = dl_valid_reg[DLY-1];
wire [BW-1:0]           dbeat = dl_bus_reg[(DLY-1)*BW +: BW];
wire                    dlast = dbeat[BW-1];
wire                    duser = dbeat[BW-2];
wire [K-1:0]            dkeep = dbeat[DATA_WIDTH +: K];
wire [DATA_WIDTH-1:0]   ddata = dbeat[0 +: DATA_WIDTH];

/*
 * Delayed stream: header capture, payload realignment into the buffer
 */
reg [DBW-1:0]           d_beat_reg = {DBW{1'b0}};
reg [16:0]              d_off_reg = 17'd0;
reg                     d_user_reg = 1'b0;
reg [8*HB-1:0]          hdr_reg;
reg [DATA_WIDTH-1:0]    prev_reg;
reg                     fl_reg = 1'b0;
reg [DBW-1:0]           fl_k_reg;

// payload start P = 14 + 4*IHL + 8 + 12 + 16 bytes: beat b0 = P / K, lane shift P % K
wire [3:0]              d_ihl = hdr_reg[8*14 +: 4];
// (IHL below 5 is taken as 5: such a frame is dropped, and its writes must start after beat 1,
// when the frame before it has committed)
wire [3:0]              p_ihl = d_ihl < 4'd5 ? 4'd5 : d_ihl;
wire [6:0]              p_start = {1'b0, p_ihl, 2'b00} + 7'd50;
wire [KL-1:0]           p_shift = p_start[KL-1:0];
// k_reg: d_beat_reg - b0 - 1 (the beat's payload word, two's complement), loaded on the beat that
// holds the IHL, so valid after it; no payload word is written before (b0 > IHL_BEAT)
localparam [DBW-1:0] IHL_BEAT_D = IHL_BEAT[DBW-1:0];
wire [3:0]              ihl_in = ddata[8*IHL_LANE +: 4];
wire [3:0]              p_ihl_in = ihl_in < 4'd5 ? 4'd5 : ihl_in;
wire [6:0]              b0_in = ({1'b0, p_ihl_in, 2'b00} + 7'd50) >> KL;
reg  [DBW:0]            k_reg;
wire                    k_ok = d_beat_reg > IHL_BEAT_D;
wire                    cand = dv && k_ok && !k_reg[DBW] && k_reg < MAXW_D;
wire [2*DATA_WIDTH-1:0] sh_in = {fl_reg ? {DATA_WIDTH{1'b0}} : ddata, prev_reg};
wire [2*DATA_WIDTH-1:0] sh_out = sh_in >> {p_shift, 3'b000};
wire                    buf_we = fl_reg || cand;
wire [DBW-1:0]          wk = fl_reg ? fl_k_reg : k_reg[DBW-1:0];
wire [BAW-1:0]          buf_wa = wptr_reg[BAW-1:0] + wk[BAW-1:0];
wire [DBW:0]            k_last = k_reg + 1'b1;

reg [DATA_WIDTH-1:0]    buf_mem [0:BUF_WORDS-1];

wire [3:0]              ihl_cur = d_beat_reg == IHL_BEAT_D ? ihl_in : d_ihl;
// On the beat that holds the total length: fd = tot - 4 x IHL and fd less 24, 36, 40 and MTU + 40
// (two's complement), and tot + 13, so each length check of stage F is one compare of a register
// with a constant or with a field of at most 6 bits (pad, 4 x SACK words).
localparam TOT_BEAT = 16 / K;
localparam [DBW-1:0] TOT_BEAT_D = TOT_BEAT[DBW-1:0];
wire [15:0]             tot_d = {ddata[8*TOT_LANE +: 8], ddata[8*(TOT_LANE+1) +: 8]};
reg  [16:0]             fd_reg;
reg  [17:0]             ft13_reg;
reg  [16:0]             fx24_reg;
reg  [16:0]             fx36_reg;
reg  [16:0]             fx40_reg;
reg  [16:0]             fxm_reg;

always @(posedge clk) begin
    if (buf_we) begin
        buf_mem[buf_wa] <= sh_out[DATA_WIDTH-1:0];
    end
end

// frame end (cycle T, the delayed tlast beat): length, MAC flag and reservation for stage F
reg                     f_valid_reg = 1'b0;
// frame length less 1, bytes (no adder between tkeep and the register)
reg [17:0]              f_lm1_reg;
reg                     f_user_reg;
reg [IBW-1:0]           f_res_reg;

integer i;

always @(posedge clk) begin
    fl_reg <= 1'b0;
    f_valid_reg <= 1'b0;
    if (dv) begin
        prev_reg <= ddata;
        for (i = 0; i < HB; i = i + 1) begin
            if ({{32-DBW{1'b0}}, d_beat_reg} == i / K) begin
                hdr_reg[8*i +: 8] <= ddata[8*(i%K) +: 8];
            end
        end
        if (d_beat_reg == TOT_BEAT_D) begin
            fd_reg <= {1'b0, tot_d} - {11'd0, ihl_cur, 2'b00};
            fx24_reg <= {1'b0, tot_d} - {1'b0, ihl4_plus(ihl_cur, 16'd24)};
            fx36_reg <= {1'b0, tot_d} - {1'b0, ihl4_plus(ihl_cur, 16'd36)};
            fx40_reg <= {1'b0, tot_d} - {1'b0, ihl4_plus(ihl_cur, 16'd40)};
            fxm_reg <= {1'b0, tot_d} - {1'b0, ihl4_plus(ihl_cur, MTU40)};
            ft13_reg <= {2'b00, tot_d} + 18'd13;
        end
        if (dlast) begin
            d_beat_reg <= {DBW{1'b0}};
            d_off_reg <= 17'd0;
            d_user_reg <= 1'b0;
            fl_reg <= k_ok && (!k_reg[DBW] || k_last == {DBW+1{1'b0}}) && k_last < MAXW_D;
            fl_k_reg <= k_last[DBW-1:0];
            f_valid_reg <= 1'b1;
            f_lm1_reg <= {1'b0, d_off_reg[16:KL], keep_last(dkeep)};
            f_user_reg <= d_user_reg || duser;
            f_res_reg <= {1'b0, d_beat_reg} < MAXW_D ? d_beat_reg[IBW-1:0] + 1'b1 : MAXW[IBW-1:0];
        end else begin
            if (d_beat_reg != DB_MAX) begin
                d_beat_reg <= d_beat_reg + 1'b1;
                k_reg <= k_reg + 1'b1;
            end
            if (d_beat_reg == IHL_BEAT_D) begin
                k_reg <= {{DBW-6{1'b0}}, IHL_BEAT_D[6:0]} - {{DBW-6{1'b0}}, b0_in};
            end
            if (d_off_reg < OFF_SAT) begin
                d_off_reg <= d_off_reg + K17;
            end
            d_user_reg <= d_user_reg || duser;
        end
    end
    if (rst) begin
        d_beat_reg <= {DBW{1'b0}};
        d_off_reg <= 17'd0;
        d_user_reg <= 1'b0;
        fl_reg <= 1'b0;
        f_valid_reg <= 1'b0;
    end
end

/*
 * Stage F (cycle T+1): every check but the ICRC, from the header bytes and the frame length
 */
// the low bits of the total length (the data payload's 4-byte alignment)
wire [1:0] tot_lo = hdr_reg[8*17 +: 2];
reg [511:0] uv;

always @* begin
    case (d_ihl)
        4'd6: uv = hdr_reg[8*38 +: 512];
        4'd7: uv = hdr_reg[8*42 +: 512];
        4'd8: uv = hdr_reg[8*46 +: 512];
        4'd9: uv = hdr_reg[8*50 +: 512];
        4'd10: uv = hdr_reg[8*54 +: 512];
        4'd11: uv = hdr_reg[8*58 +: 512];
        4'd12: uv = hdr_reg[8*62 +: 512];
        4'd13: uv = hdr_reg[8*66 +: 512];
        4'd14: uv = hdr_reg[8*70 +: 512];
        4'd15: uv = hdr_reg[8*74 +: 512];
        default: uv = hdr_reg[8*34 +: 512];
    endcase
end

// Lengths are compared as the total length against the header bytes before a field: with h =
// 4 x IHL, the UDP payload (BTH .. ICRC) is tot - h - 8 bytes, the data payload tot - h - 40 - pad.
wire [7:0]  opcode = uv[8*8 +: 8];
wire [1:0]  pad = uv[8*9+4 +: 2];
wire [5:0]  pad6 = {4'd0, pad};
wire [3:0]  tver = uv[8*9 +: 4];
wire [23:0] qpn = {uv[8*13 +: 8], uv[8*14 +: 8], uv[8*15 +: 8]};
wire [23:0] psn = {uv[8*17 +: 8], uv[8*18 +: 8], uv[8*19 +: 8]};
wire        is_ack = opcode == 8'h11;
wire [7:0]  syn = uv[8*20 +: 8];
wire [7:0]  s_words = uv[8*29 +: 8];
wire [7:0]  sp_path = uv[8*21 +: 8];
wire [7:0]  sk_path = uv[8*24 +: 8];
// fd = tot - h (fd_pos: not negative); fx24, fx36, fx40, fxm: fd less 24, 36, 40, MTU + 40
wire        fd_pos = !fd_reg[16];
wire [15:0] fdu = fd_reg[15:0];
wire [LEN_W-1:0] n_pay = fx40_reg[LEN_W-1:0] - {{LEN_W-2{1'b0}}, pad};
reg  [255:0] bitmap;
integer w;

always @* begin
    for (w = 0; w < 8; w = w + 1) begin
        bitmap[32*w +: 32] = {uv[8*(32+4*w) +: 8], uv[8*(33+4*w) +: 8], uv[8*(34+4*w) +: 8],
            uv[8*(35+4*w) +: 8]} & {32{w < s_words}};
    end
end

wire has_sack = fd_pos && fdu > 16'd28;
wire qpn_out = {1'b0, qpn} < QPN_LO || {1'b0, qpn} >= QPN_HI;
wire bits_over = SACK_BITS < 32 && s_words != 8'd0 && (bitmap[31:0] >> SACK_BITS) != 32'd0;

// Every check as one flag, in the order of docs/protocol.md "Receiver checks" (Parse's order):
// the verdict is the kind of the first flag set (stage C), so a flag is meaningful only when the
// flags before it are clear. pre_f: steps 1 and 2 (before the ICRC); data_f, ack_f: steps 4, 5.
wire [20:0] pre_f = {
    !is_ack && !under(fx40_reg, pad6) && tot_lo != 2'd0,              // 20 pad count (data)
    is_ack && pad != 2'd0,                                            // 19 pad count (ACK)
    qpn == 24'd0 || qpn == 24'd1 || qpn == 24'hFFFFFF,                // 18 dest qp reserved
    opcode != 8'h04 && opcode != 8'h11,                               // 17 opcode
    tver != 4'd0,                                                     // 16 tver
    under(fx24_reg, pad6),                                            // 15 pad beyond BTH
    fx24_reg[16],                                                     // 14 BTH + ICRC
    {uv[8*4 +: 8], uv[8*5 +: 8]} != fdu,                              // 13 UDP length
    {uv[8*2 +: 8], uv[8*3 +: 8]} != 16'd4791,                         // 12 UDP port
    !fd_pos || fdu < 16'd8,                                           // 11 UDP header
    ft13_reg > f_lm1_reg,                                             // 10 total length > frame
    !fd_pos,                                                          //  9 total length < header
    !cs_ok_reg,                                                       //  8 header checksum
    {hdr_reg[8*20 +: 6], hdr_reg[8*21 +: 8]} != 14'd0,                //  7 fragment
    hdr_reg[8*23 +: 8] != 8'd17,                                      //  6 protocol
    f_lm1_reg < {2'b00, ihl4_plus(d_ihl, 16'd13)},                    //  5 options present
    d_ihl < 4'd5,                                                     //  4 IHL
    hdr_reg[8*14+4 +: 4] != 4'd4,                                     //  3 version
    f_lm1_reg < 18'd33,                                               //  2 IPv4 header present
    {hdr_reg[8*12 +: 8], hdr_reg[8*13 +: 8]} != 16'h0800,             //  1 EtherType
    f_lm1_reg < 18'd13};                                              //  0 Ethernet header
wire [11:0] data_f = {4'd0,
    over(fxm_reg, pad6),                                              //  7 payload > MTU
    {1'b0, sp_path} >= PATHS9,                                        //  6 path
    qpn_out,                                                          //  5 dest qp range
    uv[8*22 +: 6] != 6'd0,                                            //  4 spray flags
    uv[8*32 +: 8] != 8'd16,                                           //  3 spray length
    uv[8*23 +: 8] != 8'd1,                                            //  2 spray version
    uv[8*20 +: 8] != 8'hB5,                                           //  1 spray type
    under(fx40_reg, pad6)};                                           //  0 spray header
wire [11:0] ack_f = {
    has_sack && bits_over,                                            // 11 bitmap bits
    has_sack && s_words > SACK_WORDS8,                                // 10 SACK words
    has_sack && {1'b0, sk_path} >= PATHS9,                            //  9 SACK path
    qpn_out,                                                          //  8 dest qp range
    has_sack && over(fx36_reg, {s_words[3:0], 2'b00}),                //  7 after the bitmap
    has_sack && under(fx36_reg, {s_words[3:0], 2'b00}),               //  6 bitmap present
    has_sack && {uv[8*30 +: 8], uv[8*31 +: 8]} != 16'd0,              //  5 SACK reserved
    has_sack && s_words > 8'd8,                                       //  4 SACK words
    has_sack && uv[8*28 +: 7] != 7'd0,                                //  3 SACK flags
    has_sack && fx36_reg[16],                                         //  2 SACK header
    syn != 8'h60 && syn[6:5] != 2'b00,                                //  1 syndrome
    !fd_pos || fdu < 16'd28};                                         //  0 AETH
localparam [3*24-1:0] PRE_KINDS = {R_OK, R_OK, R_OK, R_INVALID, R_INVALID, R_INVALID, R_OPCODE,
    R_INVALID, R_TRUNC, R_TRUNC, R_INVALID, R_NOTROCE, R_TRUNC, R_TRUNC, R_INVALID, R_INVALID,
    R_INVALID, R_NOTROCE, R_TRUNC, R_INVALID, R_INVALID, R_TRUNC, R_NOTROCE, R_TRUNC};
localparam [3*24-1:0] DATA_KINDS = {R_OK, R_OK, R_OK, R_OK, R_OK, R_OK, R_OK, R_OK, R_OK, R_OK,
    R_OK, R_OK, R_OK, R_OK, R_OK, R_OK, R_LIMIT, R_LIMIT, R_LIMIT, R_INVALID, R_INVALID,
    R_INVALID, R_INVALID, R_TRUNC};
localparam [3*24-1:0] ACK_KINDS = {R_OK, R_OK, R_OK, R_OK, R_OK, R_OK, R_OK, R_OK, R_OK, R_OK,
    R_OK, R_OK, R_LIMIT, R_LIMIT, R_LIMIT, R_LIMIT, R_INVALID, R_TRUNC, R_INVALID, R_INVALID,
    R_INVALID, R_TRUNC, R_INVALID, R_TRUNC};

// first_kind: the kind of the lowest flag set in f (R_OK if none)
function [2:0] first_kind;
    input [23:0] f;
    input [3*24-1:0] kinds;
    integer k;
    begin
        first_kind = R_OK;
        for (k = 23; k >= 0; k = k - 1) begin
            if (f[k]) begin
                first_kind = kinds[3*k +: 3];
            end
        end
    end
endfunction

// stage C registers: verdict parts and the descriptor
reg                     c_valid_reg = 1'b0;
reg                     c_user_reg;
reg [20:0]              c_pre_reg;
reg [11:0]              c_post_reg;
reg                     c_ack_reg;
reg [IBW-1:0]           c_res_reg;
reg [IBW-1:0]           c_words_reg;
reg [LEN_W-1:0]         c_len_reg;
// the payload reader's view of len: len != 0, index of the last word, last lane
reg [IBW+KL:0]          c_rd_reg;
reg [DD_W-1:0]          c_dd_reg;
reg [AD_W-1:0]          c_ad_reg;

wire [23:0] qpn_off = qpn - QPN_LO[23:0];
wire [16:0] n_words = (fx40_reg + K17 - 17'd1 - {15'd0, pad}) >> KL;
wire [16:0] n_pay_m1 = fx40_reg - 17'd1 - {15'd0, pad};
wire [23:0] sp_pseq = {uv[8*33 +: 8], uv[8*34 +: 8], uv[8*35 +: 8]};
wire [31:0] msg_id = {uv[8*24 +: 8], uv[8*25 +: 8], uv[8*26 +: 8], uv[8*27 +: 8]};
wire [31:0] p_offset = {uv[8*28 +: 8], uv[8*29 +: 8], uv[8*30 +: 8], uv[8*31 +: 8]};
wire [23:0] pnext = {uv[8*25 +: 8], uv[8*26 +: 8], uv[8*27 +: 8]};
wire [255:0] sack_all = has_sack ? bitmap : 256'd0;
// source addresses, first byte on the wire in the top bits: frame bytes 6..11, 26..29
wire [79:0] src = {hdr_reg[8*6 +: 8], hdr_reg[8*7 +: 8], hdr_reg[8*8 +: 8], hdr_reg[8*9 +: 8],
    hdr_reg[8*10 +: 8], hdr_reg[8*11 +: 8],
    hdr_reg[8*26 +: 8], hdr_reg[8*27 +: 8], hdr_reg[8*28 +: 8], hdr_reg[8*29 +: 8]};

always @(posedge clk) begin
    c_valid_reg <= f_valid_reg && !rst;
    c_user_reg <= f_user_reg;
    c_pre_reg <= pre_f;
    c_post_reg <= is_ack ? ack_f : data_f;
    c_ack_reg <= is_ack;
    c_res_reg <= f_res_reg;
    c_words_reg <= n_words[IBW-1:0];
    c_len_reg <= n_pay;
    c_rd_reg <= {fx40_reg != {11'd0, pad6}, n_pay_m1[KL +: IBW], n_pay_m1[KL-1:0]};
    c_dd_reg <= {qpn_off[CONN_W-1:0], psn, sp_path[PATH_W-1:0], sp_pseq[PSEQ_WIDTH-1:0],
        uv[8*22+7], uv[8*22+6], uv[8*16+7], hdr_reg[8*15 +: 2] == 2'b11,
        msg_id[HANDLE_WIDTH-1:0], p_offset, src};
    c_ad_reg <= {qpn_off[CONN_W-1:0], psn, has_sack ? sk_path[PATH_W-1:0] : {PATH_W{1'b0}},
        has_sack ? pnext[PSEQ_WIDTH-1:0] : {PSEQ_WIDTH{1'b0}}, sack_all[SACK_BITS-1:0],
        has_sack && uv[8*28+7], syn == 8'h60, has_sack, src};
end

/*
 * Stage C (cycle T+2): the verdict; commit (descriptor FIFO write, buffer pointer) or drop
 */
wire [2:0] pre_kind = first_kind({3'd0, c_pre_reg}, PRE_KINDS);
wire [2:0] post_kind = first_kind({12'd0, c_post_reg}, c_ack_reg ? ACK_KINDS : DATA_KINDS);
wire [2:0] reason = c_user_reg ? R_MAC : c_pre_reg != 21'd0 ? pre_kind :
    !icrc_ok_reg ? R_ICRC : post_kind;
wire       c_data = c_valid_reg && reason == R_OK && !c_ack_reg;
wire       c_ack = c_valid_reg && reason == R_OK && c_ack_reg;

reg [DD_W-1:0]  dd_mem [0:DESC_DEPTH-1];
reg [LEN_W-1:0] dlen_mem [0:DESC_DEPTH-1];
reg [IBW+KL:0]  drd_mem [0:DESC_DEPTH-1];
reg [AD_W-1:0]  ad_mem [0:DESC_DEPTH-1];
// c_ad_reg holds the BTH PSN; the cumulative PSN written is PSN + 1 for an ACK, PSN for a NAK
wire [23:0]     c_ad_psn = c_ad_reg[AD_W-CONN_W-1 -: 24];
wire [AD_W-1:0] c_ad_w = {c_ad_reg[AD_W-1 -: CONN_W], c_ad_reg[81] ? c_ad_psn : c_ad_psn + 24'd1,
    c_ad_reg[AD_W-CONN_W-25:0]};

always @(posedge clk) begin
    if (c_data) begin
        dd_mem[dwr_reg[DAW-1:0]] <= c_dd_reg;
        dlen_mem[dwr_reg[DAW-1:0]] <= c_len_reg;
        drd_mem[dwr_reg[DAW-1:0]] <= c_rd_reg;
    end
    if (c_ack) begin
        ad_mem[awr_reg[DAW-1:0]] <= c_ad_w;
    end
end

always @(posedge clk) begin
    if (ic_m_valid) begin
        icrc_ok_reg <= ic_m_ok;
    end
    if (c_valid_reg) begin
        case (reason)
            R_NOTROCE: begin
                cnt_not_roce <= inc32(cnt_not_roce, cnt_lf_reg[2]);
                cnt_lf_reg[2] <= cnt_not_roce[3:0] == 4'd14;
            end
            R_TRUNC: begin
                cnt_truncated <= inc32(cnt_truncated, cnt_lf_reg[3]);
                cnt_lf_reg[3] <= cnt_truncated[3:0] == 4'd14;
            end
            R_INVALID: begin
                cnt_invalid <= inc32(cnt_invalid, cnt_lf_reg[4]);
                cnt_lf_reg[4] <= cnt_invalid[3:0] == 4'd14;
            end
            R_OPCODE: begin
                cnt_unknown_opcode <= inc32(cnt_unknown_opcode, cnt_lf_reg[5]);
                cnt_lf_reg[5] <= cnt_unknown_opcode[3:0] == 4'd14;
            end
            R_ICRC: begin
                cnt_bad_icrc <= inc32(cnt_bad_icrc, cnt_lf_reg[6]);
                cnt_lf_reg[6] <= cnt_bad_icrc[3:0] == 4'd14;
            end
            R_LIMIT: begin
                cnt_limit <= inc32(cnt_limit, cnt_lf_reg[7]);
                cnt_lf_reg[7] <= cnt_limit[3:0] == 4'd14;
            end
            R_MAC: begin
                cnt_mac_error <= inc32(cnt_mac_error, cnt_lf_reg[8]);
                cnt_lf_reg[8] <= cnt_mac_error[3:0] == 4'd14;
            end
            default: begin
                if (c_ack_reg) begin
                    cnt_ack <= inc32(cnt_ack, cnt_lf_reg[1]);
                    cnt_lf_reg[1] <= cnt_ack[3:0] == 4'd14;
                end else begin
                    cnt_data <= inc32(cnt_data, cnt_lf_reg[0]);
                    cnt_lf_reg[0] <= cnt_data[3:0] == 4'd14;
                end
            end
        endcase
    end
    if (c_data) begin
        dwr_reg <= dwr_reg + 1'b1;
        wptr_reg <= wptr_reg + {{BAW+1-IBW{1'b0}}, c_words_reg};
    end
    if (c_ack) begin
        awr_reg <= awr_reg + 1'b1;
    end
    // input side
    dl_valid_reg <= {dl_valid_reg[DLY-2:0], in_xfer};
    if (in_xfer) begin
        in_frame_reg <= !s_axis_tlast;
        in_beat_reg <= s_axis_tlast ? {IBW{1'b0}} :
            need_word ? in_beat_reg + 1'b1 : in_beat_reg;
        in_off_reg <= s_axis_tlast ? 17'd0 :
            in_off_reg < OFF_SAT ? in_off_reg + K17 : in_off_reg;
        if (s_axis_tlast) begin
            in_tot_ok_reg <= 1'b0;
        end else if (tot_here) begin
            in_tot_ok_reg <= 1'b1;
            in_endb_reg <= ip_end_m1[16:KL];
            in_endl_reg <= ip_end_m1[KL-1:0];
        end
        ic_done_reg <= !s_axis_tlast && (ic_done_reg || cut);
    end
    start_ok_reg <= ({1'b0, occ_d} + {1'b0, infl_reg} + 1'b1 < DESC_DEPTH) &&
        ({1'b0, occ_a} + {1'b0, infl_reg} + 1'b1 < DESC_DEPTH) && !rst;
    word_ok_reg <= wtotal + 1'b1 < BUF_WORDS_N && !rst;
    infl_reg <= infl_reg + {{DAW{1'b0}}, in_xfer && !in_frame_reg} -
        {{DAW{1'b0}}, c_valid_reg};
    wres_reg <= wres_reg + {{BAW{1'b0}}, in_xfer && need_word} -
        (c_valid_reg ? {{BAW+1-IBW{1'b0}}, c_res_reg} : {BAW+1{1'b0}});
    // descriptor outputs
    if (m_rx_valid && m_rx_ready) begin
        drd_reg <= drd_reg + 1'b1;
    end
    if (m_ack_valid && m_ack_ready) begin
        ard_reg <= ard_reg + 1'b1;
    end
    if (rst) begin
        cnt_data <= 32'd0;
        cnt_ack <= 32'd0;
        cnt_not_roce <= 32'd0;
        cnt_truncated <= 32'd0;
        cnt_invalid <= 32'd0;
        cnt_unknown_opcode <= 32'd0;
        cnt_bad_icrc <= 32'd0;
        cnt_limit <= 32'd0;
        cnt_mac_error <= 32'd0;
        cnt_lf_reg <= 9'd0;
        dwr_reg <= {DAW+1{1'b0}};
        awr_reg <= {DAW+1{1'b0}};
        drd_reg <= {DAW+1{1'b0}};
        ard_reg <= {DAW+1{1'b0}};
        wptr_reg <= {BAW+1{1'b0}};
        dl_valid_reg <= {DLY{1'b0}};
        in_frame_reg <= 1'b0;
        in_beat_reg <= {IBW{1'b0}};
        in_off_reg <= 17'd0;
        in_tot_ok_reg <= 1'b0;
        ic_done_reg <= 1'b0;
        infl_reg <= {DAW+1{1'b0}};
        wres_reg <= {BAW+1{1'b0}};
    end
end

assign m_rx_valid = drd_reg != dwr_reg;
assign {m_rx_conn, m_rx_psn, m_rx_path, m_rx_pseq, m_rx_first, m_rx_last, m_rx_ack_req, m_rx_ecn,
    m_rx_handle, m_rx_offset, m_rx_src_mac, m_rx_src_ip} = dd_mem[drd_reg[DAW-1:0]];
assign m_rx_len = dlen_mem[drd_reg[DAW-1:0]];
assign m_ack_valid = ard_reg != awr_reg;
assign {m_ack_conn, m_ack_psn, m_ack_path, m_ack_pseq, m_ack_sack, m_ack_ecn, m_ack_nak,
    m_ack_has_sack, m_ack_src_mac, m_ack_src_ip} = ad_mem[ard_reg[DAW-1:0]];

/*
 * Payload reader: the words of each committed data packet with len > 0, in descriptor order
 */
reg [IBW-1:0]       pw_reg = {IBW{1'b0}};
wire                p_has = prd_reg != dwr_reg;
wire [IBW+KL:0]     p_rd = drd_mem[prd_reg[DAW-1:0]];
wire                p_nz = p_rd[IBW+KL];
wire                p_last = pw_reg == p_rd[KL +: IBW];
wire                p_load = !m_axis_tvalid || m_axis_tready;
wire                p_go = p_load && p_has && p_nz;

always @(posedge clk) begin
    if (p_go) begin
        m_axis_tdata <= buf_mem[rptr_reg[BAW-1:0]];
        m_axis_tlast <= p_last;
        m_axis_tkeep <= p_last ? thermo(p_rd[KL-1:0]) : {K{1'b1}};
    end
    if (p_load) begin
        m_axis_tvalid <= p_go;
    end
    if (p_go) begin
        rptr_reg <= rptr_reg + 1'b1;
        pw_reg <= p_last ? {IBW{1'b0}} : pw_reg + 1'b1;
    end
    if ((p_go && p_last) || (p_has && !p_nz)) begin
        prd_reg <= prd_reg + 1'b1;
    end
    if (rst) begin
        m_axis_tvalid <= 1'b0;
        rptr_reg <= {BAW+1{1'b0}};
        pw_reg <= {IBW{1'b0}};
        prd_reg <= {DAW+1{1'b0}};
    end
end

endmodule

`resetall
