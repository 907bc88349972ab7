package formal_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spraynic/spraynic/formal"
	"github.com/stretchr/testify/require"
)

// mutant is one textual change to one RTL file that must make its property set fail.
type mutant struct {
	name string
	// check selects block/set of formal/presets.json; file is the file under rtl/ that old is replaced in.
	block, set, file string
	old, new         string
	// breaks is the property (or, for a vacuity mutant, the cover) expected in the failure; docs/formal.md lists
	// each property with the mutant that breaks it.
	breaks string
	// bmc is the depth of the bounded check that must find the failure (0: run the whole check: BMC,
	// induction and cover).
	bmc int
	// induction, when not 0, runs the base case and the induction step at that k only (no cover): the
	// mutant must make the step fail, naming the property (retx: a failure from reset takes more cycles
	// than a bounded check of the model fits in, while the step finds it in one).
	induction int
	// coverOnly runs BMC to depth 1 and the set's cover check, no induction: a vacuity mutant must leave a
	// cover unreached, which the cover check alone shows.
	coverOnly bool
	// nightly marks a mutant whose check takes minutes: it runs only with SPRAYNIC_MUTANTS=all (make
	// formal-nightly), so that make test stays within CI's time.
	nightly bool
}

var mutants = []mutant{
	{name: "ram_read_other_address", block: "ram_sdp", set: "ram_sdp", file: "ram_sdp.v",
		old: "rd_data_reg <= mem[rd_addr];", new: "rd_data_reg <= mem[rd_addr + 1'b1];",
		breaks: "ram_read", bmc: 4},
	{name: "ram_write_dropped", block: "ram_sdp", set: "ram_sdp", file: "ram_sdp.v",
		old: "if (wr_en) begin\n        mem[wr_addr]", new: "if (wr_en && wr_data != 1) begin\n        mem[wr_addr]",
		breaks: "ram_holds", bmc: 4},
	// a property mutant: an assumption that no write happens makes every assertion hold and the covers
	// unreachable, and the check must fail for it
	{name: "ram_vacuous", block: "ram_sdp", set: "ram_sdp", file: "ram_sdp.v",
		old: "always @* begin\n    if (f_written)", new: "always @* begin\n    assume (!wr_en);\n    if (f_written)",
		breaks: "c_ram_read"},
	{name: "rx_window_twice", block: "rx_reorder", set: "rx_reorder", file: "rx_reorder.v",
		old:    "d_in_win = d[PSN_WIDTH-1:WIN_W] == {PSN_WIDTH-WIN_W{1'b0}};",
		new:    "d_in_win = d[PSN_WIDTH-1:WIN_W+1] == {PSN_WIDTH-WIN_W-1{1'b0}};",
		breaks: "rx_accept_window", bmc: 4},
	{name: "rx_cum_skips_hole", block: "rx_reorder", set: "rx_reorder", file: "rx_reorder.v",
		old:    "first_zero_in = ~(c_bitmap | {{WINDOW-1{1'b0}}, 1'b1});",
		new:    "first_zero_in = ~(c_bitmap | {{WINDOW-2{1'b0}}, 2'b11});",
		breaks: "rx_cum_bitmap", bmc: 4},
	{name: "rx_cnt_closed_double", block: "rx_reorder", set: "rx_reorder", file: "rx_reorder.v",
		old: "cnt_closed_next = cnt_closed_reg + 32'd1;", new: "cnt_closed_next = cnt_closed_reg + 32'd2;",
		breaks: "rx_cnt_closed", induction: 2},
	{name: "rx_rxv_closed_oow", block: "rx_reorder", set: "rx_reorder_rxv", file: "rx_reorder.v",
		old: "assign m_rxv_code = {is_oow || !c_open, is_dup || !c_open};",
		new: "assign m_rxv_code = {is_oow || !c_open, is_dup};", breaks: "rx_rxv_code", bmc: 4},
	{name: "rx_rxv_psn_next", block: "rx_reorder", set: "rx_reorder_rxv", file: "rx_reorder.v",
		old: "assign m_rxv_psn = s1_psn_reg;", new: "assign m_rxv_psn = s1_psn_next;", breaks: "rx_rxv_pkt", bmc: 3},
	vacuous("rx_rxv_vacuous_no_pkt", "rx_reorder", "rx_reorder_rxv", "!s_pkt_valid", "c_rxv_accepted"),
	// classification: a PSN whose bitmap bit is set accepted again; a PSN behind cum both duplicate and out of
	// window; a packet to a closed connection counted out of window
	{name: "rx_accept_received", block: "rx_reorder", set: "rx_reorder", file: "rx_reorder.v",
		old: "is_accept = s1_pkt && c_open && d_in_win && !c_bitmap[d[WIN_W-1:0]];\n" +
			"    is_dup = s1_pkt && c_open && ((d_in_win && c_bitmap[d[WIN_W-1:0]]) || d_neg);",
		new:    "is_accept = s1_pkt && c_open && d_in_win;\n    is_dup = s1_pkt && c_open && d_neg;",
		breaks: "rx_accept_new", induction: 2},
	{name: "rx_dup_also_oow", block: "rx_reorder", set: "rx_reorder", file: "rx_reorder.v",
		old: "is_oow = s1_pkt && c_open && !d_in_win && !d_neg;", new: "is_oow = s1_pkt && c_open && !d_in_win;",
		breaks: "rx_classify", bmc: 4},
	{name: "rx_closed_oow", block: "rx_reorder", set: "rx_reorder", file: "rx_reorder.v",
		old: "is_oow = s1_pkt && c_open && !d_in_win && !d_neg;", new: "is_oow = s1_pkt && !d_in_win && !d_neg;",
		breaks: "rx_closed_drop", bmc: 3},
	// cum: a carry out of the low bits counted twice (cum jumps past the window); cum moved by an accept
	// above it
	{name: "rx_cum_carry_twice", block: "rx_reorder", set: "rx_reorder", file: "rx_reorder.v",
		old:    "cum_hi_inc = s1_psn_reg[PSN_WIDTH-1:L_W] + ONE[PSN_WIDTH-L_W-1:0];",
		new:    "cum_hi_inc = s1_psn_reg[PSN_WIDTH-1:L_W] + ONE[PSN_WIDTH-L_W-1:0] + ONE[PSN_WIDTH-L_W-1:0];",
		breaks: "rx_cum_forward", bmc: 4},
	{name: "rx_cum_moves_above", block: "rx_reorder", set: "rx_reorder", file: "rx_reorder.v",
		old: "s1_cum_res = cum_new;", new: "s1_cum_res = d_zero ? cum_new : s1_psn_reg;",
		breaks: "rx_cum_received", induction: 2},
	// release: a completion with the head's low bit flipped; the head left one ahead after a release; a
	// release of the connection a control is opening or closing
	{name: "rx_release_wrong_psn", block: "rx_reorder", set: "rx_reorder", file: "rx_reorder.v",
		old:    "rel_psn = rel_psn | head_reg[i*PSN_WIDTH +: PSN_WIDTH];",
		new:    "rel_psn = rel_psn | (head_reg[i*PSN_WIDTH +: PSN_WIDTH] ^ ONE[PSN_WIDTH-1:0]);",
		breaks: "rx_cpl_order", induction: 2},
	{name: "rx_head_skips", block: "rx_reorder", set: "rx_reorder", file: "rx_reorder.v",
		old:    "head_next[i*PSN_WIDTH +: PSN_WIDTH] = rel_psn + ONE[PSN_WIDTH-1:0];",
		new:    "head_next[i*PSN_WIDTH +: PSN_WIDTH] = rel_psn + ONE[PSN_WIDTH-1:0] + ONE[PSN_WIDTH-1:0];",
		breaks: "rx_head", induction: 2},
	{name: "rx_release_in_ctl", block: "rx_reorder", set: "rx_reorder", file: "rx_reorder.v",
		old: "!(s1_ctl && s1_conn_reg == i[CONN_W-1:0]);", new: "1'b1;", breaks: "rx_ctl_no_release",
		induction: 2, nightly: true},
	// control: lag kept by an open or close; S1's copy of open read for the wrong connection
	{name: "rx_ctl_keeps_lag", block: "rx_reorder", set: "rx_reorder", file: "rx_reorder.v",
		old: "lag_next[i*LAG_W +: LAG_W] = {LAG_W{1'b0}};", new: "", breaks: "rx_ctl_clears", induction: 2},
	{name: "rx_op_open_wrong_conn", block: "rx_reorder", set: "rx_reorder", file: "rx_reorder.v",
		old: "op_open_next = open_reg[s1_conn_next];", new: "op_open_next = open_reg[s1_conn_reg];",
		breaks: "rx_op_open", induction: 2, nightly: true},
	// ACK FIFO: no room check at the input (overflow); the count not lowered by a pop
	{name: "rx_ack_no_room_check", block: "rx_reorder", set: "rx_reorder", file: "rx_reorder.v",
		old: "ack_room = ack_count_reg <= AF_ROOM_MAX;", new: "ack_room = 1'b1;", breaks: "rx_ack_fifo_s1",
		induction: 2},
	{name: "rx_ack_count_no_pop", block: "rx_reorder", set: "rx_reorder", file: "rx_reorder.v",
		old: "end else if (!ack_push && ack_pop) begin", new: "end else if (1'b0) begin",
		breaks: "rx_ack_fifo_ptr", induction: 2},
	// memories and ACKs on other events than their contract's
	{name: "rx_hram_on_dup", block: "rx_reorder", set: "rx_reorder", file: "rx_reorder.v",
		old: "hram_wr_en = is_accept;", new: "hram_wr_en = is_accept || is_dup;", breaks: "rx_hram_write", induction: 2},
	{name: "rx_pram_on_closed", block: "rx_reorder", set: "rx_reorder", file: "rx_reorder.v",
		old: "pram_wr_en = s1_pkt && c_open;", new: "pram_wr_en = s1_pkt;", breaks: "rx_pram_write", bmc: 3},
	{name: "rx_ack_on_oow", block: "rx_reorder", set: "rx_reorder", file: "rx_reorder.v",
		old: "ack = (is_accept || is_dup) &&", new: "ack = (is_accept || is_dup || is_oow) &&",
		breaks: "rx_ack_only_rx", bmc: 4},
	// counters: each moving by two on its event
	{name: "rx_cnt_accepted_double", block: "rx_reorder", set: "rx_reorder", file: "rx_reorder.v",
		old: "cnt_accepted_next = cnt_accepted_reg + 32'd1;", new: "cnt_accepted_next = cnt_accepted_reg + 32'd2;",
		breaks: "rx_cnt_accepted", induction: 2},
	{name: "rx_cnt_duplicate_double", block: "rx_reorder", set: "rx_reorder", file: "rx_reorder.v",
		old:    "cnt_duplicate_next = cnt_duplicate_reg + 32'd1;",
		new:    "cnt_duplicate_next = cnt_duplicate_reg + 32'd2;",
		breaks: "rx_cnt_duplicate", induction: 2},
	{name: "rx_cnt_oow_double", block: "rx_reorder", set: "rx_reorder", file: "rx_reorder.v",
		old:    "cnt_out_of_window_next = cnt_out_of_window_reg + 32'd1;",
		new:    "cnt_out_of_window_next = cnt_out_of_window_reg + 32'd2;",
		breaks: "rx_cnt_oow", induction: 2},
	// a property mutant: no connection is ever opened, so every assertion holds and every cover but a packet
	// to a closed connection is unreachable: the check must fail
	vacuous("rx_vacuous_no_open", "rx_reorder", "rx_reorder", "!s_ctl_valid", "c_full_window"),
	{name: "ps_fail_early", block: "path_sel", set: "path_sel", file: "path_sel.v",
		old: "if (f_consec_sat >= FAIL_THR) begin", new: "if (f_consec_sat + 4'd1 >= FAIL_THR) begin",
		breaks: "ps_consec", bmc: 4},
	{name: "ps_inflight_no_dec", block: "path_sel", set: "path_sel", file: "path_sel.v",
		old: "if (s_fb_kind == FB_DELIVERED) begin\n        f_inflight_new = f_inflight_sub;",
		new: "if (s_fb_kind == FB_DELIVERED) begin", breaks: "ps_inflight", bmc: 5},
	// control (path_sel): the connection's round-robin credit kept; a path left without room (reads as full)
	{name: "ps_ctl_keeps_cred", block: "path_sel", set: "path_sel", file: "path_sel.v",
		old:    "rr_next[i*PATH_W +: PATH_W] = {PATH_W{1'b0}};\n            cred_next[i*CR_W +: CR_W] = {CR_W{1'b0}};",
		new:    "rr_next[i*PATH_W +: PATH_W] = {PATH_W{1'b0}};",
		breaks: "ps_ctl_open", induction: 1},
	{name: "ps_ctl_no_room", block: "path_sel", set: "path_sel", file: "path_sel.v",
		old: "room_next[i] = 1'b1;", new: "room_next[i] = room_reg[i];", breaks: "ps_ctl_open", induction: 1},
	{name: "ps_rd_state_late", block: "path_sel", set: "path_sel_io", file: "path_sel.v",
		old: "rd_state_next = state_reg[ridx*ST_W +: ST_W];", new: "rd_state_next = state_next[ridx*ST_W +: ST_W];",
		breaks: "ps_rd_state", bmc: 4},
	// interface (path_sel_io): a decision dropped while not taken; the status and read-out registers showing
	// other state than the previous cycle's; each counter moving by two on its event
	{name: "ps_sel_dropped", block: "path_sel", set: "path_sel_io", file: "path_sel.v",
		old:    "end else if (m_sel_ready) begin\n        m_sel_valid_next = 1'b0;",
		new:    "end else begin\n        m_sel_valid_next = 1'b0;",
		breaks: "ps_sel_hold", induction: 1},
	{name: "ps_status_stale", block: "path_sel", set: "path_sel_io", file: "path_sel.v",
		old:    "m_status_all_failed_next = all_failed != {CONNS{1'b0}};",
		new:    "m_status_all_failed_next = m_status_all_failed_reg;",
		breaks: "ps_status", induction: 1},
	{name: "ps_status_af_stale", block: "path_sel", set: "path_sel_io", file: "path_sel.v",
		old: "m_status_af_next = all_failed;", new: "m_status_af_next = m_status_af_reg;",
		breaks: "ps_status_af", induction: 1},
	{name: "ps_status_conn_flipped", block: "path_sel", set: "path_sel_io", file: "path_sel.v",
		old: "m_status_conn_next = i[CONN_W-1:0];", new: "m_status_conn_next = ~i[CONN_W-1:0];",
		breaks: "ps_status_conn", induction: 1},
	{name: "ps_rd_all_failed_conn0", block: "path_sel", set: "path_sel_io", file: "path_sel.v",
		old: "rd_all_failed_next = all_failed[rd_conn];", new: "rd_all_failed_next = all_failed[0];",
		breaks: "ps_rd_all_failed", induction: 1},
	{name: "ps_rd_inflight_stale", block: "path_sel", set: "path_sel_io", file: "path_sel.v",
		old:    "end else if (rec_fresh_reg[ridx]) begin\n        rd_inflight_next",
		new:    "end else if (1'b0) begin\n        rd_inflight_next",
		breaks: "ps_rd_inflight", induction: 1},
	{name: "ps_rd_cwnd_stale", block: "path_sel", set: "path_sel_io", file: "path_sel.v",
		old:    "rd_cwnd_next = rec_fresh_reg[ridx] ? CWND_OPEN : cw_rd[rd_path*CW_W +: CW_W];",
		new:    "rd_cwnd_next = cw_rd[rd_path*CW_W +: CW_W];",
		breaks: "ps_rd_cwnd", induction: 1},
	{name: "ps_cnt_decisions_double", block: "path_sel", set: "path_sel_io", file: "path_sel.v",
		old:    "cnt_decisions_next = cnt_decisions_reg + 32'd1;",
		new:    "cnt_decisions_next = cnt_decisions_reg + 32'd2;",
		breaks: "ps_cnt_decisions", induction: 1},
	{name: "ps_cnt_probes_double", block: "path_sel", set: "path_sel_io", file: "path_sel.v",
		old: "cnt_probes_next = cnt_probes_reg + 32'd1;", new: "cnt_probes_next = cnt_probes_reg + 32'd2;",
		breaks: "ps_cnt_probes", induction: 1},
	{name: "ps_cnt_failures_double", block: "path_sel", set: "path_sel_io", file: "path_sel.v",
		old: "cnt_failures_next = cnt_failures_reg + 32'd1;", new: "cnt_failures_next = cnt_failures_reg + 32'd2;",
		breaks: "ps_cnt_failures", induction: 1},
	{name: "ps_cnt_recoveries_double", block: "path_sel", set: "path_sel_io", file: "path_sel.v",
		old:    "cnt_recoveries_next = cnt_recoveries_reg + 32'd1;",
		new:    "cnt_recoveries_next = cnt_recoveries_reg + 32'd2;",
		breaks: "ps_cnt_recoveries", induction: 1},
	// cwnd above CWND_MAX (the cap left out) and below one packet (the floor left out); a new entropy
	// without its top bits
	{name: "ps_cwnd_no_cap", block: "path_sel", set: "path_sel", file: "path_sel.v",
		old: "f_cwnd_new = CWND_CAP;", new: "f_cwnd_new = f_cwnd_sum[CW_W-1:0];", breaks: "ps_cwnd_range",
		induction: 1},
	{name: "ps_cwnd_no_floor", block: "path_sel", set: "path_sel", file: "path_sel.v",
		old: "f_cwnd_new = CWND_FLOOR;", new: "f_cwnd_new = f_cwnd_half;", breaks: "ps_cwnd_range", induction: 1},
	{name: "ps_entropy_top_bits", block: "path_sel", set: "path_sel", file: "path_sel.v",
		old:    "f_entropy_fail = {2'b11, lfsr_step[13:0]};",
		new:    "f_entropy_fail = {2'b10, lfsr_step[13:0]};",
		breaks: "ps_entropy_form", induction: 1},
	// a property mutant: no feedback, so no path ever fails and the failure cover is unreachable
	vacuous("ps_vacuous_no_feedback", "path_sel", "path_sel", "!s_fb_valid", "c_ps_fail"),
	{name: "ps_heal_no_holdoff", block: "path_sel", set: "path_sel_bmc", file: "path_sel.v",
		old: "prb[i] = p_state == ST_FAILED && c_ho_over_reg[i];", new: "prb[i] = p_state == ST_FAILED;",
		breaks: "ps_probe_holdoff", bmc: 4},
	{name: "ps_pick_failed", block: "path_sel", set: "path_sel_bmc", file: "path_sel.v",
		old: "act[i] = p_state == ST_ACTIVE && c_room[i];", new: "act[i] = p_state != ST_SUSPECT && c_room[i];",
		breaks: "ps_pick_probe", bmc: 5},
	{name: "ps_loss_fails_early", block: "path_sel", set: "path_sel_fail", file: "path_sel.v",
		old: "f_state_new = ST_SUSPECT;", new: "f_state_new = ST_FAILED;", breaks: "ps_fail_after_k", bmc: 3},
	{name: "ps_fail_then_decision", block: "path_sel", set: "path_sel_fail", file: "path_sel.v",
		old: "if (sel_probe && f_state_new == ST_FAILED) begin", new: "if (f_state_new == ST_FAILED) begin",
		breaks: "ps_fail_at_k", bmc: 4},
	{name: "ps_delivery_heals_failed", block: "path_sel", set: "path_sel_fail", file: "path_sel.v",
		old: "if (f_state == ST_SUSPECT) begin", new: "if (f_state == ST_SUSPECT || f_state == ST_FAILED) begin",
		breaks: "ps_heal_probe", bmc: 4},
	{name: "ps_ecn_recovers", block: "path_sel", set: "path_sel_fail", file: "path_sel.v",
		old:    "end else if (s_fb_kind == FB_ECN) begin",
		new:    "end else if (s_fb_kind == FB_ECN) begin\n        if (f_state == ST_PROBING) f_state_new = ST_ACTIVE;",
		breaks: "ps_heal_delivered", induction: 1},
	{name: "ps_guard_not_probe", block: "path_sel", set: "path_sel_fail", file: "path_sel.v",
		old: "            sel_probe = 1'b1;\n            guard_in = {PATHS{1'b1}};",
		new: "            guard_in = {PATHS{1'b1}};", breaks: "ps_pick_probe", induction: 1},
	{name: "ps_probe_stays_failed", block: "path_sel", set: "path_sel_fail", file: "path_sel.v",
		old: "c_state[(i % PATHS)*ST_W +: ST_W] == ST_FAILED) begin\n" +
			"                state_next[i*ST_W +: ST_W] = ST_PROBING;",
		new: "c_state[(i % PATHS)*ST_W +: ST_W] == ST_FAILED) begin\n" +
			"                state_next[i*ST_W +: ST_W] = ST_FAILED;",
		breaks: "ps_probe_moves", induction: 1},
	{name: "ps_probe_no_holdoff", block: "path_sel", set: "path_sel_hold", file: "path_sel.v",
		old: "prb[i] = p_state == ST_FAILED && c_ho_over_reg[i];", new: "prb[i] = p_state == ST_FAILED;",
		breaks: "ps_probe_holdoff", induction: 1},
	// the hold-off's other direction (path_sel_hold): a probe after the hold-off waits for the request to age; the
	// sweeper never marks a hold-off over (its time stamp difference may wrap)
	{name: "ps_probe_waits_aged", block: "path_sel", set: "path_sel_hold", file: "path_sel.v",
		old:    "prb[i] = p_state == ST_FAILED && c_ho_over_reg[i];",
		new:    "prb[i] = p_state == ST_FAILED && c_ho_over_reg[i] && s1_aged_reg;",
		breaks: "ps_probe_after_holdoff", induction: 1},
	{name: "ps_sweeper_off", block: "path_sel", set: "path_sel_hold", file: "path_sel.v",
		old:    "if (sweep_conn_reg == i[PIDX_W-1:PATH_W] && sw_ho_over[i % PATHS]) begin",
		new:    "if (1'b0 && sw_ho_over[i % PATHS]) begin",
		breaks: "ps_ho_seen_h", induction: 1},
	// room and avoid on the RTL's inflight (path_sel_pick): the room bit set at inflight == cwnd after a decision;
	// a SUSPECT path picked without room; a retransmission not kept off its avoided path
	{name: "ps_room_off_by_one", block: "path_sel", set: "path_sel_pick", file: "path_sel.v",
		old:    "c_room_inc[i] = c_inflight_inc[i*IF_W +: IF_W] < c_cwnd[i*CW_W + 4 +: IF_W];",
		new:    "c_room_inc[i] = c_inflight_inc[i*IF_W +: IF_W] <= c_cwnd[i*CW_W + 4 +: IF_W];",
		breaks: "ps_room_h", bmc: 4},
	{name: "ps_suspect_no_room", block: "path_sel", set: "path_sel_pick", file: "path_sel.v",
		old: "sus[i] = p_state == ST_SUSPECT && c_room[i];", new: "sus[i] = p_state == ST_SUSPECT;",
		breaks: "ps_pick_room", bmc: 4},
	{name: "ps_retx_on_avoided", block: "path_sel", set: "path_sel_pick", file: "path_sel.v",
		old: "usable = usable & avoid_mask;", new: "usable = usable;", breaks: "ps_pick_avoid", bmc: 3},
	{name: "retx_window_full", block: "retx", set: "retx", file: "retx.v",
		old:    "tx_room = !tx_drop && !gbn_act_reg[s_tx_conn] && tx_span < WIN_PSN;",
		new:    "tx_room = !tx_drop && !gbn_act_reg[s_tx_conn] && tx_span <= WIN_PSN;",
		breaks: "retx_new_window", induction: 1, nightly: true},
	// a property mutant: no new packet is ever offered, so the PSN wrap cover is unreachable
	vacuous("retx_vacuous_no_tx", "retx", "retx", "!s_tx_valid", "c_retx_wrap"),
	// A's copy of una not forwarded from this cycle's progress (stale for the next ACK of the connection)
	{name: "retx_copy_stale_una", block: "retx", set: "retx", file: "retx.v",
		old:    "if (a_progress && a_conn_reg == a_conn_next) begin",
		new:    "if (1'b0) begin",
		breaks: "retx_copy_h", induction: 1},
	// counters: an error and a refused packet counted twice; the sent counter kept through a reset
	{name: "retx_cnt_errors_double", block: "retx", set: "retx_cnt", file: "retx.v",
		old:    "cnt_errors_next = cnt_errors_reg + {31'd0, l2_err};",
		new:    "cnt_errors_next = cnt_errors_reg + {30'd0, l2_err, 1'b0};",
		breaks: "retx_cnt_errors", induction: 1},
	{name: "retx_cnt_dropped_double", block: "retx", set: "retx_cnt", file: "retx.v",
		old:    "cnt_tx_dropped_next = cnt_tx_dropped_reg + {31'd0, tx_dropped};",
		new:    "cnt_tx_dropped_next = cnt_tx_dropped_reg + {30'd0, tx_dropped, 1'b0};",
		breaks: "retx_cnt_tx_dropped", induction: 1},
	{name: "retx_cnt_sent_double", block: "retx", set: "retx_cnt", file: "retx.v",
		old:    "cnt_sent_next = cnt_sent_reg + {31'd0, new_send};",
		new:    "cnt_sent_next = cnt_sent_reg + {30'd0, new_send, 1'b0};",
		breaks: "retx_cnt_sent", induction: 1},
	// the loss and timeout counters each counting the other kind's retransmissions
	{name: "retx_cnt_loss_on_rto", block: "retx", set: "retx_cnt", file: "retx.v",
		old:    "cnt_retx_loss_next = cnt_retx_loss_reg + {31'd0, l2_send && l2_kind_reg == K_HOLE};",
		new:    "cnt_retx_loss_next = cnt_retx_loss_reg + {31'd0, l2_send && l2_kind_reg == K_RTO};",
		breaks: "retx_cnt_retx_loss", induction: 1},
	{name: "retx_cnt_timeout_on_hole", block: "retx", set: "retx_cnt", file: "retx.v",
		old:    "cnt_retx_timeout_next = cnt_retx_timeout_reg + {31'd0, l2_send && l2_kind_reg == K_RTO};",
		new:    "cnt_retx_timeout_next = cnt_retx_timeout_reg + {31'd0, l2_send && l2_kind_reg == K_HOLE};",
		breaks: "retx_cnt_retx_timeout", induction: 1},
	{name: "retx_cnt_sent_kept", block: "retx", set: "retx_cnt", file: "retx.v",
		old: "        cnt_sent_reg <= 32'd0;\n", new: "", breaks: "retx_cnt_reset", induction: 1},
	vacuous("retx_cnt_vacuous_no_tx", "retx", "retx_cnt", "!s_tx_valid", "c_retx_cnt_sent"),
	vacuous("retx_resp_vacuous_no_tx", "retx", "retx_resp", "!s_tx_valid", "c_retx_resp_hole"),
	{name: "retx_resend_next", block: "retx", set: "retx", file: "retx.v",
		old: "x_psn = ent_psn;", new: "x_psn = ent_psn + PSN_ONE;", breaks: "retx_retx_outst", induction: 1},
	{name: "retx_ack_past_nxt", block: "retx", set: "retx", file: "retx.v",
		old:    "adv_ok = a_off != {PSN_WIDTH{1'b0}} && a_off <= a_span;",
		new:    "adv_ok = a_off != {PSN_WIDTH{1'b0}} && a_off <= a_span + PSN_ONE;",
		breaks: "retx_una_nxt", induction: 1},
	{name: "retx_err_early", block: "retx", set: "retx", file: "retx.v",
		old:    "l2_maxed = ent_retries == RETR_MAX;",
		new:    "l2_maxed = ent_retries + {{RETR_W-1{1'b0}}, 1'b1} == RETR_MAX;",
		breaks: "retx_err_retries", induction: 1},
	{name: "retx_retries_stuck", block: "retx", set: "retx", file: "retx.v",
		old: "x_retries = ent_retries + {{RETR_W-1{1'b0}}, 1'b1};", new: "x_retries = ent_retries;",
		breaks: "retx_retries_step", induction: 1},
	{name: "retx_pkt_overwrite", block: "retx", set: "retx", file: "retx.v",
		old: "out_free = !m_pkt_valid_reg || m_pkt_ready;", new: "out_free = 1'b1;",
		breaks: "retx_pkt_hold", induction: 1},
	{name: "retx_two_sends", block: "retx", set: "retx", file: "retx.v",
		old: "slot_free = !l2_valid_reg || l2_nok;", new: "slot_free = 1'b1;",
		breaks: "retx_one_send", induction: 1},
	{name: "retx_cnt_visit", block: "retx", set: "retx_cnt", file: "retx.v",
		old: "cnt_timeouts_next = cnt_timeouts_reg + {31'd0, v_expire};",
		new: "cnt_timeouts_next = cnt_timeouts_reg + {31'd0, visit};", breaks: "retx_cnt_timeouts", induction: 1},
	{name: "retx_cnt_path_ignored", block: "retx", set: "retx_cnt", file: "retx.v",
		old:    "a_ignored = a_fire && (!a_live || !(adv_ok || path_ok || nak_ok));",
		new:    "a_ignored = a_fire && (!a_live || !(adv_ok || nak_ok));",
		breaks: "retx_cnt_ack_ignored", induction: 1},
	{name: "retx_una_psn_next", block: "retx", set: "retx_cnt", file: "retx.v",
		old: "m_una_psn_reg <= a_psn_reg;", new: "m_una_psn_reg <= a_psn_reg + PSN_ONE;", breaks: "retx_una_out",
		induction: 1},
	{name: "retx_una_every_ack", block: "retx", set: "retx_cnt", file: "retx.v",
		old: "m_una_valid_reg <= a_progress;", new: "m_una_valid_reg <= a_fire;", breaks: "retx_una_out", induction: 1},
	// housekeeping (retx_cnt, retx_gbn): a control leaves L2's candidate of its connection; a close leaves an RTO
	// lookup pending (the open branch alone clears it)
	{name: "retx_ctl_keeps_l2", block: "retx", set: "retx_cnt", file: "retx.v",
		old:    "if (ctl_hs && l2_valid_reg && l2_conn_reg == s_ctl_conn) begin",
		new:    "if (1'b0) begin",
		breaks: "retx_ctl_clears", induction: 1},
	{name: "retx_close_keeps_rto_pend", block: "retx", set: "retx_cnt", file: "retx.v",
		old: "if (ctl_hs && s_ctl_conn == c[CONN_W-1:0]) begin\n            rto_pend_next[c] = 1'b0;",
		new: "if (ctl_hs && s_ctl_conn == c[CONN_W-1:0]) begin\n            " +
			"rto_pend_next[c] = rto_pend_next[c] && s_ctl_open;",
		breaks: "retx_ctl_clears", induction: 1},
	// memory writes (retx_cnt): the path map written at the next path sequence; the tx table also written while
	// m_pkt is held (a transmission offered without a free output)
	{name: "retx_pm_next_pseq", block: "retx", set: "retx_cnt", file: "retx.v",
		old:    "pm_wr_addr = {x_conn, s_path_path, x_pseq[SACK_W-1:0]};",
		new:    "pm_wr_addr = {x_conn, s_path_path, x_pseq_inc[SACK_W-1:0]};",
		breaks: "retx_mem_data", induction: 1},
	{name: "retx_tx_write_held", block: "retx", set: "retx_cnt", file: "retx.v",
		old: "tx_wr_en = xmit && !rst;", new: "tx_wr_en = (xmit || (s_path_valid && !out_free)) && !rst;",
		breaks: "retx_mem_write", induction: 1},
	// bounded response (retx_resp): every retransmission waits for T to drain (not only an RTO one); a timeout
	// lookup waits for an empty A (starved by the ACK stream)
	{name: "retx_resp_hole_behind_t", block: "retx", set: "retx_resp", file: "retx.v",
		old: "(l2_kind_reg != K_RTO || !to_valid_reg);", new: "!to_valid_reg;",
		breaks: "retx_resp_hole", induction: 1},
	// L2's timeout waits while ACKs arrive: a hole in L1 behind it waits too (retx_resp_l1_h); with the wait only
	// when nothing else does (no L1, no S mask, no timeout of connection 0 pending), the bound of L2 itself
	{name: "retx_resp_l2_rto_stalls_l1", block: "retx", set: "retx_resp", file: "retx.v",
		old: "(l2_kind_reg != K_RTO || !to_valid_reg);", new: "(l2_kind_reg != K_RTO || (!to_valid_reg && !a_valid_reg));",
		breaks: "retx_resp_l1_h", induction: 1},
	{name: "retx_resp_rto_l2_waits_ack", block: "retx", set: "retx_resp", file: "retx.v",
		old: "(l2_kind_reg != K_RTO || !to_valid_reg);",
		new: "(l2_kind_reg != K_RTO || (!to_valid_reg &&\n" +
			"        !(a_valid_reg && !l1_valid_reg && sc_mask_reg == {SACK_BITS{1'b0}} && !rto_pend_reg[0])));",
		breaks: "retx_resp_rto", induction: 1},
	{name: "retx_resp_rto_waits_ack", block: "retx", set: "retx_resp", file: "retx.v",
		old:    "issue_rto = adv && !sc_busy && !GBN_MODE && rto_any;",
		new:    "issue_rto = adv && !sc_busy && !GBN_MODE && rto_any && !a_valid_reg;",
		breaks: "retx_resp_pend_h", induction: 1},
	// the selector hint (retx_cnt): a retransmission's avoided path from L2's candidate (the ACK's path), not its
	// tx entry; a new packet hinted without room in the window (shown, never taken)
	{name: "retx_preq_avoid_cand", block: "retx", set: "retx_cnt", file: "retx.v",
		old: "m_preq_avoid_int = ent_path;", new: "m_preq_avoid_int = l2_path_reg;", breaks: "retx_preq_use",
		induction: 1},
	{name: "retx_preq_no_room", block: "retx", set: "retx_cnt", file: "retx.v",
		old:    "end else if (!rst && s_tx_valid && tx_room && slot_free && !frozen) begin",
		new:    "end else if (!rst && s_tx_valid && slot_free && !frozen) begin",
		breaks: "retx_preq_take", induction: 1},
	{name: "retx_gbn_feedback", block: "retx", set: "retx_gbn", file: "retx.v",
		old:    "path_ok = !GBN_MODE && a_d != {PSEQ_WIDTH{1'b0}} && a_d <= a_sent;",
		new:    "path_ok = a_d != {PSEQ_WIDTH{1'b0}} && a_d <= a_sent;",
		breaks: "retx_gbn_fb_h", induction: 1},
	{name: "retx_gbn_rto_pend", block: "retx", set: "retx_gbn", file: "retx.v",
		old:    "gbn_act_next[c] = 1'b1;\n                    rw_next",
		new:    "gbn_act_next[c] = 1'b1;\n                    rto_pend_next[c] = 1'b1;\n                    rw_next",
		breaks: "retx_gbn_kind_h", induction: 1},
	{name: "retx_gbn_new_in_rewind", block: "retx", set: "retx_gbn", file: "retx.v",
		old:    "tx_room = !tx_drop && !gbn_act_reg[s_tx_conn] && tx_span < WIN_PSN;",
		new:    "tx_room = !tx_drop && tx_span < WIN_PSN;",
		breaks: "retx_gbn_no_new", induction: 1},
	{name: "retx_gbn_resend_acked", block: "retx", set: "retx_gbn", file: "retx.v",
		old:    "K_GBN: l2_ok = l2_live && l2_outst && ent_psn == l2_psn_reg;",
		new:    "K_GBN: l2_ok = l2_live && ent_psn == l2_psn_reg;",
		breaks: "retx_gbn_outst", induction: 1},
	{name: "retx_gbn_rw_past_nxt", block: "retx", set: "retx_gbn_rw", file: "retx.v",
		old:    "gbn_last = gbn_rw_inc == nxt_reg[gbn_c*PSN_WIDTH +: PSN_WIDTH];",
		new:    "gbn_last = rw_reg[gbn_c*PSN_WIDTH +: PSN_WIDTH] == nxt_reg[gbn_c*PSN_WIDTH +: PSN_WIDTH];",
		breaks: "retx_gbn_rw", induction: 1},
	{name: "retx_gbn_cnt_candidates", block: "retx", set: "retx_gbn", file: "retx.v",
		old:    "cnt_retx_gbn_next = cnt_retx_gbn_reg + {31'd0, l2_send && l2_kind_reg == K_GBN};",
		new:    "cnt_retx_gbn_next = cnt_retx_gbn_reg + {31'd0, l2_valid_reg && l2_kind_reg == K_GBN};",
		breaks: "retx_cnt_retx_gbn", induction: 1},
	nightlyOnly(vacuous("retx_gbn_vacuous_no_tx", "retx", "retx_gbn", "!s_tx_valid", "c_retx_gbn_resend")),
	vacuous("retx_gbn_rw_vacuous_no_tx", "retx", "retx_gbn_rw", "!s_tx_valid", "c_retx_gbn_rewind"),
	{name: "nt_req_twice", block: "nic_transport", set: "nic_transport", file: "nic_transport.v",
		old: "!slot_valid_next[h_idx] && !slot_pend_next[h_idx]) begin", new: "!slot_valid_next[h_idx]) begin",
		breaks: "nt_req_once", bmc: 5},
	{name: "nt_pend_stuck", block: "nic_transport", set: "nic_transport", file: "nic_transport.v",
		old: "slot_pend_next[sel_idx] = 1'b0;", new: "", breaks: "nt_pend_h", induction: 1},
	{name: "nt_load_full", block: "nic_transport", set: "nic_transport", file: "nic_transport.v",
		old: "!slot_valid_next[h_idx] && !slot_pend_next[h_idx]) begin", new: "!slot_pend_next[h_idx]) begin",
		breaks: "nt_slot_excl", induction: 1},
	{name: "nt_sel_overwrite", block: "nic_transport", set: "nic_transport", file: "nic_transport.v",
		old: "sel_idx = {ps_sel_conn, sel_kind};", new: "sel_idx = {ps_sel_conn, 1'b0};",
		breaks: "nt_sel_slot", induction: 1},
	{name: "nt_offer_empty", block: "nic_transport", set: "nic_transport", file: "nic_transport.v",
		old: "tx_s_path_valid = tx_preq_valid && (GBN_MODE || h_full);", new: "tx_s_path_valid = tx_preq_valid;",
		breaks: "nt_use_full", bmc: 3},
	{name: "nt_use_keeps", block: "nic_transport", set: "nic_transport", file: "nic_transport.v",
		old: "slot_valid_next[h_idx] = 1'b0;", new: "slot_valid_next[h_idx] = slot_valid_reg[h_idx];",
		breaks: "nt_use_once", induction: 1},
	{name: "nt_kind_lost", block: "nic_transport", set: "nic_transport", file: "nic_transport.v",
		old: "kinds_next[kinds_tail] = req_retx_reg;", new: "kinds_next[kinds_tail] = 1'b0;",
		breaks: "nt_kinds_h", induction: 1},
	// a property mutant: no packet is ever offered for transmission, so no path request is made and the
	// request cover is unreachable
	vacuous("nt_vacuous_no_tx", "nic_transport", "nic_transport", "!s_tx_valid", "c_nt_request"),
	{name: "nt_ctl_keeps_nak", block: "nic_transport", set: "nic_transport_gbn", file: "nic_transport.v",
		old: "if (nak_valid_next && nak_conn_next == ctl_c) begin",
		new: "if (1'b0 && nak_valid_next && nak_conn_next == ctl_c) begin", breaks: "nt_ctl_clears", bmc: 4},
	{name: "nt_nak_overwrite", block: "nic_transport", set: "nic_transport_gbn", file: "nic_transport.v",
		old: "(rx_pass ? rx_pkt_ready : !(rx_need_nak && nak_valid_reg));", new: "(rx_pass ? rx_pkt_ready : 1'b1);",
		breaks: "nt_nak_once", bmc: 4},
	{name: "nt_nak_dropped", block: "nic_transport", set: "nic_transport_gbn", file: "nic_transport.v",
		old: "if (!rx_ack_valid && nak_valid_reg && m_ack_ready) begin",
		new: "if (!rx_ack_valid && nak_valid_reg) begin", breaks: "nt_nak_kept", bmc: 4},
	{name: "nt_nak_resend", block: "nic_transport", set: "nic_transport_gbn", file: "nic_transport.v",
		old: "rx_ahead && !nak_sent_reg[s_rx_conn];", new: "rx_ahead;", breaks: "nt_nak_once", bmc: 4},
	{name: "nt_gbn_pass_ahead", block: "nic_transport", set: "nic_transport_gbn", file: "nic_transport.v",
		old: "rx_ahead = !rx_d[PSN_WIDTH-1] && rx_d != {PSN_WIDTH{1'b0}};", new: "rx_ahead = !rx_d[PSN_WIDTH-1];",
		breaks: "nt_gbn_pass", bmc: 4},
	{name: "nt_gbn_exp_skip", block: "nic_transport", set: "nic_transport_gbn", file: "nic_transport.v",
		old: "PSN_WIDTH] = rx_exp + PSN_ONE;", new: "PSN_WIDTH] = rx_exp + PSN_ONE + PSN_ONE;", breaks: "nt_gbn_exp",
		bmc: 4},
	{name: "nt_gbn_exp_no_reset", block: "nic_transport", set: "nic_transport_gbn", file: "nic_transport.v",
		old:    "            exp_reg[j*PSN_WIDTH +: PSN_WIDTH] <= {PSN_WIDTH{1'b0}};",
		new:    "            exp_reg[j*PSN_WIDTH +: PSN_WIDTH] <= exp_reg[j*PSN_WIDTH +: PSN_WIDTH];",
		breaks: "nt_gbn_exp", bmc: 4},
	{name: "nt_gbn_sent_no_reset", block: "nic_transport", set: "nic_transport_gbn", file: "nic_transport.v",
		old: "        nak_sent_reg <= {CONNS{1'b0}};", new: "        nak_sent_reg <= nak_sent_reg;",
		breaks: "nt_gbn_sent", bmc: 4},
	{name: "nt_gbn_sent_kept", block: "nic_transport", set: "nic_transport_gbn", file: "nic_transport.v",
		old: "            nak_sent_next[s_rx_conn] = 1'b0;",
		new: "            nak_sent_next[s_rx_conn] = nak_sent_reg[s_rx_conn];", breaks: "nt_gbn_sent", bmc: 4},
	{name: "nt_gbn_cnt_quiet_only", block: "nic_transport", set: "nic_transport_gbn", file: "nic_transport.v",
		old: "cnt_gbn_dropped_reg + 32'd1;", new: "cnt_gbn_dropped_reg + {31'd0, !rx_need_nak};",
		breaks: "nt_gbn_cnt", bmc: 4},
	{name: "nt_gbn_naks_no_reset", block: "nic_transport", set: "nic_transport_gbn", file: "nic_transport.v",
		old: "        cnt_naks_reg <= 32'd0;", new: "        cnt_naks_reg <= cnt_naks_reg;", breaks: "nt_gbn_cnt",
		bmc: 4},
	{name: "nt_gbn_verdict_untaken", block: "nic_transport", set: "nic_transport_gbn", file: "nic_transport.v",
		old: "gv_valid_reg <= GBN_MODE && s_rx_valid && rx_ready_int && !rx_pass;",
		new: "gv_valid_reg <= GBN_MODE && s_rx_valid && !rx_pass;", breaks: "nt_gbn_verdict", bmc: 4},
	{name: "nt_ack_merge_nak", block: "nic_transport", set: "nic_transport_gbn", file: "nic_transport.v",
		old: "assign m_ack_nak = !rx_ack_valid && nak_valid_reg;", new: "assign m_ack_nak = nak_valid_reg;",
		breaks: "nt_ack_merge", bmc: 4},
	{name: "nt_gbn_path_waits", block: "nic_transport", set: "nic_transport_gbn", file: "nic_transport.v",
		old: "tx_preq_valid && (GBN_MODE || h_full);", new: "tx_preq_valid && h_full;", breaks: "nt_gbn_path",
		bmc: 4},
	{name: "nt_gbn_path_entropy", block: "nic_transport", set: "nic_transport_gbn", file: "nic_transport.v",
		old: "prod = idx * 14'd997;", new: "prod = idx * 14'd991;", breaks: "nt_gbn_path", bmc: 4},
	vacuous("nt_gbn_vacuous_no_rx", "nic_transport", "nic_transport_gbn", "!s_rx_valid", "c_nt_nak_waits"),
	// nightly mutants for the assertions no other mutant names (helpers and second statements of a property)
	// path_sel_io: the all-failed status bit from connection 0 alone (disagrees with the vector it summarises)
	nightlyOnly(mutant{name: "ps_status_any_conn0", block: "path_sel", set: "path_sel_io", file: "path_sel.v",
		old: "m_status_all_failed_next = all_failed != {CONNS{1'b0}};", new: "m_status_all_failed_next = all_failed[0];",
		breaks: "ps_status_any", induction: 1}),
	// rx_reorder: the ACK FIFO popped while empty (the count wraps below 0); a packet writing open from its
	// descriptor's open bit, not the connection's (a packet after a close closes its connection, lag left)
	nightlyOnly(mutant{name: "rx_ack_pop_empty", block: "rx_reorder", set: "rx_reorder", file: "rx_reorder.v",
		old: "ack_pop = ack_count_reg != {AF_W+1{1'b0}} && m_ack_ready;", new: "ack_pop = m_ack_ready;",
		breaks: "rx_ack_fifo", bmc: 3}),
	nightlyOnly(mutant{name: "rx_pkt_writes_open", block: "rx_reorder", set: "rx_reorder", file: "rx_reorder.v",
		old: "s1_open_res = s1_ctl ? s1_open_reg : c_open;", new: "s1_open_res = s1_open_reg;",
		breaks: "rx_closed_idle", induction: 2}),
	// path_sel: a decision on a SUSPECT path moves it to PROBING (the move tested by state, not by the probe
	// flag), its loss count left standing outside ACTIVE and SUSPECT
	nightlyOnly(mutant{name: "ps_suspect_to_probing", block: "path_sel", set: "path_sel", file: "path_sel.v",
		old:    "if (sel_probe && c_state[(i % PATHS)*ST_W +: ST_W] == ST_FAILED) begin",
		new:    "if (c_state[(i % PATHS)*ST_W +: ST_W] != ST_ACTIVE) begin",
		breaks: "ps_consec_h", induction: 1}),
	// path_sel_hold: a fail in a tick cycle stamps this cycle's tick count (one tick early); S1's hold-off-over
	// bit kept through a fail of its path in the cycle; the bit computed at this cycle's tick count (a tick late)
	nightlyOnly(mutant{name: "ps_stamp_early", block: "path_sel", set: "path_sel_hold", file: "path_sel.v",
		old: "mem[s_fb_conn] <= ticks_next;", new: "mem[s_fb_conn] <= ticks_reg;", breaks: "ps_holdoff_stamp_h",
		induction: 1}),
	nightlyOnly(mutant{name: "ps_ho_over_through_fail", block: "path_sel", set: "path_sel_hold", file: "path_sel.v",
		old: "s1_ho_over[i] = !(fb_hs && f_fail && s_fb_conn == s1_conn_reg && s_fb_path == i[PATH_W-1:0])\n" +
			"            && (ho_over_reg",
		new: "s1_ho_over[i] = (ho_over_reg", breaks: "ps_ho_over_h", induction: 1}),
	nightlyOnly(mutant{name: "ps_ho_over_late", block: "path_sel", set: "path_sel_hold", file: "path_sel.v",
		old:    "|| ticks_next - ho_s1[i*TS_W +: TS_W] >= HOLDOFF);",
		new:    "|| ticks_reg - ho_s1[i*TS_W +: TS_W] >= HOLDOFF);",
		breaks: "ps_ho_set_h", induction: 1}),
	// retx_resp: the issue serves a waiting timeout before S's holes (a hole waits behind every timeout)
	nightlyOnly(mutant{name: "retx_resp_rto_before_hole", block: "retx", set: "retx_resp", file: "retx.v",
		old:    "issue_hole = adv && sc_busy;\n    issue_rto = adv && !sc_busy && !GBN_MODE && rto_any;",
		new:    "issue_hole = adv && sc_busy && !rto_any;\n    issue_rto = adv && !GBN_MODE && rto_any;",
		breaks: "retx_resp_s_h", induction: 1}),
	// retx_resp: L2's timeout waits while ACKs arrive and L1 holds another timeout (the one behind it waits too; with
	// the wait always, or while E is valid, a hole in L1 behind it fails retx_resp_l1_h first)
	nightlyOnly(mutant{name: "retx_resp_rto_l2_waits_ack_l1", block: "retx", set: "retx_resp", file: "retx.v",
		old: "(l2_kind_reg != K_RTO || !to_valid_reg);",
		new: "(l2_kind_reg != K_RTO || (!to_valid_reg &&\n" +
			"        !(a_valid_reg && l1_valid_reg && l1_kind_reg == K_RTO)));",
		breaks: "retx_resp_l1_rto_h", induction: 1}),
	// retx_gbn: the feedback output takes E without E valid (m_fb rises with nothing to show)
	nightlyOnly(mutant{name: "retx_gbn_fb_empty_e", block: "retx", set: "retx_gbn", file: "retx.v",
		old:    "ev_take = fb_free && !to_valid_reg && ev_valid_reg;",
		new:    "ev_take = fb_free && !to_valid_reg;",
		breaks: "retx_gbn_no_fb", induction: 1}),
}

// vacuous is a property mutant of a block: an input assumption added after the block's first-cycle
// `assume (rst)` removes behaviour its covers need, so the set's properties still hold and the cover check
// must fail on the cover named by breaks (BMC 1 and the cover check alone).
func vacuous(name, block, set, assume, breaks string) mutant {
	return mutant{name: name, block: block, set: set, file: block + ".v",
		old:    "        assume (rst);\n    end\nend",
		new:    "        assume (rst);\n    end\n    assume (" + assume + ");\nend",
		breaks: breaks, coverOnly: true}
}

// nightlyOnly marks m as a nightly mutant.
func nightlyOnly(m mutant) mutant {
	m.nightly = true
	return m
}

// TestMutantsFail applies each mutant to a copy of rtl/ and requires its property set to fail: the properties
// constrain what they claim to, and a vacuous proof is refused.
func TestMutantsFail(t *testing.T) {
	root, err := filepath.Abs("..")
	require.NoError(t, err)
	f, err := formal.Load(root)
	require.NoError(t, err)
	if missing := formal.Tools(f.Solver); len(missing) > 0 {
		t.Skipf("formal tools missing (%s): `make deps` installs them", strings.Join(missing, ", "))
	}
	for _, m := range mutants {
		m := m
		t.Run(m.name, func(t *testing.T) {
			if m.nightly && os.Getenv("SPRAYNIC_MUTANTS") != "all" {
				t.Skip("nightly mutant (its check takes minutes): SPRAYNIC_MUTANTS=all runs it, as make formal-nightly does")
			}
			// Mutants are independent (each its own RTL copy and output directory): run them side by side so that
			// the package uses every core the test binary gets once the other packages of `make test` are done.
			t.Parallel()
			checks, err := f.Select("nightly", []string{m.block})
			require.NoError(t, err)
			var c formal.Check
			for _, ch := range checks {
				if ch.Set == m.set {
					c = ch
				}
			}
			require.Equal(t, m.set, c.Set, "formal/presets.json should have property set %s", m.set)
			if m.bmc > 0 {
				// the failure is a counterexample from reset: BMC alone finds it
				c.Induction, c.BMC, c.Cover = 0, m.bmc, 0
			}
			if m.induction > 0 {
				c.Induction, c.BMC, c.Cover = m.induction, 0, 0
			}
			if m.coverOnly {
				c.Induction, c.BMC = 0, 1
			}
			rtl := t.TempDir()
			// every RTL file: a block's manifest files (nic_transport: its three blocks too)
			files, err := filepath.Glob(filepath.Join(root, "rtl", "*.v"))
			require.NoError(t, err)
			for _, file := range files {
				name := filepath.Base(file)
				b, err := os.ReadFile(file)
				require.NoError(t, err)
				s := string(b)
				if name == m.file {
					require.Equal(t, 1, strings.Count(s, m.old), "mutant text should occur once in %s", name)
					s = strings.Replace(s, m.old, m.new, 1)
				}
				require.NoError(t, os.WriteFile(filepath.Join(rtl, name), []byte(s), 0o644))
			}
			// no budget of its own: a mutant may take until go test's deadline (-timeout), which bounds the package
			ctx, cancel := context.Background(), context.CancelFunc(func() {})
			if d, ok := t.Deadline(); ok {
				ctx, cancel = context.WithDeadline(ctx, d)
			}
			defer cancel()
			rs, err := formal.Run(ctx, f, []formal.Check{c}, formal.Options{Root: root, RTL: rtl, Out: t.TempDir(),
				Jobs: 2})
			require.NoError(t, err)
			require.False(t, formal.Passed(rs), "mutant %s should make %s fail, got %+v", m.name, m.set, rs)
			var text []string
			for _, r := range rs {
				text = append(text, r.Text())
			}
			t.Logf("%s: %s", m.name, strings.Join(text, "; "))
			require.Contains(t, strings.Join(text, "; "), m.breaks, "the failure should name %s", m.breaks)
		})
	}
}
