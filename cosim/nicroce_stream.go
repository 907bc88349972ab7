package cosim

import (
	"fmt"

	"github.com/spraynic/spraynic/golden/nicroce"
)

// nrHeld is an AXI-Stream master output of the top: whether it offered an item that did not move in the last
// cycle, and that item.
type nrHeld[T comparable] struct {
	valid bool
	item  T
}

// hold checks the AXI-Stream rule on port for this cycle: an item offered and not taken in the last cycle is
// offered again, unchanged (valid stays high, the payload stays). It then records this cycle's offer.
func (h *nrHeld[T]) hold(port string, valid, ready bool, item T) error {
	if h.valid && !valid {
		return fmt.Errorf("%s: tvalid dropped before the item %+v moved", port, h.item)
	}
	if h.valid && item != h.item {
		return fmt.Errorf("%s: item changed before it moved: %+v, then %+v", port, h.item, item)
	}
	h.valid, h.item = valid && !ready, item
	return nil
}

// nrTxBeat is the payload of a MAC TX beat.
type nrTxBeat struct {
	data       nicroce.Data
	keep       uint64
	last, user bool
}

// nrStreams holds the top's AXI-Stream master outputs the lockstep checks against the AXI-Stream rule (the host
// model checks the DMA outputs): MAC TX and the completion stream.
type nrStreams struct {
	tx  nrHeld[nrTxBeat]
	cpl nrHeld[nicroce.Cpl]
}

// check runs the rule on the RTL's outputs o of a cycle with inputs in; rst (the reset cycle) forgets the
// offers (a reset may drop a valid).
func (s *nrStreams) check(in *nicroce.TopIn, o *nicroce.TopOut) error {
	if in.Rst {
		*s = nrStreams{}
		return nil
	}
	if err := s.tx.hold("m_axis_tx", o.MacTxTValid, in.MacTxTReady, nrTxBeat{data: o.MacTxTData,
		keep: o.MacTxTKeep, last: o.MacTxTLast, user: o.MacTxTUser}); err != nil {
		return err
	}
	return s.cpl.hold("m_cpl", o.CplValid, in.CplReady, o.Cpl())
}
