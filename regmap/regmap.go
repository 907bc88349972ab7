package regmap

import (
	"errors"
	"fmt"
	"slices"
)

// Access is how the bus may use a register.
type Access string

// The access types. A write to a RO register, or a read of a WO one, is a bus error (SLVERR) unless the map
// says otherwise (docs/nic_roce.md, "Control: AXI4-Lite").
const (
	// RO registers are read only: a write gets SLVERR and changes nothing.
	RO Access = "RO"
	// RW registers are read and written; a write of an illegal value gets SLVERR and changes nothing.
	RW Access = "RW"
	// W1C registers read sticky bits; writing 1 to a bit clears it, 0 leaves it.
	W1C Access = "W1C"
	// WO registers are commands: a write acts, a read returns 0 (OKAY).
	WO Access = "WO"
)

// Field is a run of bits of a register.
type Field struct {
	// Name is the field name, lower case ("dscp").
	Name string
	// Lsb and Width place the field: bits Lsb .. Lsb+Width-1.
	Lsb, Width int
	// Reset is the value after reset. ResetParam, when set, names the Verilog parameter whose value it is
	// instead (a capability), and Reset is unused.
	Reset      uint32
	ResetParam string
	// Values lists the legal values of a write, when not a range. Otherwise Min..Max is the legal range, and
	// Min = Max = 0 means every value of Width bits.
	Values   []uint32
	Min, Max uint32
	// Below names the Verilog parameter a written value must be less than ("CONNS"), besides the range.
	Below string
	// Desc says what the field is.
	Desc string
}

// Register is one 32-bit register.
type Register struct {
	// Name is the register name, upper case ("IP_TOS").
	Name string
	// Offset is the byte address within its block (within one entry, for a window).
	Offset uint32
	// Access is the bus access; a W1C register's fields are all sticky bits.
	Access Access
	// LockedOpen: a write while the register's connection is open gets SLVERR and changes nothing.
	LockedOpen bool
	// Fields are the defined bits; every other bit reads 0, and a write of 1 to one gets SLVERR.
	Fields []Field
	// Source names the RTL signal a counter or status register shows ("nic_transport.cnt_sent").
	Source string
	// Desc says what the register is.
	Desc string
}

// Block is a group of registers at Base, once (Stride 0) or once per connection (a window of MaxCount entries
// of Stride bytes, of which the instance has Count: a Verilog parameter).
type Block struct {
	// Name is the block name, lower case ("conn"); a window's localparams are named after it.
	Name string
	// Base is the byte address of the block (of entry 0, for a window).
	Base uint32
	// Stride is the bytes per entry of a window, 0 for a single block.
	Stride uint32
	// Count names the Verilog parameter that sets a window's entries; MaxCount is the most it may be.
	Count    string
	MaxCount int
	// Registers are the block's registers, offsets relative to Base (to the entry, for a window).
	Registers []Register
	// Desc says what the block holds.
	Desc string
}

// Map is a register map on an AXI4-Lite slave of AddrWidth address bits and 32 data bits.
type Map struct {
	// Name is the top the map belongs to ("nic_roce").
	Name string
	// Prefix starts every Verilog localparam name ("NR").
	Prefix string
	// AddrWidth is the slave's address width in bits.
	AddrWidth int
	// Blocks are the register blocks, in address order.
	Blocks []Block
}

// Span is the number of bytes a block occupies.
func (b Block) Span() uint32 {
	if b.Stride == 0 {
		var end uint32
		for _, r := range b.Registers {
			end = max(end, r.Offset+4)
		}
		return end
	}
	return b.Stride * uint32(b.MaxCount)
}

// Mask is the mask of the bits the fields of r define.
func (r Register) Mask() uint32 {
	var m uint32
	for _, f := range r.Fields {
		m |= f.mask()
	}
	return m
}

// Reset is the reset value of r with every field at its numeric reset (parameter resets count as 0).
func (r Register) Reset() uint32 {
	var v uint32
	for _, f := range r.Fields {
		v |= f.Reset << f.Lsb
	}
	return v
}

// mask is the field's bits in place.
func (f Field) mask() uint32 {
	return uint32((uint64(1)<<f.Width)-1) << f.Lsb
}

// top is the largest value of the field's width.
func (f Field) top() uint32 {
	return uint32((uint64(1) << f.Width) - 1)
}

// Legal reports whether v may be written to f (without the Below rule, which needs the parameters).
func (f Field) Legal(v uint32) bool {
	switch {
	case v > f.top():
		return false
	case f.Values != nil:
		return slices.Contains(f.Values, v)
	case f.Min == 0 && f.Max == 0:
		return true
	}
	return v >= f.Min && v <= f.Max
}

// ranged reports whether f has a legal range narrower than its width.
func (f Field) ranged() bool {
	return f.Values == nil && !(f.Min == 0 && f.Max == 0) && !(f.Min == 0 && f.Max == f.top())
}

// writable reports whether the bus writes values into r's fields (RW and WO registers).
func (r Register) writable() bool {
	return r.Access == RW || r.Access == WO
}

// Check returns every broken rule of m, joined, or nil: addresses aligned and inside the address space, no two
// registers or blocks overlapping, registers inside their window entry, fields inside 32 bits and disjoint,
// names unique, legal ranges inside the field and resets legal.
func (m Map) Check() error {
	var errs []error
	names := map[string]bool{}
	type span struct {
		name     string
		lo, size uint32
	}
	var spans []span
	for _, b := range m.Blocks {
		errs = append(errs, checkBlock(m, b)...)
		spans = append(spans, span{name: b.Name, lo: b.Base, size: b.Span()})
		for _, r := range b.Registers {
			if names[r.Name] {
				errs = append(errs, fmt.Errorf("%s: register name used twice", r.Name))
			}
			names[r.Name] = true
			errs = append(errs, checkRegister(r)...)
		}
	}
	for i, a := range spans {
		for _, b := range spans[i+1:] {
			if a.lo < b.lo+b.size && b.lo < a.lo+a.size {
				errs = append(errs, fmt.Errorf("blocks %s and %s overlap", a.name, b.name))
			}
		}
	}
	return errors.Join(errs...)
}

// checkBlock checks a block's placement and its registers' offsets.
func checkBlock(m Map, b Block) []error {
	p := problems{where: "block " + b.Name}
	bad := p.add
	if b.Base%4 != 0 || b.Stride%4 != 0 {
		bad("base 0x%x or stride 0x%x not a multiple of 4", b.Base, b.Stride)
	}
	if uint64(b.Base)+uint64(b.Span()) > uint64(1)<<m.AddrWidth {
		bad("ends at 0x%x, beyond the %d-bit address space", uint64(b.Base)+uint64(b.Span()), m.AddrWidth)
	}
	if (b.Stride == 0) != (b.Count == "" && b.MaxCount == 0) || (b.Stride != 0 && b.MaxCount < 1) {
		bad("a window needs a stride, a count parameter and a maximum count; a single block none")
	}
	seen := map[uint32]string{}
	for _, r := range b.Registers {
		switch {
		case r.Offset%4 != 0:
			bad("%s at 0x%x is not 4-byte aligned", r.Name, r.Offset)
		case b.Stride != 0 && r.Offset+4 > b.Stride:
			bad("%s at 0x%x is outside the %d-byte entry", r.Name, r.Offset, b.Stride)
		case seen[r.Offset] != "":
			bad("%s and %s both at 0x%x", seen[r.Offset], r.Name, r.Offset)
		}
		seen[r.Offset] = r.Name
		if r.LockedOpen && b.Stride == 0 {
			bad("%s is locked while open but not in a connection window", r.Name)
		}
	}
	return p.errs
}

// checkRegister checks a register's fields.
func checkRegister(r Register) []error {
	p := problems{where: r.Name}
	bad := p.add
	switch r.Access {
	case RO, RW, W1C, WO:
	default:
		bad("unknown access %q", r.Access)
	}
	if len(r.Fields) == 0 {
		bad("no fields")
	}
	var used uint32
	names := map[string]bool{}
	for _, f := range r.Fields {
		if f.Width < 1 || f.Lsb < 0 || f.Lsb+f.Width > 32 {
			bad("field %s bits %d..%d outside 0..31", f.Name, f.Lsb, f.Lsb+f.Width-1)
			continue
		}
		if used&f.mask() != 0 {
			bad("field %s overlaps another field", f.Name)
		}
		if names[f.Name] {
			bad("field name %s used twice", f.Name)
		}
		used |= f.mask()
		names[f.Name] = true
		p.errs = append(p.errs, checkField(r, f)...)
	}
	return p.errs
}

// checkField checks a field's legal values and reset.
func checkField(r Register, f Field) []error {
	p := problems{where: r.Name + "." + f.Name}
	bad := p.add
	if f.Max > f.top() || f.Min > f.Max {
		bad("legal range %d..%d does not fit %d bits", f.Min, f.Max, f.Width)
	}
	for _, v := range f.Values {
		if v > f.top() {
			bad("legal value %d does not fit %d bits", v, f.Width)
		}
	}
	if !r.writable() && (f.Values != nil || f.Min != 0 || f.Max != 0 || f.Below != "") {
		bad("legal values given for a %s register", r.Access)
	}
	switch {
	case f.ResetParam != "" && (r.Access != RO || f.Reset != 0):
		bad("a parameter reset is only for a RO field with Reset 0")
	case f.Reset > f.top():
		bad("reset %d does not fit %d bits", f.Reset, f.Width)
	case r.Access == RW && !f.Legal(f.Reset):
		bad("reset %d is not a legal value", f.Reset)
	case (r.Access == WO || r.Access == W1C) && f.Reset != 0:
		bad("a %s field resets to 0", r.Access)
	}
	return p.errs
}

// problems collects the broken rules of one part of a map, each error prefixed by where that part is.
type problems struct {
	where string
	errs  []error
}

// add records one broken rule.
func (p *problems) add(format string, a ...any) {
	p.errs = append(p.errs, fmt.Errorf("%s: %s", p.where, fmt.Sprintf(format, a...)))
}
