// Package regmap holds the AXI4-Lite register map of the frame-level NIC top nic_roce as data: the one source
// from which the Verilog header rtl/nic_roce_regs.vh and the register table of docs/nic_roce.md are generated
// (`spraynic regmap`), and which the Go models read.
//
// A Map is a list of blocks; a block is a list of 32-bit registers at a base address, either once or repeated
// per connection at a stride (a window). Each register has an access type (RO, RW, W1C, WO) and fields, each
// with its bits, its reset value and the values a write may give it. Check holds a map to its own rules
// (aligned, no overlap, fields inside 32 bits, legal resets); Verilog and Table render it; Splice puts the
// table between the marker comments of a document.
package regmap
