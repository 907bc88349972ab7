package bridge

import (
	"bytes"
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
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
	"text/template"
	"time"
)

//go:embed shim.cpp.tmpl
var shimTemplate string

// generatorVersion changes whenever Build's output for the same inputs changes (port parsing, code generation).
const generatorVersion = "1"

// abiVersion is the version of the sn_* C ABI, returned by sn_abi_version.
const abiVersion = 2

// clockPort is the clock input every top must have; the shim drives it and it is not a packed port.
const clockPort = "clk"

// libName is the file name of the model library inside its cache directory.
const libName = "model.so"

// Flags of the model build. They are part of the hash: changing one rebuilds every model.
var (
	// verilatorFlags are given to every build; -O3 turns on Verilator's own slow optimisations.
	verilatorFlags = []string{"--cc", "--build", "--exe", "-O3"}
	// cxxFlags go to g++ for every object, the Verilator runtime included. -fvisibility=hidden keeps the model's
	// C++ symbols inside the library; -DVL_USER_FINISH lets the shim replace vl_finish, which would exit(0).
	cxxFlags = []string{"-fPIC", "-fvisibility=hidden", "-fvisibility-inlines-hidden", "-DVL_USER_FINISH"}
	// ldFlags link a shared library that binds its own symbols first and exports only sn_* (exportsMap).
	ldFlags = []string{"-shared", "-Wl,-Bsymbolic", "-Wl,--version-script=" + exportsFile}
	// makeFlags set the optimisation of the model's hot code: -O3 measured +28% over Verilator's default -Os.
	makeFlags = []string{"OPT_FAST=-O3"}
)

// coverageMaxWidth is the coverage variant's --coverage-max-width. Verilator gives no toggle points to a signal
// wider than this (default 256), and the per-connection state vectors are far wider (path_sel's per-path
// counters: CONNS x PATHS x 16 bits); 2^24 is above every signal the parameter ranges allow.
const coverageMaxWidth = 1 << 24

// exportsFile is the linker version script written next to the sources; exportsMap is its content.
const (
	exportsFile = "exports.map"
	exportsMap  = "{\n  global: sn_*;\n  local: *;\n};\n"
)

// Variant selects the instrumentation compiled into a model.
type Variant int

// The variants. The zero value is invalid.
const (
	// Plain is the fastest model, without tracing or coverage.
	Plain Variant = iota + 1
	// Trace is compiled with --trace-fst: Model.TraceOpen writes FST waveforms.
	Trace
	// Coverage is compiled with --coverage-line --coverage-toggle (every signal, coverageMaxWidth) and without
	// always-block splitting (flags): Model.WriteCoverage writes a coverage .dat file.
	Coverage
)

// String returns the variant's name.
func (v Variant) String() string {
	switch v {
	case Plain:
		return "plain"
	case Trace:
		return "trace"
	case Coverage:
		return "coverage"
	default:
		return "Variant(" + strconv.Itoa(int(v)) + ")"
	}
}

// Valid reports whether v is one of the defined variants.
func (v Variant) Valid() bool {
	return v == Plain || v == Trace || v == Coverage
}

// flags returns the Verilator flags of the variant.
func (v Variant) flags() []string {
	switch v {
	case Trace:
		return []string{"--trace-fst"}
	case Coverage:
		// -fno-split: Verilator 5.006 splits an always block into independent statement groups and then
		// miscounts the block's line points (once per run instead of once per evaluation, or 0 for an `if`
		// that reads a variable assigned earlier in the block: rtl/nic_transport.v's request-register load and
		// rtl/path_sel.v's quantum clamp showed as never run while their effects were checked in lockstep).
		// TestCoverage checks the count on the probe.
		return []string{"--coverage-line", "--coverage-toggle", "--coverage-max-width", strconv.Itoa(coverageMaxWidth),
			"-fno-split"}
	default:
		return nil
	}
}

// Param is one Verilog parameter override of the top module.
type Param struct {
	// Name is the Verilog parameter name.
	Name string
	// Value is its integer value, passed as -G<Name>=<Value>.
	Value int
}

// Spec says what to build.
type Spec struct {
	// Top is the top module name.
	Top string
	// Sources are the absolute paths of the Verilog files; every file Verilator reads must be listed.
	Sources []string
	// Includes are the absolute paths of the files the sources `include (hashed like sources; the directory of
	// each is searched with -I). Empty for most tops.
	Includes []string
	// Waivers is the absolute path of a Verilator lint waiver (.vlt) file, or "".
	Waivers string
	// Params are the top's parameter overrides, passed in this order.
	Params []Param
	// Variant selects tracing or coverage.
	Variant Variant
	// CacheDir holds the built models, one directory <Top>-<hash16> each (e.g. <repo>/build/models).
	CacheDir string
}

// identRE matches the names the bridge accepts for modules, parameters and ports. Verilator mangles names with a
// double underscore in C++, so they are refused.
var identRE = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_]*$`)

// validIdent reports whether s is a plain identifier the shim can use as is.
func validIdent(s string) bool {
	return identRE.MatchString(s) && !strings.Contains(s, "__")
}

// check validates the spec without touching the file system.
func (s Spec) check() error {
	if !validIdent(s.Top) {
		return fmt.Errorf("top %q is not a plain identifier", s.Top)
	}
	if len(s.Sources) == 0 {
		return fmt.Errorf("top %s: no sources", s.Top)
	}
	for _, src := range s.Sources {
		if !filepath.IsAbs(src) {
			return fmt.Errorf("top %s: source %q is not an absolute path", s.Top, src)
		}
	}
	for _, inc := range s.Includes {
		if !filepath.IsAbs(inc) {
			return fmt.Errorf("top %s: include %q is not an absolute path", s.Top, inc)
		}
	}
	if s.Waivers != "" && !filepath.IsAbs(s.Waivers) {
		return fmt.Errorf("top %s: waiver file %q is not an absolute path", s.Top, s.Waivers)
	}
	for _, p := range s.Params {
		if !validIdent(p.Name) {
			return fmt.Errorf("top %s: parameter name %q is not a plain identifier", s.Top, p.Name)
		}
	}
	if !s.Variant.Valid() {
		return fmt.Errorf("top %s: invalid variant %v", s.Top, s.Variant)
	}
	if s.CacheDir == "" {
		return fmt.Errorf("top %s: no cache directory", s.Top)
	}
	return nil
}

// paramFlags returns the -G flags of the spec's parameters, after the -I flags of its includes.
func (s Spec) paramFlags() []string {
	flags := make([]string, 0, len(s.Params)+len(s.Includes))
	for _, inc := range s.Includes {
		flags = append(flags, "-I"+filepath.Dir(inc))
	}
	for _, p := range s.Params {
		flags = append(flags, "-G"+p.Name+"="+strconv.Itoa(p.Value))
	}
	return flags
}

// verilatorVersion caches the output of `verilator --version` for the process.
var verilatorVersion struct {
	// once runs the command.
	once sync.Once
	// out is its output.
	out []byte
	// err is its error.
	err error
}

// verilatorVersionOutput returns the output of `verilator --version`.
func verilatorVersionOutput() ([]byte, error) {
	verilatorVersion.once.Do(func() {
		out, err := exec.Command("verilator", "--version").Output()
		if err != nil {
			err = fmt.Errorf("verilator --version: %w", err)
		}
		verilatorVersion.out = out
		verilatorVersion.err = err
	})
	return verilatorVersion.out, verilatorVersion.err
}

// Hash returns the hex sha256 of everything that goes into the spec's model: the top, every source file's name
// (its whole path for the coverage variant) and content, the waiver file's content, the parameters, the variant,
// the output of `verilator --version`, the shim template, the generator version and the build flags.
func Hash(spec Spec) (string, error) {
	if err := spec.check(); err != nil {
		return "", err
	}
	version, err := verilatorVersionOutput()
	if err != nil {
		return "", err
	}
	h := sha256.New()
	// field writes a name and a length-prefixed value, so no two different inputs hash the same byte stream.
	field := func(name string, value []byte) {
		fmt.Fprintf(h, "%s %d\n", name, len(value))
		h.Write(value)
	}
	field("generator", []byte(generatorVersion))
	field("template", []byte(shimTemplate))
	field("verilator", version)
	field("top", []byte(spec.Top))
	for _, src := range spec.Sources {
		content, err := os.ReadFile(src)
		if err != nil {
			return "", fmt.Errorf("top %s: %w", spec.Top, err)
		}
		// Only the coverage variant compiles the source paths into the model (its data names them); the others
		// are keyed by file name and content, so another checkout of the same tree (a CI workspace, a Slurm node, a
		// second clone) finds them in a shared cache (SPRAYNIC_CACHE).
		name := filepath.Base(src)
		if spec.Variant == Coverage {
			name = src
		}
		field("source", []byte(name))
		field("content", content)
	}
	for _, inc := range spec.Includes {
		content, err := os.ReadFile(inc)
		if err != nil {
			return "", fmt.Errorf("top %s: %w", spec.Top, err)
		}
		field("include", []byte(filepath.Base(inc)))
		field("content", content)
	}
	if spec.Waivers != "" {
		content, err := os.ReadFile(spec.Waivers)
		if err != nil {
			return "", fmt.Errorf("top %s: %w", spec.Top, err)
		}
		field("waivers", content)
	}
	for _, p := range spec.Params {
		field("param", []byte(p.Name+"="+strconv.Itoa(p.Value)))
	}
	field("variant", []byte(spec.Variant.String()))
	for _, flags := range [][]string{verilatorFlags, spec.Variant.flags(), cxxFlags, ldFlags, makeFlags} {
		field("flags", []byte(strings.Join(flags, "\x00")))
	}
	field("exports", []byte(exportsMap))
	return hex.EncodeToString(h.Sum(nil)), nil
}

// Build returns the path of the spec's model library, building it first if it is not in the cache. A cached library
// is returned without running any build step. Progress and the tools' output go to log (nil for none).
//
// The build happens in a temporary directory in CacheDir that is renamed into place when complete, so concurrent
// builds of the same model (other processes included) never see a half-built library; the first one to finish wins.
func Build(spec Spec, log io.Writer) (string, error) {
	if log == nil {
		log = io.Discard
	}
	hash, err := Hash(spec)
	if err != nil {
		return "", err
	}
	// The build commands run in the temporary directory: every path they get must be absolute.
	if spec.CacheDir, err = filepath.Abs(spec.CacheDir); err != nil {
		return "", fmt.Errorf("top %s: %w", spec.Top, err)
	}
	name := spec.Top + "-" + hash[:16]
	finalDir := filepath.Join(spec.CacheDir, name)
	libPath := filepath.Join(finalDir, libName)
	if _, err := os.Stat(libPath); err == nil {
		return libPath, nil
	}

	if err := os.MkdirAll(spec.CacheDir, 0o755); err != nil {
		return "", fmt.Errorf("top %s: %w", spec.Top, err)
	}
	tmp, err := os.MkdirTemp(spec.CacheDir, ".tmp-"+name+"-")
	if err != nil {
		return "", fmt.Errorf("top %s: %w", spec.Top, err)
	}
	defer os.RemoveAll(tmp)

	start := time.Now()
	fmt.Fprintf(log, "bridge: building %s (%s variant, %s) in %s\n", spec.Top, spec.Variant,
		strings.Join(spec.paramFlags(), " "), tmp)
	ports, err := readPorts(spec, tmp, log)
	if err != nil {
		return "", err
	}
	if err := buildLibrary(spec, ports, tmp, log); err != nil {
		return "", err
	}

	// Stage the result in its own directory and rename that into place: the rename is atomic.
	stage := filepath.Join(tmp, "out")
	if err := os.Mkdir(stage, 0o755); err != nil {
		return "", fmt.Errorf("top %s: %w", spec.Top, err)
	}
	if err := os.Rename(filepath.Join(tmp, "obj", libName), filepath.Join(stage, libName)); err != nil {
		return "", fmt.Errorf("top %s: %w", spec.Top, err)
	}
	if err := os.WriteFile(filepath.Join(stage, "spec.txt"), []byte(describe(spec, hash, ports)), 0o644); err != nil {
		return "", fmt.Errorf("top %s: %w", spec.Top, err)
	}
	if err := os.Rename(stage, finalDir); err != nil {
		// Another build of the same model won the race: use its library.
		if _, statErr := os.Stat(libPath); statErr == nil {
			return libPath, nil
		}
		return "", fmt.Errorf("top %s: %w", spec.Top, err)
	}
	fmt.Fprintf(log, "bridge: built %s in %.1fs\n", libPath, time.Since(start).Seconds())
	return libPath, nil
}

// describe returns the human-readable record of a build stored next to the library.
func describe(spec Spec, hash string, ports []Port) string {
	var b strings.Builder
	fmt.Fprintf(&b, "top %s\nhash %s\nvariant %s\n", spec.Top, hash, spec.Variant)
	for _, p := range spec.Params {
		fmt.Fprintf(&b, "param %s=%d\n", p.Name, p.Value)
	}
	for _, src := range spec.Sources {
		fmt.Fprintf(&b, "source %s\n", src)
	}
	if spec.Waivers != "" {
		fmt.Fprintf(&b, "waivers %s\n", spec.Waivers)
	}
	for _, p := range ports {
		fmt.Fprintf(&b, "port %s %s %d\n", p.Name, p.Dir, p.Width)
	}
	return b.String()
}

// inputFiles returns the waiver file and the sources, in the order Verilator gets them.
func (s Spec) inputFiles() []string {
	var files []string
	if s.Waivers != "" {
		files = append(files, s.Waivers)
	}
	return append(files, s.Sources...)
}

// ReadPorts elaborates spec's top with its parameters (verilator --xml-only, in a temporary directory) and returns
// its ports, clk excluded, in port-list order; nothing is built or cached, so spec's Variant and CacheDir are not
// used. Verilator's messages go to log.
func ReadPorts(spec Spec, log io.Writer) ([]Port, error) {
	tmp, err := os.MkdirTemp("", "spraynic-ports-")
	if err != nil {
		return nil, err
	}
	defer func() { _ = os.RemoveAll(tmp) }()
	spec.Variant, spec.CacheDir = Plain, tmp
	if err := spec.check(); err != nil {
		return nil, err
	}
	return readPorts(spec, tmp, log)
}

// readPorts elaborates the top with its parameters (verilator --xml-only) and returns its ports, clk excluded. It
// fails if Verilator reads a file that is not in the spec, since the hash would not cover it.
func readPorts(spec Spec, tmp string, log io.Writer) ([]Port, error) {
	xmlPath := filepath.Join(tmp, "ports.xml")
	args := []string{"--xml-only", "--xml-output", xmlPath, "--Mdir", filepath.Join(tmp, "xml"),
		"--top-module", spec.Top}
	args = append(args, spec.paramFlags()...)
	args = append(args, spec.inputFiles()...)
	if err := run(spec.Top, tmp, log, "verilator", args...); err != nil {
		return nil, err
	}
	data, err := os.ReadFile(xmlPath)
	if err != nil {
		return nil, fmt.Errorf("top %s: %w", spec.Top, err)
	}
	ports, files, err := parsePorts(data, spec.Top)
	if err != nil {
		return nil, fmt.Errorf("top %s: %w", spec.Top, err)
	}
	known := make(map[string]bool)
	for _, f := range append(spec.inputFiles(), spec.Includes...) {
		known[filepath.Clean(f)] = true
	}
	for _, f := range files {
		if !filepath.IsAbs(f) {
			f = filepath.Join(tmp, f)
		}
		if !known[filepath.Clean(f)] && filepath.Base(f) != "verilated_std.sv" {
			return nil, fmt.Errorf("top %s: verilator reads %s, which is not in the spec's sources "+
				"(the cache hash would miss its changes)", spec.Top, f)
		}
	}
	return ports, nil
}

// shimPort is a port as the shim template sees it.
type shimPort struct {
	// Name is the port name.
	Name string
	// Dir is 0 for an input, 1 for an output (sn_port.dir).
	Dir int
	// Width is the port width in bits.
	Width int
	// Kind is Verilator's storage class: C, S, I (one word), Q (two words) or W (VlWide).
	Kind string
	// Offset is the index of the port's first word in one cycle's input or output words.
	Offset int
	// LastWord is the index of the port's last word.
	LastWord int
	// WordIndexes are 0..LastWord.
	WordIndexes []int
	// Mask is the C++ mask of the port's last word.
	Mask string
}

// shimData is the data of the shim template.
type shimData struct {
	// Generator is generatorVersion.
	Generator string
	// ABIVersion is abiVersion.
	ABIVersion int
	// Top is the top module name.
	Top string
	// Clock is the clock port name.
	Clock string
	// Ports are all ports but the clock, in port-list order.
	Ports []shimPort
	// Ins and Outs are the inputs and the outputs.
	Ins, Outs []shimPort
	// InWords and OutWords are the words of one cycle's inputs and outputs.
	InWords, OutWords int
	// Trace and Coverage select the variant's code.
	Trace, Coverage bool
}

// newShimData lays out the ports for the shim template.
func newShimData(spec Spec, ports []Port) shimData {
	d := shimData{
		Generator:  generatorVersion,
		ABIVersion: abiVersion,
		Top:        spec.Top,
		Clock:      clockPort,
		Trace:      spec.Variant == Trace,
		Coverage:   spec.Variant == Coverage,
	}
	for _, p := range ports {
		sp := shimPort{Name: p.Name, Width: p.Width, LastWord: p.Words() - 1}
		for k := 0; k < p.Words(); k++ {
			sp.WordIndexes = append(sp.WordIndexes, k)
		}
		switch {
		case p.Width <= 8:
			sp.Kind = "C"
		case p.Width <= 16:
			sp.Kind = "S"
		case p.Width <= 32:
			sp.Kind = "I"
		case p.Width <= 64:
			sp.Kind = "Q"
		default:
			sp.Kind = "W"
		}
		top := p.Width - 32*sp.LastWord
		sp.Mask = fmt.Sprintf("0x%xU", uint64(1)<<top-1)
		if p.Dir == In {
			sp.Offset = d.InWords
			d.InWords += p.Words()
			d.Ins = append(d.Ins, sp)
		} else {
			sp.Dir = 1
			sp.Offset = d.OutWords
			d.OutWords += p.Words()
			d.Outs = append(d.Outs, sp)
		}
		d.Ports = append(d.Ports, sp)
	}
	return d
}

// renderShim returns the shim's C++ source.
func renderShim(spec Spec, ports []Port) ([]byte, error) {
	tmpl, err := template.New("shim").Funcs(template.FuncMap{
		"add": func(a, b int) int { return a + b },
	}).Option("missingkey=error").Parse(shimTemplate)
	if err != nil {
		return nil, fmt.Errorf("shim template: %w", err)
	}
	var b bytes.Buffer
	if err := tmpl.Execute(&b, newShimData(spec, ports)); err != nil {
		return nil, fmt.Errorf("shim template: %w", err)
	}
	return b.Bytes(), nil
}

// buildLibrary generates the shim and verilates, compiles and links the model into tmp/obj/model.so.
func buildLibrary(spec Spec, ports []Port, tmp string, log io.Writer) error {
	shim, err := renderShim(spec, ports)
	if err != nil {
		return fmt.Errorf("top %s: %w", spec.Top, err)
	}
	shimPath := filepath.Join(tmp, "sn_shim.cpp")
	if err := os.WriteFile(shimPath, shim, 0o644); err != nil {
		return fmt.Errorf("top %s: %w", spec.Top, err)
	}
	if err := os.WriteFile(filepath.Join(tmp, exportsFile), []byte(exportsMap), 0o644); err != nil {
		return fmt.Errorf("top %s: %w", spec.Top, err)
	}

	args := append([]string{}, verilatorFlags...)
	args = append(args, spec.Variant.flags()...)
	args = append(args, "-j", strconv.Itoa(runtime.NumCPU()), "--Mdir", filepath.Join(tmp, "obj"), "-o", libName,
		"--top-module", spec.Top)
	for _, f := range cxxFlags {
		args = append(args, "-CFLAGS", f)
	}
	for _, f := range ldFlags {
		// The version script is found from the build directory, tmp/obj.
		args = append(args, "-LDFLAGS", strings.ReplaceAll(f, exportsFile, filepath.Join(tmp, exportsFile)))
	}
	args = append(args, "-MAKEFLAGS", strings.Join(makeFlags, " "))
	args = append(args, spec.paramFlags()...)
	args = append(args, spec.inputFiles()...)
	args = append(args, shimPath)
	return run(spec.Top, tmp, log, "verilator", args...)
}

// maxErrOutput bounds the tool output quoted in an error.
const maxErrOutput = 8 << 10

// buildEnvDrop are the environment variables that make would add to the compile and link flags of the build. They
// are not in the hash, so the build runs without them.
var buildEnvDrop = []string{
	"CXXFLAGS", "CPPFLAGS", "LDFLAGS", "LDLIBS", "LOADLIBES", "LIBS",
	"OPT", "OPT_FAST", "OPT_SLOW", "OPT_GLOBAL", "USER_CPPFLAGS", "USER_LDFLAGS", "USER_LDLIBS",
}

// buildEnv returns the process environment without buildEnvDrop.
func buildEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		drop := false
		for _, d := range buildEnvDrop {
			drop = drop || name == d
		}
		if !drop {
			env = append(env, kv)
		}
	}
	return env
}

// lockedWriter serialises the writes of a command's standard output and standard error to one log.
type lockedWriter struct {
	// mu guards w.
	mu sync.Mutex
	// w is the log.
	w io.Writer
}

// Write writes p to the log.
func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// run runs one build command in dir. Its output goes to log; on failure the error names the top and the command
// and quotes the start of the command's standard error.
func run(top, dir string, log io.Writer, name string, args ...string) error {
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = buildEnv()
	var stderr bytes.Buffer
	locked := &lockedWriter{w: log}
	cmd.Stdout = locked
	cmd.Stderr = io.MultiWriter(locked, &stderr)
	fmt.Fprintf(log, "+ %s %s\n", name, strings.Join(args, " "))
	if err := cmd.Run(); err != nil {
		msg := stderr.Bytes()
		if len(msg) > maxErrOutput {
			msg = append(msg[:maxErrOutput:maxErrOutput], "\n[...]"...)
		}
		return fmt.Errorf("top %s: %s %s: %w\n%s", top, name, strings.Join(args, " "), err, bytes.TrimSpace(msg))
	}
	return nil
}
