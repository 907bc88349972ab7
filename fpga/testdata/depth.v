// Logic depth test design: a registered 8-bit add (a LUT and three carry cells on Xilinx) and a
// distributed RAM read whose result leaves through a port (not a register-to-register path).
module depth (
    input  wire       clk,
    input  wire [7:0] a,
    input  wire [7:0] b,
    input  wire [3:0] wa,
    input  wire       we,
    output reg  [8:0] s,
    output wire [7:0] q
);
    reg [7:0] a_r, b_r;
    reg [7:0] mem [0:15];
    always @(posedge clk) begin
        a_r <= a;
        b_r <= b;
        s <= a_r + b_r;
        if (we) mem[wa] <= a;
    end
    assign q = mem[a_r[3:0]] ^ b_r;
endmodule
