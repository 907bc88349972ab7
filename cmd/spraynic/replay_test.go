package main

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"net/netip"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/gopacket"
	"github.com/google/gopacket/layers"
	"github.com/google/gopacket/pcapgo"
	"github.com/stretchr/testify/require"

	"github.com/spraynic/spraynic/system/roce"
)

// Offsets in an untagged frame without IPv4 options: IPv4, UDP, BTH, the spray header.
const (
	tIP    = 14
	tUDP   = tIP + 20
	tBTH   = tUDP + 8
	tSpray = tBTH + roce.BTHLen
)

// replayData builds a data packet of connection 0 of the default preset (QP 256): PSN psn, path 0, path
// sequence psn, 8 payload bytes, after mod changes it.
func replayData(t *testing.T, psn uint32, mod func(d *roce.Data)) []byte {
	t.Helper()
	d := roce.Data{Header: roce.Header{SrcMAC: [6]byte{2, 0, 0, 0, 0, 1}, DstMAC: [6]byte{2, 0, 0, 0, 0, 2},
		SrcIP: netip.MustParseAddr("10.0.0.1"), DstIP: netip.MustParseAddr("10.0.0.2"), ECN: roce.ECNECT0,
		TTL: 64, SrcPort: 0xC000, PKey: roce.DefaultPKey, DestQP: 256}, PSN: psn, PSeq: psn, First: psn == 0,
		Last: psn == 3, MsgID: 1, Offset: psn * 8, Payload: bytes.Repeat([]byte{0x5a}, 8)}
	if mod != nil {
		mod(&d)
	}
	f, err := roce.BuildData(&d)
	require.NoError(t, err)
	return f
}

// replayEdited is f after edit, with the IPv4 checksum and the ICRC recomputed.
func replayEdited(t *testing.T, f []byte, edit func(f []byte)) []byte {
	t.Helper()
	edit(f)
	require.NoError(t, roce.FixChecksums(f))
	return f
}

// writeBytes writes b to dir/name and returns the path.
func writeBytes(t *testing.T, dir, name string, b []byte) string {
	t.Helper()
	p := filepath.Join(dir, name)
	require.NoError(t, os.WriteFile(p, b, 0o644))
	return p
}

// pcapOf returns frames as a pcap file.
func pcapOf(t *testing.T, frames ...[]byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	require.NoError(t, roce.WritePcap(&buf, frames, nil))
	return buf.Bytes()
}

// pcapngOf returns frames as a pcapng file of one interface of link type lt.
func pcapngOf(t *testing.T, lt layers.LinkType, frames ...[]byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	w, err := pcapgo.NewNgWriter(&buf, lt)
	require.NoError(t, err)
	for i, f := range frames {
		ci := gopacket.CaptureInfo{Timestamp: time.Unix(0, int64(i)), CaptureLength: len(f), Length: len(f)}
		require.NoError(t, w.WritePacket(ci, f))
	}
	require.NoError(t, w.Flush())
	return buf.Bytes()
}

// tcpSegment is an IPv4 TCP segment to port 4791 with 40 payload bytes.
func tcpSegment(t *testing.T) []byte {
	t.Helper()
	eth := &layers.Ethernet{SrcMAC: []byte{2, 0, 0, 0, 0, 1}, DstMAC: []byte{2, 0, 0, 0, 0, 2},
		EthernetType: layers.EthernetTypeIPv4}
	ip := &layers.IPv4{Version: 4, IHL: 5, TTL: 64, Protocol: layers.IPProtocolTCP, SrcIP: []byte{10, 0, 0, 1},
		DstIP: []byte{10, 0, 0, 2}}
	tcp := &layers.TCP{SrcPort: 40000, DstPort: 4791, Seq: 1, Window: 512, ACK: true}
	require.NoError(t, tcp.SetNetworkLayerForChecksum(ip))
	buf := gopacket.NewSerializeBuffer()
	require.NoError(t, gopacket.SerializeLayers(buf, gopacket.SerializeOptions{FixLengths: true,
		ComputeChecksums: true}, eth, ip, tcp, gopacket.Payload(make([]byte, 40))))
	return buf.Bytes()
}

// TestReplayHostile: replay refuses each hostile capture with its exact message, before any model is built.
func TestReplayHostile(t *testing.T) {
	dir := t.TempDir()
	pad := replayData(t, 0, func(d *roce.Data) { d.Payload = []byte{1, 2, 3, 4, 5} })
	pad = append(pad[:len(pad)-7:len(pad)-7], pad[len(pad)-4:]...) // drop the 3 pad bytes, keep the ICRC
	pad = replayEdited(t, pad, func(f []byte) {
		f[tBTH+1] &^= 0x30
		binary.BigEndian.PutUint16(f[tIP+2:], uint16(len(f)-tIP))
		binary.BigEndian.PutUint16(f[tUDP+4:], uint16(len(f)-tUDP))
	})
	tests := []struct {
		name string
		file []byte
		args []string
		want string
	}{
		{name: "path 200", file: pcapOf(t, replayData(t, 0, func(d *roce.Data) { d.Path = 200 })),
			want: "no frame to feed, all 1 rejected: frame 1: roce: Spray path: outside the configuration: value " +
				"200 (0xc8), allowed 0..7 (paths 8)"},
		{name: "payload 9000", file: pcapOf(t, replayData(t, 0, func(d *roce.Data) { d.Payload = make([]byte, 9000) })),
			want: "no frame to feed, all 1 rejected: frame 1: roce: Spray payload: outside the configuration: " +
				"9000 bytes, allowed 0..4096 bytes (the MTU)"},
		{name: "payload 9000 under --mtu 8000", args: []string{"--mtu", "8000"},
			file: pcapOf(t, replayData(t, 0, func(d *roce.Data) { d.Payload = make([]byte, 9000) })),
			want: "no frame to feed, all 1 rejected: frame 1: roce: Spray payload: outside the configuration: " +
				"9000 bytes, allowed 0..8000 bytes (the MTU)"},
		{name: "pad count", file: pcapOf(t, pad),
			want: "no frame to feed, all 1 rejected: frame 1: roce: BTH pad count: invalid field: value 0 (0x0), " +
				"allowed 3 (for a payload of 5 bytes)"},
		{name: "TCP", file: pcapOf(t, tcpSegment(t)),
			want: "no frame to feed, all 1 rejected: frame 1: roce: IPv4 protocol: not RoCEv2: value 6 (TCP), " +
				"allowed 17 (UDP)"},
		{name: "IPv4 total length", file: pcapOf(t, replayData(t, 0, nil)[:40]),
			want: "no frame to feed, all 1 rejected: frame 1: roce: IPv4 total length: truncated: 26 bytes " +
				"present, 68 claimed"},
		{name: "QP 0", file: pcapOf(t, replayEdited(t, replayData(t, 0, nil), func(f []byte) {
			f[tBTH+5], f[tBTH+6], f[tBTH+7] = 0, 0, 0
		})), want: "no frame to feed, all 1 rejected: frame 1: roce: BTH dest qp: invalid field: value 0 (0x0), " +
			"allowed 2..0xFFFFFE (0 and 1 are the management QPs, 0xFFFFFF the multicast QPN)"},
		{name: "spray layout before version 1", file: pcapOf(t, replayEdited(t, replayData(t, 0, nil),
			func(f []byte) { copy(f[tSpray:], []byte{6, 0, 0, 0, 0x80, 0, 0, 0}) })),
			want: "no frame to feed, all 1 rejected: frame 1: roce: Spray type: invalid field: value 6 (0x6), " +
				"allowed 0xb5 (spray data header)"},
		{name: "four frames rejected", file: pcapOf(t, tcpSegment(t), tcpSegment(t), tcpSegment(t), tcpSegment(t)),
			want: "no frame to feed, all 4 rejected: frame 1: roce: IPv4 protocol: not RoCEv2: value 6 (TCP), " +
				"allowed 17 (UDP); frame 2: roce: IPv4 protocol: not RoCEv2: value 6 (TCP), allowed 17 (UDP); " +
				"frame 3: roce: IPv4 protocol: not RoCEv2: value 6 (TCP), allowed 17 (UDP); 1 more"},
		{name: "empty file", file: nil, want: "empty file, allowed a pcap or pcapng capture"},
		{name: "garbage", file: []byte("GET / HTTP/1.1\r\n"), want: "not a capture: magic 47 45 54 20, allowed " +
			"a1 b2 c3 d4 or a1 b2 3c 4d (pcap, either byte order) or 0a 0d 0d 0a (pcapng)"},
		{name: "pcapng of link type Linux SLL", file: pcapngOf(t, layers.LinkTypeLinuxSLL, replayData(t, 0, nil)),
			want: "no frame to feed, all 1 rejected: frame 1: link type 113 (Linux SLL) of interface 0, allowed 1 " +
				"(Ethernet)"},
		{name: "cut inside the only frame", file: pcapOf(t, replayData(t, 0, nil))[:60],
			want: "frame 1 is cut: 36 of its 98 bytes present (file offset 24); the 0 frames before it are complete"},
		{name: "header only", file: pcapOf(t), want: "no frames in this pcap file"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := writeBytes(t, dir, "hostile.pcap", tc.file)
			_, err := runApp(t, append(append([]string{"replay"}, tc.args...), p)...)
			require.Error(t, err)
			want := "replay: " + p + ": " + tc.want
			if tc.name == "empty file" || tc.name == "garbage" {
				want = p + ": " + tc.want
			}
			require.EqualError(t, err, want)
		})
	}
	_, err := runApp(t, "replay", "--mtu", "0", writeBytes(t, dir, "x.pcap", pcapOf(t, replayData(t, 0, nil))))
	require.EqualError(t, err, "--mtu 0: allowed 1 or more bytes; see 'spraynic replay --help'")
}

// TestReplayCaptures: replay reads pcapng, replays the complete frames of a cut capture and fails on the cut
// unless --allow-cut (the RTL model runs: SPRAYNIC_CACHE shares it).
func TestReplayCaptures(t *testing.T) {
	dir := t.TempDir()
	frames := [][]byte{replayData(t, 0, nil), replayData(t, 1, nil), replayData(t, 2, nil), replayData(t, 3, nil)}
	ng := writeBytes(t, dir, "ok.pcapng", pcapngOf(t, layers.LinkTypeEthernet, frames...))
	out, err := runApp(t, "replay", ng)
	require.NoError(t, err)
	require.Contains(t, out, ng+": 4 frames: 4 data and 0 ACK packets fed")
	require.Contains(t, out, "completions 4")
	require.Contains(t, out, "RTL and golden model equal on every output port")

	whole := pcapOf(t, frames...)
	cut := writeBytes(t, dir, "cut.pcap", whole[:len(whole)-30])
	out, err = runApp(t, "replay", cut)
	require.EqualError(t, err, "replay: "+cut+": frame 4 is cut: 68 of its 98 bytes present (file offset 318); "+
		"the 3 frames before it are complete; they were replayed (--allow-cut accepts a cut capture)")
	require.Contains(t, out, cut+": 3 frames: 3 data and 0 ACK packets fed")
	require.Contains(t, out, "RTL and golden model equal on every output port")
	out, err = runApp(t, "replay", "--allow-cut", cut)
	require.NoError(t, err)
	require.Contains(t, out, cut+": frame 4 is cut: 68 of its 98 bytes present (file offset 318); the 3 frames "+
		"before it are complete (--allow-cut: not an error)")
}

// TestReplayFrameFlags: the flags of --level frame refuse bad values with one usage line, before any model.
func TestReplayFrameFlags(t *testing.T) {
	p := writeBytes(t, t.TempDir(), "x.pcap", pcapOf(t, replayData(t, 0, nil)))
	for _, tc := range []struct {
		args []string
		want string
	}{
		{args: []string{"--level", "beat"}, want: `--level "beat": allowed packet, frame, top`},
		{args: []string{"--level", ""}, want: `--level "": allowed packet, frame, top`},
		{args: []string{"--level", "top", "--local-mac", "02:00:00:00:00"}, want: `--local-mac "02:00:00:00:00": ` +
			"not a MAC address (allowed: six bytes, aa:bb:cc:dd:ee:ff)"},
		{args: []string{"--level", "frame", "--out", "x.pcap"}, want: "--local-mac and --out: only with --level top"},
		{args: []string{"--local-mac", "02:00:00:00:00:02"}, want: "--local-mac and --out: only with --level top"},
		{args: []string{"--level", "top", "--mtu", "1500"}, want: "--mtu 1500: allowed 256, 512, 1024, 2048, " +
			"4096 bytes with --level top (the top's MTU, an IBTA path MTU)"},
		{args: []string{"--level", "frame", "--data-width", "32"},
			want: "--data-width 32: allowed 64, 128, 256, 512 (bits; 0: the config's data_width)"},
		{args: []string{"--level", "frame", "--data-width", "96"},
			want: "--data-width 96: allowed 64, 128, 256, 512 (bits; 0: the config's data_width)"},
		{args: []string{"--level", "frame", "--mtu", "8192"}, want: "--mtu 8192: allowed 256, 512, 1024, 2048, " +
			"4096 bytes with --level frame (roce_rx's MTU, an IBTA path MTU)"},
		{args: []string{"--level", "frame", "--mtu", "1500"}, want: "--mtu 1500: allowed 256, 512, 1024, 2048, " +
			"4096 bytes with --level frame (roce_rx's MTU, an IBTA path MTU)"},
		{args: []string{"--level", "frame", "--mtu", "0"}, want: "--mtu 0: allowed 1 or more bytes"},
	} {
		_, err := runApp(t, append(append([]string{"replay"}, tc.args...), p)...)
		require.EqualError(t, err, tc.want+"; see 'spraynic replay --help'", "%v", tc.args)
	}
	_, err := runApp(t, "replay", "--level", "top", "--local-mac", "02:00:00:00:00:09", p)
	require.EqualError(t, err, "replay "+p+": no frame for the endpoint: no frame of the capture has the Ethernet "+
		"destination 02:00:00:00:00:09 (allowed: one the capture has: 02:00:00:00:00:02); see 'spraynic replay --help'")
	_, err = runApp(t, "replay", "--level", "top", "--out", p, p)
	require.EqualError(t, err, "--out "+p+": is the capture being replayed (allowed: another file); see 'spraynic "+
		"replay --help'")
}

// TestReplayFrameLevel: --level frame feeds every frame, good or bad, to roce_rx and prints the verdicts; a cut
// capture fails after the replay unless --allow-cut (the RTL model runs: SPRAYNIC_CACHE shares it).
func TestReplayFrameLevel(t *testing.T) {
	dir := t.TempDir()
	bad := replayData(t, 1, nil)
	bad[len(bad)-1] ^= 0xff
	whole := pcapOf(t, replayData(t, 0, nil), tcpSegment(t), bad, replayData(t, 2, func(d *roce.Data) {
		d.Path = 9
	}), replayData(t, 3, nil))
	p := writeBytes(t, dir, "frames.pcap", whole)
	out, err := runApp(t, "replay", "--level", "frame", "--data-width", "128", "--mtu", "4096", p)
	require.NoError(t, err)
	require.Contains(t, out, p+": 5 frames: 5 fed to roce_rx as AXI-Stream beats (config default, DATA_WIDTH "+
		"128, MTU 4096), 0 not fed\naccepted: data 2, ack 0; rejected: not_roce 1, truncated 0, invalid 0, "+
		"unknown_opcode 0, bad_icrc 1, limit 1, mac_error 0\n")
	require.Contains(t, out, "; mismatches 0\nroce_rx equals roce.Parse on every frame")
	cut := writeBytes(t, dir, "cut.pcap", whole[:len(whole)-30])
	out, err = runApp(t, "replay", "--level", "frame", "--data-width", "128", cut)
	require.EqualError(t, err, "replay: "+cut+": frame 5 is cut: 68 of its 98 bytes present (file offset 428); "+
		"the 4 frames before it are complete; they were replayed (--allow-cut accepts a cut capture)")
	require.Contains(t, out, cut+": 4 frames: 4 fed")
	_, err = runApp(t, "replay", "--level", "frame", "--data-width", "128", "--allow-cut", cut)
	require.NoError(t, err)
}

// TestReplayTopLevel: --level top feeds a message's frames into the nic_roce top, which receives it (checked
// against the capture) and acknowledges it; --out writes its ACKs as a pcap.
func TestReplayTopLevel(t *testing.T) {
	dir := t.TempDir()
	var frames [][]byte
	for psn := uint32(0); psn < 4; psn++ {
		frames = append(frames, replayData(t, psn, func(d *roce.Data) { d.MsgID = 0 }))
	}
	p := writeBytes(t, dir, "msg.pcap", pcapOf(t, frames...))
	acks := filepath.Join(dir, "acks.pcap")
	out, err := runApp(t, "replay", "--level", "top", "--out", acks, p)
	require.NoError(t, err)
	require.Contains(t, out, p+": 4 frames, 4 fed into MAC RX of the nic_roce top (config default) as endpoint "+
		"02:00:00:00:00:02 10.0.0.2, 0 to other destinations skipped\n")
	require.Regexp(t, `\n0 +02:00:00:00:00:01 10\.0\.0\.1 +0x000000 +1 +1 +1\n`, out)
	require.Contains(t, out, "counters not zero: ACCEPTED 4 DATA 4 TX_ACK ")
	f, err := os.Open(acks)
	require.NoError(t, err)
	defer f.Close()
	capt, err := roce.ReadCapture(acks, f)
	require.NoError(t, err)
	require.NotEmpty(t, capt.Frames)
	require.Contains(t, out, fmt.Sprintf("wrote %s: %d frames the top sent", acks, len(capt.Frames)))
	var cum uint32
	for _, fr := range capt.Frames {
		pk, err := roce.Parse(fr.Data)
		require.NoError(t, err)
		require.True(t, pk.IsAck())
		require.LessOrEqual(t, pk.Ack.CumPSN, uint32(4))
		cum = pk.Ack.CumPSN
	}
	require.Equal(t, uint32(4), cum, "the last ACK covers the message")
}
