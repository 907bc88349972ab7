package roce

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/gopacket"
	"github.com/google/gopacket/layers"
	"github.com/google/gopacket/pcapgo"
	"github.com/stretchr/testify/require"
)

// captureFrames are three valid frames: data of 8 and 64 payload bytes (82 and 138 bytes) and an ACK (78).
func captureFrames(t testing.TB) [][]byte {
	return [][]byte{dataFrame(t, nil), dataFrame(t, func(d *Data) { d.Payload = make([]byte, 64) }),
		ackFrame(t, nil)}
}

// pcapFile returns frames as a pcap file (WritePcap).
func pcapFile(t testing.TB, frames [][]byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	require.NoError(t, WritePcap(&buf, frames, nil))
	return buf.Bytes()
}

// ngInterface is one interface of a pcapng file and the frames captured on it.
type ngInterface struct {
	linkType layers.LinkType
	frames   [][]byte
}

// pcapngFile returns a pcapng file with the interfaces given, their frames interleaved.
func pcapngFile(t testing.TB, ifs ...ngInterface) []byte {
	t.Helper()
	var buf bytes.Buffer
	w, err := pcapgo.NewNgWriterInterface(&buf, pcapgo.NgInterface{Name: "if0", LinkType: ifs[0].linkType},
		pcapgo.NgWriterOptions{})
	require.NoError(t, err)
	for _, i := range ifs[1:] {
		_, err := w.AddInterface(pcapgo.NgInterface{Name: "ifN", LinkType: i.linkType})
		require.NoError(t, err)
	}
	for k := 0; ; k++ {
		wrote := false
		for id, i := range ifs {
			if k < len(i.frames) {
				ci := gopacket.CaptureInfo{Timestamp: time.Unix(0, int64(k)), CaptureLength: len(i.frames[k]),
					Length: len(i.frames[k]), InterfaceIndex: id}
				require.NoError(t, w.WritePacket(ci, i.frames[k]))
				wrote = true
			}
		}
		if !wrote {
			break
		}
	}
	require.NoError(t, w.Flush())
	return buf.Bytes()
}

// hostileCapture is one capture file: ReadCapture fails with err, or reads frames whose Check gives check (""
// for a good frame) and reports cut ("" for none).
type hostileCapture struct {
	name        string
	file        func(t testing.TB) []byte
	err         string
	check       []string
	cut, format string
}

// hostileCaptures are the files TestReadCapture reads, as file "x.cap".
var hostileCaptures = []hostileCapture{
	{name: "empty file", file: func(t testing.TB) []byte { return nil },
		err: "x.cap: empty file, allowed a pcap or pcapng capture"},
	{name: "three bytes", file: func(t testing.TB) []byte { return []byte{0xa1, 0xb2, 0xc3} },
		err: "x.cap: 3 bytes: not a capture (a pcap or pcapng file starts with a 4-byte magic number)"},
	{name: "garbage", file: func(t testing.TB) []byte { return []byte("garbage, not a capture") },
		err: "x.cap: not a capture: magic 67 61 72 62, allowed a1 b2 c3 d4 or a1 b2 3c 4d (pcap, either byte " +
			"order) or 0a 0d 0d 0a (pcapng)"},
	{name: "pcap file header cut", file: func(t testing.TB) []byte { return pcapFile(t, nil)[:10] },
		err: "x.cap: pcap file header cut: 10 of its 24 bytes present"},
	{name: "pcap of link type Linux SLL", file: func(t testing.TB) []byte {
		f := pcapFile(t, captureFrames(t))
		binary.LittleEndian.PutUint32(f[20:], uint32(layers.LinkTypeLinuxSLL))
		return f
	}, err: "x.cap: pcap link type 113 (Linux SLL), allowed 1 (Ethernet)"},
	{name: "pcap", file: func(t testing.TB) []byte { return pcapFile(t, captureFrames(t)) },
		check: []string{"", "", ""}, format: "pcap"},
	{name: "pcap cut inside frame 3", file: func(t testing.TB) []byte {
		f := pcapFile(t, captureFrames(t))
		return f[:len(f)-46]
	}, check: []string{"", ""}, format: "pcap",
		cut: "x.cap: frame 3 is cut: 48 of its 94 bytes present (file offset 276); the 2 frames before it are " +
			"complete"},
	{name: "pcap cut inside a record header", file: func(t testing.TB) []byte {
		f := pcapFile(t, captureFrames(t))
		return f[:276+10]
	}, check: []string{"", ""}, format: "pcap",
		cut: "x.cap: frame 3 is cut: 10 of its 16 bytes present (file offset 276); the 2 frames before it are " +
			"complete"},
	{name: "pcap frame cut by the snap length", file: func(t testing.TB) []byte {
		var buf bytes.Buffer
		w := pcapgo.NewWriter(&buf)
		require.NoError(t, w.WriteFileHeader(96, layers.LinkTypeEthernet))
		f := dataFrame(t, func(d *Data) { d.Payload = make([]byte, 64) })
		require.NoError(t, w.WritePacket(gopacket.CaptureInfo{CaptureLength: 96, Length: len(f)}, f[:96]))
		return buf.Bytes()
	}, check: []string{"captured 96 of its 138 bytes (the capture's snap length cut it)"}, format: "pcap"},
	{name: "pcap big-endian, nanoseconds", file: func(t testing.TB) []byte {
		var buf bytes.Buffer
		hdr := []byte{0xa1, 0xb2, 0x3c, 0x4d, 0, 2, 0, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 0, 0, 0, 1}
		buf.Write(hdr)
		f := ackFrame(t, nil)
		rec := make([]byte, 16)
		binary.BigEndian.PutUint32(rec[8:], uint32(len(f)))
		binary.BigEndian.PutUint32(rec[12:], uint32(len(f)))
		buf.Write(rec)
		buf.Write(f)
		return buf.Bytes()
	}, check: []string{""}, format: "pcap"},
	{name: "pcap gzip", file: func(t testing.TB) []byte {
		var buf bytes.Buffer
		zw := gzip.NewWriter(&buf)
		_, err := zw.Write(pcapFile(t, captureFrames(t)))
		require.NoError(t, err)
		require.NoError(t, zw.Close())
		return buf.Bytes()
	}, check: []string{"", "", ""}, format: "pcap (gzip)"},
	{name: "pcapng", file: func(t testing.TB) []byte {
		return pcapngFile(t, ngInterface{linkType: layers.LinkTypeEthernet, frames: captureFrames(t)})
	}, check: []string{"", "", ""}, format: "pcapng"},
	{name: "pcapng with two Ethernet interfaces", file: func(t testing.TB) []byte {
		fs := captureFrames(t)
		return pcapngFile(t, ngInterface{linkType: layers.LinkTypeEthernet, frames: fs[:2]},
			ngInterface{linkType: layers.LinkTypeEthernet, frames: fs[2:]})
	}, check: []string{"", "", ""}, format: "pcapng"},
	{name: "pcapng with a Linux SLL interface", file: func(t testing.TB) []byte {
		fs := captureFrames(t)
		return pcapngFile(t, ngInterface{linkType: layers.LinkTypeEthernet, frames: fs[:2]},
			ngInterface{linkType: layers.LinkTypeLinuxSLL, frames: fs[2:]})
	}, check: []string{"", "link type 113 (Linux SLL) of interface 1, allowed 1 (Ethernet)", ""}, format: "pcapng"},
	{name: "pcapng cut inside frame 3", file: func(t testing.TB) []byte {
		f := pcapngFile(t, ngInterface{linkType: layers.LinkTypeEthernet, frames: captureFrames(t)})
		return f[:len(f)-20]
	}, check: []string{"", ""}, format: "pcapng",
		cut: "x.cap: frame 3 is cut: 92 of its 112 bytes present (file offset 356); the 2 frames before it are " +
			"complete"},
	{name: "pcapng section header cut", file: func(t testing.TB) []byte {
		return pcapngFile(t, ngInterface{linkType: layers.LinkTypeEthernet})[:20]
	}, err: "x.cap: pcapng section header cut: 20 of its 28 bytes present"},
	{name: "pcapng block length 13", file: func(t testing.TB) []byte {
		f := pcapngFile(t, ngInterface{linkType: layers.LinkTypeEthernet, frames: captureFrames(t)})
		binary.LittleEndian.PutUint32(f[28+4:], 13) // the interface description block's length
		return f
	}, err: "x.cap: pcapng block at file offset 28: length 13, allowed a multiple of 4, >= 12 (the file is " +
		"damaged)"},
}

// TestReadCapture: every hostile capture file is refused, cut or read as its table row says.
func TestReadCapture(t *testing.T) {
	for _, tc := range hostileCaptures {
		t.Run(tc.name, func(t *testing.T) {
			c, err := ReadCapture("x.cap", bytes.NewReader(tc.file(t)))
			if tc.err != "" {
				require.EqualError(t, err, tc.err)
				return
			}
			require.NoError(t, err)
			require.Equal(t, tc.format, c.Format)
			var check []string
			for i := range c.Frames {
				s := ""
				if err := c.Frames[i].Check(); err != nil {
					s = err.Error()
				}
				check = append(check, s)
			}
			require.Equal(t, tc.check, check, "CapturedFrame.Check of each frame")
			if tc.cut == "" {
				require.Nil(t, c.Cut)
				return
			}
			require.EqualError(t, c.Cut, tc.cut)
		})
	}
}

// TestReadCaptureWireshark: a pcapng file as Wireshark's editcap writes it (section, interface, packets and an
// interface statistics block) reads back the frames of the pcap it came from.
func TestReadCaptureWireshark(t *testing.T) {
	if _, err := exec.LookPath("editcap"); err != nil {
		t.Skip("editcap (Wireshark) not installed")
	}
	dir := t.TempDir()
	in, out := filepath.Join(dir, "in.pcap"), filepath.Join(dir, "out.pcapng")
	frames := captureFrames(t)
	require.NoError(t, os.WriteFile(in, pcapFile(t, frames), 0o644))
	b, err := exec.Command("editcap", "-F", "pcapng", in, out).CombinedOutput()
	require.NoError(t, err, "%s", b)
	f, err := os.Open(out)
	require.NoError(t, err)
	defer f.Close()
	got, _, err := ReadPcap(f)
	require.NoError(t, err)
	require.Equal(t, frames, got)
}
