package system_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/spraynic/spraynic/golden/nictransport"
	"github.com/spraynic/spraynic/system"
	"github.com/spraynic/spraynic/testseed"
)

// ctlLog records the control operations an endpoint was shown (valid, not in reset), in order.
type ctlLog struct {
	ops []string
}

func (l *ctlLog) tap(in *nictransport.In) {
	if in.CtlValid && !in.Rst {
		l.ops = append(l.ops, fmt.Sprintf("%v:%d",
			map[bool]string{true: "open", false: "close"}[in.CtlOpen], in.CtlConn))
	}
}

// TestCplStall: with --cpl-stall the receiving host holds m_cpl_ready low in about that share of the cycles, and
// every message is still delivered; without it m_cpl_ready is always high.
func TestCplStall(t *testing.T) {
	sd := testseed.Seed(t)
	for _, stall := range []float64{0, 0.5} {
		t.Run(fmt.Sprint(stall), func(t *testing.T) {
			var cycles, low int64
			o := system.Options{Config: preset(t, "default"), Loss: 0.01, DurationUS: 60, Seed: sd, CplStall: stall}
			o.Inputs[1] = func(in *nictransport.In) {
				if in.Rst {
					return
				}
				cycles++
				if !in.CplReady {
					low++
				}
			}
			r, err := system.Run(o)
			require.NoError(t, err, "seed %d", sd)
			require.Positive(t, r.Messages)
			if stall == 0 {
				require.Zero(t, low, "no back-pressure without cpl-stall")
				return
			}
			share := float64(low) / float64(cycles)
			require.InDelta(t, stall, share, 0.02, "share of cycles with m_cpl_ready low")
		})
	}
}

// TestReconnect: a reconnect of the connection manager's own closes the connection at both endpoints, reopens it
// after the quiet time (close first, then the open, at each endpoint), and the reopened connection carries
// messages; the messages it loses are not an error.
func TestReconnect(t *testing.T) {
	sd := testseed.Seed(t)
	var logs [2]ctlLog
	o := system.Options{Config: preset(t, "default"), Loss: 0.01, DurationUS: 150, Seed: sd,
		Reconnects: []system.Reconnect{{Conn: 2, AtUS: 50}}}
	o.Inputs[0] = logs[0].tap
	o.Inputs[1] = logs[1].tap
	r, err := system.Run(o)
	require.NoError(t, err, "seed %d", sd)
	require.EqualValues(t, 1, r.Reconnects)
	require.Zero(t, r.Errors)
	require.Positive(t, r.ReconnectedMessages, "the reopened connection carries messages")
	for side, l := range logs {
		// 16 opens after the reset, then the close and the reopen of connection 2.
		require.Len(t, l.ops, 18, "endpoint %d", side)
		require.Equal(t, []string{"close:2", "open:2"}, l.ops[16:], "endpoint %d", side)
	}
}

// TestHostLag: a sending host that learns of its NIC's reset late hands packets meanwhile, which the NIC drops
// (retx cnt_tx_dropped); one that learns at once hands none.
func TestHostLag(t *testing.T) {
	sd := testseed.Seed(t)
	for _, lag := range []float64{0, 1} {
		t.Run(fmt.Sprint(lag), func(t *testing.T) {
			r, err := system.Run(system.Options{Config: preset(t, "default"), Loss: 0.01, DurationUS: 100, Seed: sd,
				QuietUS: 5, HostLagUS: lag, Resets: []system.Reset{{Side: 0, AtUS: 40}}})
			require.NoError(t, err, "seed %d", sd)
			require.Positive(t, r.ReconnectedMessages)
			if lag == 0 {
				require.Zero(t, r.TxDropped, "a host that knows of the reset hands nothing to the closed connections")
				return
			}
			require.Positive(t, r.TxDropped, "the host hands packets to the reset NIC until it learns")
			require.LessOrEqual(t, r.TxDropped, int64(250), "at most one packet per cycle of the 1 us lag")
		})
	}
}

// TestAllFailedReconnect: every path down for 40 us on ice40 (4 paths): a connection's paths all fail or probe
// (m_status_all_failed); the connection manager closes and reopens it, and it carries messages again.
func TestAllFailedReconnect(t *testing.T) {
	sd := testseed.Seed(t)
	cfg := preset(t, "ice40")
	var fs []system.Failure
	for p := 0; p < cfg.Paths; p++ {
		fs = append(fs, system.Failure{Path: p, AtUS: 20, UntilUS: 60})
	}
	var logs [2]ctlLog
	o := system.Options{Config: cfg, Loss: 0.01, Msg: "uniform:1000:40000", DurationUS: 300, Seed: sd, Failures: fs,
		AllFailedReconnectUS: 5}
	o.Inputs[0] = logs[0].tap
	o.Inputs[1] = logs[1].tap
	r, err := system.Run(o)
	require.NoError(t, err, "seed %d", sd)
	require.Positive(t, r.AllFailedReconnects, "a connection must be shown all-failed for 5 us")
	require.Equal(t, r.AllFailedReconnects, r.Reconnects, "no other reconnect")
	require.Positive(t, r.ReconnectedMessages)
	for side, l := range logs {
		closes := 0
		for _, op := range l.ops {
			if op[:5] == "close" {
				closes++
			}
		}
		require.EqualValues(t, r.AllFailedReconnects, closes, "endpoint %d: one close per reconnect", side)
	}
	// Off (0), the same run reconnects nothing.
	o.AllFailedReconnectUS = 0
	o.Inputs = [2]func(*nictransport.In){}
	r, err = system.Run(o)
	require.NoError(t, err, "seed %d", sd)
	require.Zero(t, r.Reconnects)
}
