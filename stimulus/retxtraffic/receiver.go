package retxtraffic

import "github.com/spraynic/spraynic/golden/wide"

// psnMask keeps 24-bit PSN arithmetic.
const psnMask = 1<<24 - 1

// ack is one ACK on its way back to the engine (the s_ack fields).
type ack struct {
	// conn, psn, path and pseq are the s_ack fields; sack is the bitmap; ecn and nak the flags.
	conn, psn, path, pseq uint32
	sack                  wide.Vec
	ecn, nak              bool
	// epoch is the connection epoch the ACK belongs to (ACKs of an older epoch are discarded).
	epoch int
}

// pathRx is the receive state of one (connection, path): the rx_reorder rules.
type pathRx struct {
	// pnext is one past the highest path sequence received; psack bit i = pnext-1-i received; ecn a CE mark since
	// the last ACK.
	pnext uint32
	psack wide.Vec
	ecn   bool
}

// receiver is the far end of one connection: selective (rx_reorder rules) or go-back-N (a RoCEv2 responder).
type receiver struct {
	// cum is the next expected PSN; got holds accepted PSNs at or beyond cum.
	cum uint32
	got map[uint32]bool
	// ackcnt counts accepted packets since the last ACK; nakSent suppresses repeated NAKs (go-back-N).
	ackcnt  int
	nakSent bool
	paths   []pathRx
}

// rxParams are the receiver's fixed parameters.
type rxParams struct {
	window, sackBits, ackEvery int
	pseqMask                   uint32
	gbn                        bool
}

func newReceiver(psn uint32, paths int) *receiver {
	return &receiver{cum: psn, got: map[uint32]bool{}, paths: make([]pathRx, paths)}
}

// arrive takes one data packet and returns the ACK it triggers, if any.
func (r *receiver) arrive(p rxParams, conn, psn, path, pseq uint32, ackReq, ecn bool) (ack, bool) {
	if p.gbn {
		return r.arriveGBN(p, conn, psn, path, pseq, ackReq)
	}
	d := int32((psn-r.cum)<<8) >> 8
	accept, dup := false, false
	switch {
	case d >= 0 && int(d) < p.window && !r.got[psn]:
		accept = true
	case d >= 0 && int(d) < p.window, d < 0 && d >= -(1<<23-1):
		dup = true
	}
	ps := &r.paths[path]
	e := int32((pseq-ps.pnext)<<(32-bitsOf(p.pseqMask))) >> (32 - bitsOf(p.pseqMask))
	gap := false
	switch {
	case e >= 0:
		s := int(e) + 1
		if s >= p.sackBits {
			ps.psack = wide.One()
		} else {
			ps.psack = ps.psack.Shl(s, p.sackBits).Set(0)
		}
		ps.pnext = (pseq + 1) & p.pseqMask
		gap = e > 0
	case int(-e-1) < p.sackBits:
		ps.psack = ps.psack.Set(int(-e - 1))
	}
	ps.ecn = ps.ecn || ecn
	if accept {
		r.got[psn] = true
		for r.got[r.cum] {
			delete(r.got, r.cum)
			r.cum = (r.cum + 1) & psnMask
		}
	}
	if !accept && !dup {
		return ack{}, false // out of window: no ACK
	}
	if ackReq || dup || gap || (accept && r.ackcnt+1 == p.ackEvery) {
		a := ack{conn: conn, psn: r.cum, path: path, pseq: ps.pnext, sack: ps.psack, ecn: ps.ecn}
		ps.ecn, r.ackcnt = false, 0
		return a, true
	}
	if accept {
		r.ackcnt++
	}
	return ack{}, false
}

// arriveGBN is a RoCEv2 responder: only the expected PSN is accepted; the first packet past a gap gets a NAK
// "PSN sequence error" (once per gap); a duplicate gets an ACK.
func (r *receiver) arriveGBN(p rxParams, conn, psn, path, pseq uint32, ackReq bool) (ack, bool) {
	d := int32((psn-r.cum)<<8) >> 8
	a := ack{conn: conn, path: path, pseq: (pseq + 1) & p.pseqMask, sack: wide.One()}
	switch {
	case d == 0:
		r.cum = (r.cum + 1) & psnMask
		r.nakSent = false
		r.ackcnt++
		if ackReq || r.ackcnt >= p.ackEvery {
			r.ackcnt = 0
			a.psn = r.cum
			return a, true
		}
	case d > 0:
		if !r.nakSent {
			r.nakSent = true
			a.psn, a.nak = r.cum, true
			return a, true
		}
	default:
		a.psn = r.cum
		return a, true
	}
	return ack{}, false
}

// bitsOf is the number of bits of a mask 2^n-1.
func bitsOf(mask uint32) uint32 {
	n := uint32(0)
	for mask != 0 {
		n++
		mask >>= 1
	}
	return n
}
