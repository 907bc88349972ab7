package config_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spraynic/spraynic/config"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestPresetsValid(t *testing.T) {
	names := config.PresetNames()
	require.Subset(t, names, []string{"default", "ice40", "u250"}, "the three presets the project promises")
	for _, n := range names {
		c, err := config.Preset(n)
		require.NoError(t, err, "preset %s", n)
		require.Equal(t, n, c.Name)
		require.Len(t, c.Params(), len(config.Keys), "every key becomes a Verilog parameter")
	}
}

func TestPresetUnknown(t *testing.T) {
	_, err := config.Preset("nope")
	require.ErrorContains(t, err, `unknown config "nope"`)
}

func TestLoadErrors(t *testing.T) {
	good := `"conns": 16, "window": 64, "paths": 8, "sack_bits": 64, "psn_width": 24, "pseq_width": 16, ` +
		`"handle_width": 16, "ack_every": 4, "ack_fifo_depth": 16, "tick_cycles": 256, "cwnd_init": 16, ` +
		`"cwnd_max": 64, "ai_16ths": 2, "fail_k": 3, "holdoff_ticks": 40, "rto_ticks": 8, "rto_max_ticks": 64, ` +
		`"max_retries": 7, "gbn": 0, "qpn_base": 256, "ack_req_ticks": 1, "early_cycles": 950, "data_width": 256, "mtu": 4096`
	tests := []struct {
		name, body, want string
	}{
		{name: "valid", body: "{" + good + "}", want: ""},
		{name: "window not a power of two", body: "{" + replace(good, `"window": 64`, `"window": 48`) + "}",
			want: `key "window": value 48 is not a power of two (allowed power of two, 8..1024)`},
		{name: "zero connections", body: "{" + replace(good, `"conns": 16`, `"conns": 0`) + "}",
			want: `key "conns": value 0 out of range (allowed power of two, 2..1024)`},
		{name: "psn width not 24", body: "{" + replace(good, `"psn_width": 24`, `"psn_width": 32`) + "}",
			want: `key "psn_width": value 32 out of range (allowed exactly 24)`},
		{name: "unknown key", body: "{" + good + `, "windw": 3}`, want: `unknown field "windw"`},
		{
			name: "missing key",
			body: "{" + replace(good, `, "ack_every": 4`, "") + "}",
			want: "missing key(s) ack_every",
		},
		{name: "wrong type", body: "{" + replace(good, `"paths": 8`, `"paths": "8"`) + "}", want: "paths"},
		{
			name: "pseq too narrow for sack",
			body: "{" + replace(replace(good, `"pseq_width": 16`, `"pseq_width": 8`), `"sack_bits": 64`,
				`"sack_bits": 128`) + "}",
			want: `key "pseq_width": value 8 too small for sack_bits 128`,
		},
		{name: "not json", body: "conns=3", want: "not a JSON object"},
		{name: "tick below conns", body: "{" + replace(good, `"tick_cycles": 256`, `"tick_cycles": 15`) + "}",
			want: `key "tick_cycles": value 15 below conns 16 (allowed: tick_cycles >= conns`},
		{name: "tick of one cycle", body: "{" + replace(good, `"tick_cycles": 256`, `"tick_cycles": 1`) + "}",
			want: `key "tick_cycles": value 1 out of range (allowed 2..65536)`},
		{name: "cwnd init above max", body: "{" + replace(good, `"cwnd_init": 16`, `"cwnd_init": 65`) + "}",
			want: `key "cwnd_init": value 65 above cwnd_max 64`},
		{name: "qpn base on the management QP", body: "{" + replace(good, `"qpn_base": 256`, `"qpn_base": 1`) + "}",
			want: `key "qpn_base": value 1 out of range (allowed 2..16777213)`},
		{name: "qpn range reaches multicast", body: "{" + replace(good, `"qpn_base": 256`, `"qpn_base": 16777200`) +
			"}", want: `key "qpn_base": value 16777200 too large for conns 16 (allowed: qpn_base + conns <= 2^24 - 1, ` +
			`QPN 0xFFFFFF is multicast)`},
	}
	dir := t.TempDir()
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := filepath.Join(dir, "c.json")
			require.NoError(t, os.WriteFile(p, []byte(tc.body), 0o644))
			c, err := config.Load(p)
			if tc.want == "" {
				require.NoError(t, err)
				require.Equal(t, 64, c.Window)
				return
			}
			require.ErrorContains(t, err, tc.want)
			require.ErrorContains(t, err, p, "the error names the file")
		})
	}
}

func TestHashStable(t *testing.T) {
	a, err := config.Preset("default")
	require.NoError(t, err)
	b := a
	b.Name = "renamed"
	require.Equal(t, a.Hash(), b.Hash(), "the hash covers values, not the name")
	b.Window = 128
	require.NotEqual(t, a.Hash(), b.Hash(), "a changed value changes the hash")
}

func replace(s, old, new string) string { return strings.Replace(s, old, new, 1) }

// TestValidateNicRoCE: the frame-level top's two rules, each at its edge, on a configuration Validate accepts.
func TestValidateNicRoCE(t *testing.T) {
	for _, tc := range []struct {
		handle, window int
		want           string
	}{
		{handle: 8, window: 128},
		{handle: 7, window: 8, want: `key "handle_width": value 7 below 8 (allowed for nic_roce: 8..32)`},
		{handle: 8, window: 256, want: `key "window": value 256 too large for handle_width 8`},
		{handle: 32, window: 4096},
	} {
		c, err := config.Preset("default")
		require.NoError(t, err)
		c.HandleWidth, c.Window = tc.handle, tc.window
		err = c.ValidateNicRoCE()
		if tc.want == "" {
			assert.NoError(t, err, "handle_width %d, window %d", tc.handle, tc.window)
		} else if assert.Error(t, err, "handle_width %d, window %d", tc.handle, tc.window) {
			assert.Contains(t, err.Error(), tc.want)
		}
	}
}
