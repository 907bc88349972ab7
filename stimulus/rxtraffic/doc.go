// Package rxtraffic is seeded constrained-random traffic for the rx_reorder block: senders that respect the
// receive window, a network that reorders across and within paths, loses, duplicates and corrupts PSNs, random
// back-pressure, connection churn and resets.
package rxtraffic
