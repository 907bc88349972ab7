// A different rx_reorder algorithm's recurrence, for one connection and WINDOW 32: the bitmap is
// absolute (bit = PSN mod WINDOW), an arriving packet only tests and sets its bit (no shift, no
// first-zero search), and cum advances by one PSN per cycle while the bit at cum is set (clearing
// it), as a release engine would. One packet per cycle. Not the spec's behaviour (cum moves over
// several cycles after a hole fills); measures how far a change of algorithm goes on the HX8K
// (docs/fpga.md, "Targets"). A fixture for `make fpga-bounds`, not part of the design.
module rx_recurrence_absolute (
    input  wire clk,
    input  wire din,
    output reg  dout
);
    reg  [23:0] cum, psn;
    reg  [31:0] bm;
    wire [23:0] d    = psn - cum;
    wire        inw  = d < 24'd32;                    // psn in [cum, cum + 32)
    wire        dup  = bm[psn[4:0]];
    wire        adv  = bm[cum[4:0]];
    wire [31:0] setm = (inw && !dup) ? (32'd1 << psn[4:0]) : 32'd0;
    wire [31:0] clrm = adv ? (32'd1 << cum[4:0]) : 32'd0;
    always @(posedge clk) begin
        psn <= {psn[22:0], din};
        bm  <= (bm | setm) & ~clrm;
        if (adv) cum <= cum + 24'd1;
        dout <= ^{cum, bm};
    end
endmodule
