// Package retxtraffic is seeded stimulus for the retx block. Its random profiles drive an application that hands
// packets to the engine, a path selector that offers a path every cycle (and honours the engine's avoid hint), a
// network of paths that keep their packets in order but differ in delay (so packets reorder only across paths),
// lose, mark ECN and black out, a receiver behind them (selective: the rx_reorder rules; go-back-N: a RoCEv2
// responder with NAK) and a return path for ACKs that loses, delays, duplicates and replays them. Its directed
// scripts (ScriptDriver) drive tables of steps with the outcomes each run must show: SACK holes and regions, a full
// window, the PSN wrap, the early loss check, the ACK request age, RTO backoff and MAX_RETRIES, go-back-N NAKs and
// rewinds, control and reset in the middle of traffic.
package retxtraffic
