package cosim

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/spraynic/spraynic/golden/nictransport"
)

// TestNicVerdictsBite runs the nic_transport verdict checker on short port traces: descriptors of connection 1
// taken at cycles 0 and 1 (PSN 5 accepted, PSN 5 again a duplicate) and a go-back-N drop taken at cycle 2, then
// the completion of PSN 5; and on traces with one thing wrong.
func TestNicVerdictsBite(t *testing.T) {
	type cyc struct {
		in  nictransport.TopIn
		out nictransport.TopOut
	}
	rx := func(psn uint32) nictransport.TopIn {
		return nictransport.TopIn{RxValid: true, RxConn: 1, RxPSN: psn, CplReady: true}
	}
	rxv := func(o nictransport.TopOut, psn, code uint32) nictransport.TopOut {
		o.RxvValid, o.RxvConn, o.RxvPSN, o.RxvCode = true, 1, psn, code
		return o
	}
	good := func() []cyc {
		ready := nictransport.TopOut{RxReady: true}
		return []cyc{
			{in: rx(5), out: ready},
			{in: rx(5), out: rxv(ready, 5, 0)},
			{in: rx(9), out: rxv(nictransport.TopOut{RxReady: true, CntAccepted: 1}, 5, 1)},
			{out: rxv(nictransport.TopOut{CntAccepted: 1, CntDuplicate: 1, CntGBNDropped: 1}, 9, 4)},
			{in: nictransport.TopIn{CplReady: true}, out: nictransport.TopOut{CntAccepted: 1, CntDuplicate: 1,
				CntGBNDropped: 1, CplValid: true, CplConn: 1, CplPSN: 5}},
		}
	}
	check := func(tr []cyc) error {
		v := newNicVerdicts()
		for c := range tr {
			if err := v.Observe(int64(c), &tr[c].in, &tr[c].out); err != nil {
				return err
			}
		}
		return v.Finish()
	}
	require.NoError(t, check(good()))

	tr := good()
	tr[2].out.RxvCode = 0 // the duplicate shown as accepted: cnt_duplicate disagrees
	require.ErrorContains(t, check(tr), "the verdicts so far say")
	tr = good()
	tr[1].out.RxvValid = false
	require.ErrorContains(t, check(tr), "no verdict for the descriptor taken at cycle 0")
	tr = good()
	tr[2].out.RxvPSN = 6
	require.ErrorContains(t, check(tr), "expected conn/psn 1/0x5")
	tr = good()
	tr[3].out.RxvCode = 3 // the go-back-N drop shown as closed: cnt_gbn_dropped disagrees
	require.ErrorContains(t, check(tr), "go-back-N drop verdicts")
	tr = good()
	tr[4].out.CplPSN = 9 // PSN 9 was dropped: a completion of it has no accepted verdict
	require.ErrorContains(t, check(tr), "completion conn 1 psn 0x9 without an accepted verdict")
}
