package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/spraynic/spraynic/config"
	"github.com/spraynic/spraynic/regress"
)

// writeFile writes body to name in dir and returns its path.
func writeFile(t *testing.T, dir, name, body string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	require.NoError(t, os.WriteFile(p, []byte(body), 0o644))
	return p
}

// shardFile writes the results of shard i/n of a suite "smoke" of total runs holding the given seeds of
// rx_inorder, with status st.
func shardFile(t *testing.T, dir, name, suite, shard string, total int, st regress.Status, seeds ...uint64) string {
	t.Helper()
	rs := regress.Results{Suite: suite, FirstSeed: 1, Shard: shard, Total: total}
	for _, s := range seeds {
		rs.Runs = append(rs.Runs, regress.Record{Test: "rx_inorder", Config: "default", Seed: s, RequestedCycles: 100,
			Cycles: 100, Transactions: 9, Status: st})
	}
	b, err := json.Marshal(rs)
	require.NoError(t, err)
	return writeFile(t, dir, name, string(b))
}

// TestHostileInputs: malformed flags, environment values, config files, suite files and merge inputs, each with
// its exact message and exit status.
func TestHostileInputs(t *testing.T) {
	dir := t.TempDir()
	suite := func(body string) string {
		return `{"suites": [{"name": "mine", "configs": ["default"], "seeds": 1, "cycle_scale": 1, "tests": ` + body
	}
	seeds0 := writeFile(t, dir, "seeds0.json", strings.Replace(suite(`["rx_inorder"]}]}`), `"seeds": 1`,
		`"seeds": 0`, 1))
	trunc := writeFile(t, dir, "trunc.json", suite(`["rx_inorder"]}`))
	okSuite := writeFile(t, dir, "ok.json", suite(`["rx_inorder"]}]}`))
	s1 := shardFile(t, dir, "s1.json", "smoke", "1/2", 2, regress.StatusPass, 1)
	s2 := shardFile(t, dir, "s2.json", "smoke", "2/2", 2, regress.StatusPass, 2)
	other := shardFile(t, dir, "other.json", "nightly", "2/2", 2, regress.StatusPass, 2)
	bad := shardFile(t, dir, "bad.json", "smoke", "2/2", 2, "MAYBE", 2)
	preset, err := config.Preset("default")
	require.NoError(t, err)
	cfgText := strings.TrimSpace(preset.JSON())
	dup := writeFile(t, dir, "dup.json", strings.Replace(cfgText, `"gbn": 0`, "\"gbn\": 0,\n  \"gbn\": 1", 1))
	str := writeFile(t, dir, "str.json", strings.Replace(cfgText, `"window": 64`, `"window": "64"`, 1))
	merged := filepath.Join(dir, "m.json")
	checkCases(t, []cliCase{
		{name: "suite file: zero seeds", args: []string{"regress", "--golden", "--suite-file", seeds0}, code: 1,
			stderr: "spraynic: suite file " + seeds0 + ": suites[0]: field seeds: value 0 (allowed: 1..1000000)"},
		{name: "suite file: truncated", args: []string{"regress", "--golden", "--suite-file", trunc}, code: 1,
			stderr: "spraynic: suite file " + trunc + `: unexpected EOF (allowed: {"suites": [{"name", "doc", ` +
				`"configs", "seeds", "cycle_scale", "tests"}]})`},
		{name: "suite file: suite not in it", args: []string{"regress", "--suite-file", okSuite, "--suite", "mie"},
			code: 2, stderr: `spraynic: --suite "mie": unknown (did you mean mine?) (suites: nightly, smoke, mine; ` +
				"more with --suite-file); see 'spraynic regress --help'"},
		{name: "regress: unknown config", args: []string{"regress", "--golden", "--config", "u25"}, code: 2,
			stderr: `spraynic: --config: unknown config "u25" (presets: default, ice40, u250); ` +
				"see 'spraynic regress --help'"},
		{name: "merge: shards complete, flags after files", args: []string{"merge", s2, s1, "--json", merged},
			code: 0, stdout: "merge suite=smoke files=2 runs=2 of 2\n"},
		{name: "merge: one file twice", args: []string{"merge", s1, s1}, code: 2,
			stderr: "spraynic: merge: " + s1 + " given twice (allowed: each shard's results once); " +
				"see 'spraynic merge --help'"},
		{name: "merge: two suites", args: []string{"merge", s1, other}, code: 1,
			stderr: "spraynic: merge: " + other + " is suite nightly first seed 1 total 2, but " + s1 +
				" is suite smoke first seed 1 total 2"},
		{name: "merge: unknown status", args: []string{"merge", s1, bad}, code: 1,
			stderr: "spraynic: results " + bad + `: runs[0]: field status: value "MAYBE" (allowed: PASS, FAIL, ` +
				"PANIC, TIMEOUT)"},
		{name: "merge: not a results file", args: []string{"merge", okSuite}, code: 1,
			stderr: "spraynic: results " + okSuite + ": field suite: empty (not a spraynic regress --json file?)"},
		{name: "merge: one file for two outputs", args: []string{"merge", s1, "--json", merged, "--junit", merged},
			code: 2, stderr: "spraynic: --json and --junit name the same file " + merged +
				" (allowed: a file of its own for each); see 'spraynic merge --help'"},
		{name: "config: duplicate key", args: []string{"config", "check", dup}, code: 1,
			stderr: "spraynic: config " + dup + `: key "gbn": given twice, at line 20 column 8 and at line 21 ` +
				"column 8 (allowed: once)"},
		{name: "config: string value", args: []string{"sim", "--config", str}, code: 1,
			stderr: "spraynic: config " + str + `: line 3: key "window": value "64" is a string (allowed: an ` +
				"integer, power of two, 8..1024)"},
		{name: "config: a directory", args: []string{"config", "check", dir}, code: 1,
			stderr: "spraynic: config " + dir + ": read " + dir + ": is a directory"},
		{name: "config: missing file", args: []string{"sim", "--config", "./nosuch.json"}, code: 1,
			stderr: "spraynic: config file: open ./nosuch.json: no such file or directory"},
		{name: "env: negative seed", args: []string{"sim"}, env: map[string]string{"SPRAYNIC_SEED": "-1"}, code: 2,
			stderr: `spraynic: environment SPRAYNIC_SEED="-1" (for --seed): not a non-negative integer; ` +
				"see 'spraynic sim --help'"},
		{name: "env: SEED not a number", args: []string{"run", "--test", "rx_inorder"},
			env: map[string]string{"SEED": "abc"}, code: 2,
			stderr: `spraynic: environment SEED="abc" (for --seed): not a non-negative integer; ` +
				"see 'spraynic run --help'"},
		{name: "flag: seed beyond 64 bits", args: []string{"sim", "--seed", "18446744073709551616"}, code: 2,
			stderr: `spraynic: --seed "18446744073709551616": not a non-negative integer; see 'spraynic sim --help'`},
		{name: "flag: NaN loss", args: []string{"sim", "--loss", "NaN"}, code: 2,
			stderr: "spraynic: option loss: value NaN out of range (allowed 0..0.5); see 'spraynic sim --help'"},
		{name: "flag: message sizes upside down", args: []string{"sim", "--msg", "uniform:10:5"}, code: 2,
			stderr: `spraynic: option msg: value "uniform:10:5" has MIN above MAX (allowed fixed:N, ` +
				"uniform:MIN:MAX, exp:MEAN with sizes 1..1073741824 bytes); see 'spraynic sim --help'"},
		{name: "flag: failure of a missing path", args: []string{"sim", "--fail", "9@10"}, code: 2,
			stderr: "spraynic: option fail[0]: path 9 out of range (allowed 0..7); see 'spraynic sim --help'"},
		{name: "flag: cov diff one file", args: []string{"cov", "diff", "a.json"}, code: 2,
			stderr: "spraynic: cov diff takes two files, BASE.json NEW.json, got 1 argument; " +
				"see 'spraynic cov diff --help'"},
		{name: "flag: capture to /dev/null", args: []string{"sim", "--duration-us", "5", "--quiet", "--pcap",
			os.DevNull}, code: 0, stdout: "goodput (% of port)"},
	})
	_, err = regress.ReadResults(merged)
	require.NoError(t, err, "merge wrote its --json given after the files")
}
