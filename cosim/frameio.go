package cosim

import (
	"fmt"
	"math/big"

	"github.com/spraynic/spraynic/cosim/bridge"
)

// rxSlot is where one port sits in a cycle's packed words: its first word and its width, bits.
type rxSlot struct {
	word, width int
}

// roceRXPorts maps roce_rx's ports onto the packed words of one cycle (docs/roce_rx.md, "Ports").
type roceRXPorts struct {
	in, out           map[string]rxSlot
	inWords, outWords int
}

// rxInputs and rxOutputs are the ports the frame replay drives and reads.
var (
	rxInputs = []string{"rst", "s_axis_tdata", "s_axis_tkeep", "s_axis_tvalid", "s_axis_tlast", "s_axis_tuser",
		"m_axis_tready", "m_rx_ready", "m_ack_ready"}
	rxOutputs = []string{"s_axis_tready", "m_axis_tdata", "m_axis_tkeep", "m_axis_tvalid", "m_axis_tlast",
		"m_rx_valid", "m_ack_valid", "cnt_data", "cnt_ack", "cnt_not_roce", "cnt_truncated", "cnt_invalid",
		"cnt_unknown_opcode", "cnt_bad_icrc", "cnt_limit", "cnt_mac_error"}
)

// newRoceRXPorts lays out the ports of a roce_rx model of width bits and checks that it has every port the replay
// uses, with the bus width asked for.
func newRoceRXPorts(ports []bridge.Port, width int) (*roceRXPorts, error) {
	p := &roceRXPorts{in: map[string]rxSlot{}, out: map[string]rxSlot{}}
	for _, q := range ports {
		if q.Dir == bridge.In {
			p.in[q.Name], p.inWords = rxSlot{word: p.inWords, width: q.Width}, p.inWords+q.Words()
		} else {
			p.out[q.Name], p.outWords = rxSlot{word: p.outWords, width: q.Width}, p.outWords+q.Words()
		}
	}
	for _, names := range []struct {
		m     map[string]rxSlot
		names []string
	}{{m: p.in, names: rxInputs}, {m: p.out, names: rxOutputs}} {
		for _, n := range names.names {
			if _, ok := names.m[n]; !ok {
				return nil, fmt.Errorf("roce_rx model: no port %s", n)
			}
		}
	}
	if w := p.in["s_axis_tdata"].width; w != width {
		return nil, fmt.Errorf("roce_rx model: s_axis_tdata is %d bits, want %d", w, width)
	}
	return p, nil
}

// set writes v into the input port name of one cycle's words w.
func (p *roceRXPorts) set(w []uint32, name string, v uint32) { w[p.in[name].word] = v }

// setBytes writes b into the input port name, byte i in bits 8i+7..8i, the rest 0.
func (p *roceRXPorts) setBytes(w []uint32, name string, b []byte) {
	s := p.in[name]
	ws := w[s.word : s.word+(s.width+31)/32]
	clear(ws)
	for i, c := range b {
		ws[i/4] |= uint32(c) << (8 * (i % 4))
	}
}

// get reads the output port name (at most 32 bits) of one cycle's words w.
func (p *roceRXPorts) get(w []uint32, name string) uint32 { return w[p.out[name].word] }

// bit reads the 1-bit output port name.
func (p *roceRXPorts) bit(w []uint32, name string) bool { return w[p.out[name].word]&1 == 1 }

// hex reads the output port name, of any width, in hex without leading zeros.
func (p *roceRXPorts) hex(w []uint32, name string) string {
	s := p.out[name]
	v := new(big.Int)
	for i := (s.width+31)/32 - 1; i >= 0; i-- {
		v.Lsh(v, 32)
		v.Or(v, big.NewInt(int64(w[s.word+i])))
	}
	return v.Text(16)
}

// bytes reads the output port name as bytes, byte i from bits 8i+7..8i.
func (p *roceRXPorts) bytes(w []uint32, name string) []byte {
	s := p.out[name]
	b := make([]byte, s.width/8)
	for i := range b {
		b[i] = byte(w[s.word+i/4] >> (8 * (i % 4)))
	}
	return b
}
