package dmahost

import "fmt"

// DUTOut is the DUT's outputs the host sees in one cycle (nic_roce's names, docs/nic_roce.md "Ports"). Data
// byte i is lane i (bits 8i+7..8i of tdata); lanes at and above K are ignored.
type DUTOut struct {
	// Rst is the DUT's synchronous reset, taken by the host as its own.
	Rst bool
	// RdDesc* is m_dma_rd_desc: addr, len, tag, valid.
	RdDescAddr               uint64
	RdDescLen, RdDescTag     uint32
	RdDescValid, RdDataReady bool
	// WrDesc* is m_dma_wr_desc; RdDataReady above is s_axis_dma_rd_tready.
	WrDescAddr           uint64
	WrDescLen, WrDescTag uint32
	WrDescValid          bool
	// WrData, WrKeep, WrValid, WrLast are m_axis_dma_wr_tdata, _tkeep, _tvalid, _tlast.
	WrData          [MaxLanes]byte
	WrKeep          uint64
	WrValid, WrLast bool
}

// HostOut is the host's outputs of one cycle, the DUT's DMA inputs.
type HostOut struct {
	// RdDescReady is m_dma_rd_desc_ready; WrDescReady m_dma_wr_desc_ready; WrDataReady m_axis_dma_wr_tready.
	RdDescReady, WrDescReady, WrDataReady bool
	// RdData, RdKeep, RdValid, RdLast, RdUser are s_axis_dma_rd_tdata, _tkeep, _tvalid, _tlast, _tuser.
	// RdUser marks a failed read: high on its last beat, low on every other beat.
	RdData                  [MaxLanes]byte
	RdKeep                  uint64
	RdValid, RdLast, RdUser bool
	// RdSts* is s_dma_rd_sts: tag, error, valid; WrSts* is s_dma_wr_sts.
	RdStsTag, RdStsError uint32
	RdStsValid           bool
	WrStsTag, WrStsError uint32
	WrStsValid           bool
}

// Port names of the DUT's DMA outputs, as errors name them.
const (
	PortRdDesc = "m_dma_rd_desc"
	PortRdData = "s_axis_dma_rd"
	PortWrDesc = "m_dma_wr_desc"
	PortWrData = "m_axis_dma_wr"
	// PortHarness names a misuse of the host's own interface (Observe without Drive).
	PortHarness = "harness"
)

// ProtocolError is a DUT protocol violation on one port.
type ProtocolError struct {
	// Cycle is the cycle of the violation; Port the port (Port* constants).
	Cycle int64
	Port  string
	// What is wrong; Allowed is what the contract allows.
	What, Allowed string
}

func (e *ProtocolError) Error() string {
	return fmt.Sprintf("dmahost: cycle %d: %s: %s (allowed: %s)", e.Cycle, e.Port, e.What, e.Allowed)
}
