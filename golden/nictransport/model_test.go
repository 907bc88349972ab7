package nictransport_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/spraynic/spraynic/config"
	"github.com/spraynic/spraynic/golden/nictransport"
)

// bench drives one endpoint cycle by cycle.
type bench struct {
	t     *testing.T
	m     *nictransport.Model
	in    nictransport.In
	out   nictransport.Out
	naks  []nictransport.AckDesc
	acks  []nictransport.AckDesc
	cycle int
}

func newBench(t *testing.T, gbn int) *bench {
	cfg, err := config.Preset("default")
	require.NoError(t, err)
	cfg.GBN = gbn
	m, err := nictransport.New(cfg)
	require.NoError(t, err)
	b := &bench{t: t, m: m}
	b.in.Rst = true
	b.step()
	b.in.Rst = false
	b.in.CtlValid = true
	b.in.CtlOpen = true
	b.in.CtlConn = 3
	b.in.CtlTxPSN = 100
	b.in.CtlRxPSN = 0xFFFFFE
	b.step()
	b.in.CtlValid = false
	b.in.AckOutReady = true
	b.in.CplReady = true
	b.in.PktReady = true
	return b
}

// step runs one cycle and collects the ACKs and NAKs sent.
func (b *bench) step() {
	b.m.Step(&b.in, &b.out)
	if b.out.AckOutValid && b.in.AckOutReady {
		if b.out.AckOut.Nak {
			b.naks = append(b.naks, b.out.AckOut)
		} else {
			b.acks = append(b.acks, b.out.AckOut)
		}
	}
	b.cycle++
}

// data presents one data packet of connection 3 until the endpoint takes it.
func (b *bench) data(psn uint32) {
	b.in.RxValid = true
	b.in.Rx = nictransport.RxDesc{Conn: 3, PSN: psn & 0xFFFFFF, Path: 0, Pseq: psn & 0xFF, Handle: psn & 0xFF}
	for {
		b.step()
		if b.out.RxReady {
			break
		}
		require.Less(b.t, b.cycle, 1000, "the endpoint must take the packet")
	}
	b.in.RxValid = false
}

// TestGoBackNFilter: in go-back-N mode only the expected PSN passes; the first packet past a gap is NAKed once
// with the expected PSN, later ones are dropped silently; duplicates pass (rx_reorder ACKs them); the PSN wraps.
func TestGoBackNFilter(t *testing.T) {
	b := newBench(t, 1)
	b.data(0xFFFFFE)
	b.data(0x000001) // gap: 0xFFFFFF missing
	b.data(0x000002)
	for range 4 {
		b.step()
	}
	require.Len(t, b.naks, 1, "one NAK per gap")
	require.Equal(t, nictransport.AckDesc{Conn: 3, PSN: 0xFFFFFF, Nak: true}, b.naks[0], "NAK carries the expected PSN")
	require.Equal(t, uint32(2), b.out.GBNDropped, "both packets past the gap dropped")
	b.data(0xFFFFFF) // the sender rewinds
	b.data(0x000000)
	b.data(0x000001)
	b.data(0xFFFFFE) // duplicate
	for range 8 {
		b.step()
	}
	require.Len(t, b.naks, 1, "no further NAK")
	require.Equal(t, uint32(4), b.out.Rx.CntAccepted, "four in order accepted")
	require.Equal(t, uint32(1), b.out.Rx.CntDuplicate, "the duplicate reached rx_reorder")
	require.Equal(t, uint32(2), b.out.GBNDropped)
	b.data(0x000003) // a new gap: NAK again
	for range 4 {
		b.step()
	}
	require.Len(t, b.naks, 2)
	require.Equal(t, uint32(2), b.naks[1].PSN)
}

// TestSelectiveNoFilter: in selective mode every packet reaches rx_reorder and nothing is NAKed.
func TestSelectiveNoFilter(t *testing.T) {
	b := newBench(t, 0)
	b.data(0x000001)
	b.data(0xFFFFFE)
	b.data(0xFFFFFF)
	for range 8 {
		b.step()
	}
	require.Empty(t, b.naks)
	require.Equal(t, uint32(3), b.out.Rx.CntAccepted)
	require.Zero(t, b.out.GBNDropped)
}

// TestDecisionSlots: new packets of one connection get their paths from path_sel through the slots, each
// decision used once, sprayed over the paths, and path_sel's decisions equal the packets sent.
func TestDecisionSlots(t *testing.T) {
	b := newBench(t, 0)
	sent := map[uint32]int{}
	b.in.TxValid = true
	b.in.TxConn = 3
	for n := 0; n < 40; {
		b.in.TxHandle = uint32(n)
		b.in.TxFirst = n == 0
		b.in.TxLast = false
		b.step()
		if b.out.Retx.PktValid {
			sent[b.out.Retx.PktPath]++
		}
		if b.out.Retx.TxReady {
			n++
		}
		require.Less(t, b.cycle, 400, "40 packets must go")
	}
	b.in.TxValid = false
	for range 4 {
		b.step()
		if b.out.Retx.PktValid {
			sent[b.out.Retx.PktPath]++
		}
	}
	total := 0
	for _, k := range sent {
		total += k
	}
	require.Equal(t, 40, total, "every packet sent once")
	require.Len(t, sent, 8, "sprayed over all 8 paths")
	require.Equal(t, uint32(40), b.out.PathSel.CntDecisions, "one decision per packet, none lost or doubled")
}
