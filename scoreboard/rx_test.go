package scoreboard_test

import (
	"testing"

	"github.com/spraynic/spraynic/config"
	"github.com/spraynic/spraynic/golden/rxreorder"
	"github.com/spraynic/spraynic/golden/wide"
	"github.com/spraynic/spraynic/scoreboard"
	"github.com/stretchr/testify/require"
)

// step is one observed cycle.
type step struct {
	in  rxreorder.In
	out rxreorder.Out
}

func open(conn, psn uint32) step {
	return step{
		in:  rxreorder.In{CtlValid: true, CtlOpen: true, CtlConn: conn, CtlPSN: psn},
		out: rxreorder.Out{CtlReady: true, PktReady: true},
	}
}

func pkt(conn, psn, path, pseq, handle uint32) step {
	return step{
		in:  rxreorder.In{PktValid: true, PktConn: conn, PktPSN: psn, PktPath: path, PktPseq: pseq, PktHandle: handle},
		out: rxreorder.Out{PktReady: true, CtlReady: true},
	}
}

func cpl(conn, psn, handle uint32) step {
	return step{
		in: rxreorder.In{CplReady: true},
		out: rxreorder.Out{PktReady: true, CtlReady: true, CplValid: true, CplConn: conn, CplPSN: psn,
			CplHandle: handle},
	}
}

func closeConn(conn uint32) step {
	return step{in: rxreorder.In{CtlValid: true, CtlConn: conn}, out: rxreorder.Out{CtlReady: true, PktReady: true}}
}

func idle() step { return step{out: rxreorder.Out{PktReady: true, CtlReady: true}} }

// withCounters sets the counter outputs a step shows.
func withCounters(s step, acc, dup, oow, closed uint32) step {
	s.out.CntAccepted = acc
	s.out.CntDuplicate = dup
	s.out.CntOutOfWin = oow
	s.out.CntClosed = closed
	return s
}

func run(t *testing.T, steps []step) error {
	cfg, err := config.Preset("default")
	require.NoError(t, err)
	sb := scoreboard.NewRx(cfg)
	// These traces predate m_rxv and do not show it; TestRxVerdicts checks it.
	sb.IgnoreVerdicts = true
	for c, s := range steps {
		if err := sb.Observe(int64(c), &s.in, &s.out); err != nil {
			return err
		}
	}
	return nil
}

func TestRxCatches(t *testing.T) {
	// held takes PSNs 10 and 11 of connection 0 and then reopens, closes and opens the connection again: the
	// completion of PSN 10 may still come (m_cpl held it under back-pressure).
	held := func(more ...step) []step {
		return append([]step{open(0, 10), pkt(0, 10, 0, 0, 6), pkt(0, 11, 0, 1, 7),
			withCounters(open(0, 100), 1, 0, 0, 0), withCounters(closeConn(0), 2, 0, 0, 0),
			withCounters(open(0, 200), 2, 0, 0, 0)}, more...)
	}
	tests := []struct {
		name  string
		steps []step
		want  string
	}{
		{name: "in order completions pass", steps: []step{open(0, 10), pkt(0, 11, 0, 1, 7),
			withCounters(pkt(0, 10, 1, 0, 6), 0, 0, 0, 0), withCounters(cpl(0, 10, 6), 1, 0, 0, 0),
			withCounters(cpl(0, 11, 7), 2, 0, 0, 0)}, want: ""},
		{name: "completion out of order", steps: []step{open(0, 10), pkt(0, 11, 0, 0, 7), pkt(0, 10, 1, 0, 6),
			withCounters(cpl(0, 11, 7), 1, 0, 0, 0)}, want: "psn 0xb, expected 0xa"},
		{name: "completion twice", steps: []step{open(0, 10), pkt(0, 10, 0, 0, 6), idle(),
			withCounters(cpl(0, 10, 6), 1, 0, 0, 0), withCounters(cpl(0, 10, 6), 1, 0, 0, 0)}, want: "expected 0xb"},
		{name: "completion never received", steps: []step{open(0, 10), idle(), cpl(0, 10, 6)}, want: "never received"},
		{name: "wrong handle", steps: []step{open(0, 10), pkt(0, 10, 0, 0, 6), idle(),
			withCounters(cpl(0, 10, 5), 1, 0, 0, 0)}, want: "handle/first/last 0x5"},
		{name: "counter late", steps: []step{open(0, 10), pkt(0, 10, 0, 0, 6), idle(), idle()}, want: "counters"},
		{name: "closed drop counted", steps: []step{pkt(3, 10, 0, 0, 6), idle(), withCounters(idle(), 0, 0, 0, 1)},
			want: ""},
		// A completion released before a reopen, a close and an open again is still taken after them (m_cpl held
		// it under back-pressure), and it is the only one of the old incarnations.
		{name: "completion held through reopen, close, open", steps: held(withCounters(cpl(0, 10, 6), 2, 0, 0, 0)),
			want: ""},
		{name: "second completion of an old incarnation",
			steps: held(withCounters(cpl(0, 10, 6), 2, 0, 0, 0), withCounters(cpl(0, 11, 7), 2, 0, 0, 0)),
			want:  "psn 0xb, expected 0xc8"},
		{name: "old incarnation's completion out of order", steps: held(withCounters(cpl(0, 11, 7), 2, 0, 0, 0)),
			want: "psn 0xb, expected 0xc8"},
		{name: "no ack due", steps: []step{open(0, 10), {in: rxreorder.In{AckReady: true},
			out: rxreorder.Out{PktReady: true, CtlReady: true, AckValid: true}}}, want: "no ACK was due"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := run(t, tc.steps)
			if tc.want == "" {
				require.NoError(t, err)
				return
			}
			require.ErrorContains(t, err, tc.want)
		})
	}
}

func TestRxFalseSack(t *testing.T) {
	// Path 0 sees sequences 0 and 2 (1 was lost); an ACK claiming 1 as received would make the sender drop data.
	ack := func(sack wide.Vec) step {
		return step{in: rxreorder.In{AckReady: true}, out: rxreorder.Out{PktReady: true, CtlReady: true, AckValid: true,
			AckConn: 0, AckPSN: 13, AckPath: 0, AckPseq: 3, AckSack: sack, CntAccepted: 3}}
	}
	base := []step{open(0, 10), pkt(0, 10, 0, 0, 1), pkt(0, 11, 1, 0, 2), withCounters(pkt(0, 12, 0, 2, 3), 1, 0, 0, 0)}
	good := wide.Vec{}.Set(0).Set(2)
	require.NoError(t, run(t, append(append([]step{}, base...), withCounters(idle(), 2, 0, 0, 0), ack(good))))
	bad := good.Set(1)
	err := run(t, append(append([]step{}, base...), withCounters(idle(), 2, 0, 0, 0), ack(bad)))
	require.ErrorContains(t, err, "SACK bit 1 is true, expected false")
}

// verdict sets the receive verdict a step shows.
func verdict(s step, conn, psn, code uint32) step {
	s.out.RxvValid = true
	s.out.RxvConn = conn
	s.out.RxvPSN = psn
	s.out.RxvCode = code
	return s
}

func TestRxVerdicts(t *testing.T) {
	cfg, err := config.Preset("default")
	require.NoError(t, err)
	// Connection 0 opens at 10; PSN 10 is accepted, 10 again is a duplicate, 11+WINDOW is out of window (cum is
	// 11 then), and a packet of the closed connection 3 is dropped: one verdict each, the cycle after it was taken,
	// in order.
	w := uint32(cfg.Window)
	trace := func(codes [4]uint32) []step {
		return []step{open(0, 10), pkt(0, 10, 0, 0, 6),
			verdict(pkt(0, 10, 0, 1, 7), 0, 10, codes[0]),
			withCounters(verdict(pkt(0, 11+w, 0, 2, 8), 0, 10, codes[1]), 1, 0, 0, 0),
			withCounters(verdict(pkt(3, 5, 0, 0, 9), 0, 11+w, codes[2]), 1, 1, 0, 0),
			withCounters(verdict(idle(), 3, 5, codes[3]), 1, 1, 1, 0),
			withCounters(idle(), 1, 1, 1, 1)}
	}
	observe := func(steps []step) (*scoreboard.Rx, error) {
		sb := scoreboard.NewRx(cfg)
		for c, s := range steps {
			if err := sb.Observe(int64(c), &s.in, &s.out); err != nil {
				return sb, err
			}
		}
		return sb, nil
	}
	good := [4]uint32{rxreorder.VerdictAccepted, rxreorder.VerdictDuplicate, rxreorder.VerdictOutOfWindow,
		rxreorder.VerdictClosed}
	sb, err := observe(trace(good))
	require.NoError(t, err)
	require.EqualValues(t, 4, sb.Taken)
	require.Equal(t, sb.Taken, sb.Verdicts, "one verdict per packet taken")
	require.EqualValues(t, 1, sb.Accepted)

	dupAsAccepted := good
	dupAsAccepted[1] = rxreorder.VerdictAccepted
	_, err = observe(trace(dupAsAccepted))
	require.ErrorContains(t, err, "expected 0/0xa/1 (duplicate)")
	closedAsOOW := good
	closedAsOOW[3] = rxreorder.VerdictOutOfWindow
	_, err = observe(trace(closedAsOOW))
	require.ErrorContains(t, err, "(closed)")

	missing := trace(good)
	missing[5].out.RxvValid = false
	_, err = observe(missing)
	require.ErrorContains(t, err, "no verdict for the packet taken at cycle 4")
	extra := trace(good)
	extra[6] = verdict(extra[6], 3, 5, rxreorder.VerdictClosed)
	_, err = observe(extra)
	require.ErrorContains(t, err, "no packet waits for one")
}
