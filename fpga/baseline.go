package fpga

import (
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"strings"
)

// Tolerance is the growth (resources) or drop (Fmax) against the baseline that fails the check: 5%.
const Tolerance = 0.05

// BaselineFile is the committed baseline, relative to the repository root.
const BaselineFile = "fpga/baseline.json"

// BaselineEntry is the reference result of one (board, top).
type BaselineEntry struct {
	// Board and Top identify the entry.
	Board string `json:"board"`
	Top   string `json:"top"`
	// Config is the preset name; ParamsHash the digest of the parameters the numbers were measured with.
	Config     string `json:"config"`
	ParamsHash string `json:"params_hash"`
	// Resources is the block's use.
	Resources Resources `json:"resources"`
	// FmaxMHz is the place-and-route Fmax (0 where the board has no place-and-route).
	FmaxMHz float64 `json:"fmax_mhz,omitempty"`
	// LogicDepth is the logic depth in levels (Depth.Levels).
	LogicDepth int `json:"logic_depth"`
	// LUTLevels is the most LUT and carry levels on one path (Depth.LUTLevels).
	LUTLevels int `json:"lut_levels"`
	// Tools are the tool versions the numbers come from.
	Tools map[string]string `json:"tools"`
}

// Baseline is fpga/baseline.json.
type Baseline struct {
	// Note tells a reader how the file is made.
	Note string `json:"note"`
	// Tolerance is the allowed growth, recorded for the reader (the check uses the constant).
	Tolerance float64 `json:"tolerance"`
	// Entries are sorted by board, then top.
	Entries []BaselineEntry `json:"entries"`
}

// NewBaseline builds a baseline from reports.
func NewBaseline(reports []Report) Baseline {
	b := Baseline{
		Note: "written by `make fpga-baseline` (spraynic fpga-baseline) only; " +
			"`make fpga-check` compares against it",
		Tolerance: Tolerance,
	}
	for _, r := range reports {
		e := BaselineEntry{Board: r.Board, Top: r.Top, Config: r.Config.Name, ParamsHash: r.Config.ParamsHash,
			Resources: r.Resources, Tools: r.Tools}
		if r.PnR != nil {
			e.FmaxMHz = r.PnR.FmaxMHz
		}
		if r.Depth != nil {
			e.LogicDepth, e.LUTLevels = r.Depth.Levels, r.Depth.LUTLevels
		}
		b.Entries = append(b.Entries, e)
	}
	sort.Slice(b.Entries, func(i, j int) bool {
		if b.Entries[i].Board != b.Entries[j].Board {
			return b.Entries[i].Board < b.Entries[j].Board
		}
		return b.Entries[i].Top < b.Entries[j].Top
	})
	return b
}

// ReadBaseline reads a baseline file.
func ReadBaseline(path string) (Baseline, error) {
	var b Baseline
	data, err := os.ReadFile(path)
	if err != nil {
		return b, fmt.Errorf("baseline: %w (create it with `make fpga-baseline`)", err)
	}
	if err := json.Unmarshal(data, &b); err != nil {
		return b, fmt.Errorf("baseline %s: %w", path, err)
	}
	return b, nil
}

// WriteBaseline writes b to path.
func WriteBaseline(path string, b Baseline) error {
	data, err := json.MarshalIndent(b, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, append(data, '\n'), 0o644)
}

// Verdict is the outcome of one comparison.
type Verdict int

// The verdicts. The zero value is invalid.
const (
	// Same is within the tolerance.
	Same Verdict = iota + 1
	// Better is an improvement beyond the tolerance (passes; the baseline may be refreshed).
	Better
	// Worse fails the check.
	Worse
)

// String names the verdict as the check's table does.
func (v Verdict) String() string {
	switch v {
	case Same:
		return "ok"
	case Better:
		return "better"
	case Worse:
		return "FAIL"
	default:
		return fmt.Sprintf("Verdict(%d)", int(v))
	}
}

// Finding is one line of the comparison.
type Finding struct {
	// Board and Top identify the block.
	Board, Top string
	// Kind is the resource kind, "fmax_mhz", "depth", "lut_levels", "tools" for changed tool versions, or "entry"
	// for a missing or stale baseline entry.
	Kind string
	// Base and Now are the baseline and current values.
	Base, Now float64
	// Verdict is the outcome.
	Verdict Verdict
	// Detail explains a non-ok verdict.
	Detail string
}

// String renders the finding as a table line.
func (f Finding) String() string {
	base, now := formatCount(f.Base), formatCount(f.Now)
	if f.Kind == "entry" || f.Kind == "tools" {
		base, now = "-", "-"
	}
	s := fmt.Sprintf("%-13s %-14s %-10s %10s %10s  %s", f.Board, f.Top, f.Kind, base, now, f.Verdict)
	if f.Detail != "" {
		s += "  " + f.Detail
	}
	return s
}

// Compare checks reports against the baseline: a resource that grows by more than Tolerance, an Fmax that drops
// by more than Tolerance, a logic depth or LUT levels above the baseline's, a report without a baseline entry, a
// changed parameter set, and a baseline entry of one of the boards that ran but no longer has a report (its top
// left the manifest) fail. boards lists the boards that ran. The findings come in board, top, kind order.
func Compare(base Baseline, reports []Report, boards []string) []Finding {
	var out []Finding
	ran := map[string]bool{}
	for _, b := range boards {
		ran[b] = true
	}
	have := map[string]bool{}
	index := map[string]BaselineEntry{}
	for _, e := range base.Entries {
		index[e.Board+"/"+e.Top] = e
	}
	for _, r := range reports {
		key := r.Board + "/" + r.Top
		have[key] = true
		e, ok := index[key]
		if !ok {
			out = append(out, Finding{Board: r.Board, Top: r.Top, Kind: "entry", Verdict: Worse,
				Detail: "no baseline entry: a new block or board; record it with `make fpga-baseline`"})
			continue
		}
		if e.ParamsHash != r.Config.ParamsHash {
			out = append(out, Finding{Board: r.Board, Top: r.Top, Kind: "entry", Verdict: Worse,
				Detail: fmt.Sprintf("parameters changed since the baseline (params %s, baseline %s, config %s): "+
					"numbers are not comparable; `make fpga-baseline` records them",
					r.Config.ParamsHash, e.ParamsHash, r.Config.Name)})
			continue
		}
		for _, k := range Kinds {
			out = append(out, compareOne(r.Board, r.Top, k.Name, k.Get(e.Resources), k.Get(r.Resources), false))
		}
		if e.FmaxMHz > 0 || r.PnR != nil {
			now := 0.0
			if r.PnR != nil {
				now = r.PnR.FmaxMHz
			}
			out = append(out, compareOne(r.Board, r.Top, "fmax_mhz", e.FmaxMHz, now, true))
		}
		out = append(out, compareDepth(r.Board, r.Top, "depth", e.LogicDepth, r.Depth))
		out = append(out, compareDepth(r.Board, r.Top, "lut_levels", e.LUTLevels, r.Depth))
		if changed := toolChanges(e.Tools, r.Tools); changed != "" {
			out = append(out, Finding{Board: r.Board, Top: r.Top, Kind: "tools", Verdict: Same,
				Detail: "tool versions differ from the baseline's: " + changed})
		}
	}
	for _, e := range base.Entries {
		if ran[e.Board] && !have[e.Board+"/"+e.Top] {
			out = append(out, Finding{Board: e.Board, Top: e.Top, Kind: "entry", Verdict: Worse,
				Detail: "baseline entry without a report: the top left rtl/manifest.json, or the board no " +
					"longer checks it? `make fpga-baseline` drops it"})
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Board != out[j].Board {
			return out[i].Board < out[j].Board
		}
		return out[i].Top < out[j].Top
	})
	return out
}

// compareOne applies the tolerance to one value; higherIsBetter is true for Fmax.
func compareOne(board, top, kind string, base, now float64, higherIsBetter bool) Finding {
	f := Finding{Board: board, Top: top, Kind: kind, Base: base, Now: now, Verdict: Same}
	if !higherIsBetter {
		switch {
		case base == 0 && now > 0:
			f.Verdict = Worse
			f.Detail = "new use of this resource (baseline 0)"
		case base > 0 && now > base*(1+Tolerance):
			f.Verdict = Worse
			f.Detail = fmt.Sprintf("grew %.1f%% (more than %.0f%%)", (now/base-1)*100, Tolerance*100)
		case base > 0 && now < base*(1-Tolerance):
			f.Verdict = Better
			f.Detail = fmt.Sprintf("shrank %.1f%%: `make fpga-baseline` to lock it in", (1-now/base)*100)
		}
		return f
	}
	switch {
	case base > 0 && now == 0:
		f.Verdict = Worse
		f.Detail = "no Fmax in the report"
	case base == 0 && now > 0:
		f.Verdict = Worse
		f.Detail = "Fmax without a baseline value: `make fpga-baseline` records it"
	case base > 0 && now < base*(1-Tolerance):
		f.Verdict = Worse
		f.Detail = fmt.Sprintf("dropped %.1f%% (more than %.0f%%)", (1-now/base)*100, Tolerance*100)
	case base > 0 && now > base*(1+Tolerance):
		f.Verdict = Better
		f.Detail = fmt.Sprintf("rose %.1f%%: `make fpga-baseline` to lock it in", (now/base-1)*100)
	}
	return f
}

// compareDepth checks a logic depth figure exactly (kind "depth": Depth.Levels, "lut_levels": Depth.LUTLevels): one
// more level than the baseline fails, one less is better.
func compareDepth(board, top, kind string, base int, now *Depth) Finding {
	f := Finding{Board: board, Top: top, Kind: kind, Base: float64(base), Verdict: Same}
	if now == nil {
		f.Verdict, f.Detail = Worse, "no logic depth in the report"
		return f
	}
	levels, path := now.Levels, now.Path
	if kind == "lut_levels" {
		levels, path = now.LUTLevels, now.LUTPath
	}
	f.Now = float64(levels)
	switch {
	case base == 0:
		f.Verdict = Worse
		f.Detail = "no " + kind + " in the baseline: `make fpga-baseline` records it"
	case levels > base:
		f.Verdict = Worse
		f.Detail = fmt.Sprintf("%d more level(s): %s", levels-base, strings.Join(path, " -> "))
	case levels < base:
		f.Verdict = Better
		f.Detail = "fewer levels: `make fpga-baseline` to lock it in"
	}
	return f
}

// toolChanges lists the tools whose versions differ, or "".
func toolChanges(base, now map[string]string) string {
	var diffs []string
	for _, k := range sortedKeys(now) {
		if b, ok := base[k]; ok && b != now[k] {
			diffs = append(diffs, fmt.Sprintf("%s %q (baseline %q)", k, now[k], b))
		}
	}
	return strings.Join(diffs, ", ")
}

// Failed reports whether any finding fails the check.
func Failed(fs []Finding) bool {
	for _, f := range fs {
		if f.Verdict == Worse {
			return true
		}
	}
	return false
}
