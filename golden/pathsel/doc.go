// Package pathsel is the cycle-accurate golden model of rtl/path_sel.v, per docs/path_sel.md.
package pathsel
