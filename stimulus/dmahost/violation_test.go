package dmahost_test

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/spraynic/spraynic/stimulus/dmahost"
)

// Short names for the scripted DUT outputs of one cycle (K = 8, MTU 256).
func rdDesc(addr uint64, n, tag uint32) dmahost.DUTOut {
	return dmahost.DUTOut{RdDescValid: true, RdDescAddr: addr, RdDescLen: n, RdDescTag: tag}
}

func wrDesc(addr uint64, n, tag uint32) dmahost.DUTOut {
	return dmahost.DUTOut{WrDescValid: true, WrDescAddr: addr, WrDescLen: n, WrDescTag: tag}
}

func wrBeat(keep uint64, last bool, fill byte) dmahost.DUTOut {
	o := dmahost.DUTOut{WrValid: true, WrKeep: keep, WrLast: last}
	for i := range 8 {
		o.WrData[i] = fill
	}
	return o
}

// runScript drives one scripted DUT cycle after another and returns the first error.
func runScript(t *testing.T, maxOut int, script []dmahost.DUTOut) error {
	h, err := dmahost.New(dmahost.Config{DataWidth: 64, MTU: 256, MaxOutstanding: maxOut, LatencyMin: 1,
		LatencyMax: 1, Seed: 1})
	require.NoError(t, err)
	var ho dmahost.HostOut
	for c, in := range script {
		h.Drive(int64(c), &ho)
		if err := h.Observe(int64(c), &in); err != nil {
			require.Equal(t, err, h.Observe(int64(c), &in), "the error is sticky")
			return err
		}
	}
	return nil
}

func TestViolations(t *testing.T) {
	const top = ^uint64(0)
	tests := []struct {
		name   string
		maxOut int
		script []dmahost.DUTOut
		port   string
		what   string
	}{
		{name: "read descriptor dropped", maxOut: 1, port: dmahost.PortRdDesc, what: "valid dropped",
			script: []dmahost.DUTOut{rdDesc(0x100, 8, 1), rdDesc(0x200, 8, 2), {}}},
		{name: "read descriptor changed", maxOut: 1, port: dmahost.PortRdDesc, what: "changed",
			script: []dmahost.DUTOut{rdDesc(0x100, 8, 1), rdDesc(0x200, 8, 2), rdDesc(0x200, 8, 3)}},
		{name: "write descriptor dropped", maxOut: 1, port: dmahost.PortWrDesc, what: "valid dropped",
			script: []dmahost.DUTOut{wrDesc(0x100, 8, 1), wrDesc(0x200, 8, 2), {}}},
		{name: "write descriptor changed", maxOut: 1, port: dmahost.PortWrDesc, what: "changed",
			script: []dmahost.DUTOut{wrDesc(0x100, 8, 1), wrDesc(0x200, 8, 2), wrDesc(0x208, 8, 2)}},
		{name: "write beat dropped", port: dmahost.PortWrData, what: "tvalid dropped",
			script: []dmahost.DUTOut{wrBeat(0xff, true, 1), {}}},
		{name: "write beat data changed", port: dmahost.PortWrData, what: "beat changed",
			script: []dmahost.DUTOut{wrBeat(0xff, true, 1), wrBeat(0xff, true, 2)}},
		{name: "write beat tkeep changed", port: dmahost.PortWrData, what: "beat changed",
			script: []dmahost.DUTOut{wrBeat(0xff, true, 1), wrBeat(0x0f, true, 1)}},
		{name: "tkeep hole", port: dmahost.PortWrData, what: "not contiguous",
			script: []dmahost.DUTOut{wrDesc(0x100, 3, 1), wrBeat(0x0b, true, 1)}},
		{name: "tkeep not from lane 0", port: dmahost.PortWrData, what: "not contiguous",
			script: []dmahost.DUTOut{wrDesc(0x100, 4, 1), wrBeat(0xf0, true, 1)}},
		{name: "tkeep empty", port: dmahost.PortWrData, what: "not contiguous",
			script: []dmahost.DUTOut{wrDesc(0x100, 4, 1), wrBeat(0, true, 1)}},
		{name: "tkeep beyond K lanes", port: dmahost.PortWrData, what: "not contiguous",
			script: []dmahost.DUTOut{wrDesc(0x100, 9, 1), wrBeat(0x1ff, true, 1)}},
		{name: "tkeep short before the last beat", port: dmahost.PortWrData, what: "not full",
			script: []dmahost.DUTOut{wrDesc(0x100, 16, 1), wrBeat(0x7f, false, 1)}},
		{name: "byte count above len", port: dmahost.PortWrData, what: "byte count",
			script: []dmahost.DUTOut{wrDesc(0x100, 10, 1), wrBeat(0xff, false, 1), wrBeat(0x0f, true, 1)}},
		{name: "byte count below len", port: dmahost.PortWrData, what: "byte count",
			script: []dmahost.DUTOut{wrDesc(0x100, 10, 1), wrBeat(0xff, false, 1), wrBeat(0x01, true, 1)}},
		{name: "tlast missing", port: dmahost.PortWrData, what: "tlast missing",
			script: []dmahost.DUTOut{wrDesc(0x100, 8, 1), wrBeat(0xff, false, 1)}},
		{name: "tlast early", port: dmahost.PortWrData, what: "tlast early",
			script: []dmahost.DUTOut{wrDesc(0x100, 16, 1), wrBeat(0xff, true, 1)}},
		{name: "read tag reused", maxOut: 4, port: dmahost.PortRdDesc, what: "tag 5 reused",
			script: []dmahost.DUTOut{rdDesc(0x100, 8, 5), rdDesc(0x200, 8, 5)}},
		{name: "write tag reused", maxOut: 4, port: dmahost.PortWrDesc, what: "tag 5 reused",
			script: []dmahost.DUTOut{wrDesc(0x100, 8, 5), wrDesc(0x200, 8, 5)}},
		{name: "read wraps 2^64", port: dmahost.PortRdDesc, what: "wraps past 2^64",
			script: []dmahost.DUTOut{rdDesc(top-6, 8, 1)}},
		{name: "write wraps 2^64", port: dmahost.PortWrDesc, what: "wraps past 2^64",
			script: []dmahost.DUTOut{wrDesc(top, 2, 1)}},
		{name: "read len above MTU", port: dmahost.PortRdDesc, what: "len 257 above the MTU",
			script: []dmahost.DUTOut{rdDesc(0x100, 257, 1)}},
		{name: "write len above MTU", port: dmahost.PortWrDesc, what: "len 257 above the MTU",
			script: []dmahost.DUTOut{wrDesc(0x100, 257, 1)}},
		{name: "read len 0", port: dmahost.PortRdDesc, what: "len 0",
			script: []dmahost.DUTOut{rdDesc(0x100, 0, 1)}},
		{name: "write len 0", port: dmahost.PortWrDesc, what: "len 0",
			script: []dmahost.DUTOut{wrDesc(0x100, 0, 1)}},
		{name: "read tag above 8 bits", port: dmahost.PortRdDesc, what: "tag 256",
			script: []dmahost.DUTOut{rdDesc(0x100, 8, 256)}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := runScript(t, max(tc.maxOut, 1), tc.script)
			var pe *dmahost.ProtocolError
			require.True(t, errors.As(err, &pe), "want a *ProtocolError, got %v", err)
			require.Equal(t, tc.port, pe.Port, "%v", err)
			require.Equal(t, int64(len(tc.script)-1), pe.Cycle, "%v", err)
			require.Contains(t, err.Error(), tc.port+": ")
			require.Contains(t, pe.What, tc.what)
			require.NotEmpty(t, pe.Allowed)
		})
	}
}

// TestLegalEdges: what the rules allow passes: a descriptor ending exactly at 2^64, len MTU, a tag reused in
// the cycle its status is given, a beat shown before its descriptor, items held under back-pressure.
func TestLegalEdges(t *testing.T) {
	top := ^uint64(0)
	h, err := dmahost.New(dmahost.Config{DataWidth: 64, MTU: 256, MaxOutstanding: 1, LatencyMin: 1,
		LatencyMax: 1, Seed: 1})
	require.NoError(t, err)
	require.NoError(t, h.Mem.Write(top-7, []byte{1, 2, 3, 4, 5, 6, 7, 8}))
	var ho dmahost.HostOut
	step := func(c int64, in dmahost.DUTOut) dmahost.HostOut {
		h.Drive(c, &ho)
		in.RdDataReady = ho.RdValid
		require.NoError(t, h.Observe(c, &in), "cycle %d", c)
		return ho
	}
	require.True(t, step(0, rdDesc(top-7, 8, 9)).RdDescReady)
	o := step(1, rdDesc(0x100, 256, 9)) // held: one read outstanding
	require.False(t, o.RdDescReady)
	require.True(t, o.RdValid && o.RdLast && o.RdKeep == 0xff)
	require.Equal(t, []byte{1, 2, 3, 4, 5, 6, 7, 8}, o.RdData[:8])
	o = step(2, rdDesc(0x100, 256, 9))
	require.True(t, o.RdStsValid && o.RdStsTag == 9 && o.RdStsError == 0)
	require.False(t, o.RdDescReady, "the slot frees after the status cycle")
	require.True(t, step(3, rdDesc(0x100, 256, 9)).RdDescReady)

	o = step(4, wrBeat(0xff, true, 0xab)) // shown before its descriptor: held
	require.False(t, o.WrDataReady)
	beat := wrBeat(0xff, true, 0xab)
	beat.WrDescValid, beat.WrDescAddr, beat.WrDescLen, beat.WrDescTag = true, top-7, 8, 3
	require.True(t, step(5, beat).WrDescReady)
	require.True(t, step(6, wrBeat(0xff, true, 0xab)).WrDataReady)
	require.False(t, h.Mem.WrittenByDMA(top), "written before the status")
	for c := int64(7); !ho.WrStsValid; c++ {
		step(c, dmahost.DUTOut{})
	}
	require.True(t, h.Mem.WrittenByDMA(top))
	require.Equal(t, []dmahost.Range{{Addr: top - 7, Len: 8}}, h.Mem.Written())
}

func TestObserveWithoutDrive(t *testing.T) {
	h, err := dmahost.New(dmahost.Config{DataWidth: 64, MTU: 256, MaxOutstanding: 1, LatencyMin: 1,
		LatencyMax: 1})
	require.NoError(t, err)
	err = h.Observe(0, &dmahost.DUTOut{})
	var pe *dmahost.ProtocolError
	require.True(t, errors.As(err, &pe))
	require.Equal(t, dmahost.PortHarness, pe.Port)
}

func TestReset(t *testing.T) {
	h, err := dmahost.New(dmahost.Config{DataWidth: 64, MTU: 256, MaxOutstanding: 1, LatencyMin: 1,
		LatencyMax: 1})
	require.NoError(t, err)
	var ho dmahost.HostOut
	h.Drive(0, &ho)
	require.NoError(t, h.Observe(0, ptr(rdDesc(0x100, 8, 1))))
	h.Drive(1, &ho)
	require.True(t, ho.RdValid)
	require.NoError(t, h.Observe(1, &dmahost.DUTOut{Rst: true}))
	h.Drive(2, &ho)
	require.Equal(t, dmahost.HostOut{RdDescReady: true, WrDescReady: true}, ho, "nothing in flight after reset")
	require.NoError(t, h.Observe(2, ptr(rdDesc(0x100, 8, 1))), "the tag is free after reset")
}

func ptr[T any](v T) *T { return &v }

func TestConfigErrors(t *testing.T) {
	ok := dmahost.Config{DataWidth: 64, MTU: 256, MaxOutstanding: 1, LatencyMin: 1, LatencyMax: 1}
	_, err := dmahost.New(ok)
	require.NoError(t, err)
	for _, tc := range []struct {
		name string
		edit func(*dmahost.Config)
		want string
	}{
		{name: "width", edit: func(c *dmahost.Config) { c.DataWidth = 32 }, want: "DataWidth 32"},
		{name: "mtu", edit: func(c *dmahost.Config) { c.MTU = 0 }, want: "MTU 0"},
		{name: "outstanding", edit: func(c *dmahost.Config) { c.MaxOutstanding = 257 }, want: "MaxOutstanding 257"},
		{name: "latency", edit: func(c *dmahost.Config) { c.LatencyMin = 0 }, want: "latency 0..1"},
		{name: "stall", edit: func(c *dmahost.Config) { c.Stall = 1 }, want: "Stall 1"},
		{name: "read errors", edit: func(c *dmahost.Config) { c.RdErrorRate = -1 }, want: "RdErrorRate -1"},
	} {
		c := ok
		tc.edit(&c)
		_, err := dmahost.New(c)
		require.ErrorContains(t, err, tc.want, tc.name)
	}
}

func TestMemory(t *testing.T) {
	m := dmahost.NewMemory()
	b, err := m.Read(0xfff, 3)
	require.NoError(t, err)
	require.Equal(t, []byte{0, 0, 0}, b, "unwritten bytes read 0")
	require.NoError(t, m.Write(0xffe, []byte{1, 2, 3, 4}))
	b, err = m.Read(0xffd, 6)
	require.NoError(t, err)
	require.Equal(t, []byte{0, 1, 2, 3, 4, 0}, b, "across a page")
	require.False(t, m.WrittenByDMA(0xffe), "the harness's writes are not DMA's")
	require.Empty(t, m.Written())
	require.ErrorContains(t, m.Write(^uint64(0), []byte{1, 2}), "past 2^64")
	_, err = m.Read(^uint64(0)-1, 3)
	require.ErrorContains(t, err, "past 2^64")
	require.NoError(t, m.Write(^uint64(0), []byte{9}), "the last byte")
}
