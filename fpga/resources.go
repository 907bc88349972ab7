package fpga

import (
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"strings"
)

// Resources counts what a design uses (or a device has), by type. LUT counts are in the family's LUT (LUT4 on
// iCE40, ECP5 and Gowin, LUT6 on Xilinx); see Classify for which cells count where.
type Resources struct {
	// LUT is the LUTs used as logic (on ECP5 and Gowin including the LUTs of the carry cells).
	LUT int `json:"lut"`
	// LUTRAM is the LUTs used as memory: distributed RAM, and on Xilinx shift registers.
	LUTRAM int `json:"lutram"`
	// FF is the flip-flops.
	FF int `json:"ff"`
	// Carry is the carry cells (SB_CARRY, CARRY8, CCU2C, ALU); informative, not compared.
	Carry int `json:"carry"`
	// BRAM is the block RAMs in the device's unit: iCE40 EBR (4 kbit), Xilinx RAMB36 (a RAMB18 is 0.5), ECP5
	// DP16KD (18 kbit), Gowin BSRAM (18 kbit).
	BRAM float64 `json:"bram"`
	// URAM is the Xilinx UltraRAM blocks (URAM288).
	URAM int `json:"uram"`
	// DSP is the multiplier blocks (SB_MAC16, DSP48E2, MULT18X18D, Gowin MULT*).
	DSP int `json:"dsp"`
}

// Kind names one resource type of Resources, for comparisons and tables.
type Kind struct {
	// Name is the JSON name ("lut", "ff", ...).
	Name string
	// get returns the value of this kind.
	get func(Resources) float64
}

// Kinds lists the resource types that are compared with the baseline and shown as % of the device, in table
// order. Carry is not among them: it is part of the LUT count where it costs LUTs.
var Kinds = []Kind{
	{Name: "lut", get: func(r Resources) float64 { return float64(r.LUT) }},
	{Name: "lutram", get: func(r Resources) float64 { return float64(r.LUTRAM) }},
	{Name: "ff", get: func(r Resources) float64 { return float64(r.FF) }},
	{Name: "bram", get: func(r Resources) float64 { return r.BRAM }},
	{Name: "uram", get: func(r Resources) float64 { return float64(r.URAM) }},
	{Name: "dsp", get: func(r Resources) float64 { return float64(r.DSP) }},
}

// Get returns the value of kind k in r.
func (k Kind) Get(r Resources) float64 { return k.get(r) }

// Percent returns used as a percentage of the device capacity, by kind name; LUT is LUT+LUTRAM against the
// device's LUTs (on iCE40 the LUT4 count against the logic cells). Kinds the device lacks are left out.
func Percent(used, capacity Resources) map[string]float64 {
	p := map[string]float64{}
	pct := func(u, c float64) float64 { return math.Round(u/c*10000) / 100 }
	if capacity.LUT > 0 {
		p["lut"] = pct(float64(used.LUT+used.LUTRAM), float64(capacity.LUT))
	}
	if capacity.FF > 0 {
		p["ff"] = pct(float64(used.FF), float64(capacity.FF))
	}
	if capacity.BRAM > 0 {
		p["bram"] = pct(used.BRAM, capacity.BRAM)
	}
	if capacity.URAM > 0 {
		p["uram"] = pct(float64(used.URAM), float64(capacity.URAM))
	}
	if capacity.DSP > 0 {
		p["dsp"] = pct(float64(used.DSP), float64(capacity.DSP))
	}
	return p
}

// Overage is one resource kind a design uses more of than the device has.
type Overage struct {
	// Kind is the resource kind ("lut" counts LUT + LUTRAM, as Percent does).
	Kind string `json:"kind"`
	// Used is the design's count; Available the device's.
	Used      float64 `json:"used"`
	Available float64 `json:"available"`
	// Excess is Used - Available.
	Excess float64 `json:"excess"`
	// Percent is Used as % of Available (0 when the device has none of the kind).
	Percent float64 `json:"percent,omitempty"`
}

// OverDevice returns the resource kinds used beyond the device capacity, in Kinds order: the does-not-fit
// decision. None means the design fits by yosys's count (place-and-route may still need more room: packing,
// routing). LUT is LUT+LUTRAM against the device's LUTs; a kind the device lacks (capacity 0) does not fit when
// it is used at all.
func OverDevice(used, capacity Resources) []Overage {
	var out []Overage
	for _, k := range Kinds {
		u, c := k.Get(used), k.Get(capacity)
		switch k.Name {
		case "lutram":
			continue // counted with the LUTs
		case "lut":
			u = float64(used.LUT + used.LUTRAM)
		}
		if u <= c {
			continue
		}
		out = append(out, newOverage(k.Name, u, c))
	}
	return out
}

// newOverage is kind used beyond available, with the excess and the use as % of available (none when 0).
func newOverage(kind string, used, available float64) Overage {
	o := Overage{Kind: kind, Used: used, Available: available, Excess: used - available}
	if available > 0 {
		o.Percent = math.Round(used/available*10000) / 100
	}
	return o
}

// xilinxLUTRAM is the LUTs each Xilinx distributed-RAM or shift-register primitive occupies.
var xilinxLUTRAM = map[string]int{
	"RAM16X1S": 1, "RAM32X1S": 1, "RAM64X1S": 1, "RAM128X1S": 2, "RAM256X1S": 4, "RAM512X1S": 8,
	"RAM16X1D": 2, "RAM32X1D": 2, "RAM64X1D": 2, "RAM128X1D": 4, "RAM256X1D": 8,
	"RAM32M": 4, "RAM64M": 4, "RAM32M16": 8, "RAM64M8": 8,
	"SRL16E": 1, "SRLC16E": 1, "SRLC32E": 1,
}

// Classify turns yosys cell counts (cell type -> number) into resources for the family. It returns the cell
// types it did not count anywhere (wide-mux cells, constants, buffers), sorted, and an error for a latch cell.
func Classify(f Family, cells map[string]int) (Resources, []string, error) {
	var r Resources
	var other, latches []string
	for typ, n := range cells {
		classify, ok := classifiers[f]
		if !ok {
			return Resources{}, nil, fmt.Errorf("classify: invalid family %v", f)
		}
		switch classify(&r, typ, n) {
		case uncounted:
			other = append(other, typ)
		case latch:
			latches = append(latches, typ)
		}
	}
	sort.Strings(other)
	if len(latches) > 0 {
		sort.Strings(latches)
		return r, other, fmt.Errorf("latch cells after synthesis: %s", strings.Join(latches, ", "))
	}
	return r, other, nil
}

// cellClass is what a family's classifier made of a cell type.
type cellClass int

// The cell classes. The zero value is invalid.
const (
	// counted is a cell type added to a resource kind.
	counted cellClass = iota + 1
	// uncounted is a cell type no resource kind counts.
	uncounted
	// latch is a latch cell (an error after synthesis).
	latch
)

// classifiers add n cells of type typ to r, by family.
var classifiers = map[Family]func(r *Resources, typ string, n int) cellClass{
	ICE40:  classifyICE40,
	Xilinx: classifyXilinx,
	ECP5:   classifyECP5,
	Gowin:  classifyGowin,
}

// classifyICE40 counts iCE40 cells: SB_LUT4, SB_DFF*, SB_CARRY, SB_RAM40_4K*, SB_MAC16.
func classifyICE40(r *Resources, typ string, n int) cellClass {
	switch {
	case typ == "SB_LUT4":
		r.LUT += n
	case strings.HasPrefix(typ, "SB_DFF"):
		r.FF += n
	case typ == "SB_CARRY":
		r.Carry += n
	case strings.HasPrefix(typ, "SB_RAM40_4K"):
		r.BRAM += float64(n)
	case typ == "SB_MAC16":
		r.DSP += n
	default:
		return uncounted
	}
	return counted
}

// classifyXilinx counts UltraScale+ cells: LUT1..6 and INV, distributed RAM and shift registers (by the LUTs
// each occupies), FD*E, CARRY4/8, RAMB36 and RAMB18 (half), URAM288, DSP48*; LDCE and LDPE are latches.
func classifyXilinx(r *Resources, typ string, n int) cellClass {
	switch {
	case len(typ) == 4 && strings.HasPrefix(typ, "LUT") && typ[3] >= '1' && typ[3] <= '6', typ == "INV":
		r.LUT += n
	case xilinxLUTRAM[typ] > 0:
		r.LUTRAM += n * xilinxLUTRAM[typ]
	case typ == "FDRE" || typ == "FDSE" || typ == "FDCE" || typ == "FDPE":
		r.FF += n
	case typ == "LDCE" || typ == "LDPE":
		return latch
	case typ == "CARRY4" || typ == "CARRY8":
		r.Carry += n
	case strings.HasPrefix(typ, "RAMB36"):
		r.BRAM += float64(n)
	case strings.HasPrefix(typ, "RAMB18"):
		r.BRAM += 0.5 * float64(n)
	case typ == "URAM288" || typ == "URAM288_BASE":
		r.URAM += n
	case strings.HasPrefix(typ, "DSP48"):
		r.DSP += n
	default:
		return uncounted
	}
	return counted
}

// classifyECP5 counts ECP5 cells: LUT4, CCU2C (two LUTs and a carry), TRELLIS_FF, TRELLIS_DPR16X4 (four LUTs of
// RAM), DP16KD and PDPW16KD, MULT18X18D and ALU54B.
func classifyECP5(r *Resources, typ string, n int) cellClass {
	switch {
	case typ == "LUT4":
		r.LUT += n
	case typ == "CCU2C":
		r.LUT += 2 * n
		r.Carry += n
	case typ == "TRELLIS_FF":
		r.FF += n
	case typ == "TRELLIS_DPR16X4":
		r.LUTRAM += 4 * n
	case typ == "DP16KD" || typ == "PDPW16KD":
		r.BRAM += float64(n)
	case typ == "MULT18X18D" || typ == "ALU54B":
		r.DSP += n
	default:
		return uncounted
	}
	return counted
}

// classifyGowin counts Gowin cells: LUT1..4, ALU (a LUT and a carry), DFF*, RAM16S* and RAM16SDP* (by width),
// the BSRAM primitives, MULT* and ALU54*; DL* (not DLL*) are latches.
func classifyGowin(r *Resources, typ string, n int) cellClass {
	switch {
	case len(typ) == 4 && strings.HasPrefix(typ, "LUT") && typ[3] >= '1' && typ[3] <= '4':
		r.LUT += n
	case typ == "ALU":
		r.LUT += n
		r.Carry += n
	case strings.HasPrefix(typ, "DFF"):
		r.FF += n
	case strings.HasPrefix(typ, "DL") && !strings.HasPrefix(typ, "DLL"):
		return latch
	case typ == "RAM16SDP1" || typ == "RAM16SDP2" || typ == "RAM16SDP4" || typ == "RAM16S1" ||
		typ == "RAM16S2" || typ == "RAM16S4":
		r.LUTRAM += int(typ[len(typ)-1]-'0') * n
	case typ == "SP" || typ == "SPX9" || typ == "DP" || typ == "DPX9" || typ == "DPB" || typ == "DPX9B" ||
		typ == "SDP" || typ == "SDPX9" || typ == "SDPB" || typ == "SDPX9B" || typ == "pROM" || typ == "pROMX9":
		r.BRAM += float64(n)
	case strings.HasPrefix(typ, "MULT") || strings.HasPrefix(typ, "ALU54"):
		r.DSP += n
	default:
		return uncounted
	}
	return counted
}

// statJSON is the part of yosys `stat -json` the flow reads.
type statJSON struct {
	// Modules maps a module name (RTLIL, with its leading backslash or $paramod prefix) to its counts.
	Modules map[string]struct {
		// Cells maps a cell type to its count.
		Cells map[string]int `json:"num_cells_by_type"`
	} `json:"modules"`
}

// ParseStat reads yosys `stat -json` output and returns the cell counts of module top: the module named top, or
// a parameterised copy of it ($paramod...\top). Submodules are not added in (the flows flatten below top).
func ParseStat(data []byte, top string) (map[string]int, error) {
	var s statJSON
	if err := json.Unmarshal(data, &s); err != nil {
		return nil, fmt.Errorf("yosys stat -json: %w", err)
	}
	var names []string
	for name, m := range s.Modules {
		names = append(names, name)
		if moduleIs(name, top) {
			return m.Cells, nil
		}
	}
	sort.Strings(names)
	return nil, fmt.Errorf("yosys stat -json: no module %s (modules: %s)", top, strings.Join(names, ", "))
}

// moduleIs reports whether the RTLIL module name is top or a parameterised copy of it: yosys names those
// $paramod\top\NAME=VALUE... or, with long parameter lists, $paramod$HASH\top.
func moduleIs(name, top string) bool {
	if strings.TrimPrefix(name, `\`) == top {
		return true
	}
	rest, ok := strings.CutPrefix(name, "$paramod")
	switch {
	case !ok:
		return false
	case strings.HasPrefix(rest, "$"):
		return strings.HasSuffix(rest, `\`+top)
	default:
		return strings.HasPrefix(rest, `\`+top+`\`)
	}
}
