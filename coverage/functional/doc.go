// Package functional is functional coverage: cover groups of points and crosses with named bins, hit counts,
// bins a configuration cannot reach, merging over runs, JSON, and comparison of two reports' bins.
//
// The groups of the RTL tops (samplers.go) are sampled once per cycle from the golden model's inputs and outputs
// as the lockstep runner sees them (cosim.Sampler); nothing here looks inside a model or changes a check.
package functional
