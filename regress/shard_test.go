package regress_test

import (
	"testing"

	"github.com/spraynic/spraynic/cosim"
	"github.com/spraynic/spraynic/regress"
	"github.com/stretchr/testify/require"
)

func TestParseShard(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		i, n     int
		err      string
	}{
		{name: "first", in: "1/4", i: 1, n: 4},
		{name: "last", in: "4/4", i: 4, n: 4},
		{name: "one", in: "1/1", i: 1, n: 1},
		{name: "no slash", in: "3", err: "want i/n"},
		{name: "zero index", in: "0/4", err: "i=\"0\" must be an integer in 1..4"},
		{name: "index beyond n", in: "5/4", err: "i=\"5\" must be an integer in 1..4"},
		{name: "zero shards", in: "1/0", err: "n=\"0\" must be an integer in 1..10000"},
		{name: "not a number", in: "a/b", err: "n=\"b\""},
		{name: "negative", in: "-1/2", err: "i=\"-1\""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			i, n, err := regress.ParseShard(tc.in)
			if tc.err != "" {
				require.ErrorContains(t, err, tc.err)
				return
			}
			require.NoError(t, err)
			require.Equal(t, tc.i, i, "shard index")
			require.Equal(t, tc.n, n, "shard count")
		})
	}
}

// TestShardUnion checks that the shards of a suite, together, are exactly the unsharded run list: every run in one
// shard, none twice, none lost, for shard counts below, at and above the number of runs.
func TestShardUnion(t *testing.T) {
	r := root(t)
	for _, tc := range []struct {
		name   string
		suite  string
		shards []int
	}{
		{name: "smoke", suite: "smoke", shards: []int{1, 2, 3, 7, 64, 1000}},
		{name: "nightly", suite: "nightly", shards: []int{1, 4, 13, 10000}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			all, err := regress.Suites[tc.suite].Expand(r, 1)
			require.NoError(t, err)
			require.NotEmpty(t, all)
			for _, n := range tc.shards {
				var union []cosim.Request
				count := map[string]int{}
				for i := 1; i <= n; i++ {
					s := regress.Shard(all, i, n)
					require.LessOrEqual(t, len(s), (len(all)+n-1)/n, "shard %d/%d is balanced", i, n)
					for _, q := range s {
						count[q.Repro()]++
					}
					union = append(union, s...)
				}
				require.Len(t, union, len(all), "%d shards hold every run once", n)
				for _, q := range all {
					require.Equal(t, 1, count[q.Repro()], "run %s in exactly one of %d shards", q.Repro(), n)
				}
				again := regress.Shard(all, 1, n)
				require.Equal(t, again, regress.Shard(all, 1, n), "sharding is deterministic")
			}
		})
	}
}
