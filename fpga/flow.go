package fpga

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/spraynic/spraynic/config"
)

// flowVersion is part of every report key: bump it when the flow's scripts or counting change, so cached reports
// are not reused across the change.
const flowVersion = "5"

// ClockPort is the clock port every top has (STYLE.md: clk, rst first).
const ClockPort = "clk"

// Top is one synthesizable top of rtl/manifest.json with what the flow needs of it.
type Top struct {
	// Name is the top module.
	Name string
	// Files are its sources (absolute paths), in manifest order.
	Files []string
	// Params are the parameters the top declares, with the config's values.
	Params []config.Param
}

// Options configure a flow run.
type Options struct {
	// Root is the repository root; RTL locations in critical paths are reported relative to Root/rtl.
	Root string
	// OutDir is where each (board, top) gets its directory: OutDir/<board>/<top>/.
	OutDir string
	// Config is the configuration the tops are built with (normally the board's preset).
	Config config.Config
	// Force runs the tools even when a report with the same key exists.
	Force bool
	// Log receives progress lines; nil discards them.
	Log io.Writer
}

// Job is one (board, top) run.
type Job struct {
	// Board is the target.
	Board Board
	// Top is the block.
	Top Top
	// Config is the configuration for this job.
	Config config.Config
}

// Result is the outcome of one job.
type Result struct {
	// Job is what ran.
	Job Job
	// Report is valid when Err is nil.
	Report Report
	// Dir is the job's output directory.
	Dir string
	// Cached is true when the report was reused.
	Cached bool
	// Err is why the flow failed.
	Err error
}

// RunJobs runs the jobs, up to parallel at a time (0: one per CPU), and returns their results in job order.
// A failing job does not stop the others.
func RunJobs(ctx context.Context, o Options, jobs []Job, parallel int) []Result {
	if parallel <= 0 {
		parallel = runtime.NumCPU()
	}
	results := make([]Result, len(jobs))
	sem := make(chan struct{}, parallel)
	var wg sync.WaitGroup
	var logMu sync.Mutex
	logf := func(format string, a ...any) {
		if o.Log == nil {
			return
		}
		logMu.Lock()
		defer logMu.Unlock()
		fmt.Fprintf(o.Log, format, a...)
	}
	for i, j := range jobs {
		wg.Add(1)
		go func(i int, j Job) {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			dir := filepath.Join(o.OutDir, j.Board.Name, j.Top.Name)
			logf("synth: %s %s (config %s) ...\n", j.Board.Name, j.Top.Name, j.Config.Name)
			start := time.Now()
			r, cached, err := runJob(ctx, o, j, dir)
			results[i] = Result{Job: j, Report: r, Dir: dir, Cached: cached, Err: err}
			switch {
			case err != nil:
				logf("synth: %s %s FAILED after %.0fs: %v\n",
					j.Board.Name, j.Top.Name, time.Since(start).Seconds(), err)
			case cached:
				logf("synth: %s %s: unchanged inputs, report reused (--force reruns)\n", j.Board.Name, j.Top.Name)
			case r.Packing != nil:
				logf("synth: %s %s done in %.0fs: DOES NOT FIT %s after packing (nextpnr stopped before placement)\n",
					j.Board.Name, j.Top.Name, time.Since(start).Seconds(), j.Board.Device)
			case !r.Fits:
				logf("synth: %s %s done in %.0fs: DOES NOT FIT %s (place-and-route skipped)\n",
					j.Board.Name, j.Top.Name, time.Since(start).Seconds(), j.Board.Device)
			default:
				logf("synth: %s %s done in %.0fs\n", j.Board.Name, j.Top.Name, time.Since(start).Seconds())
			}
		}(i, j)
	}
	wg.Wait()
	return results
}

// runJob runs lint, yosys, and for PnR boards nextpnr and icepack, for one (board, top) into dir, and writes the
// report. A block whose yosys resources exceed the device does not fit: its report says so (Fits, OverDevice) and
// place-and-route is skipped; that is a result, not an error. A report in dir with the same key is reused unless
// o.Force.
func runJob(ctx context.Context, o Options, j Job, dir string) (Report, bool, error) {
	b := j.Board
	tools, err := ToolVersions(ctx, b)
	if err != nil {
		return Report{}, false, err
	}
	key, err := jobKey(j, tools)
	if err != nil {
		return Report{}, false, err
	}
	if !o.Force {
		if old, err := ReadReport(dir); err == nil && old.Key == key {
			return old, true, nil
		}
	}
	if err := os.RemoveAll(dir); err != nil {
		return Report{}, false, err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return Report{}, false, err
	}
	r := newReport(j, key, tools)
	rtlDir := filepath.Join(o.Root, "rtl")

	// 1. lint: Verilator -Wall, the waiver file first.
	t0 := time.Now()
	if err := Lint(ctx, rtlDir, j.Top, filepath.Join(dir, "lint.log")); err != nil {
		return r, false, err
	}
	r.Seconds["lint"] = secs(t0)

	// 2. yosys: the block (with the I/O harness around it on PnR boards).
	t0 = time.Now()
	stat, err := synthesize(ctx, j, dir, &r)
	if err != nil {
		return r, false, err
	}
	r.Seconds["synth"] = secs(t0)

	// 3. nextpnr + icepack, when the block fits the device (a block that does not fit is a reported result:
	// nextpnr would only fail on it).
	if b.PnR && r.Fits {
		t0 = time.Now()
		if err := pnrStep(ctx, b, dir, rtlDir, stat, &r); err != nil {
			return r, false, err
		}
		r.Seconds["pnr"] = secs(t0)
	}

	// 4. Vivado scripts (generated, syntax-checked with tclsh; Vivado itself does not run here).
	if b.Vivado {
		t0 = time.Now()
		if err := vivadoStep(ctx, j, dir, &r); err != nil {
			return r, false, err
		}
		r.Seconds["vivado-tcl"] = secs(t0)
	}
	return r, false, WriteReport(dir, r)
}

// newReport is the report of job j before any tool ran: what it builds, with which inputs (key) and tools.
func newReport(j Job, key string, tools map[string]string) Report {
	b, top := j.Board, j.Top
	params := map[string]int{}
	for _, p := range top.Params {
		params[p.Name] = p.Value
	}
	cfg := ConfigInfo{Name: j.Config.Name, Hash: j.Config.Hash(), ParamsHash: ParamsHash(top.Params), Params: params}
	return Report{
		Board:   b.Name,
		Family:  b.Family.String(),
		Device:  b.Device,
		Top:     top.Name,
		Config:  cfg,
		Key:     key,
		Tools:   tools,
		Seconds: map[string]float64{},
	}
}

// synthesize runs yosys on the block of job j in dir (with the I/O harness around it on PnR boards), and fills
// r with what the log and the cell counts say: memories, warnings, cells, resources and whether the block fits
// the device. Problems in the log fail the flow. It returns yosys's stat -json output.
func synthesize(ctx context.Context, j Job, dir string, r *Report) ([]byte, error) {
	b, top := j.Board, j.Top
	logPath, err := runYosys(ctx, b, top, dir)
	if err != nil {
		return nil, err
	}
	if err := readYosysLog(b, top, logPath, r); err != nil {
		return nil, err
	}
	stat, err := os.ReadFile(filepath.Join(dir, "stat.json"))
	if err != nil {
		return nil, err
	}
	if r.Cells, err = ParseStat(stat, top.Name); err != nil {
		return nil, err
	}
	if r.Resources, r.Uncounted, err = Classify(b.Family, r.Cells); err != nil {
		return nil, fmt.Errorf("%s on %s: %w", top.Name, b.Name, err)
	}
	r.Percent = Percent(r.Resources, b.Capacity)
	r.OverDevice = OverDevice(r.Resources, b.Capacity)
	r.Fits = len(r.OverDevice) == 0
	netlist, err := os.ReadFile(filepath.Join(dir, "netlist.json"))
	if err != nil {
		return nil, err
	}
	d, err := LogicDepth(b.Family, netlist, top.Name)
	if err != nil {
		return nil, fmt.Errorf("%s on %s: %w", top.Name, b.Name, err)
	}
	r.Depth = &d
	return stat, nil
}

// runYosys writes the yosys script of top on board b (and on PnR boards the harness) into dir and runs it; it
// returns the path of yosys's log.
func runYosys(ctx context.Context, b Board, top Top, dir string) (string, error) {
	sources := append([]string(nil), top.Files...)
	synthTop := top.Name
	if b.PnR {
		h, err := harnessFor(ctx, top, dir)
		if err != nil {
			return "", err
		}
		sources = append(sources, h)
		synthTop = HarnessModule
	}
	script := YosysScript(b, top, sources, synthTop)
	if err := os.WriteFile(filepath.Join(dir, "synth.ys"), []byte(script), 0o644); err != nil {
		return "", err
	}
	logPath := filepath.Join(dir, "synth.log")
	if err := run(ctx, dir, nil, "yosys", "-q", "-l", logPath, "-s", "synth.ys"); err != nil {
		return "", fmt.Errorf("yosys (%s %s): %w%s", b.Name, top.Name, err, firstError(logPath, "ERROR:"))
	}
	return logPath, nil
}

// readYosysLog reads the yosys log at logPath into r (memories, warnings, library resizes); the problems it
// finds fail the flow.
func readYosysLog(b Board, top Top, logPath string, r *Report) error {
	logData, err := os.ReadFile(logPath)
	if err != nil {
		return err
	}
	ylog := ParseYosysLog(logData)
	r.Memories = ylog.Memories
	r.Warnings = ylog.Warnings
	r.LibraryResizes = ylog.LibraryResizes
	if r.Warnings == nil {
		r.Warnings = []string{}
	}
	if r.Memories == nil {
		r.Memories = []Memory{}
	}
	if len(ylog.Problems) > 0 {
		var ps []string
		for _, p := range ylog.Problems {
			ps = append(ps, "  "+p.String())
		}
		return fmt.Errorf("yosys found problems that fail the flow in %s on %s (log: %s):\n%s",
			top.Name, b.Name, logPath, strings.Join(ps, "\n"))
	}
	return nil
}

// pnrStep places and routes the synthesized design in dir (stat is yosys's stat -json output, for the harness's
// own resources) and puts the result in r: PnR, or, when the packed design is over the device, Packing with Fits
// false.
func pnrStep(ctx context.Context, b Board, dir, rtlDir string, stat []byte, r *Report) error {
	hcells, err := ParseStat(stat, HarnessModule)
	if err != nil {
		return err
	}
	harness, _, err := Classify(b.Family, hcells)
	if err != nil {
		return err
	}
	p, err := placeAndRoute(ctx, b, dir, rtlDir)
	p.Tool = r.Tools["nextpnr"]
	p.Harness = harness
	switch {
	case errors.Is(err, errPackedOver):
		// Within the device by yosys's count, over it after packing: a result like any other does-not-fit.
		r.Fits = false
		r.OverDevice = OverAfterPacking(p.Utilization)
		r.Packing = &p.Packing
	case err != nil:
		return err
	default:
		r.PnR = &p
	}
	return nil
}

// vivadoStep writes and checks the Vivado scripts of job j and lists them in r, relative to dir.
func vivadoStep(ctx context.Context, j Job, dir string, r *Report) error {
	files, err := VivadoScripts(ctx, dir, j)
	if err != nil {
		return err
	}
	for _, f := range files {
		rel, err := filepath.Rel(dir, f)
		if err != nil {
			return err
		}
		r.Vivado = append(r.Vivado, rel)
	}
	return nil
}

// YosysScript is the yosys script for the board: read the sources, set the parameters (on the top, or through
// the harness instance), synthesise for the family, write the cell counts (stat.json) and the flattened netlist
// (netlist.json: the logic depth, and on PnR boards nextpnr's input).
func YosysScript(b Board, top Top, sources []string, synthTop string) string {
	var s strings.Builder
	fmt.Fprintf(&s, "# generated by spraynic synth for %s on %s\n", top.Name, b.Name)
	fmt.Fprintf(&s, "read_verilog -defer %s\n", strings.Join(quoteAll(sources), " "))
	if synthTop == top.Name && len(top.Params) > 0 {
		var ps []string
		for _, p := range top.Params {
			ps = append(ps, fmt.Sprintf("-set %s %d", p.Name, p.Value))
		}
		fmt.Fprintf(&s, "chparam %s %s\n", strings.Join(ps, " "), top.Name)
	}
	fmt.Fprintf(&s, "hierarchy -check -top %s\nlog %s\n", synthTop, SynthMarker)
	switch b.Family {
	case ICE40:
		fmt.Fprintf(&s, "synth_ice40 -top %s\n", synthTop)
	case Xilinx:
		fmt.Fprintf(&s, "synth_xilinx -family xcup -flatten -noiopad -top %s\n", synthTop)
	case ECP5:
		fmt.Fprintf(&s, "synth_ecp5 -top %s\n", synthTop)
	case Gowin:
		fmt.Fprintf(&s, "synth_gowin -noiopads -top %s\n", synthTop)
	}
	s.WriteString("tee -q -o stat.json stat -json\n")
	s.WriteString("flatten\nwrite_json netlist.json\n")
	return s.String()
}

// quoteAll quotes paths with spaces for a yosys command line.
func quoteAll(paths []string) []string {
	q := make([]string, len(paths))
	for i, p := range paths {
		if strings.ContainsAny(p, " \t") {
			p = `"` + p + `"`
		}
		q[i] = p
	}
	return q
}

// harnessFor elaborates top with its parameters, reads its ports and writes the I/O harness into dir.
func harnessFor(ctx context.Context, top Top, dir string) (string, error) {
	var s strings.Builder
	fmt.Fprintf(&s, "read_verilog -defer %s\n", strings.Join(quoteAll(top.Files), " "))
	if len(top.Params) > 0 {
		var ps []string
		for _, p := range top.Params {
			ps = append(ps, fmt.Sprintf("-set %s %d", p.Name, p.Value))
		}
		fmt.Fprintf(&s, "chparam %s %s\n", strings.Join(ps, " "), top.Name)
	}
	fmt.Fprintf(&s, "hierarchy -check -top %s\nproc -noopt\nwrite_json ports.json\n", top.Name)
	if err := os.WriteFile(filepath.Join(dir, "ports.ys"), []byte(s.String()), 0o644); err != nil {
		return "", err
	}
	logPath := filepath.Join(dir, "ports.log")
	if err := run(ctx, dir, nil, "yosys", "-q", "-l", logPath, "-s", "ports.ys"); err != nil {
		return "", fmt.Errorf("yosys (ports of %s): %w%s", top.Name, err, firstError(logPath, "ERROR:"))
	}
	data, err := os.ReadFile(filepath.Join(dir, "ports.json"))
	if err != nil {
		return "", err
	}
	ports, err := ParsePorts(data, top.Name)
	if err != nil {
		return "", err
	}
	v, err := Harness(top.Name, ClockPort, ports, top.Params)
	if err != nil {
		return "", err
	}
	path := filepath.Join(dir, "harness.v")
	return path, os.WriteFile(path, []byte(v), 0o644)
}

// placeAndRoute runs nextpnr-ice40 (fixed seed, --timing-allow-fail: a missed target is reported, not fatal)
// and icepack in dir. When nextpnr stops because the packed design is over the device, the error wraps
// errPackedOver and the PnR holds nextpnr's utilisation table.
func placeAndRoute(ctx context.Context, b Board, dir, rtlDir string) (PnR, error) {
	p := PnR{Package: b.Package, Seed: b.Seed}
	logPath := filepath.Join(dir, "pnr.log")
	args := []string{"--" + b.NextpnrDevice,
		"--package", b.Package, "--json", "netlist.json", "--asc", "design.asc",
		"--seed", strconv.Itoa(b.Seed), "--freq", strconv.FormatFloat(b.TargetMHz, 'f', -1, 64),
		"--timing-allow-fail", "--report", "pnr.json", "-l", logPath, "-q"}
	if err := run(ctx, dir, nil, "nextpnr-ice40", args...); err != nil {
		if log, rerr := os.ReadFile(logPath); rerr == nil {
			if util, uerr := ParseUtilisation(log); uerr == nil && len(OverAfterPacking(util)) > 0 {
				p.Utilization = util
				return p, fmt.Errorf("nextpnr-ice40 (%s): %w", b.Name, errPackedOver)
			}
		}
		return p, fmt.Errorf("nextpnr-ice40 (%s): %w%s", b.Name, err, firstError(logPath, "ERROR:"))
	}
	rep, err := os.ReadFile(filepath.Join(dir, "pnr.json"))
	if err != nil {
		return p, err
	}
	if p.FmaxMHz, p.TargetMHz, p.Utilization, err = ParseNextpnrReport(rep); err != nil {
		return p, err
	}
	p.TimingMet = p.FmaxMHz >= p.TargetMHz
	logData, err := os.ReadFile(logPath)
	if err != nil {
		return p, err
	}
	if p.CriticalPath, err = ParseCriticalPath(logData, rtlDir); err != nil {
		return p, err
	}
	p.CriticalPath.Through = annotate(p.CriticalPath.Through, rtlDir)
	if err := run(ctx, dir, nil, "icepack", "design.asc", "design.bin"); err != nil {
		return p, fmt.Errorf("icepack (%s): %w", b.Name, err)
	}
	p.Bitstream = "design.bin"
	return p, nil
}

// errPackedOver is nextpnr stopping because the packed design (block and I/O harness) needs more of a bel type
// than the device has; placeAndRoute then returns the utilisation table in its PnR.
var errPackedOver = errors.New("the packed design does not fit the device")

// annotate appends the source line's text to each "file:line" location.
func annotate(locs []string, rtlDir string) []string {
	out := make([]string, len(locs))
	for i, loc := range locs {
		out[i] = loc
		colon := strings.LastIndex(loc, ":")
		n, err := strconv.Atoi(loc[colon+1:])
		if err != nil {
			continue
		}
		data, err := os.ReadFile(filepath.Join(rtlDir, loc[:colon]))
		if err != nil {
			continue
		}
		lines := strings.Split(string(data), "\n")
		if n >= 1 && n <= len(lines) {
			out[i] = loc + "  " + strings.Join(strings.Fields(lines[n-1]), " ")
		}
	}
	return out
}

// blanketWidthWaiver matches a lint.vlt line that switches a WIDTH rule off without naming lines or a message.
var blanketWidthWaiver = regexp.MustCompile(`^\s*lint_off\s+-rule\s+WIDTH\S*\s*(-file\s+"[^"]*"\s*)?$`)

// Lint runs `verilator --lint-only -Wall` on top with its parameters (rtlDir/lint.vlt first, if present) and
// writes the output to logPath. Width truncation in assignments is caught here (Verilator's WIDTH warnings), so
// a waiver file that switches WIDTH off for whole files is refused.
func Lint(ctx context.Context, rtlDir string, top Top, logPath string) error {
	args := []string{"--lint-only", "-Wall"}
	waivers := filepath.Join(rtlDir, "lint.vlt")
	if data, err := os.ReadFile(waivers); err == nil {
		for i, line := range strings.Split(string(data), "\n") {
			if blanketWidthWaiver.MatchString(line) {
				return fmt.Errorf("%s:%d: blanket WIDTH waiver would hide width truncation; "+
					"waive with -lines or -match", waivers, i+1)
			}
		}
		args = append(args, waivers)
	}
	// the directories of the sources are include paths (rtl/nic_roce_regs.vh)
	for _, d := range sourceDirs(top.Files) {
		args = append(args, "-I"+d)
	}
	args = append(args, top.Files...)
	args = append(args, "--top-module", top.Name)
	for _, p := range top.Params {
		args = append(args, fmt.Sprintf("-G%s=%d", p.Name, p.Value))
	}
	var out bytes.Buffer
	err := run(ctx, filepath.Dir(logPath), &out, "verilator", args...)
	if werr := os.WriteFile(logPath, out.Bytes(), 0o644); werr != nil {
		return werr
	}
	if err != nil {
		msg := strings.TrimSpace(out.String())
		if lines := strings.Split(msg, "\n"); len(lines) > 12 {
			msg = strings.Join(lines[:12], "\n") + "\n..."
		}
		return fmt.Errorf("lint: verilator --lint-only -Wall %s failed (fix before synthesis; log %s):\n%s",
			top.Name, logPath, msg)
	}
	return nil
}

// ToolVersions returns the versions of the tools board b uses.
func ToolVersions(ctx context.Context, b Board) (map[string]string, error) {
	v := map[string]string{}
	get := func(name string, args ...string) (string, error) {
		var out bytes.Buffer
		if err := run(ctx, "", &out, name, args...); err != nil {
			return "", fmt.Errorf("%s %s: %w (run `make deps-fpga`)", name, strings.Join(args, " "), err)
		}
		return strings.TrimSpace(strings.SplitN(out.String(), "\n", 2)[0]), nil
	}
	var err error
	if v["yosys"], err = get("yosys", "-V"); err != nil {
		return nil, err
	}
	if v["verilator"], err = get("verilator", "--version"); err != nil {
		return nil, err
	}
	if b.PnR {
		out, err := get("nextpnr-ice40", "--version")
		if err != nil {
			return nil, err
		}
		v["nextpnr"] = NextpnrVersion(out)
		if _, err := exec.LookPath("icepack"); err != nil {
			return nil, fmt.Errorf("icepack not found (package fpga-icestorm; run `make deps-fpga`)")
		}
		v["icepack"] = "fpga-icestorm " + debVersion(ctx, "fpga-icestorm")
	}
	if b.Vivado {
		if v["tclsh"], err = tclVersion(ctx); err != nil {
			return nil, err
		}
	}
	return v, nil
}

// debVersion asks dpkg for an installed package's version ("unknown" without dpkg or the package).
func debVersion(ctx context.Context, pkg string) string {
	var out bytes.Buffer
	if err := run(ctx, "", &out, "dpkg-query", "-W", "-f", "${Version}", pkg); err != nil {
		return "unknown"
	}
	return strings.TrimSpace(out.String())
}

// jobKey hashes every input of a job: the flow version, the board, the top's name, parameters and source
// contents, and the tool versions.
func jobKey(j Job, tools map[string]string) (string, error) {
	h := sha256.New()
	fmt.Fprintf(h, "flow %s\n", flowVersion)
	bj, err := json.Marshal(j.Board)
	if err != nil {
		return "", err
	}
	fmt.Fprintf(h, "board %s\ntop %s\n", bj, j.Top.Name)
	for _, p := range j.Top.Params {
		fmt.Fprintf(h, "param %s=%d\n", p.Name, p.Value)
	}
	for _, f := range j.Top.Files {
		data, err := os.ReadFile(f)
		if err != nil {
			return "", err
		}
		fmt.Fprintf(h, "file %s %d\n", filepath.Base(f), len(data))
		h.Write(data)
	}
	for _, k := range sortedKeys(tools) {
		fmt.Fprintf(h, "tool %s %s\n", k, tools[k])
	}
	return hex.EncodeToString(h.Sum(nil))[:16], nil
}

// shortHash is the first 16 hex digits of the SHA-256 of data.
func shortHash(data []byte) string {
	s := sha256.Sum256(data)
	return hex.EncodeToString(s[:])[:16]
}

// run runs a tool in dir (the working directory if empty); its combined output goes to out (discarded if nil).
func run(ctx context.Context, dir string, out io.Writer, name string, args ...string) error {
	if _, err := exec.LookPath(name); err != nil {
		return fmt.Errorf("%s not found on PATH (run `make deps-fpga`)", name)
	}
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = dir
	if out != nil {
		cmd.Stdout = out
		cmd.Stderr = out
	}
	var stderr bytes.Buffer
	if out == nil {
		cmd.Stderr = &stderr
	}
	if err := cmd.Run(); err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) && stderr.Len() > 0 {
			return fmt.Errorf("%s exited with %d: %s", name, ee.ExitCode(),
				strings.TrimSpace(lastLines(stderr.String(), 5)))
		}
		return fmt.Errorf("%s: %w", name, err)
	}
	return nil
}

// lastLines returns the last n lines of s.
func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

// firstError returns "\n" + the first line of the log file containing marker, or "".
func firstError(logPath, marker string) string {
	data, err := os.ReadFile(logPath)
	if err != nil {
		return ""
	}
	for _, line := range strings.Split(string(data), "\n") {
		if strings.Contains(line, marker) {
			return "\n  " + strings.TrimSpace(line)
		}
	}
	return ""
}

// secs is the time since t0 in seconds, rounded to 0.1.
func secs(t0 time.Time) float64 {
	return float64(time.Since(t0).Round(100*time.Millisecond)) / float64(time.Second)
}
