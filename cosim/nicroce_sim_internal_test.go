package cosim

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/spraynic/spraynic/config"
	"github.com/spraynic/spraynic/system"
)

// TestFrameOptions: the frame-level mode's defaults (the port at the datapath rate, the mode's GBN) and its
// refusals, each naming the option.
func TestFrameOptions(t *testing.T) {
	cfg, err := config.Preset("default")
	require.NoError(t, err)
	o, err := FrameOptions(system.Options{Config: cfg, Mode: system.ModeGBN}, 0)
	require.NoError(t, err)
	require.Equal(t, 64, o.PortGbps, "DATA_WIDTH 256 x 250 MHz")
	require.Equal(t, 64, o.PathGbps)
	require.Equal(t, 1, o.Config.GBN)
	for _, c := range []struct {
		name    string
		o       system.Options
		corrupt float64
		want    string
	}{
		{"reset", system.Options{Resets: []system.Reset{{Side: 1, AtUS: 5}}}, 0, "option reset: not supported"},
		{"reconnect", system.Options{Reconnects: []system.Reconnect{{Conn: 0, AtUS: 5}}}, 0, "option reconnect"},
		{"all failed", system.Options{AllFailedReconnectUS: 5}, 0, "option all-failed-reconnect-us"},
		{"host lag", system.Options{HostLagUS: 1}, 0, "option host-lag-us"},
		{"cpl stall", system.Options{CplStall: 0.1}, 0, "option cpl-stall"},
		{"mtu", system.Options{MTU: 1024}, 0, "option mtu: value 1024 is not the configuration's mtu 4096"},
		{"backlog", system.Options{Backlog: 17}, 0, "option backlog: value 17 out of range (allowed with --frames"},
		{"port", system.Options{PortGbps: 100}, 0, "option port-gbps: value 100 above the datapath's 64 Gb/s"},
		{"corrupt", system.Options{}, 0.6, "option corrupt: value 0.6 out of range (allowed 0..0.5)"},
		{"system check", system.Options{Loss: 0.9}, 0, "loss"},
	} {
		c.o.Config = cfg
		_, err := FrameOptions(c.o, c.corrupt)
		require.ErrorContains(t, err, c.want, c.name)
	}
}

// TestParseDMALatency: MIN:MAX within 1..MaxDMALatency parses; anything else is refused with the value named.
func TestParseDMALatency(t *testing.T) {
	l, err := ParseDMALatency("200:260")
	require.NoError(t, err)
	require.Equal(t, DMALatency{Min: 200, Max: 260}, l)
	l, err = ParseDMALatency("1:65536")
	require.NoError(t, err)
	require.Equal(t, DMALatency{Min: 1, Max: MaxDMALatency}, l)
	for _, v := range []string{"", "20", "0:5", "9:8", "1:65537", "a:5", "5:b", "1:2:3", "-1:4"} {
		_, err := ParseDMALatency(v)
		require.ErrorContains(t, err, `option dma-latency: value "`+v+`" is not MIN:MAX cycles with 1 <= MIN <= MAX`, v)
	}
	require.ErrorContains(t, DMALatency{Min: 3, Max: 2}.check(), "value 3:2 out of range")
}
