// Package scenario runs the transport's tail and scale scenarios (docs/e2e.md, "Scenarios"): named end-to-end
// runs over several seeds, each compared with its baseline run of the same seed and judged against its targets
// (goodput, p99 message completion time against the lossless run, losses recovered without a timeout, spurious
// retransmissions, recovery time after a path failure).
package scenario
