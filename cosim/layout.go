package cosim

import (
	"fmt"
	"reflect"
	"strings"
	"unsafe"

	"github.com/spraynic/spraynic/cosim/bridge"
	"github.com/spraynic/spraynic/golden/wide"
)

// fieldKind is how a port's Go field is stored.
type fieldKind int

const (
	kindInvalid fieldKind = iota
	kindBool
	kindUint32
	kindWide
)

// portField ties one port to one field of a golden In or Out struct.
type portField struct {
	// name is the Verilog port name.
	name string
	// kind is the Go field's storage.
	kind fieldKind
	// off is the field's byte offset in its struct.
	off uintptr
	// width is the port width in bits.
	width int
	// word is the port's first word in the packed buffer; words its word count.
	word, words int
	// valid is the index (in the same layout) of the valid port that qualifies this one, or -1.
	valid int
}

// Layout maps a golden model's port struct onto the packed word buffer of the Verilator model.
type Layout struct {
	// typ is the struct type.
	typ reflect.Type
	// fields lists the ports in the model's port order.
	fields []portField
	// words is the packed size of one cycle.
	words int
}

// ExpectedPorts derives the ports a golden model expects from the `port:"name,class"` tags of its In and Out
// struct types, with widths from the class table.
func ExpectedPorts(in, out reflect.Type, widths map[string]int) ([]bridge.Port, error) {
	var ports []bridge.Port
	for _, t := range []struct {
		typ reflect.Type
		dir bridge.Dir
	}{{in, bridge.In}, {out, bridge.Out}} {
		for i := 0; i < t.typ.NumField(); i++ {
			name, class, err := tag(t.typ.Field(i))
			if err != nil {
				return nil, err
			}
			w, ok := widths[class]
			if !ok {
				return nil, fmt.Errorf("%s.%s: unknown width class %q", t.typ.Name(), t.typ.Field(i).Name, class)
			}
			ports = append(ports, bridge.Port{Name: name, Dir: t.dir, Width: w})
		}
	}
	return ports, nil
}

func tag(f reflect.StructField) (name, class string, err error) {
	v, ok := f.Tag.Lookup("port")
	if !ok {
		return "", "", fmt.Errorf("field %s has no port tag", f.Name)
	}
	name, class, ok = strings.Cut(v, ",")
	if !ok {
		return "", "", fmt.Errorf("field %s: port tag %q is not \"name,class\"", f.Name, v)
	}
	return name, class, nil
}

// NewLayout builds the layout of struct type typ over the model ports of direction dir. validOf names, for a
// port, the valid port that qualifies its comparison ("" for none). The struct must have exactly one field per
// model port of that direction (CheckPorts has normally said so already; this repeats it for safety).
func NewLayout(typ reflect.Type, ports []bridge.Port, dir bridge.Dir, validOf func(string) string) (*Layout, error) {
	byName := map[string]reflect.StructField{}
	for i := 0; i < typ.NumField(); i++ {
		name, _, err := tag(typ.Field(i))
		if err != nil {
			return nil, err
		}
		byName[name] = typ.Field(i)
	}
	l := &Layout{typ: typ}
	index := map[string]int{}
	for _, p := range ports {
		if p.Dir != dir {
			continue
		}
		f, ok := byName[p.Name]
		if !ok {
			return nil, fmt.Errorf("model port %s has no field in %s", p.Name, typ.Name())
		}
		delete(byName, p.Name)
		pf := portField{name: p.Name, off: f.Offset, width: p.Width, word: l.words, words: p.Words(), valid: -1}
		switch {
		case f.Type.Kind() == reflect.Bool && p.Width == 1:
			pf.kind = kindBool
		case f.Type.Kind() == reflect.Uint32 && p.Width <= 32:
			pf.kind = kindUint32
		case f.Type == reflect.TypeOf(wide.Vec{}) && p.Width <= wide.MaxBits:
			pf.kind = kindWide
		default:
			return nil, fmt.Errorf("port %s (%d bits) cannot be held by field %s.%s of type %s",
				p.Name, p.Width, typ.Name(), f.Name, f.Type)
		}
		index[p.Name] = len(l.fields)
		l.fields = append(l.fields, pf)
		l.words += pf.words
	}
	for name := range byName {
		return nil, fmt.Errorf("field for port %s of %s is not a port of the model", name, typ.Name())
	}
	for i := range l.fields {
		if v := validOf(l.fields[i].name); v != "" {
			j, ok := index[v]
			if !ok {
				return nil, fmt.Errorf("port %s: its valid %s is not a port", l.fields[i].name, v)
			}
			l.fields[i].valid = j
		}
	}
	return l, nil
}

// Words is the packed size of one cycle.
func (l *Layout) Words() int { return l.words }

// Pack writes the struct at p (a pointer to a value of the layout's type) into words.
func (l *Layout) Pack(p unsafe.Pointer, words []uint32) {
	for i := range l.fields {
		f := &l.fields[i]
		a := unsafe.Add(p, f.off)
		switch f.kind {
		case kindBool:
			if *(*bool)(a) {
				words[f.word] = 1
			} else {
				words[f.word] = 0
			}
		case kindUint32:
			v := *(*uint32)(a)
			if f.width < 32 {
				v &= 1<<uint(f.width) - 1
			}
			words[f.word] = v
		case kindWide:
			v := (*wide.Vec)(a)
			for w := 0; w < f.words; w++ {
				words[f.word+w] = uint32(v[w/2] >> (32 * uint(w&1)))
			}
		}
	}
}

// Unpack reads words into the struct at p.
func (l *Layout) Unpack(words []uint32, p unsafe.Pointer) {
	for i := range l.fields {
		f := &l.fields[i]
		a := unsafe.Add(p, f.off)
		switch f.kind {
		case kindBool:
			*(*bool)(a) = words[f.word]&1 == 1
		case kindUint32:
			*(*uint32)(a) = words[f.word]
		case kindWide:
			v := (*wide.Vec)(a)
			*v = wide.Vec{}
			for w := 0; w < f.words; w++ {
				v[w/2] |= uint64(words[f.word+w]) << (32 * uint(w&1))
			}
		}
	}
}

// Diff compares two packed cycles port by port; a port qualified by a valid is compared only when that valid is
// high in want (a differing valid is itself reported). It returns the index of the first differing port, or -1.
func (l *Layout) Diff(want, got []uint32) int {
	for i := range l.fields {
		f := &l.fields[i]
		if f.valid >= 0 && want[l.fields[f.valid].word] == 0 {
			continue
		}
		for w := 0; w < f.words; w++ {
			if want[f.word+w] != got[f.word+w] {
				return i
			}
		}
	}
	return -1
}

// Name is the port name of field i.
func (l *Layout) Name(i int) string { return l.fields[i].name }

// Format renders port i of a packed cycle as hex.
func (l *Layout) Format(i int, words []uint32) string {
	f := &l.fields[i]
	var b strings.Builder
	b.WriteString("0x")
	for w := f.words - 1; w >= 0; w-- {
		if w == f.words-1 {
			fmt.Fprintf(&b, "%x", words[f.word+w])
		} else {
			fmt.Fprintf(&b, "%08x", words[f.word+w])
		}
	}
	return b.String()
}

// FormatAll renders every port of a packed cycle as name=value pairs.
func (l *Layout) FormatAll(words []uint32) string {
	parts := make([]string, len(l.fields))
	for i := range l.fields {
		parts[i] = l.fields[i].name + "=" + l.Format(i, words)
	}
	return strings.Join(parts, " ")
}
