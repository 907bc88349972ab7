package cosim

import (
	"errors"
	"testing"

	"github.com/spraynic/spraynic/config"
	"github.com/stretchr/testify/require"
)

// TestTooFewTransactions: a run that passes every check but sees fewer transactions than its test's minimum
// fails with one line naming the test, the count, the minimum and why, and the default length; a run at the
// minimum or above passes.
func TestTooFewTransactions(t *testing.T) {
	cfg, err := config.Resolve("default")
	require.NoError(t, err)
	fake := Test{Name: "fake", CyclesFor: func(config.Config) int64 { return 500 },
		MinFor: func(config.Config) Minimum { return Minimum{N: 10, Why: "ten of them"} }}
	random := fake
	random.MinFor = nil
	for _, tc := range []struct {
		name    string
		test    Test
		packets int64
		want    string
	}{
		{name: "none", test: fake, packets: 0, want: "fake config=default seed=7: transactions=0 in a 300-cycle run, " +
			"below the test's minimum of 10 (ten of them); its default length is 500 cycles\n" +
			"  reproduce: spraynic run --test fake --config default --seed 7 --cycles 300"},
		{name: "one short", test: fake, packets: 9, want: "fake config=default seed=7: transactions=9 in a 300-cycle " +
			"run, below the test's minimum of 10 (ten of them); its default length is 500 cycles\n" +
			"  reproduce: spraynic run --test fake --config default --seed 7 --cycles 300"},
		{name: "at the minimum", test: fake, packets: 10},
		{name: "above", test: fake, packets: 11},
		{name: "random test below one window", test: random, packets: int64(cfg.Window) - 1,
			want: "fake config=default seed=7: transactions=63 in a 300-cycle run, below the test's minimum of 64 (one " +
				"PSN window: with fewer, no connection's window can fill and the run checks little beyond its start-up " +
				"and drain); its default length is 500 cycles\n" +
				"  reproduce: spraynic run --test fake --config default --seed 7 --cycles 300"},
		{name: "random test at one window", test: random, packets: int64(cfg.Window)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := Request{Test: "fake", Config: cfg, Seed: 7, Cycles: 300}
			err := tc.test.enough(r, Result{Cycles: 300, Packets: tc.packets})
			if tc.want == "" {
				require.NoError(t, err, "%d transactions meet the minimum", tc.packets)
				return
			}
			require.EqualError(t, err, tc.want)
		})
	}
}

// TestRunTooShort: cosim.Run applies the minimum to golden runs of real tests: rx_loss ran shorter than its drain
// carries no traffic and fails (it used to pass with transactions=0); at its default length it passes, and a
// directed script's minimum is its own count.
func TestRunTooShort(t *testing.T) {
	cfg, err := config.Resolve("default")
	require.NoError(t, err)
	for _, tc := range []struct {
		name   string
		test   string
		cycles int64
		seen   int64
		min    int64
		tooFew bool
		deflen int64
	}{
		{name: "shorter than the drain", test: "rx_loss", cycles: 3000, tooFew: true, seen: 0, min: 64, deflen: 23620},
		{name: "one cycle", test: "rx_loss", cycles: 1, tooFew: true, seen: 0, min: 64, deflen: 23620},
		{name: "default length", test: "rx_loss", min: 64},
		{name: "directed rx script", test: "rx_dir_same_path", min: 15},
		{name: "directed nic script", test: "nic_dir_gbn_filter", min: 9},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := Request{Test: tc.test, Config: cfg, Seed: 7, Cycles: tc.cycles, Golden: true}
			res, err := Run(r)
			var few *TooFewError
			if !tc.tooFew {
				require.NoError(t, err)
				require.GreaterOrEqual(t, res.Packets, tc.min, "a passing run meets its minimum")
				tt, err := Lookup(tc.test)
				require.NoError(t, err)
				require.Equal(t, tc.min, tt.Minimum(cfg).N, "the test's minimum")
				return
			}
			require.True(t, errors.As(err, &few), "a run with %d transactions must be a TooFewError, got %v",
				res.Packets, err)
			require.Equal(t, tc.seen, few.Seen, "transactions seen")
			require.Equal(t, tc.min, few.Min.N, "minimum")
			require.Equal(t, tc.deflen, few.Default, "default length")
			require.Equal(t, tc.cycles, few.Cycles, "run length")
		})
	}
}
