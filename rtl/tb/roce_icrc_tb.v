// SPDX-License-Identifier: Apache-2.0
/*
 * roce_icrc_tb: self-checking testbench of roce_icrc (simulation only, not a synthesizable top).
 *
 * Drives one line of the beat file per cycle on s_axis and checks every result against the
 * expect file, in frame order. The Go test rtlcheck TestICRC writes both files and reads the
 * summary line this testbench prints last.
 *
 * Beat file (+beats=FILE, $readmemh, CYCLES lines): {valid, last} as one hex digit, then tkeep
 * (DATA_WIDTH/32 digits), then tdata (DATA_WIDTH/4 digits); a line with valid 0 is an idle cycle.
 * Expect file (+expect=FILE, FRAMES lines): ok (1 digit), received ICRC (8), computed ICRC (8).
 *
 * Two instances take the same beats: dut (RX_ICRC 1) and dut_v (RX_ICRC 2, the verdict alone).
 * Checks: m_icrc, m_icrc_rx and m_icrc_ok per frame (dut_v: m_icrc_ok, and m_icrc and m_icrc_rx
 * 0); m_icrc_valid of each exactly when a tlast transfer happened log2(DATA_WIDTH/8)+2 cycles
 * before; s_axis_tready high. A frame counts one mismatch if either instance is wrong. Summary:
 *   roce_icrc_tb: frames F mismatches M latency_errors L ready_errors R
 */

`resetall
`timescale 1ns / 1ps
`default_nettype none

module roce_icrc_tb #(
    // Bus width of the module under test; 64, 128, 256 or 512.
    parameter DATA_WIDTH = 64,
    // Lines of the beat file (cycles driven after reset); >= 1.
    parameter CYCLES = 1,
    // Lines of the expect file (frames); >= 1.
    parameter FRAMES = 1
);

localparam KEEP_WIDTH = DATA_WIDTH / 8;
localparam LATENCY = $clog2(KEEP_WIDTH) + 2;
localparam VW = 4 + KEEP_WIDTH + DATA_WIDTH;

initial begin
    if (CYCLES < 1 || FRAMES < 1) begin
        $error("Error: CYCLES and FRAMES must be >= 1 (instance %m)");
        $finish;
    end
end

reg clk = 1'b0;
reg rst = 1'b1;

reg [VW-1:0] beats [0:CYCLES-1];
reg [67:0] expects [0:FRAMES-1];

reg [DATA_WIDTH-1:0] s_axis_tdata = {DATA_WIDTH{1'b0}};
reg [KEEP_WIDTH-1:0] s_axis_tkeep = {KEEP_WIDTH{1'b0}};
reg s_axis_tvalid = 1'b0;
reg s_axis_tlast = 1'b0;
wire s_axis_tready;
wire m_icrc_valid;
wire [31:0] m_icrc;
wire [31:0] m_icrc_rx;
wire m_icrc_ok;
wire s_axis_tready_v;
wire m_icrc_valid_v;
wire [31:0] m_icrc_v;
wire [31:0] m_icrc_rx_v;
wire m_icrc_ok_v;

roce_icrc #(
    .DATA_WIDTH(DATA_WIDTH)
) dut (
    .clk(clk),
    .rst(rst),
    .s_axis_tdata(s_axis_tdata),
    .s_axis_tkeep(s_axis_tkeep),
    .s_axis_tvalid(s_axis_tvalid),
    .s_axis_tready(s_axis_tready),
    .s_axis_tlast(s_axis_tlast),
    .m_icrc_valid(m_icrc_valid),
    .m_icrc(m_icrc),
    .m_icrc_rx(m_icrc_rx),
    .m_icrc_ok(m_icrc_ok)
);

roce_icrc #(
    .DATA_WIDTH(DATA_WIDTH),
    .RX_ICRC(2)
) dut_v (
    .clk(clk),
    .rst(rst),
    .s_axis_tdata(s_axis_tdata),
    .s_axis_tkeep(s_axis_tkeep),
    .s_axis_tvalid(s_axis_tvalid),
    .s_axis_tready(s_axis_tready_v),
    .s_axis_tlast(s_axis_tlast),
    .m_icrc_valid(m_icrc_valid_v),
    .m_icrc(m_icrc_v),
    .m_icrc_rx(m_icrc_rx_v),
    .m_icrc_ok(m_icrc_ok_v)
);

reg [8*1024-1:0] beats_file;
reg [8*1024-1:0] expect_file;
integer cycle = 0;
integer frames = 0;
integer mismatches = 0;
integer latency_errors = 0;
integer ready_errors = 0;
reg [LATENCY-1:0] last_hist = {LATENCY{1'b0}};

initial begin
    if (!$value$plusargs("beats=%s", beats_file) ||
            !$value$plusargs("expect=%s", expect_file)) begin
        $display("roce_icrc_tb: want +beats=FILE +expect=FILE");
        $finish;
    end
    $readmemh(beats_file, beats);
    $readmemh(expect_file, expects);
end

always #5 clk <= ~clk;

// drive on the falling edge: cycle c (after 4 reset cycles) presents beat line c
always @(negedge clk) begin
    cycle <= cycle + 1;
    rst <= cycle < 3;
    s_axis_tvalid <= 1'b0;
    s_axis_tlast <= 1'b0;
    if (cycle >= 4 && cycle - 4 < CYCLES) begin
        {s_axis_tvalid, s_axis_tlast} <= beats[cycle - 4][VW-3 -: 2];
        s_axis_tkeep <= beats[cycle - 4][DATA_WIDTH +: KEEP_WIDTH];
        s_axis_tdata <= beats[cycle - 4][0 +: DATA_WIDTH];
    end
    if (cycle >= CYCLES + LATENCY + 8) begin
        $display("roce_icrc_tb: frames %0d mismatches %0d latency_errors %0d ready_errors %0d",
                 frames, mismatches, latency_errors, ready_errors);
        $finish;
    end
end

always @(posedge clk) begin
    last_hist <= {last_hist[LATENCY-2:0], s_axis_tvalid && s_axis_tlast && s_axis_tready};
    if (s_axis_tvalid && (!s_axis_tready || !s_axis_tready_v)) begin
        ready_errors <= ready_errors + 1;
    end
    if (!rst && (m_icrc_valid != last_hist[LATENCY-1] ||
                 m_icrc_valid_v != last_hist[LATENCY-1])) begin
        latency_errors <= latency_errors + 1;
        if (latency_errors < 5) begin
            $display("roce_icrc_tb: cycle %0d: m_icrc_valid %0d (dut_v %0d), want %0d", cycle,
                     m_icrc_valid, m_icrc_valid_v, last_hist[LATENCY-1]);
        end
    end
    if (m_icrc_valid) begin
        frames <= frames + 1;
        if (frames >= FRAMES || m_icrc_ok != expects[frames][64] ||
                m_icrc_rx != expects[frames][32 +: 32] || m_icrc != expects[frames][0 +: 32] ||
                m_icrc_ok_v != expects[frames][64] || m_icrc_v != 32'd0 ||
                m_icrc_rx_v != 32'd0) begin
            mismatches <= mismatches + 1;
            if (mismatches < 5) begin
                $display("roce_icrc_tb: frame %0d: icrc %08x rx %08x ok %0d, want %08x %08x %0d",
                         frames, m_icrc, m_icrc_rx, m_icrc_ok, expects[frames][0 +: 32],
                         expects[frames][32 +: 32], expects[frames][64]);
                $display("roce_icrc_tb: frame %0d: dut_v icrc %08x rx %08x ok %0d, want 0 0 %0d",
                         frames, m_icrc_v, m_icrc_rx_v, m_icrc_ok_v, expects[frames][64]);
            end
        end
    end
end

endmodule

`resetall
