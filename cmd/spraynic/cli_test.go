package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/urfave/cli/v2"

	"github.com/spraynic/spraynic/cosim"
)

// cliCase is one command line and what it must print and return.
type cliCase struct {
	// name names the case; args follow "spraynic"; env is set for the run.
	name string
	args []string
	env  map[string]string
	// stdout, when set, is a line stdout must contain; stderr, when set, is the whole of stderr (one line
	// without its newline); code is the exit status.
	stdout, stderr string
	code           int
}

// runCLI runs the application in-process as main does and returns stdout, stderr and the exit status.
func runCLI(t *testing.T, env map[string]string, args ...string) (string, string, int) {
	t.Helper()
	for k, v := range env {
		t.Setenv(k, v)
	}
	var out, errb bytes.Buffer
	code := run(append([]string{"spraynic"}, args...), &out, &errb)
	return out.String(), errb.String(), code
}

// checkCases runs each case and compares its output and exit status.
func checkCases(t *testing.T, cases []cliCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			out, errs, code := runCLI(t, tc.env, tc.args...)
			if tc.stderr != "" {
				require.Equal(t, tc.stderr+"\n", errs, "stderr of spraynic %s", strings.Join(tc.args, " "))
			}
			if tc.stdout != "" {
				require.Contains(t, out, tc.stdout, "stdout of spraynic %s", strings.Join(tc.args, " "))
			}
			require.Equal(t, tc.code, code, "exit status of spraynic %s (stderr %q)", strings.Join(tc.args, " "), errs)
		})
	}
}

// TestUsageErrors: each mistake on the command line is one line on stderr, naming the input, what is wrong and
// what is allowed, with exit status 2; nothing goes to stdout.
func TestUsageErrors(t *testing.T) {
	checkCases(t, []cliCase{
		{name: "unknown command", args: []string{"simm"}, code: 2,
			stderr: `spraynic: unknown command "simm" (did you mean sim?) (commands: tests, run, regress, merge, replay, ` +
				`sim, gen, bench, measure, cov, synth, fpga-baseline, formal, config, tops, build-models, regmap, interop, ` +
				`help); see 'spraynic --help'`},
		{name: "unknown subcommand", args: []string{"config", "shw"}, code: 2,
			stderr: `spraynic: unknown command "shw" (commands: show, check, params, list); see 'spraynic config --help'`},
		{name: "unknown flag", args: []string{"sim", "--los", "0.1"}, code: 2,
			stderr: `spraynic: unknown flag --los (did you mean --loss?); see 'spraynic sim --help'`},
		{name: "unknown flag, nothing close", args: []string{"sim", "--jobs", "1"}, code: 2,
			stderr: `spraynic: unknown flag --jobs; see 'spraynic sim --help'`},
		{name: "malformed number", args: []string{"sim", "--duration-us", "x"}, code: 2,
			stderr: `spraynic: --duration-us "x": not a number; see 'spraynic sim --help'`},
		{name: "malformed duration", args: []string{"regress", "--timeout", "5x"}, code: 2,
			stderr: `spraynic: --timeout "5x": not a duration (such as 90s, 10m, 1h30m); see 'spraynic regress --help'`},
		{name: "malformed bool", args: []string{"run", "--golden=yes please", "--test", "rx_inorder"}, code: 2,
			stderr: `spraynic: --golden "yes please": not true or false; see 'spraynic run --help'`},
		{name: "flag without value", args: []string{"tests", "--config"}, code: 2,
			stderr: `spraynic: --config needs a value: config whose default run lengths are shown; ` +
				`see 'spraynic tests --help'`},
		{name: "required flag", args: []string{"run"}, code: 2,
			stderr: `spraynic: --test is required: test name (see 'spraynic tests'); see 'spraynic run --help'`},
		{name: "unexpected argument", args: []string{"sim", "swep"}, code: 2,
			stderr: `spraynic: unexpected argument "swep" (sim takes flags, or one of the commands sweep, scenarios); ` +
				`see 'spraynic sim --help'`},
		{name: "argument count", args: []string{"config", "show"}, code: 2,
			stderr: `spraynic: config show takes one NAME or FILE, got 0 arguments; see 'spraynic config show --help'`},
		{name: "merge without files", args: []string{"merge"}, code: 2,
			stderr: `spraynic: merge takes one or more results files (regress --json), got none; ` +
				`see 'spraynic merge --help'`},
		{name: "unknown test", args: []string{"run", "--test", "rx_inordr"}, code: 2,
			stderr: `spraynic: --test: unknown test "rx_inordr" (did you mean rx_inorder?) ('spraynic tests' lists ` +
				`all ` + strconv.Itoa(len(cosim.Tests())) + `); see 'spraynic run --help'`},
		{name: "unknown suite", args: []string{"regress", "--suite", "smok"}, code: 2,
			stderr: `spraynic: --suite "smok": unknown (did you mean smoke?) (suites: nightly, smoke; more with ` +
				`--suite-file); see 'spraynic regress --help'`},
		{name: "bad shard", args: []string{"regress", "--shard", "3/2", "--golden"}, code: 2,
			stderr: `spraynic: --shard: shard "3/2": i="3" must be an integer in 1..2; see 'spraynic regress --help'`},
		{name: "unknown preset", args: []string{"sim", "--config", "u205"}, code: 2,
			stderr: `spraynic: --config: unknown config "u205" (presets: default, ice40, u250); ` +
				`see 'spraynic sim --help'`},
		{name: "unknown top", args: []string{"config", "params", "--top", "nosuch", "default"}, code: 2,
			stderr: `spraynic: --top "nosuch": not a top of rtl/manifest.json (tops: rx_reorder, path_sel, retx, ` +
				`nic_transport, roce_rx, roce_tx, nic_roce_csr, nic_roce; or a module with its file rtl/<top>.v, ` +
				`such as roce_icrc); ` +
				`see 'spraynic config params --help'`},
		{name: "sweep list value", args: []string{"sim", "sweep", "--losses", "0,abc"}, code: 2,
			stderr: `spraynic: --losses: value "abc" in "0,abc" is not a number (allowed: a comma-separated list); ` +
				`see 'spraynic sim sweep --help'`},
		{name: "frames without rtl", args: []string{"sim", "--frames"}, code: 2,
			stderr: `spraynic: --frames: needs --rtl (the frame-level mode runs the nic_roce RTL tops); ` +
				`see 'spraynic sim --help'`},
		{name: "corrupt without frames", args: []string{"sim", "--rtl", "--corrupt", "0.1"}, code: 2,
			stderr: `spraynic: --corrupt: needs --frames (only the frame-level mode carries frames); ` +
				`see 'spraynic sim --help'`},
		{name: "dma latency without frames", args: []string{"sim", "--rtl", "--dma-latency", "5:9"}, code: 2,
			stderr: `spraynic: --dma-latency: needs --frames (only the frame-level mode has host DMA); ` +
				`see 'spraynic sim --help'`},
		{name: "bad dma latency", args: []string{"sim", "--rtl", "--frames", "--dma-latency", "9:5"}, code: 2,
			stderr: `spraynic: option dma-latency: value "9:5" is not MIN:MAX cycles with 1 <= MIN <= MAX <= ` +
				`65536; see 'spraynic sim --help'`},
		{name: "frames above the datapath", args: []string{"sim", "--rtl", "--frames", "--port-gbps", "65"}, code: 2,
			stderr: `spraynic: option port-gbps: value 65 above the datapath's 64 Gb/s (allowed 1..64: DATA_WIDTH ` +
				`256 x 250 MHz); see 'spraynic sim --help'`},
		{name: "formal unknown block", args: []string{"formal", "--block", "nosuch"}, code: 2,
			stderr: `spraynic: block "nosuch" has no check in suite ci of formal/presets.json; ` +
				`see 'spraynic formal --help'`},
		{name: "formal jobs", args: []string{"formal", "--jobs", "0"}, code: 2,
			stderr: `spraynic: --jobs 0: must be at least 1; see 'spraynic formal --help'`},
		{name: "negative jobs", args: []string{"regress", "--jobs", "-1"}, code: 2,
			stderr: `spraynic: --jobs -1: out of range (allowed: 0 for one per core, or more); ` +
				`see 'spraynic regress --help'`},
	})
}

// TestExitStatus: success is 0, a failed check 1, --version and --help print to stdout.
func TestExitStatus(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "nope.json")
	checkCases(t, []cliCase{
		{name: "version", args: []string{"--version"}, stdout: "spraynic version " + version, code: 0},
		{name: "help", args: []string{"sim", "--help"}, stdout: "--duration-us value", code: 0},
		{name: "no command", args: nil, stdout: "COMMANDS:", code: 0},
		{name: "group without command", args: []string{"config"}, stdout: "COMMANDS:", code: 0},
		{name: "success", args: []string{"config", "list"}, stdout: "u250", code: 0},
		{name: "failed check", args: []string{"config", "check", missing}, code: 1,
			stderr: "spraynic: config file: open " + missing + ": no such file or directory"},
	})
}

// TestVersionMatchesChangelog: the version is the latest release of CHANGELOG.md.
func TestVersionMatchesChangelog(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", "CHANGELOG.md"))
	require.NoError(t, err)
	m := regexp.MustCompile(`(?m)^## \[(\d+\.\d+\.\d+)\]`).FindSubmatch(b)
	require.NotNil(t, m, "CHANGELOG.md names a release")
	require.Equal(t, string(m[1]), version, "version is CHANGELOG.md's latest release")
}

// binaryDir holds the binary built for the tests, removed when they end.
var binaryDir string

// TestMain removes the test binary after the tests.
func TestMain(m *testing.M) {
	code := m.Run()
	if binaryDir != "" {
		os.RemoveAll(binaryDir)
	}
	os.Exit(code)
}

// cliBinary builds the CLI once for the tests that need a real process (exit statuses, signals).
var cliBinary = sync.OnceValues(func() (string, error) {
	dir, err := os.MkdirTemp("", "spraynic-cli-test")
	if err != nil {
		return "", err
	}
	binaryDir = dir
	bin := filepath.Join(dir, "spraynic")
	out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput()
	if err != nil {
		return "", &exec.ExitError{Stderr: out}
	}
	return bin, nil
})

// runBinary runs the built CLI with args and returns its stderr and exit status.
func runBinary(t *testing.T, ctx context.Context, args ...string) (string, int) {
	t.Helper()
	bin, err := cliBinary()
	require.NoError(t, err)
	cmd := exec.CommandContext(ctx, bin, args...)
	var errb bytes.Buffer
	cmd.Stderr = &errb
	err = cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else {
		require.NoError(t, err)
	}
	return errb.String(), code
}

// TestBinaryExitStatus: the built binary exits with the statuses main maps.
func TestBinaryExitStatus(t *testing.T) {
	for _, tc := range []struct {
		args []string
		code int
	}{
		{args: []string{"config", "list"}, code: 0},
		{args: []string{"nosuch"}, code: 2},
		{args: []string{"sim", "--nosuch"}, code: 2},
		{args: []string{"config", "check", "/nonexistent.json"}, code: 1},
	} {
		errs, code := runBinary(t, context.Background(), tc.args...)
		require.Equal(t, tc.code, code, "spraynic %s: %s", strings.Join(tc.args, " "), errs)
	}
}

// TestInterspersed: flags after arguments move before them, at the command they follow; "--" ends the flags.
func TestInterspersed(t *testing.T) {
	a := app()
	for _, tc := range []struct {
		name string
		in   string
		want string
	}{
		{name: "flag after argument", in: "config params default --top retx", want: "config params --top retx default"},
		{name: "flags both sides", in: "merge --json m.json a.json b.json --junit m.xml",
			want: "merge --json m.json --junit m.xml a.json b.json"},
		{name: "bool flag takes no value", in: "run x --golden --test rx", want: "run --golden --test rx x"},
		{name: "value form", in: "merge a.json --json=m.json", want: "merge --json=m.json a.json"},
		{name: "value starting with a dash", in: "sim --loss -0.1", want: "sim --loss -0.1"},
		{name: "double dash ends flags", in: "config show -- --x.json", want: "config show -- --x.json"},
		{name: "flag before subcommand", in: "sim --seed 2 sweep --losses 0", want: "sim sweep --seed 2 --losses 0"},
		{name: "help wins", in: "config show default --help", want: "config show --help"},
		{name: "application flags", in: "--version", want: "--version"},
		{name: "unknown command untouched", in: "nosuch x --y", want: "nosuch x --y"},
		{name: "stdin dash is an argument", in: "config check - --x", want: "config check --x -"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := interspersed(a, append([]string{"spraynic"}, strings.Fields(tc.in)...))
			require.Equal(t, "spraynic "+tc.want, strings.Join(got, " "))
		})
	}
}

// TestFlagsAfterArguments: every command accepts its flags after its arguments.
func TestFlagsAfterArguments(t *testing.T) {
	checkCases(t, []cliCase{
		{name: "config params", args: []string{"config", "params", "default", "--top", "retx", "--format", "yosys"},
			stdout: "-set CONNS 16 -set WINDOW 64 -set PATHS 8 -set SACK_BITS 64 -set PSN_WIDTH 24", code: 0},
		{name: "unknown flag after argument", args: []string{"config", "show", "default", "--top", "retx"}, code: 2,
			stderr: "spraynic: unknown flag --top; see 'spraynic config show --help'"},
		{name: "after double dash an argument", args: []string{"config", "check", "--", "--x.json"}, code: 1,
			stderr: "spraynic: config file: open --x.json: no such file or directory"},
	})
}

// TestEveryFlagHasItsVariable: every flag of every command reads SPRAYNIC_<NAME> (and --seed SEED too).
func TestEveryFlagHasItsVariable(t *testing.T) {
	var walk func(path string, cmds []*cli.Command)
	n := 0
	walk = func(path string, cmds []*cli.Command) {
		for _, cmd := range cmds {
			for _, f := range cmd.Flags {
				name := f.Names()[0]
				want := []string{"SPRAYNIC_" + strings.ToUpper(strings.ReplaceAll(name, "-", "_"))}
				if name == "seed" {
					want = append(want, "SEED")
				}
				got := reflect.ValueOf(f).Elem().FieldByName("EnvVars").Interface()
				require.Equal(t, want, got, "%s%s --%s", path, cmd.Name, name)
				n++
			}
			walk(path+cmd.Name+" ", cmd.Subcommands)
		}
	}
	walk("", app().Commands)
	require.Greater(t, n, 150, "flags seen")
}

// TestEnvironment: a variable sets its flag on every command, the command line wins, a bad value is a usage error.
func TestEnvironment(t *testing.T) {
	checkCases(t, []cliCase{
		{name: "config params from the environment", args: []string{"config", "params", "default"},
			env:    map[string]string{"SPRAYNIC_TOP": "retx", "SPRAYNIC_FORMAT": "yosys"},
			stdout: "-set CONNS 16 -set WINDOW 64 -set PATHS 8 -set SACK_BITS 64 -set PSN_WIDTH 24", code: 0},
		{name: "command line wins", args: []string{"config", "params", "--format", "verilator", "default"},
			env: map[string]string{"SPRAYNIC_FORMAT": "yosys"}, stdout: "-GCONNS=16", code: 0},
		{name: "sim config from the environment", args: []string{"sim", "--duration-us", "5", "--quiet"},
			env: map[string]string{"SPRAYNIC_CONFIG": "ice40"}, stdout: "paths (conn / fabric)              4 / 4",
			code: 0},
		{name: "SEED alias", args: []string{"sim", "--duration-us", "5", "--quiet"},
			env: map[string]string{"SEED": "5"}, stdout: "seed 5 (--seed N or SEED=N to reproduce)", code: 0},
		{name: "bad integer", args: []string{"regress", "--golden"}, env: map[string]string{"SPRAYNIC_JOBS": "two"},
			code: 2, stderr: `spraynic: environment SPRAYNIC_JOBS="two" (for --jobs): not an integer; ` +
				`see 'spraynic regress --help'`},
		{name: "bad number", args: []string{"sim"}, env: map[string]string{"SPRAYNIC_DURATION_US": "1e"},
			code: 2, stderr: `spraynic: environment SPRAYNIC_DURATION_US="1e" (for --duration-us): not a number; ` +
				`see 'spraynic sim --help'`},
		{name: "bad bool", args: []string{"sim"}, env: map[string]string{"SPRAYNIC_QUIET": "yes"},
			code: 2, stderr: `spraynic: environment SPRAYNIC_QUIET="yes" (for --quiet): not true or false; ` +
				`see 'spraynic sim --help'`},
	})
}
