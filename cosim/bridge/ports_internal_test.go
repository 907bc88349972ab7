package bridge

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"
)

// netlistXML returns a --xml-only document (as Verilator 5.006 writes it) with the given variables of top module t
// and type table entries.
func netlistXML(vars, types string) []byte {
	return []byte(fmt.Sprintf(`<?xml version="1.0" ?>
<verilator_xml>
  <files>
    <file id="a" filename="&lt;built-in&gt;" language="1800-2017"/>
    <file id="c" filename="/src/t.v" language="1800-2017"/>
  </files>
  <netlist>
    <module loc="c,1,8,1,9" name="sub" origName="sub">
      <var loc="c,2,1,2,2" name="x" dtype_id="1" dir="input" pinIndex="1" vartype="logic" origName="x"/>
    </module>
    <module loc="c,1,8,1,9" name="t" origName="t" topModule="1">
      <var loc="c,1,1,1,1" name="P" dtype_id="9" vartype="logic" origName="P" param="true">
        <const loc="c,1,1,1,1" name="32&apos;h46" dtype_id="9"/>
      </var>
      %s
    </module>
    <typetable loc="a,0,0,0,0">
      <basicdtype loc="c,1,1,1,1" id="1" name="logic"/>
      <basicdtype loc="c,1,1,1,1" id="9" name="logic" left="31" right="0" signed="true"/>
      %s
    </typetable>
  </netlist>
</verilator_xml>
`, vars, types))
}

// clk is the clock variable of the test documents.
const clk = `<var name="clk" dtype_id="1" dir="input" pinIndex="1" vartype="logic"/>`

func TestParsePorts(t *testing.T) {
	tests := []struct {
		name  string
		vars  string
		types string
		want  []Port
		err   string
	}{
		{
			name: "widths, directions and pin order",
			vars: `<var name="b" dtype_id="3" dir="output" pinIndex="4" vartype="logic"/>` + clk +
				`<var name="a" dtype_id="2" dir="input" pinIndex="2" vartype="logic"/>` +
				`<var name="one" dtype_id="1" dir="input" pinIndex="3" vartype="logic"/>` +
				`<var name="state_reg" dtype_id="2" vartype="logic"/>`,
			types: `<basicdtype id="2" name="logic" left="69" right="0"/>` +
				`<basicdtype id="3" name="logic" left="0" right="5"/>`,
			want: []Port{
				{Name: "a", Dir: In, Width: 70},
				{Name: "one", Dir: In, Width: 1},
				{Name: "b", Dir: Out, Width: 6},
			},
		},
		{
			name: "integer and a type reference",
			vars: clk + `<var name="i" dtype_id="2" dir="input" pinIndex="2"/>` +
				`<var name="r" dtype_id="4" dir="output" pinIndex="3"/>`,
			types: `<basicdtype id="2" name="integer" left="31" right="0" signed="true"/>` +
				`<refdtype id="4" name="t_word" sub_dtype_id="5"/>` +
				`<basicdtype id="5" name="logic" left="15" right="0"/>`,
			want: []Port{{Name: "i", Dir: In, Width: 32}, {Name: "r", Dir: Out, Width: 16}},
		},
		{
			name: "unpacked array",
			vars: clk + `<var name="arr" dtype_id="2" dir="input" pinIndex="2"/>`,
			types: `<unpackarraydtype id="2" sub_dtype_id="3"><const name="32'sh0" dtype_id="9"/></unpackarraydtype>` +
				`<basicdtype id="3" name="logic" left="7" right="0"/>`,
			err: "port arr: type unpackarraydtype is not supported",
		},
		{
			name:  "real",
			vars:  clk + `<var name="x" dtype_id="2" dir="input" pinIndex="2"/>`,
			types: `<basicdtype id="2" name="real"/>`,
			err:   "port x: type real is not supported",
		},
		{
			name: "missing type",
			vars: clk + `<var name="x" dtype_id="7" dir="input" pinIndex="2"/>`,
			err:  "port x: type 7 not in the type table",
		},
		{
			name: "double underscore",
			vars: clk + `<var name="a__b" dtype_id="1" dir="input" pinIndex="2"/>`,
			err:  "port a__b: not a plain identifier",
		},
		{
			name: "no clock",
			vars: `<var name="a" dtype_id="1" dir="input" pinIndex="1"/>`,
			err:  "no 1-bit input clk",
		},
		{
			name: "output clock",
			vars: `<var name="clk" dtype_id="1" dir="output" pinIndex="1"/>`,
			err:  "port clk: must be a 1-bit input, is a 1-bit output",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ports, files, err := parsePorts(netlistXML(tc.vars, tc.types), "t")
			if tc.err != "" {
				require.ErrorContains(t, err, tc.err)
				return
			}
			require.NoError(t, err)
			require.Equal(t, tc.want, ports, "ports")
			require.Equal(t, []string{"/src/t.v"}, files, "files read")
		})
	}
	_, _, err := parsePorts(netlistXML(clk, ""), "other")
	require.ErrorIs(t, err, errNoTop)
	_, _, err = parsePorts([]byte("<verilator_xml><netlist>"), "t")
	require.ErrorContains(t, err, "verilator's XML output")
}

func TestShimMasks(t *testing.T) {
	d := newShimData(Spec{Top: "t", Variant: Plain}, []Port{
		{Name: "a", Dir: In, Width: 1}, {Name: "b", Dir: In, Width: 32}, {Name: "c", Dir: In, Width: 33},
		{Name: "d", Dir: Out, Width: 64}, {Name: "e", Dir: In, Width: 65}, {Name: "f", Dir: Out, Width: 100},
	})
	type layout struct {
		Kind, Mask string
		Offset     int
	}
	var got []layout
	for _, p := range d.Ports {
		got = append(got, layout{Kind: p.Kind, Mask: p.Mask, Offset: p.Offset})
	}
	require.Equal(t, []layout{
		{Kind: "C", Mask: "0x1U", Offset: 0},
		{Kind: "I", Mask: "0xffffffffU", Offset: 1},
		{Kind: "Q", Mask: "0x1U", Offset: 2},
		{Kind: "Q", Mask: "0xffffffffU", Offset: 0},
		{Kind: "W", Mask: "0x1U", Offset: 4},
		{Kind: "W", Mask: "0xfU", Offset: 2},
	}, got, "storage class, last-word mask and word offset of each port")
	require.Equal(t, 7, d.InWords, "input words")
	require.Equal(t, 6, d.OutWords, "output words")
}
