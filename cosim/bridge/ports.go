package bridge

import (
	"encoding/xml"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// Dir is a port direction.
type Dir int

// The directions. The zero value is invalid.
const (
	// In is an input of the model.
	In Dir = iota + 1
	// Out is an output of the model.
	Out
)

// String returns "input" or "output", as in Verilog.
func (d Dir) String() string {
	switch d {
	case In:
		return "input"
	case Out:
		return "output"
	default:
		return "Dir(" + strconv.Itoa(int(d)) + ")"
	}
}

// Port is one port of a model's top module (the clock excluded).
type Port struct {
	// Name is the Verilog port name.
	Name string
	// Dir is the direction.
	Dir Dir
	// Width is the width in bits, with the build's parameters applied.
	Width int
}

// Words returns the number of 32-bit words the port takes in packed inputs or outputs: ceil(Width/32).
func (p Port) Words() int {
	return (p.Width + 31) / 32
}

// The parts of Verilator's --xml-only output the bridge reads.
type (
	// xmlRoot is the document.
	xmlRoot struct {
		// Files are every file Verilator read.
		Files []xmlFile `xml:"files>file"`
		// Netlist is the elaborated design.
		Netlist xmlNetlist `xml:"netlist"`
	}
	// xmlNetlist is the elaborated design.
	xmlNetlist struct {
		// Modules are the netlist's modules.
		Modules []xmlModule `xml:"module"`
		// TypeTable holds the types of the variables.
		TypeTable xmlTypeTable `xml:"typetable"`
	}
	// xmlTypeTable is the type table.
	xmlTypeTable struct {
		// Types are the table's entries, of every kind.
		Types []xmlType `xml:",any"`
	}
	// xmlFile is one file read.
	xmlFile struct {
		// Name is the path, or a <built-in> style pseudo name.
		Name string `xml:"filename,attr"`
	}
	// xmlModule is one module of the netlist.
	xmlModule struct {
		// Name is the module name.
		Name string `xml:"name,attr"`
		// Top is "1" on the top module.
		Top string `xml:"topModule,attr"`
		// Vars are the module's variables, ports and parameters included.
		Vars []xmlVar `xml:"var"`
	}
	// xmlVar is one variable.
	xmlVar struct {
		// Name is the variable name.
		Name string `xml:"name,attr"`
		// DType is the id of its type in the type table.
		DType string `xml:"dtype_id,attr"`
		// Dir is "input", "output" or "inout" on ports, else "".
		Dir string `xml:"dir,attr"`
		// PinIndex is the 1-based position in the port list, on ports.
		PinIndex string `xml:"pinIndex,attr"`
	}
	// xmlType is one entry of the type table, read by its UnmarshalXML.
	xmlType struct {
		// Kind is the element name: basicdtype, refdtype, unpackarraydtype, ...
		Kind string
		// ID is the type id.
		ID string
		// Name is the basic type name (logic, bit, integer, ...).
		Name string
		// Left and Right are the packed range; both absent on a 1-bit type.
		Left, Right string
		// Sub is the id of the referenced type of a refdtype.
		Sub string
	}
)

// UnmarshalXML reads a type table entry of any kind.
func (t *xmlType) UnmarshalXML(d *xml.Decoder, start xml.StartElement) error {
	t.Kind = start.Name.Local
	for _, a := range start.Attr {
		switch a.Name.Local {
		case "id":
			t.ID = a.Value
		case "name":
			t.Name = a.Value
		case "left":
			t.Left = a.Value
		case "right":
			t.Right = a.Value
		case "sub_dtype_id":
			t.Sub = a.Value
		}
	}
	return d.Skip()
}

// errNoTop is returned when the XML has no top module of the expected name.
var errNoTop = errors.New("top module not found in verilator's XML output")

// integralTypes are the basic types a port may have.
var integralTypes = map[string]bool{
	"logic": true, "bit": true, "reg": true, "wire": true,
	"integer": true, "int": true, "shortint": true, "longint": true, "byte": true,
}

// parsePorts returns the ports of top from Verilator's XML output, clk excluded and checked, in port-list order,
// and the files Verilator read.
func parsePorts(data []byte, top string) ([]Port, []string, error) {
	var root xmlRoot
	if err := xml.Unmarshal(data, &root); err != nil {
		return nil, nil, fmt.Errorf("verilator's XML output: %w", err)
	}
	var files []string
	for _, f := range root.Files {
		if !strings.HasPrefix(f.Name, "<") {
			files = append(files, f.Name)
		}
	}
	types := make(map[string]xmlType, len(root.Netlist.TypeTable.Types))
	for _, t := range root.Netlist.TypeTable.Types {
		types[t.ID] = t
	}
	var mod *xmlModule
	for i := range root.Netlist.Modules {
		if root.Netlist.Modules[i].Top == "1" && root.Netlist.Modules[i].Name == top {
			mod = &root.Netlist.Modules[i]
		}
	}
	if mod == nil {
		return nil, nil, errNoTop
	}
	ports, err := modulePorts(mod, types)
	return ports, files, err
}

// modulePorts lists the ports of mod but the clock, in pin order; the clock must be a 1-bit input.
func modulePorts(mod *xmlModule, types map[string]xmlType) ([]Port, error) {
	type pin struct {
		index int
		port  Port
	}
	var pins []pin
	clock := false
	for _, v := range mod.Vars {
		if v.Dir == "" {
			continue
		}
		p, err := varPort(v, types)
		if err != nil {
			return nil, err
		}
		if v.Name == clockPort {
			if p.Dir != In || p.Width != 1 {
				return nil, fmt.Errorf("port %s: must be a 1-bit input, is a %d-bit %s", v.Name, p.Width, p.Dir)
			}
			clock = true
			continue
		}
		if !validIdent(v.Name) {
			return nil, fmt.Errorf("port %s: not a plain identifier (Verilator would rename it)", v.Name)
		}
		index, err := strconv.Atoi(v.PinIndex)
		if err != nil {
			return nil, fmt.Errorf("port %s: bad pin index %q", v.Name, v.PinIndex)
		}
		pins = append(pins, pin{index: index, port: p})
	}
	if !clock {
		return nil, fmt.Errorf("no 1-bit input %s", clockPort)
	}
	sort.SliceStable(pins, func(i, j int) bool { return pins[i].index < pins[j].index })
	ports := make([]Port, len(pins))
	for i, p := range pins {
		ports[i] = p.port
	}
	return ports, nil
}

// varPort is the port a module variable with a direction declares: its name, direction and width.
func varPort(v xmlVar, types map[string]xmlType) (Port, error) {
	width, err := typeWidth(types, v.DType)
	if err != nil {
		return Port{}, fmt.Errorf("port %s: %w", v.Name, err)
	}
	switch v.Dir {
	case "input":
		return Port{Name: v.Name, Dir: In, Width: width}, nil
	case "output":
		return Port{Name: v.Name, Dir: Out, Width: width}, nil
	}
	return Port{}, fmt.Errorf("port %s: direction %q is not supported", v.Name, v.Dir)
}

// typeWidth returns the width of the packed integral type id, following type references.
func typeWidth(types map[string]xmlType, id string) (int, error) {
	for depth := 0; depth < 16; depth++ {
		t, ok := types[id]
		if !ok {
			return 0, fmt.Errorf("type %s not in the type table", id)
		}
		switch t.Kind {
		case "refdtype":
			id = t.Sub
			continue
		case "basicdtype":
		default:
			return 0, fmt.Errorf("type %s is not supported (only packed integral types)", t.Kind)
		}
		if !integralTypes[t.Name] {
			return 0, fmt.Errorf("type %s is not supported (only packed integral types)", t.Name)
		}
		if t.Left == "" && t.Right == "" {
			return 1, nil
		}
		left, err1 := strconv.Atoi(t.Left)
		right, err2 := strconv.Atoi(t.Right)
		if err1 != nil || err2 != nil {
			return 0, fmt.Errorf("bad range [%s:%s]", t.Left, t.Right)
		}
		if left < right {
			left, right = right, left
		}
		return left - right + 1, nil
	}
	return 0, fmt.Errorf("type %s: reference chain too long", id)
}
