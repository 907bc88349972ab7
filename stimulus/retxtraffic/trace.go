package retxtraffic

import (
	"fmt"

	"github.com/spraynic/spraynic/golden/retx"
)

// PktEv is one m_pkt transfer: Shown is the first cycle the packet was on m_pkt (m_pkt_valid), At the cycle of
// the transfer (m_pkt_valid && m_pkt_ready).
type PktEv struct {
	Shown, At                 int64
	Conn, PSN, Path, Pseq     uint32
	Entropy, Handle, Retries  uint32
	First, Last, AckReq, Retx bool
}

func (p PktEv) String() string {
	f := func(b bool, s string) string {
		if b {
			return " " + s
		}
		return ""
	}
	return fmt.Sprintf("{shown %d at %d conn %d psn %#x path %d pseq %d entropy %#x handle %#x retries %d%s%s%s%s}",
		p.Shown, p.At, p.Conn, p.PSN, p.Path, p.Pseq, p.Entropy, p.Handle, p.Retries,
		f(p.First, "first"), f(p.Last, "last"), f(p.AckReq, "ack_req"), f(p.Retx, "retx"))
}

// FbEv is one m_fb transfer, Shown and At as for PktEv.
type FbEv struct {
	Shown, At               int64
	Conn, Path, Kind, Count uint32
}

func (f FbEv) String() string {
	kind := [4]string{"delivered", "ecn", "loss", "timeout"}[f.Kind&3]
	return fmt.Sprintf("{shown %d at %d conn %d path %d %s count %d}", f.Shown, f.At, f.Conn, f.Path, kind, f.Count)
}

// ErrEv is one cycle with m_err_valid.
type ErrEv struct {
	At   int64
	Conn uint32
}

// Trace is everything a script run showed on the ports (outputs of every cycle, the inputs that qualify them) and
// the marks of its steps.
type Trace struct {
	Marks
	// Ins and Outs are the ports of every cycle.
	Ins  []retx.In
	Outs []retx.Out
	// Pkts, Fbs and Errs are the transfers on m_pkt, m_fb and the m_err pulses, outside reset cycles.
	Pkts []PktEv
	Fbs  []FbEv
	Errs []ErrEv
	// pktShown and fbShown are the first cycles the current m_pkt / m_fb contents were valid (-1: not valid).
	pktShown, fbShown int64
}

// Out returns the outputs of cycle c (the zero value outside the run).
func (t *Trace) Out(c int64) retx.Out {
	if c < 0 || c >= int64(len(t.Outs)) {
		return retx.Out{}
	}
	return t.Outs[c]
}

// In returns the inputs of cycle c (the zero value outside the run).
func (t *Trace) In(c int64) retx.In {
	if c < 0 || c >= int64(len(t.Ins)) {
		return retx.In{}
	}
	return t.Ins[c]
}

// Last returns the outputs of the last cycle.
func (t *Trace) Last() retx.Out { return t.Out(int64(len(t.Outs)) - 1) }

func (t *Trace) record(cycle int64, in *retx.In, out *retx.Out) {
	t.Ins = append(t.Ins, *in)
	t.Outs = append(t.Outs, *out)
	if in.Rst {
		t.pktShown, t.fbShown = -1, -1
		return
	}
	if !out.PktValid {
		t.pktShown = -1
	} else if t.pktShown < 0 {
		t.pktShown = cycle
	}
	if !out.FbValid {
		t.fbShown = -1
	} else if t.fbShown < 0 {
		t.fbShown = cycle
	}
	if out.PktValid && in.PktReady {
		t.Pkts = append(t.Pkts, PktEv{Shown: t.pktShown, At: cycle, Conn: out.PktConn, PSN: out.PktPSN,
			Path: out.PktPath, Pseq: out.PktPseq, Entropy: out.PktEntropy, Handle: out.PktHandle,
			Retries: out.PktRetries, First: out.PktFirst, Last: out.PktLast, AckReq: out.PktAckReq, Retx: out.PktRetx})
		t.pktShown = -1
	}
	if out.FbValid && in.FbReady {
		t.Fbs = append(t.Fbs, FbEv{Shown: t.fbShown, At: cycle, Conn: out.FbConn, Path: out.FbPath,
			Kind: out.FbKind, Count: out.FbCount})
		t.fbShown = -1
	}
	if out.ErrValid {
		t.Errs = append(t.Errs, ErrEv{At: cycle, Conn: out.ErrConn})
	}
}

// pktShownAt returns the first cycle of the m_pkt contents shown in cycle c (-1 when m_pkt_valid is low).
func (t *Trace) pktShownAt(c int64) int64 {
	if !t.Out(c).PktValid {
		return -1
	}
	s := c
	for s > 0 && t.Out(s-1).PktValid && !t.In(s-1).Rst && !t.Out(s-1).PathReady && !(t.In(s - 1).PktReady) {
		s--
	}
	return s
}
