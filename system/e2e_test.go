package system_test

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/spraynic/spraynic/config"
	"github.com/spraynic/spraynic/system"
	"github.com/spraynic/spraynic/system/roce"
	"github.com/spraynic/spraynic/testseed"
)

func preset(t *testing.T, name string) config.Config {
	cfg, err := config.Preset(name)
	require.NoError(t, err)
	return cfg
}

// TestTargets checks the figures the transport promises (issue targets), on the default preset: they are
// simulated-time figures of a deterministic run, not wall-clock timings.
func TestTargets(t *testing.T) {
	sd := testseed.Seed(t)
	fmt.Printf("e2e: TestTargets seed=%d (SEED=N to change)\n", sd)
	cfg := preset(t, "default")
	tests := []struct {
		name        string
		opt         system.Options
		minGoodput  float64
		maxRecovery float64
	}{
		{name: "spray_clean", opt: system.Options{}, minGoodput: 0.96},
		{name: "spray_loss_1pct", opt: system.Options{Loss: 0.01}, minGoodput: 0.95},
		{name: "spray_loss_10pct", opt: system.Options{Loss: 0.10}, minGoodput: 0.80},
		{name: "spray_one_path_fails", opt: system.Options{Failures: []system.Failure{{Path: 3, AtUS: 100}},
			DurationUS: 400}, minGoodput: 0.85, maxRecovery: 100},
		{name: "gbn_clean", opt: system.Options{Mode: system.ModeGBN}, minGoodput: 0.96},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			o := tc.opt
			o.Config = cfg
			o.Seed = sd
			r, err := system.Run(o)
			require.NoError(t, err, "seed %d", sd)
			require.GreaterOrEqual(t, r.Goodput, tc.minGoodput, "goodput (seed %d)", sd)
			require.Positive(t, r.Messages, "messages must be delivered")
			require.Zero(t, r.Errors, "connection errors")
			if o.Loss == 0 && len(o.Failures) == 0 {
				require.Zero(t, r.Retransmissions, "a clean network needs no retransmission")
				require.Zero(t, r.ResendMaxUS, "no resend time without retransmissions")
			} else {
				require.Positive(t, r.Retransmissions, "loss must cause retransmissions")
				requireResendTimes(t, r, cfg)
			}
			if tc.maxRecovery > 0 {
				require.Positive(t, r.RecoveryUS, "the failure must dip goodput")
				require.LessOrEqual(t, r.RecoveryUS, tc.maxRecovery, "recovery after the failure (us)")
				require.Positive(t, r.PathFailures, "path_sel must fail the path")
			}
		})
	}
}

// requireResendTimes checks the resend figures of a run with losses: a loss cannot be known before the fastest
// round trip (2 x delay_ns), and at 1% loss every one is found before the RTO (docs/e2e.md, "Known limits").
func requireResendTimes(t *testing.T, r *system.Result, cfg config.Config) {
	t.Helper()
	minRTT := 2 * float64(system.Options{}.Defaults().DelayNS) / 1000
	require.GreaterOrEqual(t, r.ResendP50US, minRTT, "median resend time (us) below the fastest round trip")
	require.GreaterOrEqual(t, r.ResendMaxUS, r.ResendP50US, "longest resend time below the median")
	if r.Loss <= 0.01 && r.Timeouts == 0 {
		rto := float64(cfg.RTOTicks*cfg.TickCycles) / float64(r.ClockMHz)
		require.Less(t, r.ResendMaxUS, rto, "a resend without timeouts took longer than the RTO (us)")
	}
}

// TestScenarios runs harder conditions: each must deliver every message exactly once, in order, byte-exact.
func TestScenarios(t *testing.T) {
	sd := testseed.Seed(t)
	fmt.Printf("e2e: TestScenarios seed=%d (SEED=N to change)\n", sd)
	tests := []struct {
		name   string
		preset string
		opt    system.Options
		check  func(t *testing.T, r *system.Result)
	}{
		{name: "ack_loss", preset: "default", opt: system.Options{Loss: 0.02, AckLoss: 0.05}},
		{name: "bursty_loss", preset: "default", opt: system.Options{Loss: 0.02, LossModel: "gilbert", Burst: 8}},
		{name: "gbn_loss", preset: "default", opt: system.Options{Mode: system.ModeGBN, Loss: 0.01},
			check: func(t *testing.T, r *system.Result) {
				require.Positive(t, r.RetxGBN, "go-back-N must rewind")
				require.Positive(t, r.Naks, "the receiver must NAK")
				require.Zero(t, r.RetxLoss, "no SACK retransmission in go-back-N mode")
			}},
		{name: "congested_fabric_ecn", preset: "default", opt: system.Options{PathGbps: 40, Loss: 0.001},
			check: func(t *testing.T, r *system.Result) {
				require.Positive(t, r.ECNMarks, "paths slower in sum than the port must queue and mark")
			}},
		{name: "fail_and_heal", preset: "default", opt: system.Options{Loss: 0.005, DurationUS: 300,
			Failures: []system.Failure{{Path: 1, AtUS: 50, UntilUS: 150}, {Path: 5, AtUS: 100}}},
			check: func(t *testing.T, r *system.Result) {
				require.Positive(t, r.PathFailures, "path_sel must fail a path")
				require.Positive(t, r.PathRecoveries, "the healed path must come back")
			}},
		{name: "wrap_many_conns_u250", preset: "u250",
			opt: system.Options{Conns: 64, Loss: 0.01, StartPSN: 1<<24 - 3, DurationUS: 150}},
		{name: "ice40_small", preset: "ice40",
			opt: system.Options{Loss: 0.02, MTU: 1024, Msg: "uniform:1:20000", PortGbps: 100}},
		{name: "exp_sizes_4_paths", preset: "default", opt: system.Options{Loss: 0.03, Msg: "exp:20000", Backlog: 8}},
		{name: "bidirectional", preset: "default", opt: system.Options{Bidir: true, Loss: 0.02},
			check: func(t *testing.T, r *system.Result) {
				require.Greater(t, r.Goodput, 0.85, "A->B goodput with B's data sharing the ports")
				require.Greater(t, r.GoodputBA, 0.85, "B->A goodput")
			}},
		{name: "bidirectional_gbn", preset: "ice40",
			opt: system.Options{Bidir: true, Mode: system.ModeGBN, Loss: 0.01, PortGbps: 100}},
		{name: "slow_path_ecn", preset: "default", opt: system.Options{Loss: 0.005, QueueKB: 64, ECNKB: 16,
			Slow: []system.SlowPath{{Path: 0, Gbps: 25}}},
			check: func(t *testing.T, r *system.Result) {
				require.Positive(t, r.ECNMarks, "the slow path must queue and mark")
				// Busier than the other links on average; not necessarily the busiest, as path_sel moves traffic
				// off it and the RTO no longer resends on it spuriously.
				others := 0.0
				for p := 1; p < len(r.PathUtil); p++ {
					others += r.PathUtil[p]
				}
				others /= float64(len(r.PathUtil) - 1)
				require.Greater(t, r.PathUtil[0], others, "the slow path is busier than the others on average")
			}},
		{name: "reset_sender", preset: "default",
			opt: system.Options{Loss: 0.01, Resets: []system.Reset{{Side: 0, AtUS: 50}}},
			check: func(t *testing.T, r *system.Result) {
				require.EqualValues(t, 1, r.Resets)
				require.EqualValues(t, 16, r.Reconnects, "a sender's reset reconnects every connection of the config")
				require.Zero(t, r.Errors, "the host reconnects at once; no connection waits for MAX_RETRIES")
				require.Positive(t, r.Aborted, "messages in flight at the reset are lost")
				require.Positive(t, r.ReconnectedMessages, "the reopened connections carry messages")
				require.Zero(t, r.Stale, "the default quiet time outlasts every packet of the old epoch")
			}},
		{name: "reset_sender_stale", preset: "ice40",
			opt: system.Options{Loss: 0.02, QuietUS: 0.2, Bidir: true, PortGbps: 100,
				Resets: []system.Reset{{Side: 0, AtUS: 40}, {Side: 1, AtUS: 120}}},
			check: func(t *testing.T, r *system.Result) {
				require.EqualValues(t, 2, r.Resets)
				require.Positive(t, r.Stale, "a short quiet time lets old-epoch packets reach the reopened receiver")
				require.Positive(t, r.ReconnectedMessages)
			}},
		{name: "resets_overlapping", preset: "ice40",
			opt: system.Options{Loss: 0.01, QuietUS: 0.5, Bidir: true, PortGbps: 100,
				Resets: []system.Reset{{Side: 0, AtUS: 20}, {Side: 1, AtUS: 20.05}, {Side: 1, AtUS: 20.05},
					{Side: 0, AtUS: 20.508}}},
			check: func(t *testing.T, r *system.Result) {
				require.EqualValues(t, 3, r.Resets, "two resets of one endpoint in the same cycle are one")
				require.Greater(t, r.Reconnects, int64(4), "the last reset restarts reconnects in progress")
				require.Positive(t, r.ReconnectedMessages,
					"reconnects restarted by later resets still end in working connections")
			}},
		{name: "reset_receiver", preset: "default", opt: system.Options{Loss: 0.01, DurationUS: 600, QuietUS: 10,
			Resets: []system.Reset{{Side: 1, AtUS: 20}}},
			check: func(t *testing.T, r *system.Result) {
				require.EqualValues(t, 8, r.Errors, "every connection in use goes to error after MAX_RETRIES")
				require.EqualValues(t, 8, r.Reconnects, "then reconnects")
				require.Positive(t, r.ReconnectedMessages, "and carries messages again")
				require.Positive(t, r.RecoveryUS, "goodput came back")
			}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			o := tc.opt
			o.Config = preset(t, tc.preset)
			o.Seed = sd
			if o.DurationUS == 0 {
				o.DurationUS = 200
			}
			r, err := system.Run(o)
			require.NoError(t, err, "seed %d", sd)
			require.Positive(t, r.Messages)
			if tc.check != nil {
				tc.check(t, r)
			}
		})
	}
}

// TestDeterministic: a run is a pure function of its options and seed.
func TestDeterministic(t *testing.T) {
	o := system.Options{Config: preset(t, "default"), Loss: 0.02, AckLoss: 0.01, DurationUS: 100, Seed: testseed.Seed(t)}
	r1, err := system.Run(o)
	require.NoError(t, err)
	r2, err := system.Run(o)
	require.NoError(t, err)
	require.Equal(t, r1, r2, "same options and seed, same figures")
	o.Seed++
	r3, err := system.Run(o)
	require.NoError(t, err)
	require.NotEqual(t, r1.Series, r3.Series, "another seed, another run")
}

// TestCapture: every packet both ports sent is in the pcap, and each one parses (ICRC included).
func TestCapture(t *testing.T) {
	var cap, arr bytes.Buffer
	o := system.Options{Config: preset(t, "default"), Loss: 0.02, DurationUS: 30, Seed: testseed.Seed(t), Capture: &cap,
		Arrivals: &arr}
	r, err := system.Run(o)
	require.NoError(t, err)
	frames, _, err := roce.ReadPcap(&cap)
	require.NoError(t, err)
	require.Len(t, frames, int(r.DataPackets+r.AckPackets), "one frame per packet sent")
	var data, acks int
	lim := roce.LimitsFor(o.Config, 4096) // the default MTU
	for i, f := range frames {
		p, err := lim.Parse(f)
		require.NoError(t, err, "frame %d: every receiver check passes", i)
		qpn := p.Data.DestQP
		if p.IsAck() {
			acks++
			qpn = p.Ack.DestQP
		} else {
			data++
		}
		require.GreaterOrEqual(t, qpn, uint32(o.Config.QPNBase), "frame %d: DestQP = qpn_base + connection", i)
		require.Less(t, qpn, uint32(o.Config.QPNBase+o.Config.Conns), "frame %d: DestQP = qpn_base + connection", i)
	}
	require.Equal(t, int(r.DataPackets), data)
	require.Equal(t, int(r.AckPackets), acks)
	arrived, _, err := roce.ReadPcap(&arr)
	require.NoError(t, err)
	var dropped int64
	for _, d := range r.PathDrops {
		dropped += d
	}
	require.Equal(t, int(r.DataPackets-dropped), len(arrived), "every data packet not dropped arrives at B")
}

// TestOptionErrors: bad options are named with their value and allowed range.
func TestOptionErrors(t *testing.T) {
	cfg := preset(t, "default")
	tests := []struct {
		name string
		opt  system.Options
		want string
	}{
		{name: "mode", opt: system.Options{Mode: "tcp"}, want: `option mode: value "tcp" unknown (allowed spray, gbn)`},
		{name: "loss", opt: system.Options{Loss: 0.7}, want: "option loss: value 0.7 out of range (allowed 0..0.5)"},
		{name: "conns", opt: system.Options{Conns: 17}, want: "option conns: value 17 out of range (allowed 1..16)"},
		{name: "msg", opt: system.Options{Msg: "fixed:0"},
			want: `option msg: value "fixed:0" has a size out of range (allowed fixed:N, uniform:MIN:MAX, ` +
				`exp:MEAN with sizes 1..1073741824 bytes)`},
		{name: "msg_kind", opt: system.Options{Msg: "pareto:3"},
			want: `option msg: value "pareto:3" is not a known distribution (allowed fixed:N, uniform:MIN:MAX, ` +
				`exp:MEAN with sizes 1..1073741824 bytes)`},
		{name: "loss_model", opt: system.Options{LossModel: "markov"},
			want: `option loss-model: value "markov" unknown (allowed bernoulli, gilbert)`},
		{name: "fail_path", opt: system.Options{Failures: []system.Failure{{Path: 8, AtUS: 1}}},
			want: "option fail[0]: path 8 out of range (allowed 0..7)"},
		{name: "fail_interval", opt: system.Options{Failures: []system.Failure{{Path: 1, AtUS: 10, UntilUS: 5}}},
			want: "option fail[0]: interval 10..5 us invalid (allowed AT >= 0 and UNTIL > AT, or UNTIL 0 for never)"},
		{name: "mtu", opt: system.Options{MTU: 10}, want: "option mtu: value 10 out of range (allowed 64..9000)"},
		{name: "slow_path", opt: system.Options{Slow: []system.SlowPath{{Path: 9, Gbps: 10}}},
			want: "option slow[0]: path 9 out of range (allowed 0..7)"},
		{name: "slow_rate", opt: system.Options{Slow: []system.SlowPath{{Path: 1, Gbps: 0}}},
			want: "option slow[0]: rate 0 Gb/s out of range (allowed 1..1600)"},
		{name: "reset_side", opt: system.Options{Resets: []system.Reset{{Side: 2, AtUS: 5}}},
			want: "option reset[0]: side 2 unknown (allowed 0 for A, 1 for B)"},
		{name: "reset_time", opt: system.Options{Resets: []system.Reset{{Side: 1, AtUS: 900}}},
			want: "option reset[0]: time 900 us out of range (allowed 0 < AT < duration-us 500)"},
		{name: "quiet", opt: system.Options{QuietUS: -1},
			want: "option quiet-us: value -1 out of range (allowed 0..1e+06)"},
		{name: "bidir_ack_loss", opt: system.Options{Bidir: true, AckLoss: 0.1},
			want: "option ack-loss: value 0.1 not allowed with bidir (both directions carry data and ACKs; use loss)"},
		{name: "cpl_stall", opt: system.Options{CplStall: 0.95},
			want: "option cpl-stall: value 0.95 out of range (allowed 0..0.9)"},
		{name: "all_failed_reconnect", opt: system.Options{AllFailedReconnectUS: -2},
			want: "option all-failed-reconnect-us: value -2 out of range (allowed 0..1e+06)"},
		{name: "reconnect_conn", opt: system.Options{Conns: 4, Reconnects: []system.Reconnect{{Conn: 4, AtUS: 10}}},
			want: "option reconnect[0]: connection 4 out of range (allowed 0..3, the active connections)"},
		{name: "reconnect_time", opt: system.Options{Reconnects: []system.Reconnect{{Conn: 1, AtUS: 0}}},
			want: "option reconnect[0]: time 0 us out of range (allowed 0 < AT < duration-us 500)"},
		{name: "host_lag", opt: system.Options{QuietUS: 2, HostLagUS: 2},
			want: "option host-lag-us: value 2 out of range (allowed 0 <= LAG < the quiet time 2 us)"},
		{name: "host_lag_negative", opt: system.Options{HostLagUS: -1},
			want: "option host-lag-us: value -1 out of range (allowed 0 <= LAG < the quiet time 45.74304 us)"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			o := tc.opt
			o.Config = cfg
			_, err := system.Run(o)
			require.EqualError(t, err, tc.want)
		})
	}
	small := cfg
	small.HandleWidth = 8
	_, err := system.Run(system.Options{Config: small})
	require.EqualError(t, err,
		`config default: key "handle_width": value 8 below the 12 bits the host model's handles need (conns*4*window)`)
	var lost *system.ConnLostError
	require.False(t, errors.As(err, &lost))
}

// TestCaptureTshark: Wireshark's RoCEv2 dissector reads a simulation capture: one frame per packet, each data
// frame's BTH PSN and UDP source port as the simulation sent them.
func TestCaptureTshark(t *testing.T) {
	if _, err := exec.LookPath("tshark"); err != nil {
		t.Skip("tshark not installed (make deps)")
	}
	var cap bytes.Buffer
	r, err := system.Run(system.Options{Config: preset(t, "default"), Loss: 0.02, DurationUS: 10, Seed: testseed.Seed(t),
		Capture: &cap})
	require.NoError(t, err)
	frames, _, err := roce.ReadPcap(bytes.NewReader(cap.Bytes()))
	require.NoError(t, err)
	var want []string
	for _, f := range frames {
		p, err := roce.Parse(f)
		require.NoError(t, err)
		if p.IsAck() {
			want = append(want, fmt.Sprintf("%d\t17\t%d", p.Ack.SrcPort, (p.Ack.CumPSN-1)&roce.Max24))
		} else {
			want = append(want, fmt.Sprintf("%d\t4\t%d", p.Data.SrcPort, p.Data.PSN))
		}
	}
	path := filepath.Join(t.TempDir(), "sim.pcap")
	require.NoError(t, os.WriteFile(path, cap.Bytes(), 0o644))
	var stderr bytes.Buffer
	cmd := exec.Command("tshark", "-r", path, "-d", "udp.port==4791,infiniband", "-T", "fields",
		"-e", "udp.srcport", "-e", "infiniband.bth.opcode", "-e", "infiniband.bth.psn")
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	require.NoError(t, err, "tshark: %s", stderr.String())
	got := strings.Split(strings.TrimSpace(string(out)), "\n")
	require.Len(t, got, int(r.DataPackets+r.AckPackets), "tshark reads every packet")
	require.Equal(t, want, got, "tshark decodes what the simulation sent")
}
