// Package rxtraffic is seeded stimulus for the rx_reorder block. Its random profiles drive senders that respect
// the receive window over a network that reorders across and within paths, loses (with or without a
// retransmission), duplicates and ECN-marks packets, plus packets beyond the window and to closed connections,
// ack-request flags, random or bursty back-pressure, connection churn and resets. Its directed scripts drive
// tables of steps with the counters each run must end with (window edges across the 2^24 wrap, one path, stalled
// outputs, a close with packets pending, reset bursts).
package rxtraffic
