// Package fpga runs spraynic's FPGA synthesis flows (yosys, nextpnr-ice40, icepack) over the tops of
// rtl/manifest.json (one marked synth_when_named only when it is named), turns the tool logs into
// machine-readable reports, compares them with the committed baseline and generates the vendor (Vivado) project
// scripts and the FuseSoC core file from the same manifest and config.
package fpga
