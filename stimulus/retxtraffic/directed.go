package retxtraffic

// The directed scripts: one rule of docs/retx.md each, with the exact outcome on the ports. Every script opens its
// connections in cycle 2 (after the two reset cycles every run begins with), so the timer visits connection c in
// the cycles 2 + c + k*TICK_CYCLES. Expected cycles are derived from the labelled handshakes and the
// configuration; every script ends with nothing outstanding on an open, healthy connection.
//
// Each script is a value: its steps are a table of rows (what to drive; OpAt and idle rows say when), its
// expectations a table of rows judged on the whole run. The ScriptDriver plays the steps, its Check judges the
// expectations.

// directed is the table of the directed scripts.
var directed = []Script{
	sackHole, windowFull, rtoBackoff, maxRetries, gbnNak, ctlFlush(false), ctlFlush(true), gbnAckRewind,
	sackAllLost, sackRegion, wrapScript, resetMid, earlyScan, ackReqAge, earlyLater, earlyHold,
}
