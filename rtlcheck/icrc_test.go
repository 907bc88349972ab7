package rtlcheck_test

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"net/netip"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/spraynic/spraynic/config"
	"github.com/spraynic/spraynic/system"
	"github.com/spraynic/spraynic/system/roce"
)

// mtu is the largest data payload of the vectors, bytes (the default MTU).
const mtu = 4096

// vector is one frame and what roce_icrc must report for it.
type vector struct {
	// kind names where the frame comes from (in messages and counts).
	kind string
	// frame is the Ethernet frame, ICRC last.
	frame []byte
	// icrc is the ICRC computed over frame; rx the one it carries (its last 4 bytes, little-endian).
	icrc, rx uint32
}

// ok is what m_icrc_ok must say.
func (v vector) ok() bool { return v.icrc == v.rx }

// bitICRC is the ICRC computed bit by bit from docs/protocol.md, sharing no code with roce.ICRC: CRC-32
// (reflected 0xEDB88320, init and final XOR ones) over 8 bytes of 0xFF and the IPv4 packet up to its last 4
// bytes, with TOS, TTL, the IPv4 and UDP checksums and BTH byte 4 taken as 0xFF.
func bitICRC(ip []byte) uint32 {
	ihl := int(ip[0]&0x0F) * 4
	masked := map[int]bool{1: true, 8: true, 10: true, 11: true, ihl + 6: true, ihl + 7: true, ihl + 12: true}
	crc := ^uint32(0)
	step := func(b byte) {
		for k := 0; k < 8; k++ {
			if (crc^uint32(b>>k))&1 == 1 {
				crc = crc>>1 ^ 0xEDB88320
			} else {
				crc >>= 1
			}
		}
	}
	for i := 0; i < 8; i++ {
		step(0xFF)
	}
	for i, b := range ip[:len(ip)-4] {
		if masked[i] {
			b = 0xFF
		}
		step(b)
	}
	return ^crc
}

// newVector computes the expected ICRC of frame with both references; they must agree.
func newVector(t *testing.T, kind string, frame []byte) vector {
	ip := frame[14:]
	want := roce.ICRC(ip)
	require.Equal(t, bitICRC(ip), want, "%s: roce.ICRC and the bitwise ICRC disagree on % x", kind, frame)
	return vector{kind: kind, frame: frame, icrc: want, rx: binary.LittleEndian.Uint32(frame[len(frame)-4:])}
}

// randHeader returns random Ethernet, IPv4, UDP and BTH fields.
func randHeader(r *rand.Rand) roce.Header {
	var h roce.Header
	for i := range h.SrcMAC {
		h.SrcMAC[i], h.DstMAC[i] = byte(r.Uint32()), byte(r.Uint32())
	}
	h.SrcIP = netip.AddrFrom4([4]byte{byte(r.Uint32()), byte(r.Uint32()), byte(r.Uint32()), byte(r.Uint32())})
	h.DstIP = netip.AddrFrom4([4]byte{byte(r.Uint32()), byte(r.Uint32()), byte(r.Uint32()), byte(r.Uint32())})
	h.DSCP, h.ECN, h.TTL = uint8(r.IntN(64)), uint8(r.IntN(4)), uint8(r.IntN(256))
	h.SrcPort, h.PKey, h.DestQP = uint16(0xC000+r.IntN(0x4000)), uint16(r.Uint32()), uint32(2+r.IntN(1<<24-3))
	return h
}

// dataFrame returns a data frame with random fields and n random payload bytes.
func dataFrame(t *testing.T, r *rand.Rand, n int) []byte {
	p := make([]byte, n)
	for i := range p {
		p[i] = byte(r.Uint32())
	}
	d := roce.Data{Header: randHeader(r), PSN: r.Uint32N(1 << 24), AckReq: r.IntN(2) == 1,
		Path: uint8(r.IntN(256)), PSeq: r.Uint32N(1 << 24), First: r.IntN(2) == 1, Last: r.IntN(2) == 1,
		MsgID: r.Uint32(), Offset: r.Uint32(), Payload: p}
	f, err := roce.BuildData(&d)
	require.NoError(t, err)
	return f
}

// ackFrame returns an ACK or NAK with random fields and words SACK words (no SACK extension when words < 0).
func ackFrame(t *testing.T, r *rand.Rand, words int) []byte {
	a := roce.Ack{Header: randHeader(r), CumPSN: r.Uint32N(1 << 24), NAK: r.IntN(2) == 1, MSN: r.Uint32N(1 << 24),
		HasSACK: words >= 0, Path: uint8(r.IntN(256)), PNext: r.Uint32N(1 << 24), ECNEcho: r.IntN(2) == 1}
	if words >= 0 {
		a.Words = uint8(words)
		for i := 0; i < words; i++ {
			a.Bitmap[i] = r.Uint32()
		}
	}
	f, err := roce.BuildAck(&a)
	require.NoError(t, err)
	return f
}

// withOptions returns f with 4*(ihl-5) random IPv4 option bytes after its IPv4 header, IHL and total length
// set, and the IPv4 checksum and ICRC recomputed.
func withOptions(t *testing.T, r *rand.Rand, f []byte, ihl int) []byte {
	opt := make([]byte, 4*(ihl-5))
	for i := range opt {
		opt[i] = byte(r.Uint32())
	}
	g := append(append(append([]byte(nil), f[:34]...), opt...), f[34:]...)
	g[14] = 0x40 | byte(ihl)
	binary.BigEndian.PutUint16(g[16:], uint16(len(g)-14))
	require.NoError(t, roce.FixChecksums(g))
	return g
}

// resized returns f with k random bytes added before its ICRC (k < 0: -k bytes removed there), the IPv4 total
// length set, and the IPv4 checksum and ICRC recomputed: a frame of any length, not a valid RoCEv2 packet, whose
// ICRC is still defined.
func resized(t *testing.T, r *rand.Rand, f []byte, k int) []byte {
	g := append([]byte(nil), f[:len(f)-4+min(k, 0)]...)
	for i := 0; i < k; i++ {
		g = append(g, byte(r.Uint32()))
	}
	g = append(g, 0, 0, 0, 0)
	binary.BigEndian.PutUint16(g[16:], uint16(len(g)-14))
	require.NoError(t, roce.FixChecksums(g))
	return g
}

// maskedAt reports whether frame byte i is outside the ICRC or taken as ones in it.
func maskedAt(frame []byte, i int) bool {
	ihl := int(frame[14]&0x0F) * 4
	switch i - 14 {
	case 1, 8, 10, 11, ihl + 6, ihl + 7, ihl + 12:
		return true
	}
	return i < 14
}

// captureFrames returns the frames of a short simulation of cfg (payloads up to its MTU) as spraynic sim --pcap
// writes them, read back with roce.ReadCapture.
func captureFrames(t *testing.T, cfg config.Config, sd uint64) [][]byte {
	var buf bytes.Buffer
	// the run ends when every message is delivered; the drain limit only bounds a stuck one (a message that lost
	// a packet more than once waits out the RTO backoff: 24 us on ice40 with seed 2)
	_, err := system.Run(system.Options{Config: cfg, Seed: sd, DurationUS: 4, DrainUS: 200, Loss: 0.05,
		Msg: "fixed:3000", MTU: cfg.MTU, Capture: &buf})
	require.NoError(t, err)
	c, err := roce.ReadCapture("sim.pcap", &buf)
	require.NoError(t, err)
	require.Nil(t, c.Cut)
	var frames [][]byte
	for _, f := range c.Frames {
		require.NoError(t, f.Check())
		frames = append(frames, f.Data)
	}
	return frames
}

// vectors returns every frame of the test, shuffled, and a count per kind.
func vectors(t *testing.T, r *rand.Rand, sd uint64) ([]vector, map[string]int) {
	var vs []vector
	add := func(kind string, f []byte) { vs = append(vs, newVector(t, kind, f)) }
	for n := 0; n <= mtu; n++ {
		add("data", dataFrame(t, r, n))
	}
	for words := -1; words <= roce.SACKMaxWords; words++ {
		for k := 0; k < 16; k++ {
			add("ack", ackFrame(t, r, words))
		}
	}
	for ihl := 5; ihl <= 15; ihl++ {
		for k := 0; k < 24; k++ {
			f := ackFrame(t, r, r.IntN(roce.SACKMaxWords+2)-1)
			if k%3 != 0 {
				f = dataFrame(t, r, []int{r.IntN(80), r.IntN(600), r.IntN(mtu + 1)}[k%3])
			}
			add("ipv4 options", withOptions(t, r, f, ihl))
		}
	}
	// every length modulo 64, so the last beat carries every byte count at every width; from 58 bytes, the
	// shortest frame with an ICRC (a 62-byte ACK without SACK, cut by 4), one beat at 512 bits
	for k := -4; k < 64; k++ {
		add("any length", resized(t, r, ackFrame(t, r, -1), k))
		add("any length", resized(t, r, ackFrame(t, r, r.IntN(roce.SACKMaxWords+1)), k))
		add("any length", resized(t, r, dataFrame(t, r, r.IntN(200)), k))
		add("any length", resized(t, r, withOptions(t, r, dataFrame(t, r, r.IntN(mtu+1)), 5+r.IntN(11)), k))
	}
	def, err := config.Preset("default")
	require.NoError(t, err)
	for _, f := range captureFrames(t, def, sd) {
		add("capture", f)
	}
	// single-bit flips, the ICRC field left as built: m_icrc_ok must be 0 exactly when the byte is covered
	base := len(vs)
	for k := 0; k < 400; k++ {
		v := vs[r.IntN(base)]
		f := append([]byte(nil), v.frame...)
		i := r.IntN(len(f))
		if i == 14 {
			continue // IHL: moves the masked fields, not a single-field flip
		}
		if k%2 == 0 {
			masked := []int{}
			for j := range f {
				if maskedAt(f, j) {
					masked = append(masked, j)
				}
			}
			i = masked[r.IntN(len(masked))]
		}
		f[i] ^= 1 << r.IntN(8)
		kind := "flip, covered"
		if maskedAt(f, i) {
			kind = "flip, masked"
		}
		w := newVector(t, kind, f)
		covered := !maskedAt(f, i) && i < len(f)-4
		require.Equal(t, !covered, w.icrc == v.icrc, "flip of byte %d: ICRC %#08x, before %#08x", i, w.icrc,
			v.icrc)
		require.Equal(t, !maskedAt(f, i), !w.ok(), "flip of byte %d: ICRC ok", i)
		vs = append(vs, w)
	}
	r.Shuffle(len(vs), func(i, j int) { vs[i], vs[j] = vs[j], vs[i] })
	counts := map[string]int{}
	for _, v := range vs {
		counts[v.kind]++
	}
	return vs, counts
}

// writeFiles writes the beat and expect files of vs for a bus of width bits: runs of 1..32 frames either back to
// back with no idle cycle or with random idle cycles between and inside frames. It returns the beat lines.
func writeFiles(t *testing.T, r *rand.Rand, vs []vector, width int, beatsPath, expectPath string) int {
	keep := width / 8
	bf, err := os.Create(beatsPath)
	require.NoError(t, err)
	defer bf.Close()
	bw := bufio.NewWriterSize(bf, 1<<20)
	lines := 0
	idle := fmt.Sprintf("0%0*x\n", keep/4+width/4, 0)
	line := make([]byte, 0, 1+keep/4+width/4+1)
	gappy := false
	for i, v := range vs {
		if i%(1+r.IntN(32)) == 0 {
			gappy = r.IntN(2) == 1
		}
		for off := 0; off < len(v.frame); off += keep {
			if gappy && r.IntN(4) == 0 {
				for n := 1 + r.IntN(3); n > 0; n-- {
					_, _ = bw.WriteString(idle)
					lines++
				}
			}
			n := min(keep, len(v.frame)-off)
			last := off+keep >= len(v.frame)
			line = line[:0]
			flags := 2
			if last {
				flags = 3
			}
			line = fmt.Appendf(line, "%x", flags)
			// tkeep: n ones from bit 0, written most significant digit first
			kb := make([]byte, keep/8)
			for b := 0; b < n; b++ {
				kb[b/8] |= 1 << (b % 8)
			}
			for b := len(kb) - 1; b >= 0; b-- {
				line = fmt.Appendf(line, "%02x", kb[b])
			}
			for b := keep - 1; b >= 0; b-- {
				d := byte(0)
				if b < n {
					d = v.frame[off+b]
				} else {
					d = byte(r.Uint32()) // bytes outside tkeep carry garbage
				}
				line = fmt.Appendf(line, "%02x", d)
			}
			line = append(line, '\n')
			_, _ = bw.Write(line)
			lines++
		}
	}
	require.NoError(t, bw.Flush())
	var eb bytes.Buffer
	for _, v := range vs {
		ok := 0
		if v.ok() {
			ok = 1
		}
		fmt.Fprintf(&eb, "%x%08x%08x\n", ok, v.rx, v.icrc)
	}
	require.NoError(t, os.WriteFile(expectPath, eb.Bytes(), 0o644))
	return lines
}

var summary = regexp.MustCompile(`roce_icrc_tb: frames (\d+) mismatches (\d+) latency_errors (\d+) ready_errors (\d+)`)

// TestICRC runs rtl/roce_icrc.v under Verilator at 64, 128 and 512 bits on every vector: data frames of every
// payload size 0..MTU (every pad count), ACKs and NAKs of every SACK length, IPv4 options IHL 5..15, frames of
// every length modulo 64, the frames of a simulated capture, and single-bit flips in covered and masked bytes,
// with random field values.
func TestICRC(t *testing.T) {
	root, sd := setup(t, "verilator")
	r := rand.New(rand.NewPCG(sd, 0x1c4c))
	vs, counts := vectors(t, r, sd)
	fmt.Printf("rtlcheck: TestICRC %d frames: %v\n", len(vs), counts)
	for _, width := range []int{64, 128, 512} {
		t.Run(fmt.Sprintf("width_%d", width), func(t *testing.T) {
			dir := t.TempDir()
			beats, expect := filepath.Join(dir, "beats.hex"), filepath.Join(dir, "expect.hex")
			lines := writeFiles(t, r, vs, width, beats, expect)
			t0 := time.Now()
			bin := buildTB(t, tbBuild{root: root, tb: "roce_icrc_tb", files: []string{"roce_icrc.v"},
				params: []tbParam{{name: "DATA_WIDTH", val: width}, {name: "CYCLES", val: lines},
					{name: "FRAMES", val: len(vs)}}, noLint: true, noNice: true, dir: dir})
			built := time.Since(t0)
			out, err := exec.Command(bin, "+beats="+beats, "+expect="+expect).CombinedOutput()
			require.NoError(t, err, "testbench:\n%s", out)
			m := summary.FindSubmatch(out)
			require.NotNil(t, m, "testbench printed no summary:\n%s", out)
			got := make([]int, 4)
			for i := range got {
				got[i], _ = strconv.Atoi(string(m[i+1]))
			}
			fmt.Printf("rtlcheck: TestICRC width %d: %d frames, %d cycles; build %v, run %v\n", width, got[0], lines,
				built.Round(time.Second), (time.Since(t0) - built).Round(time.Second))
			require.Equal(t, []int{len(vs), 0, 0, 0}, got,
				"want every frame seen, 0 mismatches, 0 latency errors, 0 ready errors "+
					"(SEED=%d go test ./rtlcheck -run TestICRC/width_%d):\n%s", sd, width, out)
		})
	}
}
