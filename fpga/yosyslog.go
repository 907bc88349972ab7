package fpga

import (
	"bufio"
	"bytes"
	"fmt"
	"regexp"
	"sort"
	"strings"
)

// Mapping is where yosys put one memory.
type Mapping int

// The mappings. The zero value is invalid.
const (
	// BlockRAM is a block RAM primitive (iCE40 EBR, Xilinx RAMB/URAM, ECP5 DP16KD, Gowin BSRAM).
	BlockRAM Mapping = iota + 1
	// LUTRAM is distributed RAM in LUTs.
	LUTRAM
	// Registers is flip-flops and multiplexers (memory_map).
	Registers
)

// String names the mapping as the reports do.
func (m Mapping) String() string {
	switch m {
	case BlockRAM:
		return "block RAM"
	case LUTRAM:
		return "LUTRAM"
	case Registers:
		return "registers"
	default:
		return fmt.Sprintf("Mapping(%d)", int(m))
	}
}

// MarshalText writes the mapping's name into JSON reports.
func (m Mapping) MarshalText() ([]byte, error) { return []byte(m.String()), nil }

// UnmarshalText reads a mapping's name back from a report.
func (m *Mapping) UnmarshalText(b []byte) error {
	for _, c := range []Mapping{BlockRAM, LUTRAM, Registers} {
		if c.String() == string(b) {
			*m = c
			return nil
		}
	}
	return fmt.Errorf("unknown memory mapping %q (allowed: block RAM, LUTRAM, registers)", b)
}

// Memory is one memory of the design as yosys saw and mapped it.
type Memory struct {
	// Name is the memory's hierarchical name below the top (e.g. path_ram_inst.mem).
	Name string `json:"name"`
	// SyncRead is true when every read port has its output register merged in (registered read, the block RAM
	// style of rtl/ram_sdp.v); such a memory is expected in block RAM.
	SyncRead bool `json:"sync_read"`
	// Mapping is where memory_libmap put it.
	Mapping Mapping `json:"mapping"`
	// Cell is the yosys mapping cell ($__ICE40_RAM4K_, ...), empty for registers.
	Cell string `json:"cell,omitempty"`
}

// Problem is a finding in a tool log that fails the flow.
type Problem struct {
	// Rule names the check ("latch", "port-width", "memory-not-bram", ...).
	Rule string
	// Detail is the log line or the explanation.
	Detail string
}

// String renders the problem for an error message.
func (p Problem) String() string { return p.Rule + ": " + p.Detail }

// YosysLog is what the flow reads from a yosys log.
type YosysLog struct {
	// Memories are the memories in the order memory_libmap mapped them.
	Memories []Memory
	// Warnings are the yosys warnings that do not fail the flow (ABC's own notes excluded).
	Warnings []string
	// Problems are the findings that fail the flow.
	Problems []Problem
	// Version is yosys's version line, when the log has it.
	Version string
	// LibraryResizes counts the port-resizing warnings after SynthMarker (yosys library cells, not the design).
	LibraryResizes int
}

var (
	// latchRe is proc_dlatch's line for a real latch ("No latch inferred ..." lines do not match: anchored).
	latchRe = regexp.MustCompile("^Latch inferred for signal `([^']+)'")
	// readPortRe is memory_dff's verdict on one read port.
	readPortRe = regexp.MustCompile("^Checking read port (?:address )?`\\\\?([^']+)'\\[(\\d+)\\] " +
		"in module `\\\\?([^']+)': (.*)$")
	// libmapRe is memory_libmap's choice for one memory.
	libmapRe = regexp.MustCompile(`^mapping memory (\S+) via (\S+)$`)
	// libmapFFRe is memory_libmap falling back to flip-flops.
	libmapFFRe = regexp.MustCompile(`^using FF mapping for memory (\S+)$`)
	// checkRe is the summary of yosys's check pass.
	checkRe = regexp.MustCompile(`^Found and reported (\d+) problems\.$`)
	// versionRe is the banner line.
	versionRe = regexp.MustCompile(`^\s*(Yosys \d+\.\d+\S* \(git sha1 [0-9a-f]+[^)]*\))`)
)

// SynthMarker is the line the flow's yosys scripts log (`log ...`) between reading the design and technology
// mapping. Port resizing after it is yosys's own library cells being fitted (synth_xilinx warns about every
// RAMB36E2 it maps), not the design: only resizing before it fails the flow. A log without the marker is all
// design.
const SynthMarker = "spraynic: technology mapping starts"

// fatalWarnings are yosys warning texts that signal real trouble, with what they mean. Width truncation inside
// assignments does not reach yosys's warnings; Verilator's WIDTH lint (run first) catches it.
var fatalWarnings = []struct {
	// substr is matched in the warning text.
	substr string
	// rule names the problem.
	rule string
}{
	{substr: "Resizing cell port", rule: "port-width"},
	{substr: "multiple conflicting drivers", rule: "multiple-drivers"},
	{substr: "is used but has no driver", rule: "undriven"},
	{substr: "found logic loop", rule: "logic-loop"},
	{substr: "Replacing memory", rule: "memory-as-registers"},
	{substr: "is implicitly declared", rule: "implicit-net"},
}

// ParseYosysLog reads a yosys log (yosys -l). It returns the memories with their mapping, the non-fatal warnings
// and the problems: latches inferred, warnings in fatalWarnings, problems found by the check pass, and memories
// with a registered read (block RAM style) that were not mapped to block RAM.
func ParseYosysLog(data []byte) YosysLog {
	p := yosysLogParser{ports: map[string]map[string]bool{}, outFF: map[string]bool{}, seen: map[string]bool{}}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		p.line(strings.TrimRight(sc.Text(), "\r"))
	}
	p.checkMemories()
	sort.SliceStable(p.out.Memories, func(i, j int) bool { return p.out.Memories[i].Name < p.out.Memories[j].Name })
	return p.out
}

// yosysLogParser is the state of ParseYosysLog.
type yosysLogParser struct {
	// out is the result so far.
	out YosysLog
	// ports[memory][read port] is true once memory_dff merged a register into that port (it may run twice).
	ports map[string]map[string]bool
	// outFF[memory] is true once memory_dff merged an output register into one of its read ports.
	outFF map[string]bool
	// seen holds the warnings met so far (each is reported once).
	seen map[string]bool
	// mapping is set after SynthMarker: technology mapping has started.
	mapping bool
}

// line reads one line of the log.
func (p *yosysLogParser) line(line string) {
	if m := versionRe.FindStringSubmatch(line); m != nil && p.out.Version == "" {
		p.out.Version = m[1]
	}
	if line == SynthMarker {
		p.mapping = true
		return
	}
	if m := latchRe.FindStringSubmatch(line); m != nil {
		p.out.Problems = append(p.out.Problems, Problem{Rule: "latch", Detail: "latch inferred for " + cleanName(m[1])})
		return
	}
	if m := checkRe.FindStringSubmatch(line); m != nil && m[1] != "0" {
		p.out.Problems = append(p.out.Problems, Problem{Rule: "check",
			Detail: fmt.Sprintf("yosys check found %s problem(s) (the warnings above it in the log)", m[1])})
		return
	}
	if m := readPortRe.FindStringSubmatch(line); m != nil {
		key := memKey(m[3], m[1])
		if p.ports[key] == nil {
			p.ports[key] = map[string]bool{}
		}
		out := strings.HasPrefix(m[4], "merging output FF")
		p.ports[key][m[2]] = p.ports[key][m[2]] || out || strings.HasPrefix(m[4], "merged address FF")
		p.outFF[key] = p.outFF[key] || out
		return
	}
	if m := libmapRe.FindStringSubmatch(line); m != nil {
		p.out.Memories = append(p.out.Memories, Memory{Name: m[1], Mapping: cellMapping(m[2]), Cell: m[2]})
		return
	}
	if m := libmapFFRe.FindStringSubmatch(line); m != nil {
		p.out.Memories = append(p.out.Memories, Memory{Name: m[1], Mapping: Registers})
		return
	}
	if w, ok := strings.CutPrefix(line, "Warning: "); ok {
		p.warning(w)
	}
}

// warning sorts a yosys warning w: a library port resize (after SynthMarker), a problem (fatalWarnings) or a
// plain warning; a repeated warning is ignored.
func (p *yosysLogParser) warning(w string) {
	if p.mapping && strings.HasPrefix(w, "Resizing cell port") {
		p.out.LibraryResizes++
		return
	}
	if p.seen[w] {
		return
	}
	p.seen[w] = true
	for _, f := range fatalWarnings {
		if strings.Contains(w, f.substr) {
			p.out.Problems = append(p.out.Problems, Problem{Rule: f.rule, Detail: w})
			return
		}
	}
	p.out.Warnings = append(p.out.Warnings, w)
}

// checkMemories sets each memory's SyncRead (every read port registered: its output or its address register
// merged), shortens its name, and reports a registered-read memory with a merged output register (the style of
// ram_sdp) not mapped to block RAM as a problem. A read at a registered address alone (a small FIFO read at its
// pointer) may go to LUTRAM.
func (p *yosysLogParser) checkMemories() {
	for i := range p.out.Memories {
		mem := &p.out.Memories[i]
		mem.SyncRead = len(p.ports[mem.Name]) > 0
		for _, registered := range p.ports[mem.Name] {
			mem.SyncRead = mem.SyncRead && registered
		}
		outFF := p.outFF[mem.Name]
		mem.Name = shortMemName(mem.Name)
		if mem.SyncRead && outFF && mem.Mapping != BlockRAM {
			p.out.Problems = append(p.out.Problems, Problem{Rule: "memory-not-bram",
				Detail: fmt.Sprintf("memory %s has a registered read (block RAM style) but yosys mapped it to %s",
					mem.Name, mem.Mapping)})
		}
	}
}

// memKey is the name memory_libmap prints for memory mem of module mod.
func memKey(mod, mem string) string { return cleanName(mod) + "." + cleanName(mem) }

// cleanName drops RTLIL's leading backslashes from each part of a name.
func cleanName(s string) string {
	return strings.ReplaceAll(strings.TrimPrefix(s, `\`), `.\`, ".")
}

// shortMemName drops the module part of a memory_libmap name (module.mem or $paramod...\module.inst.mem).
func shortMemName(s string) string {
	if i := strings.LastIndex(s, `\`); i >= 0 {
		s = s[i+1:]
	}
	if i := strings.Index(s, "."); i >= 0 {
		return s[i+1:]
	}
	return s
}

// cellMapping classifies a memory_libmap cell name.
func cellMapping(cell string) Mapping {
	if strings.Contains(cell, "LUTRAM") || strings.Contains(cell, "DPR16X4") {
		return LUTRAM
	}
	return BlockRAM
}
