package fpga

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/spraynic/spraynic/config"
)

// ReportFile is the name of the per-(board, top) report under build/fpga/<board>/<top>/.
const ReportFile = "report.json"

// ConfigInfo identifies the configuration a report was built with.
type ConfigInfo struct {
	// Name is the preset name (or file).
	Name string `json:"name"`
	// Hash is config.Config.Hash of the whole configuration.
	Hash string `json:"hash"`
	// ParamsHash is ParamsHash of the parameters this top takes: what the baseline compares.
	ParamsHash string `json:"params_hash"`
	// Params are the Verilog parameters applied to the top.
	Params map[string]int `json:"params"`
}

// Report is the machine-readable result of one flow run for one (board, top): report.json.
type Report struct {
	// Board, Family and Device identify the target.
	Board  string `json:"board"`
	Family string `json:"family"`
	Device string `json:"device"`
	// Top is the block.
	Top string `json:"top"`
	// Config is the configuration the block was built with.
	Config ConfigInfo `json:"config"`
	// Key is the hash of every input of the run (sources, parameters, board, tools, flow version): a report with
	// the same key is reused instead of running the tools again.
	Key string `json:"key"`
	// Tools maps a tool name to its version.
	Tools map[string]string `json:"tools"`
	// Resources is what the block alone uses, counted by yosys after technology mapping.
	Resources Resources `json:"resources"`
	// Percent is Resources as % of the device, by kind.
	Percent map[string]float64 `json:"percent_of_device"`
	// Fits is false when a resource kind exceeds the device (OverDevice of Resources): the block does not fit,
	// a reported result, not a failure; place-and-route (nextpnr, icepack) is then skipped.
	Fits bool `json:"fits"`
	// OverDevice lists the kinds above the device's capacity and by how much (empty when Fits).
	OverDevice []Overage `json:"over_device,omitempty"`
	// Cells is yosys's cell count of the block, by cell type.
	Cells map[string]int `json:"cells"`
	// Uncounted lists the cell types Cells has that no resource kind counts (wide muxes, constants).
	Uncounted []string `json:"uncounted_cells,omitempty"`
	// Memories lists the memories and where they were mapped.
	Memories []Memory `json:"memories"`
	// Warnings are yosys's non-fatal warnings.
	Warnings []string `json:"warnings"`
	// LibraryResizes counts yosys's port-resizing warnings on its own library cells after technology mapping
	// (not the design's; see SynthMarker).
	LibraryResizes int `json:"library_resize_warnings"`
	// PnR is the place-and-route result (boards with PnR only): Fmax, critical path, utilisation.
	PnR *PnR `json:"pnr,omitempty"`
	// Depth is the logic depth of the block's mapped netlist (LogicDepth; on PnR boards without its harness).
	Depth *Depth `json:"logic_depth,omitempty"`
	// Packing is set instead of PnR when the block fits by yosys's count but nextpnr's packing of it with its I/O
	// harness needs more than the device has: nextpnr stopped before placement, Fits is false, OverDevice names
	// the bel types, and there is no Fmax.
	Packing *Packing `json:"packing,omitempty"`
	// Vivado lists the generated Vivado files (relative to the report), for boards that have them.
	Vivado []string `json:"vivado,omitempty"`
	// Seconds is the wall time of each step.
	Seconds map[string]float64 `json:"seconds"`
}

// ParamsHash is a short stable digest of a top's parameter assignments.
func ParamsHash(ps []config.Param) string {
	var b strings.Builder
	for _, p := range ps {
		fmt.Fprintf(&b, "%s=%d\n", p.Name, p.Value)
	}
	return shortHash([]byte(b.String()))
}

// WriteReport writes r as dir/report.json.
func WriteReport(dir string, r Report) error {
	b, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return fmt.Errorf("report %s/%s: %w", r.Board, r.Top, err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, ReportFile), append(b, '\n'), 0o644)
}

// ReadReport reads dir/report.json.
func ReadReport(dir string) (Report, error) {
	var r Report
	b, err := os.ReadFile(filepath.Join(dir, ReportFile))
	if err != nil {
		return r, err
	}
	if err := json.Unmarshal(b, &r); err != nil {
		return r, fmt.Errorf("%s: %w", filepath.Join(dir, ReportFile), err)
	}
	return r, nil
}

// Summary renders r on a few lines for the terminal.
func Summary(r Report, reportPath string) string {
	var b strings.Builder
	w := func(format string, a ...any) { fmt.Fprintf(&b, format, a...) }
	w("%s  %s  (%s, config %s, params %s)\n", r.Board, r.Top, r.Device, r.Config.Name, r.Config.ParamsHash)
	w("  %s\n", resourceLine(r))
	summaryFit(w, r)
	if len(r.Memories) > 0 {
		var ms []string
		for _, m := range r.Memories {
			s := m.Name + " -> " + m.Mapping.String()
			if m.SyncRead {
				s += " (registered read)"
			}
			ms = append(ms, s)
		}
		w("  memories: %s\n", strings.Join(ms, "; "))
	}
	if d := r.Depth; d != nil {
		w("  logic depth %d levels (%d of them wide-mux cells; register to register)", d.Levels, d.WideMux)
		if locs := Locations(d.Path); len(locs) > 0 {
			w(" through %s", strings.Join(locs, ", "))
		}
		w("\n  LUT and carry levels %d (wide-mux cells not counted)", d.LUTLevels)
		if locs := Locations(d.LUTPath); len(locs) > 0 {
			w(" through %s", strings.Join(locs, ", "))
		}
		w("\n")
	}
	summaryPnR(w, r)
	if len(r.Warnings) > 0 {
		w("  %d yosys warning(s), first: %s\n", len(r.Warnings), r.Warnings[0])
	}
	var ts []string
	for _, k := range sortedKeys(r.Seconds) {
		ts = append(ts, fmt.Sprintf("%s %.1fs", k, r.Seconds[k]))
	}
	w("  time: %s; report: %s\n", strings.Join(ts, ", "), reportPath)
	return b.String()
}

// resourceLine lists the resources of r by kind, with the % of the device where it has the kind, then the
// carry cells.
func resourceLine(r Report) string {
	var parts []string
	for _, k := range Kinds {
		v := k.Get(r.Resources)
		if _, onDevice := r.Percent[k.Name]; v == 0 && !onDevice && k.Name != "lutram" {
			continue // a kind the device does not have
		}
		s := fmt.Sprintf("%s %s", k.Name, formatCount(v))
		if p, ok := r.Percent[k.Name]; ok && k.Name != "lutram" {
			s += fmt.Sprintf(" (%.2f%%)", p)
		}
		parts = append(parts, s)
	}
	parts = append(parts, fmt.Sprintf("carry %d", r.Resources.Carry))
	return strings.Join(parts, "  ")
}

// summaryFit writes, for a block that does not fit the device, the kinds over 100% and what is over by how
// much.
func summaryFit(w printfFunc, r Report) {
	var over []string
	for _, k := range Kinds {
		if p, ok := r.Percent[k.Name]; ok && p > 100 {
			over = append(over, fmt.Sprintf("%s %.2f%%", k.Name, p))
		}
	}
	if len(over) > 0 || len(r.OverDevice) > 0 {
		w("  DOES NOT FIT %s", r.Device)
		if len(over) > 0 {
			w(": %s of the device", strings.Join(over, ", "))
		}
		if r.Packing != nil {
			w(" after packing, with its I/O harness (yosys's counts are within it)")
		}
		w("\n")
	}
	if len(r.OverDevice) > 0 {
		var ds []string
		for _, o := range r.OverDevice {
			ds = append(ds, fmt.Sprintf("%s %s used, %s on the device (%s over)",
				o.Kind, formatCount(o.Used), formatCount(o.Available), formatCount(o.Excess)))
		}
		w("  over the device: %s\n", strings.Join(ds, "; "))
	}
}

// summaryPnR writes the place-and-route result (Fmax, utilisation, critical path), or why there is none.
func summaryPnR(w printfFunc, r Report) {
	if k := r.Packing; k != nil {
		w("%s", k.summaryLine("packed"))
		w("  place-and-route stopped after packing: the packed design does not fit the device (no Fmax)\n")
	} else if _, pnrBoard := r.Tools["nextpnr"]; r.PnR == nil && pnrBoard && !r.Fits {
		w("  place-and-route skipped: the block does not fit the device (resources are yosys's, no Fmax)\n")
	} else if r.PnR == nil {
		w("  no place-and-route for this board: resources are yosys's, no Fmax\n")
	}
	p := r.PnR
	if p == nil {
		return
	}
	verdict := "met"
	if !p.TimingMet {
		verdict = "FAILED (reported, --timing-allow-fail)"
	}
	w("  nextpnr (seed %d, %s): Fmax %.2f MHz, target %.0f MHz %s\n",
		p.Seed, p.Package, p.FmaxMHz, p.TargetMHz, verdict)
	w("%s", p.summaryLine("placed"))
	cp := p.CriticalPath
	w("  critical path %.1f ns (%.1f logic, %.1f routing): %s -> %s\n",
		cp.DelayNS, cp.LogicNS, cp.RoutingNS, cp.From, cp.To)
	for _, t := range cp.Through {
		w("    %s\n", t)
	}
}

// formatCount prints a count or a frequency with the decimals it has (2101, 0.5, 35.72).
func formatCount(v float64) string {
	return strconv.FormatFloat(v, 'f', -1, 64)
}
