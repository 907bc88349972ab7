package rtlcheck_test

import (
	"bufio"
	"fmt"
	"math/big"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/spraynic/spraynic/config"
	"github.com/spraynic/spraynic/cosim"
	"github.com/spraynic/spraynic/system/roce"
)

// rxFrame is one input frame of roce_rx and what Limits.Parse says of it.
type rxFrame struct {
	// kind names where the frame comes from (in messages and counts).
	kind string
	// frame is the Ethernet frame; user drives s_axis_tuser (MAC bad frame) on its beats.
	frame []byte
	user  bool
	// pkt and err are Limits.Parse's result.
	pkt roce.Packet
	err error
}

// rxGen makes the frames of TestRoCERX for a receiver of configuration cfg.
type rxGen struct {
	t   *testing.T
	r   *rand.Rand
	cfg config.Config
	lim roce.Limits
	fs  []rxFrame
}

// add appends frame with its expected result.
func (g *rxGen) add(kind string, frame []byte, user bool) {
	p, err := g.lim.Parse(frame)
	g.fs = append(g.fs, rxFrame{kind: kind, frame: frame, user: user, pkt: p, err: err})
}

// qpn returns a destination QP of the receiver, its first and last one more often.
func (g *rxGen) qpn() uint32 {
	c := g.r.IntN(g.cfg.Conns + 2)
	return uint32(g.cfg.QPNBase + min(max(c-1, 0), g.cfg.Conns-1))
}

// path returns a path id below Paths, the edges more often.
func (g *rxGen) path() uint8 { return uint8(min(max(g.r.IntN(g.cfg.Paths+2)-1, 0), g.cfg.Paths-1)) }

// data returns a data frame with n random payload bytes to qpn on path.
func (g *rxGen) data(n int, qpn uint32, path uint8) []byte {
	p := make([]byte, n)
	for i := range p {
		p[i] = byte(g.r.Uint32())
	}
	h := randHeader(g.r)
	h.DestQP = qpn
	d := roce.Data{Header: h, PSN: g.r.Uint32N(1 << 24), AckReq: g.r.IntN(2) == 1, Path: path,
		PSeq: g.r.Uint32N(1 << 24), First: g.r.IntN(2) == 1, Last: g.r.IntN(2) == 1, MsgID: g.r.Uint32(),
		Offset: g.r.Uint32(), Payload: p}
	f, err := roce.BuildData(&d)
	require.NoError(g.t, err)
	return f
}

// ack returns an ACK or NAK to qpn with words SACK words on path (no SACK extension when words < 0).
func (g *rxGen) ack(words int, qpn uint32, path uint8) []byte {
	h := randHeader(g.r)
	h.DestQP = qpn
	a := roce.Ack{Header: h, CumPSN: g.r.Uint32N(1 << 24), NAK: g.r.IntN(2) == 1, MSN: g.r.Uint32N(1 << 24),
		HasSACK: words >= 0, Path: path, PNext: g.r.Uint32N(1 << 24), ECNEcho: g.r.IntN(2) == 1}
	for i := 0; i < words; i++ {
		a.Words = uint8(words)
		a.Bitmap[i] = g.r.Uint32()
		if (i+1)*32 > g.cfg.SackBits && g.r.IntN(2) == 0 {
			a.Bitmap[i] &= 1<<(g.cfg.SackBits%32) - 1 // often within sack_bits
		}
	}
	f, err := roce.BuildAck(&a)
	require.NoError(g.t, err)
	return f
}

// valid returns a random frame that passes every check: data or ACK, sometimes with IPv4 options.
func (g *rxGen) valid() []byte {
	words := g.r.IntN(max(1, g.cfg.SackBits/32)+2) - 1
	f := g.ack(words, g.qpn(), g.path())
	if g.r.IntN(3) != 0 {
		f = g.data([]int{g.r.IntN(80), g.r.IntN(600), g.r.IntN(g.cfg.MTU + 1)}[g.r.IntN(3)], g.qpn(), g.path())
	}
	if g.r.IntN(4) == 0 {
		f = withOptions(g.t, g.r, f, 6+g.r.IntN(10))
	}
	return f
}

// edit returns a copy of f changed by fn with the IPv4 checksum and ICRC recomputed (a frame that
// fails only the check fn aims at).
func (g *rxGen) edit(f []byte, fn func(b []byte)) []byte {
	b := append([]byte(nil), f...)
	fn(b)
	_ = roce.FixChecksums(b) // fails on edits that leave no ICRC span (EtherType, IHL): sent as they are
	return b
}

// rxFrames returns every frame of the test, shuffled.
func rxFrames(t *testing.T, r *rand.Rand, cfg config.Config, sd uint64) []rxFrame {
	g := &rxGen{t: t, r: r, cfg: cfg, lim: roce.LimitsFor(cfg, cfg.MTU)}
	g.wellFormed(sd)
	g.outsideLimits()
	g.malformed()
	r.Shuffle(len(g.fs), func(i, j int) { g.fs[i], g.fs[j] = g.fs[j], g.fs[i] })
	// a data frame, then at once a short frame with IHL 0..4 (dropped; its words must not start before
	// the data frame's commit)
	for ihl := 0; ihl < 20; ihl++ {
		g.add("data", g.data(1+r.IntN(200), g.qpn(), g.path()), false)
		f := g.edit(g.valid(), func(b []byte) { b[14] = 0x40 | byte(ihl%5) })
		g.add("edit", f[:min(len(f), 60+r.IntN(80))], false)
	}
	// a data frame with its IPv4 total length set to every value below its own, the UDP length to match,
	// checksums and ICRC recomputed (the bytes after it trail): the ICRC cut falls on every byte of the
	// first beats, and the verdict after the ICRC's (spray header) shows where it fell
	base := g.data(100, g.qpn(), g.path())
	for tot := 20; tot < 160; tot++ {
		g.add("edit", g.edit(base, func(b []byte) {
			b[16], b[17] = byte(tot>>8), byte(tot)
			b[38], b[39] = byte((tot-20)>>8), byte(tot-20)
		}), false)
	}
	return g.fs
}

// wellFormed adds a capture's frames, data of every payload size to 259 bytes (every pad count) and a
// sample to the MTU, ACKs and NAKs of every SACK length, IPv4 options, trailing bytes.
func (g *rxGen) wellFormed(sd uint64) {
	for _, f := range captureFrames(g.t, g.cfg, sd) {
		g.add("capture", f, false)
	}
	for n := 0; n < 260; n++ {
		g.add("data", g.data(n, g.qpn(), g.path()), false)
	}
	m := g.cfg.MTU
	for _, n := range []int{m - 3, m - 2, m - 1, m, min(m, 1024), 1 + g.r.IntN(m)} {
		g.add("data", g.data(n, g.qpn(), g.path()), false)
	}
	for words := -1; words <= max(1, g.cfg.SackBits/32); words++ {
		for k := 0; k < 24; k++ {
			g.add("ack", g.ack(words, g.qpn(), g.path()), false)
		}
	}
	for ihl := 5; ihl <= 15; ihl++ {
		for k := 0; k < 6; k++ {
			g.add("ipv4 options", withOptions(g.t, g.r, g.valid(), ihl), false)
		}
	}
	for k := 0; k < 40; k++ {
		f := g.valid()
		for n := 1 + g.r.IntN(80); n > 0; n-- {
			f = append(f, byte(g.r.Uint32()))
		}
		g.add("trailing bytes", f, false)
	}
}

// outsideLimits adds frames that are valid but outside the configuration (and the reserved QPNs).
func (g *rxGen) outsideLimits() {
	base, conns := uint32(g.cfg.QPNBase), uint32(g.cfg.Conns)
	for _, q := range []uint32{2, base - 1, base + conns, roce.Max24 - 1} {
		g.add("limit qpn", g.data(g.r.IntN(100), q, g.path()), false)
		g.add("limit qpn", g.ack(1, q, g.path()), false)
	}
	for _, p := range []int{g.cfg.Paths, g.cfg.Paths + 1, 255} {
		g.add("limit path", g.data(g.r.IntN(100), g.qpn(), uint8(p)), false)
		g.add("limit path", g.ack(1, g.qpn(), uint8(p)), false)
	}
	for words := max(1, g.cfg.SackBits/32) + 1; words <= roce.SACKMaxWords; words++ {
		g.add("limit words", g.ack(words, g.qpn(), g.path()), false)
	}
	for n := g.cfg.MTU + 1; n <= g.cfg.MTU+4; n++ {
		g.add("limit mtu", g.data(n, g.qpn(), g.path()), false)
	}
	for _, q := range []uint32{0, 1, roce.Max24} {
		g.add("reserved qpn", g.edit(g.data(g.r.IntN(50), g.qpn(), 0), func(b []byte) {
			b[47], b[48], b[49] = byte(q>>16), byte(q>>8), byte(q)
		}), false)
	}
}

// malformed adds bit flips at every byte position of short frames and at random ones of others,
// field edits, cut frames, runts, garbage, MAC errors and bad ICRCs.
func (g *rxGen) malformed() {
	flip := func(f []byte, i int) {
		b := append([]byte(nil), f...)
		b[i] ^= 1 << g.r.IntN(8)
		g.add("flip", b, false)
	}
	for words := -1; words <= 2; words++ {
		f := g.ack(words, g.qpn(), g.path())
		for i := range f {
			flip(f, i)
		}
	}
	for _, f := range [][]byte{g.data(g.r.IntN(8), g.qpn(), g.path()), withOptions(g.t, g.r, g.valid(), 15)} {
		for i := range f {
			flip(f, i)
		}
	}
	for k := 0; k < 300; k++ {
		f := g.valid()
		flip(f, g.r.IntN(len(f)))
	}
	edits := []func(b []byte){
		func(b []byte) { b[12], b[13] = 0x86, 0xDD }, // IPv6
		func(b []byte) { b[23] = 6 },                 // TCP
		func(b []byte) { b[36], b[37] = 0x12, 0xB6 }, // UDP port 4790
		func(b []byte) { b[42] = 0x0A },              // opcode RC RDMA WRITE
		func(b []byte) { b[43] |= 0x01 },             // TVer 1
		func(b []byte) { b[20] |= 0x20 },             // MF
		func(b []byte) { b[14] = 0x44 },              // IHL 4
		func(b []byte) { b[39]++ },                   // UDP length
		func(b []byte) { b[43] ^= 0x30 },             // pad count
		func(b []byte) { b[54] ^= 0x01 },             // spray type / AETH syndrome
		func(b []byte) { b[len(b)-5] ^= 0x01 },       // last byte before the ICRC
		func(b []byte) { b[17] += 4 },                // total length beyond the frame
	}
	for k := 0; k < 120; k++ {
		g.add("edit", g.edit(g.valid(), edits[k%len(edits)]), false)
	}
	for k := 0; k < 60; k++ {
		f := g.valid()
		g.add("cut", f[:1+g.r.IntN(len(f)-1)], false)
		b := append([]byte(nil), f...)
		b[len(b)-1-g.r.IntN(4)] ^= byte(1 + g.r.IntN(255))
		g.add("bad icrc", b, false)
		g.add("mac error", g.valid(), true)
	}
	for k := 0; k < 40; k++ {
		b := make([]byte, 1+g.r.IntN([]int{60, 300}[k%2]))
		for i := range b {
			b[i] = byte(g.r.Uint32())
		}
		g.add("garbage", b, false)
	}
}

// rxWriteBeats writes the beat file of fs for a bus of width bits and returns its lines: when gaps,
// runs of 1..32 frames either back to back or with random idle cycles between and inside frames.
func rxWriteBeats(t *testing.T, r *rand.Rand, fs []rxFrame, width int, gaps bool, path string) int {
	keep := width / 8
	f, err := os.Create(path)
	require.NoError(t, err)
	defer f.Close()
	w := bufio.NewWriterSize(f, 1<<20)
	lines, gappy := 0, false
	idle := fmt.Sprintf("0%0*x\n", keep/4+width/4, 0)
	for i, fr := range fs {
		if i%(1+r.IntN(32)) == 0 {
			gappy = gaps && r.IntN(2) == 1
		}
		for off := 0; off < len(fr.frame); off += keep {
			for n := 0; gappy && r.IntN(4) == 0 && n < 1+r.IntN(3); n++ {
				_, _ = w.WriteString(idle)
				lines++
			}
			_, _ = w.WriteString(rxBeat(r, fr, off, keep))
			lines++
		}
	}
	require.NoError(t, w.Flush())
	return lines
}

// rxBeat renders the beat of fr at byte offset off: {valid, last, user}, tkeep, tdata (bytes outside
// tkeep random).
func rxBeat(r *rand.Rand, fr rxFrame, off, keep int) string {
	n := min(keep, len(fr.frame)-off)
	flags := 4
	if off+keep >= len(fr.frame) {
		flags |= 2
	}
	if fr.user {
		flags |= 1
	}
	var sb strings.Builder
	fmt.Fprintf(&sb, "%x", flags)
	kb := make([]byte, keep/8)
	for b := 0; b < n; b++ {
		kb[b/8] |= 1 << (b % 8)
	}
	for b := len(kb) - 1; b >= 0; b-- {
		fmt.Fprintf(&sb, "%02x", kb[b])
	}
	for b := keep - 1; b >= 0; b-- {
		d := byte(r.Uint32())
		if b < n {
			d = fr.frame[off+b]
		}
		fmt.Fprintf(&sb, "%02x", d)
	}
	sb.WriteByte('\n')
	return sb.String()
}

// rxKind is the counter a frame's verdict counts in, in the order of the testbench's X line
// (cosim.RXVerdicts).
func rxKind(fr rxFrame) int {
	if fr.user {
		return cosim.RXMacError
	}
	return cosim.RXVerdict(fr.pkt, fr.err)
}

// rxLine is the testbench's line of a descriptor's fields: their values, space separated.
func rxLine(fields []cosim.RXField) string {
	vs := make([]string, len(fields))
	for i, f := range fields {
		vs[i] = f.Value
	}
	return strings.Join(vs, " ")
}

// rxWant returns the descriptor lines (without the cycle), the payloads and the counters the testbench
// must write for fs.
func rxWant(cfg config.Config, fs []rxFrame) (data, acks []string, pays [][]byte, cnt [9]int) {
	lim := roce.LimitsFor(cfg, cfg.MTU)
	for _, fr := range fs {
		cnt[rxKind(fr)]++
		if fr.user || fr.err != nil {
			continue
		}
		if fr.pkt.IsAck() {
			acks = append(acks, rxLine(cosim.RXAckFields(cfg, lim, &fr.pkt.Ack)))
			continue
		}
		d := fr.pkt.Data
		data = append(data, rxLine(cosim.RXDataFields(cfg, lim, &d)))
		if len(d.Payload) > 0 {
			pays = append(pays, d.Payload)
		}
	}
	return data, acks, pays, cnt
}

// rxOut is what the testbench wrote.
type rxOut struct {
	data, acks []string
	pays       [][]byte
	starts     []int
	descCycles []int
	x          []int
	// changes are the counter changes in order: cycle, counter index (cosim.RXVerdicts), new value
	changes [][3]int
}

// readRxOut parses the out file of a run; width is the bus width, bits.
func readRxOut(t *testing.T, path string, width int) rxOut {
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	var o rxOut
	var cur []byte
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<16), 1<<20)
	for sc.Scan() {
		fs := strings.Fields(sc.Text())
		cyc, err := strconv.ParseInt(fs[1], 16, 64)
		require.NoError(t, err, "%q", sc.Text())
		switch fs[0] {
		case "S":
			o.starts = append(o.starts, int(cyc))
		case "D":
			o.data = append(o.data, strings.Join(fs[2:], " "))
			o.descCycles = append(o.descCycles, int(cyc))
		case "A":
			o.acks = append(o.acks, strings.Join(fs[2:], " "))
			o.descCycles = append(o.descCycles, int(cyc))
		case "P":
			cur = rxAppendBeat(t, cur, fs, width)
			if fs[2] == "1" {
				o.pays, cur = append(o.pays, cur), nil
			}
		case "C":
			var c [3]int
			for i, s := range fs[1:4] {
				v, err := strconv.ParseInt(s, 16, 64)
				require.NoError(t, err, "%q", sc.Text())
				c[i] = int(v)
			}
			o.changes = append(o.changes, c)
		case "X":
			for _, s := range fs[1:] {
				v, err := strconv.ParseInt(s, 16, 64)
				require.NoError(t, err)
				o.x = append(o.x, int(v))
			}
		}
	}
	require.NoError(t, sc.Err())
	require.Len(t, o.x, 12, "testbench wrote no X line")
	return o
}

// rxAppendBeat appends the bytes a payload beat "P cycle last keep data" carries to cur.
func rxAppendBeat(t *testing.T, cur []byte, fs []string, width int) []byte {
	keep, ok := new(big.Int).SetString(fs[3], 16)
	require.True(t, ok)
	data, ok := new(big.Int).SetString(fs[4], 16)
	require.True(t, ok)
	n := 0
	for n < width/8 && keep.Bit(n) == 1 {
		n++
	}
	require.Equal(t, keep.BitLen(), n, "payload tkeep %s not contiguous", fs[3])
	if fs[2] != "1" {
		require.Equal(t, width/8, n, "payload beat before tlast not full: tkeep %s", fs[3])
	}
	b := data.FillBytes(make([]byte, width/8))
	for i := 0; i < n; i++ {
		cur = append(cur, b[width/8-1-i])
	}
	return cur
}

// rxBuild builds the testbench at width bits for cfg in dir and returns the binary.
func rxBuild(t *testing.T, root string, cfg config.Config, width, cycles int, dir string) string {
	return buildTB(t, tbBuild{root: root, tb: "roce_rx_tb", block: "roce_rx", params: []tbParam{
		{name: "DATA_WIDTH", val: width}, {name: "CONNS", val: cfg.Conns}, {name: "PATHS", val: cfg.Paths},
		{name: "QPN_BASE", val: cfg.QPNBase}, {name: "MTU", val: cfg.MTU}, {name: "SACK_BITS", val: cfg.SackBits},
		{name: "PSEQ_WIDTH", val: cfg.PseqWidth}, {name: "HANDLE_WIDTH", val: cfg.HandleWidth},
		{name: "CYCLES", val: cycles}}, dir: dir})
}

// rxRun runs the testbench on a beat file with bp percent of back-pressure and returns its output.
func rxRun(t *testing.T, tb string, run rxBeats, bp int, sd uint64, width int) rxOut {
	out := run.path + ".out"
	cmd := exec.Command("nice", "-n", "10", tb, "+beats="+run.path, "+out="+out, fmt.Sprintf("+bp=%d", bp),
		fmt.Sprintf("+seed=%d", sd%1000000+1), fmt.Sprintf("+lines=%d", run.lines),
		fmt.Sprintf("+frames=%d", run.frames))
	msg, err := cmd.CombinedOutput()
	require.NoError(t, err, "testbench:\n%s", msg)
	return readRxOut(t, out, width)
}

// rxCompare requires that o holds exactly the descriptors, payloads and counters fs gives.
func rxCompare(t *testing.T, cfg config.Config, fs []rxFrame, o rxOut, what string) {
	data, acks, pays, cnt := rxWant(cfg, fs)
	require.Equal(t, cnt[:], o.x[3:], "%s: counters (data ack not_roce truncated invalid unknown_opcode "+
		"bad_icrc limit mac_error)", what)
	rxCounterChanges(t, fs, o.changes, what)
	require.Equal(t, len(data), len(o.data), "%s: data descriptors", what)
	for i := range data {
		require.Equal(t, data[i], o.data[i], "%s: data descriptor %d (conn psn path pseq first last ack_req ecn "+
			"handle offset len src_mac src_ip)", what, i)
	}
	require.Equal(t, len(acks), len(o.acks), "%s: ACK descriptors", what)
	for i := range acks {
		require.Equal(t, acks[i], o.acks[i], "%s: ACK descriptor %d (conn psn path pseq sack ecn nak has_sack "+
			"src_mac src_ip)", what, i)
	}
	require.Equal(t, len(pays), len(o.pays), "%s: payloads", what)
	for i := range pays {
		require.Equal(t, pays[i], o.pays[i], "%s: payload %d", what, i)
	}
}

// rxCounterChanges requires that the counters moved one frame at a time, in frame order: the n-th change is
// the n-th frame's counter going up by exactly one, at most one change per cycle. A counter that is wrong for
// a while and right at the end fails here.
func rxCounterChanges(t *testing.T, fs []rxFrame, changes [][3]int, what string) {
	var cnt [9]int
	for i, fr := range fs {
		if i == len(changes) {
			break
		}
		k := rxKind(fr)
		cnt[k]++
		c := changes[i]
		require.Equal(t, [2]int{k, cnt[k]}, [2]int{c[1], c[2]}, "%s: counter change %d at cycle %d "+
			"(counter index, value)", what, i, c[0])
		if i > 0 {
			require.Greater(t, c[0], changes[i-1][0], "%s: counter change %d in the cycle of the one before", what, i)
		}
	}
	require.Len(t, changes, len(fs), "%s: counter changes (one per frame)", what)
}

// rxSourcesVary requires that, over the accepted data frames of fs and over the accepted ACKs, each of the ten
// source address bytes (MAC bytes 0..5, IPv4 octets 0..3) takes several values and that each pair of them
// differs in some frame: a stuck, dropped or swapped source byte in a descriptor then shows as a mismatch.
func rxSourcesVary(t *testing.T, fs []rxFrame) {
	for _, ack := range []bool{false, true} {
		var vals [10]map[byte]bool
		var differ [10][10]bool
		for i := range vals {
			vals[i] = map[byte]bool{}
		}
		for _, fr := range fs {
			if fr.user || fr.err != nil || fr.pkt.IsAck() != ack {
				continue
			}
			h := fr.pkt.Data.Header
			if ack {
				h = fr.pkt.Ack.Header
			}
			ip := h.SrcIP.As4()
			b := append(h.SrcMAC[:], ip[:]...)
			for i := range b {
				vals[i][b[i]] = true
				for j := range b {
					differ[i][j] = differ[i][j] || b[i] != b[j]
				}
			}
		}
		for i := range vals {
			require.Greater(t, len(vals[i]), 8, "ack %v: source byte %d takes few values", ack, i)
			for j := range vals {
				require.True(t, i == j || differ[i][j], "ack %v: source bytes %d and %d always equal", ack, i, j)
			}
		}
	}
}

// TestRoCERX runs rtl/roce_rx.v under Verilator at 64, 128 and 512 bits with the default preset's geometry, and
// at the data_width of the ice40 and u250 presets with theirs (connections, paths, SACK bits, widths, MTU), on
// frames whose verdicts come from system/roce Limits.Parse: a simulated capture, data of every pad count to
// the MTU, ACKs and NAKs of every SACK length, IPv4 options, trailing bytes, frames outside the limits, bit
// flips at every byte position, field edits, cut frames, runts, garbage, MAC errors. Each runs once with
// random idle cycles and 30% output back-pressure, once back to back with none, once back to back with 90%;
// then the line-rate figures.
func TestRoCERX(t *testing.T) {
	root, sd := setup(t, "verilator")
	cfg, err := config.Preset("default")
	require.NoError(t, err)
	r := rand.New(rand.NewPCG(sd, 0x5e7))
	fs := rxFrames(t, r, cfg, sd)
	kinds := map[string]int{}
	for _, fr := range fs {
		kinds[fr.kind]++
	}
	_, _, _, cnt := rxWant(cfg, fs)
	fmt.Printf("rtlcheck: TestRoCERX %d frames: %v; verdicts %v\n", len(fs), kinds, cnt)
	rxSourcesVary(t, fs)
	for _, width := range []int{64, 128, 512} {
		t.Run(fmt.Sprintf("width_%d", width), func(t *testing.T) {
			rxWidth(t, root, r, cfg, fs, width, sd)
		})
	}
	for _, name := range []string{"ice40", "u250"} {
		pc, err := config.Preset(name)
		require.NoError(t, err)
		t.Run(fmt.Sprintf("%s_width_%d", name, pc.DataWidth), func(t *testing.T) {
			pfs := rxFrames(t, r, pc, sd)
			_, _, _, cnt := rxWant(pc, pfs)
			rxSourcesVary(t, pfs)
			fmt.Printf("rtlcheck: TestRoCERX %s: %d frames; verdicts %v\n", name, len(pfs), cnt)
			rxWidth(t, root, r, pc, pfs, pc.DataWidth, sd)
		})
	}
}

// rxBeats is a beat file: its path, lines and frames.
type rxBeats struct {
	path          string
	lines, frames int
}

// rxFigure is a set of frames of one size for the line-rate figures.
type rxFigure struct {
	name   string
	frames []rxFrame
}

// rxFigureFrames returns the frame sets of the figures: plain ACKs (the smallest frame), ACKs of the
// configuration's SACK length, data with 64, 1024 and 4096 payload bytes.
func rxFigureFrames(t *testing.T, r *rand.Rand, cfg config.Config) []rxFigure {
	g := &rxGen{t: t, r: r, cfg: cfg, lim: roce.LimitsFor(cfg, cfg.MTU)}
	var figs []rxFigure
	for _, n := range []int{-2, -1, 64, 1024, 4096} {
		if n > cfg.MTU {
			continue
		}
		g.fs = nil
		count := max(24, 200*64/max(n, 64))
		for k := 0; k < count; k++ {
			switch {
			case n == -2:
				g.add("ack", g.ack(-1, g.qpn(), g.path()), false)
			case n < 0:
				g.add("ack", g.ack(max(1, cfg.SackBits/32), g.qpn(), g.path()), false)
			default:
				g.add("data", g.data(n, g.qpn(), g.path()), false)
			}
		}
		name := fmt.Sprintf("data %d B (%d B frames)", n, len(g.fs[0].frame))
		if n < 0 {
			name = fmt.Sprintf("ACK (%d B frames)", len(g.fs[0].frame))
		}
		if n == -2 {
			name = fmt.Sprintf("plain ACK (%d B frames)", len(g.fs[0].frame))
		}
		figs = append(figs, rxFigure{name: name, frames: g.fs})
	}
	return figs
}

// rxWidth runs the checks and the figures at one width.
func rxWidth(t *testing.T, root string, r *rand.Rand, cfg config.Config, fs []rxFrame, width int, sd uint64) {
	dir := t.TempDir()
	write := func(name string, frs []rxFrame, gaps bool) rxBeats {
		p := filepath.Join(dir, name)
		return rxBeats{path: p, lines: rxWriteBeats(t, r, frs, width, gaps, p), frames: len(frs)}
	}
	gappy, tight := write("gappy.hex", fs, true), write("tight.hex", fs, false)
	figs := rxFigureFrames(t, r, cfg)
	runs := make([]rxBeats, len(figs))
	most := gappy.lines
	for i, fig := range figs {
		runs[i] = write(fmt.Sprintf("fig%d.hex", i), fig.frames, false)
		most = max(most, runs[i].lines)
	}
	t0 := time.Now()
	tb := rxBuild(t, root, cfg, width, most, dir)
	built := time.Since(t0)
	o := rxRun(t, tb, gappy, 30, sd, width)
	rxCompare(t, cfg, fs, o, fmt.Sprintf("width %d, idle cycles and 30%% back-pressure", width))
	o = rxRun(t, tb, tight, 0, sd, width)
	rxCompare(t, cfg, fs, o, fmt.Sprintf("width %d, back to back", width))
	// outputs ready one cycle in ten: the FIFOs and the buffer fill, s_axis_tready must hold the input
	o = rxRun(t, tb, tight, 90, sd, width)
	rxCompare(t, cfg, fs, o, fmt.Sprintf("width %d, back to back, 90%% back-pressure", width))
	fmt.Printf("rtlcheck: TestRoCERX width %d: %d frames, %d beat lines; build %v, runs %v\n", width, len(fs),
		gappy.lines, built.Round(time.Second), (time.Since(t0) - built).Round(time.Second))
	for i, fig := range figs {
		o := rxRun(t, tb, runs[i], 0, sd, width)
		rxCompare(t, cfg, fig.frames, o, fig.name)
		span := o.x[1] - o.x[0] + 1
		fmt.Printf("rtlcheck: TestRoCERX width %d figure %s: %d frames, %d beats in %d cycles: "+
			"%.3f beats/cycle, %.4f frames/cycle; latency first beat -> descriptor %d cycles\n", width, fig.name,
			len(fig.frames), o.x[2], span, float64(o.x[2])/float64(span), float64(len(fig.frames))/float64(span),
			o.descCycles[0]-o.starts[0])
		require.Equal(t, o.x[2], span, "%s: the input stalled at line rate", fig.name)
	}
}
