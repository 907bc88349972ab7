package dmahost

import (
	"fmt"
	"slices"
)

// pageBits sizes the pages of the sparse memory (4 KiB).
const pageBits = 12

// page is one present page: its bytes and a bit per byte written by DMA.
type page struct {
	data [1 << pageBits]byte
	dma  [1 << pageBits / 64]uint64
}

// Memory is a sparse byte memory over 64-bit addresses; bytes never written read 0.
type Memory struct {
	pages map[uint64]*page
}

// Range is the bytes [Addr, Addr+Len).
type Range struct {
	Addr, Len uint64
}

// End is one past the last byte (0 for a range ending at 2^64).
func (r Range) End() uint64 { return r.Addr + r.Len }

// Contains reports whether every byte of s lies in r.
func (r Range) Contains(s Range) bool {
	return s.Addr >= r.Addr && s.Addr-r.Addr+s.Len <= r.Len
}

// NewMemory returns an empty memory.
func NewMemory() *Memory { return &Memory{pages: map[uint64]*page{}} }

// span checks that n bytes at addr do not run past 2^64.
func span(addr, n uint64) error {
	if n > 0 && addr+n-1 < addr {
		return fmt.Errorf("memory: %d bytes at %#x run past 2^64 (allowed: addr + len <= 2^64)", n, addr)
	}
	return nil
}

func (m *Memory) page(addr uint64, create bool) *page {
	p := m.pages[addr>>pageBits]
	if p == nil && create {
		p = &page{}
		m.pages[addr>>pageBits] = p
	}
	return p
}

// Write stores b at addr (the harness's write: not marked as written by DMA).
func (m *Memory) Write(addr uint64, b []byte) error {
	if err := span(addr, uint64(len(b))); err != nil {
		return err
	}
	m.store(addr, b, false)
	return nil
}

// store writes b at addr, marking the bytes as DMA-written when dma is set; the span is checked.
func (m *Memory) store(addr uint64, b []byte, dma bool) {
	for i, c := range b {
		a := addr + uint64(i)
		p := m.page(a, true)
		o := a & (1<<pageBits - 1)
		p.data[o] = c
		if dma {
			p.dma[o/64] |= 1 << (o % 64)
		}
	}
}

// Read returns n bytes at addr.
func (m *Memory) Read(addr uint64, n int) ([]byte, error) {
	if n < 0 {
		return nil, fmt.Errorf("memory: read of %d bytes (allowed: n >= 0)", n)
	}
	if err := span(addr, uint64(n)); err != nil {
		return nil, err
	}
	return m.load(addr, n), nil
}

// load reads n bytes at addr; the span is checked.
func (m *Memory) load(addr uint64, n int) []byte {
	b := make([]byte, n)
	for i := range b {
		a := addr + uint64(i)
		if p := m.page(a, false); p != nil {
			b[i] = p.data[a&(1<<pageBits-1)]
		}
	}
	return b
}

// WrittenByDMA reports whether the byte at addr was ever written by a DMA write.
func (m *Memory) WrittenByDMA(addr uint64) bool {
	p := m.page(addr, false)
	o := addr & (1<<pageBits - 1)
	return p != nil && p.dma[o/64]>>(o%64)&1 == 1
}

// Written returns the bytes ever written by DMA as ascending, disjoint, non-adjacent ranges.
func (m *Memory) Written() []Range {
	var keys []uint64
	for k := range m.pages {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	var rs []Range
	for _, k := range keys {
		p := m.pages[k]
		for o := uint64(0); o < 1<<pageBits; o++ {
			if p.dma[o/64]>>(o%64)&1 == 0 {
				continue
			}
			a := k<<pageBits | o
			if n := len(rs); n > 0 && rs[n-1].End() == a && rs[n-1].Len != 0 {
				rs[n-1].Len++
			} else {
				rs = append(rs, Range{Addr: a, Len: 1})
			}
		}
	}
	return rs
}

// WrittenOutside returns the DMA-written bytes, as ranges, that no range of allowed contains.
func (m *Memory) WrittenOutside(allowed ...Range) []Range {
	var out []Range
	for _, r := range m.Written() {
		for a := r.Addr; a != r.End(); a++ {
			if inAny(a, allowed) {
				continue
			}
			if n := len(out); n > 0 && out[n-1].End() == a {
				out[n-1].Len++
			} else {
				out = append(out, Range{Addr: a, Len: 1})
			}
		}
	}
	return out
}

func inAny(a uint64, rs []Range) bool {
	for _, r := range rs {
		if r.Contains(Range{Addr: a, Len: 1}) {
			return true
		}
	}
	return false
}
