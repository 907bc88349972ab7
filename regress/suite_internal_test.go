package regress

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/spraynic/spraynic/config"
	"github.com/spraynic/spraynic/cosim"
	"github.com/stretchr/testify/require"
)

func TestRunIsolated(t *testing.T) {
	cfg, err := config.Preset("default")
	require.NoError(t, err)
	req := cosim.Request{Test: "rx_inorder", Config: cfg, Seed: 3, Cycles: 10}
	for _, tc := range []struct {
		name    string
		run     func(cosim.Request) (cosim.Result, error)
		timeout time.Duration
		want    Status
		errHas  string
	}{
		{name: "pass", run: func(cosim.Request) (cosim.Result, error) { return cosim.Result{Cycles: 10}, nil },
			want: StatusPass},
		{name: "fail", run: func(cosim.Request) (cosim.Result, error) { return cosim.Result{}, errors.New("mismatch") },
			want: StatusFail, errHas: "mismatch"},
		{name: "panic", run: func(cosim.Request) (cosim.Result, error) { panic("boom") }, want: StatusPanic,
			errHas: "panic: boom"},
		{name: "timeout", run: func(cosim.Request) (cosim.Result, error) {
			time.Sleep(2 * time.Second)
			return cosim.Result{}, nil
		}, timeout: 50 * time.Millisecond, want: StatusTimeout, errHas: "timeout: no result after 50ms"},
		{name: "within budget", run: func(cosim.Request) (cosim.Result, error) { return cosim.Result{}, nil },
			timeout: time.Minute, want: StatusPass},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o := runIsolated(req, tc.timeout, tc.run)
			require.Equal(t, tc.want, o.Status)
			if tc.errHas == "" {
				require.NoError(t, o.Err)
				return
			}
			require.ErrorContains(t, o.Err, tc.errHas)
			if tc.want != StatusFail {
				require.ErrorContains(t, o.Err, req.Repro(), "a panic or timeout names the reproduce command")
			}
		})
	}
}

// TestRegressIsolation runs a regression whose runs panic, fail and pass (no RTL: the runner is replaced).
func TestRegressIsolation(t *testing.T) {
	cfg, err := config.Preset("default")
	require.NoError(t, err)
	defer func(r func(cosim.Request) (cosim.Result, error)) { runner = r }(runner)
	runner = func(r cosim.Request) (cosim.Result, error) {
		switch r.Seed {
		case 2:
			panic("seed 2 panics")
		case 3:
			return cosim.Result{}, errors.New("seed 3 fails")
		}
		return cosim.Result{Cycles: r.Cycles}, nil
	}
	var reqs []cosim.Request
	for s := uint64(1); s <= 6; s++ {
		reqs = append(reqs, cosim.Request{Test: "rx_inorder", Config: cfg, Seed: s, Cycles: 10, Golden: true})
	}
	for _, tc := range []struct {
		name    string
		stop    bool
		minRuns int
	}{
		{name: "all runs", stop: false, minRuns: 6},
		{name: "stop on failure", stop: true, minRuns: 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			calls := 0
			outs, err := RegressWith(reqs,
				RegressOptions{Jobs: 1, StopOnFailure: tc.stop, Progress: func(done, total int, o Outcome) { calls++ }})
			require.NoError(t, err)
			require.GreaterOrEqual(t, len(outs), tc.minRuns)
			require.Equal(t, len(outs), calls, "progress once per finished run")
			got := map[uint64]Status{}
			for _, o := range outs {
				got[o.Req.Seed] = o.Verdict()
			}
			require.Equal(t, StatusPanic, got[2], "a panicking run is a failed outcome")
			if !tc.stop {
				require.Equal(t, StatusFail, got[3])
				require.Equal(t, StatusPass, got[6], "runs after a panic still run")
				_, failed := Table(outs)
				require.Equal(t, 2, failed)
			} else {
				require.Less(t, len(outs), 6, "stop-on-failure leaves later runs out")
			}
		})
	}
}

func TestLoadSuites(t *testing.T) {
	x := `{"name":"x","configs":["default"],"seeds":1,"cycle_scale":1}`
	for _, tc := range []struct {
		name, body string
		err        []string
	}{
		{name: "good", body: `{"suites":[{"name":"tiny","configs":["default"],"seeds":2,"cycle_scale":1,` +
			`"tests":["rx_inorder","path_*"]}]}`},
		{name: "not json", body: `suites: tiny`, err: []string{"allowed:"}},
		{name: "unknown field",
			body: `{"suites":[{"name":"x","configs":["default"],"seeds":1,"cycle_scale":1,"seed":3}]}`,
			err:  []string{`unknown field "seed"`}},
		{name: "no suites", body: `{"suites":[]}`, err: []string{"field suites: empty"}},
		{name: "bad config", body: `{"suites":[{"name":"x","configs":["nope"],"seeds":1,"cycle_scale":1}]}`,
			err: []string{"suites[0]", "field configs", `"nope"`, "default"}},
		{name: "zero seeds", body: `{"suites":[{"name":"x","configs":["default"],"seeds":0,"cycle_scale":1}]}`,
			err: []string{"field seeds: value 0 (allowed: 1..1000000)"}},
		{name: "zero scale", body: `{"suites":[{"name":"x","configs":["default"],"seeds":1,"cycle_scale":0}]}`,
			err: []string{"field cycle_scale: value 0 (allowed: 1..10000)"}},
		{name: "unknown test",
			body: `{"suites":[{"name":"x","configs":["default"],"seeds":1,"cycle_scale":1,"tests":["tx_*"]}]}`,
			err:  []string{`field tests: value "tx_*" matches no test`, "rx_inorder"}},
		{name: "bad name", body: `{"suites":[{"name":"a b","configs":["default"],"seeds":1,"cycle_scale":1}]}`,
			err: []string{`field name: value "a b"`}},
		{name: "duplicate", body: `{"suites":[` + x + `,` + x + `]}`, err: []string{"suites[1]", "repeats"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := filepath.Join(t.TempDir(), "suites.json")
			require.NoError(t, os.WriteFile(f, []byte(tc.body), 0o644))
			ss, err := LoadSuites(f)
			if len(tc.err) > 0 {
				require.Error(t, err)
				require.ErrorContains(t, err, f, "the error names the file")
				for _, e := range tc.err {
					require.ErrorContains(t, err, e)
				}
				return
			}
			require.NoError(t, err)
			reqs, err := ss[0].Expand("/repo", 5)
			require.NoError(t, err)
			n := 0
			for _, tt := range cosim.Tests() {
				if tt.Name == "rx_inorder" || strings.HasPrefix(tt.Name, "path_") {
					n++
				}
			}
			require.Len(t, reqs, 2*n, "the filter keeps rx_inorder and the path_ tests, 2 seeds each")
			require.Equal(t, uint64(5), reqs[0].Seed)
		})
	}
}

// TestDirectedNotScaled: a suite's cycle scale lengthens every test but the directed scripts (*_dir_*), which end
// within their own length (the extra cycles would only be idle).
func TestDirectedNotScaled(t *testing.T) {
	reqs, err := Suites["nightly"].Expand("/repo", 1)
	require.NoError(t, err)
	cycles := map[string]int64{}
	for _, r := range reqs {
		if r.Config.Name == "default" {
			cycles[r.Test] = r.Cycles
		}
	}
	require.Equal(t, int64(6<<18+16), cycles["nic_dir_counters"])
	require.Equal(t, int64(200), cycles["nic_dir_gbn_filter"])
	cfg, err := config.Resolve("default")
	require.NoError(t, err)
	require.Equal(t, int64(12*cfg.Window+4*cfg.AckFifoDepth+1000), cycles["rx_dir_window_edge"])
	require.Equal(t, int64(5*60000), cycles["nic_e2e_a"], "the end-to-end replays run 5x longer")
	require.Equal(t, int64(5*50000), cycles["nic_e2e_clean_a"])
	for _, tt := range cosim.Tests() {
		require.Equal(t, strings.Contains(tt.Name, "_dir_"), tt.Directed, "%s: the directed tests are the *_dir_* ones",
			tt.Name)
	}
}

// TestLargeFabricFloor: on u250 (16 paths) e2e_clean and e2e_bottleneck run 4x and 5x their base length on smoke,
// and the nightly suite's 5x scale does not multiply that again; on default they keep the base length.
func TestLargeFabricFloor(t *testing.T) {
	cycles := map[string]int64{}
	for _, s := range []string{"smoke", "nightly"} {
		reqs, err := Suites[s].Expand("/repo", 1)
		require.NoError(t, err)
		for _, r := range reqs {
			cycles[s+"/"+r.Config.Name+"/"+r.Test] = r.Cycles
		}
	}
	require.Equal(t, int64(50000), cycles["smoke/default/nic_e2e_clean_a"])
	require.Equal(t, int64(4*50000), cycles["smoke/u250/nic_e2e_clean_b"])
	require.Equal(t, int64(5*50000), cycles["nightly/u250/nic_e2e_clean_a"])
	require.Equal(t, int64(80000), cycles["smoke/ice40/nic_e2e_bottleneck_a"])
	require.Equal(t, int64(5*80000), cycles["smoke/u250/nic_e2e_bottleneck_a"])
	require.Equal(t, int64(5*80000), cycles["nightly/u250/nic_e2e_bottleneck_b"])
	require.Equal(t, int64(5*60000), cycles["nightly/u250/nic_e2e_a"])
}

// TestMaxSeeds: a test with MaxSeeds runs with the suite's first MaxSeeds seeds, every other test with all of them.
func TestMaxSeeds(t *testing.T) {
	reqs, err := Suites["nightly"].Expand("/repo", 7)
	require.NoError(t, err)
	seeds := map[string][]uint64{}
	for _, r := range reqs {
		if r.Config.Name == "ice40" {
			seeds[r.Test] = append(seeds[r.Test], r.Seed)
		}
	}
	require.Equal(t, []uint64{7, 8}, seeds["nic_dir_counters"])
	require.Len(t, seeds["rx_random"], Suites["nightly"].Seeds)
	require.Equal(t, uint64(26), seeds["rx_random"][19])
}
