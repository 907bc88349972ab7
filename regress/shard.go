package regress

import (
	"fmt"
	"strconv"
	"strings"
)

// MaxShards bounds n in --shard i/n.
const MaxShards = 10000

// ParseShard parses "i/n" (1 <= i <= n <= MaxShards).
func ParseShard(s string) (i, n int, err error) {
	a, b, ok := strings.Cut(s, "/")
	if !ok {
		return 0, 0, fmt.Errorf("shard %q: want i/n, for example 2/4 (the 2nd of 4 shards)", s)
	}
	if n, err = strconv.Atoi(b); err != nil || n < 1 || n > MaxShards {
		return 0, 0, fmt.Errorf("shard %q: n=%q must be an integer in 1..%d", s, b, MaxShards)
	}
	if i, err = strconv.Atoi(a); err != nil || i < 1 || i > n {
		return 0, 0, fmt.Errorf("shard %q: i=%q must be an integer in 1..%d", s, a, n)
	}
	return i, n, nil
}

// Shard returns shard i of n (1-based) of reqs: every n-th request starting at index i-1. Round robin spreads
// every test and config over the shards; the union of shards 1..n is reqs, each request in exactly one shard.
func Shard[T any](reqs []T, i, n int) []T {
	var s []T
	for k := i - 1; k < len(reqs); k += n {
		s = append(s, reqs[k])
	}
	return s
}
