// Package spraynic is the module root. Its only job is its test: the package layers written in README.md,
// section "Architecture", are the import rules of the module, and layers_test.go fails on a package that imports
// a layer above its own, or on a package that belongs to no layer.
package spraynic
