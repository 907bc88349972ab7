// SPDX-License-Identifier: Apache-2.0
/*
 * nic_roce_csr: the AXI4-Lite slave of nic_roce: the register map of rtl/nic_roce_regs.vh.
 *
 * Answers every transaction by the rules of docs/nic_roce.md ("Control: AXI4-Lite"), holds the RW
 * global registers, the connection table and each connection's state, and shows what other blocks
 * count and report.
 *
 * Interfaces:
 *   s_axil_*  AXI4-Lite slave, 16 address bits, 32 data bits
 *   cfg_*     CTRL.enable, LOCAL_MAC_*, LOCAL_IP, IP_TOS
 *   cmd_*     one-cycle pulse per open or close, with the connection's entry
 *   conn_*    state out (2 bits per connection), error in, CONN_STATUS words in
 *   cnt_*     counter words in (map order), clear pulse out
 *   path_*    PATH_SEL out, the selected path's status words in
 *   ev_set    EVENTS set inputs; irq high while EVENTS is not 0
 *
 * Contract: docs/nic_roce_csr.md (ports, cycle behaviour); the map: docs/nic_roce.md.
 */

`resetall
`timescale 1ns / 1ps
`default_nettype none

module nic_roce_csr #(
    // Connections (entries of the conn window); power of two, 2..1024.
    parameter CONNS = 16,
    // Paths per connection; power of two, 2..64.
    parameter PATHS = 8,
    // Largest payload, bytes (CAPS_FRAME.mtu); power of two, 256..4096.
    parameter MTU = 1024,
    // Stream width, bits (CAPS_FRAME.data_width); 64, 128, 256 or 512.
    parameter DATA_WIDTH = 64
) (
    input  wire                   clk,
    input  wire                   rst,

    input  wire [15:0]            s_axil_awaddr,
    input  wire [2:0]             s_axil_awprot,
    input  wire                   s_axil_awvalid,
    output wire                   s_axil_awready,
    input  wire [31:0]            s_axil_wdata,
    input  wire [3:0]             s_axil_wstrb,
    input  wire                   s_axil_wvalid,
    output wire                   s_axil_wready,
    output reg  [1:0]             s_axil_bresp = 2'b00,
    output reg                    s_axil_bvalid = 1'b0,
    input  wire                   s_axil_bready,
    input  wire [15:0]            s_axil_araddr,
    input  wire [2:0]             s_axil_arprot,
    input  wire                   s_axil_arvalid,
    output wire                   s_axil_arready,
    output reg  [31:0]            s_axil_rdata = 32'd0,
    output reg  [1:0]             s_axil_rresp = 2'b00,
    output reg                    s_axil_rvalid = 1'b0,
    input  wire                   s_axil_rready,

    output wire                   cfg_enable,
    output wire [47:0]            cfg_local_mac,
    output wire [31:0]            cfg_local_ip,
    output wire [5:0]             cfg_dscp,
    output wire [7:0]             cfg_ttl,

    output reg                    cmd_valid = 1'b0,
    output reg                    cmd_open = 1'b0,
    output reg  [CONN_W-1:0]      cmd_conn = {CONN_W{1'b0}},
    output reg  [47:0]            cmd_peer_mac = 48'd0,
    output reg                    cmd_mac_check = 1'b0,
    output reg  [31:0]            cmd_peer_ip = 32'd0,
    output reg  [23:0]            cmd_peer_qpn = 24'd0,
    output reg  [23:0]            cmd_tx_psn = 24'd0,
    output reg  [23:0]            cmd_rx_psn = 24'd0,

    output reg  [2*CONNS-1:0]     conn_state = {2*CONNS{1'b0}},
    input  wire                   conn_err_valid,
    input  wire [CONN_W-1:0]      conn_err_conn,
    input  wire [32*CONNS-1:0]    conn_info,

    input  wire [32*NCNT-1:0]     cnt_in,
    output reg                    cnt_clear = 1'b0,

    output wire [CONN_W-1:0]      path_conn,
    output wire [PATH_W-1:0]      path_path,
    input  wire [31:0]            path_status,
    input  wire [15:0]            path_entropy,
    input  wire [31:0]            path_counts,

    input  wire [3:0]             ev_set,
    output wire                   irq
);

`include "nic_roce_regs.vh"

localparam CONN_W = $clog2(CONNS);
localparam PATH_W = $clog2(PATHS);
localparam NCNT = (NR_CNT_DMA_WR_ERROR_ADDR - NR_CNT_SENT_ADDR) / 4 + 1;
localparam [31:0] CONN_END = {16'd0, NR_CONN_BASE} + CONNS * {16'd0, NR_CONN_STRIDE};
localparam [1:0] OKAY = 2'b00, SLVERR = 2'b10;
localparam [31:0] CAPS = ((CONNS << NR_CAPS_CONNS_LSB) | (PATHS << NR_CAPS_PATHS_LSB))
    & NR_CAPS_MASK;
localparam [31:0] CAPS_FRAME = ((MTU << NR_CAPS_FRAME_MTU_LSB)
    | (DATA_WIDTH << NR_CAPS_FRAME_DATA_WIDTH_LSB)) & NR_CAPS_FRAME_MASK;
// CONN_STATUS bits shown from conn_info: all but state
localparam [31:0] INFO_MASK = NR_CONN_STATUS_MASK
    & ~(((32'd1 << NR_CONN_STATUS_STATE_W) - 32'd1) << NR_CONN_STATUS_STATE_LSB);
localparam [1:0] ST_CLOSED = 2'd0, ST_OPEN = 2'd1, ST_ERROR = 2'd2;
localparam [1:0] CMD_OPEN = 2'd1;

initial begin
    if (CONNS < 2 || CONNS > NR_CONN_MAX || (CONNS & (CONNS - 1)) != 0) begin
        $error("Error: CONNS = %0d (allowed: power of two, 2..1024) (instance %m)", CONNS);
        $finish;
    end
    if (PATHS < 2 || PATHS > 64 || (PATHS & (PATHS - 1)) != 0) begin
        $error("Error: PATHS = %0d (allowed: power of two, 2..64) (instance %m)", PATHS);
        $finish;
    end
    if (MTU < 256 || MTU > 4096 || (MTU & (MTU - 1)) != 0) begin
        $error("Error: MTU = %0d (allowed: power of two, 256..4096) (instance %m)", MTU);
        $finish;
    end
    if (DATA_WIDTH != 64 && DATA_WIDTH != 128 && DATA_WIDTH != 256 && DATA_WIDTH != 512) begin
        $error("Error: DATA_WIDTH = %0d (allowed: 64, 128, 256, 512) (instance %m)", DATA_WIDTH);
        $finish;
    end
end

/*
 * Registers
 */
reg        r_enable = 1'b0;
reg [31:0] r_mac_lo = 32'd0, r_mac_hi = 32'd0, r_ip = 32'd0, r_tos = 32'd0, r_sel = 32'd0;
reg [31:0] r_events = 32'd0;
// the connection table: entry c in bits 32c+31:32c of each
reg [32*CONNS-1:0] t_mac_lo, t_mac_hi, t_ip, t_qpn, t_txpsn, t_rxpsn;

assign cfg_enable = r_enable;
assign cfg_local_mac = {r_mac_hi[15:0], r_mac_lo};
assign cfg_local_ip = r_ip;
assign cfg_dscp = r_tos[NR_IP_TOS_DSCP_LSB +: NR_IP_TOS_DSCP_W];
assign cfg_ttl = r_tos[NR_IP_TOS_TTL_LSB +: NR_IP_TOS_TTL_W];
assign path_conn = r_sel[NR_PATH_SEL_CONN_LSB +: CONN_W];
assign path_path = r_sel[NR_PATH_SEL_PATH_LSB +: PATH_W];
assign irq = r_events != 32'd0;

/*
 * Address decode: kind of register, connection, counter index
 */
localparam [4:0] K_NONE = 5'd0, K_ID = 5'd1, K_VERSION = 5'd2, K_CAPS = 5'd3, K_CAPSF = 5'd4,
    K_CTRL = 5'd5, K_CLEAR = 5'd6, K_EVENTS = 5'd7, K_MACLO = 5'd8, K_MACHI = 5'd9, K_IP = 5'd10,
    K_TOS = 5'd11, K_SEL = 5'd12, K_PSTAT = 5'd13, K_PENT = 5'd14, K_PCNT = 5'd15, K_CNT = 5'd16,
    K_CMACLO = 5'd17, K_CMACHI = 5'd18, K_CIP = 5'd19, K_CQPN = 5'd20, K_CTX = 5'd21, K_CRX = 5'd22,
    K_CCMD = 5'd23, K_CSTAT = 5'd24;

function [4:0] kind_of(input [15:0] a);
    reg [15:0] off;
    begin
        kind_of = K_NONE;
        off = (a - NR_CONN_BASE) % NR_CONN_STRIDE;
        if (a[1:0] != 2'b00) begin
            kind_of = K_NONE;
        end else if (a >= NR_CNT_SENT_ADDR && a <= NR_CNT_DMA_WR_ERROR_ADDR) begin
            kind_of = K_CNT;
        end else if (a >= NR_CONN_BASE && {16'd0, a} < CONN_END) begin
            case (off)
                NR_CONN_PEER_MAC_LO_OFF: kind_of = K_CMACLO;
                NR_CONN_PEER_MAC_HI_OFF: kind_of = K_CMACHI;
                NR_CONN_PEER_IP_OFF:     kind_of = K_CIP;
                NR_CONN_PEER_QPN_OFF:    kind_of = K_CQPN;
                NR_CONN_TX_PSN_OFF:      kind_of = K_CTX;
                NR_CONN_RX_PSN_OFF:      kind_of = K_CRX;
                NR_CONN_CMD_OFF:         kind_of = K_CCMD;
                NR_CONN_STATUS_OFF:      kind_of = K_CSTAT;
                default:                 kind_of = K_NONE;
            endcase
        end else begin
            case (a)
                NR_ID_ADDR:           kind_of = K_ID;
                NR_VERSION_ADDR:      kind_of = K_VERSION;
                NR_CAPS_ADDR:         kind_of = K_CAPS;
                NR_CAPS_FRAME_ADDR:   kind_of = K_CAPSF;
                NR_CTRL_ADDR:         kind_of = K_CTRL;
                NR_CNT_CLEAR_ADDR:    kind_of = K_CLEAR;
                NR_EVENTS_ADDR:       kind_of = K_EVENTS;
                NR_LOCAL_MAC_LO_ADDR: kind_of = K_MACLO;
                NR_LOCAL_MAC_HI_ADDR: kind_of = K_MACHI;
                NR_LOCAL_IP_ADDR:     kind_of = K_IP;
                NR_IP_TOS_ADDR:       kind_of = K_TOS;
                NR_PATH_SEL_ADDR:     kind_of = K_SEL;
                NR_PATH_STATUS_ADDR:  kind_of = K_PSTAT;
                NR_PATH_ENTROPY_ADDR: kind_of = K_PENT;
                NR_PATH_COUNTS_ADDR:  kind_of = K_PCNT;
                default:              kind_of = K_NONE;
            endcase
        end
    end
endfunction

// the connection of a conn-window address (low CONN_W bits of the entry number)
function [CONN_W-1:0] conn_of(input [15:0] a);
    reg [15:0] e; // entry number; the window check bounds it below CONNS
    begin
        e = (a - NR_CONN_BASE) / NR_CONN_STRIDE;
        conn_of = e[CONN_W-1:0];
    end
endfunction

// the counter index of a counter address
function [5:0] cnt_of(input [15:0] a);
    reg [15:0] e; // counter number; the block check bounds it below NCNT
    begin
        e = (a - NR_CNT_SENT_ADDR) >> 2;
        cnt_of = e[5:0];
    end
endfunction

/*
 * Read: decided at the AR handshake, answered the next cycle
 */
wire [4:0]        rk = kind_of(s_axil_araddr);
wire [CONN_W-1:0] rc = conn_of(s_axil_araddr);
wire [5:0]        ri = cnt_of(s_axil_araddr);
reg  [31:0]       rd;

assign s_axil_arready = !s_axil_rvalid;

always @* begin
    rd = 32'd0;
    case (rk)
        K_ID:      rd = NR_ID_RST;
        K_VERSION: rd = NR_VERSION_RST;
        K_CAPS:    rd = CAPS;
        K_CAPSF:   rd = CAPS_FRAME;
        K_CTRL:    rd = {31'd0, r_enable} << NR_CTRL_ENABLE_LSB;
        K_EVENTS:  rd = r_events;
        K_MACLO:   rd = r_mac_lo;
        K_MACHI:   rd = r_mac_hi;
        K_IP:      rd = r_ip;
        K_TOS:     rd = r_tos;
        K_SEL:     rd = r_sel;
        K_PSTAT:   rd = path_status & NR_PATH_STATUS_MASK;
        K_PENT:    rd = {16'd0, path_entropy} & NR_PATH_ENTROPY_MASK;
        K_PCNT:    rd = path_counts & NR_PATH_COUNTS_MASK;
        K_CNT:     rd = cnt_in[32*ri +: 32] & NR_CNT_SENT_MASK;
        K_CMACLO:  rd = t_mac_lo[32*rc +: 32];
        K_CMACHI:  rd = t_mac_hi[32*rc +: 32];
        K_CIP:     rd = t_ip[32*rc +: 32];
        K_CQPN:    rd = t_qpn[32*rc +: 32];
        K_CTX:     rd = t_txpsn[32*rc +: 32];
        K_CRX:     rd = t_rxpsn[32*rc +: 32];
        K_CSTAT:   rd = (conn_info[32*rc +: 32] & INFO_MASK)
                       | ({30'd0, conn_state[2*rc +: 2]} << NR_CONN_STATUS_STATE_LSB);
        default:   rd = 32'd0;
    endcase
end

always @(posedge clk) begin
    if (s_axil_arvalid && s_axil_arready) begin
        s_axil_rvalid <= 1'b1;
        s_axil_rdata <= rd;
        s_axil_rresp <= rk == K_NONE ? SLVERR : OKAY;
    end else if (s_axil_rready) begin
        s_axil_rvalid <= 1'b0;
    end
    if (rst) begin
        s_axil_rvalid <= 1'b0;
        s_axil_rdata <= 32'd0;
        s_axil_rresp <= OKAY;
    end
end

/*
 * Write: address and data held, decided when both are held, answered at the edge it acts
 */
reg        aw_full = 1'b0, w_full = 1'b0;
reg [15:0] aw_addr = 16'd0;
reg [31:0] w_data = 32'd0;
reg [3:0]  w_strb = 4'd0;

assign s_axil_awready = !aw_full && !s_axil_bvalid;
assign s_axil_wready = !w_full && !s_axil_bvalid;

wire [4:0]        wk = kind_of(aw_addr);
wire [CONN_W-1:0] wc = conn_of(aw_addr);
wire [1:0]        wst = conn_state[2*wc +: 2];
wire              w_do = aw_full && w_full && !s_axil_bvalid;
wire [1:0]        w_cmd = w_data[NR_CONN_CMD_CMD_LSB +: NR_CONN_CMD_CMD_W];
wire [7:0]        w_ttl = w_data[NR_IP_TOS_TTL_LSB +: NR_IP_TOS_TTL_W];
wire [23:0]       w_qpn = w_data[NR_CONN_PEER_QPN_VALUE_LSB +: NR_CONN_PEER_QPN_VALUE_W];
wire [NR_PATH_SEL_CONN_W-1:0] w_sconn = w_data[NR_PATH_SEL_CONN_LSB +: NR_PATH_SEL_CONN_W];
wire [NR_PATH_SEL_PATH_W-1:0] w_spath = w_data[NR_PATH_SEL_PATH_LSB +: NR_PATH_SEL_PATH_W];
reg  [31:0]       wmask;
reg               wlegal;
wire              w_locked = wst == ST_OPEN;

always @* begin
    wmask = 32'd0;
    wlegal = 1'b1;
    case (wk)
        K_CTRL:   wmask = NR_CTRL_MASK;
        K_CLEAR:  begin
            wmask = NR_CNT_CLEAR_MASK;
            wlegal = NR_CNT_CLEAR_CLEAR_LEGAL[w_data[NR_CNT_CLEAR_CLEAR_LSB]];
        end
        K_EVENTS: wmask = NR_EVENTS_MASK;
        K_MACLO:  wmask = NR_LOCAL_MAC_LO_MASK;
        K_MACHI:  wmask = NR_LOCAL_MAC_HI_MASK;
        K_IP:     wmask = NR_LOCAL_IP_MASK;
        K_TOS:    begin
            wmask = NR_IP_TOS_MASK;
            wlegal = w_ttl >= NR_IP_TOS_TTL_MIN && w_ttl <= NR_IP_TOS_TTL_MAX;
        end
        K_SEL:    begin
            wmask = NR_PATH_SEL_MASK;
            wlegal = {22'd0, w_sconn} < CONNS && {26'd0, w_spath} < PATHS;
        end
        K_CMACLO: begin wmask = NR_CONN_PEER_MAC_LO_MASK; wlegal = !w_locked; end
        K_CMACHI: begin wmask = NR_CONN_PEER_MAC_HI_MASK; wlegal = !w_locked; end
        K_CIP:    begin wmask = NR_CONN_PEER_IP_MASK; wlegal = !w_locked; end
        K_CQPN:   begin
            wmask = NR_CONN_PEER_QPN_MASK;
            wlegal = !w_locked && w_qpn >= NR_CONN_PEER_QPN_VALUE_MIN
                && w_qpn <= NR_CONN_PEER_QPN_VALUE_MAX;
        end
        K_CTX:    begin wmask = NR_CONN_TX_PSN_MASK; wlegal = !w_locked; end
        K_CRX:    begin wmask = NR_CONN_RX_PSN_MASK; wlegal = !w_locked; end
        K_CCMD:   begin
            wmask = NR_CONN_CMD_MASK;
            wlegal = NR_CONN_CMD_CMD_LEGAL[w_cmd] && !(w_cmd == CMD_OPEN && w_locked);
        end
        default:  wlegal = 1'b0; // unknown, unaligned or RO
    endcase
end

wire w_ok = w_strb == 4'hF && wlegal && (w_data & ~wmask) == 32'd0;
wire w_act = w_do && w_ok;

integer i;

always @(posedge clk) begin
    cmd_valid <= 1'b0;
    cnt_clear <= 1'b0;
    if (s_axil_awvalid && s_axil_awready) begin
        aw_full <= 1'b1;
        aw_addr <= s_axil_awaddr;
    end
    if (s_axil_wvalid && s_axil_wready) begin
        w_full <= 1'b1;
        w_data <= s_axil_wdata;
        w_strb <= s_axil_wstrb;
    end
    if (s_axil_bvalid && s_axil_bready) begin
        s_axil_bvalid <= 1'b0;
    end
    // events: set wins over a clear at the same edge
    r_events <= (r_events & ~(w_act && wk == K_EVENTS ? w_data : 32'd0))
        | ({28'd0, ev_set} & NR_EVENTS_MASK);
    if (conn_err_valid && conn_state[2*conn_err_conn +: 2] == ST_OPEN) begin
        conn_state[2*conn_err_conn +: 2] <= ST_ERROR;
    end
    if (w_do) begin
        aw_full <= 1'b0;
        w_full <= 1'b0;
        s_axil_bvalid <= 1'b1;
        s_axil_bresp <= w_ok ? OKAY : SLVERR;
    end
    for (i = 0; i < CONNS; i = i + 1) begin
        if (w_act && wc == i[CONN_W-1:0]) begin
            case (wk)
                K_CMACLO: t_mac_lo[32*i +: 32] <= w_data;
                K_CMACHI: t_mac_hi[32*i +: 32] <= w_data;
                K_CIP:    t_ip[32*i +: 32] <= w_data;
                K_CQPN:   t_qpn[32*i +: 32] <= w_data;
                K_CTX:    t_txpsn[32*i +: 32] <= w_data;
                K_CRX:    t_rxpsn[32*i +: 32] <= w_data;
                default: ;
            endcase
        end
    end
    if (w_act) begin
        case (wk)
            K_CTRL:   r_enable <= w_data[NR_CTRL_ENABLE_LSB];
            K_CLEAR:  cnt_clear <= 1'b1;
            K_MACLO:  r_mac_lo <= w_data;
            K_MACHI:  r_mac_hi <= w_data;
            K_IP:     r_ip <= w_data;
            K_TOS:    r_tos <= w_data;
            K_SEL:    r_sel <= w_data;
            K_CCMD:   begin
                if (w_cmd == CMD_OPEN || wst != ST_CLOSED) begin
                    conn_state[2*wc +: 2] <= w_cmd == CMD_OPEN ? ST_OPEN : ST_CLOSED;
                    cmd_valid <= 1'b1;
                end
                cmd_open <= w_cmd == CMD_OPEN;
                cmd_conn <= wc;
                cmd_peer_mac <= {t_mac_hi[32*wc +: 16], t_mac_lo[32*wc +: 32]};
                cmd_mac_check <= t_mac_hi[32*wc + NR_CONN_PEER_MAC_HI_CHECK_LSB];
                cmd_peer_ip <= t_ip[32*wc +: 32];
                cmd_peer_qpn <= t_qpn[32*wc +: 24];
                cmd_tx_psn <= t_txpsn[32*wc +: 24];
                cmd_rx_psn <= t_rxpsn[32*wc +: 24];
            end
            default: ;
        endcase
    end
    if (rst) begin
        aw_full <= 1'b0;
        w_full <= 1'b0;
        s_axil_bvalid <= 1'b0;
        s_axil_bresp <= OKAY;
        cmd_valid <= 1'b0;
        cmd_open <= 1'b0;
        cmd_conn <= {CONN_W{1'b0}};
        cmd_peer_mac <= 48'd0;
        cmd_mac_check <= 1'b0;
        cmd_peer_ip <= 32'd0;
        cmd_peer_qpn <= 24'd0;
        cmd_tx_psn <= 24'd0;
        cmd_rx_psn <= 24'd0;
        cnt_clear <= 1'b0;
        r_enable <= NR_CTRL_ENABLE_RST;
        r_mac_lo <= NR_LOCAL_MAC_LO_RST;
        r_mac_hi <= NR_LOCAL_MAC_HI_RST;
        r_ip <= NR_LOCAL_IP_RST;
        r_tos <= NR_IP_TOS_RST;
        r_sel <= NR_PATH_SEL_RST;
        r_events <= NR_EVENTS_RST;
        conn_state <= {2*CONNS{1'b0}};
        for (i = 0; i < CONNS; i = i + 1) begin
            t_mac_lo[32*i +: 32] <= NR_CONN_PEER_MAC_LO_RST;
            t_mac_hi[32*i +: 32] <= NR_CONN_PEER_MAC_HI_RST;
            t_ip[32*i +: 32] <= NR_CONN_PEER_IP_RST;
            t_qpn[32*i +: 32] <= NR_CONN_PEER_QPN_RST;
            t_txpsn[32*i +: 32] <= NR_CONN_TX_PSN_RST;
            t_rxpsn[32*i +: 32] <= NR_CONN_RX_PSN_RST;
        end
    end
end

endmodule

`resetall
