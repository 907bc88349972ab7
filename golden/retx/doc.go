// Package retx is the cycle-accurate golden model of rtl/retx.v, per docs/retx.md.
package retx
