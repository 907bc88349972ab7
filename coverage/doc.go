// Package coverage turns Verilator line and toggle coverage data into reports users can act on (per block and
// configuration: line and toggle percentages, per-file numbers, uncovered lines) and compares two reports for CI.
package coverage
