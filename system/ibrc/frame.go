package ibrc

import (
	"encoding/binary"
	"fmt"
	"net/netip"

	"github.com/google/gopacket"

	"github.com/spraynic/spraynic/system/roce"
)

// IBTA RC opcodes this package sends and accepts.
const (
	OpSendFirst  = 0x00
	OpSendMiddle = 0x01
	OpSendLast   = 0x02
	OpSendOnly   = 0x04
	OpAck        = 0x11
)

// AETH syndromes (IBTA 9.7.5.2.2): bits 6:5 the type, bits 4:0 the credit count, RNR timer or NAK code.
const (
	// SynACK is an ACK with the credit field "invalid" (0x1F): no end-to-end credits, as rxe sends.
	SynACK = 0x1F
	// SynNAKSeq is a NAK "PSN sequence error".
	SynNAKSeq = 0x60
	// SynNAKInvalid is a NAK "invalid request" (an opcode out of sequence).
	SynNAKInvalid = 0x61
	synTypeMask   = 0x60
	synTypeACK    = 0x00
	synTypeRNR    = 0x20
	synTypeNAK    = 0x60
)

// Frame offsets: Ethernet II, IPv4 without options, UDP.
const (
	ethLen = 14
	ipLen  = 20
	udpLen = 8
	// Overhead is the frame bytes around a payload: Ethernet, IPv4, UDP, BTH and ICRC (no pad).
	Overhead = ethLen + ipLen + udpLen + roce.BTHLen + roce.ICRCLen
)

// Packet is a parsed, ICRC-checked RC frame addressed to a queue pair.
type Packet struct {
	// SrcMAC is the Ethernet source; SrcIP and DstIP the IPv4 addresses.
	SrcMAC        [6]byte
	SrcIP, DstIP  netip.Addr
	Opcode        uint8
	DestQP, PSN   uint32
	AckReq        bool
	Syndrome      uint8
	MSN           uint32
	Payload       []byte
	ICRC, WantCRC uint32
}

// Build returns the Ethernet frame of one RC packet: BTH (opcode, dest QP, AckReq, PSN), an AETH when aeth is
// not nil, the payload, pad and ICRC. The UDP checksum is 0, as rxe sends.
func Build(h *roce.Header, op uint8, psn uint32, ackReq bool, aeth *roce.AETH, payload []byte) ([]byte, error) {
	bth := &roce.BTH{Opcode: op, PKey: h.PKey, DestQP: h.DestQP, AckReq: ackReq, PSN: psn & roce.Max24}
	ls := []gopacket.SerializableLayer{bth}
	if aeth != nil {
		ls = append(ls, aeth)
	}
	if len(payload) > 0 {
		ls = append(ls, gopacket.Payload(payload))
	}
	return roce.BuildPlain(h, ls...)
}

// Parse checks frame as RC over RoCEv2 (IPv4, UDP port 4791, length fields, ICRC) and returns its fields. The
// payload aliases frame.
func Parse(frame []byte) (Packet, error) {
	var p Packet
	if len(frame) < ethLen+ipLen || binary.BigEndian.Uint16(frame[12:]) != 0x0800 {
		return p, fmt.Errorf("not IPv4 over Ethernet II")
	}
	ip := frame[ethLen:]
	ihl := int(ip[0]&0x0F) * 4
	tot := int(binary.BigEndian.Uint16(ip[2:]))
	if ip[0]>>4 != 4 || ihl < ipLen || tot > len(ip) || tot < ihl+udpLen+roce.BTHLen+roce.ICRCLen || ip[9] != 17 {
		return p, fmt.Errorf("not a whole IPv4/UDP packet")
	}
	ip = ip[:tot]
	udp := ip[ihl:]
	if binary.BigEndian.Uint16(udp[2:]) != roce.UDPPort {
		return p, fmt.Errorf("UDP port %d, not 4791", binary.BigEndian.Uint16(udp[2:]))
	}
	var bth roce.BTH
	if err := bth.DecodeFromBytes(udp[udpLen:], gopacket.NilDecodeFeedback); err != nil {
		return p, err
	}
	copy(p.SrcMAC[:], frame[6:12])
	p.SrcIP, _ = netip.AddrFromSlice(ip[12:16])
	p.DstIP, _ = netip.AddrFromSlice(ip[16:20])
	p.Opcode, p.DestQP, p.PSN, p.AckReq, p.ICRC = bth.Opcode, bth.DestQP, bth.PSN, bth.AckReq, bth.ICRC
	p.WantCRC = roce.ICRC(ip)
	if p.ICRC != p.WantCRC {
		return p, fmt.Errorf("ICRC %#08x, computed %#08x", p.ICRC, p.WantCRC)
	}
	p.Payload = bth.Payload
	if bth.Opcode == OpAck {
		var a roce.AETH
		if err := a.DecodeFromBytes(bth.Payload, gopacket.NilDecodeFeedback); err != nil {
			return p, err
		}
		p.Syndrome, p.MSN, p.Payload = a.Syndrome, a.MSN, nil
	}
	return p, nil
}

// aethOf returns the AETH of a parsed ACK.
func aethOf(p Packet) *roce.AETH { return &roce.AETH{Syndrome: p.Syndrome, MSN: p.MSN} }
