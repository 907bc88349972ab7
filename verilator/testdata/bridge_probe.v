// SPDX-License-Identifier: Apache-2.0
/*
 * bridge_probe: test module of the Verilator <-> Go bridge (cosim/bridge).
 *
 * It has one port of every width class Verilator uses (1, 8, 16, 32, 40 and 100 bits and the
 * parameterised W) so the bridge's packing can be checked end to end:
 *   - comb_*  echo the inputs combinationally: seen in the same cycle as the input;
 *   - reg_*   echo the inputs through one register: seen one cycle later;
 *   - acc     sums in_a into a 32-bit accumulator, cleared by rst. Its next-state block (marked
 *             SPLIT-COVER) assigns two independent variables, which Verilator's always-block
 *             splitting separates; split, the block's line coverage counts once in a whole run
 *             (Verilator 5.006), so TestCoverage checks it counts every cycle (the coverage variant
 *             builds with -fno-split);
 *   - wout    is in_w plus one, W bits wide.
 * A rising clock edge with rst high and in_c = 32'hf1f1f1f1 runs $finish, to test how the bridge
 * reports it; W out of range runs $error and $finish at time 0.
 */

`resetall
`timescale 1ns / 1ps
`default_nettype none

module bridge_probe #(
    // Width of in_w and wout; 1..128.
    parameter W = 12
) (
    input  wire         clk,
    input  wire         rst,

    /*
     * Inputs of every width class
     */
    input  wire         in_bit,
    input  wire [7:0]   in_a,
    input  wire [15:0]  in_b,
    input  wire [31:0]  in_c,
    input  wire [39:0]  in_d,
    input  wire [99:0]  in_e,
    input  wire [W-1:0] in_w,

    /*
     * Combinational echoes
     */
    output wire         comb_bit,
    output wire [7:0]   comb_a,
    output wire [15:0]  comb_b,
    output wire [31:0]  comb_c,
    output wire [39:0]  comb_d,
    output wire [99:0]  comb_e,

    /*
     * Registered echoes and state
     */
    output wire         reg_bit,
    output wire [7:0]   reg_a,
    output wire [15:0]  reg_b,
    output wire [31:0]  reg_c,
    output wire [39:0]  reg_d,
    output wire [99:0]  reg_e,
    output wire [31:0]  acc,
    output wire [W-1:0] wout
);

initial begin
    if (W < 1 || W > 128) begin
        $error("W must be 1..128 (instance %m)");
        $finish;
    end
end

reg         bit_reg = 1'b0;
reg [7:0]   a_reg = 8'd0;
reg [15:0]  b_reg = 16'd0;
reg [31:0]  c_reg = 32'd0;
reg [39:0]  d_reg = 40'd0;
reg [99:0]  e_reg = 100'd0;
reg [31:0]  acc_reg = 32'd0, acc_next;
reg         add_zero;

assign comb_bit = in_bit;
assign comb_a = in_a;
assign comb_b = in_b;
assign comb_c = in_c;
assign comb_d = in_d;
assign comb_e = in_e;

assign reg_bit = bit_reg;
assign reg_a = a_reg;
assign reg_b = b_reg;
assign reg_c = c_reg;
assign reg_d = d_reg;
assign reg_e = e_reg;
assign acc = acc_reg;
assign wout = in_w + {{(W-1){1'b0}}, 1'b1};

always @* begin // SPLIT-COVER
    acc_next = acc_reg;
    add_zero = 1'b1;
    if (in_a != 8'd0) begin
        acc_next = acc_reg + {24'd0, in_a};
        add_zero = 1'b0;
    end
    if (add_zero && in_bit) begin
        acc_next = acc_reg;
    end
end

always @(posedge clk) begin
    bit_reg <= in_bit;
    a_reg <= in_a;
    b_reg <= in_b;
    c_reg <= in_c;
    d_reg <= in_d;
    e_reg <= in_e;
    acc_reg <= acc_next;

    if (rst) begin
        bit_reg <= 1'b0;
        acc_reg <= 32'd0;
    end
end

always @(posedge clk) begin
    if (rst && in_c == 32'hf1f1_f1f1) begin
        $finish;
    end
end

endmodule

`resetall
