package system

import (
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/spraynic/spraynic/config"
	"github.com/spraynic/spraynic/golden/nictransport"
)

// Mode is the transport mode of a run.
type Mode string

const (
	// ModeSpray is the product: selective retransmission, packets sprayed over the paths by path_sel.
	ModeSpray Mode = "spray"
	// ModeGBN is the RoCEv2 baseline: go-back-N, one path (ECMP entropy) per connection.
	ModeGBN Mode = "gbn"
)

// Failure takes one fabric path down at AtUS (both directions) until UntilUS (0: for the rest of the run).
type Failure struct {
	// Path is the fabric path index; AtUS and UntilUS the interval in microseconds of simulated time.
	Path          int
	AtUS, UntilUS float64
}

// Reset resets one endpoint in the middle of traffic (docs/e2e.md, "Resets and reconnects").
type Reset struct {
	// Side is 0 (endpoint A) or 1 (B); AtUS the time of the reset in microseconds of simulated time.
	Side int
	AtUS float64
}

// Reconnect is a reconnect the connection manager starts on its own, as an application that closes a connection
// and opens it again would (docs/e2e.md, "Resets and reconnects").
type Reconnect struct {
	// Conn is the connection; AtUS the time of the close in microseconds of simulated time.
	Conn int
	AtUS float64
}

// SlowPath gives one fabric path (both directions) its own bottleneck rate: a path slower than its share of the
// traffic builds a queue, so the fabric ECN-marks (and, with a full queue, drops) its packets.
type SlowPath struct {
	// Path is the fabric path index; Gbps its link rate.
	Path, Gbps int
}

// Options describe one run. Defaults fills every zero field with the documented default.
type Options struct {
	// Config holds the block parameters (a preset); Paths of it is the number of paths a connection sprays over.
	Config config.Config
	// Mode is spray or gbn.
	Mode Mode
	// NetPaths is the number of fabric paths (1..64); 0 means Config.Paths.
	NetPaths int
	// Conns is the number of active connections (1..Config.Conns).
	Conns int
	// Msg is the message size distribution: "fixed:N", "uniform:MIN:MAX" or "exp:MEAN" (bytes).
	Msg string
	// Backlog is the number of messages each connection keeps posted (1..1024).
	Backlog int
	// MTU is the payload bytes per packet (64..9000).
	MTU int
	// ClockMHz is the NIC clock; PortGbps the endpoints' port rate; PathGbps each fabric path's rate.
	ClockMHz, PortGbps, PathGbps int
	// DelayNS is the one-way propagation delay of path 0; path i adds i*SkewNS; JitterNS is uniform extra delay.
	DelayNS, SkewNS, JitterNS float64
	// Loss is the per-packet random loss on every forward path; LossModel "bernoulli" or "gilbert"; Burst the
	// mean loss burst length of the Gilbert-Elliott model (packets, >= 1).
	Loss      float64
	LossModel string
	Burst     float64
	// AckLoss is the per-packet random loss of the reverse direction (ACKs).
	AckLoss float64
	// Bidir makes B send messages to A too (same traffic options); both directions then use Loss.
	Bidir bool
	// QueueKB and ECNKB are each path's queue capacity and ECN marking threshold (KiB).
	QueueKB, ECNKB int
	// Failures are scheduled path failures; Slow are paths with their own (lower) rate.
	Failures []Failure
	Slow     []SlowPath
	// Resets reset an endpoint in the middle of traffic; QuietUS is the time the connection manager waits after
	// a connection error or a reset before it reopens the connection at both ends (0: computed, docs/e2e.md).
	Resets  []Reset
	QuietUS float64
	// Reconnects are reconnects the connection manager starts on its own: it closes the connection at both
	// endpoints at AtUS and reopens it after the quiet time.
	Reconnects []Reconnect
	// AllFailedReconnectUS makes the connection manager reconnect a connection (close, then reopen after the quiet
	// time) once an endpoint's m_status has shown it all-failed (every path failed or probing) for this long
	// (0: never).
	AllFailedReconnectUS float64
	// HostLagUS is the time the sending hosts take to learn of a disconnect (a connection error, their NIC's reset, a
	// reconnect): until then they keep posting and handing packets of the connection, which the NIC drops while the
	// connection is closed or in error (0: at once). It must be below the quiet time.
	HostLagUS float64
	// CplStall is the probability that a receiving host holds m_cpl_ready low in a cycle (completion
	// back-pressure; random from the seed; 0: always ready).
	CplStall float64
	// DurationUS is the measured part of the run; DrainUS bounds the drain after it (no new messages).
	DurationUS, DrainUS float64
	// BinUS is the width of the goodput time series bins.
	BinUS float64
	// StartPSN is the initial PSN of connection 0 (the others start at offsets from it drawn from the seed); the
	// default crosses 2^24 early.
	StartPSN uint32
	// Seed makes the run reproducible: every random choice comes from it.
	Seed uint64
	// Capture, when set, receives a pcap of every packet the two ports sent (both directions).
	Capture io.Writer
	// Arrivals, when set, receives a pcap of the data packets as they reached endpoint B (the network input a
	// replay feeds to one endpoint).
	Arrivals io.Writer
	// Progress, when set, is called every ProgressCycles cycles with the run so far.
	Progress func(Progress)
	// Taps, when set, see the block inputs of endpoint A (index 0) and B (index 1) every cycle
	// (golden/nictransport.SetTap): block-level lockstep tests replay them on the RTL.
	Taps [2]nictransport.Tap
	// Inputs, when set, see the inputs of endpoint A (index 0) and B (index 1) every cycle, before the step:
	// what a lockstep of the nic_transport RTL top replays.
	Inputs [2]func(*nictransport.In)
	// fault, when set (tests only), may change a packet as it arrives, before placement: it stands in for a
	// transport bug, to prove the checks catch it.
	fault func(p *pkt)
}

// MaxCplStall bounds Options.CplStall: a host must take completions now and then.
const MaxCplStall = 0.9

// ProgressCycles is the interval of Progress calls.
const ProgressCycles = 1 << 16

// Progress is a snapshot of a running simulation.
type Progress struct {
	// Cycle is the current cycle, Cycles the planned measured cycles; Packets data packets sent; Goodput so far.
	Cycle, Cycles, Packets int64
	Goodput                float64
}

// Defaults returns o with every zero field set to its default (docs/e2e.md).
func (o Options) Defaults() Options {
	// Traffic.
	orDefault(&o.Mode, ModeSpray)
	orDefault(&o.NetPaths, o.Config.Paths)
	orDefault(&o.Conns, min(8, o.Config.Conns))
	orDefault(&o.Msg, "fixed:65536")
	orDefault(&o.Backlog, 4)
	orDefault(&o.MTU, 4096)
	// Clock and network (the path rate defaults to the port rate, after its default).
	orDefault(&o.ClockMHz, 250)
	orDefault(&o.PortGbps, 400)
	orDefault(&o.PathGbps, o.PortGbps)
	orDefault(&o.DelayNS, 1000)
	orDefault(&o.SkewNS, 100)
	orDefault(&o.JitterNS, 200)
	orDefault(&o.LossModel, "bernoulli")
	orDefault(&o.Burst, 4)
	orDefault(&o.QueueKB, 1024)
	orDefault(&o.ECNKB, 128)
	// Time and PSNs.
	orDefault(&o.DurationUS, 500)
	orDefault(&o.DrainUS, 5000)
	orDefault(&o.BinUS, 10)
	orDefault(&o.StartPSN, 1<<24-100)
	return o
}

// orDefault sets *v to def when *v is the zero value of its type.
func orDefault[T comparable](v *T, def T) {
	var zero T
	if *v == zero {
		*v = def
	}
}

// msgDist is a parsed message size distribution.
type msgDist struct {
	// kind is fixed, uniform or exp; a and b its parameters.
	kind string
	a, b int
}

// maxMsg bounds message sizes (bytes).
const maxMsg = 1 << 30

// parseMsg parses "fixed:N", "uniform:MIN:MAX" or "exp:MEAN".
func parseMsg(s string) (msgDist, error) {
	parts := strings.Split(s, ":")
	bad := func(why string) (msgDist, error) {
		return msgDist{}, fmt.Errorf("option msg: value %q %s (allowed fixed:N, uniform:MIN:MAX, "+
			"exp:MEAN with sizes 1..%d bytes)", s, why, maxMsg)
	}
	nums := make([]int, 0, 2)
	for _, p := range parts[1:] {
		n, err := strconv.Atoi(p)
		if err != nil {
			return bad("has a size that is not an integer")
		}
		if n < 1 || n > maxMsg {
			return bad("has a size out of range")
		}
		nums = append(nums, n)
	}
	switch {
	case parts[0] == "fixed" && len(nums) == 1:
		return msgDist{kind: "fixed", a: nums[0]}, nil
	case parts[0] == "exp" && len(nums) == 1:
		return msgDist{kind: "exp", a: nums[0]}, nil
	case parts[0] == "uniform" && len(nums) == 2:
		if nums[0] > nums[1] {
			return bad("has MIN above MAX")
		}
		return msgDist{kind: "uniform", a: nums[0], b: nums[1]}, nil
	}
	return bad("is not a known distribution")
}

// Validate checks every option and names the first bad one with its value and the allowed range.
func (o Options) Validate() error {
	if err := o.Config.Validate(); err != nil {
		return err
	}
	// The checks in the order their errors take precedence.
	for _, check := range []func() error{
		o.validateNames,
		o.validateRanges,
		o.validateSchedule,
		o.validateHost,
	} {
		if err := check(); err != nil {
			return err
		}
	}
	return nil
}

// intIn checks that integer option name has a value v in lo..hi.
func intIn(name string, v, lo, hi int) error {
	if v < lo || v > hi {
		return fmt.Errorf("option %s: value %d out of range (allowed %d..%d)", name, v, lo, hi)
	}
	return nil
}

// floatIn checks that option name has a value v in lo..hi (not NaN).
func floatIn(name string, v, lo, hi float64) error {
	if math.IsNaN(v) || v < lo || v > hi {
		return fmt.Errorf("option %s: value %g out of range (allowed %g..%g)", name, v, lo, hi)
	}
	return nil
}

// validateNames checks the options given by name: the mode, the loss model and the message size distribution.
func (o Options) validateNames() error {
	if o.Mode != ModeSpray && o.Mode != ModeGBN {
		return fmt.Errorf("option mode: value %q unknown (allowed spray, gbn)", o.Mode)
	}
	if o.LossModel != "bernoulli" && o.LossModel != "gilbert" {
		return fmt.Errorf("option loss-model: value %q unknown (allowed bernoulli, gilbert)", o.LossModel)
	}
	_, err := parseMsg(o.Msg)
	return err
}

// validateRanges checks every numeric option against its range (the first bad one in the table's order), and
// that ACK loss is not asked for in a bidirectional run.
func (o Options) validateRanges() error {
	for _, err := range []error{
		intIn("net-paths", o.NetPaths, 1, 64),
		intIn("conns", o.Conns, 1, o.Config.Conns),
		intIn("backlog", o.Backlog, 1, 1024),
		intIn("mtu", o.MTU, 64, 9000),
		intIn("clock-mhz", o.ClockMHz, 1, 2000),
		intIn("port-gbps", o.PortGbps, 1, 1600),
		intIn("path-gbps", o.PathGbps, 1, 1600),
		floatIn("delay-ns", o.DelayNS, 0, 1e7),
		floatIn("skew-ns", o.SkewNS, 0, 1e6),
		floatIn("jitter-ns", o.JitterNS, 0, 1e6),
		floatIn("loss", o.Loss, 0, 0.5),
		floatIn("burst", o.Burst, 1, 1000),
		floatIn("ack-loss", o.AckLoss, 0, 0.5),
		intIn("queue-kb", o.QueueKB, 16, 1<<20),
		intIn("ecn-kb", o.ECNKB, 0, o.QueueKB),
		floatIn("duration-us", o.DurationUS, 1, 1e6),
		floatIn("drain-us", o.DrainUS, 1, 1e7),
		floatIn("bin-us", o.BinUS, 0.1, 1e6),
		intIn("start-psn", int(o.StartPSN), 0, 1<<24-1),
		floatIn("quiet-us", o.QuietUS, 0, 1e6),
		floatIn("cpl-stall", o.CplStall, 0, MaxCplStall),
		floatIn("all-failed-reconnect-us", o.AllFailedReconnectUS, 0, 1e6),
	} {
		if err != nil {
			return err
		}
	}
	if o.Bidir && o.AckLoss != 0 {
		return fmt.Errorf("option ack-loss: value %g not allowed with bidir "+
			"(both directions carry data and ACKs; use loss)", o.AckLoss)
	}
	return nil
}

// validateSchedule checks the scheduled events: failures and slow paths name a fabric path (failures with a
// valid interval, slow paths a valid rate), resets a side and reconnects an active connection, both inside the
// measured time.
func (o Options) validateSchedule() error {
	for i, f := range o.Failures {
		if f.Path < 0 || f.Path >= o.NetPaths {
			return fmt.Errorf("option fail[%d]: path %d out of range (allowed 0..%d)", i, f.Path, o.NetPaths-1)
		}
		if f.AtUS < 0 || (f.UntilUS != 0 && f.UntilUS <= f.AtUS) {
			return fmt.Errorf("option fail[%d]: interval %g..%g us invalid "+
				"(allowed AT >= 0 and UNTIL > AT, or UNTIL 0 for never)", i, f.AtUS, f.UntilUS)
		}
	}
	for i, sp := range o.Slow {
		if sp.Path < 0 || sp.Path >= o.NetPaths {
			return fmt.Errorf("option slow[%d]: path %d out of range (allowed 0..%d)", i, sp.Path, o.NetPaths-1)
		}
		if sp.Gbps < 1 || sp.Gbps > 1600 {
			return fmt.Errorf("option slow[%d]: rate %d Gb/s out of range (allowed 1..1600)", i, sp.Gbps)
		}
	}
	for i, r := range o.Resets {
		if r.Side != 0 && r.Side != 1 {
			return fmt.Errorf("option reset[%d]: side %d unknown (allowed 0 for A, 1 for B)", i, r.Side)
		}
		if math.IsNaN(r.AtUS) || r.AtUS <= 0 || r.AtUS >= o.DurationUS {
			return fmt.Errorf("option reset[%d]: time %g us out of range (allowed 0 < AT < duration-us %g)",
				i, r.AtUS, o.DurationUS)
		}
	}
	for i, r := range o.Reconnects {
		if r.Conn < 0 || r.Conn >= o.Conns {
			return fmt.Errorf("option reconnect[%d]: connection %d out of range "+
				"(allowed 0..%d, the active connections)", i, r.Conn, o.Conns-1)
		}
		if math.IsNaN(r.AtUS) || r.AtUS <= 0 || r.AtUS >= o.DurationUS {
			return fmt.Errorf("option reconnect[%d]: time %g us out of range (allowed 0 < AT < duration-us %g)",
				i, r.AtUS, o.DurationUS)
		}
	}
	return nil
}

// validateHost checks what the host model needs: a host lag below the quiet time, handles that fit
// HANDLE_WIDTH (connection*4*WINDOW + PSN mod 4*WINDOW), and an MTU that fits one frame.
func (o Options) validateHost() error {
	if q := o.quietUS(); math.IsNaN(o.HostLagUS) || o.HostLagUS < 0 || o.HostLagUS >= q {
		return fmt.Errorf("option host-lag-us: value %g out of range (allowed 0 <= LAG < the quiet time %g us)",
			o.HostLagUS, q)
	}
	if need := config.Log2(o.Config.Conns * 4 * o.Config.Window); need > o.Config.HandleWidth {
		return fmt.Errorf("config %s: key %q: value %d below the %d bits the host model's handles need "+
			"(conns*4*window)", o.Config.Name, "handle_width", o.Config.HandleWidth, need)
	}
	if o.MTU > 1<<16-128 {
		return fmt.Errorf("option mtu: value %d too large for one frame", o.MTU)
	}
	return nil
}

// quietUS is the connection manager's wait before a reopen: QuietUS, or (0) twice the longest one-way trip (delay,
// skew, jitter and a full queue drained at the slowest path's rate), so that no packet sent before the trigger is
// still in the network in either direction. o has its defaults.
func (o Options) quietUS() float64 {
	if o.QuietUS != 0 {
		return o.QuietUS
	}
	slowest := o.PathGbps
	for _, sp := range o.Slow {
		slowest = min(slowest, sp.Gbps)
	}
	trip := (o.DelayNS+float64(o.NetPaths-1)*o.SkewNS+o.JitterNS)/1000 +
		float64(o.QueueKB)*1024*8/(float64(slowest)*1000)
	return 2 * trip
}
