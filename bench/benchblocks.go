package bench

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"time"
	"unsafe"

	"github.com/spraynic/spraynic/config"
	"github.com/spraynic/spraynic/cosim"
	"github.com/spraynic/spraynic/cosim/bridge"
	"github.com/spraynic/spraynic/golden/pathsel"
	"github.com/spraynic/spraynic/golden/retx"
	"github.com/spraynic/spraynic/golden/rxreorder"
	"github.com/spraynic/spraynic/regress"
	"github.com/spraynic/spraynic/stimulus/pathtraffic"
	"github.com/spraynic/spraynic/stimulus/retxtraffic"
	"github.com/spraynic/spraynic/stimulus/rxtraffic"
	"github.com/spraynic/spraynic/tops"
)

// BlockBench is the speed of one block, every mode on the same RTL, config and stimulus, measured in one run.
type BlockBench struct {
	// Block, Test, Config, Seed and Cycles say what ran.
	Block  string `json:"block"`
	Test   string `json:"test"`
	Config string `json:"config"`
	Seed   uint64 `json:"seed"`
	Cycles int64  `json:"cycles"`
	// IcarusCycles is the prefix of the same recording Icarus runs (it is ~1000x slower).
	IcarusCycles int64 `json:"icarus_cycles"`
	// Raw is the Verilator model stepped from its C++ loop over the recorded inputs, cycles/s (0: not measured).
	Raw float64 `json:"verilator_raw_cps"`
	// Lockstep is Go lockstep co-simulation (RTL + golden + scoreboard, 1024 cycles per call), cycles/s.
	Lockstep float64 `json:"lockstep_cps"`
	// Icarus is iverilog's vvp running the same RTL on the recorded inputs, cycles/s (0: not measured).
	Icarus float64 `json:"icarus_cps"`
	// Golden is the golden model with the scoreboard alone, cycles/s.
	Golden float64 `json:"golden_cps"`
	// Recorded, Reps and E2EGolden are set for the nic_transport top only (bench/benchtop.go): its inputs come
	// from a golden end-to-end simulation of Recorded cycles, timed alone as E2EGolden (cycles/s: both golden
	// endpoints, network, hosts, transfer scoreboard); every mode then replays the recording (capped at the
	// requested cycles) Reps times, so Cycles = min(Recorded, requested) x Reps.
	Recorded  int64   `json:"recorded_cycles,omitempty"`
	Reps      int64   `json:"reps,omitempty"`
	E2EGolden float64 `json:"e2e_golden_cps,omitempty"`
	// Note says why a mode was not measured.
	Note string `json:"note,omitempty"`
}

// LockstepVsRaw is Lockstep/Raw (0 when Raw was not measured).
func (b BlockBench) LockstepVsRaw() float64 { return ratio(b.Lockstep, b.Raw) }

// LockstepVsIcarus is Lockstep/Icarus (0 when Icarus was not measured).
func (b BlockBench) LockstepVsIcarus() float64 { return ratio(b.Lockstep, b.Icarus) }

func ratio(a, b float64) float64 {
	if b == 0 {
		return 0
	}
	return a / b
}

// BenchTests is the test whose stimulus each block's benchmark uses; a block not listed uses its first test.
// The nic_transport top's (a nic_<scenario>_a/_b test) is replayed from its recording (bench/benchtop.go).
var BenchTests = map[string]string{"rx_reorder": "rx_random", "path_sel": "path_random", "retx": "retx_random",
	"nic_transport": "nic_e2e_a"}

// recorder records a test's golden-driven inputs (as lockstep drives them), packed in the model's input layout.
type recorder struct {
	// in is the golden model's input struct type.
	in reflect.Type
	// record returns the packed inputs of r.Cycles cycles.
	record func(r cosim.Request, inL *cosim.Layout) ([]uint32, error)
}

// recorders know, per block, how to build the golden model and stimulus of a test.
var recorders = map[string]recorder{
	"rx_reorder": {in: typeOf[rxreorder.In](), record: func(r cosim.Request, inL *cosim.Layout) ([]uint32, error) {
		prof, err := rxtraffic.Lookup(strings.TrimPrefix(r.Test, "rx_"))
		if err != nil {
			return nil, err
		}
		g, err := rxreorder.New(r.Config)
		if err != nil {
			return nil, err
		}
		d, err := rxtraffic.New(r.Config, prof, r.Seed, r.Cycles)
		if err != nil {
			return nil, err
		}
		return record[rxreorder.In, rxreorder.Out](g, d, r.Cycles, inL), nil
	}},
	"path_sel": {in: typeOf[pathsel.In](), record: func(r cosim.Request, inL *cosim.Layout) ([]uint32, error) {
		prof, err := pathtraffic.Lookup(strings.TrimPrefix(r.Test, "path_"))
		if err != nil {
			return nil, err
		}
		g, err := pathsel.New(r.Config)
		if err != nil {
			return nil, err
		}
		return record[pathsel.In, pathsel.Out](g, pathtraffic.New(r.Config, prof, r.Seed, r.Cycles), r.Cycles, inL), nil
	}},
	"retx": {in: typeOf[retx.In](), record: func(r cosim.Request, inL *cosim.Layout) ([]uint32, error) {
		prof, err := retxtraffic.Lookup(strings.TrimPrefix(r.Test, "retx_"))
		if err != nil {
			return nil, err
		}
		g, err := retx.New(r.Config)
		if err != nil {
			return nil, err
		}
		drv, err := retxtraffic.New(r.Config, prof, r.Seed, r.Cycles)
		if err != nil {
			return nil, err
		}
		return record[retx.In, retx.Out](g, drv, r.Cycles, inL), nil
	}},
}

func record[I, O any](g cosim.Golden[I, O], d cosim.Driver[I, O], cycles int64, inL *cosim.Layout) []uint32 {
	pattern := make([]uint32, cycles*int64(inL.Words()))
	var in I
	var out O
	for c := int64(0); c < cycles; c++ {
		d.Drive(c, &in)
		g.Step(&in, &out)
		d.Observe(c, &in, &out)
		inL.Pack(unsafe.Pointer(&in), pattern[c*int64(inL.Words()):])
	}
	return pattern
}

// BenchBlocks measures every block (in the order of Tests()) under cfg: the raw Verilator loop, lockstep, Icarus
// Verilog and the golden model alone, each for cycles cycles on the same recorded stimulus. work is a scratch
// directory for the Icarus testbench. Wall-clock time is used here only, to measure. The nic_transport top is
// measured on the recorded inputs of one endpoint instead (benchTop): cycles caps each replay.
//
// icarusCycles (0: cycles) limits Icarus to the first icarusCycles of the recording: it runs ~1000x slower.
func BenchBlocks(root string, cfg config.Config, seed uint64, cycles, icarusCycles int64, work string,
	log io.Writer) ([]BlockBench, error) {
	var blocks []string
	first := map[string]string{}
	for _, t := range cosim.Tests() {
		if _, ok := first[t.Block]; !ok {
			first[t.Block] = t.Name
			blocks = append(blocks, t.Block)
		}
	}
	var out []BlockBench
	for _, block := range blocks {
		test := BenchTests[block]
		if test == "" {
			test = first[block]
		}
		if icarusCycles <= 0 || icarusCycles > cycles {
			icarusCycles = cycles
		}
		r := cosim.Request{Test: test, Config: cfg, Seed: seed, Cycles: cycles, Root: root, Log: log}
		var b BlockBench
		var err error
		if block == "nic_transport" {
			b, err = benchTop(r, work, icarusCycles)
		} else {
			b, err = benchBlock(r, block, work, icarusCycles)
		}
		if err != nil {
			return nil, fmt.Errorf("bench %s: %w", block, err)
		}
		out = append(out, b)
	}
	return out, nil
}

func timed(cycles int64, f func() error) (float64, error) {
	start := time.Now()
	if err := f(); err != nil {
		return 0, err
	}
	return float64(cycles) / time.Since(start).Seconds(), nil
}

func benchBlock(r cosim.Request, block, work string, icarusCycles int64) (BlockBench, error) {
	b := BlockBench{Block: block, Test: r.Test, Config: r.Config.Name, Seed: r.Seed,
		Cycles: r.Cycles, IcarusCycles: icarusCycles}
	lib, err := cosim.BuildTop(r.Root, block, r.Config, bridge.Plain, r.Log)
	if err != nil {
		return b, err
	}
	// (2) lockstep, exactly as a regression runs it; and the golden model with the scoreboard alone.
	if b.Lockstep, err = timed(r.Cycles, func() error { _, err := cosim.Run(r); return err }); err != nil {
		return b, err
	}
	g := r
	g.Golden = true
	if b.Golden, err = timed(r.Cycles, func() error { _, err := cosim.Run(g); return err }); err != nil {
		return b, err
	}
	rec, ok := recorders[block]
	if !ok {
		b.Note = "no stimulus recorder for this block (bench/benchblocks.go): raw and icarus not measured"
		return b, nil
	}
	dut, err := bridge.Open(lib)
	if err != nil {
		return b, err
	}
	defer dut.Close()
	inL, err := cosim.NewLayout(rec.in, dut.Ports(), bridge.In, func(string) string { return "" })
	if err != nil {
		return b, err
	}
	pattern, err := rec.record(r, inL)
	if err != nil {
		return b, err
	}
	// (1) the C++ loop over the recorded inputs.
	if b.Raw, err = timed(r.Cycles, func() error { return dut.RunRaw(r.Cycles, pattern) }); err != nil {
		return b, err
	}
	// (3) Icarus on the same inputs.
	b.Icarus, b.Note, err = benchIcarus(r, block, dut.Ports(), inL.Words(), pattern, icarusCycles, work)
	return b, err
}

// benchIcarus runs the first icarusCycles cycles of pattern (words per cycle) on block under Icarus Verilog and
// returns cycles/s, or a note when iverilog is not installed.
func benchIcarus(r cosim.Request, block string, ports []bridge.Port, words int, pattern []uint32, icarusCycles int64,
	work string) (float64, string, error) {
	if _, err := exec.LookPath("iverilog"); err != nil {
		return 0, "iverilog not on PATH: icarus not measured", nil
	}
	dir := filepath.Join(work, block+"-"+r.Config.Name)
	ir := r
	ir.Cycles = icarusCycles
	vvp, err := buildIcarus(ir, block, ports, words, pattern[:icarusCycles*int64(words)], dir)
	if err != nil {
		return 0, "", err
	}
	cps, err := timed(icarusCycles, func() error {
		cmd := exec.Command("vvp", "-n", vvp)
		cmd.Dir = dir
		out, err := cmd.CombinedOutput()
		if err != nil {
			return fmt.Errorf("vvp %s: %w: %s", vvp, err, out)
		}
		if !strings.Contains(string(out), "spraynic-bench-done") {
			return fmt.Errorf("vvp %s did not finish its cycles: %s", vvp, out)
		}
		return nil
	})
	return cps, "", err
}

// buildIcarus writes the recorded inputs (one 32-bit hex word per line) and a Verilog-2005 testbench that reads
// them with $readmemh and applies one cycle of inputs per clock, as the Verilator shim does (inputs, clk low,
// clk high). It compiles with iverilog and returns the vvp file.
func buildIcarus(r cosim.Request, top string, ports []bridge.Port, words int, pattern []uint32, dir string) (string,
	error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	if err := writeHex(filepath.Join(dir, "stim.hex"), pattern); err != nil {
		return "", err
	}
	params, err := tops.Params(r.Root, top, r.Config)
	if err != nil {
		return "", err
	}
	tb, err := icarusBench(r, top, params, ports, words, len(pattern))
	if err != nil {
		return "", err
	}
	tbFile := filepath.Join(dir, "tb.v")
	if err := os.WriteFile(tbFile, []byte(tb), 0o644); err != nil {
		return "", err
	}
	m, err := tops.LoadManifest(r.Root)
	if err != nil {
		return "", err
	}
	src, err := m.Sources(r.Root, top)
	if err != nil {
		return "", err
	}
	vvp := filepath.Join(dir, "tb.vvp")
	args := append([]string{"-g2005", "-o", vvp, "-s", "spraynic_bench_tb", tbFile}, src...)
	if out, err := exec.Command("iverilog", args...).CombinedOutput(); err != nil {
		return "", fmt.Errorf("iverilog %s: %w: %s", strings.Join(args, " "), err, out)
	}
	return vvp, nil
}

// writeHex writes pattern to file, one 32-bit word per line in hex ($readmemh).
func writeHex(file string, pattern []uint32) error {
	f, err := os.Create(file)
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(f, 1<<20)
	for _, v := range pattern {
		fmt.Fprintf(w, "%08x\n", v)
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// icarusBench is the Verilog testbench that drives top's input ports from stim.hex (words 32-bit words per
// cycle, n words in all) for r.Cycles cycles.
func icarusBench(r cosim.Request, top string, params []config.Param, ports []bridge.Port, words, n int) (string,
	error) {
	var tb strings.Builder
	fmt.Fprintf(&tb, "`timescale 1ns / 1ps\n// generated by spraynic bench: %s on %s, config %s, %d cycles\n"+
		"module spraynic_bench_tb;\n", r.Test, top, r.Config.Name, r.Cycles)
	fmt.Fprintf(&tb, "reg clk = 1'b0;\nreg [31:0] stim [0:%d];\ninteger c;\n", n-1)
	conns := []string{".clk(clk)"}
	maxw := 32
	for _, p := range ports {
		kind := "reg"
		if p.Dir == bridge.Out {
			kind = "wire"
		}
		fmt.Fprintf(&tb, "%s [%d:0] p_%s;\n", kind, p.Width-1, p.Name)
		conns = append(conns, fmt.Sprintf(".%s(p_%s)", p.Name, p.Name))
		maxw = max(maxw, 32*p.Words())
	}
	fmt.Fprintf(&tb, "reg [%d:0] t;\n", maxw-1)
	var ps []string
	for _, p := range params {
		ps = append(ps, fmt.Sprintf(".%s(%d)", p.Name, p.Value))
	}
	pstr := ""
	if len(ps) > 0 {
		pstr = " #(" + strings.Join(ps, ", ") + ")"
	}
	fmt.Fprintf(&tb, "%s%s dut (%s);\n", top, pstr, strings.Join(conns, ", "))
	fmt.Fprintf(&tb, "initial begin\n  $readmemh(\"stim.hex\", stim);\n"+
		"  for (c = 0; c < %d; c = c + 1) begin\n", r.Cycles)
	word := 0
	for _, p := range ports {
		if p.Dir != bridge.In {
			continue
		}
		var parts []string
		for k := p.Words() - 1; k >= 0; k-- {
			parts = append(parts, fmt.Sprintf("stim[c*%d+%d]", words, word+k))
		}
		fmt.Fprintf(&tb, "    t = {%s};\n    p_%s = t[%d:0];\n", strings.Join(parts, ", "), p.Name, p.Width-1)
		word += p.Words()
	}
	if word != words {
		return "", fmt.Errorf("icarus testbench: ports take %d words, the layout %d", word, words)
	}
	tb.WriteString("    #1 clk = 1'b1;\n    #1 clk = 1'b0;\n  end\n  $display(\"spraynic-bench-done %0d\", c);\n" +
		"  $finish;\nend\nendmodule\n")
	return tb.String(), nil
}

// SeedsPerMinute runs suite s restricted to config cfgName (seeds from 1) on jobs workers and returns the
// finished runs (test x seed) per wall-clock minute, and the number of runs.
func SeedsPerMinute(root string, s regress.Suite, cfgName string, jobs int) (float64, int, error) {
	s.Configs = []string{cfgName}
	reqs, err := s.Expand(root, 1)
	if err != nil {
		return 0, 0, err
	}
	if err := regress.BuildModels(reqs); err != nil {
		return 0, 0, err
	}
	start := time.Now()
	outs, err := regress.RegressWith(reqs, regress.RegressOptions{Jobs: jobs})
	if err != nil {
		return 0, 0, err
	}
	for _, o := range outs {
		if o.Verdict() != regress.StatusPass {
			return 0, 0, fmt.Errorf("throughput run %s failed: %v", o.Req.Repro(), o.Err)
		}
	}
	return float64(len(outs)) / time.Since(start).Minutes(), len(outs), nil
}
