// Package coverage runs a suite on the Verilator coverage models (Run, one shard or all; Merge joins shards) and
// turns the line, toggle and functional data into reports users can act on: per block and configuration,
// percentages, per-file numbers and uncovered lines, after the reviewed exclusions (exclusions.yaml). It compares
// two reports for CI (Diff, DiffFunctional) and checks a report against the targets and the testplan (Check).
package coverage
