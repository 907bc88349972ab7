package livelink

import (
	"encoding/hex"
	"fmt"
	"io"
	"net"
	"net/netip"
	"strconv"
	"strings"
)

// Dest is what ibv_rc_pingpong trades over TCP: LID, QPN, PSN and GID, sent as the text
// "%04x:%06x:%06x:%s" with the GID as 32 hex digits in wire byte order, in a fixed 52-byte buffer (the C string
// and its NUL).
type Dest struct {
	LID, QPN, PSN uint32
	GID           [16]byte
}

// destLen is sizeof "0000:000000:000000:00000000000000000000000000000000" in rc_pingpong.c.
const destLen = 52

// doneMsg is what the client sends after reading the server's Dest: sizeof "done", NUL included.
var doneMsg = []byte("done\x00")

// GIDOf returns the IPv4-mapped GID (::ffff:a.b.c.d) of a RoCEv2 IPv4 address.
func GIDOf(ip netip.Addr) [16]byte { return ip.As16() }

// IP returns the IPv4 address of an IPv4-mapped GID, or false.
func (d Dest) IP() (netip.Addr, bool) {
	a := netip.AddrFrom16(d.GID)
	if !a.Is4In6() {
		return netip.Addr{}, false
	}
	return a.Unmap(), true
}

// Marshal returns d as ibv_rc_pingpong sends it.
func (d Dest) Marshal() []byte {
	b := make([]byte, destLen)
	copy(b, fmt.Sprintf("%04x:%06x:%06x:%s", d.LID&0xFFFF, d.QPN&0xFFFFFF, d.PSN&0xFFFFFF,
		hex.EncodeToString(d.GID[:])))
	return b
}

// ParseDest reads a Dest as ibv_rc_pingpong's sscanf("%x:%x:%x:%s") would, checking every field.
func ParseDest(b []byte) (Dest, error) {
	var d Dest
	s := string(b)
	if i := strings.IndexByte(s, 0); i >= 0 {
		s = s[:i]
	}
	f := strings.Split(s, ":")
	if len(f) != 4 || len(f[3]) != 32 {
		return d, fmt.Errorf("pingpong exchange: %q is not LID:QPN:PSN:GID (4:6:6:32 hex digits)", s)
	}
	var v [3]uint64
	for i, lim := range []int{16, 24, 24} {
		x, err := strconv.ParseUint(f[i], 16, lim)
		if err != nil {
			return d, fmt.Errorf("pingpong exchange: field %d of %q: %w", i+1, s, err)
		}
		v[i] = x
	}
	g, err := hex.DecodeString(f[3])
	if err != nil {
		return d, fmt.Errorf("pingpong exchange: GID of %q: %w", s, err)
	}
	d.LID, d.QPN, d.PSN = uint32(v[0]), uint32(v[1]), uint32(v[2])
	copy(d.GID[:], g)
	return d, nil
}

// ServerExchange is the server's side on an accepted connection: read the client's Dest, call ready (the QP is
// connected before the reply, as rc_pingpong moves its QP to RTR/RTS first), send ours, read "done".
func ServerExchange(c net.Conn, mine Dest, ready func(peer Dest) error) (Dest, error) {
	b := make([]byte, destLen)
	if _, err := io.ReadFull(c, b); err != nil {
		return Dest{}, fmt.Errorf("pingpong exchange: reading the client's address: %w", err)
	}
	peer, err := ParseDest(b)
	if err != nil {
		return Dest{}, err
	}
	if err := ready(peer); err != nil {
		return Dest{}, err
	}
	if _, err := c.Write(mine.Marshal()); err != nil {
		return Dest{}, fmt.Errorf("pingpong exchange: sending our address: %w", err)
	}
	// "done" and its NUL, however the connection splits them
	d := make([]byte, len(doneMsg))
	n, err := io.ReadFull(c, d)
	if err != nil || string(d) != string(doneMsg) {
		return Dest{}, fmt.Errorf("pingpong exchange: no \"done\" from the client (%q, %v)", d[:n], err)
	}
	return peer, nil
}

// ClientExchange is the client's side: send our Dest, read the server's, send "done".
func ClientExchange(c net.Conn, mine Dest) (Dest, error) {
	if _, err := c.Write(mine.Marshal()); err != nil {
		return Dest{}, fmt.Errorf("pingpong exchange: sending our address: %w", err)
	}
	b := make([]byte, destLen)
	if _, err := io.ReadFull(c, b); err != nil {
		return Dest{}, fmt.Errorf("pingpong exchange: reading the server's address: %w", err)
	}
	peer, err := ParseDest(b)
	if err != nil {
		return Dest{}, err
	}
	if _, err := c.Write(doneMsg); err != nil {
		return Dest{}, fmt.Errorf("pingpong exchange: sending done: %w", err)
	}
	return peer, nil
}
