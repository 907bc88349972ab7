// Command spraynic is the project's command line: co-simulation runs and regressions, the end-to-end simulator,
// traffic generation and capture replay, interop with Linux Soft-RoCE, FPGA synthesis, formal proofs, coverage,
// benchmarks, configuration and the register map generator.
package main
