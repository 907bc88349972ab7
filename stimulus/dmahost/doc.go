// Package dmahost is the host side of nic_roce's DMA client ports (docs/nic_roce.md, "Host model"): a sparse
// byte memory with 64-bit addresses and a model that serves the read and write descriptor, status and data
// ports cycle by cycle, with seeded latencies, back-pressure, read-data gaps and error injection.
//
// Convention: the host is a Moore machine. Drive(cycle, &out) gives the host's outputs of the cycle from its
// state alone; the DUT's outputs of that cycle, which may depend on them (a ready on a valid), are then handed
// to Observe(cycle, &in), which takes the clock edge: a beat or descriptor moves where valid and ready are both
// high. Call Drive and Observe once each per cycle, in that order.
//
// Every latency below is drawn from [LatencyMin, LatencyMax] cycles. Reads: a descriptor taken at edge t
// snapshots len bytes of memory at addr; its first beat is shown a latency after t and after the previous
// read's data; the bytes are packed from lane 0 (byte i on lane i mod K of beat i/K), tkeep covers the valid
// bytes only, tlast marks the last beat; a beat shown stays until it moves. The status (tag, error 0) comes a
// latency after the last beat moved; reads complete in descriptor order. Writes: a descriptor taken makes
// write-data tready possible from the next cycle; its beats must be packed from lane 0, tkeep contiguous and
// full on every beat but the last, tlast exactly on the last, len bytes in all. The status comes a latency
// after the last beat (statuses of different writes may pass each other, one per cycle); the bytes land in
// memory, marked as written by DMA, in the cycle the status is shown. An operation is outstanding, and its tag
// in use, from its descriptor's edge to its status's cycle; at most MaxOutstanding per direction (the
// descriptor ready is low while full). An injected error gives a status error in 1..15: a read then streams
// Poison bytes (0xEE) instead of memory, with tuser high on its last beat (low on every other beat, and on
// every beat of a read without error), a write takes its beats and writes nothing.
//
// Every DUT protocol violation (a valid dropped or an item changed before it moved, a tkeep hole, a wrong byte
// count, a missing or early tlast, len 0 or above the MTU, addr+len beyond 2^64, a tag above 255 or reused while
// outstanding) is returned by Observe as a *ProtocolError naming the port, what is wrong and what is allowed;
// the host then stops, and every later Observe returns the same error. A reset (the DUT's rst) drops every
// descriptor, beat and status in flight; memory keeps its bytes.
package dmahost
