// Package registry holds the named tests of a stimulus package, its profiles or its directed scripts: a table of
// values registered at start-up, looked up by name, listed in name order.
package registry
