package roce_test

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"fmt"
	"net/netip"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/spraynic/spraynic/config"
	"github.com/spraynic/spraynic/system"
	"github.com/spraynic/spraynic/system/roce"
)

// Wireshark's protocol stacks of our frames (frame.protocols): a data packet's SEND payload is "data" (no
// heuristic claimed it), an Acknowledge ends at the AETH.
const (
	dataStack = "eth:ethertype:ip:udp:infiniband:data"
	ackStack  = "eth:ethertype:ip:udp:infiniband"
)

// needTshark skips the test without tshark.
func needTshark(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("tshark"); err != nil {
		t.Skip("tshark not installed (make deps)")
	}
}

// tshark runs tshark with args and a HOME of its own (no personal profile, no personal plugins) and returns its
// standard output.
func tshark(t *testing.T, args ...string) string {
	t.Helper()
	cmd := exec.Command("tshark", args...)
	cmd.Env = append(os.Environ(), "HOME="+t.TempDir(), "XDG_CONFIG_HOME=")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	require.NoError(t, err, "tshark %s: %s", strings.Join(args, " "), stderr.String())
	return string(out)
}

// expertHeading matches a severity heading of tshark -z expert, e.g. "Errors (6)".
var expertHeading = regexp.MustCompile(`(?m)^(Errors|Warns|Notes|Chats|Comments) \((\d+)\)$`)

// expertItems returns the number of expert items tshark -q -z expert reports for file (every severity) and the
// report. lua, if not empty, is a Lua script to load.
func expertItems(t *testing.T, file, lua string) (int, string) {
	t.Helper()
	args := []string{"-n", "-r", file, "-q", "-z", "expert"}
	if lua != "" {
		args = append([]string{"-X", "lua_script:" + lua}, args...)
	}
	out := tshark(t, args...)
	n := 0
	for _, m := range expertHeading.FindAllStringSubmatch(out, -1) {
		k, err := strconv.Atoi(m[2])
		require.NoError(t, err)
		n += k
	}
	return n, out
}

// protocolStacks returns frame.protocols of every frame of file, in order.
func protocolStacks(t *testing.T, file, lua string) []string {
	t.Helper()
	args := []string{"-n", "-r", file, "-T", "fields", "-e", "frame.protocols"}
	if lua != "" {
		args = append([]string{"-X", "lua_script:" + lua}, args...)
	}
	var got []string
	sc := bufio.NewScanner(strings.NewReader(tshark(t, args...)))
	for sc.Scan() {
		got = append(got, sc.Text())
	}
	return got
}

// wantStacks returns the protocol stack each frame must have: dataStack or ackStack by opcode, with the Lua
// dissector's protocol added when it is loaded.
func wantStacks(t *testing.T, frames [][]byte, lua bool) []string {
	t.Helper()
	var want []string
	for i, f := range frames {
		p, err := roce.Parse(f)
		require.NoError(t, err, "frame %d", i+1)
		switch {
		case p.IsAck(): // the Lua dissector adds the SACK extension as a postdissector: not a layer
			want = append(want, ackStack)
		case lua && len(p.Data.Payload) == 0:
			want = append(want, ackStack+":spraynic")
		case lua:
			want = append(want, ackStack+":spraynic:data")
		default:
			want = append(want, dataStack)
		}
	}
	return want
}

// writeCapture writes frames as a pcap file in dir and returns its path.
func writeCapture(t *testing.T, dir, name string, frames [][]byte) string {
	t.Helper()
	var buf bytes.Buffer
	require.NoError(t, roce.WritePcap(&buf, frames, nil))
	path := filepath.Join(dir, name)
	require.NoError(t, os.WriteFile(path, buf.Bytes(), 0o644))
	return path
}

// luaScript is the spraynic Lua dissector, relative to this package.
const luaScript = "../../wireshark/spraynic.lua"

// luaScripts are the dissector setups every capture is checked under: Wireshark alone, and with the spraynic
// Lua dissector.
var luaScripts = []string{"", luaScript}

// requireClean asserts that Wireshark, under every setup of luaScripts, reports no expert item on file and
// decodes each frame as our stack and nothing else.
func requireClean(t *testing.T, file string, frames [][]byte) {
	t.Helper()
	for _, lua := range luaScripts {
		n, report := expertItems(t, file, lua)
		require.Zero(t, n, "%s (lua %q): tshark -z expert\n%s", file, lua, report)
		require.Equal(t, wantStacks(t, frames, lua != ""), protocolStacks(t, file, lua),
			"%s (lua %q): every frame decodes as RoCEv2 with nothing taking the payload", file, lua)
	}
}

// simFrames runs a short simulation and returns every frame both ports sent followed by every data frame as it
// arrived at B (ECN marks included).
func simFrames(t *testing.T, o system.Options) [][]byte {
	t.Helper()
	var sent, arrived bytes.Buffer
	o.Capture, o.Arrivals = &sent, &arrived
	_, err := system.Run(o)
	require.NoError(t, err)
	a, _, err := roce.ReadPcap(&sent)
	require.NoError(t, err)
	b, _, err := roce.ReadPcap(&arrived)
	require.NoError(t, err)
	return append(a, b...)
}

// TestTsharkExpert: whole simulation captures (spray, go-back-N and bidirectional traffic with loss, so
// retransmissions, NAKs and ECN marks appear) of every preset decode in Wireshark with no expert item, every
// data payload left to "data" and every Acknowledge ending at its AETH.
func TestTsharkExpert(t *testing.T) {
	needTshark(t)
	scenarios := []struct {
		name string
		opt  system.Options
	}{
		{name: "spray", opt: system.Options{Mode: system.ModeSpray, Loss: 0.03, AckLoss: 0.02, DurationUS: 40}},
		{name: "gbn", opt: system.Options{Mode: system.ModeGBN, Loss: 0.03, DurationUS: 40}},
		{name: "bidir", opt: system.Options{Mode: system.ModeSpray, Bidir: true, Loss: 0.03, DurationUS: 30}},
	}
	total := 0
	for _, name := range config.PresetNames() {
		cfg, err := config.Preset(name)
		require.NoError(t, err)
		for _, sc := range scenarios {
			t.Run(name+"/"+sc.name, func(t *testing.T) {
				o := sc.opt
				o.Config, o.Seed = cfg, 1
				frames := simFrames(t, o)
				require.NotEmpty(t, frames)
				requireClean(t, writeCapture(t, t.TempDir(), "sim.pcap", frames), frames)
				total += len(frames)
				t.Logf("%d frames", len(frames))
			})
		}
	}
	t.Logf("%d frames checked under %d dissector setups: 0 expert items", total, len(luaScripts))
}

// TestTsharkHeuristics: frames chosen to meet what each InfiniBand payload heuristic of Wireshark looks for
// (docs/protocol.md, "Spray extension header": every path id, flag combination, path sequences with zero low
// bytes, offsets 0..4 and 24, message ids that are magics, payloads of zeros) still decode as our stack.
func TestTsharkHeuristics(t *testing.T) {
	needTshark(t)
	var frames [][]byte
	pseqs := []uint32{0, 1, 4, 0x10000, 0x20000, 0x2c0000, 0x400000, 0xFFFFFF}
	offsets := []uint32{0, 1, 2, 3, 4, 24, 0x18000000}
	msgIDs := []uint32{0, 1, 0x911be90b, 0x83740267, 0x0100_0100}
	payloads := [][]byte{nil, make([]byte, 4), make([]byte, 12), make([]byte, 28), make([]byte, 64)}
	i := 0
	for path := 0; path < 256; path++ {
		for flags := 0; flags < 4; flags++ {
			d := roce.Data{Header: exampleHeader(), PSN: uint32(i), Path: uint8(path), First: flags&2 != 0,
				Last: flags&1 != 0, PSeq: pseqs[i%len(pseqs)], Offset: offsets[i%len(offsets)],
				MsgID: msgIDs[i%len(msgIDs)], Payload: payloads[i%len(payloads)]}
			f, err := roce.BuildData(&d)
			require.NoError(t, err)
			frames = append(frames, f)
			i++
		}
	}
	requireClean(t, writeCapture(t, t.TempDir(), "heuristics.pcap", frames), frames)
	t.Logf("%d frames checked under %d dissector setups: 0 expert items", len(frames), len(luaScripts))
}

// exampleHeader is a header of the simulator's shape.
func exampleHeader() roce.Header {
	return roce.Header{SrcMAC: [6]byte{2, 0, 0, 0, 0, 1}, DstMAC: [6]byte{2, 0, 0, 0, 0, 2},
		SrcIP: netip.MustParseAddr("10.0.0.1"), DstIP: netip.MustParseAddr("10.0.0.2"), ECN: roce.ECNECT0,
		TTL: 64, SrcPort: 0xC000, PKey: roce.DefaultPKey, DestQP: 256}
}

// TestTsharkExpertBites: the checks above fail on what they guard against: a data frame with the spray header
// laid out as before it had fixed bytes (path 6, path sequence 0: Wireshark reads 06 00 00 00 as EtherType
// 0x0600 XNS IDP and reports it malformed), and frames to QP 0 (decoded as management datagrams).
func TestTsharkExpertBites(t *testing.T) {
	needTshark(t)
	d := roce.Data{Header: exampleHeader(), Path: 6, First: true, Payload: bytes.Repeat([]byte{0x5a}, 64)}
	good, err := roce.BuildData(&d)
	require.NoError(t, err)
	const payload = 14 + 20 + 8 + roce.BTHLen
	old := append([]byte(nil), good...)
	copy(old[payload:], []byte{6, 0, 0, 0, 0x80, 0, 0, 0}) // path 6, pseq 0, F: the layout before version 1
	require.NoError(t, roce.FixICRC(old))
	qp0 := append([]byte(nil), good...)
	qp0[payload-7], qp0[payload-6], qp0[payload-5] = 0, 0, 0
	require.NoError(t, roce.FixICRC(qp0))
	d.Payload = nil
	short, err := roce.BuildData(&d)
	require.NoError(t, err)
	short[payload-5] = 0 // DestQP 256 -> 0
	short[payload-6] = 0
	require.NoError(t, roce.FixICRC(short))
	require.Equal(t, uint32(0), binary.BigEndian.Uint32(short[payload-8:])&roce.Max24, "DestQP 0")
	dir := t.TempDir()
	for _, tc := range []struct {
		name  string
		frame []byte
		stack string
		items bool
	}{
		{name: "old spray layout", frame: old, stack: "eth:ethertype:ip:udp:infiniband:ethertype:idp", items: true},
		{name: "QP 0", frame: qp0, stack: ackStack},
		{name: "QP 0 without payload", frame: short, stack: ackStack},
	} {
		t.Run(tc.name, func(t *testing.T) {
			file := writeCapture(t, dir, strings.ReplaceAll(tc.name, " ", "_")+".pcap", [][]byte{good, tc.frame})
			n, report := expertItems(t, file, "")
			if tc.items {
				require.Positive(t, n, "tshark -z expert reports the frame\n%s", report)
			} else {
				require.Zero(t, n, "%s", report)
			}
			require.Equal(t, []string{dataStack, tc.stack}, protocolStacks(t, file, ""),
				fmt.Sprintf("the second frame is not decoded as %s", dataStack))
		})
	}
}

// luaFields are the Lua dissector's fields TestTsharkLua reads, in the order of luaWant.
var luaFields = []string{"spraynic.type", "spraynic.path", "spraynic.first", "spraynic.last", "spraynic.version",
	"spraynic.msg_id", "spraynic.offset", "spraynic.length", "spraynic.pseq", "spraynic.sack.path",
	"spraynic.sack.pnext", "spraynic.sack.ecn", "spraynic.sack.words", "spraynic.sack.bitmap", "spraynic.icrc"}

// luaWant renders what the Lua dissector must show for frame as tshark -T fields prints luaFields.
func luaWant(t *testing.T, frame []byte) string {
	t.Helper()
	p, err := roce.Parse(frame)
	require.NoError(t, err)
	b := func(v bool) string {
		if v {
			return "1"
		}
		return "0"
	}
	if !p.IsAck() {
		d := &p.Data
		return strings.Join([]string{"0xb5", fmt.Sprint(d.Path), b(d.First), b(d.Last), "1", fmt.Sprint(d.MsgID),
			fmt.Sprint(d.Offset), "16", fmt.Sprint(d.PSeq), "", "", "", "", "", ""}, "\t")
	}
	a := &p.Ack
	if !a.HasSACK { // a plain IBTA ACK or NAK: nothing after the AETH
		return strings.Repeat("\t", len(luaFields)-1)
	}
	var words []string
	for w := 0; w < int(a.Words); w++ {
		words = append(words, fmt.Sprintf("0x%08x", a.Bitmap[w]))
	}
	wire := binary.BigEndian.Uint32(frame[len(frame)-roce.ICRCLen:])
	return strings.Join([]string{"", "", "", "", "", "", "", "", "", fmt.Sprint(a.Path), fmt.Sprint(a.PNext),
		b(a.ECNEcho), fmt.Sprint(a.Words), strings.Join(words, ","), fmt.Sprintf("0x%08x", wire)}, "\t")
}

// TestTsharkLua: wireshark/spraynic.lua shows every field of the spray header and the SACK extension by name,
// with the values Parse reads, on a simulation capture (ECN marks, NAKs) and on frames with edge values.
func TestTsharkLua(t *testing.T) {
	needTshark(t)
	cfg, err := config.Preset("default")
	require.NoError(t, err)
	frames := simFrames(t, system.Options{Config: cfg, Mode: system.ModeSpray, DurationUS: 20, Seed: 3,
		QueueKB: 64, ECNKB: 4, Slow: []system.SlowPath{{Path: 2, Gbps: 10}}}) // ECN marks, echoed in SACKs
	frames = append(frames, simFrames(t, system.Options{Config: cfg, Mode: system.ModeGBN, Loss: 0.02,
		DurationUS: 20, Seed: 3})...) // go-back-N with loss: NAKs
	d := roce.Data{Header: exampleHeader(), PSN: roce.Max24, Path: 255, First: true, Last: true, PSeq: roce.Max24,
		MsgID: 0xFFFFFFFF, Offset: 0xFFFFFFFF, Payload: []byte{1, 2, 3}}
	a := roce.Ack{Header: exampleHeader(), CumPSN: 0, MSN: roce.Max24, HasSACK: true, Path: 255, PNext: roce.Max24,
		ECNEcho: true, Words: 8, Bitmap: [8]uint32{1, 0, 0, 0, 0, 0, 0, 1 << 31}}
	var ecn, naks int
	for _, f := range frames {
		p, err := roce.Parse(f)
		require.NoError(t, err)
		if p.IsAck() && p.Ack.ECNEcho {
			ecn++
		}
		if p.IsAck() && p.Ack.NAK {
			naks++
		}
	}
	require.Positive(t, ecn, "the capture has ECN echoes")
	require.Positive(t, naks, "the capture has NAKs")
	for _, f := range []func() ([]byte, error){func() ([]byte, error) { return roce.BuildData(&d) },
		func() ([]byte, error) { return roce.BuildAck(&a) }} {
		frame, err := f()
		require.NoError(t, err)
		frames = append(frames, frame)
	}
	var want []string
	for _, f := range frames {
		want = append(want, luaWant(t, f))
	}
	dir := t.TempDir()
	file := writeCapture(t, dir, "lua.pcap", frames)
	args := []string{"-X", "lua_script:" + luaScript, "-n", "-r", file, "-T", "fields", "-E", "separator=/t"}
	for _, f := range luaFields {
		args = append(args, "-e", f)
	}
	got := strings.Split(strings.TrimRight(tshark(t, args...), "\n"), "\n")
	require.Len(t, got, len(want), "one line per frame")
	for i := range want {
		require.Equal(t, want[i], got[i], "frame %d: tshark -e %s", i+1, strings.Join(luaFields, " -e "))
	}
	t.Logf("%d frames (%d ACKs with ECN echo, %d NAKs): every Lua field as Parse reads it", len(frames), ecn, naks)
}

// TestTsharkLuaWarnings: a reserved bit set in each extension is an expert warning of the Lua dissector (the
// frames are otherwise valid).
func TestTsharkLuaWarnings(t *testing.T) {
	needTshark(t)
	d := roce.Data{Header: exampleHeader(), Path: 3, First: true, Payload: []byte{1, 2, 3}}
	a := roce.Ack{Header: exampleHeader(), HasSACK: true, Path: 3, PNext: 5, Words: 2, Bitmap: [8]uint32{3}}
	df, err := roce.BuildData(&d)
	require.NoError(t, err)
	df[14+20+8+roce.BTHLen+2] |= 0x01 // spray flags bit 0
	require.NoError(t, roce.FixICRC(df))
	af, err := roce.BuildAck(&a)
	require.NoError(t, err)
	af[14+20+8+roce.BTHLen+roce.AETHLen+7] = 0x01 // SACK reserved
	require.NoError(t, roce.FixICRC(af))
	file := writeCapture(t, t.TempDir(), "reserved.pcap", [][]byte{df, af})
	n, report := expertItems(t, file, luaScript)
	require.Equal(t, 2, n, "one warning per frame\n%s", report)
	require.Contains(t, report, "Reserved bits are not zero")
}
