// Package config holds spraynic's configurations: the named presets and user files, validated once and turned
// into Verilog parameters. It is the single source of truth for every parameter of the RTL and the Go models.
package config
