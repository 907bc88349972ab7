// The run length of rx_reorder's stage 1 for a relative bitmap (bit 0 is the expected PSN): 1 + the
// number of set bits above bit 0 before the first clear one, i.e. how far cum advances when the
// expected packet arrives. The lowest clear bit of bm[31:1] as a one-hot, then its position + 1.
// Shared by the rx fixtures of fpga/bounds/ (a library module: `make fpga-bounds` does not measure
// it alone).
module first_zero_run (
    input  wire [30:0] above,                        // bm[31:1]
    output reg  [5:0]  run
);
    wire [31:0] t  = ~{1'b0, above};
    wire [31:0] oh = t & (~t + 32'd1);
    integer     i;
    always @(*) begin
        run = 6'd0;
        for (i = 0; i < 32; i = i + 1)
            if (oh[i]) run = run | (i[5:0] + 6'd1);
    end
endmodule
