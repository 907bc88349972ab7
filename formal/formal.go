package formal

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"syscall"

	"github.com/spraynic/spraynic/config"
	"github.com/spraynic/spraynic/tops"
)

// PresetsFile is the one data file of proof presets and checks, relative to the repository.
var PresetsFile = filepath.Join("formal", "presets.json")

// Preset is a proof configuration: either raw Verilog parameters (blocks whose parameters no config key sets) or a
// config preset (config/presets.json) with some keys replaced.
type Preset struct {
	// Params are Verilog parameters, given directly.
	Params map[string]int `json:"params,omitempty"`
	// Base names a config preset; Set replaces some of its keys (config JSON names).
	Base string          `json:"base,omitempty"`
	Set  json.RawMessage `json:"set,omitempty"`
}

// Check is one property set of one block on one preset, with the depth of each method (0: not run).
type Check struct {
	// Block is the top module; Preset a key of File.Presets; Set names the property set.
	Block  string `json:"block"`
	Preset string `json:"preset"`
	Set    string `json:"set"`
	// Defines are extra Verilog defines that select the set's properties (FORMAL is always defined).
	Defines []string `json:"defines,omitempty"`
	// Cut names instances of Block that are replaced by free outputs (yosys cutpoint): a sub-block outside the
	// cone of the set's properties, which only makes the model smaller (any behaviour of its outputs is allowed).
	Cut []string `json:"cut,omitempty"`
	// Suite is "ci" (make formal) or "nightly" (make formal-nightly, which also runs ci).
	Suite string `json:"suite"`
	// Induction is k of the k-induction proof (base case BMC to k plus the induction step); BMC a bounded check
	// depth for sets not proved by induction; Cover the depth within which every cover statement must be reached.
	Induction int `json:"induction,omitempty"`
	BMC       int `json:"bmc,omitempty"`
	Cover     int `json:"cover,omitempty"`
}

// Name is block/preset/set.
func (c Check) Name() string { return c.Block + "/" + c.Preset + "/" + c.Set }

// File is formal/presets.json.
type File struct {
	// Solver is the SMT solver yosys-smtbmc drives.
	Solver  string            `json:"solver"`
	Presets map[string]Preset `json:"presets"`
	Checks  []Check           `json:"checks"`
}

// Load reads and checks the presets file under root.
func Load(root string) (File, error) {
	var f File
	b, err := os.ReadFile(filepath.Join(root, PresetsFile))
	if err != nil {
		return f, err
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		return f, fmt.Errorf("%s: %w", PresetsFile, err)
	}
	if f.Solver == "" {
		return f, fmt.Errorf("%s: no solver", PresetsFile)
	}
	for i, c := range f.Checks {
		if _, ok := f.Presets[c.Preset]; !ok {
			return f, fmt.Errorf("%s: check %d (%s): unknown preset %q", PresetsFile, i, c.Name(), c.Preset)
		}
		if c.Suite != "ci" && c.Suite != "nightly" {
			return f, fmt.Errorf("%s: check %d (%s): suite %q (allowed: ci, nightly)", PresetsFile, i, c.Name(),
				c.Suite)
		}
		if c.Induction == 0 && c.BMC == 0 {
			return f, fmt.Errorf("%s: check %d (%s): neither induction nor bmc depth", PresetsFile, i, c.Name())
		}
		if c.Cover == 0 {
			return f, fmt.Errorf("%s: check %d (%s): no cover depth (every set covers what it constrains)",
				PresetsFile, i, c.Name())
		}
	}
	return f, nil
}

// Select returns the checks of suite ("ci", or "nightly": every check), limited to blocks when not empty.
func (f File) Select(suite string, blocks []string) ([]Check, error) {
	if suite != "ci" && suite != "nightly" {
		return nil, fmt.Errorf("suite %q (allowed: ci, nightly)", suite)
	}
	want := map[string]bool{}
	for _, b := range blocks {
		want[b] = true
	}
	var cs []Check
	for _, c := range f.Checks {
		if (suite == "nightly" || c.Suite == "ci") && (len(want) == 0 || want[c.Block]) {
			cs = append(cs, c)
		}
	}
	for b := range want {
		found := false
		for _, c := range cs {
			found = found || c.Block == b
		}
		if !found {
			return nil, fmt.Errorf("block %q has no check in suite %s of %s", b, suite, PresetsFile)
		}
	}
	return cs, nil
}

// Params returns the Verilog parameters of preset name for block, sorted by name.
func (f File) Params(root, block, name string) ([]config.Param, error) {
	p, ok := f.Presets[name]
	if !ok {
		return nil, fmt.Errorf("unknown proof preset %q", name)
	}
	var ps []config.Param
	if p.Base == "" {
		for k, v := range p.Params {
			ps = append(ps, config.Param{Name: k, Value: v})
		}
		sort.Slice(ps, func(i, j int) bool { return ps[i].Name < ps[j].Name })
		return ps, nil
	}
	cfg, err := config.Preset(p.Base)
	if err != nil {
		return nil, fmt.Errorf("proof preset %s: %w", name, err)
	}
	if len(p.Set) > 0 {
		dec := json.NewDecoder(bytes.NewReader(p.Set))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&cfg); err != nil {
			return nil, fmt.Errorf("proof preset %s: %w", name, err)
		}
	}
	cfg.Name = name
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	return tops.Params(root, block, cfg)
}

// Method is how a property set is checked.
type Method string

// The methods: bounded model checking, the induction step of k-induction, cover reachability.
const (
	MethodBMC       Method = "bmc"
	MethodInduction Method = "induction"
	MethodCover     Method = "cover"
)

// Verdict is the outcome of one method on one check.
type Verdict string

// The verdicts. Only Proved, Bounded (a BMC-only set passed to its depth) and Reached pass.
const (
	Proved    Verdict = "proved"
	Bounded   Verdict = "no failure to depth"
	Reached   Verdict = "covered"
	Failed    Verdict = "failed"
	Unknown   Verdict = "unknown"
	Unreached Verdict = "unreached cover"
	Error     Verdict = "error"
)

// Pass says whether v is a pass.
func (v Verdict) Pass() bool { return v == Proved || v == Bounded || v == Reached }

// Result is one solver run of one check.
type Result struct {
	Check  Check
	Method Method
	Depth  int
	// Verdict and Detail (the failing assertion and step, the unreached covers, the error).
	Verdict Verdict
	Detail  string
	// VCD is the counterexample (or cover trace) file, if one was written; Log the solver's output file.
	VCD, Log string
	Seconds  float64
	// Repro is the command that reruns this check alone.
	Repro string
}

// Text is the result column of the table: "proved", "failed at step 3: rx_cum_forward", "unknown at depth 2".
func (r Result) Text() string {
	switch r.Verdict {
	case Bounded:
		return fmt.Sprintf("%s %d", r.Verdict, r.Depth)
	case Unknown:
		return fmt.Sprintf("unknown at depth %d%s", r.Depth, suffix(r.Detail))
	}
	return string(r.Verdict) + suffix(r.Detail)
}

func suffix(s string) string {
	if s == "" {
		return ""
	}
	return ": " + s
}

// Model writes the SMT2 model of c to dir/model.smt2 with yosys and returns its path. rtlDir holds the Verilog
// (the repository's rtl/, or a mutated copy).
func Model(ctx context.Context, root, rtlDir, dir string, f File, c Check) (string, error) {
	m, err := tops.LoadManifest(root)
	if err != nil {
		return "", err
	}
	srcs, err := m.Sources(root, c.Block)
	if err != nil {
		// a block that is not a top of its own (ram_sdp): its one file
		srcs = []string{filepath.Join(root, "rtl", c.Block+".v")}
	}
	params, err := f.Params(root, c.Block, c.Preset)
	if err != nil {
		return "", err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	var files []string
	for _, s := range srcs {
		files = append(files, filepath.Join(rtlDir, filepath.Base(s)))
	}
	defs := ""
	for _, d := range c.Defines {
		defs += " -D" + d
	}
	var chp []string
	for _, p := range params {
		chp = append(chp, fmt.Sprintf("-set %s %d", p.Name, p.Value))
	}
	smt2 := filepath.Join(dir, "model.smt2")
	script := strings.Join([]string{
		"read_verilog -formal" + defs + " " + strings.Join(files, " "),
		"chparam " + strings.Join(chp, " ") + " " + c.Block,
		"prep -top " + c.Block,
		// a block's properties are its own: those of the modules it instantiates (its RAMs, the blocks of
		// nic_transport) are proved on each of them alone, and their assumptions constrain no input of block
		removeNested(c.Block),
		cutInstances(c),
		// one flat module, memories as flip-flops: the solver sees every word of every RAM
		"flatten",
		"memory_map",
		"opt -fast",
		"async2sync",
		"dffunmap",
		"write_smt2 -wires " + smt2,
	}, "\n") + "\n"
	ys := filepath.Join(dir, "model.ys")
	if err := os.WriteFile(ys, []byte(script), 0o644); err != nil {
		return "", err
	}
	cmd := exec.CommandContext(ctx, "yosys", "-q", "-l", filepath.Join(dir, "yosys.log"), "-s", ys)
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("%s: yosys: %v\n%s", c.Name(), err, lastLines(string(out), 10))
	}
	return smt2, nil
}

// removeNested is the yosys command that removes the formal cells of every module below block (the top): the
// selection is every cell of every module, less those of the top.
func removeNested(block string) string {
	return "chformal -remove */* " + block + "/* %d"
}

// cutInstances is the yosys command that replaces c's cut instances by free outputs ("" when none).
func cutInstances(c Check) string {
	if len(c.Cut) == 0 {
		return ""
	}
	var sel []string
	for _, inst := range c.Cut {
		sel = append(sel, c.Block+"/"+inst)
	}
	return "cutpoint " + strings.Join(sel, " ")
}

// Solve runs one method at depth on the model and judges the output.
func Solve(ctx context.Context, solver, smt2 string, m Method, depth int) (Result, error) {
	dir := filepath.Dir(smt2)
	base := filepath.Join(dir, string(m))
	args := []string{"--noprogress", "-s", solver, "-t", fmt.Sprint(depth), "--dump-vcd", base + ".vcd"}
	switch m {
	case MethodInduction:
		args = append(args, "-i")
	case MethodCover:
		args = append(args, "-c")
	}
	args = append(args, smt2)
	_ = os.Remove(base + ".vcd")
	cmd := exec.CommandContext(ctx, "yosys-smtbmc", args...)
	// the solver is yosys-smtbmc's child: a cancelled run stops the whole process group, not only smtbmc
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	out, runErr := cmd.CombinedOutput()
	r := Result{Method: m, Depth: depth, Log: base + ".log"}
	if err := os.WriteFile(r.Log, out, 0o644); err != nil {
		return r, err
	}
	if _, err := os.Stat(base + ".vcd"); err == nil {
		r.VCD = base + ".vcd"
	}
	judge(&r, string(out))
	if ctx.Err() != nil {
		r.Verdict, r.Detail = Unknown, "stopped: "+ctx.Err().Error()
		return r, nil
	}
	if runErr != nil && r.Verdict == "" {
		var ee *exec.ExitError
		if !errors.As(runErr, &ee) {
			return r, runErr
		}
		r.Verdict, r.Detail = Error, "yosys-smtbmc: "+lastLines(string(out), 3)
	}
	return r, nil
}

// judge reads yosys-smtbmc's output into r's verdict and detail.
func judge(r *Result, out string) {
	step := -1
	var failed, unreached []string
	passed := false
	for _, line := range strings.Split(out, "\n") {
		// lines are "##   0:00:00  <message>"
		msg := line
		if i := strings.Index(line, "  "); strings.HasPrefix(line, "##") && i >= 0 {
			msg = strings.TrimSpace(line[i:])
			if j := strings.Index(msg, "  "); j >= 0 {
				msg = strings.TrimSpace(msg[j:])
			}
		}
		switch {
		case strings.HasPrefix(msg, "Checking assertions in step "),
			strings.HasPrefix(msg, "Trying induction in step "),
			strings.HasPrefix(msg, "Checking cover reachability in step "):
			fmt.Sscanf(msg[strings.LastIndex(msg, "step ")+5:], "%d", &step)
		case strings.HasPrefix(msg, "Assert failed in "):
			failed = append(failed, propName(msg))
		case strings.HasPrefix(msg, "Unreached cover statement at "):
			unreached = append(unreached,
				strings.TrimSuffix(strings.TrimPrefix(msg, "Unreached cover statement at "), "."))
		case msg == "Status: PASSED":
			passed = true
		}
	}
	switch {
	case passed && r.Method == MethodCover:
		r.Verdict = Reached
	case passed && r.Method == MethodBMC:
		r.Verdict = Bounded
	case passed:
		r.Verdict = Proved
	case r.Method == MethodCover && len(unreached) > 0:
		r.Verdict, r.Detail = Unreached, strings.Join(unreached, ", ")
	case r.Method == MethodInduction && len(failed) > 0:
		// the induction step failed: not a counterexample from reset, the invariant is not inductive at k
		r.Verdict, r.Detail = Unknown, "induction step fails "+strings.Join(failed, ", ")
	case len(failed) > 0:
		r.Verdict, r.Detail = Failed, fmt.Sprintf("step %d: %s", step, strings.Join(failed, ", "))
	}
}

// propName is the label of the assertion in an "Assert failed in <module>: <label or location>" line.
func propName(msg string) string {
	s := strings.TrimPrefix(msg, "Assert failed in ")
	if i := strings.Index(s, ": "); i >= 0 {
		s = s[i+2:]
	}
	return strings.TrimSpace(s)
}

func lastLines(s string, n int) string {
	ls := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(ls) > n {
		ls = ls[len(ls)-n:]
	}
	return strings.Join(ls, "\n")
}
