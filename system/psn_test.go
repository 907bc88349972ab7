package system

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/spraynic/spraynic/config"
)

// TestStartPSNs: connection 0 starts at StartPSN in every run; the others start at offsets drawn from the seed,
// so that over the nightly suite's 20 seeds every bit of every connection's start PSN takes both values (the PSN
// state of every connection is exercised, not only its low bits).
func TestStartPSNs(t *testing.T) {
	const conns = 64
	var ones, zeros [conns]uint32
	for seed := uint64(1); seed <= 20; seed++ { // the nightly suite's seeds
		s := &sim{o: Options{StartPSN: 1<<24 - 100, Seed: seed}}
		require.Equal(t, uint32(1<<24-100), s.startPSN(0))
		require.Equal(t, s.startPSN(0)^1<<23, s.txPSN(1, 0), "B->A starts 2^23 away")
		for c := 1; c < conns; c++ {
			p := s.startPSN(c)
			require.Less(t, p, uint32(1<<24))
			ones[c] |= p
			zeros[c] |= ^p & (1<<24 - 1)
		}
	}
	for c := 1; c < conns; c++ {
		require.Equal(t, uint32(1<<24-1), ones[c]&zeros[c],
			"connection %d: start PSN bits that never changed over 20 seeds", c)
	}
}

// TestHandleTags: on every preset, the host handle tags are zero in the bits of the table index and, over the
// nightly suite's 20 seeds, take both values in every bit above it up to HANDLE_WIDTH.
func TestHandleTags(t *testing.T) {
	for _, name := range config.PresetNames() {
		cfg, err := config.Preset(name)
		require.NoError(t, err)
		low := config.Log2(cfg.Conns * 4 * cfg.Window)
		var ones, zeros uint32
		for seed := uint64(1); seed <= 20; seed++ {
			for k := uint64(0); k < 4; k++ {
				tag := handleTag(cfg, seed, k)
				require.Zero(t, tag&(1<<uint(low)-1), "%s: tag %#x has index bits", name, tag)
				ones |= tag
				zeros |= ^tag
			}
		}
		want := uint32(1<<uint(cfg.HandleWidth)-1) &^ uint32(1<<uint(low)-1)
		require.Equal(t, want, ones&zeros&want, "%s: tag bits that never changed", name)
		require.Zero(t, ones&^want, "%s: tag bits beyond HANDLE_WIDTH %d", name, cfg.HandleWidth)
	}
}
