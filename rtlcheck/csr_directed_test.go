package rtlcheck_test

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/spraynic/spraynic/golden/nicrocecsr"
	"github.com/spraynic/spraynic/regmap"
)

// csrOp is one transaction of the directed check and its expected answer (rdata for a read).
type csrOp struct {
	write      bool
	addr, data uint32
	strb       uint8
	resp       uint8
	rdata      uint32
	ev         uint32 // EVENTS bits set by ev_set in a cycle before the transaction
	what       string
}

const (
	respOK  = 0
	respErr = 2
)

// dirParam returns the instance's value of the Verilog parameter name.
func dirParam(p nicrocecsr.Params, name string) uint32 {
	return uint32(map[string]int{"CONNS": p.Conns, "PATHS": p.Paths, "MTU": p.MTU, "DATA_WIDTH": p.DataWidth}[name])
}

// dirReset is what a read of r returns after reset with every input word 0.
func dirReset(p nicrocecsr.Params, r regmap.Register) uint32 {
	if r.Access == regmap.WO || r.Source != "" {
		return 0
	}
	var v uint32
	for _, f := range r.Fields {
		x := f.Reset
		if f.ResetParam != "" {
			x = dirParam(p, f.ResetParam)
		}
		v |= x << f.Lsb
	}
	return v & r.Mask()
}

// dirLegal reports whether v is a legal value of f, the Below rule included.
func dirLegal(p nicrocecsr.Params, f regmap.Field, v uint32) bool {
	return f.Legal(v) && (f.Below == "" || v < dirParam(p, f.Below))
}

// dirIllegal returns values of f's width that are not legal: around the range, the list and the parameter.
func dirIllegal(p nicrocecsr.Params, f regmap.Field) []uint32 {
	top := uint32(uint64(1)<<f.Width - 1)
	cands := []uint32{0, 1, 2, 3, f.Min - 1, f.Max + 1, top, top - 1}
	if f.Below != "" {
		cands = append(cands, dirParam(p, f.Below), dirParam(p, f.Below)+1)
	}
	seen := map[uint32]bool{}
	var out []uint32
	for _, v := range cands {
		if v <= top && !seen[v] && !dirLegal(p, f, v) {
			out = append(out, v)
		}
		seen[v] = true
	}
	return out
}

// csrDirected returns the directed transactions for an instance of p: for every register (entries 0 and
// CONNS-1 of the window) its reset value, RO writes refused, every field's illegal values refused, bits
// outside the fields refused, partial WSTRB refused, a legal write read back; unknown and unaligned
// addresses; the closed-only rules around an open.
func csrDirected(t *testing.T, m *regmap.Map, p nicrocecsr.Params) []csrOp {
	var ops []csrOp
	for _, b := range m.Blocks {
		entries := []int{0}
		if b.Stride != 0 {
			entries = []int{0, p.Conns - 1}
		}
		for _, c := range entries {
			for _, r := range b.Registers {
				a := b.Base + b.Stride*uint32(c) + r.Offset
				ops = append(ops, registerOps(p, r, a, fmt.Sprintf("%s[%d]", r.Name, c))...)
			}
		}
	}
	conn := m.Blocks[len(m.Blocks)-1]
	require.NotZero(t, conn.Stride, "the last block is the connection window")
	for _, a := range []uint32{conn.Base + conn.Stride*uint32(p.Conns), 0x1C, 0x30, 0x7C, 0x90, 0xFC, 0x1A4, 0xFFC,
		0xFFFC, 1, 2, 3, conn.Base + 6} {
		if d, ok := nicrocecsr.Decode(m, p, a&^3); ok && a%4 == 0 {
			t.Fatalf("0x%x is not unknown: %s", a, d.Reg.Name)
		}
		what := fmt.Sprintf("unknown 0x%04x", a)
		ops = append(ops, csrOp{addr: a, resp: respErr, what: what},
			csrOp{write: true, addr: a, strb: 0xF, resp: respErr, what: what})
	}
	return append(ops, openOps(p, conn)...)
}

// registerOps returns the directed transactions of register r at address a.
func registerOps(p nicrocecsr.Params, r regmap.Register, a uint32, what string) []csrOp {
	rv := dirReset(p, r)
	rd := csrOp{addr: a, rdata: rv, resp: respOK, what: what + " reads its reset value"}
	wr := func(d uint32, strb, resp uint8, why string) csrOp {
		return csrOp{write: true, addr: a, data: d, strb: strb, resp: resp, what: what + " " + why}
	}
	ops := []csrOp{rd}
	switch r.Access {
	case regmap.RO:
		ops = append(ops, wr(0xFFFFFFFF, 0xF, respErr, "RO write of all ones"), rd,
			wr(^rv, 0xF, respErr, "RO write of ^reset"), rd, wr(rv, 0xF, respErr, "RO write of its value"),
			wr(0, 0xF, respErr, "RO write of 0"), rd)
	case regmap.RW, regmap.WO:
		for _, f := range r.Fields {
			fm := uint32((uint64(1)<<f.Width - 1) << f.Lsb)
			for _, v := range dirIllegal(p, f) {
				ops = append(ops, wr(rv&^fm|v<<f.Lsb, 0xF, respErr, fmt.Sprintf("field %s = %d", f.Name, v)), rd)
			}
		}
	case regmap.W1C:
		ops = append(ops, wr(r.Mask(), 0xF, respOK, "W1C write of every bit"), rd)
		for _, f := range r.Fields {
			bit := uint32(1) << f.Lsb
			set := wr(bit, 0xF, respOK, "W1C clear of "+f.Name+" with every bit set")
			set.ev = r.Mask()
			left := rd
			left.rdata, left.what = r.Mask()&^bit, what+" keeps every bit but "+f.Name
			ops = append(ops, set, left, wr(r.Mask(), 0xF, respOK, "W1C clear of every bit"), rd)
		}
	}
	if r.Mask() != 0xFFFFFFFF {
		out := ^r.Mask() & -^r.Mask()
		ops = append(ops, wr(rv|out, 0xF, respErr, fmt.Sprintf("bit outside fields 0x%x", out)), rd)
	}
	if r.Access == regmap.RW {
		x := rv ^ 1<<r.Fields[0].Lsb
		ok := true
		for _, f := range r.Fields {
			ok = ok && dirLegal(p, f, uint32((uint64(x)>>f.Lsb)&(uint64(1)<<f.Width-1)))
		}
		if ok {
			back := rd
			back.rdata, back.what = x, what+" reads a legal write back"
			ops = append(ops, wr(x, 0x7, respErr, "WSTRB 0x7"), rd, wr(x, 0xE, respErr, "WSTRB 0xE"), rd,
				wr(x, 0xF, respOK, "legal write"), back, wr(rv, 0xF, respOK, "legal write of the reset value"), rd)
		}
	}
	return ops
}

// openOps returns the closed-only rules around an open of the last connection.
func openOps(p nicrocecsr.Params, conn regmap.Block) []csrOp {
	c := uint32(p.Conns - 1)
	var cmd, status regmap.Register
	for _, r := range conn.Registers {
		switch {
		case r.Access == regmap.WO:
			cmd = r
		case r.Access == regmap.RO:
			status = r
		}
	}
	at := func(r regmap.Register) uint32 { return conn.Base + conn.Stride*c + r.Offset }
	open, closeCmd := cmd.Fields[0].Values[0], cmd.Fields[0].Values[1]
	st := func(v uint32, why string) csrOp {
		return csrOp{addr: at(status), rdata: v << status.Fields[0].Lsb, resp: respOK, what: "CONN_STATUS " + why}
	}
	w := func(d uint32, resp uint8, why string) csrOp {
		return csrOp{write: true, addr: at(cmd), data: d << cmd.Fields[0].Lsb, strb: 0xF, resp: resp, what: why}
	}
	ops := []csrOp{w(open, respOK, "open"), st(1, "after open")}
	for _, r := range conn.Registers {
		if r.LockedOpen {
			rv := dirReset(p, r)
			ops = append(ops, csrOp{write: true, addr: at(r), data: rv, strb: 0xF, resp: respErr,
				what: r.Name + " written while open"},
				csrOp{addr: at(r), rdata: rv, resp: respOK, what: r.Name + " unchanged after a refused write"})
		}
	}
	return append(ops, w(open, respErr, "open of an open connection"), st(1, "after a refused open"),
		w(closeCmd, respOK, "close"), st(0, "after close"), w(closeCmd, respOK, "close of a closed connection"),
		st(0, "after a second close"))
}

// directedSteps turns ops into testbench steps: reset, then each transaction alone (a write 4 cycles, a read
// 3), BREADY and RREADY always high, every other input 0.
func directedSteps(p nicrocecsr.Params, ops []csrOp) []csrStep {
	steps := []csrStep{{in: nicrocecsr.In{Rst: true}}, {in: nicrocecsr.In{Rst: true}}}
	idle := csrStep{in: nicrocecsr.In{BReady: true, RReady: true}}
	for _, op := range ops {
		if op.ev != 0 {
			ev := idle
			ev.in.EvSet = op.ev
			steps = append(steps, ev)
		}
		s := idle
		if op.write {
			s.in.AWValid, s.in.AWAddr, s.in.WValid, s.in.WData, s.in.WStrb = true, op.addr, true, op.data, op.strb
			steps = append(steps, s, idle, idle, idle)
			continue
		}
		s.in.ARValid, s.in.ARAddr = true, op.addr
		steps = append(steps, s, idle, idle)
	}
	_ = p
	return steps
}

// checkDirected compares the RTL's responses in lines (the testbench's output) with ops, in order.
func checkDirected(t *testing.T, p nicrocecsr.Params, ops []csrOp, lines []string) {
	type resp struct{ resp, data uint64 }
	var bs, rs []resp
	for _, l := range lines {
		f := strings.Fields(l)
		if f[2] == "1" {
			v, _ := strconv.ParseUint(f[3], 16, 8)
			bs = append(bs, resp{resp: v})
		}
		if f[5] == "1" {
			d, _ := strconv.ParseUint(f[6], 16, 32)
			v, _ := strconv.ParseUint(f[7], 16, 8)
			rs = append(rs, resp{resp: v, data: d})
		}
	}
	for _, op := range ops {
		if op.write {
			require.NotEmpty(t, bs, "%s: no write response", op.what)
			require.Equal(t, uint64(op.resp), bs[0].resp, "%s (write 0x%08x strb %x to 0x%04x): BRESP",
				op.what, op.data, op.strb, op.addr)
			bs = bs[1:]
			continue
		}
		require.NotEmpty(t, rs, "%s: no read response", op.what)
		require.Equal(t, resp{resp: uint64(op.resp), data: uint64(op.rdata)}, rs[0],
			"%s (read 0x%04x): RRESP, RDATA (CONNS %d)", op.what, op.addr, p.Conns)
		rs = rs[1:]
	}
	require.Empty(t, bs, "write responses left over")
	require.Empty(t, rs, "read responses left over")
}
