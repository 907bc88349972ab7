package fpga

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/spraynic/spraynic/config"
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
	w("CAPI=2:\n")
	w("# FuseSoC core for spraynic, generated from rtl/manifest.json and config/presets.json by `make fpga-baseline`\n")
	w("# (spraynic fpga-baseline); `make fpga-check` fails when it is stale. Do not edit by hand.\n")
	w("# The Makefile is the source of truth for lint and synthesis (make lint, make synth BOARD=...): these targets\n")
	w("# are a convenience for FuseSoC users and run the same tools with the same files and parameters, without the\n")
	w("# checks, reports and baseline of `make synth`.\n")
	w("name: spraynic:transport:spraynic:0.1.0\n")
	w("description: RDMA transport core for FPGA NICs over lossy multipath Ethernet\n\n")

	rel := func(p string) (string, error) {
		r, err := filepath.Rel(root, p)
		if err != nil || strings.HasPrefix(r, "..") {
			return "", fmt.Errorf("core file: %s is outside the repository %s", p, root)
		}
		return filepath.ToSlash(r), nil
	}
	w("filesets:\n")
	for _, t := range tops {
		w("  rtl_%s:\n    file_type: verilogSource\n    files:\n", t.Top.Name)
		for _, f := range t.Top.Files {
			r, err := rel(f)
			if err != nil {
				return "", err
			}
			w("      - %s\n", r)
		}
	}
	w("  lint_waivers:\n    files:\n      - rtl/lint.vlt: {file_type: vlt}\n\n")

	// parameters: the union over the tops, in config.Keys order, with the default preset's values
	declared := map[string]int{}
	for _, t := range tops {
		for _, p := range t.Top.Params {
			declared[p.Name] = p.Value
		}
	}
	if len(declared) > 0 {
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

	w("targets:\n  default:\n    filesets:\n")
	for _, t := range tops {
		w("      - rtl_%s\n", t.Top.Name)
	}
	for _, t := range tops {
		name := t.Top.Name
		w("\n  lint_%s:\n    description: verilator --lint-only -Wall, default config (make lint runs every config)\n", name)
		w("    default_tool: verilator\n    filesets: [lint_waivers, rtl_%s]\n", name)
		w("    parameters: [%s]\n", paramList(t.Top.Params, false))
		w("    toplevel: %s\n    tools:\n      verilator:\n        mode: lint-only\n        verilator_options: [-Wall]\n", name)
		for _, bd := range Boards {
			ps, ok := t.Boards[bd.Name]
			if !ok {
				continue
			}
			w("\n  synth_%s_%s:\n", name, strings.ReplaceAll(bd.Name, "-", "_"))
			w("    description: %s on %s, config %s (make synth BOARD=%s adds the checks and the report)\n",
				name, bd.Device, bd.Config, bd.Name)
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
	return b.String(), nil
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
