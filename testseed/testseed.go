package testseed

import (
	"os"
	"strconv"
	"testing"
)

// Default is the seed of a test run without SEED.
const Default = 1

// Seed returns SEED from the environment, or Default when it is unset; a SEED that is not an unsigned integer
// fails the test, naming the value.
func Seed(t testing.TB) uint64 {
	t.Helper()
	s := os.Getenv("SEED")
	if s == "" {
		return Default
	}
	v, err := strconv.ParseUint(s, 10, 64)
	if err != nil {
		t.Fatalf("SEED=%q: not an unsigned integer (allowed: 0..%d)", s, uint64(1<<64-1))
	}
	return v
}
