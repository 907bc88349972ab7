package bridge_test

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/spraynic/spraynic/cosim/bridge"
)

// BenchmarkStep compares the ways of running the probe (W=70): one cgo call per cycle, 1024-cycle batches, and the
// C++ loop of RunRaw without outputs. One op is one cycle, so ns/op is the time per cycle.
func BenchmarkStep(b *testing.B) {
	const batch = 1024
	m := openProbe(b, bridge.Plain, 70)
	ports := m.Ports()
	var in []uint32
	for _, v := range randomInputs(rand.New(rand.NewPCG(4, 5)), ports, batch) {
		in = append(in, pack(ports, bridge.In, v)...)
	}
	iw, ow := m.InWords(), m.OutWords()
	out := make([]uint32, batch*ow)

	b.Run("per-cycle", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			k := i % batch
			if err := m.Step(1, in[k*iw:(k+1)*iw], out[:ow]); err != nil {
				require.NoError(b, err)
			}
		}
		b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "cycles/s")
	})
	b.Run("batch-1024", func(b *testing.B) {
		for done := 0; done < b.N; done += batch {
			n := min(batch, b.N-done)
			if err := m.Step(n, in[:n*iw], out[:n*ow]); err != nil {
				require.NoError(b, err)
			}
		}
		b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "cycles/s")
	})
	b.Run("raw", func(b *testing.B) {
		require.NoError(b, m.RunRaw(int64(b.N), in))
		b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "cycles/s")
	})
}
