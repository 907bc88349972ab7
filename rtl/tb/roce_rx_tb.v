// SPDX-License-Identifier: Apache-2.0
/*
 * roce_rx_tb: dumping testbench of roce_rx (simulation only, not a synthesizable top).
 *
 * Drives the beat file on s_axis, one line per cycle in which the line moves (an idle line moves
 * every cycle, a beat when s_axis_tready is high), drives m_axis_tready, m_rx_ready and m_ack_ready
 * low at random (+bp=P percent of cycles, +seed=S) and writes every output transfer to the out
 * file. The Go test rtlcheck TestRoCERX writes the beat file and compares the out file with
 * system/roce Limits.Parse frame by frame.
 *
 * Beat file (+beats=FILE, $readmemh, +lines=N lines, at most CYCLES): {valid, last, user} as
 * one hex digit, then tkeep (DATA_WIDTH/32 digits), then tdata (DATA_WIDTH/4 digits); valid 0
 * is an idle cycle.
 * Out file (+out=FILE), one line per transfer, cycle first (hex fields):
 *   S cycle                                   first beat of a frame accepted
 *   D cycle conn psn path pseq first last ack_req ecn handle offset len src_mac src_ip
 *   A cycle conn psn path pseq sack ecn nak has_sack src_mac src_ip
 *   P cycle last keep data
 *   X first_cycle last_cycle beats counters x9 (data ack not_roce truncated invalid
 *     unknown_opcode bad_icrc limit mac_error), written once all +frames=N frames are counted
 *     and the outputs are idle.
 */

`resetall
`timescale 1ns / 1ps
`default_nettype none

module roce_rx_tb #(
    parameter DATA_WIDTH = 64,
    parameter CONNS = 16,
    parameter PATHS = 8,
    parameter QPN_BASE = 256,
    parameter MTU = 4096,
    parameter SACK_BITS = 64,
    parameter PSEQ_WIDTH = 16,
    parameter HANDLE_WIDTH = 16,
    // Size of the beat memory, lines; >= every beat file's lines.
    parameter CYCLES = 1
);

localparam K = DATA_WIDTH / 8;
localparam VW = 4 + K + DATA_WIDTH;
localparam LEN_W = $clog2(MTU + 1);

reg clk = 1'b0;
reg rst = 1'b1;
reg [VW-1:0] beats [0:CYCLES-1];

wire [DATA_WIDTH-1:0] s_axis_tdata;
wire [K-1:0] s_axis_tkeep;
wire s_axis_tvalid, s_axis_tlast, s_axis_tuser;
wire s_axis_tready;
wire [DATA_WIDTH-1:0] m_axis_tdata;
wire [K-1:0] m_axis_tkeep;
wire m_axis_tvalid, m_axis_tlast;
reg m_axis_tready = 1'b0;
wire m_rx_valid;
reg m_rx_ready = 1'b0;
wire [$clog2(CONNS)-1:0] m_rx_conn;
wire [23:0] m_rx_psn;
wire [$clog2(PATHS)-1:0] m_rx_path;
wire [PSEQ_WIDTH-1:0] m_rx_pseq;
wire m_rx_first, m_rx_last, m_rx_ack_req, m_rx_ecn;
wire [HANDLE_WIDTH-1:0] m_rx_handle;
wire [31:0] m_rx_offset;
wire [LEN_W-1:0] m_rx_len;
wire [47:0] m_rx_src_mac;
wire [31:0] m_rx_src_ip;
wire m_ack_valid;
reg m_ack_ready = 1'b0;
wire [$clog2(CONNS)-1:0] m_ack_conn;
wire [23:0] m_ack_psn;
wire [$clog2(PATHS)-1:0] m_ack_path;
wire [PSEQ_WIDTH-1:0] m_ack_pseq;
wire [SACK_BITS-1:0] m_ack_sack;
wire m_ack_ecn, m_ack_nak, m_ack_has_sack;
wire [47:0] m_ack_src_mac;
wire [31:0] m_ack_src_ip;
wire [31:0] cnt [0:8];

roce_rx #(
    .DATA_WIDTH(DATA_WIDTH),
    .CONNS(CONNS),
    .PATHS(PATHS),
    .QPN_BASE(QPN_BASE),
    .MTU(MTU),
    .SACK_BITS(SACK_BITS),
    .PSEQ_WIDTH(PSEQ_WIDTH),
    .HANDLE_WIDTH(HANDLE_WIDTH)
) dut (
    .clk(clk),
    .rst(rst),
    .s_axis_tdata(s_axis_tdata),
    .s_axis_tkeep(s_axis_tkeep),
    .s_axis_tvalid(s_axis_tvalid),
    .s_axis_tready(s_axis_tready),
    .s_axis_tlast(s_axis_tlast),
    .s_axis_tuser(s_axis_tuser),
    .m_axis_tdata(m_axis_tdata),
    .m_axis_tkeep(m_axis_tkeep),
    .m_axis_tvalid(m_axis_tvalid),
    .m_axis_tready(m_axis_tready),
    .m_axis_tlast(m_axis_tlast),
    .m_rx_valid(m_rx_valid),
    .m_rx_ready(m_rx_ready),
    .m_rx_conn(m_rx_conn),
    .m_rx_psn(m_rx_psn),
    .m_rx_path(m_rx_path),
    .m_rx_pseq(m_rx_pseq),
    .m_rx_first(m_rx_first),
    .m_rx_last(m_rx_last),
    .m_rx_ack_req(m_rx_ack_req),
    .m_rx_ecn(m_rx_ecn),
    .m_rx_handle(m_rx_handle),
    .m_rx_offset(m_rx_offset),
    .m_rx_len(m_rx_len),
    .m_rx_src_mac(m_rx_src_mac),
    .m_rx_src_ip(m_rx_src_ip),
    .m_ack_valid(m_ack_valid),
    .m_ack_ready(m_ack_ready),
    .m_ack_conn(m_ack_conn),
    .m_ack_psn(m_ack_psn),
    .m_ack_path(m_ack_path),
    .m_ack_pseq(m_ack_pseq),
    .m_ack_sack(m_ack_sack),
    .m_ack_ecn(m_ack_ecn),
    .m_ack_nak(m_ack_nak),
    .m_ack_has_sack(m_ack_has_sack),
    .m_ack_src_mac(m_ack_src_mac),
    .m_ack_src_ip(m_ack_src_ip),
    .cnt_data(cnt[0]),
    .cnt_ack(cnt[1]),
    .cnt_not_roce(cnt[2]),
    .cnt_truncated(cnt[3]),
    .cnt_invalid(cnt[4]),
    .cnt_unknown_opcode(cnt[5]),
    .cnt_bad_icrc(cnt[6]),
    .cnt_limit(cnt[7]),
    .cnt_mac_error(cnt[8])
);

reg [8*1024-1:0] beats_file;
reg [8*1024-1:0] out_file;
integer fd;
integer bp = 0;
integer seed = 1;
integer line = 0;
integer cycle = 0;
integer first_cycle = -1;
integer last_cycle = 0;
integer nbeats = 0;
integer idle = 0;
integer lines = CYCLES;
integer frames = 1;
reg in_frame = 1'b0;
reg [31:0] rnd = 32'h1;

initial begin
    if (!$value$plusargs("beats=%s", beats_file) || !$value$plusargs("out=%s", out_file)) begin
        $display("roce_rx_tb: want +beats=FILE +out=FILE [+bp=P] [+seed=S]");
        $finish;
    end
    if (!$value$plusargs("lines=%d", lines) || !$value$plusargs("frames=%d", frames)) begin
        $display("roce_rx_tb: want +lines=N +frames=N");
        $finish;
    end
    if (!$value$plusargs("bp=%d", bp)) begin
        bp = 0;
    end
    if ($value$plusargs("seed=%d", seed)) begin
        rnd = seed;
    end
    if (rnd == 32'd0) begin
        rnd = 32'h1;
    end
    $readmemh(beats_file, beats);
    fd = $fopen(out_file, "w");
end

always #5 clk <= ~clk;

wire [VW-1:0] cur = line < lines ? beats[line] : {VW{1'b0}};
assign s_axis_tvalid = !rst && line < lines && cur[VW-2];
assign s_axis_tlast = cur[VW-3];
assign s_axis_tuser = cur[VW-4];
assign s_axis_tkeep = cur[DATA_WIDTH +: K];
assign s_axis_tdata = cur[0 +: DATA_WIDTH];

function [31:0] xorshift;
    input [31:0] x;
    reg [31:0] y;
    begin
        y = x ^ (x << 13);
        y = y ^ (y >> 17);
        xorshift = y ^ (y << 5);
    end
endfunction

function integer pct;
    input [31:0] x;
    begin
        pct = x % 100;
    end
endfunction

wire [31:0] counted = cnt[0] + cnt[1] + cnt[2] + cnt[3] + cnt[4] + cnt[5] + cnt[6] + cnt[7] +
    cnt[8];
// the counters' values of the cycle before: every change is written as "C cycle index value"
reg [31:0] cnt_seen [0:8];
integer ci;
initial begin
    for (ci = 0; ci < 9; ci = ci + 1) begin
        cnt_seen[ci] = 32'd0;
    end
end

always @(posedge clk) begin
    for (ci = 0; ci < 9; ci = ci + 1) begin
        if (cnt[ci] != cnt_seen[ci]) begin
            $fwrite(fd, "C %0x %0x %0x\n", cycle, ci, cnt[ci]);
        end
        cnt_seen[ci] <= cnt[ci];
    end
end

always @(posedge clk) begin
    cycle <= cycle + 1;
    if (cycle == 4) begin
        rst <= 1'b0;
    end
    if (!rst && line < lines && (!cur[VW-2] || s_axis_tready)) begin
        line <= line + 1;
    end
    if (s_axis_tvalid && s_axis_tready) begin
        if (first_cycle < 0) begin
            first_cycle <= cycle;
        end
        last_cycle <= cycle;
        nbeats <= nbeats + 1;
        in_frame <= !s_axis_tlast;
        if (!in_frame) begin
            $fwrite(fd, "S %0x\n", cycle);
        end
    end
    if (m_rx_valid && m_rx_ready) begin
        $fwrite(fd, "D %0x %0x %0x %0x %0x %0x %0x %0x %0x %0x %0x %0x %0x %0x\n", cycle,
            m_rx_conn, m_rx_psn, m_rx_path, m_rx_pseq, m_rx_first, m_rx_last, m_rx_ack_req,
            m_rx_ecn, m_rx_handle, m_rx_offset, m_rx_len, m_rx_src_mac, m_rx_src_ip);
    end
    if (m_ack_valid && m_ack_ready) begin
        $fwrite(fd, "A %0x %0x %0x %0x %0x %0x %0x %0x %0x %0x %0x\n", cycle, m_ack_conn,
            m_ack_psn, m_ack_path, m_ack_pseq, m_ack_sack, m_ack_ecn, m_ack_nak, m_ack_has_sack,
            m_ack_src_mac, m_ack_src_ip);
    end
    if (m_axis_tvalid && m_axis_tready) begin
        $fwrite(fd, "P %0x %0x %x %x\n", cycle, m_axis_tlast, m_axis_tkeep, m_axis_tdata);
    end
    rnd <= xorshift(xorshift(xorshift(rnd)));
    m_axis_tready <= pct(rnd) >= bp;
    m_rx_ready <= pct(xorshift(rnd)) >= bp;
    m_ack_ready <= pct(xorshift(xorshift(rnd))) >= bp;
    if (line >= lines && counted == frames && !m_rx_valid && !m_ack_valid && !m_axis_tvalid) begin
        idle <= idle + 1;
    end else begin
        idle <= 0;
    end
    if (idle == 20 || cycle > 40 * lines + 100000) begin
        $fwrite(fd, "X %0x %0x %0x %0x %0x %0x %0x %0x %0x %0x %0x %0x\n", first_cycle, last_cycle,
            nbeats, cnt[0], cnt[1], cnt[2], cnt[3], cnt[4], cnt[5], cnt[6], cnt[7], cnt[8]);
        $fclose(fd);
        $finish;
    end
end

endmodule

`resetall
