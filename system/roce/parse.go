package roce

import (
	"encoding/binary"
	"fmt"
	"net/netip"

	"github.com/google/gopacket"

	"github.com/spraynic/spraynic/config"
)

// etherTypeIPv4 is the EtherType of IPv4.
const etherTypeIPv4 = 0x0800

// span is a frame classified as RoCEv2 over IPv4 (docs/protocol.md, "Receiver checks" step 1): its IPv4 packet
// bounded by the total length, and the UDP datagram in it.
type span struct {
	// ip is the IPv4 packet, header through ICRC; udp the UDP header and payload.
	ip, udp []byte
}

// classify makes the checks of step 1, each reading only bytes it has checked are present: the frame is
// Ethernet II / IPv4 / UDP to port 4791 before anything about RoCE is measured.
func classify(frame []byte) (span, error) {
	if len(frame) < ethLen {
		return span{}, truncated("Ethernet", "header", len(frame), ethLen)
	}
	if t := binary.BigEndian.Uint16(frame[12:]); t != etherTypeIPv4 {
		return span{}, notRoCE("Ethernet", "ethertype", uint64(t), named(t, "%#04x", ethertypeNames),
			"0x0800 (IPv4)")
	}
	ip := frame[ethLen:]
	ihl, err := ipHeader(ip)
	if err != nil {
		return span{}, err
	}
	tot := int(binary.BigEndian.Uint16(ip[2:]))
	if tot < ihl {
		return span{}, invalid("IPv4", "total length", uint64(tot), fmt.Sprintf(">= %d (the header length)", ihl))
	}
	if tot > len(ip) {
		return span{}, claimed("IPv4", "total length", len(ip), tot)
	}
	udp := ip[ihl:tot]
	if len(udp) < udpLen {
		return span{}, truncated("UDP", "header", len(udp), udpLen)
	}
	if port := binary.BigEndian.Uint16(udp[2:]); port != UDPPort {
		return span{}, notRoCE("UDP", "dst port", uint64(port), fmt.Sprintf("value %d", port), "4791 (RoCEv2)")
	}
	if n := binary.BigEndian.Uint16(udp[4:]); int(n) != len(udp) {
		return span{}, invalid("UDP", "length", uint64(n), fmt.Sprintf("%d (the IPv4 payload length)", len(udp)))
	}
	return span{ip: ip[:tot], udp: udp}, nil
}

// ipHeader checks the IPv4 header at the start of ip (present, version 4, IHL, options present, protocol UDP, not
// a fragment, checksum) and returns its length.
func ipHeader(ip []byte) (int, error) {
	if len(ip) < ipLen {
		return 0, truncated("IPv4", "header", len(ip), ipLen)
	}
	if v := ip[0] >> 4; v != 4 {
		return 0, invalid("IPv4", "version", uint64(v), "4")
	}
	ihl := int(ip[0]&0x0F) * 4
	if ihl < ipLen {
		return 0, invalid("IPv4", "ihl", uint64(ihl/4), "5..15 (32-bit words)")
	}
	if len(ip) < ihl {
		return 0, truncated("IPv4", "options", len(ip), ihl)
	}
	if p := ip[9]; p != uint8(17) {
		return 0, notRoCE("IPv4", "protocol", uint64(p), named(p, "%d", protocolNames), "17 (UDP)")
	}
	if f := binary.BigEndian.Uint16(ip[6:]); f&0x3FFF != 0 {
		return 0, &FieldError{Layer: "IPv4", Field: "fragment", Value: uint64(f & 0x3FFF), Err: ErrInvalid,
			Found: fmt.Sprintf("MF %d, offset %d bytes", f>>13&1, f&0x1FFF*8), Allowed: "MF 0, offset 0 (DF is sent)"}
	}
	if ipChecksum(ip[:ihl]) != 0 {
		var h [60]byte
		copy(h[:], ip[:ihl])
		h[10], h[11] = 0, 0
		return 0, invalid("IPv4", "header checksum", uint64(binary.BigEndian.Uint16(ip[10:])),
			fmt.Sprintf("%#04x (RFC 791, over this header)", ipChecksum(h[:ihl])))
	}
	return ihl, nil
}

// checkBTH decodes the BTH, pad and ICRC of a UDP payload (step 2): TVer, opcode, destination QP, pad count.
func checkBTH(payload []byte, b *BTH) error {
	if err := b.DecodeFromBytes(payload, gopacket.NilDecodeFeedback); err != nil {
		return err
	}
	switch {
	case b.TVer != 0:
		return invalid("BTH", "tver", uint64(b.TVer), "0")
	case b.Opcode != OpSendOnly && b.Opcode != OpAck:
		return &FieldError{Layer: "BTH", Field: "opcode", Value: uint64(b.Opcode),
			Allowed: "0x04 (RC SEND Only), 0x11 (RC Acknowledge)", Err: ErrUnknownOpcode}
	case !ValidQPN(b.DestQP):
		return invalid("BTH", "dest qp", uint64(b.DestQP), qpnAllowed)
	case b.Opcode == OpAck && b.PadCount != 0:
		return invalid("BTH", "pad count", uint64(b.PadCount), "0 (an Acknowledge is 4-byte aligned)")
	}
	// The bytes between BTH and ICRC of a data packet: spray header, n payload bytes, (-n) mod 4 pad bytes.
	n := len(payload) - BTHLen - ICRCLen - SprayLen - int(b.PadCount)
	if want := -n & 3; b.Opcode == OpSendOnly && n >= 0 && int(b.PadCount) != want {
		return invalid("BTH", "pad count", uint64(b.PadCount), fmt.Sprintf("%d (for a payload of %d bytes)", want, n))
	}
	return nil
}

// header reads the fields common to both packet kinds from a classified frame.
func (s span) header(frame []byte, b *BTH) Header {
	ip, udp := s.ip, s.udp
	return Header{SrcMAC: [6]byte(frame[6:12]), DstMAC: [6]byte(frame[0:6]),
		SrcIP: netip.AddrFrom4([4]byte(ip[12:16])), DstIP: netip.AddrFrom4([4]byte(ip[16:20])),
		DSCP: ip[1] >> 2, ECN: ip[1] & 3, TTL: ip[8], SrcPort: binary.BigEndian.Uint16(udp[0:]), PKey: b.PKey,
		DestQP: b.DestQP}
}

// Parse decodes and checks one Ethernet frame: every check of docs/protocol.md, "Receiver checks", that depends
// on the frame alone (Limits.Parse adds the configuration's). Errors are *FieldError (match the kind with
// errors.Is: ErrNotRoCE, ErrTruncated, ErrInvalid, ErrUnknownOpcode) or *ICRCError. It never panics and, on
// success, does not allocate; Data.Payload aliases frame.
func Parse(frame []byte) (Packet, error) {
	var p Packet
	s, err := classify(frame)
	if err != nil {
		return p, err
	}
	var bth BTH
	if err := checkBTH(s.udp[udpLen:], &bth); err != nil {
		return p, err
	}
	if want := ICRC(s.ip); want != bth.ICRC {
		return p, &ICRCError{Expected: want, Actual: bth.ICRC}
	}
	p.Opcode, p.ICRC = bth.Opcode, bth.ICRC
	h := s.header(frame, &bth)
	if bth.Opcode == OpSendOnly {
		return p, parseData(&p, h, &bth)
	}
	return p, parseAck(&p, h, &bth)
}

// parseData decodes the spray header and payload of a data packet into p.Data.
func parseData(p *Packet, h Header, bth *BTH) error {
	var sp Spray
	if err := sp.DecodeFromBytes(bth.Payload, gopacket.NilDecodeFeedback); err != nil {
		return err
	}
	p.Data = Data{Header: h, PSN: bth.PSN, AckReq: bth.AckReq, Path: sp.Path, PSeq: sp.PSeq,
		First: sp.Flags&SprayFirst != 0, Last: sp.Flags&SprayLast != 0, MsgID: sp.MsgID, Offset: sp.Offset,
		Payload: sp.Payload}
	return nil
}

// parseAck decodes the AETH and, when present, the SACK extension of an ACK or NAK into p.Ack.
func parseAck(p *Packet, h Header, bth *BTH) error {
	var aeth AETH
	if err := aeth.DecodeFromBytes(bth.Payload, gopacket.NilDecodeFeedback); err != nil {
		return err
	}
	a := Ack{Header: h, MSN: aeth.MSN}
	switch {
	case aeth.Syndrome == SyndromeNAKSeq:
		a.NAK, a.CumPSN = true, bth.PSN
	case aeth.Syndrome&0x60 == 0:
		a.CumPSN = (bth.PSN + 1) & Max24
	default:
		return invalid("AETH", "syndrome", uint64(aeth.Syndrome),
			"ACK (0x00..0x1F) or NAK PSN sequence error (0x60)")
	}
	if len(aeth.Payload) > 0 {
		var s SACK
		if err := s.DecodeFromBytes(aeth.Payload, gopacket.NilDecodeFeedback); err != nil {
			return err
		}
		a.HasSACK, a.Path, a.PNext, a.ECNEcho = true, s.Path, s.PNext, s.Flags&SACKECN != 0
		a.Words, a.Bitmap = s.Words, s.Bitmap
	}
	p.Ack = a
	return nil
}

// Limits are the receive checks that depend on the receiver's configuration (docs/protocol.md, "Receiver
// checks" step 5).
type Limits struct {
	// Paths is the number of paths: path ids are 0..Paths-1.
	Paths int
	// MTU is the largest payload of a data packet, bytes.
	MTU int
	// QPNBase and Conns give the receiver's queue pairs: QPNBase..QPNBase+Conns-1, connection c = QPN-QPNBase.
	QPNBase, Conns int
	// SackBits is SACK_BITS: a SACK bitmap has at most max(1, SackBits/32) words and no bit at or beyond it.
	SackBits int
}

// LimitsFor returns the limits of a receiver of configuration cfg whose MTU is mtu payload bytes.
func LimitsFor(cfg config.Config, mtu int) Limits {
	return Limits{Paths: cfg.Paths, MTU: mtu, QPNBase: cfg.QPNBase, Conns: cfg.Conns, SackBits: cfg.SackBits}
}

// Parse is Parse followed by Check: every receiver check.
func (l Limits) Parse(frame []byte) (Packet, error) {
	p, err := Parse(frame)
	if err != nil {
		return p, err
	}
	return p, l.Check(&p)
}

// Conn returns the connection a destination QPN that passed Check names.
func (l Limits) Conn(qpn uint32) uint32 { return qpn - uint32(l.QPNBase) }

// Check applies the limits to a parsed packet; errors are *FieldError of kind ErrLimit.
func (l Limits) Check(p *Packet) error {
	qpn := p.Data.DestQP
	if p.IsAck() {
		qpn = p.Ack.DestQP
	}
	if int(qpn) < l.QPNBase || int(qpn) >= l.QPNBase+l.Conns {
		return limit("BTH", "dest qp", uint64(qpn), "", fmt.Sprintf("%d..%d (qpn_base %d, conns %d)", l.QPNBase,
			l.QPNBase+l.Conns-1, l.QPNBase, l.Conns))
	}
	if p.IsAck() {
		return l.checkAck(&p.Ack)
	}
	d := &p.Data
	if int(d.Path) >= l.Paths {
		return limit("Spray", "path", uint64(d.Path), "", fmt.Sprintf("0..%d (paths %d)", l.Paths-1, l.Paths))
	}
	if len(d.Payload) > l.MTU {
		return limit("Spray", "payload", uint64(len(d.Payload)), fmt.Sprintf("%d bytes", len(d.Payload)),
			fmt.Sprintf("0..%d bytes (the MTU)", l.MTU))
	}
	return nil
}

// checkAck applies the limits to an ACK's SACK extension.
func (l Limits) checkAck(a *Ack) error {
	if !a.HasSACK {
		return nil
	}
	if int(a.Path) >= l.Paths {
		return limit("SACK", "path", uint64(a.Path), "", fmt.Sprintf("0..%d (paths %d)", l.Paths-1, l.Paths))
	}
	words := max(1, l.SackBits/32)
	if int(a.Words) > words {
		return limit("SACK", "bitmap words", uint64(a.Words), "", fmt.Sprintf("0..%d (sack_bits %d)", words,
			l.SackBits))
	}
	for i := l.SackBits; i < 32*int(a.Words); i++ {
		if a.Bitmap[i/32]>>(i%32)&1 != 0 {
			return limit("SACK", "bitmap", uint64(i), fmt.Sprintf("bit %d set", i),
				fmt.Sprintf("bits 0..%d (sack_bits %d)", l.SackBits-1, l.SackBits))
		}
	}
	return nil
}
