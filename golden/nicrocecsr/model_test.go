package nicrocecsr_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/spraynic/spraynic/golden/nicrocecsr"
	"github.com/spraynic/spraynic/regmap"
)

// bus runs one transaction on md with BREADY and RREADY high and returns its response and read data.
func bus(t *testing.T, md *nicrocecsr.Model, in nicrocecsr.In) (uint8, uint32) {
	t.Helper()
	in.BReady, in.RReady = true, true
	require.NoError(t, md.Step(in))
	for i := 0; i < 4; i++ {
		o := md.Out()
		if o.BValid && in.AWValid || o.RValid && in.ARValid {
			require.NoError(t, md.Step(nicrocecsr.In{BReady: true, RReady: true}))
			if in.AWValid {
				return o.BResp, 0
			}
			return o.RResp, o.RData
		}
		require.NoError(t, md.Step(nicrocecsr.In{BReady: true, RReady: true}))
	}
	t.Fatal("no response")
	return 0, 0
}

func TestModel(t *testing.T) {
	p := nicrocecsr.Params{Conns: 4, Paths: 4, MTU: 1024, DataWidth: 64}
	md, err := nicrocecsr.New(p)
	require.NoError(t, err)
	m := regmap.NicRoCE()
	at := func(name string) uint32 {
		for _, b := range m.Blocks {
			for _, r := range b.Registers {
				if r.Name == name {
					return b.Base + r.Offset
				}
			}
		}
		t.Fatalf("no register %s", name)
		return 0
	}
	wr := func(a, d uint32, strb uint8) uint8 {
		resp, _ := bus(t, md, nicrocecsr.In{AWValid: true, AWAddr: a, WValid: true, WData: d, WStrb: strb})
		return resp
	}
	rd := func(a uint32) (uint8, uint32) { return bus(t, md, nicrocecsr.In{ARValid: true, ARAddr: a}) }
	require.Equal(t, uint8(nicrocecsr.OKAY), wr(at("LOCAL_IP"), 0x0A000001, 0xF))
	resp, v := rd(at("LOCAL_IP"))
	require.Equal(t, [2]uint32{nicrocecsr.OKAY, 0x0A000001}, [2]uint32{uint32(resp), v})
	require.Equal(t, uint8(nicrocecsr.SLVERR), wr(at("LOCAL_IP"), 0, 0x3), "partial WSTRB")
	require.Equal(t, uint8(nicrocecsr.SLVERR), wr(at("ID"), 0, 0xF), "RO write")
	require.Equal(t, uint8(nicrocecsr.SLVERR), wr(at("IP_TOS"), 0, 0xF), "TTL 0")
	resp, v = rd(at("IP_TOS"))
	require.Equal(t, [2]uint32{nicrocecsr.OKAY, m.Blocks[0].Registers[len(m.Blocks[0].Registers)-1].Reset()},
		[2]uint32{uint32(resp), v})
	resp, _ = rd(0x1000 + 0x20*uint32(p.Conns))
	require.Equal(t, uint8(nicrocecsr.SLVERR), resp, "entry CONNS")
	require.True(t, md.Out().Enable == false)
}
