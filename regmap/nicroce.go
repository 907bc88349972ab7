package regmap

// NicRoCE is the register map of the frame-level NIC top nic_roce (docs/nic_roce.md): 16 address bits, the
// global settings and status, the per-path status read, the counters and the connection table (a window of
// one 32-byte entry per connection).
func NicRoCE() Map {
	return Map{
		Name:      "nic_roce",
		Prefix:    "NR",
		AddrWidth: 16,
		Blocks:    []Block{globalBlock(), pathBlock(), counterBlock(), connBlock()},
	}
}

// word is a register of one field covering bits 0..width-1.
func word(name string, off uint32, acc Access, width int, desc string) Register {
	return Register{Name: name, Offset: off, Access: acc, Desc: desc,
		Fields: []Field{{Name: "value", Width: width, Desc: desc}}}
}

func globalBlock() Block {
	return Block{Name: "global", Base: 0x0000, Desc: "identity, capabilities, enable, local addresses",
		Registers: []Register{
			{Name: "ID", Offset: 0x00, Access: RO, Desc: "identifies the block",
				Fields: []Field{{Name: "value", Width: 32, Reset: 0x534E5243, Desc: "ASCII \"SNRC\""}}},
			{Name: "VERSION", Offset: 0x04, Access: RO, Desc: "register map version",
				Fields: []Field{{Name: "minor", Width: 16, Reset: 0, Desc: "compatible additions"},
					{Name: "major", Lsb: 16, Width: 16, Reset: 1, Desc: "incompatible changes"}}},
			{Name: "CAPS", Offset: 0x08, Access: RO, Desc: "parameters of this instance",
				Fields: []Field{
					{Name: "conns", Width: 11, ResetParam: "CONNS", Desc: "connections"},
					{Name: "paths", Lsb: 16, Width: 7, ResetParam: "PATHS", Desc: "paths per connection"}}},
			{Name: "CAPS_FRAME", Offset: 0x0C, Access: RO, Desc: "frame parameters of this instance",
				Fields: []Field{
					{Name: "mtu", Width: 13, ResetParam: "MTU", Desc: "largest payload, bytes"},
					{Name: "data_width", Lsb: 16, Width: 10, ResetParam: "DATA_WIDTH", Desc: "stream bits"}}},
			{Name: "CTRL", Offset: 0x10, Access: RW, Desc: "global enable",
				Fields: []Field{{Name: "enable", Width: 1, Reset: 0,
					Desc: "1: frames in and out, work requests taken; 0: frames in dropped, frames out held at a frame " +
						"boundary, no work request taken (posted receives are)"}}},
			{Name: "CNT_CLEAR", Offset: 0x14, Access: WO, Desc: "counter reset",
				Fields: []Field{{Name: "clear", Width: 1, Values: []uint32{1},
					Desc: "1 zeroes every CNT_ register in the cycle of the write"}}},
			{Name: "EVENTS", Offset: 0x18, Access: W1C, Desc: "sticky events since the bit was last cleared",
				Fields: []Field{
					{Name: "conn_error", Width: 1, Desc: "a connection went to error after MAX_RETRIES"},
					{Name: "all_failed", Lsb: 1, Width: 1, Desc: "every path of a connection failed"},
					{Name: "peer_drop", Lsb: 2, Width: 1, Desc: "a frame was dropped by the peer check"},
					{Name: "dma_error", Lsb: 3, Width: 1, Desc: "a DMA status reported an error"}}},
			{Name: "LOCAL_MAC_LO", Offset: 0x20, Access: RW, Desc: "local MAC, bytes 2..5",
				Fields: []Field{{Name: "value", Width: 32, Desc: "byte 5 in bits 7:0; Ethernet source of frames sent"}}},
			{Name: "LOCAL_MAC_HI", Offset: 0x24, Access: RW, Desc: "local MAC, bytes 0..1",
				Fields: []Field{{Name: "value", Width: 16, Desc: "byte 0 in bits 15:8; Ethernet source of frames sent"}}},
			{Name: "LOCAL_IP", Offset: 0x28, Access: RW, Desc: "local IPv4 address",
				Fields: []Field{{Name: "value", Width: 32, Desc: "first octet in bits 31:24; IPv4 source of frames sent"}}},
			{Name: "IP_TOS", Offset: 0x2C, Access: RW, Desc: "IPv4 DSCP and TTL of a connection's frames, taken at its open",
				Fields: []Field{
					{Name: "dscp", Width: 6, Reset: 26, Desc: "DSCP; the ECN bits are always ECT(0)"},
					{Name: "ttl", Lsb: 8, Width: 8, Reset: 64, Min: 1, Max: 255, Desc: "TTL, 1..255"}}},
		}}
}

func pathBlock() Block {
	return Block{Name: "path", Base: 0x0080, Desc: "per-path status, read through a select register",
		Registers: []Register{
			{Name: "PATH_SEL", Offset: 0x00, Access: RW, Desc: "the (connection, path) PATH_STATUS and PATH_COUNTS show",
				Fields: []Field{
					{Name: "conn", Width: 10, Below: "CONNS", Desc: "connection, < CONNS"},
					{Name: "path", Lsb: 16, Width: 6, Below: "PATHS", Desc: "path, < PATHS"}}},
			{Name: "PATH_STATUS", Offset: 0x04, Access: RO, Source: "path_sel.rd_state, rd_inflight, rd_cwnd",
				Desc: "state of the selected path",
				Fields: []Field{
					{Name: "state", Width: 2, Desc: "0 ACTIVE, 1 SUSPECT, 2 FAILED, 3 PROBING"},
					{Name: "all_failed", Lsb: 2, Width: 1, Desc: "every path of the connection failed or probing"},
					{Name: "inflight", Lsb: 8, Width: 8, Desc: "packets in flight"},
					{Name: "cwnd", Lsb: 16, Width: 12, Desc: "window, packets in 8.4 fixed point"}}},
			{Name: "PATH_ENTROPY", Offset: 0x08, Access: RO, Source: "path_sel.rd_entropy",
				Desc:   "UDP source port of the selected path",
				Fields: []Field{{Name: "entropy", Width: 16, Desc: "0xC000..0xFFFF"}}},
			{Name: "PATH_COUNTS", Offset: 0x0C, Access: RO, Source: "path_sel.rd_losses, rd_decisions",
				Desc: "since the connection was opened, wrapping",
				Fields: []Field{
					{Name: "losses", Width: 16, Desc: "lost or timed-out packets"},
					{Name: "decisions", Lsb: 16, Width: 16, Desc: "packets sent on it"}}},
		}}
}

// counter is one RO counter of the counter block.
type counter struct {
	name, source, desc string
}

// counters lists every counter: nic_transport's (its blocks' and its glue's), roce_rx's by reason, then the
// top's own.
var counters = []counter{
	{name: "SENT", source: "nic_transport.cnt_sent", desc: "new packets sent (retx)"},
	{name: "RETX_LOSS", source: "nic_transport.cnt_retx_loss", desc: "retransmissions of SACK-detected losses"},
	{name: "RETX_TIMEOUT", source: "nic_transport.cnt_retx_timeout", desc: "retransmissions on RTO"},
	{name: "RETX_GBN", source: "nic_transport.cnt_retx_gbn", desc: "go-back-N resends"},
	{name: "TIMEOUTS", source: "nic_transport.cnt_timeouts", desc: "RTO expiries"},
	{name: "ERRORS", source: "nic_transport.cnt_errors", desc: "connections put into error"},
	{name: "TX_DROPPED", source: "nic_transport.cnt_tx_dropped", desc: "packets refused: closed or errored"},
	{name: "ACK_IGNORED", source: "nic_transport.cnt_ack_ignored", desc: "ACKs that changed nothing"},
	{name: "ACCEPTED", source: "nic_transport.cnt_accepted", desc: "data packets accepted (rx_reorder)"},
	{name: "DUPLICATE", source: "nic_transport.cnt_duplicate", desc: "duplicates dropped"},
	{name: "OUT_OF_WINDOW", source: "nic_transport.cnt_out_of_window", desc: "beyond-window packets dropped"},
	{name: "CLOSED", source: "nic_transport.cnt_closed", desc: "packets to a closed connection (rx_reorder)"},
	{name: "DECISIONS", source: "nic_transport.cnt_decisions", desc: "path decisions (path_sel)"},
	{name: "PROBES", source: "nic_transport.cnt_probes", desc: "of them probes"},
	{name: "FAILURES", source: "nic_transport.cnt_failures", desc: "paths that became FAILED"},
	{name: "RECOVERIES", source: "nic_transport.cnt_recoveries", desc: "paths back from PROBING to ACTIVE"},
	{name: "GBN_DROPPED", source: "nic_transport.cnt_gbn_dropped", desc: "dropped by the go-back-N filter"},
	{name: "NAKS", source: "nic_transport.cnt_naks", desc: "NAKs of the go-back-N filter"},
	{name: "DATA", source: "roce_rx.cnt_data", desc: "data frames accepted by the parser"},
	{name: "ACK", source: "roce_rx.cnt_ack", desc: "ACK/NAK frames accepted by the parser"},
	{name: "NOT_ROCE", source: "roce_rx.cnt_not_roce", desc: "dropped: ErrNotRoCE"},
	{name: "TRUNCATED", source: "roce_rx.cnt_truncated", desc: "dropped: ErrTruncated"},
	{name: "INVALID", source: "roce_rx.cnt_invalid", desc: "dropped: ErrInvalid"},
	{name: "UNKNOWN_OPCODE", source: "roce_rx.cnt_unknown_opcode", desc: "dropped: ErrUnknownOpcode"},
	{name: "BAD_ICRC", source: "roce_rx.cnt_bad_icrc", desc: "dropped: ErrBadICRC"},
	{name: "LIMIT", source: "roce_rx.cnt_limit", desc: "dropped: ErrLimit"},
	{name: "MAC_ERROR", source: "roce_rx.cnt_mac_error", desc: "dropped: MAC bad-frame flag"},
	{name: "PEER_CLOSED", source: "nic_roce", desc: "dropped by the peer check: connection not open"},
	{name: "PEER_IP", source: "nic_roce", desc: "dropped by the peer check: source IP not the peer's"},
	{name: "PEER_MAC", source: "nic_roce", desc: "dropped by the peer check: source MAC not the peer's"},
	{name: "DISABLED", source: "nic_roce", desc: "frames dropped before the parser while CTRL.enable is 0"},
	{name: "RX_NO_BUFFER", source: "nic_roce", desc: "data frames of a message without a posted receive"},
	{name: "RX_OVERRUN", source: "nic_roce", desc: "data frames ending beyond their posted buffer"},
	{name: "TX_DATA", source: "nic_roce", desc: "data frames sent"},
	{name: "TX_ACK", source: "nic_roce", desc: "ACK/NAK frames sent"},
	{name: "WR_TAKEN", source: "nic_roce", desc: "send work requests taken"},
	{name: "CPL_SEND", source: "nic_roce", desc: "send completions, any status"},
	{name: "CPL_RECV", source: "nic_roce", desc: "receive completions, any status"},
	{name: "CPL_ERROR", source: "nic_roce", desc: "completions with a status other than OK"},
	{name: "DMA_RD_ERROR", source: "nic_roce", desc: "DMA read statuses with an error"},
	{name: "DMA_WR_ERROR", source: "nic_roce", desc: "DMA write statuses with an error"},
}

func counterBlock() Block {
	b := Block{Name: "counters", Base: 0x0100,
		Desc: "32-bit counters, wrapping, zeroed by reset and CNT_CLEAR; a write gets SLVERR"}
	for i, c := range counters {
		r := word("CNT_"+c.name, uint32(4*i), RO, 32, c.desc)
		r.Source = c.source
		b.Registers = append(b.Registers, r)
	}
	return b
}

func connBlock() Block {
	return Block{Name: "conn", Base: 0x1000, Stride: 0x20, Count: "CONNS", MaxCount: 1024,
		Desc: "connection table, entry c at 0x1000 + 0x20 c for c < CONNS (others: unknown)",
		Registers: []Register{
			{Name: "CONN_PEER_MAC_LO", Offset: 0x00, Access: RW, LockedOpen: true, Desc: "peer MAC, bytes 2..5",
				Fields: []Field{{Name: "value", Width: 32, Desc: "byte 5 in bits 7:0"}}},
			{Name: "CONN_PEER_MAC_HI", Offset: 0x04, Access: RW, LockedOpen: true,
				Desc: "peer MAC (Ethernet destination; source a frame must have), bytes 0..1; the MAC check",
				Fields: []Field{{Name: "value", Width: 16, Desc: "bytes 0..1 (byte 0 in bits 15:8)"},
					{Name: "check", Lsb: 16, Width: 1, Reset: 1,
						Desc: "1: a frame's source MAC must equal the peer MAC; 0: only the source IP is checked"}}},
			{Name: "CONN_PEER_IP", Offset: 0x08, Access: RW, LockedOpen: true, Desc: "peer IPv4 address",
				Fields: []Field{{Name: "value", Width: 32, Desc: "IPv4 destination; source a frame must have"}}},
			{Name: "CONN_PEER_QPN", Offset: 0x0C, Access: RW, LockedOpen: true, Desc: "peer's queue pair",
				Fields: []Field{{Name: "value", Width: 24, Reset: 2, Min: 2, Max: 0xFFFFFE,
					Desc: "BTH DestQP of frames sent, 2..0xFFFFFE"}}},
			{Name: "CONN_TX_PSN", Offset: 0x10, Access: RW, LockedOpen: true, Desc: "initial send PSN",
				Fields: []Field{{Name: "value", Width: 24, Desc: "PSN of the first packet sent after open"}}},
			{Name: "CONN_RX_PSN", Offset: 0x14, Access: RW, LockedOpen: true, Desc: "initial receive PSN",
				Fields: []Field{{Name: "value", Width: 24, Desc: "PSN expected first after open"}}},
			{Name: "CONN_CMD", Offset: 0x18, Access: WO, Desc: "open or close the connection",
				Fields: []Field{{Name: "cmd", Width: 2, Values: []uint32{1, 2},
					Desc: "1 open (from closed or error), 2 close"}}},
			{Name: "CONN_STATUS", Offset: 0x1C, Access: RO,
				Desc: "connection state",
				Fields: []Field{{Name: "state", Width: 2, Desc: "0 closed, 1 open, 2 error"},
					{Name: "all_failed", Lsb: 2, Width: 1, Desc: "every path failed or probing"},
					{Name: "sq_used", Lsb: 8, Width: 6, Desc: "send work requests outstanding, 0..SQ_DEPTH"},
					{Name: "rq_posted", Lsb: 16, Width: 6, Desc: "posted receives not yet used, 0..RQ_DEPTH"}}},
		}}
}
