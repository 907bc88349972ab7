package cosim

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math/big"

	"github.com/spraynic/spraynic/config"
	"github.com/spraynic/spraynic/system/roce"
)

// RXVerdicts names rtl/roce_rx.v's counters in the order of its cnt_* ports: the two that count accepted
// frames, then the reject reasons (docs/roce_rx.md, "Checks and counters").
var RXVerdicts = [...]string{"data", "ack", "not_roce", "truncated", "invalid", "unknown_opcode", "bad_icrc",
	"limit", "mac_error"}

// RXMacError is the index in RXVerdicts of mac_error, the verdict of a frame with tuser set.
const RXMacError = 8

// rxErrorKinds are the Go error kinds of RXVerdicts[2..7], in that order.
var rxErrorKinds = []error{roce.ErrNotRoCE, roce.ErrTruncated, roce.ErrInvalid, roce.ErrUnknownOpcode,
	roce.ErrBadICRC, roce.ErrLimit}

// RXVerdict is the index in RXVerdicts of the counter roce_rx must increment for a frame of which Limits.Parse
// returned (p, err) and tuser was low; -1 for an error of no known kind.
func RXVerdict(p roce.Packet, err error) int {
	switch {
	case err == nil && p.IsAck():
		return 1
	case err == nil:
		return 0
	}
	for i, e := range rxErrorKinds {
		if errors.Is(err, e) {
			return 2 + i
		}
	}
	return -1
}

// RXField is one field of a roce_rx descriptor: the port's name after m_rx_ or m_ack_, and its value in hex
// without leading zeros.
type RXField struct {
	Name, Value string
}

// RXDataFields returns the m_rx descriptor fields roce_rx must give for the accepted data packet d under cfg and
// lim, in port order.
func RXDataFields(cfg config.Config, lim roce.Limits, d *roce.Data) []RXField {
	pmask, hmask := uint32(1)<<cfg.PseqWidth-1, uint32(uint64(1)<<cfg.HandleWidth-1)
	return []RXField{{Name: "conn", Value: hex32(lim.Conn(d.DestQP))}, {Name: "psn", Value: hex32(d.PSN)},
		{Name: "path", Value: hex32(uint32(d.Path))}, {Name: "pseq", Value: hex32(d.PSeq & pmask)},
		{Name: "first", Value: hexBool(d.First)}, {Name: "last", Value: hexBool(d.Last)},
		{Name: "ack_req", Value: hexBool(d.AckReq)}, {Name: "ecn", Value: hexBool(d.ECN == roce.ECNCE)},
		{Name: "handle", Value: hex32(d.MsgID & hmask)}, {Name: "offset", Value: hex32(d.Offset)},
		{Name: "len", Value: hex32(uint32(len(d.Payload)))}, srcMAC(&d.Header), srcIP(&d.Header)}
}

// RXAckFields returns the m_ack descriptor fields roce_rx must give for the accepted ACK or NAK a under cfg and
// lim, in port order: the SACK bitmap's bits below SACK_BITS, and without the SACK extension path, pseq, sack
// and ecn 0.
func RXAckFields(cfg config.Config, lim roce.Limits, a *roce.Ack) []RXField {
	sack := new(big.Int)
	for i := 0; i < cfg.SackBits; i++ {
		if a.HasSACK && i < 32*int(a.Words) && a.Bitmap[i/32]>>(i%32)&1 == 1 {
			sack.SetBit(sack, i, 1)
		}
	}
	var path, pnext uint32
	if a.HasSACK {
		path, pnext = uint32(a.Path), a.PNext&(uint32(1)<<cfg.PseqWidth-1)
	}
	return []RXField{{Name: "conn", Value: hex32(lim.Conn(a.DestQP))}, {Name: "psn", Value: hex32(a.CumPSN)},
		{Name: "path", Value: hex32(path)}, {Name: "pseq", Value: hex32(pnext)}, {Name: "sack", Value: sack.Text(16)},
		{Name: "ecn", Value: hexBool(a.HasSACK && a.ECNEcho)}, {Name: "nak", Value: hexBool(a.NAK)},
		{Name: "has_sack", Value: hexBool(a.HasSACK)}, srcMAC(&a.Header), srcIP(&a.Header)}
}

// srcMAC is the src_mac field of a descriptor: h's Ethernet source, its first byte on the wire in the top bits.
func srcMAC(h *roce.Header) RXField {
	var v uint64
	for _, b := range h.SrcMAC {
		v = v<<8 | uint64(b)
	}
	return RXField{Name: "src_mac", Value: fmt.Sprintf("%x", v)}
}

// srcIP is the src_ip field of a descriptor: h's IPv4 source, its first octet in the top bits.
func srcIP(h *roce.Header) RXField {
	a := h.SrcIP.As4()
	return RXField{Name: "src_ip", Value: hex32(binary.BigEndian.Uint32(a[:]))}
}

// hex32 is v in hex without leading zeros.
func hex32(v uint32) string { return fmt.Sprintf("%x", v) }

// hexBool is 1 or 0.
func hexBool(b bool) string {
	if b {
		return "1"
	}
	return "0"
}
