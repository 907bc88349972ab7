// Package testseed is the seed of the seeded tests: SEED=N in the environment, else Default. Every seeded test
// prints the seed it ran with, so that a failure names the SEED that reproduces it.
package testseed
