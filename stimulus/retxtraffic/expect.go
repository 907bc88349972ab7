package retxtraffic

import (
	"fmt"
	"strings"

	"github.com/spraynic/spraynic/golden/retx"
)

// Expect is one row of a script's expectations, judged on the whole run: it returns how the run differs from it
// (nothing: the run shows what the row expects).
type Expect func(t *Trace) []string

func diff(format string, a ...any) []string { return []string{fmt.Sprintf(format, a...)} }

// is expects got == want.
func is[T comparable](what string, got, want T) Expect {
	return func(*Trace) []string {
		if got != want {
			return diff("%s: got %v, want %v", what, got, want)
		}
		return nil
	}
}

// inARow expects the steps name<from>..name<to-1> to have shaken hands in consecutive cycles.
func inARow(name string, from, to int) Expect {
	return func(t *Trace) []string {
		var d []string
		for i := from + 1; i < to; i++ {
			d = append(d, is(lbl("s_tx handshake of %s%d (one new packet per cycle)", name, i),
				t.C(lbl("%s%d", name, i)), t.C(lbl("%s%d", name, from))+int64(i-from))(t)...)
		}
		return d
	}
}

// pktsAre expects exactly the m_pkt transfers want.
func pktsAre(what string, want []PktEv) Expect {
	return func(t *Trace) []string { return listDiff(what, "transfer", t.Pkts, want) }
}

// fbsAre expects exactly the m_fb transfers want.
func fbsAre(what string, want []FbEv) Expect {
	return func(t *Trace) []string { return listDiff(what, "event", t.Fbs, want) }
}

// listDiff compares a list of transfers (each one a noun).
func listDiff[T comparable](what, noun string, got, want []T) []string {
	var d []string
	for i := 0; i < max(len(got), len(want)); i++ {
		switch {
		case i >= len(got):
			d = append(d, fmt.Sprintf("%s: %s %d missing, want %v", what, noun, i, want[i]))
		case i >= len(want):
			d = append(d, fmt.Sprintf("%s: unexpected %s %d: %v", what, noun, i, got[i]))
		case got[i] != want[i]:
			d = append(d, fmt.Sprintf("%s: %s %d: got %v, want %v", what, noun, i, got[i], want[i]))
		}
	}
	return d
}

// countersAt expects the eight counters of cycle c to be want (sent, retx_loss, retx_timeout, retx_gbn,
// timeouts, errors, tx_dropped, ack_ignored).
func countersAt(c int64, want [8]uint32) Expect {
	return func(t *Trace) []string { return countersDiff(t, c, want) }
}

// countersAtEnd expects the counters of the last cycle to be want (as countersAt).
func countersAtEnd(want [8]uint32) Expect {
	return func(t *Trace) []string { return countersDiff(t, int64(len(t.Outs))-1, want) }
}

func countersDiff(t *Trace, c int64, want [8]uint32) []string {
	o := t.Out(c)
	got := [8]uint32{o.CntSent, o.CntRetxLoss, o.CntRetxTimeout, o.CntRetxGBN, o.CntTimeouts, o.CntErrors,
		o.CntTxDropped, o.CntAckIgnored}
	if got != want {
		return diff("counters at cycle %d (sent, retx_loss, retx_timeout, retx_gbn, timeouts, errors, tx_dropped, "+
			"ack_ignored): got %v, want %v", c, got, want)
	}
	return nil
}

// holds expects f to hold in every cycle of [from, to] (inclusive).
func holds(what string, from, to int64, f func(in retx.In, out retx.Out) bool) Expect {
	return func(t *Trace) []string {
		for c := from; c <= to; c++ {
			if !f(t.In(c), t.Out(c)) {
				return diff("%s: does not hold at cycle %d (checked %d..%d)", what, c, from, to)
			}
		}
		return nil
	}
}

// noPkt and noPath are levels for holds: m_pkt_valid low, s_path_ready low (nothing sent).
func noPkt(_ retx.In, o retx.Out) bool  { return !o.PktValid }
func noPath(_ retx.In, o retx.Out) bool { return !o.PathReady }

// preqAt expects m_preq in cycle c (valid, conn, retx, avoid; all 0 when not valid).
func preqAt(c int64, valid bool, conn uint32, retxing bool, avoid uint32) Expect {
	return func(t *Trace) []string {
		o := t.Out(c)
		got := fmt.Sprint(o.PreqValid, o.PreqConn, o.PreqRetx, o.PreqAvoid)
		want := fmt.Sprint(valid, conn, retxing, avoid)
		if !valid {
			want = fmt.Sprint(false, 0, false, 0)
		}
		if got != want {
			return diff("m_preq at cycle %d (valid conn retx avoid): got %s, want %s", c, got, want)
		}
		return nil
	}
}

// preqsAt expects the same m_preq in every cycle of [from, to] (preqAt for each).
func preqsAt(from, to int64, valid bool, conn uint32, retxing bool, avoid uint32) Expect {
	return func(t *Trace) []string {
		var d []string
		for c := from; c <= to; c++ {
			d = append(d, preqAt(c, valid, conn, retxing, avoid)(t)...)
		}
		return d
	}
}

// report is the error of a run's differences (nil: none), the first few of them in full.
func report(diffs []string) error {
	if len(diffs) == 0 {
		return nil
	}
	const show = 12
	msg := diffs
	more := ""
	if len(msg) > show {
		more = fmt.Sprintf("\n  ... and %d more", len(msg)-show)
		msg = msg[:show]
	}
	return fmt.Errorf("%d expectation(s) failed:\n  %s%s", len(diffs), strings.Join(msg, "\n  "), more)
}
