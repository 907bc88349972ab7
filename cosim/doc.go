// Package cosim runs RTL tops under Verilator in lockstep with their golden models: it builds a top's Verilator
// model (through cosim/bridge), lays the golden model's port records onto the model's ports, compares every output
// port every cycle (Lockstep) and holds the registry of named tests (Test, Request, Run): one test is one block or
// top, one stimulus and one scoreboard, and a run is a pure function of (test, config, seed, cycles).
//
// The words used here: a "model" is the Verilator model of an RTL top (bridge.Model); its Go counterpart is the
// "golden" model (Golden); the transaction checkers are the scoreboards (package scoreboard).
package cosim
