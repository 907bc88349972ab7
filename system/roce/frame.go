package roce

import (
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"net"
	"net/netip"

	"github.com/google/gopacket"
	"github.com/google/gopacket/layers"
)

// Header holds the fields common to data and ACK packets: Ethernet, IPv4, UDP and the BTH fields not specific to
// either.
type Header struct {
	// SrcMAC and DstMAC are the Ethernet addresses.
	SrcMAC, DstMAC [6]byte
	// SrcIP and DstIP are IPv4 addresses (Build rejects others).
	SrcIP, DstIP netip.Addr
	// DSCP is the IPv4 DSCP (0..63).
	DSCP uint8
	// ECN is the IPv4 ECN field (0..3): ECNECT0 on send, ECNCE when the fabric marked the packet.
	ECN uint8
	// TTL is the IPv4 time to live.
	TTL uint8
	// SrcPort is the UDP source port: the path entropy (0xC000..0xFFFF).
	SrcPort uint16
	// PKey is the BTH partition key (DefaultPKey).
	PKey uint16
	// DestQP is the BTH destination queue pair (24 bits).
	DestQP uint32
}

// IPv4 ECN codepoints (RFC 3168).
const (
	// ECNNotECT: not ECN-capable.
	ECNNotECT = 0
	// ECNECT1: ECN-capable transport (1).
	ECNECT1 = 1
	// ECNECT0: ECN-capable transport (0), what spraynic sends.
	ECNECT0 = 2
	// ECNCE: congestion experienced.
	ECNCE = 3
)

// Data is one data packet (RC SEND Only + spray extension).
type Data struct {
	Header
	// PSN is the connection PSN (24 bits).
	PSN uint32
	// AckReq asks the receiver for an immediate ACK.
	AckReq bool
	// Path is the path id.
	Path uint8
	// PSeq is the path sequence (24 bits).
	PSeq uint32
	// First and Last are the message flags.
	First, Last bool
	// MsgID is the message id (payload handle).
	MsgID uint32
	// Offset is the placement offset, bytes.
	Offset uint32
	// Payload is the data; after Parse it aliases the frame.
	Payload []byte
}

// Ack is one ACK or NAK (RC Acknowledge + AETH, + SACK extension if HasSACK).
type Ack struct {
	Header
	// CumPSN is the cumulative PSN: every PSN before it was received. On the wire the BTH PSN is CumPSN-1 for an
	// ACK (the last PSN acknowledged, IBTA) and CumPSN for a NAK (the expected PSN, IBTA).
	CumPSN uint32
	// NAK marks a NAK "PSN sequence error" (go-back-N mode).
	NAK bool
	// MSN is the AETH message sequence number (24 bits).
	MSN uint32
	// HasSACK says the SACK extension is present (always, from spraynic; a plain IBTA ACK has none).
	HasSACK bool
	// Path is the path whose state the SACK carries.
	Path uint8
	// PNext is one past the highest path sequence received on Path (24 bits).
	PNext uint32
	// ECNEcho: a CE-marked packet arrived on Path since its previous ACK.
	ECNEcho bool
	// Words is the bitmap length in 32-bit words (0..8): max(1, sack_bits/32).
	Words uint8
	// Bitmap: bit i (Bitmap[i/32] bit i%32) = path sequence PNext-1-i received.
	Bitmap [SACKMaxWords]uint32
}

// Packet is a parsed frame: Data if Opcode is OpSendOnly, Ack if OpAck.
type Packet struct {
	// Opcode is the BTH opcode.
	Opcode uint8
	// Data is valid for OpSendOnly.
	Data Data
	// Ack is valid for OpAck.
	Ack Ack
	// ICRC is the packet's invariant CRC (checked).
	ICRC uint32
}

// IsAck reports whether the packet is an ACK/NAK.
func (p *Packet) IsAck() bool { return p.Opcode == OpAck }

// qpnAllowed describes the destination QPNs a frame may carry.
const qpnAllowed = "2..0xFFFFFE (0 and 1 are the management QPs, 0xFFFFFF the multicast QPN)"

// ValidQPN reports whether qpn may be a frame's destination QP: 24 bits, not the management QPs 0 (SMI) and 1
// (GSI), not the multicast QPN 0xFFFFFF.
func ValidQPN(qpn uint32) bool { return qpn >= 2 && qpn < Max24 }

// Frame offsets (Ethernet II, IPv4 without options, UDP).
const (
	ethLen = 14
	ipLen  = 20
	udpLen = 8
	ipOff  = ethLen
	udpOff = ethLen + ipLen
	bthOff = udpOff + udpLen
)

// netLayers returns the Ethernet, IPv4 and UDP layers of h.
func netLayers(h *Header) (*layers.Ethernet, *layers.IPv4, *layers.UDP, error) {
	switch {
	case !h.SrcIP.Is4():
		return nil, nil, nil, invalid("IPv4", "src ip", 0, "an IPv4 address")
	case !h.DstIP.Is4():
		return nil, nil, nil, invalid("IPv4", "dst ip", 0, "an IPv4 address")
	case h.DSCP > 63:
		return nil, nil, nil, invalid("IPv4", "dscp", uint64(h.DSCP), "0..63")
	case h.ECN > 3:
		return nil, nil, nil, invalid("IPv4", "ecn", uint64(h.ECN), "0..3")
	case !ValidQPN(h.DestQP):
		return nil, nil, nil, invalid("BTH", "dest qp", uint64(h.DestQP), qpnAllowed)
	}
	src, dst := h.SrcIP.As4(), h.DstIP.As4()
	eth := &layers.Ethernet{SrcMAC: net.HardwareAddr(h.SrcMAC[:]), DstMAC: net.HardwareAddr(h.DstMAC[:]),
		EthernetType: layers.EthernetTypeIPv4}
	ip := &layers.IPv4{Version: 4, IHL: 5, TOS: h.DSCP<<2 | h.ECN, Flags: layers.IPv4DontFragment, TTL: h.TTL,
		Protocol: layers.IPProtocolUDP, SrcIP: net.IP(src[:]), DstIP: net.IP(dst[:])}
	udp := &layers.UDP{SrcPort: layers.UDPPort(h.SrcPort), DstPort: UDPPort}
	if err := udp.SetNetworkLayerForChecksum(ip); err != nil {
		return nil, nil, nil, err
	}
	return eth, ip, udp, nil
}

// build serializes the stack, then fills the ICRC and sets the UDP checksum to 0 (as Linux rxe sends).
func build(ls ...gopacket.SerializableLayer) ([]byte, error) {
	buf := gopacket.NewSerializeBuffer()
	opts := gopacket.SerializeOptions{FixLengths: true, ComputeChecksums: true}
	if err := gopacket.SerializeLayers(buf, opts, ls...); err != nil {
		return nil, err
	}
	frame := buf.Bytes()
	if err := FixICRC(frame); err != nil {
		return nil, err
	}
	out := make([]byte, len(frame))
	copy(out, frame)
	return out, nil
}

// BuildData returns the Ethernet frame of d, ICRC included.
func BuildData(d *Data) ([]byte, error) {
	eth, ip, udp, err := netLayers(&d.Header)
	if err != nil {
		return nil, err
	}
	bth := &BTH{Opcode: OpSendOnly, PKey: d.PKey, DestQP: d.DestQP, AckReq: d.AckReq, PSN: d.PSN}
	sp := &Spray{Path: d.Path, PSeq: d.PSeq, MsgID: d.MsgID, Offset: d.Offset}
	if d.First {
		sp.Flags |= SprayFirst
	}
	if d.Last {
		sp.Flags |= SprayLast
	}
	return build(eth, ip, udp, bth, sp, gopacket.Payload(d.Payload))
}

// BuildAck returns the Ethernet frame of a, ICRC included.
func BuildAck(a *Ack) ([]byte, error) {
	eth, ip, udp, err := netLayers(&a.Header)
	if err != nil {
		return nil, err
	}
	if a.CumPSN > Max24 {
		return nil, invalid("BTH", "psn", uint64(a.CumPSN), "0..0xFFFFFF")
	}
	bth := &BTH{Opcode: OpAck, PKey: a.PKey, DestQP: a.DestQP, PSN: (a.CumPSN - 1) & Max24}
	aeth := &AETH{Syndrome: SyndromeACK, MSN: a.MSN}
	if a.NAK {
		bth.PSN = a.CumPSN
		aeth.Syndrome = SyndromeNAKSeq
	}
	ls := []gopacket.SerializableLayer{eth, ip, udp, bth, aeth}
	if a.HasSACK {
		s := &SACK{Path: a.Path, PNext: a.PNext, Words: a.Words, Bitmap: a.Bitmap}
		if u := s.usedWords(); u > s.Words {
			return nil, invalid("SACK", "bitmap", uint64(u), fmt.Sprintf("set bits within Words=%d words", s.Words))
		}
		if a.ECNEcho {
			s.Flags = SACKECN
		}
		ls = append(ls, s)
	}
	return build(ls...)
}

// BuildPlain returns the Ethernet frame of a plain IBTA packet (no spray or SACK extension): h's Ethernet, IPv4
// and UDP headers, then ls, which start with a *BTH whose ICRC is filled in here. Used by the compatibility mode
// (system/ibrc) for SEND First/Middle/Last/Only and AETH-only ACKs.
func BuildPlain(h *Header, ls ...gopacket.SerializableLayer) ([]byte, error) {
	if len(ls) == 0 {
		return nil, invalid("BTH", "layers", 0, "a BTH first")
	}
	if _, ok := ls[0].(*BTH); !ok {
		return nil, invalid("BTH", "layers", 0, "a BTH first")
	}
	eth, ip, udp, err := netLayers(h)
	if err != nil {
		return nil, err
	}
	return build(append([]gopacket.SerializableLayer{eth, ip, udp}, ls...)...)
}

// ICRC returns the RoCEv2 invariant CRC of ipPacket: the IPv4 packet as on the wire (IP header through the ICRC
// field; the last 4 bytes, the ICRC field itself, are not covered). It is CRC-32 (IEEE 802.3, reflected, init and
// final XOR 0xFFFFFFFF) over 8 bytes of 0xFF, the IPv4 header with TOS, TTL and header checksum set to ones, the
// UDP header with its checksum set to ones, the BTH with byte 4 (FECN, BECN, resv6) set to ones, and the rest of
// the UDP payload. The wire carries the result little-endian. ipPacket must be at least IHL*4+8+12+4 bytes;
// shorter input returns 0. It does not allocate.
func ICRC(ipPacket []byte) uint32 {
	if len(ipPacket) < 1 {
		return 0
	}
	ihl := int(ipPacket[0]&0x0F) * 4
	if ihl < ipLen || len(ipPacket) < ihl+udpLen+BTHLen+ICRCLen {
		return 0
	}
	// The masked headers are hashed byte by byte from the input (no masked copy: crc32.Update would move a stack
	// buffer to the heap); the unmasked rest goes through crc32.Update.
	udp, bth := ihl, ihl+udpLen
	crc := ^uint32(0)
	for i := 0; i < 8; i++ {
		crc = crcByte(crc, 0xFF)
	}
	for i, b := range ipPacket[:bth+BTHLen] {
		switch i {
		case 1, 8, 10, 11, udp + 6, udp + 7, bth + 4: // TOS, TTL, IP checksum, UDP checksum, BTH FECN/BECN/resv6
			b = 0xFF
		}
		crc = crcByte(crc, b)
	}
	return crc32.Update(^crc, crc32.IEEETable, ipPacket[bth+BTHLen:len(ipPacket)-ICRCLen])
}

// crcByte advances a (non-inverted) reflected CRC-32 register by one byte.
func crcByte(crc uint32, b byte) uint32 {
	return crc32.IEEETable[byte(crc)^b] ^ crc>>8

}

// FixICRC computes the ICRC of an Ethernet II / IPv4 frame in place (the ICRC field is the last 4 bytes of the
// IPv4 packet) and sets the UDP checksum to 0 (RoCEv2 does not use it; Linux rxe sends 0).
func FixICRC(frame []byte) error {
	ip, err := icrcSpan(frame)
	if err != nil {
		return err
	}
	ihl := int(ip[0]&0x0F) * 4
	ip[ihl+6], ip[ihl+7] = 0, 0
	binary.LittleEndian.PutUint32(ip[len(ip)-ICRCLen:], ICRC(ip))
	return nil
}

// FixChecksums recomputes the IPv4 header checksum of an Ethernet II / IPv4 frame, then does FixICRC: what a
// test or a tool that edits a frame's bytes calls before handing it on.
func FixChecksums(frame []byte) error {
	ip, err := icrcSpan(frame)
	if err != nil {
		return err
	}
	ihl := int(ip[0]&0x0F) * 4
	ip[10], ip[11] = 0, 0
	binary.BigEndian.PutUint16(ip[10:], ipChecksum(ip[:ihl]))
	return FixICRC(frame)
}

// ipChecksum is the RFC 791 header checksum of h: the ones' complement of the ones' complement sum of its 16-bit
// words (0 over a header whose checksum field is right).
func ipChecksum(h []byte) uint16 {
	var s uint32
	for i := 0; i+1 < len(h); i += 2 {
		s += uint32(h[i])<<8 | uint32(h[i+1])
	}
	for s > 0xFFFF {
		s = s&0xFFFF + s>>16
	}
	return ^uint16(s)
}

// icrcSpan returns the IPv4 packet of an Ethernet II frame, bounded by the IP total length, after checking only
// the lengths the ICRC needs (FixICRC edits frames Parse would reject).
func icrcSpan(frame []byte) ([]byte, error) {
	if len(frame) < ethLen+ipLen {
		return nil, truncated("IPv4", "header", max(len(frame)-ethLen, 0), ipLen)
	}
	if t := binary.BigEndian.Uint16(frame[12:]); t != etherTypeIPv4 {
		return nil, notRoCE("Ethernet", "ethertype", uint64(t), named(t, "%#04x", ethertypeNames), "0x0800 (IPv4)")
	}
	ip := frame[ethLen:]
	ihl := int(ip[0]&0x0F) * 4
	tot := int(binary.BigEndian.Uint16(ip[2:]))
	switch {
	case ip[0]>>4 != 4 || ihl < ipLen:
		return nil, invalid("IPv4", "version and ihl", uint64(ip[0]), "version 4, ihl 5..15")
	case tot > len(ip):
		return nil, claimed("IPv4", "total length", len(ip), tot)
	case tot < ihl+udpLen+BTHLen+ICRCLen:
		return nil, invalid("IPv4", "total length", uint64(tot), fmt.Sprintf(">= %d", ihl+udpLen+BTHLen+ICRCLen))
	}
	return ip[:tot], nil
}
