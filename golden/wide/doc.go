// Package wide is a fixed-size bit vector of up to 256 bits, the Go value of a wide port (SACK bitmaps).
package wide
