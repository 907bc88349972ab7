package tops_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/spraynic/spraynic/config"
	"github.com/spraynic/spraynic/tops"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// elabCase is one configuration to elaborate: the keys it is about (a top that does not declare them all skips
// it) and, for the cross-key rules, whether the rule's table says it is allowed.
type elabCase struct {
	// name says which edge the case is at ("ack_every=65 (max+1)").
	name string
	// cfg is the whole configuration; a top gets the parameters it declares.
	cfg config.Config
	// keys are the JSON keys the case is about.
	keys []string
	// rule is set for a cross-key rule case; allowed is then what the rule says about cfg.
	rule    bool
	allowed bool
}

// keyByJSON returns the config key named name.
func keyByJSON(t *testing.T, name string) config.Key {
	t.Helper()
	for _, k := range config.Keys {
		if k.JSON == name {
			return k
		}
	}
	require.FailNow(t, "no such config key", "key %q", name)
	return config.Key{}
}

// set writes value into the key named name of c, through its JSON form (the fields of config.Keys are
// private).
func set(c *config.Config, name string, value int) {
	if err := json.Unmarshal([]byte(fmt.Sprintf("{%q: %d}", name, value)), c); err != nil {
		panic(fmt.Sprintf("elab_test: key %s: %v", name, err))
	}
}

// fit adjusts the keys other than key so that every cross-key rule of config.Validate holds where it can, so
// that only key's own value decides. Adjusted values stay inside their own ranges.
func fit(c *config.Config, key string) {
	if key != "pseq_width" {
		for c.PseqWidth < 24 && c.SackBits > 0 && c.SackBits < 1<<23 && 1<<(c.PseqWidth-1) <= c.SackBits {
			c.PseqWidth++
		}
	} else if c.PseqWidth >= 1 && c.PseqWidth <= 31 {
		for c.SackBits > 8 && 1<<(c.PseqWidth-1) <= c.SackBits {
			c.SackBits /= 2
		}
	}
	if key == "cwnd_max" {
		c.CwndInit = min(c.CwndInit, max(c.CwndMax, 1))
	} else if c.CwndInit <= 255 {
		c.CwndMax = max(c.CwndMax, c.CwndInit)
	}
	if key == "rto_max_ticks" {
		c.RTOTicks = min(c.RTOTicks, max(c.RTOMaxTicks, 1))
	} else if c.RTOTicks <= 65535 {
		c.RTOMaxTicks = max(c.RTOMaxTicks, c.RTOTicks)
	}
	if key == "tick_cycles" {
		for c.Conns > 2 && c.TickCycles < c.Conns {
			c.Conns /= 2
		}
	} else if c.Conns <= 65536 {
		c.TickCycles = max(c.TickCycles, c.Conns)
	}
	if key == "qpn_base" {
		for c.Conns > 2 && c.QPNBase+c.Conns > 1<<24-1 {
			c.Conns /= 2
		}
	}
}

// keyCases returns, for every key, its minimum and maximum (allowed), one step beyond each and, for a
// power-of-two key, the powers of two beyond them and values that are not one (refused), the other keys from base
// fitted to the cross-key rules.
func keyCases(base config.Config) []elabCase {
	var cs []elabCase
	for _, k := range config.Keys {
		type val struct {
			v    int
			edge string
		}
		vals := []val{{k.Min, "min"}, {k.Max, "max"}, {k.Min - 1, "min-1"}, {k.Max + 1, "max+1"}}
		if k.Pow2 {
			// min-1 and max+1 are not powers of two: the powers beyond hold the range check alone
			vals = append(vals, val{k.Min / 2, "power of two below min"}, val{k.Max * 2, "power of two above max"},
				val{k.Min + 1, "not a power of two"}, val{k.Max - 1, "not a power of two"})
		}
		seen := map[int]bool{}
		for _, v := range vals {
			if seen[v.v] {
				continue
			}
			seen[v.v] = true
			c := base
			set(&c, k.JSON, v.v)
			fit(&c, k.JSON)
			c.Name = fmt.Sprintf("%s=%d", k.JSON, v.v)
			cs = append(cs, elabCase{name: fmt.Sprintf("%s=%d (%s)", k.JSON, v.v, v.edge), cfg: c,
				keys: []string{k.JSON}})
		}
	}
	return cs
}

// topRuleCases returns each rule of topRules at its edge (the top accepts) and one step beyond (it refuses,
// config.Validate accepts): elaborated on every top that declares the keys, so the other tops must accept both.
func topRuleCases(base config.Config) []elabCase {
	rows := []struct {
		name           string
		handle, window int
		keys           []string
	}{
		{name: "handle_width=8 (nic_roce: handle_width >= 8)", handle: 8, window: 8, keys: []string{"handle_width"}},
		{name: "handle_width=7 (nic_roce: handle_width >= 8)", handle: 7, window: 8, keys: []string{"handle_width"}},
		{name: "window=128 (nic_roce: 2^(handle_width-1) >= window)", handle: 8, window: 128,
			keys: []string{"window", "handle_width"}},
		{name: "window=256 (nic_roce: 2^(handle_width-1) >= window)", handle: 8, window: 256,
			keys: []string{"window", "handle_width"}},
	}
	var cs []elabCase
	for _, r := range rows {
		c := base
		c.HandleWidth, c.Window = r.handle, r.window
		fit(&c, "window")
		c.Name = fmt.Sprintf("handle_width=%d,window=%d", r.handle, r.window)
		cs = append(cs, elabCase{name: r.name, cfg: c, keys: r.keys})
	}
	return cs
}

// ruleCases returns every cross-key rule of config.Validate at its edge (allowed) and one step beyond (refused).
func ruleCases(base config.Config) []elabCase {
	type kv struct {
		key string
		v   int
	}
	rows := []struct {
		rule    string
		set     []kv
		allowed bool
	}{
		{"2^(pseq_width-1) > sack_bits", []kv{{"sack_bits", 128}, {"pseq_width", 9}}, true},
		{"2^(pseq_width-1) > sack_bits", []kv{{"sack_bits", 128}, {"pseq_width", 8}}, false},
		{"2^(pseq_width-1) > sack_bits", []kv{{"sack_bits", 256}, {"pseq_width", 10}}, true},
		{"2^(pseq_width-1) > sack_bits", []kv{{"sack_bits", 256}, {"pseq_width", 9}}, false},
		{"cwnd_init <= cwnd_max", []kv{{"cwnd_max", 40}, {"cwnd_init", 40}}, true},
		{"cwnd_init <= cwnd_max", []kv{{"cwnd_max", 40}, {"cwnd_init", 41}}, false},
		{"cwnd_init <= cwnd_max", []kv{{"cwnd_max", 1}, {"cwnd_init", 2}}, false},
		{"rto_ticks <= rto_max_ticks", []kv{{"rto_ticks", 100}, {"rto_max_ticks", 100}}, true},
		{"rto_ticks <= rto_max_ticks", []kv{{"rto_ticks", 100}, {"rto_max_ticks", 99}}, false},
		{"rto_ticks <= rto_max_ticks", []kv{{"rto_ticks", 65535}, {"rto_max_ticks", 65534}}, false},
		{"tick_cycles >= conns", []kv{{"conns", 64}, {"tick_cycles", 64}}, true},
		{"tick_cycles >= conns", []kv{{"conns", 64}, {"tick_cycles", 63}}, false},
		{"tick_cycles >= conns", []kv{{"conns", 2}, {"tick_cycles", 2}}, true},
		{"tick_cycles >= conns", []kv{{"conns", 4}, {"tick_cycles", 3}}, false},
		{"qpn_base + conns <= 2^24 - 1", []kv{{"conns", 2}, {"qpn_base", 1<<24 - 3}}, true},
		{"qpn_base + conns <= 2^24 - 1", []kv{{"conns", 4}, {"qpn_base", 1<<24 - 4}}, false},
	}
	var cs []elabCase
	for _, r := range rows {
		c := base
		var keys, parts []string
		for _, s := range r.set {
			set(&c, s.key, s.v)
			keys = append(keys, s.key)
			parts = append(parts, fmt.Sprintf("%s=%d", s.key, s.v))
		}
		c.Name = strings.Join(parts, ",")
		cs = append(cs, elabCase{name: fmt.Sprintf("%s (rule %s)", c.Name, r.rule), cfg: c, keys: keys,
			rule: true, allowed: r.allowed})
	}
	return cs
}

// rtlVerdict is what the RTL said about a configuration.
type rtlVerdict struct {
	// accepted: it compiled and ran its initial blocks without an $error.
	accepted bool
	// compileErr is set when iverilog refused to compile the design at all.
	compileErr bool
	// out is the tools' output.
	out string
}

// topRules are the rules a top adds to config.Validate's: such a top refuses, by its own parameter check, some
// configurations that the blocks accept.
var topRules = map[string]func(config.Config) error{"nic_roce": config.Config.ValidateNicRoCE}

// elaborate compiles top with Icarus (-g2005, parameters by -P) and runs its time-0 initial blocks, where the
// parameter checks ($error, $finish) are; Verilator --lint-only does not run initial blocks.
func elaborate(ctx context.Context, dir string, srcs []string, top string, ps []config.Param) (rtlVerdict, error) {
	vvp := filepath.Join(dir, top+".vvp")
	args := []string{"-g2005", "-o", vvp, "-s", top}
	for _, p := range ps {
		args = append(args, fmt.Sprintf("-P%s.%s=%d", top, p.Name, p.Value))
	}
	var out bytes.Buffer
	args = append(args, "-I"+filepath.Dir(srcs[0])) // rtl/: the register map header
	cmd := exec.CommandContext(ctx, "iverilog", append(args, srcs...)...)
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		if ctx.Err() != nil {
			return rtlVerdict{}, fmt.Errorf("iverilog: %w", ctx.Err())
		}
		return rtlVerdict{compileErr: true, out: out.String()}, nil
	}
	out.Reset()
	cmd = exec.CommandContext(ctx, "vvp", "-n", vvp)
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		return rtlVerdict{}, fmt.Errorf("vvp: %w: %s", err, out.String())
	}
	return rtlVerdict{accepted: !strings.Contains(out.String(), "ERROR:"), out: out.String()}, nil
}

// degenerate says whether a value of the case leaves a field of zero width (a width key at 0 or below, a
// power-of-two key, the number of entries of an index, at 1 or below): the compiler refuses such a design before
// it runs the initial blocks, so the refusal is a compile error rather than the parameter check's message.
func degenerate(cs elabCase) bool {
	for _, name := range cs.keys {
		for _, k := range config.Keys {
			if k.JSON != name {
				continue
			}
			for _, p := range cs.cfg.Params() {
				if p.Name == k.Verilog && (p.Value <= 0 || k.Pow2 && p.Value <= 1) {
					return true
				}
			}
		}
	}
	return false
}

// errorLines keeps the $error lines of the tools' output.
func errorLines(out string) string {
	var ls []string
	for _, l := range strings.Split(out, "\n") {
		if strings.Contains(l, "ERROR:") || strings.Contains(l, "error:") {
			ls = append(ls, strings.TrimSpace(l))
		}
	}
	if len(ls) == 0 {
		return strings.TrimSpace(out)
	}
	return strings.Join(ls, "; ")
}

// TestRTLChecksMatchConfig elaborates every top at the minimum and maximum of every key it declares, one step
// beyond each, at values that are not a power of two, and at each cross-key rule's edge and one step beyond, and
// requires the RTL's initial-block checks to accept exactly what config.Validate accepts; a refusal must come
// from a check naming one of the case's parameters. Cases run in parallel (go test -parallel, GOMAXPROCS).
func TestRTLChecksMatchConfig(t *testing.T) {
	for _, tool := range []string{"iverilog", "vvp"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s not installed (make deps)", tool)
		}
	}
	root, err := tops.Root()
	require.NoError(t, err)
	m, err := tops.LoadManifest(root)
	require.NoError(t, err)
	// the smallest preset: the other keys keep each elaboration short (conns 1024 x paths 4)
	base, err := config.Preset("ice40")
	require.NoError(t, err)
	cases := append(append(keyCases(base), ruleCases(base)...), topRuleCases(base)...)

	for _, cs := range cases {
		err := cs.cfg.Validate()
		if cs.rule {
			assert.Equal(t, cs.allowed, err == nil, "%s: the rule's table and config.Validate (%v) disagree",
				cs.name, err)
			continue
		}
		k := keyByJSON(t, cs.keys[0])
		v := cs.cfg.Params()
		var got int
		for _, p := range v {
			if p.Name == k.Verilog {
				got = p.Value
			}
		}
		inRange := got >= k.Min && got <= k.Max && (!k.Pow2 || got&(got-1) == 0)
		assert.Equal(t, inRange, err == nil, "%s: config.Validate says %v; the other keys must be fitted so "+
			"that only %s decides", cs.name, err, k.JSON)
	}

	ran := 0
	for _, top := range m.Names() {
		srcs, err := m.Sources(root, top)
		require.NoError(t, err)
		declared := map[string]bool{}
		ps, err := tops.Params(root, top, base)
		require.NoError(t, err)
		for _, p := range ps {
			declared[p.Name] = true
		}
		for _, cs := range cases {
			var names []string
			all := true
			for _, k := range cs.keys {
				v := keyByJSON(t, k).Verilog
				names = append(names, v)
				all = all && declared[v]
			}
			if !all {
				continue
			}
			ran++
			t.Run(top+"/"+cs.name, func(t *testing.T) {
				t.Parallel()
				ps, err := tops.Params(root, top, cs.cfg)
				require.NoError(t, err)
				ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
				defer cancel()
				got, err := elaborate(ctx, t.TempDir(), srcs, top, ps)
				require.NoError(t, err, "top %s, %s", top, cs.name)
				verr := cs.cfg.Validate()
				if rule := topRules[top]; verr == nil && rule != nil {
					verr = rule(cs.cfg)
				}
				cfgSaid := "accepts"
				if verr != nil {
					cfgSaid = "refuses (" + verr.Error() + ")"
				}
				rtlSaid := "accepts"
				switch {
				case got.compileErr:
					rtlSaid = "does not compile (" + errorLines(got.out) + ")"
				case !got.accepted:
					rtlSaid = "refuses (" + errorLines(got.out) + ")"
				}
				if verr == nil {
					require.True(t, got.accepted, "top %s, %s: config %s, RTL %s", top, cs.name, cfgSaid, rtlSaid)
					if os.Getenv("SPRAYNIC_ELAB_LINT") != "" {
						args := []string{"--lint-only", "-Wall", "-I" + filepath.Join(root, "rtl"),
							filepath.Join(root, "rtl", "lint.vlt")}
						args = append(args, srcs...)
						args = append(args, "--top-module", top)
						for _, p := range ps {
							args = append(args, fmt.Sprintf("-G%s=%d", p.Name, p.Value))
						}
						out, err := exec.CommandContext(ctx, "verilator", args...).CombinedOutput()
						require.NoError(t, err, "top %s, %s: verilator lint: %s", top, cs.name, out)
					}
					return
				}
				require.False(t, got.accepted, "top %s, %s: config %s, RTL %s", top, cs.name, cfgSaid, rtlSaid)
				if got.compileErr {
					require.True(t, degenerate(cs), "top %s, %s: config %s, RTL %s: only a zero-width "+
						"field may stop the compiler before the parameter checks run", top, cs.name, cfgSaid, rtlSaid)
					return
				}
				named := false
				for _, n := range names {
					named = named || strings.Contains(got.out, "Error: "+n+" = ")
				}
				require.True(t, named, "top %s, %s: config %s, RTL %s: the RTL's message must name one of %v",
					top, cs.name, cfgSaid, rtlSaid, names)
			})
		}
	}
	require.NotZero(t, ran, "no case ran")
	t.Logf("%d elaborations of %d tops (%d cases)", ran, len(m.Names()), len(cases))
}
