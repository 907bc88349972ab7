package cosim

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/spraynic/spraynic/config"
	"github.com/spraynic/spraynic/cosim/bridge"
	"github.com/spraynic/spraynic/english"
	"github.com/spraynic/spraynic/golden/nictransport"
	"github.com/spraynic/spraynic/golden/wide"
	"github.com/spraynic/spraynic/system/roce"
)

// ReplayResult is what one RTL endpoint did with a capture (spraynic replay).
type ReplayResult struct {
	// Frames in the capture; Data and Acks the packets fed to the endpoint; Cycles simulated.
	Frames, Data, Acks int
	Cycles             int64
	// Rejected lists the frames that were not fed, by number in the capture (1-based, as Wireshark counts),
	// with the reason: not RoCEv2 of our format, malformed, or a connection beyond the configuration.
	Rejected []Rejected
	// Out is the endpoint's last output (its counters: completions, duplicates, drops, ACKs).
	Out nictransport.TopOut
	// Completions and AcksSent count m_cpl and m_ack handshakes.
	Completions, AcksSent int64
}

// Rejected is one frame of a capture that was not fed to the endpoint.
type Rejected struct {
	// Frame is its number in the capture (1-based); Reason why.
	Frame  int
	Reason string
}

// replayDriver feeds parsed packets to one endpoint, one per cycle when it is ready, after a reset and the
// opening of every connection the capture uses.
type replayDriver struct {
	// opens are the (connection, RX PSN) opens, pkts the packets in capture order; at the next one.
	opens []replayOpen
	pkts  []replayPkt
	at    int
	// sackBits is SACK_BITS; handleMask keeps HANDLE_WIDTH bits of the PSN used as the receive handle.
	sackBits   int
	handleMask uint32
	// res collects the outcome.
	res *ReplayResult
}

// replayPkt is one packet to feed and the receiver's connection its DestQP names.
type replayPkt struct {
	roce.Packet
	conn uint32
}

// replayOpen opens one connection with the PSN its first data packet in the capture carries.
type replayOpen struct {
	conn, psn uint32
}

// replayReset is the reset at the start of a replay.
const replayReset = 2

func (d *replayDriver) Drive(cycle int64, in *nictransport.TopIn) {
	*in = nictransport.TopIn{Rst: cycle < replayReset, CplReady: true, PktReady: true, AckOutReady: true}
	if in.Rst {
		return
	}
	if k := int(cycle) - replayReset; k < len(d.opens) {
		o := d.opens[k]
		in.CtlValid, in.CtlOpen, in.CtlConn, in.CtlTxPSN, in.CtlRxPSN = true, true, o.conn, 0, o.psn
		return
	}
	if d.at >= len(d.pkts) {
		return
	}
	p := &d.pkts[d.at]
	if p.IsAck() {
		a := &p.Ack
		var v wide.Vec
		for i := 0; i < d.sackBits && i < 32*int(a.Words); i++ {
			if a.Bitmap[i/32]>>(i%32)&1 == 1 {
				v = v.Set(i)
			}
		}
		in.AckValid, in.AckConn, in.AckPSN, in.AckPath, in.AckPseq, in.AckSack, in.AckECN, in.AckNak =
			true, p.conn, a.CumPSN, uint32(a.Path), a.PNext, v, a.ECNEcho, a.NAK
		return
	}
	x := &p.Data
	in.RxValid, in.RxConn, in.RxPSN, in.RxPath, in.RxPseq = true, p.conn, x.PSN, uint32(x.Path), x.PSeq
	in.RxFirst, in.RxLast, in.RxAckReq = x.First, x.Last, x.AckReq
	in.RxECN, in.RxHandle = x.ECN == roce.ECNCE, x.PSN&d.handleMask
}

func (d *replayDriver) Observe(cycle int64, in *nictransport.TopIn, out *nictransport.TopOut) {
	d.res.Out = *out
	if out.CplValid && in.CplReady {
		d.res.Completions++
	}
	if out.AckOutValid && in.AckOutReady {
		d.res.AcksSent++
	}
	if (in.RxValid && out.RxReady) || (in.AckValid && out.AckReady) {
		d.at++
	}
}

// Replay feeds the frames of a capture into one nic_transport RTL endpoint's network input, in lockstep with its
// golden twin, and reports what it did. Frames that are not ours, are malformed or are outside the
// configuration (receiver limits with payloads up to mtu bytes) are counted and named by number, never fed; a
// capture of which no frame can be fed is an error before any model is built. root is the repository
// (nil-safe log).
func Replay(root string, cfg config.Config, mtu int, capt *roce.Capture, repro string, log io.Writer) (
	*ReplayResult, error) {
	res := &ReplayResult{Frames: len(capt.Frames)}
	d := newReplayDriver(cfg, roce.LimitsFor(cfg, mtu), capt.Frames, res)
	if len(d.pkts) == 0 {
		return res, noneFed(capt.Name, res.Rejected)
	}
	// Cycles: reset, opens, one cycle per packet at best, and room for back-pressure and the drain.
	cycles := int64(replayReset+len(d.opens)) + 4*int64(len(d.pkts)) + 4*int64(cfg.Window) + 1000
	res.Cycles = cycles
	lib, err := BuildTop(root, "nic_transport", cfg, bridge.Plain, log)
	if err != nil {
		return nil, err
	}
	want, _, err := NicTransportPorts(cfg)
	if err != nil {
		return nil, err
	}
	dut, err := OpenChecked(lib, "nic_transport", want)
	if err != nil {
		return nil, err
	}
	defer dut.Close()
	g, err := nictransport.NewTop(cfg)
	if err != nil {
		return nil, err
	}
	if _, err := Lockstep[nictransport.TopIn, nictransport.TopOut](dut, g, d, nil, nictransport.Valid, Options{
		Cycles: cycles, Batch: 1024, Repro: repro, History: 8}); err != nil {
		return nil, err
	}
	if d.at < len(d.pkts) {
		return res, fmt.Errorf("replay: the endpoint took %d of %d packets in %d cycles", d.at, len(d.pkts), cycles)
	}
	return res, nil
}

// newReplayDriver parses the frames within lim, counting and listing the rejected ones in res, and returns the
// driver that opens every connection the data packets use (at the first PSN seen) and feeds the packets in
// capture order.
func newReplayDriver(cfg config.Config, lim roce.Limits, frames []roce.CapturedFrame, res *ReplayResult,
) *replayDriver {
	d := &replayDriver{sackBits: cfg.SackBits, handleMask: uint32(uint64(1)<<uint(cfg.HandleWidth) - 1), res: res}
	first := map[uint32]uint32{}
	for i := range frames {
		err := frames[i].Check()
		var p roce.Packet
		if err == nil {
			p, err = lim.Parse(frames[i].Data)
		}
		if err != nil {
			res.Rejected = append(res.Rejected, Rejected{Frame: i + 1, Reason: err.Error()})
			continue
		}
		qpn := p.Data.DestQP
		if p.IsAck() {
			qpn = p.Ack.DestQP
		}
		conn := lim.Conn(qpn)
		if p.IsAck() {
			res.Acks++
		} else {
			res.Data++
			if _, ok := first[conn]; !ok {
				first[conn] = p.Data.PSN
			}
		}
		d.pkts = append(d.pkts, replayPkt{Packet: p, conn: conn})
	}
	for c, psn := range first {
		d.opens = append(d.opens, replayOpen{conn: c, psn: psn})
	}
	sort.Slice(d.opens, func(i, j int) bool { return d.opens[i].conn < d.opens[j].conn })
	return d
}

// Print writes the replay's summary to w: what was fed, the endpoint's counters, at most show rejected frames
// and, when ok, that RTL and golden model agreed.
func (r *ReplayResult) Print(w io.Writer, path, cfgName, mode string, show int, ok bool) {
	o := &r.Out
	fmt.Fprintf(w, "%s: %s: %d data and %d ACK packets fed to one nic_transport (config %s, %s), %d rejected\n",
		path, english.Plural(r.Frames, "frame"), r.Data, r.Acks, cfgName, mode, len(r.Rejected))
	if r.Data+r.Acks > 0 { // else the endpoint never ran
		fmt.Fprintf(w, "completions %d, ACKs sent %d (NAKs %d); data accepted %d, duplicate %d, out of window %d, "+
			"closed %d, go-back-N dropped %d; ACKs ignored %d\n", r.Completions, r.AcksSent, o.CntNaks,
			o.CntAccepted, o.CntDuplicate, o.CntOutOfWin, o.CntClosed, o.CntGBNDropped, o.CntAckIgnored)
	}
	for i, rj := range r.Rejected {
		if i == show {
			fmt.Fprintf(w, "  ... %d more rejected\n", len(r.Rejected)-i)
			break
		}
		fmt.Fprintf(w, "  %s: frame %d: rejected: %s\n", path, rj.Frame, rj.Reason)
	}
	if ok {
		fmt.Fprintf(w, "RTL and golden model equal on every output port for %d cycles\n", r.Cycles)
	}
}

// noneFed is the error of a capture of which no frame could be fed: the count and the first reasons.
func noneFed(name string, rejected []Rejected) error {
	if len(rejected) == 0 {
		return fmt.Errorf("replay: %s: no frames", name)
	}
	var first []string
	for _, rj := range rejected[:min(3, len(rejected))] {
		first = append(first, fmt.Sprintf("frame %d: %s", rj.Frame, rj.Reason))
	}
	more := ""
	if len(rejected) > 3 {
		more = fmt.Sprintf("; %d more", len(rejected)-3)
	}
	return fmt.Errorf("replay: %s: no frame to feed, all %d rejected: %s%s", name, len(rejected),
		strings.Join(first, "; "), more)
}
