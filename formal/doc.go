// Package formal runs the RTL's formal property sets: yosys writes an SMT2 model of one block with one proof
// preset (formal/presets.json), yosys-smtbmc checks it by bounded model checking, k-induction and cover, and the
// results come back as a table, JUnit XML and, for a failure, a counterexample VCD naming the step and the
// failing assertion. docs/formal.md is the contract: what is proved, for which configurations, and how.
package formal
