package nicrocecsr

import (
	"fmt"

	"github.com/spraynic/spraynic/regmap"
)

// Params are the Verilog parameters of an instance.
type Params struct {
	Conns, Paths, MTU, DataWidth int
}

// Param returns the value of the Verilog parameter name.
func (p Params) Param(name string) (int, error) {
	switch name {
	case "CONNS":
		return p.Conns, nil
	case "PATHS":
		return p.Paths, nil
	case "MTU":
		return p.MTU, nil
	case "DATA_WIDTH":
		return p.DataWidth, nil
	}
	return 0, fmt.Errorf("nicrocecsr: no parameter %s", name)
}

// Reg is a decoded address: the register, its block, the connection (window) and its index in the block.
type Reg struct {
	Reg   *regmap.Register
	Block *regmap.Block
	Conn  int
	Index int
}

// Decode returns the register at byte address a of an instance of p, or false for an unknown or unaligned
// address (a hole, beyond a block, a window entry c >= Conns).
func Decode(m *regmap.Map, p Params, a uint32) (Reg, bool) {
	if a%4 != 0 {
		return Reg{}, false
	}
	for bi := range m.Blocks {
		b := &m.Blocks[bi]
		off, conn := a-b.Base, 0
		if a < b.Base {
			continue
		}
		if b.Stride != 0 {
			if off >= b.Stride*uint32(p.Conns) {
				continue
			}
			conn, off = int(off/b.Stride), off%b.Stride
		}
		for ri := range b.Registers {
			if b.Registers[ri].Offset == off {
				return Reg{Reg: &b.Registers[ri], Block: b, Conn: conn, Index: ri}, true
			}
		}
	}
	return Reg{}, false
}

// find returns the register called name and its block.
func find(m *regmap.Map, name string) (*regmap.Register, *regmap.Block, error) {
	for bi := range m.Blocks {
		for ri := range m.Blocks[bi].Registers {
			if m.Blocks[bi].Registers[ri].Name == name {
				return &m.Blocks[bi].Registers[ri], &m.Blocks[bi], nil
			}
		}
	}
	return nil, nil, fmt.Errorf("nicrocecsr: register %s not in the map", name)
}

// fieldOf returns the field called name of r.
func fieldOf(r *regmap.Register, name string) (regmap.Field, error) {
	for _, f := range r.Fields {
		if f.Name == name {
			return f, nil
		}
	}
	return regmap.Field{}, fmt.Errorf("nicrocecsr: %s has no field %s", r.Name, name)
}

// get returns field f of word v.
func get(f regmap.Field, v uint32) uint32 {
	return uint32((uint64(v) >> f.Lsb) & (uint64(1)<<f.Width - 1))
}

// Legal reports whether data may be written to r of an instance of p, ignoring the connection state: no bit
// outside the fields, every field of a RW or WO register at a legal value and below its parameter.
func Legal(p Params, r *regmap.Register, data uint32) (bool, error) {
	if data&^r.Mask() != 0 {
		return false, nil
	}
	if r.Access != regmap.RW && r.Access != regmap.WO {
		return r.Access == regmap.W1C, nil
	}
	for _, f := range r.Fields {
		v := get(f, data)
		if !f.Legal(v) {
			return false, nil
		}
		if f.Below != "" {
			n, err := p.Param(f.Below)
			if err != nil {
				return false, err
			}
			if int(v) >= n {
				return false, nil
			}
		}
	}
	return true, nil
}
