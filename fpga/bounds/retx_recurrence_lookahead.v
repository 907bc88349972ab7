// retx_recurrence (retx_recurrence.v) rewritten with look-ahead state: span = nxt - una kept in 6
// bits (0..32), so the window check is one bit; una's high bits plus one kept beside una, so the
// ACK check is an 18-bit equality (against una's high bits or those plus one, by the borrow of the
// 6-bit low difference) and a 6-bit compare instead of two 24-bit subtracts and a compare. Same
// behaviour as retx_recurrence. Measures how far look-ahead alone goes on the HX8K (docs/fpga.md,
// "Targets"). A fixture for `make fpga-bounds`, not part of the design.
module retx_recurrence_lookahead (
    input  wire clk,
    input  wire din,
    output reg  dout
);
    reg  [23:0] una, nxt, apsn;
    reg  [17:0] una_hi1 = 18'd1;                     // una[23:6] + 1 (una starts at 0)
    reg  [5:0]  span;                                // nxt - una
    reg  [11:0] pnx [0:3];
    reg  [1:0]  path;
    reg         tx, ack;
    wire [6:0]  klo   = {1'b0, apsn[5:0]} - {1'b0, una[5:0]};  // bit 6: borrow
    wire        hi_ok = klo[6] ? (apsn[23:6] == una_hi1) : (apsn[23:6] == una[23:6]);
    wire        adv   = ack && hi_ok && klo[5:0] != 6'd0 && klo[5:0] <= span;
    wire        send  = tx && !span[5];              // span < 32
    always @(posedge clk) begin
        apsn <= {apsn[22:0], din};
        path <= {path[0], din};
        tx   <= din ^ path[1];
        ack  <= apsn[3];
        if (send) begin
            nxt       <= nxt + 24'd1;
            pnx[path] <= pnx[path] + 12'd1;
        end
        if (adv) begin
            una     <= apsn;
            una_hi1 <= apsn[23:6] + 18'd1;
        end
        span <= span + {5'd0, send} - (adv ? klo[5:0] : 6'd0);
        dout <= ^{una, nxt, pnx[0], pnx[3], una_hi1};
    end
endmodule
