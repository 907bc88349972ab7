package fpga

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"sort"
	"strings"
)

// Depth is the logic depth of a mapped netlist: the most combinational cells (LUTs, carry cells, wide-mux
// cells, the read of a distributed RAM or shift register) on one path from a register's output to a register's
// input, and the most such cells but wide-mux ones on one path (LUTLevels, from a second walk). Ports of the top
// start and end no path (a block's inputs and outputs are registered by whatever surrounds it), and a block RAM,
// DSP or flip-flop is a register at both ends. Each cell counts one level, as Vivado counts logic levels; a carry
// chain counts one level per carry cell.
type Depth struct {
	// Levels is the number of combinational cells on the longest path.
	Levels int `json:"levels"`
	// WideMux is how many of those levels are wide-mux cells (MUXF7-9, PFUMX, L6MUX21, MUX2_LUT*): they join
	// the LUTs of one slice into a wider function without a route, so they cost far less than a LUT level.
	WideMux int `json:"wide_mux"`
	// Path lists the cells of one longest path in order, from the register it starts at to the one it ends at:
	// "TYPE (source location)".
	Path []string `json:"path"`
	// LUTLevels is the most LUT and carry cells (and distributed-RAM reads) on one path, wide-mux cells not
	// counted: the levels that each cost a LUT delay and, except inside a carry chain, a route. A walk of its own:
	// the path with the most cells need not be the one with the most LUT levels.
	LUTLevels int `json:"lut_levels"`
	// LUTPath is one path with LUTLevels such levels, as Path.
	LUTPath []string `json:"lut_path"`
}

// wideMuxPrefixes are the cell types Depth.WideMux counts.
var wideMuxPrefixes = []string{"MUXF", "PFUMX", "L6MUX", "MUX2_LUT"}

// cellKind says how a cell type takes part in paths.
type cellKind int

const (
	// combCell: every input reaches every output through one level.
	combCell cellKind = iota + 1
	// seqCell: a register: its outputs start paths, its inputs end them.
	seqCell
	// ramCell: distributed RAM or shift register: the read address (ports named by combPorts) reaches the
	// outputs through one level, the stored data starts a path of one level, the other inputs end paths.
	ramCell
	// noCell: constants, buffers and I/O cells: no path goes through them.
	noCell
)

// cellRule is how one cell type is treated.
type cellRule struct {
	kind cellKind
	// combPorts are the input port name prefixes of a ramCell that reach its outputs.
	combPorts []string
}

// prefixRule maps a cell-type prefix to its rule; the longest matching prefix wins.
type prefixRule struct {
	prefix string
	rule   cellRule
}

var (
	comb   = cellRule{kind: combCell}
	seq    = cellRule{kind: seqCell}
	noPath = cellRule{kind: noCell}
)

// depthRules lists, per family, the cells synthesis maps to. A cell type none matches is an error: the walk never
// guesses.
var depthRules = map[Family][]prefixRule{
	Xilinx: {
		{"LUT", comb}, {"CARRY4", comb}, {"CARRY8", comb}, {"MUXF7", comb}, {"MUXF8", comb}, {"MUXF9", comb},
		{"INV", comb}, {"MUXCY", comb}, {"XORCY", comb},
		{"FD", seq}, {"RAMB", seq}, {"URAM", seq}, {"DSP48", seq}, {"FIFO", seq},
		{"RAM", cellRule{kind: ramCell, combPorts: []string{"A", "DPRA"}}},
		{"SRL", cellRule{kind: ramCell, combPorts: []string{"A"}}},
		{"BUF", noPath}, {"IBUF", noPath}, {"OBUF", noPath}, {"GND", noPath}, {"VCC", noPath},
	},
	ECP5: {
		{"LUT4", comb}, {"CCU2C", comb}, {"PFUMX", comb}, {"L6MUX21", comb},
		{"TRELLIS_FF", seq}, {"DP16KD", seq}, {"PDPW16KD", seq}, {"MULT18X18D", seq}, {"ALU54B", seq},
		{"TRELLIS_DPR16X4", cellRule{kind: ramCell, combPorts: []string{"RAD"}}},
		{"TRELLIS_IO", noPath}, {"VHI", noPath}, {"VLO", noPath}, {"GND", noPath}, {"VCC", noPath},
	},
	Gowin: {
		{"LUT", comb}, {"ALU", comb}, {"MUX2", comb},
		{"DFF", seq}, {"SDP", seq}, {"DP", seq}, {"SP", seq}, {"pROM", seq}, {"MULT", seq},
		{"RAM16S", cellRule{kind: ramCell, combPorts: []string{"RAD", "AD"}}},
		{"GND", noPath}, {"VCC", noPath}, {"IBUF", noPath}, {"OBUF", noPath},
	},
	ICE40: {
		{"SB_LUT4", comb}, {"SB_CARRY", comb},
		{"SB_DFF", seq}, {"SB_RAM40_4K", seq}, {"SB_SPRAM", seq}, {"SB_MAC16", seq},
		{"SB_IO", noPath}, {"SB_GB", noPath},
	},
}

// ruleFor returns the rule of cell type typ in family f.
func ruleFor(f Family, typ string) (cellRule, error) {
	best := -1
	var r cellRule
	for _, pr := range depthRules[f] {
		if strings.HasPrefix(typ, pr.prefix) && len(pr.prefix) > best {
			best, r = len(pr.prefix), pr.rule
		}
	}
	if best < 0 {
		return r, fmt.Errorf("logic depth: cell type %s is not known for %s (add it to depthRules)", typ, f)
	}
	return r, nil
}

// jsonCell is one cell of yosys's write_json output.
type jsonCell struct {
	Type       string                       `json:"type"`
	Dirs       map[string]string            `json:"port_directions"`
	Conns      map[string][]json.RawMessage `json:"connections"`
	Attributes map[string]json.RawMessage   `json:"attributes"`
}

// LogicDepth returns the logic depth of module (flattened; or a parameterised copy of it, as yosys names them) in
// yosys's write_json netlist, for family f.
func LogicDepth(f Family, netlist []byte, module string) (Depth, error) {
	var doc struct {
		Modules map[string]json.RawMessage `json:"modules"`
	}
	if err := json.Unmarshal(netlist, &doc); err != nil {
		return Depth{}, fmt.Errorf("logic depth: netlist: %w", err)
	}
	var raw json.RawMessage
	for name, m := range doc.Modules {
		if moduleIs(name, module) {
			raw = m
		}
	}
	if raw == nil {
		return Depth{}, fmt.Errorf("logic depth: module %s is not in the netlist", module)
	}
	var m struct {
		Cells map[string]jsonCell `json:"cells"`
	}
	if err := json.Unmarshal(raw, &m); err != nil {
		return Depth{}, fmt.Errorf("logic depth: module %s: %w", module, err)
	}
	g, err := newDepthGraph(f, m.Cells)
	if err != nil {
		return Depth{}, err
	}
	d, err := g.longest()
	if err != nil {
		return Depth{}, err
	}
	g.reset(true)
	lut, err := g.longest()
	if err != nil {
		return Depth{}, err
	}
	d.LUTLevels, d.LUTPath = lut.Levels, lut.Path
	return d, nil
}

// pin is one input of a cell: the net bit it reads and whether it reaches the cell's outputs.
type pin struct {
	bit  int
	comb bool
}

// gcell is one cell of the depth graph.
type gcell struct {
	name, typ, src string
	rule           cellRule
	ins            []pin
}

// depthGraph holds the cells and, for every net bit, the cell driving it (-1: a port or a constant).
type depthGraph struct {
	cells  []gcell
	driver map[int]int
	// level is the memo of arrive (levels at a cell's outputs; unreached: -1, in progress: -2); from is the
	// input cell of the longest path into each cell (-1: it starts at a register).
	level, from []int
	// lutOnly makes wide-mux cells weigh 0 levels (Depth.LUTLevels).
	lutOnly bool
}

// newDepthGraph indexes the cells of a flattened module in name order (so the reported path is the same on every
// run).
func newDepthGraph(f Family, cells map[string]jsonCell) (*depthGraph, error) {
	names := make([]string, 0, len(cells))
	for n := range cells {
		names = append(names, n)
	}
	sort.Strings(names)
	g := &depthGraph{driver: map[int]int{}}
	for i, n := range names {
		c := cells[n]
		r, err := ruleFor(f, c.Type)
		if err != nil {
			return nil, err
		}
		gc := gcell{name: n, typ: c.Type, rule: r, src: srcOf(c.Attributes)}
		for _, port := range sortedKeys(c.Conns) {
			for _, b := range c.Conns[port] {
				var bit int
				if json.Unmarshal(b, &bit) != nil {
					continue // a constant "0", "1", "x" or "z"
				}
				switch c.Dirs[port] {
				case "output":
					g.driver[bit] = i
				case "input":
					gc.ins = append(gc.ins, pin{bit: bit, comb: r.reaches(port)})
				default:
					return nil, fmt.Errorf("logic depth: cell %s (%s) port %s has no direction", n, c.Type, port)
				}
			}
		}
		g.cells = append(g.cells, gc)
	}
	g.level = make([]int, len(g.cells))
	g.from = make([]int, len(g.cells))
	g.reset(false)
	return g, nil
}

// reset clears the walk's memo for a walk that counts every cell (lutOnly false) or no wide-mux cell.
func (g *depthGraph) reset(lutOnly bool) {
	g.lutOnly = lutOnly
	for i := range g.level {
		g.level[i], g.from[i] = -1, -1
	}
}

// isWideMux reports whether a cell type is one Depth.WideMux counts.
func isWideMux(typ string) bool {
	for _, p := range wideMuxPrefixes {
		if strings.HasPrefix(typ, p) {
			return true
		}
	}
	return false
}

// cost is the levels cell i adds to a path.
func (g *depthGraph) cost(i int) int {
	if g.lutOnly && isWideMux(g.cells[i].typ) {
		return 0
	}
	return 1
}

// reaches reports whether input port of a cell with rule r reaches its outputs.
func (r cellRule) reaches(port string) bool {
	switch r.kind {
	case combCell:
		return true
	case ramCell:
		for _, p := range r.combPorts {
			if strings.HasPrefix(port, p) {
				return true
			}
		}
	}
	return false
}

// srcOf returns a cell's source location: the first of yosys's src attribute outside yosys's own techmap files,
// or the first one when all are.
func srcOf(attrs map[string]json.RawMessage) string {
	var s string
	if json.Unmarshal(attrs["src"], &s) != nil {
		return ""
	}
	locs := strings.Split(s, "|")
	for _, l := range locs {
		if !strings.Contains(l, "/share/yosys/") {
			return l
		}
	}
	return locs[0]
}

// noPathLevel marks a bit no register reaches (a port, a constant, a buffer's output).
const noPathLevel = -1 << 30

// bitLevel is the level at net bit b: 0 at a register's output, noPathLevel at a port or constant.
func (g *depthGraph) bitLevel(b int) (int, int, error) {
	d, ok := g.driver[b]
	if !ok {
		return noPathLevel, -1, nil
	}
	switch g.cells[d].rule.kind {
	case seqCell:
		return 0, -1, nil
	case noCell:
		return noPathLevel, -1, nil
	}
	l, err := g.arrive(d)
	return l, d, err
}

// arrive is the level at the outputs of comb or RAM cell i: its deepest reaching input plus the cell's cost (1;
// 0 for a wide-mux cell in the LUT walk); a RAM's stored data counts as a register.
func (g *depthGraph) arrive(i int) (int, error) {
	switch g.level[i] {
	case -2:
		return 0, fmt.Errorf("logic depth: combinational loop through cell %s (%s)", g.cells[i].name, g.cells[i].typ)
	case -1:
	default:
		return g.level[i], nil
	}
	g.level[i] = -2
	best, from := noPathLevel, -1
	if g.cells[i].rule.kind == ramCell {
		best = 0
	}
	for _, p := range g.cells[i].ins {
		if !p.comb {
			continue
		}
		l, d, err := g.bitLevel(p.bit)
		if err != nil {
			return 0, err
		}
		if l > best {
			best, from = l, d
		}
	}
	if best > noPathLevel {
		best += g.cost(i)
	}
	g.level[i], g.from[i] = best, from
	return best, nil
}

// longest is the deepest level at any input that ends a path, with the path.
func (g *depthGraph) longest() (Depth, error) {
	best, end := 0, -1
	for i := range g.cells {
		c := &g.cells[i]
		if c.rule.kind != seqCell && c.rule.kind != ramCell {
			continue
		}
		for _, p := range c.ins {
			if p.comb {
				continue
			}
			l, d, err := g.bitLevel(p.bit)
			if err != nil {
				return Depth{}, err
			}
			if l > best {
				best, end = l, d
			}
		}
	}
	var path []string
	mux := 0
	for c := end; c >= 0; c = g.from[c] {
		path = append(path, fmt.Sprintf("%s (%s)", g.cells[c].typ, g.cells[c].src))
		if isWideMux(g.cells[c].typ) {
			mux++
		}
	}
	for i, j := 0, len(path)-1; i < j; i, j = i+1, j-1 {
		path[i], path[j] = path[j], path[i]
	}
	return Depth{Levels: best, WideMux: mux, Path: path}, nil
}

// Locations lists the RTL source locations of a path's cells (Depth.Path or Depth.LUTPath) in path order, each
// once, without yosys's own techmap files ("rx_reorder.v:212.5-230.8").
func Locations(path []string) []string {
	var locs []string
	seen := map[string]bool{}
	for _, c := range path {
		open := strings.LastIndex(c, " (")
		if open < 0 || !strings.HasSuffix(c, ")") {
			continue
		}
		loc := c[open+2 : len(c)-1]
		if loc == "" || strings.Contains(loc, "/share/yosys/") || seen[loc] {
			continue
		}
		seen[loc] = true
		locs = append(locs, filepath.Base(loc))
	}
	return locs
}
