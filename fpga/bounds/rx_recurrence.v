// The recurrence of rx_reorder's stage 1 alone, for one connection and WINDOW 32 (the ice40
// preset): every packet sees the cum and bitmap the previous packet left, one packet per cycle.
// Written for speed as rtl/rx_reorder.v does (d == 0 as an equality, the first-zero search on the
// bitmap alone), with nothing else: no connection mux, no RAM, no path state, no ACK, no release. A
// measurement fixture for `make fpga-bounds` (docs/fpga.md, "Targets"), not part of the design: its
// Fmax on the HX8K bounds what the one-cycle contract allows.
module rx_recurrence (
    input  wire clk,
    input  wire din,
    output reg  dout
);
    reg  [23:0] cum, psn;
    reg  [31:0] bm;                                  // bit i: psn cum+i accepted
                                                     // (bit 0 always clear)
    wire [23:0] d   = psn - cum;
    wire        hit = psn == cum;                     // the expected packet
    wire        inw = d[23:5] == 19'd0;               // 0 < d < 32 when !hit
    wire [5:0]  run;                                  // cum advances by run when the expected
                                                      // PSN arrives
    first_zero_run search (.above(bm[31:1]), .run(run));
    always @(posedge clk) begin
        psn <= {psn[22:0], din};                     // a new PSN every cycle
        if (hit) begin
            cum <= psn + {18'd0, run};
            bm  <= bm >> run;
        end else if (inw) begin
            bm  <= bm | (32'd1 << d[4:0]);
        end
        dout <= ^{cum, bm};
    end
endmodule
