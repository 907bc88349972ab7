package livelink

import (
	"encoding/binary"
	"net/netip"
)

// ARP (RFC 826) over Ethernet for IPv4: the opcodes and the frame length without padding.
const (
	arpRequest  = 1
	arpReply    = 2
	etherARP    = 0x0806
	arpFrameLen = 14 + 28
)

// arpPacket is the part of an ARP packet this package reads.
type arpPacket struct {
	op       uint16
	sha, tha [6]byte
	spa, tpa netip.Addr
}

// parseARP reads an Ethernet/IPv4 ARP frame; ok is false for any other frame.
func parseARP(f []byte) (arpPacket, bool) {
	var a arpPacket
	if len(f) < arpFrameLen || binary.BigEndian.Uint16(f[12:]) != etherARP {
		return a, false
	}
	b := f[14:]
	if binary.BigEndian.Uint16(b[0:]) != 1 || binary.BigEndian.Uint16(b[2:]) != 0x0800 || b[4] != 6 || b[5] != 4 {
		return a, false
	}
	a.op = binary.BigEndian.Uint16(b[6:])
	copy(a.sha[:], b[8:14])
	a.spa = netip.AddrFrom4([4]byte(b[14:18]))
	copy(a.tha[:], b[18:24])
	a.tpa = netip.AddrFrom4([4]byte(b[24:28]))
	return a, true
}

// buildARP returns an ARP frame (padded to the 60-byte Ethernet minimum) from sha/spa to tha/tpa; a request goes
// to the broadcast address.
func buildARP(op uint16, sha [6]byte, spa netip.Addr, tha [6]byte, tpa netip.Addr) []byte {
	f := make([]byte, 60)
	dst := tha
	if op == arpRequest {
		dst = [6]byte{0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF}
	}
	copy(f[0:], dst[:])
	copy(f[6:], sha[:])
	binary.BigEndian.PutUint16(f[12:], etherARP)
	b := f[14:]
	binary.BigEndian.PutUint16(b[0:], 1)
	binary.BigEndian.PutUint16(b[2:], 0x0800)
	b[4], b[5] = 6, 4
	binary.BigEndian.PutUint16(b[6:], op)
	copy(b[8:], sha[:])
	s4, t4 := spa.As4(), tpa.As4()
	copy(b[14:], s4[:])
	copy(b[18:], tha[:])
	copy(b[24:], t4[:])
	return f
}
