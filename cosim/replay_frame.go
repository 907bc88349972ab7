package cosim

import (
	"fmt"
	"io"

	"github.com/spraynic/spraynic/config"
	"github.com/spraynic/spraynic/cosim/bridge"
	"github.com/spraynic/spraynic/english"
	"github.com/spraynic/spraynic/system/roce"
)

// FrameReplayResult is what rtl/roce_rx.v did with the frames of a capture (spraynic replay --level frame).
type FrameReplayResult struct {
	// Frames in the capture; Fed the frames driven into the parser; NotFed the others (not an Ethernet link
	// type, cut by the snap length, empty), with the reason.
	Frames, Fed int
	NotFed      []Rejected
	// Width is DATA_WIDTH (data_width), MTU the parser's and the limits' MTU (mtu).
	Width, MTU int
	// Verdicts are the parser's counters at the end, in the order of RXVerdicts.
	Verdicts [len(RXVerdicts)]uint32
	// Beats moved on s_axis in Cycles simulated (the reset included).
	Beats, Cycles int64
	// Mismatches are the differences from roce.Parse, in the order found; at most maxMismatches are kept and
	// MismatchCount counts them all.
	Mismatches    []FrameMismatch
	MismatchCount int
}

// FrameMismatch is one difference between roce_rx and roce.Parse for one frame.
type FrameMismatch struct {
	// Frame is the frame's number in the capture (1-based); 0 when the output belongs to no frame.
	Frame int
	// Field names what differs ("verdict", "data descriptor psn", "payload byte 17", ...); RTL and Parse are
	// the two values.
	Field, RTL, Parse string
}

// String is "frame N: FIELD: RTL X, roce.Parse Y".
func (m FrameMismatch) String() string {
	at := "no frame"
	if m.Frame > 0 {
		at = fmt.Sprintf("frame %d", m.Frame)
	}
	return fmt.Sprintf("%s: %s: RTL %s, roce.Parse %s", at, m.Field, m.RTL, m.Parse)
}

// maxMismatches is the number of mismatches a result keeps.
const maxMismatches = 100

// FrameReplay drives every frame of a capture, as AXI-Stream beats of cfg.DataWidth bits (tkeep on the last beat,
// tuser 0, back to back, outputs always ready), into the roce_rx top under Verilator, with the configuration's
// parameters (MTU cfg.MTU), and checks frame by frame that the parser's verdict, descriptor fields, SACK words and
// payload bytes equal roce.LimitsFor(cfg, cfg.MTU).Parse of the same bytes. A mismatch is in the result, not an
// error; an error is a replay that could not run. root is the repository (log nil-safe).
func FrameReplay(root string, cfg config.Config, capt *roce.Capture, log io.Writer) (*FrameReplayResult, error) {
	return frameReplay(root, cfg, roce.LimitsFor(cfg, cfg.MTU), capt, log)
}

// frameReplay is FrameReplay with the limits of roce.Parse given apart (they differ from the RTL's only in a
// test that the check bites).
func frameReplay(root string, cfg config.Config, lim roce.Limits, capt *roce.Capture, log io.Writer) (
	*FrameReplayResult, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	res := &FrameReplayResult{Frames: len(capt.Frames), Width: cfg.DataWidth, MTU: cfg.MTU}
	feed := frameFeed(lim, capt.Frames, res)
	if len(feed) == 0 {
		return res, noneFed(capt.Name, res.NotFed)
	}
	lib, err := BuildTop(root, "roce_rx", cfg, bridge.Plain, log)
	if err != nil {
		return nil, err
	}
	m, err := bridge.Open(lib)
	if err != nil {
		return nil, err
	}
	defer m.Close()
	ports, err := newRoceRXPorts(m.Ports(), cfg.DataWidth)
	if err != nil {
		return nil, err
	}
	run := newFrameRun(m, ports, cfg, lim, feed, res)
	return res, run.run()
}

// rxFrame is one frame driven into the parser and what Limits.Parse says of it.
type rxFrame struct {
	// num is the frame's number in the capture; data its bytes.
	num  int
	data []byte
	// pkt and err are Limits.Parse's result, verdict its index in RXVerdicts.
	pkt     roce.Packet
	err     error
	verdict int
}

// frameFeed returns the frames to drive, each with its Go verdict, and lists the others in res.NotFed.
func frameFeed(lim roce.Limits, frames []roce.CapturedFrame, res *FrameReplayResult) []rxFrame {
	var feed []rxFrame
	for i := range frames {
		f := &frames[i]
		err := f.Check()
		if err == nil && len(f.Data) == 0 {
			err = fmt.Errorf("empty frame (no beat to drive)")
		}
		if err != nil {
			res.NotFed = append(res.NotFed, Rejected{Frame: i + 1, Reason: err.Error()})
			continue
		}
		p, err := lim.Parse(f.Data)
		feed = append(feed, rxFrame{num: i + 1, data: f.Data, pkt: p, err: err, verdict: RXVerdict(p, err)})
	}
	res.Fed = len(feed)
	return feed
}

// Print writes the frame replay's summary to w: frames fed and not fed (at most show listed), the parser's
// verdicts, beats and cycles, at most show mismatches, and the verdict of the check.
func (r *FrameReplayResult) Print(w io.Writer, path, cfgName string, show int) {
	fmt.Fprintf(w, "%s: %s: %d fed to roce_rx as AXI-Stream beats (config %s, DATA_WIDTH %d, MTU %d), %d not fed\n",
		path, english.Plural(r.Frames, "frame"), r.Fed, cfgName, r.Width, r.MTU, len(r.NotFed))
	printSome(w, len(r.NotFed), show, "not fed", func(i int) string {
		return fmt.Sprintf("%s: frame %d: not fed: %s", path, r.NotFed[i].Frame, r.NotFed[i].Reason)
	})
	if r.Fed == 0 {
		return
	}
	v := r.Verdicts
	fmt.Fprintf(w, "accepted: data %d, ack %d; rejected: ", v[0], v[1])
	for i := 2; i < len(v); i++ {
		sep := ", "
		if i == len(v)-1 {
			sep = ""
		}
		fmt.Fprintf(w, "%s %d%s", RXVerdicts[i], v[i], sep)
	}
	fmt.Fprintf(w, "\n%d beats in %d cycles; mismatches %d\n", r.Beats, r.Cycles, r.MismatchCount)
	printSome(w, r.MismatchCount, min(show, len(r.Mismatches)), "mismatches", func(i int) string {
		return fmt.Sprintf("%s: %v", path, r.Mismatches[i])
	})
	if r.MismatchCount == 0 {
		fmt.Fprintf(w, "roce_rx equals roce.Parse on every frame: verdict, descriptor fields, SACK words, payload bytes\n")
	}
}

// printSome writes the lines line(0..) of n items, at most show of them, indented, then how many more (what).
func printSome(w io.Writer, n, show int, what string, line func(i int) string) {
	for i := 0; i < n; i++ {
		if i == show {
			fmt.Fprintf(w, "  ... %d more %s\n", n-i, what)
			return
		}
		fmt.Fprintf(w, "  %s\n", line(i))
	}
}

// Err is nil without mismatches, else an error naming the count and the first one.
func (r *FrameReplayResult) Err(path string) error {
	if r.MismatchCount == 0 {
		return nil
	}
	noun := "mismatches"
	if r.MismatchCount == 1 {
		noun = "mismatch"
	}
	return fmt.Errorf("replay: %s: %d %s between roce_rx and roce.Parse; the first: %v", path, r.MismatchCount,
		noun, r.Mismatches[0])
}
