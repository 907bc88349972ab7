package coverage

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/require"
)

// tp is a toggle point of file f at instance h.
func tp(f, h, sig string, cnt uint64) Point {
	return Point{File: f, Line: 1, Kind: KindToggle, Module: "m", Comment: sig, Hier: h, Lines: []int{1}, Count: cnt,
		Key: f + h + sig}
}

func TestUnitsMergeEnvironments(t *testing.T) {
	// block env: blk with a RAM below it; endpoint env: top, with blk (and its RAM) below it
	blk := Env{Top: "blk", Config: "default", Points: []Point{
		tp("rtl/blk.v", "TOP.blk", "a[0]", 3),
		tp("rtl/blk.v", "TOP.blk", "a[1]", 0),
		tp("rtl/blk.v", "TOP.blk", "st[9]", 0),
		tp("rtl/ram.v", "TOP.blk.u_ram", "d[0]", 0),
	}}
	top := Env{Top: "top", Config: "default", Points: []Point{
		tp("rtl/top.v", "TOP.top", "x[0]", 1),
		tp("rtl/top.v", "TOP.top", "x[1]", 0),
		tp("rtl/blk.v", "TOP.top.blk_inst", "a[0]", 0),
		tp("rtl/blk.v", "TOP.top.blk_inst", "a[1]", 5), // hit only at the endpoint
		tp("rtl/blk.v", "TOP.top.blk_inst", "st[9]", 0),
		tp("rtl/ram.v", "TOP.top.blk_inst.u_ram", "d[0]", 2),
	}}
	ex := []Exclusion{{File: "rtl/blk.v", Signals: []string{"st"}, Bits: "9", Reason: "r", ranges: [][2]int{{9, 9}}}}
	us, err := Units([]Env{top, blk}, "", ex)
	require.NoError(t, err)
	require.Len(t, us, 3)
	b, r, tt := us[0], us[1], us[2]
	require.Equal(t, "rtl/blk.v", b.File)
	require.Equal(t, []string{"blk", "top"}, b.Tops)
	// the same instance in two environments counts once; a bit toggled in either is covered
	require.Equal(t, newCount(2, 3), b.Toggle)
	require.Equal(t, newCount(2, 2), b.ToggleNet)
	require.Equal(t, 1, b.ToggleExcluded)
	require.Equal(t, "rtl/ram.v", r.File)
	require.Equal(t, newCount(1, 1), r.Toggle)
	require.Equal(t, "rtl/top.v", tt.File)
	require.Equal(t, []string{"top"}, tt.Tops)
	require.Equal(t, newCount(1, 2), tt.ToggleNet)
	require.Len(t, tt.ToggleHoles, 1)
	require.Equal(t, "1", tt.ToggleHoles[0].Bits)

	var buf bytes.Buffer
	Report{Version: Version, Suite: "smoke", Units: us}.PrintSummary(&buf, 10)
	require.Contains(t, buf.String(), "design units")
	require.Contains(t, buf.String(), "blk,top")

	// a different elaboration of blk at the endpoint (a point the block model lacks) cannot be merged
	top2 := top
	top2.Points = append(append([]Point{}, top.Points...), tp("rtl/blk.v", "TOP.top.blk_inst", "a[2]", 1))
	_, err = Units([]Env{top2, blk}, "", nil)
	require.ErrorContains(t, err, "blk is elaborated differently in environments blk (4 points) and top (5 points)")
	require.ErrorContains(t, err, "only in the second: rtl/blk.v v_toggle 1 0 a[2]")

	// two instances of a root module in one environment
	top3 := top
	top3.Points = append(append([]Point{}, top.Points...), tp("rtl/blk.v", "TOP.top.blk_b", "a[0]", 1))
	_, err = Units([]Env{top3, blk}, "", nil)
	require.ErrorContains(t, err, "environment top has two instances of blk")

	// units of different configurations stay apart
	other := blk
	other.Config = "ice40"
	us, err = Units([]Env{blk, other}, "", nil)
	require.NoError(t, err)
	require.Len(t, us, 4)
	require.Equal(t, "default", us[0].Config)
	require.Equal(t, "ice40", us[3].Config)
}

func TestUnitsValidate(t *testing.T) {
	e := []Entry{{Top: "a", Config: "default"}}
	r := Report{Version: Version, Suite: "smoke", Entries: e,
		Units: []Unit{{File: "rtl/a.v", Config: "default"}, {File: "rtl/a.v", Config: "default"}}}
	require.EqualError(t, r.Validate(), "field units[1]: (file rtl/a.v, config default) repeats an earlier unit")
	r.Units = []Unit{{File: "rtl/a.v", Config: "default", Line: Count{Hit: 3, Total: 2}}}
	require.EqualError(t, r.Validate(), "field units[0].line: hit 3, total 2 (allowed: 0 <= hit <= total)")
}
