// Package bench measures speed and cycle figures: per block and for the nic_transport top, raw Verilator, lockstep,
// Icarus and golden speed side by side; the two-endpoint system in lockstep beside both Verilator models alone;
// regression throughput; and the throughput and latency figures of one run (Measure*), checked in lockstep like
// any run. Figures are ratios measured in one run, never assertions of wall-clock speed.
package bench
