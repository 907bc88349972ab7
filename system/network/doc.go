// Package network is a seeded multipath network model for one direction of traffic: the sender's egress port, an
// ECMP hash onto N paths, and per path a tail-drop queue with ECN marking, scheduled failures, random loss
// (Bernoulli or Gilbert-Elliott) and propagation delay with jitter. Time is the NIC clock cycle passed in by the
// caller; fractional serialisation times are kept exact. A run is a pure function of its Config. The spec is
// docs/network.md.
package network
