// Package rtlcheck holds the standalone Verilator checks of the frame blocks (roce_icrc, roce_rx, roce_tx): each test
// builds its vectors from the Go reference (system/roce frames and a simulated capture), runs a self-checking
// testbench under rtl/tb with verilator --binary, and asserts on the summary the testbench prints. The package has
// no code outside its tests.
package rtlcheck
