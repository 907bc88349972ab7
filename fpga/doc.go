// Package fpga runs spraynic's FPGA synthesis flows (yosys, nextpnr-ice40, icepack) over every top of
// rtl/manifest.json, turns the tool logs into machine-readable reports, compares them with the committed baseline
// and generates the vendor (Vivado) project scripts and the FuseSoC core file from the same manifest and config.
package fpga
