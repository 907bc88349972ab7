// The decision recurrence of path_sel's stage 1 alone, for one connection and 4 paths (the ice40
// preset), every path ACTIVE: room = inflight < cwnd, the round-robin pick from rr, inflight + 1 on
// the chosen path, and the window-weighted pointer (quantum = max(1, cwnd / 4), credit); one
// decision per cycle, each on the state the previous one left. Nothing else (no feedback, hold-off,
// probes, entropy, counters, connection mux). A measurement fixture for `make fpga-bounds`
// (docs/fpga.md, "Targets"), not part of the design.
module path_sel_recurrence (
    input  wire clk,
    input  wire din,
    output reg  dout
);
    reg  [7:0] inflight [0:3];
    reg  [7:0] cwnd     [0:3];
    reg  [1:0] rr;
    reg  [7:0] cred;
    reg  [3:0] sh;                                   // din shifted in: reloads a path's window
                                                     // now and then
    wire [3:0] room;
    genvar g;
    generate
        for (g = 0; g < 4; g = g + 1) begin : lane
            assign room[g] = inflight[g] < cwnd[g];
        end
    endgenerate
    reg  [3:0] rot;                                  // room rotated to start at rr
    always @(*) begin
        case (rr)
            2'd0:    rot = room;
            2'd1:    rot = {room[0], room[3:1]};
            2'd2:    rot = {room[1:0], room[3:2]};
            default: rot = {room[2:0], room[3]};
        endcase
    end
    wire [1:0] off   = rot[0] ? 2'd0 : rot[1] ? 2'd1 : rot[2] ? 2'd2 : 2'd3;
    wire       found = |rot;
    wire [1:0] p     = rr + off;
    wire [7:0] n     = (p == rr) ? cred + 8'd1 : 8'd1;
    wire [7:0] q4    = cwnd[p] >> 2;
    wire [7:0] q     = (q4 == 8'd0) ? 8'd1 : q4;
    integer i;
    always @(posedge clk) begin
        sh <= {sh[2:0], din};
        for (i = 0; i < 4; i = i + 1)
            if (sh[i]) begin
                inflight[i] <= 8'd0;
                cwnd[i]     <= {sh, sh};
            end
        if (found && sh == 4'd0) begin
            inflight[p] <= inflight[p] + 8'd1;
            if (n >= q) begin
                rr   <= p + 2'd1;
                cred <= 8'd0;
            end else begin
                rr   <= p;
                cred <= n;
            end
        end
        dout <= ^{rr, cred, inflight[0], inflight[3]};
    end
endmodule
