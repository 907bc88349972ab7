// rx_recurrence (rx_recurrence.v) given two cycles: one packet every other cycle, stage A
// classifies and searches (psn == cum, the window check, the first-zero search, all registered),
// stage B updates cum and the bitmap. Measures whether a per-connection issue interval of 2 alone
// brings the recurrence to 100 MHz on the HX8K (docs/fpga.md, "Targets"). A measurement fixture for
// `make fpga-bounds`, not part of the design.
module rx_recurrence_2cycle (
    input  wire clk,
    input  wire din,
    output reg  dout
);
    reg  [23:0] cum, psn, a_psn;
    reg  [31:0] bm;
    reg         phase;                               // 0: stage A, 1: stage B
    reg         a_hit, a_inw;
    reg  [4:0]  a_d;
    reg  [5:0]  a_run;
    wire [23:0] d  = psn - cum;
    wire [5:0]  run;                                  // cum advances by run when the expected
                                                      // PSN arrives
    first_zero_run search (.above(bm[31:1]), .run(run));
    always @(posedge clk) begin
        psn   <= {psn[22:0], din};
        phase <= ~phase;
        if (!phase) begin
            a_hit <= psn == cum;
            a_inw <= d[23:5] == 19'd0;
            a_d   <= d[4:0];
            a_run <= run;
            a_psn <= psn;
        end else if (a_hit) begin
            cum <= a_psn + {18'd0, a_run};
            bm  <= bm >> a_run;
        end else if (a_inw) begin
            bm  <= bm | (32'd1 << a_d);
        end
        dout <= ^{cum, bm};
    end
endmodule
