// Package tops is the list of RTL tops (rtl/manifest.json): where the repository is, which source files each top
// needs, and which configuration parameters each top declares. Co-simulation, coverage and the FPGA flows all read
// the design through it, so a top is listed once.
package tops
