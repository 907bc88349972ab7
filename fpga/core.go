package fpga

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/spraynic/spraynic/config"
	"github.com/spraynic/spraynic/tops"
)

// CoreFile is the FuseSoC core description at the repository root.
const CoreFile = "spraynic.core"

// CoreTop is one top as the core file lists it.
type CoreTop struct {
	// Top is the top with its files; its Params are the default preset's.
	Top Top
	// Boards maps a board name to the top's parameters under the board's preset.
	Boards map[string][]config.Param
}

// Core renders the FuseSoC CAPI2 core file for the tops: one fileset per top with the manifest's files (paths
// relative to root), the lint waivers, every parameter with its default-preset value, and per top a lint target
// (Verilator -Wall) and one synthesis target per board with the board's preset values. The Makefile stays the
// source of truth; the file is generated (`make fpga-baseline` rewrites it, `make fpga-check` fails when stale).
func Core(root string, tops []CoreTop) (string, error) {
	var b strings.Builder
	w := func(format string, a ...any) { fmt.Fprintf(&b, format, a...) }
	coreHeader(w)
	if err := coreFilesets(w, root, tops); err != nil {
		return "", err
	}
	coreParameters(w, tops)
	w("targets:\n  default:\n    filesets:\n")
	for _, t := range tops {
		w("      - rtl_%s\n", t.Top.Name)
	}
	for _, t := range tops {
		coreTargets(w, t)
	}
	return b.String(), nil
}

// printfFunc writes formatted text to the file being rendered.
type printfFunc func(format string, a ...any)

// coreHeader writes the core file's header: what it is, how it is generated, its name.
func coreHeader(w printfFunc) {
	w("CAPI=2:\n")
	w("# FuseSoC core for spraynic, generated from rtl/manifest.json and config/presets.json by " +
		"`make fpga-baseline`\n")
	w("# (spraynic fpga-baseline); `make fpga-check` fails when it is stale. Do not edit by hand.\n")
	w("# The Makefile is the source of truth for lint and synthesis (make lint, make synth BOARD=...): " +
		"these targets\n")
	w("# are a convenience for FuseSoC users and run the same tools with the same files and parameters, " +
		"without the\n")
	w("# checks, reports and baseline of `make synth`.\n")
	w("name: spraynic:transport:spraynic:0.1.0\n")
	w("description: RDMA transport core for FPGA NICs over lossy multipath Ethernet\n\n")
}

// coreFilesets writes one fileset per top with its files relative to root (a file outside root is an error)
// and the files they `include (is_include_file), and the lint waivers.
func coreFilesets(w printfFunc, root string, cts []CoreTop) error {
	w("filesets:\n")
	for _, t := range cts {
		w("  rtl_%s:\n    file_type: verilogSource\n    files:\n", t.Top.Name)
		if err := coreFiles(w, root, t.Top.Files, ""); err != nil {
			return err
		}
		incs, err := tops.Includes(t.Top.Files)
		if err != nil {
			return fmt.Errorf("core file: %w", err)
		}
		if err := coreFiles(w, root, incs, ": {is_include_file: true}"); err != nil {
			return err
		}
	}
	w("  lint_waivers:\n    files:\n      - rtl/lint.vlt: {file_type: vlt}\n\n")
	return nil
}

// coreFiles writes one fileset line per file, relative to root, with suffix after the name.
func coreFiles(w printfFunc, root string, files []string, suffix string) error {
	for _, f := range files {
		r, err := filepath.Rel(root, f)
		if err != nil || strings.HasPrefix(r, "..") {
			return fmt.Errorf("core file: %s is outside the repository %s", f, root)
		}
		w("      - %s%s\n", filepath.ToSlash(r), suffix)
	}
	return nil
}

// coreParameters writes the parameters: the union over the tops, in config.Keys order, with the default
// preset's values (nothing when no top has parameters).
func coreParameters(w printfFunc, tops []CoreTop) {
	declared := map[string]int{}
	for _, t := range tops {
		for _, p := range t.Top.Params {
			declared[p.Name] = p.Value
		}
	}
	if len(declared) == 0 {
		return
	}
	w("parameters:\n")
	for _, k := range config.Keys {
		v, ok := declared[k.Verilog]
		if !ok {
			continue
		}
		rng := fmt.Sprintf("%d..%d", k.Min, k.Max)
		if k.Pow2 {
			rng = "power of two, " + rng
		}
		w("  %s:\n    datatype: int\n    default: %d\n    description: config key %s (%s)\n    paramtype: vlogparam\n",
			k.Verilog, v, k.JSON, rng)
	}
	w("\n")
}

// coreTargets writes the targets of top t: lint with the default config, and synthesis on each board it has
// parameters for, in Boards order.
func coreTargets(w printfFunc, t CoreTop) {
	name := t.Top.Name
	w("\n  lint_%s:\n    description: verilator --lint-only -Wall, default config (make lint runs every config)\n",
		name)
	w("    default_tool: verilator\n    filesets: [lint_waivers, rtl_%s]\n", name)
	w("    parameters: [%s]\n", paramList(t.Top.Params, false))
	w("    toplevel: %s\n    tools:\n      verilator:\n        mode: lint-only\n        verilator_options: [-Wall]\n",
		name)
	for _, bd := range Boards {
		ps, ok := t.Boards[bd.Name]
		if !ok {
			continue
		}
		w("\n  synth_%s_%s:\n", name, strings.ReplaceAll(bd.Name, "-", "_"))
		w("    description: %s on %s, config %s (make synth BOARD=%s TOP=%s adds the checks and the report)\n",
			name, bd.Device, bd.Config, bd.Name, name)
		w("    filesets: [rtl_%s]\n    parameters: [%s]\n    toplevel: %s\n", name, paramList(ps, true), name)
		switch bd.Family {
		case Xilinx:
			w("    default_tool: vivado\n    tools:\n      vivado:\n        part: %s\n", bd.Device)
		default:
			w("    default_tool: yosys\n    tools:\n      yosys:\n        arch: %s\n", bd.Family)
			switch bd.Family {
			case Gowin:
				w("        yosys_synth_options: [-noiopads]\n")
			}
		}
	}
}

// paramList renders parameter names, or NAME=VALUE overrides, for a CAPI2 target.
func paramList(ps []config.Param, values bool) string {
	var s []string
	for _, p := range ps {
		if values {
			s = append(s, fmt.Sprintf("%s=%d", p.Name, p.Value))
		} else {
			s = append(s, p.Name)
		}
	}
	return strings.Join(s, ", ")
}
