// Package system is the end-to-end transport simulation (docs/e2e.md): two endpoints built from the golden block
// models (golden/nictransport), a host model on each side (messages, segmentation, direct placement, byte-exact
// in-order completion checks), the multipath network model (system/network) between them, and the transfer
// scoreboard proving exactly-once delivery. Time is the NIC clock cycle; nothing reads the wall clock.
package system
