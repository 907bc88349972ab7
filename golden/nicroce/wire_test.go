package nicroce_test

import (
	"math/rand/v2"
	"net/netip"

	"github.com/stretchr/testify/require"

	"github.com/spraynic/spraynic/golden/wide"
	"github.com/spraynic/spraynic/system/roce"
)

// qpnBase is QPN_BASE of the presets.
const qpnBase = 256

// endpoint is one side's addresses as the wire builds frames from them.
type endpoint struct {
	mac uint64
	ip  uint32
}

// inFlight is a frame on the wire and the cycle it arrives.
type inFlight struct {
	frame []byte
	due   int64
}

// wire is the transaction-level stand-in for roce_tx, the network and roce_rx from one twin to another: it
// builds a frame with roce.BuildData or BuildAck from what the sender drove into roce_tx, drops it with
// probability loss (and every poisoned one, as the receiver's ICRC check would), and after a seeded delay
// parses it with roce.Parse and queues its descriptor at the receiver's roce_rx stand-in.
type wire struct {
	from, to     *bench
	src, dst     endpoint
	loss         float64
	rng          *rand.Rand
	q            []inFlight
	nSent, nAcks int
	lost         int
}

func macBytes(m uint64) [6]byte {
	var b [6]byte
	for i := range b {
		b[i] = byte(m >> (40 - 8*i))
	}
	return b
}

func macValue(b [6]byte) uint64 {
	var m uint64
	for _, x := range b {
		m = m<<8 | uint64(x)
	}
	return m
}

func ipAddr(v uint32) netip.Addr {
	return netip.AddrFrom4([4]byte{byte(v >> 24), byte(v >> 16), byte(v >> 8), byte(v)})
}

func ipValue(a netip.Addr) uint32 {
	b := a.As4()
	return uint32(b[0])<<24 | uint32(b[1])<<16 | uint32(b[2])<<8 | uint32(b[3])
}

// header is the frame header of a packet of connection conn with path entropy.
func (w *wire) header(conn, entropy uint32) roce.Header {
	return roce.Header{SrcMAC: macBytes(w.src.mac), DstMAC: macBytes(w.dst.mac), SrcIP: ipAddr(w.src.ip),
		DstIP: ipAddr(w.dst.ip), DSCP: 26, ECN: roce.ECNECT0, TTL: 64, SrcPort: uint16(entropy),
		PKey: roce.DefaultPKey, DestQP: qpnBase + conn}
}

// carry moves the sender's new packets and ACKs onto the wire and delivers the due frames.
func (w *wire) carry(cycle int64) {
	for ; w.nSent < len(w.from.sent); w.nSent++ {
		p := w.from.sent[w.nSent]
		if p.poison {
			continue
		}
		d := &p.d
		f, err := roce.BuildData(&roce.Data{Header: w.header(d.TxSPktConn, d.TxSPktEntropy), PSN: d.TxSPktPSN,
			AckReq: d.TxSPktAckReq, Path: uint8(d.TxSPktPath), PSeq: d.TxSPktPseq, First: d.TxSPktFirst, Last: d.TxSPktLast,
			MsgID: d.TxSPktHandle, Offset: d.TxSPktOffset, Payload: p.payload})
		require.NoError(w.from.t, err)
		w.send(f, cycle)
	}
	for ; w.nAcks < len(w.from.acks); w.nAcks++ {
		a := w.from.acks[w.nAcks]
		words := max(1, w.from.cfg.SackBits/32)
		ack := roce.Ack{Header: w.header(a.TxSAckConn, a.TxSAckEntropy), CumPSN: a.TxSAckPSN, NAK: a.TxSAckNak,
			HasSACK: true, Path: uint8(a.TxSAckPath), PNext: a.TxSAckPseq, ECNEcho: a.TxSAckECN, Words: uint8(words)}
		for i := 0; i < w.from.cfg.SackBits; i++ {
			if a.TxSAckSack.Bit(i) {
				ack.Bitmap[i/32] |= 1 << (i % 32)
			}
		}
		f, err := roce.BuildAck(&ack)
		require.NoError(w.from.t, err)
		w.send(f, cycle)
	}
	rest := w.q[:0]
	for _, f := range w.q {
		if f.due > cycle {
			rest = append(rest, f)
			continue
		}
		w.deliver(f.frame)
	}
	w.q = rest
}

// send puts a frame on the wire unless it is lost.
func (w *wire) send(f []byte, cycle int64) {
	if w.rng.Float64() < w.loss {
		w.lost++
		return
	}
	w.q = append(w.q, inFlight{frame: f, due: cycle + 20 + int64(w.rng.IntN(30))})
}

// deliver parses a frame and queues its descriptor at the receiver's roce_rx stand-in.
func (w *wire) deliver(f []byte) {
	p, err := roce.Parse(f)
	require.NoError(w.to.t, err)
	if p.IsAck() {
		a := &p.Ack
		var sack wide.Vec
		for i := 0; i < w.to.cfg.SackBits; i++ {
			if a.Bitmap[i/32]>>(i%32)&1 == 1 {
				sack = sack.Set(i)
			}
		}
		w.to.rxQ = append(w.to.rxQ, rxPkt{ack: true, conn: a.DestQP - qpnBase, psn: a.CumPSN, path: uint32(a.Path),
			pseq: a.PNext, ecn: a.ECNEcho, nak: a.NAK, sack: sack, srcMAC: macValue(a.SrcMAC), srcIP: ipValue(a.SrcIP)})
		return
	}
	d := &p.Data
	w.to.rxQ = append(w.to.rxQ, rxPkt{conn: d.DestQP - qpnBase, psn: d.PSN, handle: d.MsgID, offset: d.Offset,
		first: d.First, last: d.Last, srcMAC: macValue(d.SrcMAC), srcIP: ipValue(d.SrcIP), path: uint32(d.Path),
		pseq: d.PSeq, ackReq: d.AckReq, ecn: d.ECN == roce.ECNCE, payload: append([]byte(nil), d.Payload...)})
}
