package ibrc

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/spraynic/spraynic/testseed"
)

// payload returns n seeded bytes.
func payload(rng *rand.Rand, n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(rng.Uint32())
	}
	return b
}

// TestTransfer sends messages of 1 B .. 1 MiB both ways at once over the simulated link, with and without loss,
// and compares every received message byte for byte.
func TestTransfer(t *testing.T) {
	seed := testseed.Seed(t)
	sizes := []int{1, 2, 1023, 1024, 1025, 4096, 65536, 1 << 20}
	for _, loss := range []float64{0, 0.01, 0.05} {
		t.Run(fmt.Sprintf("loss=%v", loss), func(t *testing.T) {
			l := newLink(t, seed, loss, 0xFFFF00, 0x123456)
			rng := rand.New(rand.NewPCG(seed, 1))
			var want [2][][]byte
			for _, n := range sizes {
				for i := range 2 {
					m := payload(rng, n)
					require.NoError(t, l.eps[i].Post(m))
					want[1-i] = append(want[1-i], m)
				}
			}
			l.run(60 * time.Second)
			for i, e := range l.eps {
				require.NoError(t, e.Err())
				require.Zero(t, e.Outstanding())
				got := e.Received()
				require.Len(t, got, len(sizes))
				for k := range got {
					require.True(t, bytes.Equal(want[i][k], got[k]), "endpoint %d message %d (%d bytes)", i, k,
						len(want[i][k]))
				}
				s := e.Stats()
				require.Equal(t, len(sizes), s.MsgsSent)
				require.EqualValues(t, len(sizes), s.PeerMSN)
				if loss == 0 {
					require.Zero(t, s.Retransmitted+s.NAKsSent+s.Duplicates+s.Timeouts)
				}
				t.Logf("seed %d endpoint %d: %+v", seed, i, s)
			}
			if loss > 0 {
				require.NotZero(t, l.drops)
			}
		})
	}
}

// TestRetryLimit: a peer that never answers fails the requester after RetryLimit+1 timeouts.
func TestRetryLimit(t *testing.T) {
	l := newLink(t, 1, 0, 0, 0)
	l.hook = func(from int, _ []byte) bool { return from != 0 }
	require.NoError(t, l.eps[0].Post([]byte("x")))
	for range 20 {
		l.poll(0)
		l.now += 2 * time.Millisecond
	}
	require.ErrorIs(t, l.eps[0].Err(), ErrRetryExceeded)
	require.Equal(t, 8, l.eps[0].Stats().Timeouts)
	require.Equal(t, 8, l.eps[0].Stats().DataSent)
}
