package system

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/spraynic/spraynic/config"
)

// TestChecksCatchFaults breaks the transport on purpose, one way at a time, as a packet arrives, and requires
// the run to fail with the check that should catch it.
func TestChecksCatchFaults(t *testing.T) {
	cfg, err := config.Preset("default")
	require.NoError(t, err)
	const victim = 200 // the packet number (ring seq) the fault hits
	tests := []struct {
		name  string
		fault func(p *pkt)
		want  string
	}{
		{name: "corrupt_byte", fault: func(p *pkt) {
			if p.seq == victim && len(p.payload) > 0 {
				b := append([]byte(nil), p.payload...)
				b[len(b)/2] ^= 0x40
				p.payload = b
			}
		}, want: "delivered with other bytes than posted"},
		{name: "wrong_offset", fault: func(p *pkt) {
			if p.seq == victim {
				p.off += 8
			}
		}, want: "expected message"},
		{name: "flipped_last", fault: func(p *pkt) {
			if p.seq == victim {
				p.d.Last = !p.d.Last
			}
		}, want: "transfer: connection"},
		{name: "lost_for_good", fault: func(p *pkt) {
			// Every copy of one PSN is mangled into a packet of a closed connection: it never arrives.
			if !p.ack && p.d.Conn == 0 && p.d.PSN == cfg0PSN+40 {
				p.d.Conn = 15
			}
		}, want: ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			o := Options{Config: cfg, DurationUS: 60, DrainUS: 300, Seed: 1, fault: tc.fault}
			_, err := Run(o)
			require.Error(t, err, "the fault must be caught")
			if tc.want != "" {
				require.Contains(t, err.Error(), tc.want)
			}
		})
	}
}

// cfg0PSN is connection 0's initial PSN under the default options.
const cfg0PSN = 1<<24 - 100

// TestHostChecks covers the host model's own checks directly.
func TestHostChecks(t *testing.T) {
	r := &rxHost{conns: make([]rxConn, 2), slots: make([]rxSlot, 2*16), slotsPer: 16, tag: 0x300}
	for c := range r.conns {
		r.conns[c].bufs = map[uint64][]byte{}
	}
	require.NoError(t, r.place(0, 5, 0, 0, []byte{1, 2}, true, false))
	require.NoError(t, r.place(0, 6, 0, 2, []byte{3}, false, true))
	_, _, _, err := r.complete(0, 6, r.handle(0, 6), false, true)
	require.EqualError(t, err,
		"data error: completion conn 0 psn 0x6 is message 0 offset 2, expected message 0 offset 0")
	_, _, _, err = r.complete(0, 5, r.handle(0, 6), true, false)
	require.EqualError(t, err, "data error: completion conn 0 psn 0x5 carries handle 0x306, placed under 0x305")
	_, _, done, err := r.complete(0, 5, r.handle(0, 5), true, false)
	require.NoError(t, err)
	require.False(t, done)
	_, _, _, err = r.complete(0, 5, r.handle(0, 5), true, false)
	require.EqualError(t, err,
		"data error: completion conn 0 psn 0x5: nothing was placed for it (slot holds psn 0x5, set false)")
	msg, data, done, err := r.complete(0, 6, r.handle(0, 6), false, true)
	require.NoError(t, err)
	require.True(t, done)
	require.Equal(t, uint64(0), msg)
	require.Equal(t, []byte{1, 2, 3}, data)
	require.NoError(t, r.place(0, 8, 1, 4096, []byte{9}, false, false))
	require.EqualError(t, r.place(0, 8+16, 1, 4096, []byte{9}, false, false),
		"host model: receive handle 0x308 of conn 0 psn 0x18 still holds uncompleted psn 0x8")

	h := &txHost{conns: make([]txConn, 1), slots: make([]segment, 16), slotsPer: 16, tag: 0x100}
	_, err = h.lookup(0x103, 0, 3)
	require.EqualError(t, err,
		"data error: packet conn 0 psn 0x3 carries handle 0x103, which holds conn 0 psn 0x0 (set false)")
	_, err = h.lookup(3, 0, 3)
	require.EqualError(t, err,
		"data error: packet conn 0 psn 0x3 carries handle 0x3 beyond the table (16 entries, tag 0x100)")
}
