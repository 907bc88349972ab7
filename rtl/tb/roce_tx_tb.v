// SPDX-License-Identifier: Apache-2.0
/*
 * roce_tx_tb: testbench of roce_tx (simulation only, not a synthesizable top).
 *
 * Presents the data descriptors, payload beats, ACK descriptors and table writes of the stimulus
 * files, with random idle cycles on the inputs and random back-pressure on m_axis, and logs every
 * transfer; the Go test rtlcheck TestRoCETX writes the stimulus and compares the logged frames
 * with roce.BuildData / roce.BuildAck.
 *
 * Stimulus ($readmemh, one record per line, fields big-endian hex, most significant first):
 *   +pkt=FILE  data descriptors: epoch 16, conn 16, psn 24, path 8, pseq 24, entropy 16,
 *              handle 32, flags 4 (first, last, ack_req), offset 32, len 16
 *   +ack=FILE  ACK descriptors: epoch 16, conn 16, psn 24, path 8, pseq 24, entropy 16,
 *              flags 4 (ecn, nak), sack 256
 *   +tbl=FILE  table writes: epoch 16, conn 16, mac 48, ip 32, qpn 24, dscp 8, ttl 8, and the
 *              local mac 48, ip 32 set with it
 *   +pay=FILE  payload beats: tuser 4 (nonzero: poison), then DATA_WIDTH bits, lane 0 last on the
 *              line; while no beat is presented, s_pay_tuser holds random junk (must be ignored)
 *   +npkt=N +nack=N +ntbl=N +npay=N  record counts
 *   +gap=P     percent of cycles an input holds back its next transfer; +bp=P percent of cycles
 *              m_axis_tready is low; +seed=S; +serial=1 presents a descriptor only when every
 *              frame accepted so far has left
 * Epochs: the table writes of epoch e happen once every descriptor of an earlier epoch has been
 * accepted; a descriptor of epoch e is presented once every write of epochs <= e is done.
 *
 * Log (+log=FILE): "D c" data and "A c" ACK descriptor accepted in cycle c, "P c" payload beat
 * accepted, "O c last tkeep tdata" output beat, then "S cycles C xerr X gaps G" with X the
 * m_axis protocol errors (a stalled beat that changed or vanished) and G the cycles without a
 * beat inside a frame. The run ends when every record has been presented and every frame has
 * left, or 100000 cycles after the last transfer of any kind.
 */

`resetall
`timescale 1ns / 1ps
`default_nettype none

module roce_tx_tb #(
    parameter DATA_WIDTH = 64,
    parameter CONNS = 16,
    parameter PATHS = 8,
    parameter SACK_BITS = 64,
    parameter PSEQ_WIDTH = 16,
    parameter HANDLE_WIDTH = 16,
    parameter MTU = 4096,
    // record capacities
    parameter MAXPKT = 4096,
    parameter MAXACK = 4096,
    parameter MAXTBL = 1024,
    parameter MAXPAY = 65536
);

localparam KW = DATA_WIDTH / 8;
localparam CW = $clog2(CONNS);
localparam PW = $clog2(PATHS);
localparam LW = $clog2(MTU + 1);

reg clk = 1'b0;
reg rst = 1'b1;

reg [187:0] pkts [0:MAXPKT-1];
reg [363:0] acks [0:MAXACK-1];
reg [231:0] tbls [0:MAXTBL-1];
reg [DATA_WIDTH+3:0] pays [0:MAXPAY-1];

integer npkt = 0, nack = 0, ntbl = 0, npay = 0;
integer gap = 0, bp = 0, serial = 0;
reg [31:0] seed = 32'd1;
reg [8*1024-1:0] fname;
integer logf;

reg s_pkt_valid = 1'b0;
wire s_pkt_ready;
reg [187:0] pkt_cur = 188'd0;
reg [DATA_WIDTH-1:0] s_pay_tdata = {DATA_WIDTH{1'b0}};
reg s_pay_tvalid = 1'b0;
reg s_pay_tuser = 1'b0;
wire s_pay_tready;
reg s_ack_valid = 1'b0;
wire s_ack_ready;
reg [363:0] ack_cur = 364'd0;
reg tbl_wr_en = 1'b0;
reg [231:0] tbl_cur = 232'd0;
wire [DATA_WIDTH-1:0] m_axis_tdata;
wire [KW-1:0] m_axis_tkeep;
wire m_axis_tvalid;
reg m_axis_tready = 1'b0;
wire m_axis_tlast;

roce_tx #(
    .DATA_WIDTH(DATA_WIDTH),
    .CONNS(CONNS),
    .PATHS(PATHS),
    .SACK_BITS(SACK_BITS),
    .PSEQ_WIDTH(PSEQ_WIDTH),
    .HANDLE_WIDTH(HANDLE_WIDTH),
    .PSN_WIDTH(24),
    .MTU(MTU)
) dut (
    .clk(clk),
    .rst(rst),
    .s_pkt_valid(s_pkt_valid),
    .s_pkt_ready(s_pkt_ready),
    .s_pkt_conn(pkt_cur[156 +: CW]),
    .s_pkt_psn(pkt_cur[155:132]),
    .s_pkt_path(pkt_cur[124 +: PW]),
    .s_pkt_pseq(pkt_cur[100 +: PSEQ_WIDTH]),
    .s_pkt_entropy(pkt_cur[99:84]),
    .s_pkt_handle(pkt_cur[52 +: HANDLE_WIDTH]),
    .s_pkt_first(pkt_cur[50]),
    .s_pkt_last(pkt_cur[49]),
    .s_pkt_ack_req(pkt_cur[48]),
    .s_pkt_offset(pkt_cur[47:16]),
    .s_pkt_len(pkt_cur[LW-1:0]),
    .s_pay_tdata(s_pay_tdata),
    .s_pay_tkeep({KW{1'b1}}),
    .s_pay_tvalid(s_pay_tvalid),
    .s_pay_tready(s_pay_tready),
    .s_pay_tlast(1'b0),
    .s_pay_tuser(s_pay_tuser),
    .s_ack_valid(s_ack_valid),
    .s_ack_ready(s_ack_ready),
    .s_ack_conn(ack_cur[332 +: CW]),
    .s_ack_psn(ack_cur[331:308]),
    .s_ack_path(ack_cur[300 +: PW]),
    .s_ack_pseq(ack_cur[276 +: PSEQ_WIDTH]),
    .s_ack_sack(ack_cur[SACK_BITS-1:0]),
    .s_ack_ecn(ack_cur[257]),
    .s_ack_nak(ack_cur[256]),
    .s_ack_entropy(ack_cur[275:260]),
    .tbl_wr_en(tbl_wr_en),
    .tbl_wr_conn(tbl_cur[200 +: CW]),
    .tbl_wr_mac(tbl_cur[199:152]),
    .tbl_wr_ip(tbl_cur[151:120]),
    .tbl_wr_qpn(tbl_cur[119:96]),
    .tbl_wr_dscp(tbl_cur[93:88]),
    .tbl_wr_ttl(tbl_cur[87:80]),
    .cfg_mac(tbl_cur[79:32]),
    .cfg_ip(tbl_cur[31:0]),
    .m_axis_tdata(m_axis_tdata),
    .m_axis_tkeep(m_axis_tkeep),
    .m_axis_tvalid(m_axis_tvalid),
    .m_axis_tready(m_axis_tready),
    .m_axis_tlast(m_axis_tlast)
);

initial begin
    if (!$value$plusargs("log=%s", fname)) begin
        $display("roce_tx_tb: want +log=FILE");
        $finish;
    end
    logf = $fopen(fname, "w");
    if ($value$plusargs("npkt=%d", npkt) && npkt > 0 && $value$plusargs("pkt=%s", fname)) begin
        $readmemh(fname, pkts, 0, npkt - 1);
    end
    if ($value$plusargs("nack=%d", nack) && nack > 0 && $value$plusargs("ack=%s", fname)) begin
        $readmemh(fname, acks, 0, nack - 1);
    end
    if ($value$plusargs("ntbl=%d", ntbl) && ntbl > 0 && $value$plusargs("tbl=%s", fname)) begin
        $readmemh(fname, tbls, 0, ntbl - 1);
    end
    if ($value$plusargs("npay=%d", npay) && npay > 0 && $value$plusargs("pay=%s", fname)) begin
        $readmemh(fname, pays, 0, npay - 1);
    end
    if ($value$plusargs("gap=%d", gap)) begin end
    if ($value$plusargs("bp=%d", bp)) begin end
    if ($value$plusargs("serial=%d", serial)) begin end
    if ($value$plusargs("seed=%d", seed)) begin end
    if (seed == 0) seed = 1;
end

always #5 clk <= ~clk;

// xorshift32 per source
reg [31:0] r_pkt, r_ack, r_pay, r_out;
function [31:0] xs;
    input [31:0] x;
    reg [31:0] y;
    begin
        y = x ^ (x << 13);
        y = y ^ (y >> 17);
        xs = y ^ (y << 5);
    end
endfunction
function go;
    input [31:0] x;
    input integer pct;
    begin
        go = (x % 100) >= pct;
    end
endfunction

integer cycle = 0;
integer di = 0, ai = 0, ti = 0, pi = 0;
integer frames_out = 0;
integer last_xfer = 0;
integer xerr = 0, gaps = 0;
integer pkt_shown = -1, ack_shown = -1, pay_shown = -1;
reg in_frame = 1'b0;
reg stalled = 1'b0;
reg [DATA_WIDTH+KW:0] stall_beat;
reg done = 1'b0;

wire idle = (di + ai == frames_out);
wire [15:0] we = ti < ntbl ? tbls[ti][231:216] : 16'hFFFF;
wire pkt_ep_ok = di < npkt && pkts[di][187:172] < we;
wire ack_ep_ok = ai < nack && acks[ai][363:348] < we;
wire tbl_ok = ti < ntbl && (di >= npkt || pkts[di][187:172] >= we) &&
              (ai >= nack || acks[ai][363:348] >= we);

always @(negedge clk) begin
    cycle <= cycle + 1;
    rst <= cycle < 4;
    if (cycle == 0) begin
        r_pkt <= seed ^ 32'h1234567;
        r_ack <= seed ^ 32'h89abcdef;
        r_pay <= seed ^ 32'h55aa55aa;
        r_out <= seed ^ 32'h0f0f0f0f;
    end else begin
        r_pkt <= xs(r_pkt);
        r_ack <= xs(r_ack);
        r_pay <= xs(r_pay);
        r_out <= xs(r_out);
    end
    tbl_wr_en <= 1'b0;
    if (cycle >= 6) begin
        m_axis_tready <= go(r_out, bp);
        if (tbl_ok && !tbl_wr_en) begin
            tbl_wr_en <= 1'b1;
            tbl_cur <= tbls[ti];
        end
        if (!s_pkt_valid || di != pkt_shown) begin
            pkt_shown <= di;
            s_pkt_valid <= pkt_ep_ok && go(r_pkt, gap) && (serial == 0 || (idle && !s_ack_valid));
            pkt_cur <= pkts[di];
        end
        if (!s_ack_valid || ai != ack_shown) begin
            ack_shown <= ai;
            s_ack_valid <= ack_ep_ok && go(r_ack, gap) &&
                           (serial == 0 || (idle && di >= npkt && !s_pkt_valid));
            ack_cur <= acks[ai];
        end
        if (!s_pay_tvalid || pi != pay_shown) begin
            pay_shown <= pi;
            s_pay_tvalid <= pi < npay && go(r_pay, gap);
            s_pay_tdata <= pays[pi][DATA_WIDTH-1:0];
            s_pay_tuser <= pi < npay && go(r_pay, gap) ? |pays[pi][DATA_WIDTH+3:DATA_WIDTH]
                                                       : r_pay[16];
        end
    end
    // watchdog: a lost frame or a stuck input ends the run (the frame count then fails the test)
    if (done || cycle - last_xfer > 100000) begin
        $fwrite(logf, "S cycles %0d xerr %0d gaps %0d\n", cycle, xerr, gaps);
        $fclose(logf);
        $display("roce_tx_tb: cycles %0d frames %0d xerr %0d gaps %0d", cycle, frames_out, xerr,
                 gaps);
        $finish;
    end
end

always @(posedge clk) begin
    if (tbl_wr_en) begin
        ti <= ti + 1;
    end
    if (s_pkt_valid && s_pkt_ready) begin
        di <= di + 1;
        $fwrite(logf, "D %0d\n", cycle);
    end
    if (s_ack_valid && s_ack_ready) begin
        ai <= ai + 1;
        $fwrite(logf, "A %0d\n", cycle);
    end
    if (s_pay_tvalid && s_pay_tready) begin
        pi <= pi + 1;
        $fwrite(logf, "P %0d\n", cycle);
    end
    if (stalled && (!m_axis_tvalid ||
            {m_axis_tlast, m_axis_tkeep, m_axis_tdata} != stall_beat)) begin
        xerr <= xerr + 1;
    end
    stalled <= m_axis_tvalid && !m_axis_tready;
    stall_beat <= {m_axis_tlast, m_axis_tkeep, m_axis_tdata};
    if (in_frame && !m_axis_tvalid) begin
        gaps <= gaps + 1;
        if (gaps < 5) begin
            $display("roce_tx_tb: cycle %0d: no beat inside frame %0d", cycle, frames_out);
        end
    end
    if ((m_axis_tvalid && m_axis_tready) || tbl_wr_en || (s_pkt_valid && s_pkt_ready) ||
            (s_ack_valid && s_ack_ready) || (s_pay_tvalid && s_pay_tready)) begin
        last_xfer <= cycle;
    end
    if (m_axis_tvalid && m_axis_tready) begin
        $fwrite(logf, "O %0d %0d %h %h\n", cycle, m_axis_tlast, m_axis_tkeep, m_axis_tdata);
        in_frame <= !m_axis_tlast;
        if (m_axis_tlast) begin
            frames_out <= frames_out + 1;
        end
    end
    done <= !rst && di >= npkt && ai >= nack && pi >= npay && frames_out == npkt + nack &&
            cycle > 10;
end

endmodule

`resetall
