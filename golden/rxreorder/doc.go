// Package rxreorder is the cycle-accurate golden model of the rx_reorder block (docs/rx_reorder.md): Step
// computes every output port of one clock cycle from the registered state and that cycle's inputs, then applies
// the clock edge. The model works at the architectural level the document allows: stage 1 always sees the latest
// per-connection and per-path state (what the RTL's path-RAM forwarding achieves), RAM read ports are not modelled.
package rxreorder
