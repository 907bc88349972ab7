// Package regress runs suites of co-simulation runs: the built-in smoke and nightly suites and user suite files,
// their expansion into requests (test, config, seed, cycles), parallel isolated execution with timeouts, the
// summary table, results as JSON, merging of shards, Slurm job arrays and JUnit XML.
package regress
