// Two recurrences of retx alone, for one connection and WINDOW 32 (the ice40 preset): a new packet
// is sent when nxt - una < WINDOW (nxt + 1, and the path sequence pnx of its path + 1), and an ACK
// moves una when 0 < psn - una <= nxt - una; one of each per cycle, each on the state the previous
// one left. Written as the spec states them (no look-ahead); nothing else (no tables, lookups,
// timers, feedback, connection mux). A measurement fixture for `make fpga-bounds` (docs/fpga.md,
// "Targets"), not part of the design.
module retx_recurrence (
    input  wire clk,
    input  wire din,
    output reg  dout
);
    reg  [23:0] una, nxt, apsn;
    reg  [11:0] pnx [0:3];
    reg  [1:0]  path;
    reg         tx, ack;
    wire [23:0] k    = apsn - una;
    wire        room = (nxt - una) < 24'd32;
    wire        adv  = ack && k != 24'd0 && k <= nxt - una;
    always @(posedge clk) begin
        apsn <= {apsn[22:0], din};
        path <= {path[0], din};
        tx   <= din ^ path[1];
        ack  <= apsn[3];
        if (tx && room) begin
            nxt       <= nxt + 24'd1;
            pnx[path] <= pnx[path] + 12'd1;
        end
        if (adv) una <= apsn;
        dout <= ^{una, nxt, pnx[0], pnx[3]};
    end
endmodule
