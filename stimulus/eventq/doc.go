// Package eventq is the time-ordered queue of the stimulus models (the networks of the block drivers, the DMA host):
// items due at a cycle, popped in (due, insertion) order so that a run is a pure function of its seed.
package eventq
