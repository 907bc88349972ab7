package cosim

import (
	"fmt"

	"github.com/spraynic/spraynic/golden/nictransport"
)

// nicVerdicts checks the receive verdicts of the nic_transport top (docs/nic_transport.md "Receive verdicts") on
// its ports alone: every data descriptor taken on s_rx gets one verdict the cycle after, in order, with its
// connection and PSN; the verdicts of each code add up to the counter of that class (cnt_accepted,
// cnt_duplicate, cnt_out_of_window, cnt_closed two cycles after the handshake, cnt_gbn_dropped one); and every
// completion on m_cpl is of a packet whose verdict was "accepted".
type nicVerdicts struct {
	// taken is the queue of descriptors taken and not yet given a verdict.
	taken []nicTaken
	// codes counts the verdicts of each code since the last reset (wrapping like the counters).
	codes [5]uint32
	// accepted counts, per (connection, PSN), the accepted verdicts not yet completed.
	accepted map[[2]uint32]int
	// Verdicts and Taken count verdicts seen and descriptors taken in the whole run.
	Verdicts, Taken int64
}

// nicTaken is one descriptor taken on s_rx.
type nicTaken struct {
	// conn and psn are the descriptor's; at is the cycle it was taken.
	conn, psn uint32
	at        int64
}

func newNicVerdicts() *nicVerdicts {
	return &nicVerdicts{accepted: map[[2]uint32]int{}}
}

// Observe checks one cycle.
func (v *nicVerdicts) Observe(cycle int64, in *nictransport.TopIn, out *nictransport.TopOut) error {
	if in.Rst {
		// A reset cycle shows no verdict and clears the counters and m_cpl at its edge.
		if out.RxvValid {
			return fmt.Errorf("verdict in a reset cycle (conn %d psn %#x)", out.RxvConn, out.RxvPSN)
		}
		v.taken = nil
		v.codes = [5]uint32{}
		clear(v.accepted)
		return nil
	}
	// rx_reorder's counters show the verdicts of the cycles before this one.
	got := [4]uint32{out.CntAccepted, out.CntDuplicate, out.CntOutOfWin, out.CntClosed}
	if want := [4]uint32(v.codes[:4]); got != want {
		return fmt.Errorf("counters accepted/duplicate/out_of_window/closed %v, but the verdicts so far say %v",
			got, want)
	}
	if err := v.verdict(cycle, out); err != nil {
		return err
	}
	if out.CntGBNDropped != v.codes[nictransport.VerdictGBNDropped] {
		return fmt.Errorf("cnt_gbn_dropped %d, but %d go-back-N drop verdicts", out.CntGBNDropped,
			v.codes[nictransport.VerdictGBNDropped])
	}
	if out.CplValid && in.CplReady {
		k := [2]uint32{out.CplConn, out.CplPSN}
		if v.accepted[k] == 0 {
			return fmt.Errorf("completion conn %d psn %#x without an accepted verdict", out.CplConn, out.CplPSN)
		}
		v.accepted[k]--
		if v.accepted[k] == 0 {
			delete(v.accepted, k)
		}
	}
	if in.RxValid && out.RxReady {
		v.taken = append(v.taken, nicTaken{conn: in.RxConn, psn: in.RxPSN, at: cycle})
		v.Taken++
	}
	return nil
}

// verdict checks this cycle's m_rxv against the descriptor taken the cycle before.
func (v *nicVerdicts) verdict(cycle int64, out *nictransport.TopOut) error {
	due := len(v.taken) > 0 && v.taken[0].at == cycle-1
	switch {
	case !out.RxvValid && due:
		return fmt.Errorf("no verdict for the descriptor taken at cycle %d (conn %d psn %#x)", cycle-1,
			v.taken[0].conn, v.taken[0].psn)
	case !out.RxvValid:
		return nil
	case !due:
		return fmt.Errorf("verdict conn %d psn %#x code %d: no descriptor was taken the cycle before",
			out.RxvConn, out.RxvPSN, out.RxvCode)
	}
	w := v.taken[0]
	v.taken = v.taken[1:]
	if out.RxvConn != w.conn || out.RxvPSN != w.psn || out.RxvCode > nictransport.VerdictGBNDropped {
		return fmt.Errorf("verdict for the descriptor taken at cycle %d: conn/psn/code %d/%#x/%d, expected "+
			"conn/psn %d/%#x", w.at, out.RxvConn, out.RxvPSN, out.RxvCode, w.conn, w.psn)
	}
	v.codes[out.RxvCode]++
	if out.RxvCode == 0 {
		v.accepted[[2]uint32{w.conn, w.psn}]++
	}
	v.Verdicts++
	return nil
}

// Finish checks that every descriptor but one taken in the last cycle got its verdict.
func (v *nicVerdicts) Finish() error {
	if len(v.taken) > 1 {
		return fmt.Errorf("%d descriptors taken got no verdict (first: conn %d psn %#x at cycle %d)", len(v.taken),
			v.taken[0].conn, v.taken[0].psn, v.taken[0].at)
	}
	return nil
}
