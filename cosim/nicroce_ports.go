package cosim

import (
	"fmt"
	"reflect"
	"strings"

	"github.com/spraynic/spraynic/cosim/bridge"
	"github.com/spraynic/spraynic/golden/nicroce"
	"github.com/spraynic/spraynic/golden/wide"
)

// nrLeaf is one port of nic_roce_tb bound to a scalar inside nicroce.TopIn or TopOut.
type nrLeaf struct {
	// name is the port name; index the reflect field path from the struct root; elem an array index or -1.
	name  string
	index []int
	elem  int
	// width, word and words place the port in the model's packed buffer; valid is the qualifying port's leaf
	// index among the compared outputs, or -1.
	width, word, words int
	valid              int
}

// nrLeaves lists the ports of a twin port struct from its tags (one field per port); an untagged struct field is
// walked.
func nrLeaves(typ reflect.Type, prefix []int) ([]nrLeaf, error) {
	var ls []nrLeaf
	for i := 0; i < typ.NumField(); i++ {
		f := typ.Field(i)
		idx := append(append([]int(nil), prefix...), i)
		v, ok := f.Tag.Lookup("port")
		if !ok {
			if f.Type.Kind() != reflect.Struct {
				return nil, fmt.Errorf("%s.%s: no port tag", typ.Name(), f.Name)
			}
			sub, err := nrLeaves(f.Type, idx)
			if err != nil {
				return nil, err
			}
			ls = append(ls, sub...)
			continue
		}
		name, _, _ := strings.Cut(v, ",")
		ls = append(ls, nrLeaf{name: name, index: idx, elem: -1})
	}
	return ls, nil
}

// nrPorts binds the model's ports to the twin's structs: ins are the model's inputs (top-level TopIn fields),
// blocks the model outputs that are TopIn fields (roce_rx and roce_tx outputs), outs the compared outputs
// (TopOut), each in the model's port order.
type nrPorts struct {
	ins, blocks, outs []nrLeaf
	// zero are the twin's outputs without a port (the tuser of a stream the RTL has no tuser on): they must
	// stay 0.
	zero              []nrLeaf
	inWords, outWords int
}

// newNrPorts binds every port of the model; a port without a twin field, or a twin field without a port, is an
// error, except the tuser of a Beat (a stream without tuser: an input held 0, an output that must be 0).
func newNrPorts(ports []bridge.Port) (*nrPorts, error) {
	inL, err := nrLeaves(typeOf[nicroce.TopIn](), nil)
	if err != nil {
		return nil, err
	}
	outL, err := nrLeaves(typeOf[nicroce.TopOut](), nil)
	if err != nil {
		return nil, err
	}
	inBy, outBy := map[string]nrLeaf{}, map[string]nrLeaf{}
	for _, l := range inL {
		inBy[l.name] = l
	}
	for _, l := range outL {
		outBy[l.name] = l
	}
	p := &nrPorts{}
	for _, mp := range ports {
		if mp.Dir == bridge.In {
			l, ok := inBy[mp.Name]
			if !ok {
				return nil, fmt.Errorf("nic_roce_tb input %s has no field in nicroce.TopIn", mp.Name)
			}
			delete(inBy, mp.Name)
			l.width, l.word, l.words, l.valid = mp.Width, p.inWords, mp.Words(), -1
			p.inWords += l.words
			p.ins = append(p.ins, l)
			continue
		}
		l, inOK := inBy[mp.Name]
		if inOK {
			delete(inBy, mp.Name)
		} else if l, inOK = outBy[mp.Name]; inOK {
			delete(outBy, mp.Name)
			inOK = false
		} else {
			return nil, fmt.Errorf("nic_roce_tb output %s has no field in nicroce.TopIn or TopOut", mp.Name)
		}
		l.width, l.word, l.words, l.valid = mp.Width, p.outWords, mp.Words(), -1
		p.outWords += l.words
		if inOK {
			p.blocks = append(p.blocks, l)
		} else {
			p.outs = append(p.outs, l)
		}
	}
	for name := range inBy {
		if !strings.HasSuffix(name, "_tuser") {
			return nil, fmt.Errorf("nicroce.TopIn port %s is not a port of nic_roce_tb", name)
		}
	}
	for name, l := range outBy {
		if !strings.HasSuffix(name, "_tuser") {
			return nil, fmt.Errorf("nicroce.TopOut port %s is not a port of nic_roce_tb", name)
		}
		p.zero = append(p.zero, l)
	}
	p.qualify()
	return p, nil
}

// qualify sets each compared output's valid: a stream's data by <stream>_tvalid, a bundle's fields by
// <bundle>_valid (the table write by tbl_wr_en), AXI4-Lite read data and response by rvalid, bresp by bvalid.
// Readies and valids are compared every cycle.
func (p *nrPorts) qualify() {
	idx := map[string]int{}
	for i, l := range p.outs {
		idx[l.name] = i
	}
	for i := range p.outs {
		n := p.outs[i].name
		var cands []string
		switch {
		case n == "s_axil_rdata" || n == "s_axil_rresp":
			cands = []string{"s_axil_rvalid"}
		case n == "s_axil_bresp":
			cands = []string{"s_axil_bvalid"}
		default:
			// Every prefix ending at an underscore, longest first: tx_s_pkt_ack_req is qualified by tx_s_pkt_valid.
			for k := strings.LastIndex(n, "_"); k > 0; k = strings.LastIndex(n[:k], "_") {
				b := n[:k+1]
				cands = append(cands, b+"tvalid", b+"valid", b+"en")
			}
		}
		for _, c := range cands {
			if j, ok := idx[c]; ok && j != i {
				p.outs[i].valid = j
				break
			}
		}
	}
}

// nrField is the reflect value of leaf l inside root.
func nrField(root reflect.Value, l *nrLeaf) reflect.Value {
	v := root.FieldByIndex(l.index)
	if l.elem >= 0 {
		v = v.Index(l.elem)
	}
	return v
}

// put writes the value of v into words (l.words words), masked to l.width bits.
func (l *nrLeaf) put(v reflect.Value, words []uint32) {
	for w := range words[:l.words] {
		words[w] = 0
	}
	switch v.Kind() {
	case reflect.Bool:
		if v.Bool() {
			words[0] = 1
		}
	case reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		x := v.Uint()
		for w := 0; w < l.words && w < 2; w++ {
			words[w] = uint32(x >> (32 * w))
		}
	case reflect.Array:
		if v.Type() == reflect.TypeOf(wide.Vec{}) {
			vec := v.Interface().(wide.Vec)
			for w := 0; w < l.words; w++ {
				words[w] = uint32(vec[w/2] >> (32 * uint(w&1)))
			}
			break
		}
		for i := 0; i < v.Len() && i/4 < l.words; i++ {
			words[i/4] |= uint32(v.Index(i).Uint()) << (8 * (i % 4))
		}
	}
	if r := l.width % 32; r != 0 {
		words[l.words-1] &= 1<<uint(r) - 1
	}
}

// get sets v from words.
func (l *nrLeaf) get(words []uint32, v reflect.Value) {
	switch v.Kind() {
	case reflect.Bool:
		v.SetBool(words[0]&1 == 1)
	case reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		x := uint64(words[0])
		if l.words > 1 {
			x |= uint64(words[1]) << 32
		}
		v.SetUint(x)
	case reflect.Array:
		if v.Type() == reflect.TypeOf(wide.Vec{}) {
			var vec wide.Vec
			for w := 0; w < l.words; w++ {
				vec[w/2] |= uint64(words[w]) << (32 * uint(w&1))
			}
			v.Set(reflect.ValueOf(vec))
			return
		}
		for i := 0; i < v.Len(); i++ {
			b := byte(0)
			if i/4 < l.words {
				b = byte(words[i/4] >> (8 * (i % 4)))
			}
			v.Index(i).SetUint(uint64(b))
		}
	}
}

// packIn packs the model's inputs from in.
func (p *nrPorts) packIn(in *nicroce.TopIn, words []uint32) {
	root := reflect.ValueOf(in).Elem()
	for i := range p.ins {
		l := &p.ins[i]
		l.put(nrField(root, l), words[l.word:])
	}
}

// unpack reads the model's outputs into the block outputs of in and into out.
func (p *nrPorts) unpack(words []uint32, in *nicroce.TopIn, out *nicroce.TopOut) {
	ri, ro := reflect.ValueOf(in).Elem(), reflect.ValueOf(out).Elem()
	for i := range p.blocks {
		l := &p.blocks[i]
		l.get(words[l.word:], nrField(ri, l))
	}
	for i := range p.outs {
		l := &p.outs[i]
		l.get(words[l.word:], nrField(ro, l))
	}
}

// diff compares the twin's outputs want with the model's packed outputs got, port by port (a qualified port
// only while its valid is high in the twin); it returns the first differing port's name and both values.
func (p *nrPorts) diff(want *nicroce.TopOut, got []uint32, skip func(string) bool) (port, w, g string, ok bool) {
	wv := reflect.ValueOf(want).Elem()
	for i := range p.zero {
		if v := nrField(wv, &p.zero[i]); v.Bool() {
			return p.zero[i].name + " (no RTL port)", "1", "0", false
		}
	}
	buf := make([]uint32, p.outWords)
	for i := range p.outs {
		l := &p.outs[i]
		l.put(nrField(wv, l), buf[l.word:])
	}
	for i := range p.outs {
		l := &p.outs[i]
		if l.valid >= 0 && buf[p.outs[l.valid].word] == 0 || skip(l.name) {
			continue
		}
		for k := 0; k < l.words; k++ {
			if buf[l.word+k] != got[l.word+k] {
				return l.name, hexWords(buf[l.word : l.word+l.words]), hexWords(got[l.word : l.word+l.words]), false
			}
		}
	}
	return "", "", "", true
}

func hexWords(ws []uint32) string {
	var b strings.Builder
	b.WriteString("0x")
	for i := len(ws) - 1; i >= 0; i-- {
		if i == len(ws)-1 {
			fmt.Fprintf(&b, "%x", ws[i])
		} else {
			fmt.Fprintf(&b, "%08x", ws[i])
		}
	}
	return b.String()
}
