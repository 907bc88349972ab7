package rtlcheck_test

import (
	"bufio"
	"bytes"
	"encoding/hex"
	"errors"
	"fmt"
	"math/bits"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/spraynic/spraynic/system/roce"
)

// txBuilds are the roce_tx instances TestRoCETX builds: each width with other field widths (128 bits with the
// smallest of each, MTU included), so that the zero-extension of every descriptor field is checked at several
// sizes.
var txBuilds = []txParams{
	{width: 64, conns: 16, paths: 8, sackBits: 64, pseqW: 16, handleW: 16, mtu: 4096},
	{width: 128, conns: 2, paths: 2, sackBits: 8, pseqW: 8, handleW: 1, mtu: 256},
	{width: 512, conns: 4, paths: 64, sackBits: 256, pseqW: 24, handleW: 32, mtu: 4096},
}

// txLog is what the testbench logged in one run.
type txLog struct {
	// dataAcc, ackAcc and payAcc are the cycles of each descriptor and payload beat transfer.
	dataAcc, ackAcc, payAcc []int
	// frames are the output frames; first and last the cycles of their first and tlast beats.
	frames      [][]byte
	first, last []int
	// beats is the number of output beats.
	beats int
	// xerr and gaps are the testbench's m_axis protocol errors and idle cycles inside frames.
	xerr, gaps int
	// out is what the testbench printed.
	out string
}

// TestRoCETX checks rtl/roce_tx.v against roce.BuildData and roce.BuildAck at 64, 128 and 512 bits (docs/roce_tx.md,
// "Verification"): random descriptors over every field range, every payload length 0..160 and random ones up to
// the MTU, ACKs and NAKs with random SACK bitmaps, table rewrites, with random input gaps and back-pressure and
// back to back; then the throughput and latency figures, and tshark on the frames when it is installed.
func TestRoCETX(t *testing.T) {
	root, sd := setup(t, "verilator")
	for _, p := range txBuilds {
		t.Run(fmt.Sprintf("width_%d", p.width), func(t *testing.T) {
			r := rand.New(rand.NewPCG(sd, uint64(p.width)))
			bin := buildTx(t, root, p)
			st := randomStim(t, p, r)
			fmt.Printf("rtlcheck: TestRoCETX width %d: %d data, %d ACK/NAK, %d table writes\n", p.width,
				len(st.pkts), len(st.acks), len(st.writes))
			lg := runTx(t, bin, p, st, fmt.Sprintf("+gap=30 +bp=30 +seed=%d", sd))
			// idle cycles inside a frame follow the payload's (random gaps): only the protocol is checked
			require.Zero(t, lg.xerr, "random run: m_axis errors")
			tsharkFrames(t, lg.frames)
			lg = runTx(t, bin, p, st, "+gap=0 +bp=0")
			require.Zero(t, lg.gaps+lg.xerr, "back-to-back run: m_axis errors %d, gaps %d:\n%s", lg.xerr, lg.gaps,
				lg.out)
			ps := poisonStim(t, p, r)
			lg = runTx(t, bin, p, ps, "+gap=0 +bp=0")
			require.Zero(t, lg.gaps+lg.xerr, "poison, back to back: m_axis errors %d, gaps %d:\n%s", lg.xerr,
				lg.gaps, lg.out)
			lg = runTx(t, bin, p, ps, fmt.Sprintf("+gap=30 +bp=30 +seed=%d", sd))
			require.Zero(t, lg.xerr, "poison, random: m_axis errors")
			fmt.Printf("rtlcheck: TestRoCETX width %d: poisoned data frames: %d of %d random, %d of %d directed\n",
				p.width, countPoisoned(st), len(st.pkts), countPoisoned(ps), len(ps.pkts))
			txFigures(t, bin, p, r)
		})
	}
}

// buildTx builds the testbench of p with Verilator and returns the binary.
func buildTx(t *testing.T, root string, p txParams) string {
	t0 := time.Now()
	bin := buildTB(t, tbBuild{root: root, tb: "roce_tx_tb", block: "roce_tx", params: []tbParam{
		{name: "DATA_WIDTH", val: p.width}, {name: "CONNS", val: p.conns}, {name: "PATHS", val: p.paths},
		{name: "SACK_BITS", val: p.sackBits}, {name: "PSEQ_WIDTH", val: p.pseqW},
		{name: "HANDLE_WIDTH", val: p.handleW}, {name: "MTU", val: p.mtu}}, dir: t.TempDir()})
	fmt.Printf("rtlcheck: TestRoCETX width %d: build %v\n", p.width, time.Since(t0).Round(time.Second))
	return bin
}

// randomStim returns the random stimulus: every payload length 0..160 (every pad count and tlast position at
// every width), 120 random lengths up to the MTU and the 4 largest, 400 ACKs/NAKs, a table rewrite every 20
// descriptors.
func randomStim(t *testing.T, p txParams, r *rand.Rand) *txStim {
	var lens []int
	for n := 0; n <= 160; n++ {
		lens = append(lens, n)
	}
	for i := 0; i < 120; i++ {
		lens = append(lens, r.IntN(p.mtu+1))
	}
	lens = append(lens, p.mtu-3, p.mtu-2, p.mtu-1, p.mtu)
	r.Shuffle(len(lens), func(i, j int) { lens[i], lens[j] = lens[j], lens[i] })
	g := newTxGen(p, r)
	for i, nAck := 0, 0; len(lens) > 0 || nAck < 400; i++ {
		if i%20 == 19 {
			g.newEpoch(1 + r.IntN(3))
		}
		if nAck < 400 && (len(lens) == 0 || r.IntN(2) == 0) {
			require.NoError(t, g.ack())
			nAck++
			continue
		}
		require.NoError(t, g.data(lens[0]))
		lens = lens[1:]
	}
	return &g.st
}

// poisonStim returns the directed poison stimulus: for each payload length class (one beat, partial and full;
// many beats with a full and a ragged last beat; the ICRC split over the last two beats; the MTU), a
// poisoned frame (tuser on every beat, on the last only, on the first only) directly followed by a clean frame
// of the same length, then a payload-less frame and an ACK after a poisoned frame, which must stay clean.
func poisonStim(t *testing.T, p txParams, r *rand.Rand) *txStim {
	kw := p.width / 8
	split := (kw - 72%kw) % kw // (74 + n) mod kw = 2 with n a multiple of 4: the tlast beat holds 2 ICRC bytes
	if split == 0 {
		split = kw
	}
	g := newTxGen(p, r)
	for _, n := range []int{1, kw - 1, kw, 8 * kw, 8*kw + 3, split, split + 3*kw, p.mtu} {
		k := g.beats(n)
		every, last, first := make([]bool, k), make([]bool, k), make([]bool, k)
		for i := range every {
			every[i] = true
		}
		last[k-1], first[0] = true, true
		for _, tu := range [][]bool{every, last, first} {
			require.NoError(t, g.dataTuser(n, tu))
			require.NoError(t, g.dataTuser(n, nil))
		}
		require.NoError(t, g.dataTuser(n, last))
		require.NoError(t, g.dataTuser(0, nil))
		require.NoError(t, g.dataTuser(n, first))
		require.NoError(t, g.ack())
		require.NoError(t, g.dataTuser(n, nil))
	}
	return &g.st
}

// countPoisoned is the number of poisoned data descriptors of st.
func countPoisoned(st *txStim) int {
	n := 0
	for i := range st.pkts {
		if st.pkts[i].poisoned() {
			n++
		}
	}
	return n
}

// runTx runs the testbench on st with the plusargs extra and checks every frame: byte for byte against
// BuildData/BuildAck of the same inputs (data and ACK frames each in order) and accepted by roce.Parse.
func runTx(t *testing.T, bin string, p txParams, st *txStim, extra string) *txLog {
	dir := t.TempDir()
	fs, err := st.write(dir, p)
	require.NoError(t, err)
	logName := filepath.Join(dir, "log.txt")
	args := []string{"-n", "10", bin, "+log=" + logName, "+pkt=" + fs.pkt, "+ack=" + fs.ack, "+tbl=" + fs.tbl,
		"+pay=" + fs.pay, fmt.Sprintf("+npkt=%d", len(st.pkts)), fmt.Sprintf("+nack=%d", len(st.acks)),
		fmt.Sprintf("+ntbl=%d", len(st.writes)), fmt.Sprintf("+npay=%d", fs.npay)}
	args = append(args, strings.Fields(extra)...)
	out, err := exec.Command("nice", args...).CombinedOutput()
	require.NoError(t, err, "testbench:\n%s", out)
	lg, err := readTxLog(logName)
	require.NoError(t, err)
	lg.out = string(out)
	require.Len(t, lg.frames, len(st.pkts)+len(st.acks), "frames out (%s):\n%s", extra, out)
	require.NoError(t, compareTx(st, lg), "%s", extra)
	return lg
}

// compareTx matches each output frame with the next expected frame of its kind (BTH opcode, byte 42).
func compareTx(st *txStim, lg *txLog) error {
	nd, na := 0, 0
	for i, f := range lg.frames {
		var want []byte
		poisoned := false
		switch {
		case len(f) > 42 && f[42] == roce.OpSendOnly && nd < len(st.wantData):
			want, poisoned, nd = st.wantData[nd], st.pkts[nd].poisoned(), nd+1
		case len(f) > 42 && f[42] == roce.OpAck && na < len(st.wantAck):
			want, na = st.wantAck[na], na+1
		default:
			return fmt.Errorf("frame %d (%d bytes): no frame of its kind expected: % x", i, len(f), f)
		}
		if !bytes.Equal(f, want) {
			return fmt.Errorf("frame %d (data %d, ack %d): %s\ngot  % x\nwant % x", i, nd-1, na-1,
				firstDiff(f, want), f, want)
		}
		_, err := roce.Parse(f)
		if !poisoned {
			if err != nil {
				return fmt.Errorf("frame %d: roce.Parse: %w", i, err)
			}
			continue
		}
		// a poisoned frame: dropped as a bad ICRC, the one found the inverse of the one computed
		var ie *roce.ICRCError
		if !errors.As(err, &ie) || !errors.Is(err, roce.ErrBadICRC) || ie.Actual != ^ie.Expected {
			return fmt.Errorf("frame %d (data %d, poisoned): roce.Parse: %v, want a bad ICRC (inverted)", i,
				nd-1, err)
		}
	}
	return nil
}

// firstDiff describes the first differing byte of got and want.
func firstDiff(got, want []byte) string {
	for i := 0; i < min(len(got), len(want)); i++ {
		if got[i] != want[i] {
			return fmt.Sprintf("first difference at byte %d: got %#02x, want %#02x (lengths %d, %d)", i, got[i],
				want[i], len(got), len(want))
		}
	}
	return fmt.Sprintf("lengths differ: got %d bytes, want %d", len(got), len(want))
}

// readTxLog parses the testbench log.
func readTxLog(name string) (*txLog, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	lg := &txLog{}
	var cur []byte
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		fl := strings.Fields(sc.Text())
		if len(fl) < 2 {
			continue
		}
		c, _ := strconv.Atoi(fl[1])
		switch fl[0] {
		case "D":
			lg.dataAcc = append(lg.dataAcc, c)
		case "A":
			lg.ackAcc = append(lg.ackAcc, c)
		case "P":
			lg.payAcc = append(lg.payAcc, c)
		case "O":
			if cur, err = lg.beat(fl, c, cur); err != nil {
				return nil, err
			}
		case "S":
			if len(fl) < 7 {
				return nil, fmt.Errorf("bad summary %q", sc.Text())
			}
			lg.xerr, _ = strconv.Atoi(fl[4])
			lg.gaps, _ = strconv.Atoi(fl[6])
		}
	}
	return lg, sc.Err()
}

// beat adds one output beat "O cycle last tkeep tdata" to the frame in progress cur.
func (lg *txLog) beat(fl []string, c int, cur []byte) ([]byte, error) {
	if len(fl) != 5 {
		return nil, fmt.Errorf("bad beat line %q", strings.Join(fl, " "))
	}
	keep, err := strconv.ParseUint(fl[3], 16, 64)
	if err != nil {
		return nil, err
	}
	data, err := hex.DecodeString(fl[4])
	if err != nil {
		return nil, err
	}
	slices.Reverse(data)
	n := bits.OnesCount64(keep)
	if keep != 1<<n-1 && n != 64 {
		return nil, fmt.Errorf("cycle %d: tkeep %s not contiguous from lane 0", c, fl[3])
	}
	if len(cur) == 0 {
		lg.first = append(lg.first, c)
	}
	lg.beats++
	cur = append(cur, data[:n]...)
	if fl[2] == "1" {
		lg.frames = append(lg.frames, cur)
		lg.last = append(lg.last, c)
		return nil, nil
	}
	if n != len(data) {
		return nil, fmt.Errorf("cycle %d: tkeep %s on a beat without tlast", c, fl[3])
	}
	return cur, nil
}

// tsharkFrames writes frames to a pcap and checks that tshark decodes every one as RoCEv2 with the BTH opcode
// and PSN they carry and reports no error or warning; skipped when tshark is not installed.
func tsharkFrames(t *testing.T, frames [][]byte) {
	if _, err := exec.LookPath("tshark"); err != nil {
		fmt.Println("rtlcheck: TestRoCETX: tshark not installed, pcap check skipped")
		return
	}
	dir := t.TempDir()
	file := filepath.Join(dir, "tx.pcap")
	var buf bytes.Buffer
	require.NoError(t, roce.WritePcap(&buf, frames, nil))
	require.NoError(t, os.WriteFile(file, buf.Bytes(), 0o644))
	cmd := exec.Command("nice", "-n", "10", "tshark", "-n", "-r", file, "-T", "fields", "-E", "separator=/t",
		"-e", "infiniband.bth.opcode", "-e", "infiniband.bth.psn", "-e", "_ws.expert")
	cmd.Env = append(os.Environ(), "HOME="+dir)
	out, err := cmd.Output()
	require.NoError(t, err)
	lines := strings.Split(strings.TrimRight(string(out), "\n"), "\n")
	require.Len(t, lines, len(frames))
	for i, l := range lines {
		psn := uint32(frames[i][51])<<16 | uint32(frames[i][52])<<8 | uint32(frames[i][53])
		want := fmt.Sprintf("%d\t%d\t", frames[i][42], psn)
		require.True(t, strings.HasPrefix(l, want), "tshark, frame %d: %q, want %q", i, l, want)
		// random table values (TTL 0, ...) may earn notes; nothing malformed or wrong
		require.NotRegexp(t, "Malformed|Error/|Warning/", l, "tshark, frame %d", i)
	}
	fmt.Printf("rtlcheck: TestRoCETX: tshark decoded %d RTL frames\n", len(frames))
}

// txSize is one frame size of the figures: a payload length, or an ACK when ack is set.
type txSize struct {
	name   string
	ack    bool
	n      int
	frames int
}

var txSizes = []txSize{
	{name: "data, 64-byte payload", n: 64, frames: 300},
	{name: "ACK", ack: true, frames: 300},
	{name: "data, 1024-byte payload", n: 1024, frames: 60},
	{name: "data, 4096-byte payload", n: 4096, frames: 24},
}

// sizeStim returns k frames of size s.
func sizeStim(t *testing.T, p txParams, r *rand.Rand, s txSize, k int) *txStim {
	g := newTxGen(p, r)
	for i := 0; i < k; i++ {
		if s.ack {
			require.NoError(t, g.ack())
		} else {
			require.NoError(t, g.data(s.n))
		}
	}
	return &g.st
}

// txFigures measures, for each size, beats and frames per cycle back to back (inputs never idle, tready
// always high; from the first output beat to the last) and the latencies of frames sent one at a time.
func txFigures(t *testing.T, bin string, p txParams, r *rand.Rand) {
	for _, s := range txSizes {
		if s.n > p.mtu {
			continue
		}
		lg := runTx(t, bin, p, sizeStim(t, p, r, s, s.frames), "+gap=0 +bp=0")
		require.Zero(t, lg.gaps+lg.xerr, "%s: m_axis errors %d, gaps %d:\n%s", s.name, lg.xerr, lg.gaps,
			lg.out)
		span := lg.last[len(lg.last)-1] - lg.first[0] + 1
		// steady state: idle cycles from frame 10 to frame k-11, away from the start and the end of the burst
		// (the last frames, shorter than the first-beat threshold, wait for their ICRC once the input stops)
		k := len(lg.frames)
		idle := lg.last[k-11] - lg.first[10] + 1 - lg.beats/k*(k-20)
		require.Zero(t, idle, "%s: idle cycles between frames 10 and %d", s.name, k-11)
		st := sizeStim(t, p, r, s, 4)
		sl := runTx(t, bin, p, st, "+gap=0 +bp=0 +serial=1")
		acc := sl.dataAcc
		if s.ack {
			acc = sl.ackAcc
		}
		lat0, lat1 := sl.first[0]-acc[0], "n/a"
		if !s.ack {
			per := (s.n + p.width/8 - 1) / (p.width / 8)
			lat1 = strconv.Itoa(sl.last[0] - sl.payAcc[per-1])
		}
		for i := 1; i < len(sl.frames); i++ {
			require.Equal(t, lat0, sl.first[i]-acc[i], "%s: latency of frame %d", s.name, i)
		}
		fmt.Printf("rtlcheck: TestRoCETX width %d, %s (%d bytes): %d frames, %d beats in %d cycles: "+
			"%.3f beats/cycle, %.4f frames/cycle, %d idle cycles in frames 10..k-11; latency descriptor -> first "+
			"beat %d, last payload beat -> tlast %s cycles\n", p.width, s.name, len(lg.frames[0]), k, lg.beats,
			span, float64(lg.beats)/float64(span), float64(k)/float64(span), idle, lat0, lat1)
	}
}
