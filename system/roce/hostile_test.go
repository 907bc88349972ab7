package roce

import (
	"bytes"
	"encoding/binary"
	"net"
	"net/netip"
	"testing"

	"github.com/google/gopacket"
	"github.com/google/gopacket/layers"
	"github.com/stretchr/testify/require"
)

// Offsets of the extensions in an untagged frame without IPv4 options.
const (
	extOff  = bthOff + BTHLen // spray header or AETH
	sackOff = extOff + AETHLen
)

// testLimits are a receiver of the default preset (8 paths, 64 SACK bits, QPs 256..271) with MTU 4096.
var testLimits = Limits{Paths: 8, MTU: 4096, QPNBase: 256, Conns: 16, SackBits: 64}

// hostileHeader is the header of every hostile frame: connection 3 of the default preset.
func hostileHeader() Header {
	return Header{SrcMAC: [6]byte{2, 0, 0, 0, 0, 1}, DstMAC: [6]byte{2, 0, 0, 0, 0, 2},
		SrcIP: netip.MustParseAddr("10.0.0.1"), DstIP: netip.MustParseAddr("10.0.0.2"), ECN: ECNECT0, TTL: 64,
		SrcPort: 0xC003, PKey: DefaultPKey, DestQP: 259}
}

// dataFrame builds a valid data packet (path 3, 8 payload bytes) after mod changes its fields.
func dataFrame(t testing.TB, mod func(d *Data)) []byte {
	t.Helper()
	d := Data{Header: hostileHeader(), PSN: 100, Path: 3, PSeq: 7, First: true, MsgID: 5,
		Payload: bytes.Repeat([]byte{0x5a}, 8)}
	if mod != nil {
		mod(&d)
	}
	f, err := BuildData(&d)
	require.NoError(t, err)
	return f
}

// ackFrame builds a valid ACK (path 2, 2 bitmap words) after mod changes its fields.
func ackFrame(t testing.TB, mod func(a *Ack)) []byte {
	t.Helper()
	a := Ack{Header: hostileHeader(), CumPSN: 100, MSN: 1, HasSACK: true, Path: 2, PNext: 9, Words: 2,
		Bitmap: [8]uint32{0x5}}
	if mod != nil {
		mod(&a)
	}
	f, err := BuildAck(&a)
	require.NoError(t, err)
	return f
}

// edited returns f after edit changed its bytes, with the IPv4 checksum and the ICRC recomputed (so the check
// under test, not a checksum, is what rejects it).
func edited(t testing.TB, f []byte, edit func(f []byte)) []byte {
	t.Helper()
	g := append([]byte(nil), f...)
	edit(g)
	require.NoError(t, FixChecksums(g))
	return g
}

// tcpFrame is an IPv4 TCP segment with 40 payload bytes.
func tcpFrame(t testing.TB) []byte {
	t.Helper()
	eth := &layers.Ethernet{SrcMAC: net.HardwareAddr{2, 0, 0, 0, 0, 1}, DstMAC: net.HardwareAddr{2, 0, 0, 0, 0, 2},
		EthernetType: layers.EthernetTypeIPv4}
	ip := &layers.IPv4{Version: 4, IHL: 5, TTL: 64, Protocol: layers.IPProtocolTCP, SrcIP: net.IP{10, 0, 0, 1},
		DstIP: net.IP{10, 0, 0, 2}}
	tcp := &layers.TCP{SrcPort: 40000, DstPort: 4791, Seq: 1, Window: 512, ACK: true}
	require.NoError(t, tcp.SetNetworkLayerForChecksum(ip))
	buf := gopacket.NewSerializeBuffer()
	require.NoError(t, gopacket.SerializeLayers(buf, gopacket.SerializeOptions{FixLengths: true,
		ComputeChecksums: true}, eth, ip, tcp, gopacket.Payload(make([]byte, 40))))
	return buf.Bytes()
}

// withOptions inserts 4 bytes of IPv4 options (NOP x 4) into a frame: IHL 6, lengths and checksums fixed.
func withOptions(t testing.TB, f []byte) []byte {
	t.Helper()
	g := append(append(append([]byte(nil), f[:udpOff]...), 1, 1, 1, 1), f[udpOff:]...)
	g[ipOff] = 0x46
	binary.BigEndian.PutUint16(g[ipOff+2:], binary.BigEndian.Uint16(g[ipOff+2:])+4)
	require.NoError(t, FixChecksums(g))
	return g
}

// hostileFrame is one frame a receiver must reject with exactly want, or accept when want is empty.
type hostileFrame struct {
	name  string
	frame func(t testing.TB) []byte
	// limits, when set, replace testLimits.
	limits *Limits
	want   string
}

// hostileFrames are the frames TestHostileFrames feeds to Limits.Parse.
var hostileFrames = []hostileFrame{
	{name: "path 200 on 8 paths", frame: func(t testing.TB) []byte {
		return dataFrame(t, func(d *Data) { d.Path = 200 })
	}, want: "roce: Spray path: outside the configuration: value 200 (0xc8), allowed 0..7 (paths 8)"},
	{name: "payload 9000 bytes above MTU 4096", frame: func(t testing.TB) []byte {
		return dataFrame(t, func(d *Data) { d.Payload = make([]byte, 9000) })
	}, want: "roce: Spray payload: outside the configuration: 9000 bytes, allowed 0..4096 bytes (the MTU)"},
	{name: "pad count 0 on a 5-byte payload", frame: func(t testing.TB) []byte {
		f := dataFrame(t, func(d *Data) { d.Payload = []byte{1, 2, 3, 4, 5} })
		g := append(append([]byte(nil), f[:len(f)-7]...), f[len(f)-4:]...) // drop the 3 pad bytes
		return edited(t, g, func(g []byte) {
			g[bthOff+1] &^= 0x30
			binary.BigEndian.PutUint16(g[ipOff+2:], uint16(len(g)-ethLen))
			binary.BigEndian.PutUint16(g[udpOff+4:], uint16(len(g)-udpOff))
		})
	}, want: "roce: BTH pad count: invalid field: value 0 (0x0), allowed 3 (for a payload of 5 bytes)"},
	{name: "TCP segment", frame: tcpFrame,
		want: "roce: IPv4 protocol: not RoCEv2: value 6 (TCP), allowed 17 (UDP)"},
	{name: "IPv4 total length beyond the frame", frame: func(t testing.TB) []byte {
		return dataFrame(t, func(d *Data) { d.Payload = make([]byte, 64) })[:40]
	}, want: "roce: IPv4 total length: truncated: 26 bytes present, 124 claimed"},
	{name: "QP 0", frame: func(t testing.TB) []byte {
		return edited(t, dataFrame(t, nil), func(g []byte) { put24(g[bthOff+5:], 0) })
	}, want: "roce: BTH dest qp: invalid field: value 0 (0x0), allowed 2..0xFFFFFE (0 and 1 are the management " +
		"QPs, 0xFFFFFF the multicast QPN)"},
	{name: "QP 0xFFFFFF multicast", frame: func(t testing.TB) []byte {
		return edited(t, dataFrame(t, nil), func(g []byte) { put24(g[bthOff+5:], Max24) })
	}, want: "roce: BTH dest qp: invalid field: value 16777215 (0xffffff), allowed 2..0xFFFFFE (0 and 1 are the " +
		"management QPs, 0xFFFFFF the multicast QPN)"},
	{name: "QP 99 outside qpn_base 256", frame: func(t testing.TB) []byte {
		return dataFrame(t, func(d *Data) { d.DestQP = 99 })
	}, want: "roce: BTH dest qp: outside the configuration: value 99 (0x63), allowed 256..271 " +
		"(qpn_base 256, conns 16)"},
	{name: "spray header without type (layout before version 1)", frame: func(t testing.TB) []byte {
		return edited(t, dataFrame(t, nil), func(g []byte) { copy(g[extOff:], []byte{6, 0, 0, 0, 0x80, 0, 0, 0}) })
	}, want: "roce: Spray type: invalid field: value 6 (0x6), allowed 0xb5 (spray data header)"},
	{name: "runt frame", frame: func(t testing.TB) []byte { return dataFrame(t, nil)[:10] },
		want: "roce: Ethernet header: truncated: 10 bytes present, 14 needed"},
	{name: "empty frame", frame: func(t testing.TB) []byte { return nil },
		want: "roce: Ethernet header: truncated: 0 bytes present, 14 needed"},
	{name: "802.1Q VLAN tag", frame: func(t testing.TB) []byte {
		f := dataFrame(t, nil)
		return append(append(append([]byte(nil), f[:12]...), 0x81, 0x00, 0x00, 0x05), f[12:]...)
	}, want: "roce: Ethernet ethertype: not RoCEv2: value 0x8100 (802.1Q VLAN tag), allowed 0x0800 (IPv4)"},
	{name: "IPv6", frame: func(t testing.TB) []byte {
		f := dataFrame(t, nil)
		f[12], f[13] = 0x86, 0xDD
		return f
	}, want: "roce: Ethernet ethertype: not RoCEv2: value 0x86dd (IPv6), allowed 0x0800 (IPv4)"},
	{name: "IPv4 options are accepted", frame: func(t testing.TB) []byte { return withOptions(t, dataFrame(t, nil)) }},
	{name: "IPv4 IHL 4", frame: func(t testing.TB) []byte {
		f := dataFrame(t, nil)
		f[ipOff] = 0x44
		return f
	}, want: "roce: IPv4 ihl: invalid field: value 4 (0x4), allowed 5..15 (32-bit words)"},
	{name: "IPv4 version 6 under EtherType IPv4", frame: func(t testing.TB) []byte {
		f := dataFrame(t, nil)
		f[ipOff] = 0x65
		return f
	}, want: "roce: IPv4 version: invalid field: value 6 (0x6), allowed 4"},
	{name: "IPv4 more fragments", frame: func(t testing.TB) []byte {
		return edited(t, dataFrame(t, nil), func(g []byte) { g[ipOff+6] = 0x20 })
	}, want: "roce: IPv4 fragment: invalid field: MF 1, offset 0 bytes, allowed MF 0, offset 0 (DF is sent)"},
	{name: "IPv4 fragment offset 1480", frame: func(t testing.TB) []byte {
		return edited(t, dataFrame(t, nil), func(g []byte) { binary.BigEndian.PutUint16(g[ipOff+6:], 185) })
	}, want: "roce: IPv4 fragment: invalid field: MF 0, offset 1480 bytes, allowed MF 0, offset 0 (DF is sent)"},
	{name: "IPv4 header checksum", frame: func(t testing.TB) []byte {
		f := dataFrame(t, nil)
		f[ipOff+10] ^= 0xFF
		return f
	}, want: "roce: IPv4 header checksum: invalid field: value 55717 (0xd9a5), allowed 0x26a5 (RFC 791, over this " +
		"header)"},
	{name: "UDP port 4790", frame: func(t testing.TB) []byte {
		return edited(t, dataFrame(t, nil), func(g []byte) { binary.BigEndian.PutUint16(g[udpOff+2:], 4790) })
	}, want: "roce: UDP dst port: not RoCEv2: value 4790, allowed 4791 (RoCEv2)"},
	{name: "UDP length below the IPv4 payload", frame: func(t testing.TB) []byte {
		return edited(t, dataFrame(t, nil), func(g []byte) { binary.BigEndian.PutUint16(g[udpOff+4:], 40) })
	}, want: "roce: UDP length: invalid field: value 40 (0x28), allowed 48 (the IPv4 payload length)"},
	{name: "UDP header cut by the IPv4 total length", frame: func(t testing.TB) []byte {
		f := dataFrame(t, nil)[:udpOff+4]
		binary.BigEndian.PutUint16(f[ipOff+2:], 24)
		fixIPChecksum(f)
		return f
	}, want: "roce: UDP header: truncated: 4 bytes present, 8 needed"},
	{name: "BTH TVer 1", frame: func(t testing.TB) []byte {
		return edited(t, dataFrame(t, nil), func(g []byte) { g[bthOff+1] |= 1 })
	}, want: "roce: BTH tver: invalid field: value 1 (0x1), allowed 0"},
	{name: "opcode RC RDMA Write Only", frame: func(t testing.TB) []byte {
		return edited(t, dataFrame(t, nil), func(g []byte) { g[bthOff] = 0x0A })
	}, want: "roce: BTH opcode: unknown opcode: value 10 (0xa), allowed 0x04 (RC SEND Only), 0x11 (RC Acknowledge)"},
	{name: "ICRC missing", frame: func(t testing.TB) []byte {
		f := dataFrame(t, nil)[:bthOff+BTHLen+2]
		binary.BigEndian.PutUint16(f[ipOff+2:], uint16(len(f)-ethLen))
		binary.BigEndian.PutUint16(f[udpOff+4:], uint16(len(f)-udpOff))
		fixIPChecksum(f)
		return f
	}, want: "roce: ICRC: truncated: 2 bytes present, 4 needed"},
	{name: "bad ICRC", frame: func(t testing.TB) []byte {
		f := dataFrame(t, nil)
		copy(f[len(f)-4:], []byte{0, 0, 0, 0})
		return f
	}, want: "roce: bad ICRC: expected 0xa5e78d0d, found 0x00000000"},
	{name: "spray flags reserved bit 0", frame: func(t testing.TB) []byte {
		return edited(t, dataFrame(t, nil), func(g []byte) { g[extOff+2] |= 0x01 })
	}, want: "roce: Spray flags: invalid field: value 129 (0x81), allowed bits 7 (first) and 6 (last) only"},
	{name: "spray version 2", frame: func(t testing.TB) []byte {
		return edited(t, dataFrame(t, nil), func(g []byte) { g[extOff+3] = 2 })
	}, want: "roce: Spray version: invalid field: value 2 (0x2), allowed 1"},
	{name: "spray length 20", frame: func(t testing.TB) []byte {
		return edited(t, dataFrame(t, nil), func(g []byte) { g[extOff+12] = 20 })
	}, want: "roce: Spray length: invalid field: value 20 (0x14), allowed 16"},
	{name: "spray header cut to 8 bytes", frame: func(t testing.TB) []byte {
		f := dataFrame(t, func(d *Data) { d.Payload = nil })
		g := append(append([]byte(nil), f[:extOff+8]...), f[len(f)-4:]...)
		return edited(t, g, func(g []byte) {
			binary.BigEndian.PutUint16(g[ipOff+2:], uint16(len(g)-ethLen))
			binary.BigEndian.PutUint16(g[udpOff+4:], uint16(len(g)-udpOff))
		})
	}, want: "roce: Spray header: truncated: 8 bytes present, 16 needed"},
	{name: "AETH RNR NAK", frame: func(t testing.TB) []byte {
		return edited(t, ackFrame(t, nil), func(g []byte) { g[extOff] = 0x20 })
	}, want: "roce: AETH syndrome: invalid field: value 32 (0x20), allowed ACK (0x00..0x1F) or NAK PSN sequence " +
		"error (0x60)"},
	{name: "SACK flags reserved bit 0", frame: func(t testing.TB) []byte {
		return edited(t, ackFrame(t, nil), func(g []byte) { g[sackOff+4] = 0x01 })
	}, want: "roce: SACK flags: invalid field: value 1 (0x1), allowed bit 7 (ecn echo) only"},
	{name: "SACK reserved 16 bits", frame: func(t testing.TB) []byte {
		return edited(t, ackFrame(t, nil), func(g []byte) { g[sackOff+7] = 0x01 })
	}, want: "roce: SACK reserved: invalid field: value 1 (0x1), allowed 0"},
	{name: "SACK words 9", frame: func(t testing.TB) []byte {
		return edited(t, ackFrame(t, nil), func(g []byte) { g[sackOff+5] = 9 })
	}, want: "roce: SACK bitmap words: invalid field: value 9 (0x9), allowed 0..8"},
	{name: "SACK words 5, 2 present", frame: func(t testing.TB) []byte {
		return edited(t, ackFrame(t, nil), func(g []byte) { g[sackOff+5] = 5 })
	}, want: "roce: SACK bitmap: truncated: 8 bytes present, 20 needed"},
	{name: "SACK trailing bytes", frame: func(t testing.TB) []byte {
		f := ackFrame(t, nil)
		g := append(append(append([]byte(nil), f[:len(f)-4]...), 0, 0, 0, 0), f[len(f)-4:]...)
		return edited(t, g, func(g []byte) {
			binary.BigEndian.PutUint16(g[ipOff+2:], uint16(len(g)-ethLen))
			binary.BigEndian.PutUint16(g[udpOff+4:], uint16(len(g)-udpOff))
		})
	}, want: "roce: SACK trailing bytes: invalid field: value 4 (0x4), allowed 0 (the bitmap ends the packet)"},
	{name: "SACK words 3 on sack_bits 64", frame: func(t testing.TB) []byte {
		return ackFrame(t, func(a *Ack) { a.Words = 3 })
	}, want: "roce: SACK bitmap words: outside the configuration: value 3 (0x3), allowed 0..2 (sack_bits 64)"},
	{name: "SACK bit 20 on sack_bits 16", frame: func(t testing.TB) []byte {
		return ackFrame(t, func(a *Ack) { a.Words, a.Bitmap = 1, [8]uint32{1 << 20} })
	}, limits: &Limits{Paths: 8, MTU: 4096, QPNBase: 256, Conns: 16, SackBits: 16},
		want: "roce: SACK bitmap: outside the configuration: bit 20 set, allowed bits 0..15 (sack_bits 16)"},
	{name: "SACK path 9 on 8 paths", frame: func(t testing.TB) []byte {
		return ackFrame(t, func(a *Ack) { a.Path = 9 })
	}, want: "roce: SACK path: outside the configuration: value 9 (0x9), allowed 0..7 (paths 8)"},
	{name: "ACK with pad count 1", frame: func(t testing.TB) []byte {
		return edited(t, ackFrame(t, nil), func(g []byte) { g[bthOff+1] |= 0x10 })
	}, want: "roce: BTH pad count: invalid field: value 1 (0x1), allowed 0 (an Acknowledge is 4-byte aligned)"},
	{name: "bytes after the IPv4 packet are accepted", frame: func(t testing.TB) []byte {
		return append(dataFrame(t, nil), 0xde, 0xad, 0xbe, 0xef) // an FCS a capture kept
	}},
	{name: "plain IBTA ACK is accepted", frame: func(t testing.TB) []byte {
		return ackFrame(t, func(a *Ack) { a.HasSACK, a.Words, a.Bitmap = false, 0, [8]uint32{} })
	}},
}

// TestHostileFrames: each hostile frame is rejected with its exact message (or accepted), never a panic.
func TestHostileFrames(t *testing.T) {
	for _, tc := range hostileFrames {
		t.Run(tc.name, func(t *testing.T) {
			lim := testLimits
			if tc.limits != nil {
				lim = *tc.limits
			}
			_, err := lim.Parse(tc.frame(t))
			if tc.want == "" {
				require.NoError(t, err)
				return
			}
			require.EqualError(t, err, tc.want)
		})
	}
}
