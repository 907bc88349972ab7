// Command spraynic runs spraynic's co-simulations, regressions and configuration checks.
package main
