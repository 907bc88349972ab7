// Package rtlcheck holds the standalone Verilator checks of the frame blocks (roce_icrc, roce_rx, roce_tx) and of the
// AXI4-Lite register block nic_roce_csr: each test builds its vectors from the Go reference (system/roce frames and a
// simulated capture; the register map and the golden nicrocecsr twin), runs a self-checking testbench under rtl/tb
// with verilator --binary, and asserts on the summary the testbench prints. The package has no code outside its
// tests.
package rtlcheck
