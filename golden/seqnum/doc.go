// Package seqnum is wrap-safe sequence-number arithmetic: the 24-bit connection PSN of RoCEv2 (type PSN) and
// n-bit sequence spaces such as the per-path sequence (type Space). Sequence numbers are never compared as raw
// integers: every order is the sign of a wrapped difference.
package seqnum
