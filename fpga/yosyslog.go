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
	readPortRe = regexp.MustCompile("^Checking read port (?:address )?`\\\\?([^']+)'\\[(\\d+)\\] in module `\\\\?([^']+)': (.*)$")
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
	{"Resizing cell port", "port-width"},
	{"multiple conflicting drivers", "multiple-drivers"},
	{"is used but has no driver", "undriven"},
	{"found logic loop", "logic-loop"},
	{"Replacing memory", "memory-as-registers"},
	{"is implicitly declared", "implicit-net"},
}

// ParseYosysLog reads a yosys log (yosys -l). It returns the memories with their mapping, the non-fatal warnings
// and the problems: latches inferred, warnings in fatalWarnings, problems found by the check pass, and memories
// with a registered read (block RAM style) that were not mapped to block RAM.
func ParseYosysLog(data []byte) YosysLog {
	var out YosysLog
	// ports[memory][read port] is true once memory_dff merged a register into that port (it may run twice).
	ports := map[string]map[string]bool{}
	seen := map[string]bool{}
	mapping := false
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		line := strings.TrimRight(sc.Text(), "\r")
		if m := versionRe.FindStringSubmatch(line); m != nil && out.Version == "" {
			out.Version = m[1]
		}
		if line == SynthMarker {
			mapping = true
			continue
		}
		if m := latchRe.FindStringSubmatch(line); m != nil {
			out.Problems = append(out.Problems, Problem{Rule: "latch", Detail: "latch inferred for " + cleanName(m[1])})
			continue
		}
		if m := checkRe.FindStringSubmatch(line); m != nil && m[1] != "0" {
			out.Problems = append(out.Problems, Problem{Rule: "check",
				Detail: fmt.Sprintf("yosys check found %s problem(s) (the warnings above it in the log)", m[1])})
			continue
		}
		if m := readPortRe.FindStringSubmatch(line); m != nil {
			key := memKey(m[3], m[1])
			if ports[key] == nil {
				ports[key] = map[string]bool{}
			}
			ports[key][m[2]] = ports[key][m[2]] || strings.HasPrefix(m[4], "merging output FF") ||
				strings.HasPrefix(m[4], "merged address FF")
			continue
		}
		if m := libmapRe.FindStringSubmatch(line); m != nil {
			out.Memories = append(out.Memories, Memory{Name: m[1], Mapping: cellMapping(m[2]), Cell: m[2]})
			continue
		}
		if m := libmapFFRe.FindStringSubmatch(line); m != nil {
			out.Memories = append(out.Memories, Memory{Name: m[1], Mapping: Registers})
			continue
		}
		if strings.HasPrefix(line, "Warning: ") {
			w := strings.TrimPrefix(line, "Warning: ")
			if mapping && strings.HasPrefix(w, "Resizing cell port") {
				out.LibraryResizes++
				continue
			}
			if seen[w] {
				continue
			}
			seen[w] = true
			fatal := false
			for _, f := range fatalWarnings {
				if strings.Contains(w, f.substr) {
					out.Problems = append(out.Problems, Problem{Rule: f.rule, Detail: w})
					fatal = true
					break
				}
			}
			if !fatal {
				out.Warnings = append(out.Warnings, w)
			}
		}
	}
	for i := range out.Memories {
		mem := &out.Memories[i]
		mem.SyncRead = len(ports[mem.Name]) > 0
		for _, registered := range ports[mem.Name] {
			mem.SyncRead = mem.SyncRead && registered
		}
		mem.Name = shortMemName(mem.Name)
		if mem.SyncRead && mem.Mapping != BlockRAM {
			out.Problems = append(out.Problems, Problem{Rule: "memory-not-bram",
				Detail: fmt.Sprintf("memory %s has a registered read (block RAM style) but yosys mapped it to %s", mem.Name, mem.Mapping)})
		}
	}
	sort.SliceStable(out.Memories, func(i, j int) bool { return out.Memories[i].Name < out.Memories[j].Name })
	return out
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
