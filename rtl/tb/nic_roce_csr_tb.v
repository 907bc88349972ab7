// SPDX-License-Identifier: Apache-2.0
/*
 * nic_roce_csr_tb: replays per-cycle inputs of nic_roce_csr and logs its outputs every cycle.
 *
 * +in=FILE: one line per cycle, hex: rst awvalid awaddr wvalid wdata wstrb bready arvalid araddr
 *   rready err_valid err_conn ev_set cnt_we cnt_idx cnt_val info_we info_idx info_val
 *   path_status path_entropy path_counts (cnt_we/info_we write one word of cnt_in/conn_info).
 * +out=FILE: one line per cycle, the outputs before that cycle's edge (rtlcheck compares them
 *   with the Go twin golden/nicrocecsr).
 */

`timescale 1ns / 1ps
`default_nettype none

module nic_roce_csr_tb #(
    parameter CONNS = 16,
    parameter PATHS = 8,
    parameter MTU = 1024,
    parameter DATA_WIDTH = 64
) ();

`include "nic_roce_regs.vh"

localparam CONN_W = $clog2(CONNS);
localparam PATH_W = $clog2(PATHS);
localparam NCNT = (NR_CNT_DMA_WR_ERROR_ADDR - NR_CNT_SENT_ADDR) / 4 + 1;

reg clk = 1'b0;
reg rst = 1'b1;
reg awvalid = 1'b0, wvalid = 1'b0, bready = 1'b0, arvalid = 1'b0, rready = 1'b0;
reg [15:0] awaddr = 16'd0, araddr = 16'd0;
reg [31:0] wdata = 32'd0;
reg [3:0] wstrb = 4'd0, ev_set = 4'd0;
reg err_valid = 1'b0;
reg [CONN_W-1:0] err_conn = {CONN_W{1'b0}};
reg [32*NCNT-1:0] cnt_in = {32*NCNT{1'b0}};
reg [32*CONNS-1:0] conn_info = {32*CONNS{1'b0}};
reg [31:0] path_status = 32'd0, path_counts = 32'd0;
reg [15:0] path_entropy = 16'd0;

wire awready, wready, bvalid, arready, rvalid, enable, cmd_valid, cmd_open, mac_check;
wire cnt_clear, irq;
wire [1:0] bresp, rresp;
wire [31:0] rdata, ip, peer_ip;
wire [47:0] mac, peer_mac;
wire [5:0] dscp;
wire [7:0] ttl;
wire [CONN_W-1:0] cmd_conn, path_conn;
wire [PATH_W-1:0] path_path;
wire [23:0] peer_qpn, tx_psn, rx_psn;
wire [2*CONNS-1:0] conn_state;

nic_roce_csr #(.CONNS(CONNS), .PATHS(PATHS), .MTU(MTU), .DATA_WIDTH(DATA_WIDTH)) dut (
    .clk(clk), .rst(rst),
    .s_axil_awaddr(awaddr), .s_axil_awprot(3'd0), .s_axil_awvalid(awvalid),
    .s_axil_awready(awready), .s_axil_wdata(wdata), .s_axil_wstrb(wstrb), .s_axil_wvalid(wvalid),
    .s_axil_wready(wready), .s_axil_bresp(bresp), .s_axil_bvalid(bvalid), .s_axil_bready(bready),
    .s_axil_araddr(araddr), .s_axil_arprot(3'd0), .s_axil_arvalid(arvalid),
    .s_axil_arready(arready), .s_axil_rdata(rdata), .s_axil_rresp(rresp), .s_axil_rvalid(rvalid),
    .s_axil_rready(rready),
    .cfg_enable(enable), .cfg_local_mac(mac), .cfg_local_ip(ip), .cfg_dscp(dscp), .cfg_ttl(ttl),
    .cmd_valid(cmd_valid), .cmd_open(cmd_open), .cmd_conn(cmd_conn), .cmd_peer_mac(peer_mac),
    .cmd_mac_check(mac_check), .cmd_peer_ip(peer_ip), .cmd_peer_qpn(peer_qpn),
    .cmd_tx_psn(tx_psn), .cmd_rx_psn(rx_psn),
    .conn_state(conn_state), .conn_err_valid(err_valid), .conn_err_conn(err_conn),
    .conn_info(conn_info), .cnt_in(cnt_in), .cnt_clear(cnt_clear),
    .path_conn(path_conn), .path_path(path_path), .path_status(path_status),
    .path_entropy(path_entropy), .path_counts(path_counts), .ev_set(ev_set), .irq(irq)
);

integer fi, fo, n, cycles = 0;
reg [31:0] v_rst, v_awv, v_wv, v_br, v_arv, v_rr, v_errv, v_errc, v_ev_set;
reg [31:0] v_cwe, v_cidx, v_cval, v_iwe, v_iidx, v_ival;
reg [31:0] v_awa, v_wd, v_ws, v_ara, v_ps, v_pe, v_pc;
reg [1023:0] in_file, out_file;

initial begin
    if (!$value$plusargs("in=%s", in_file) || !$value$plusargs("out=%s", out_file)) begin
        $display("usage: +in=FILE +out=FILE");
        $finish;
    end
    fi = $fopen(in_file, "r");
    fo = $fopen(out_file, "w");
    if (fi == 0 || fo == 0) begin
        $display("cannot open +in or +out");
        $finish;
    end
end

always #5 clk <= ~clk;

always @(negedge clk) begin
    $fwrite(fo, "%h %h %h %h %h %h %h %h %h %h %h %h %h ",
        awready, wready, bvalid, bresp, arready, rvalid, rdata, rresp, enable, mac, ip, dscp, ttl);
    $fwrite(fo, "%h %h %h %h %h %h %h %h %h %h %h %h %h %h\n",
        cmd_valid, cmd_open, cmd_conn, peer_mac, mac_check, peer_ip, peer_qpn, tx_psn, rx_psn,
        conn_state, cnt_clear, path_conn, path_path, irq);
    n = $fscanf(fi, "%h %h %h %h %h %h %h %h %h %h %h %h %h %h %h %h %h %h %h %h %h %h\n",
        v_rst, v_awv, v_awa, v_wv, v_wd, v_ws, v_br, v_arv, v_ara, v_rr, v_errv, v_errc, v_ev_set,
        v_cwe, v_cidx, v_cval, v_iwe, v_iidx, v_ival, v_ps, v_pe, v_pc);
    if (n != 22) begin
        $display("nic_roce_csr_tb: %0d cycles", cycles);
        $fclose(fo);
        $finish;
    end
    cycles = cycles + 1;
    rst = v_rst[0];
    awvalid = v_awv[0];
    awaddr = v_awa[15:0];
    wvalid = v_wv[0];
    wdata = v_wd;
    wstrb = v_ws[3:0];
    bready = v_br[0];
    arvalid = v_arv[0];
    araddr = v_ara[15:0];
    rready = v_rr[0];
    err_valid = v_errv[0];
    err_conn = v_errc[CONN_W-1:0];
    ev_set = v_ev_set[3:0];
    if (v_cwe[0]) cnt_in[32*v_cidx +: 32] = v_cval;
    if (v_iwe[0]) conn_info[32*v_iidx +: 32] = v_ival;
    path_status = v_ps;
    path_entropy = v_pe[15:0];
    path_counts = v_pc;
end

endmodule
