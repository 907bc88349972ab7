package rtlcheck_test

import (
	"bufio"
	"fmt"
	"math/rand/v2"
	"net/netip"
	"os"
	"slices"
	"strings"

	"github.com/spraynic/spraynic/system/roce"
)

// txParams are the roce_tx parameters of one build.
type txParams struct {
	// width is DATA_WIDTH.
	width int
	// conns, paths, sackBits, pseqW and handleW are CONNS, PATHS, SACK_BITS, PSEQ_WIDTH and HANDLE_WIDTH.
	conns, paths, sackBits, pseqW, handleW int
	// mtu is MTU, the largest payload.
	mtu int
}

// words is the SACK bitmap length on the wire, in 32-bit words.
func (p txParams) words() int { return max(1, p.sackBits/32) }

// txEntry is one connection table entry.
type txEntry struct {
	mac  [6]byte
	ip   netip.Addr
	qpn  uint32
	dscp uint8
	ttl  uint8
}

// txWrite is one table write, with the local addresses set with it.
type txWrite struct {
	epoch, conn int
	entry       txEntry
	lmac        [6]byte
	lip         netip.Addr
}

// txPkt is one data descriptor and its payload.
type txPkt struct {
	epoch, conn         int
	psn, pseq           uint32
	path                uint8
	entropy             uint16
	handle, offset      uint32
	first, last, ackReq bool
	payload             []byte
	// tuser is s_pay_tuser of each payload beat (nil: all low); high on any beat poisons the frame.
	tuser []bool
}

// poisoned tells whether k's frame leaves with its ICRC inverted: tuser high on one of its payload beats.
func (k *txPkt) poisoned() bool { return slices.Contains(k.tuser, true) }

// txAck is one ACK/NAK descriptor.
type txAck struct {
	epoch, conn int
	psn, pseq   uint32
	path        uint8
	entropy     uint16
	ecn, nak    bool
	sack        [roce.SACKMaxWords]uint32
}

// txStim is one stimulus: the records the testbench presents and the frames they must give, per kind, in order.
type txStim struct {
	pkts   []txPkt
	acks   []txAck
	writes []txWrite
	// wantData and wantAck are the frames of pkts and acks (roce.BuildData, roce.BuildAck; a poisoned data
	// frame with its ICRC, the last 4 bytes, inverted).
	wantData, wantAck [][]byte
}

// txGen builds a stimulus: it keeps the table and local addresses as the writes so far leave them.
type txGen struct {
	p     txParams
	r     *rand.Rand
	st    txStim
	epoch int
	table []txEntry
	lmac  [6]byte
	lip   netip.Addr
}

func newTxGen(p txParams, r *rand.Rand) *txGen {
	g := &txGen{p: p, r: r, table: make([]txEntry, p.conns)}
	g.newEpoch(p.conns)
	return g
}

func randMAC(r *rand.Rand) (m [6]byte) {
	for i := range m {
		m[i] = byte(r.Uint32())
	}
	m[0] &^= 1 // unicast: tshark flags a group source address
	return m
}

func randIP(r *rand.Rand) netip.Addr {
	return netip.AddrFrom4([4]byte{byte(r.Uint32()), byte(r.Uint32()), byte(r.Uint32()), byte(r.Uint32())})
}

// edge returns 0, max or a random value in 0..max, the edges a quarter of the time each.
func edge(r *rand.Rand, max uint32) uint32 {
	switch r.IntN(8) {
	case 0, 1:
		return 0
	case 2, 3:
		return max
	}
	return uint32(r.Uint64N(uint64(max) + 1))
}

// newEpoch starts an epoch with n table writes (all connections in order when n is conns) and new local
// addresses.
func (g *txGen) newEpoch(n int) {
	if len(g.st.writes) > 0 {
		g.epoch++
	}
	g.lmac, g.lip = randMAC(g.r), randIP(g.r)
	for i := 0; i < n; i++ {
		c := i
		if n != g.p.conns {
			c = int(edge(g.r, uint32(g.p.conns-1)))
		}
		e := txEntry{mac: randMAC(g.r), ip: randIP(g.r), qpn: 2 + edge(g.r, 1<<24-4),
			dscp: uint8(edge(g.r, 63)), ttl: uint8(edge(g.r, 255))}
		g.table[c] = e
		g.st.writes = append(g.st.writes, txWrite{epoch: g.epoch, conn: c, entry: e, lmac: g.lmac, lip: g.lip})
	}
}

// header is the common part of a frame to connection c with UDP source port ent.
func (g *txGen) header(c int, ent uint16) roce.Header {
	e := g.table[c]
	return roce.Header{SrcMAC: g.lmac, DstMAC: e.mac, SrcIP: g.lip, DstIP: e.ip, DSCP: e.dscp,
		ECN: roce.ECNECT0, TTL: e.ttl, SrcPort: ent, PKey: roce.DefaultPKey, DestQP: e.qpn}
}

// psn returns a random PSN, near the 2^24 wrap half of the time.
func (g *txGen) psn() uint32 {
	if g.r.IntN(2) == 0 {
		return uint32(roce.Max24-2+g.r.IntN(5)) & roce.Max24
	}
	return g.r.Uint32N(1 << 24)
}

// data adds a data descriptor with n random payload bytes, poisoned (randTuser) a sixth of the time.
func (g *txGen) data(n int) error {
	var tu []bool
	if g.r.IntN(6) == 0 {
		tu = randTuser(g.r, g.beats(n))
	}
	return g.dataTuser(n, tu)
}

// beats is the number of payload beats of an n-byte payload.
func (g *txGen) beats(n int) int {
	kw := g.p.width / 8
	return (n + kw - 1) / kw
}

// randTuser returns a random poison pattern over k payload beats, at least one high when k > 0: the last beat
// only, one random beat, several, or all of them.
func randTuser(r *rand.Rand, k int) []bool {
	tu := make([]bool, k)
	if k == 0 {
		return tu
	}
	switch r.IntN(4) {
	case 0:
		tu[k-1] = true
	case 1:
		tu[r.IntN(k)] = true
	case 2:
		for i := range tu {
			tu[i] = r.IntN(3) == 0
		}
		tu[r.IntN(k)] = true
	default:
		for i := range tu {
			tu[i] = true
		}
	}
	return tu
}

// dataTuser adds a data descriptor with n random payload bytes and s_pay_tuser tu on its beats (nil: all low).
func (g *txGen) dataTuser(n int, tu []bool) error {
	if tu != nil && len(tu) != g.beats(n) {
		return fmt.Errorf("dataTuser: %d tuser values for %d beats", len(tu), g.beats(n))
	}
	p := txPkt{epoch: g.epoch, conn: int(edge(g.r, uint32(g.p.conns-1))), psn: g.psn(),
		pseq: edge(g.r, 1<<g.p.pseqW-1), path: uint8(edge(g.r, uint32(g.p.paths-1))),
		entropy: entropy(g.r), handle: edge(g.r, uint32(1<<g.p.handleW-1)),
		offset: edge(g.r, 0xFFFFFFFF), first: g.r.IntN(2) == 0, last: g.r.IntN(2) == 0, ackReq: g.r.IntN(2) == 0,
		payload: make([]byte, n), tuser: tu}
	for i := range p.payload {
		p.payload[i] = byte(g.r.Uint32())
	}
	d := roce.Data{Header: g.header(p.conn, p.entropy), PSN: p.psn, AckReq: p.ackReq, Path: p.path, PSeq: p.pseq,
		First: p.first, Last: p.last, MsgID: p.handle, Offset: p.offset, Payload: p.payload}
	f, err := roce.BuildData(&d)
	if err != nil {
		return fmt.Errorf("BuildData: %w", err)
	}
	if p.poisoned() {
		// the ICRC (little-endian, the last 4 bytes) inverted, every other byte unchanged
		for i := len(f) - 4; i < len(f); i++ {
			f[i] ^= 0xFF
		}
	}
	g.st.pkts = append(g.st.pkts, p)
	g.st.wantData = append(g.st.wantData, f)
	return nil
}

// ack adds an ACK or NAK descriptor with a random SACK bitmap (its top bit set a quarter of the time).
func (g *txGen) ack() error {
	a := txAck{epoch: g.epoch, conn: int(edge(g.r, uint32(g.p.conns-1))), psn: g.psn(),
		pseq: edge(g.r, 1<<g.p.pseqW-1), path: uint8(edge(g.r, uint32(g.p.paths-1))),
		entropy: entropy(g.r), ecn: g.r.IntN(2) == 0, nak: g.r.IntN(3) == 0}
	if g.r.IntN(8) == 0 {
		a.psn = 0
	}
	for i := 0; i < g.p.sackBits; i++ {
		if g.r.IntN(2) == 0 || (i == g.p.sackBits-1 && g.r.IntN(4) == 0) {
			a.sack[i/32] |= 1 << (i % 32)
		}
	}
	k := roce.Ack{Header: g.header(a.conn, a.entropy), CumPSN: a.psn, NAK: a.nak, HasSACK: true, Path: a.path,
		PNext: a.pseq, ECNEcho: a.ecn, Words: uint8(g.p.words()), Bitmap: a.sack}
	f, err := roce.BuildAck(&k)
	if err != nil {
		return fmt.Errorf("BuildAck: %w", err)
	}
	g.st.acks = append(g.st.acks, a)
	g.st.wantAck = append(g.st.wantAck, f)
	return nil
}

// txFiles are the stimulus files of one run.
type txFiles struct {
	pkt, ack, tbl, pay string
	npay               int
}

// write writes the stimulus files into dir.
func (st *txStim) write(dir string, p txParams) (txFiles, error) {
	fs := txFiles{pkt: dir + "/pkt.hex", ack: dir + "/ack.hex", tbl: dir + "/tbl.hex", pay: dir + "/pay.hex"}
	var pkt, ack, tbl, pay []string
	kw := p.width / 8
	for _, k := range st.pkts {
		flags := b2i(k.first)<<2 | b2i(k.last)<<1 | b2i(k.ackReq)
		pkt = append(pkt, fmt.Sprintf("%04x%04x%06x%02x%06x%04x%08x%x%08x%04x", k.epoch, k.conn, k.psn, k.path,
			k.pseq, k.entropy, k.handle, flags, k.offset, len(k.payload)))
		pay = append(pay, payBeats(k.payload, k.tuser, kw)...)
	}
	for _, a := range st.acks {
		s := fmt.Sprintf("%04x%04x%06x%02x%06x%04x%x", a.epoch, a.conn, a.psn, a.path, a.pseq, a.entropy,
			b2i(a.ecn)<<1|b2i(a.nak))
		for w := roce.SACKMaxWords - 1; w >= 0; w-- {
			s += fmt.Sprintf("%08x", a.sack[w])
		}
		ack = append(ack, s)
	}
	for _, w := range st.writes {
		e := w.entry
		tbl = append(tbl, fmt.Sprintf("%04x%04x%x%x%06x%02x%02x%x%x", w.epoch, w.conn, e.mac[:], e.ip.AsSlice(),
			e.qpn, e.dscp, e.ttl, w.lmac[:], w.lip.AsSlice()))
	}
	fs.npay = len(pay)
	for _, f := range []struct {
		name  string
		lines []string
	}{{fs.pkt, pkt}, {fs.ack, ack}, {fs.tbl, tbl}, {fs.pay, pay}} {
		if err := writeLines(f.name, f.lines); err != nil {
			return fs, err
		}
	}
	return fs, nil
}

// payBeats returns the payload beats as hex lines, the tuser digit first (tu[i] of beat i, nil: 0), then the
// data, lane 0 last; bytes past the payload are filled with 0xA5 (the RTL must not send them).
func payBeats(b []byte, tu []bool, kw int) []string {
	var out []string
	for off := 0; off < len(b); off += kw {
		var s strings.Builder
		u := 0
		if tu != nil && tu[off/kw] {
			u = 1
		}
		fmt.Fprintf(&s, "%x", u)
		for i := kw - 1; i >= 0; i-- {
			v := byte(0xA5)
			if off+i < len(b) {
				v = b[off+i]
			}
			fmt.Fprintf(&s, "%02x", v)
		}
		out = append(out, s.String())
	}
	return out
}

// b2i is 1 for true, 0 for false.
func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

func writeLines(name string, lines []string) error {
	f, err := os.Create(name)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(f)
	for _, l := range lines {
		if _, err := w.WriteString(l + "\n"); err != nil {
			f.Close()
			return err
		}
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// entropy returns a UDP source port in the path entropy range 0xC000..0xFFFF (docs/protocol.md, "UDP"; a lower
// port may be claimed by another Wireshark dissector).
func entropy(r *rand.Rand) uint16 { return uint16(0xC000 + edge(r, 0x3FFF)) }
