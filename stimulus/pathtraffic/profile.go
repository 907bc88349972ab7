package pathtraffic

import (
	"github.com/spraynic/spraynic/config"
	"github.com/spraynic/spraynic/stimulus/derive"
	"github.com/spraynic/spraynic/stimulus/registry"
)

// LinkEvent changes one link's condition from a cycle on.
type LinkEvent struct {
	// At is the cycle; Link the link index (-1: every link).
	At   int64
	Link int
	// Dead drops everything; ECN is the CE-mark probability; Loss the random loss probability.
	Dead      bool
	ECN, Loss float64
}

// Profile shapes one test.
type Profile struct {
	// Name and Doc identify it; Cycles is the default traffic length (a drain follows).
	Name, Doc string
	Cycles    int64
	// Conns is the number of connections requesting (0: all).
	Conns int
	// Rotate makes the requests come from one connection at a time, each for an equal share of Cycles, in order
	// (false: every request from a random connection).
	Rotate bool
	// Load is the probability of a request per cycle; PRetx the share that are retransmissions.
	Load, PRetx float64
	// SelReady is the probability that m_sel_ready is high.
	SelReady float64
	// RTT is the base round trip in cycles; Jitter its random spread; RTO the timeout of a vanished packet.
	RTT, Jitter, RTO int
	// Links is the number of network links, as a multiple of the paths.
	Links int
	// Events change link conditions over time (applied in order).
	Events []LinkEvent
	// PAgg is the probability that feedback of one (conn, path, kind) due together goes out as one count.
	PAgg float64
	// ChurnEvery is the mean number of cycles between reopening a random connection (0: never).
	ChurnEvery int
	// ResetEvery is the mean number of cycles between resets (0: never).
	ResetEvery int
	// Healthy asks the scoreboard to check round-robin fairness (no failure, congestion or full window expected).
	Healthy bool
	// PZero is the probability per cycle of an extra feedback message with count 0 (a no-op by the spec).
	PZero float64
	// PBigLoss is the probability that a loss report is coalesced into one message of 16..255 packets.
	PBigLoss float64
	// Flood replaces the packets' feedback (held back until the drain) with one report of 255 packets every cycle
	// for each (connection, path) in turn: loss, timeout, delivered or ECN. The spec defines every count on every
	// path, in flight or not (in-flight counts floor at 0).
	Flood bool
	// PauseAt and PauseTicks stop new requests for PauseTicks ticks (x tick_cycles of the configuration) from
	// cycle PauseAt on; the pause adds to the traffic length (TrafficCycles). 0 ticks: no pause.
	PauseAt    int64
	PauseTicks int64
	// Fill replaces Cycles and the packets' feedback with three phases sized by the configuration (FillPhases):
	// delivered reports of 255 packets for every (connection, path) in turn until every window is at cwnd_max, no
	// requests; requests of one connection at a time, PATHS x cwnd_max + 1 each: they fill all its windows (no
	// feedback comes back) and the last one waits for the starvation guard; a delivered report of 255 packets
	// for every (connection, path), which empties them.
	Fill bool
}

// TrafficCycles is the traffic length on cfg, before the drain (DrainCycles).
func (p Profile) TrafficCycles(cfg config.Config) int64 {
	if p.Fill {
		grow, perConn, empty := FillPhases(cfg)
		// One handshake per cycle; per connection a few cycles for the request pipeline and two ticks for the
		// guard.
		return startReset + grow + (perConn+4+2*int64(cfg.TickCycles))*int64(cfg.Conns) + empty
	}
	return p.Cycles + p.PauseCycles(cfg)
}

// PauseCycles is the length of the request pause on cfg.
func (p Profile) PauseCycles(cfg config.Config) int64 {
	return p.PauseTicks * int64(cfg.TickCycles)
}

// FillPhases sizes a Fill profile's phases on cfg: grow is the number of reports (one per cycle) that take every
// window from cwnd_init to cwnd_max, perConn the requests of each connection (PATHS x cwnd_max fill its windows,
// one more finds them full), empty the reports that empty every window (one per (connection, path)).
func FillPhases(cfg config.Config) (grow, perConn, empty int64) {
	pairs := int64(cfg.Conns) * int64(cfg.Paths)
	per := (int64(cfg.CwndMax-cfg.CwndInit)*16 + 255*int64(cfg.AI16ths) - 1) / (255 * int64(cfg.AI16ths))
	return pairs * max(per, 1), int64(cfg.Paths)*int64(cfg.CwndMax) + 1, pairs
}

var profiles = registry.New("path_sel test", func(p Profile) string { return p.Name }, profileTable...)

// Lookup returns the named profile.
func Lookup(name string) (Profile, error) { return profiles.Lookup(name) }

// Names lists the profiles, sorted.
func Names() []string { return profiles.Names() }

// The profiles derive from three bases, each adding to the one before: steady is a request every cycle over a
// 40-cycle round trip on two links per path; noisy adds jitter and aggregated feedback; baseProfile a length.
var (
	steady      = Profile{Load: 1, SelReady: 1, RTT: 40, RTO: 400, Links: 2}
	noisy       = derive.From(steady, Profile{Jitter: 20, PAgg: 0.2})
	baseProfile = derive.From(noisy, Profile{Cycles: 20000})
)

// profileTable is every profile: a base and the fields that differ.
var profileTable = []Profile{
	derive.From(steady, Profile{Name: "spray",
		Doc: "one connection on healthy links, a request every cycle: one decision per cycle, windows grow to " +
			"cwnd_max, weighted round-robin fairness",
		Healthy: true, RTT: 8, Conns: 1, Cycles: 40000}),
	derive.From(steady, Profile{Name: "spray_long",
		Doc: "spray for 540,000 cycles: more than 65,536 decisions on every path of connection 0 (up to 8 " +
			"paths), so each per-path decision counter wraps",
		Healthy: true, RTT: 8, Conns: 1, Cycles: 540000}),
	derive.From(baseProfile, Profile{Name: "saturate",
		Doc: "a request every cycle with long round trips: windows fill, requests wait, feedback frees room",
		RTT: 200, Jitter: 100, Conns: 2}),
	derive.From(baseProfile, Profile{Name: "congested",
		Doc:    "one link marks ECN heavily: its paths' windows shrink (AIMD), traffic moves to the others",
		Events: []LinkEvent{{At: 0, Link: 0, ECN: 0.6}}}),
	derive.From(baseProfile, Profile{Name: "die_heal",
		Doc:    "a link dies: its paths fail, get new entropies, are probed after the hold-off; it heals",
		Events: []LinkEvent{{At: 3000, Link: 1, Dead: true}, {At: 12000, Link: 1}},
		PRetx:  0.05}),
	derive.From(baseProfile, Profile{Name: "all_dead",
		Doc:    "every link dead for a while: all paths fail, status reports it, probing never stops, recovery",
		Events: []LinkEvent{{At: 3000, Link: -1, Dead: true}, {At: 11000, Link: -1}},
		Cycles: 24000}),
	derive.From(baseProfile, Profile{Name: "holdoff_idle",
		Doc: "every link dead for a while, every path of two connections fails; then no request for 520 ticks " +
			"(the RTL's hold-off time stamps wrap after 32 or 64 ticks on the presets, 512 at most) while the " +
			"links heal; the first requests after the pause probe the FAILED paths at once, and they recover",
		Events: []LinkEvent{{At: 2000, Link: -1, Dead: true}, {At: 6000, Link: -1}},
		Conns:  2, PauseAt: 4000, PauseTicks: 520, Cycles: 12000}),
	derive.From(baseProfile, Profile{Name: "flap",
		Doc:    "links flap between dead and lossy; retransmissions avoid the losing path",
		PRetx:  0.2,
		Events: flapEvents()}),
	derive.From(baseProfile, Profile{Name: "ecn_storm",
		Doc: "every link marks every packet for a while: windows fall to one packet, quanta to one; then " +
			"recovery",
		Events: []LinkEvent{{At: 2000, Link: -1, ECN: 1}, {At: 12000, Link: -1}},
		PZero:  0.01, Conns: 2}),
	derive.From(steady, Profile{Name: "every_conn",
		Doc: "each connection in turn at full load over long round trips: its windows grow to cwnd_max and " +
			"fill, light ECN and coalesced losses; every connection's per-path state is exercised",
		Rotate: true, RTT: 700, Jitter: 100, Cycles: 192000, PBigLoss: 0.3,
		Events: []LinkEvent{{At: 0, Link: -1, ECN: 0.002, Loss: 0.0005}}}),
	derive.From(noisy, Profile{Name: "window_fill",
		Doc: "every window of every (connection, path) grown to cwnd_max by delivered reports of 255 packets, " +
			"then filled by one connection's requests at a time (in-flight counts reach cwnd_max; one more " +
			"request waits for the starvation guard), then emptied by one report each",
		Fill: true}),
	derive.From(baseProfile, Profile{Name: "fb_flood",
		Doc: "a feedback report of 255 packets every cycle, every (connection, path) in turn: per-path loss " +
			"counters wrap, paths fail and recover in bulk, windows jump, under requests at half load",
		Flood: true, Load: 0.5, Cycles: 80000}),
	derive.From(baseProfile, Profile{Name: "churn",
		Doc: "connections reopened every ~150 cycles under 30% loss and ECN on one link: paths are reopened " +
			"while SUSPECT (consecutive losses counted), inside an ECN guard, with a grown window or a new " +
			"entropy, and the next feedback must see the open state",
		ChurnEvery: 150, PRetx: 0.05, Conns: 4,
		Events: []LinkEvent{{At: 0, Link: -1, Loss: 0.3}, {At: 0, Link: 0, ECN: 0.3, Loss: 0.3}}}),
	derive.From(baseProfile, Profile{Name: "random",
		Doc:   "everything: ECN, loss, dead links, retransmissions, back-pressure, reopen, reset",
		PRetx: 0.1, SelReady: 0.7, ChurnEvery: 3000, ResetEvery: 9000, Load: 0.8,
		PZero: 0.005, PBigLoss: 0.05,
		Events: []LinkEvent{{At: 0, Link: -1, Loss: 0.01}, {At: 0, Link: 2, ECN: 0.3, Loss: 0.01},
			{At: 4000, Link: 3, Dead: true}, {At: 9000, Link: 3, Loss: 0.01}, {At: 13000, Link: 0, Dead: true},
			{At: 17000, Link: 0, Loss: 0.02}},
		Cycles: 30000}),
}

// flapEvents are the flap profile's events: every 1500 cycles from 1000 on, one of four links dies, and 700
// cycles later it comes back lossy.
func flapEvents() []LinkEvent {
	var e []LinkEvent
	for t := int64(1000); t < 20000; t += 1500 {
		l := int(t/1500) % 4
		e = append(e, LinkEvent{At: t, Link: l, Dead: true}, LinkEvent{At: t + 700, Link: l, Loss: 0.05})
	}
	return e
}
