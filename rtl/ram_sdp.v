// SPDX-License-Identifier: Apache-2.0
/*
 * ram_sdp: simple dual-port RAM, one synchronous write port and one read port with a registered
 * output (the BRAM read register), both on clk. Inferred, no vendor primitive.
 *
 *   - write: mem[wr_addr] <= wr_data at the clock edge when wr_en is high;
 *   - read:  rd_data <= mem[rd_addr] at the clock edge when rd_en is high; rd_data holds while
 *            rd_en is low.
 *
 * A read of the address written at the same edge returns the old contents (read-first, as the
 * Verilog non-blocking semantics give it). Users of this module never depend on that case:
 * rx_reorder forwards the path RAM and the connection RAM around it and never reads a handle slot
 * in the cycle it is written; retx forwards the tx table and the path map; path_sel forwards the
 * write of its per-path counter RAMs around it.
 * The RAM contents and rd_data are not reset and have no initial value (never used before written).
 */

`resetall
`timescale 1ns / 1ps
`default_nettype none

module ram_sdp #(
    // Address width in bits; 1..24. Depth is 2^ADDR_WIDTH entries.
    parameter ADDR_WIDTH = 8,
    // Data width in bits; 1..2048.
    parameter DATA_WIDTH = 16
) (
    input  wire                  clk,

    /*
     * Write port
     */
    input  wire                  wr_en,
    input  wire [ADDR_WIDTH-1:0] wr_addr,
    input  wire [DATA_WIDTH-1:0] wr_data,

    /*
     * Read port (registered output)
     */
    input  wire                  rd_en,
    input  wire [ADDR_WIDTH-1:0] rd_addr,
    output wire [DATA_WIDTH-1:0] rd_data
);

localparam DEPTH = 2**ADDR_WIDTH;

initial begin
    if (ADDR_WIDTH < 1 || ADDR_WIDTH > 24) begin
        $error("Error: ADDR_WIDTH must be 1..24 (instance %m)");
        $finish;
    end
    if (DATA_WIDTH < 1 || DATA_WIDTH > 2048) begin
        $error("Error: DATA_WIDTH must be 1..2048 (instance %m)");
        $finish;
    end
end

// no_rw_check: the read-during-write result on one address is a don't care for every user (see
// above), so synthesis need not add collision bypass logic around the block RAM (flip-flops and
// LUTs per RAM otherwise).
// ram_style "block": block RAM even when shallow (rx_reorder's connection RAM: CONNS deep,
// 24 + WINDOW wide, so iCE40 spends an EBR per 16 bits of width), where yosys would choose LUTRAM
// or flip-flops; yosys, Vivado read it.
// Toggle coverage leaves the array's contents out (docs/coverage.md "What the numbers mean"): what
// enters and leaves it is covered at wr_data and rd_data.
(* no_rw_check, ram_style = "block" *)
/*verilator coverage_off*/
reg [DATA_WIDTH-1:0] mem [0:DEPTH-1];
/*verilator coverage_on*/
reg [DATA_WIDTH-1:0] rd_data_reg;

assign rd_data = rd_data_reg;

always @(posedge clk) begin
    if (wr_en) begin
        mem[wr_addr] <= wr_data;
    end
    if (rd_en) begin
        rd_data_reg <= mem[rd_addr];
    end
end

`ifdef FORMAL
/*
 * Properties (docs/formal.md, property set ram_sdp). One address, f_addr, chosen freely and held
 * (anyconst), stands for every address: f_data is the last value written there, f_written says a
 * write happened. No assumption: every input sequence is allowed.
 */
(* anyconst *) reg [ADDR_WIDTH-1:0] f_addr;
reg                  f_past_valid = 1'b0;
reg                  f_written = 1'b0;
reg [DATA_WIDTH-1:0] f_data;
// the read of the last edge was at f_addr after a write there, and f_rd_data is what it must return
reg                  f_rd_check = 1'b0;
reg [DATA_WIDTH-1:0] f_rd_data;
// that read was at the edge of a write to f_addr (read-first: it returns the old value)
reg                  f_rd_collide = 1'b0;

always @(posedge clk) begin
    f_past_valid <= 1'b1;
    if (wr_en && wr_addr == f_addr) begin
        f_written <= 1'b1;
        f_data <= wr_data;
    end
    if (rd_en) begin
        f_rd_check <= f_written && rd_addr == f_addr;
        f_rd_data <= f_data;
        f_rd_collide <= wr_en && wr_addr == f_addr;
    end
end

always @* begin
    if (f_written) begin
        // strengthening: the array holds the last value written to f_addr
        ram_holds: assert (mem[f_addr] == f_data);
    end
    if (f_rd_check) begin
        // a read returns the last value written to its address before the read's edge
        ram_read: assert (rd_data == f_rd_data);
    end
    // non-vacuity: a checked read, and a checked read at the edge of a write to its address
    c_ram_read: cover (f_past_valid && f_rd_check);
    c_ram_collide: cover (f_past_valid && f_rd_check && f_rd_collide);
end
`endif

endmodule

`resetall
