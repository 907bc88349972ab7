// Package eventq is the time-ordered queue of the stimulus network models: items due at a cycle, popped in
// (due, insertion) order so that a run is a pure function of its seed.
package eventq
