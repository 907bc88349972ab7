package pathtraffic

import (
	"github.com/spraynic/spraynic/config"
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

var profiles = registry.New("path_sel test", func(p Profile) string { return p.Name })

// Lookup returns the named profile.
func Lookup(name string) (Profile, error) { return profiles.Lookup(name) }

// Names lists the profiles, sorted.
func Names() []string { return profiles.Names() }

func init() {
	base := Profile{Cycles: 20000, Load: 1, SelReady: 1, RTT: 40, Jitter: 20, RTO: 400, Links: 2, PAgg: 0.2}
	with := func(f func(*Profile)) { p := base; f(&p); profiles.Register(p) }
	with(func(p *Profile) {
		p.Name, p.Doc = "spray", "one connection on healthy links, a request every cycle: one decision per cycle, windows grow to cwnd_max, weighted round-robin fairness"
		p.Healthy, p.RTT, p.Jitter, p.PAgg, p.Conns, p.Cycles = true, 8, 0, 0, 1, 40000
	})
	with(func(p *Profile) {
		p.Name, p.Doc = "spray_long", "spray for 540,000 cycles: more than 65,536 decisions on every path of connection 0 (up to 8 paths), so each per-path decision counter wraps"
		p.Healthy, p.RTT, p.Jitter, p.PAgg, p.Conns, p.Cycles = true, 8, 0, 0, 1, 540000
	})
	with(func(p *Profile) {
		p.Name, p.Doc = "saturate", "a request every cycle with long round trips: windows fill, requests wait, feedback frees room"
		p.RTT, p.Jitter, p.Conns = 200, 100, 2
	})
	with(func(p *Profile) {
		p.Name, p.Doc = "congested", "one link marks ECN heavily: its paths' windows shrink (AIMD), traffic moves to the others"
		p.Events = []LinkEvent{{At: 0, Link: 0, ECN: 0.6}}
	})
	with(func(p *Profile) {
		p.Name, p.Doc = "die_heal", "a link dies: its paths fail, get new entropies, are probed after the hold-off; it heals"
		p.Events = []LinkEvent{{At: 3000, Link: 1, Dead: true}, {At: 12000, Link: 1}}
		p.PRetx = 0.05
	})
	with(func(p *Profile) {
		p.Name, p.Doc = "all_dead", "every link dead for a while: all paths fail, status reports it, probing never stops, recovery"
		p.Events = []LinkEvent{{At: 3000, Link: -1, Dead: true}, {At: 11000, Link: -1}}
		p.Cycles = 24000
	})
	with(func(p *Profile) {
		p.Name, p.Doc = "holdoff_idle", "every link dead for a while, every path of two connections fails; then no request for 520 ticks (the RTL's hold-off time stamps wrap after 32 or 64 ticks on the presets, 512 at most) while the links heal; the first requests after the pause probe the FAILED paths at once, and they recover"
		p.Events = []LinkEvent{{At: 2000, Link: -1, Dead: true}, {At: 6000, Link: -1}}
		p.Conns, p.PauseAt, p.PauseTicks, p.Cycles = 2, 4000, 520, 12000
	})
	with(func(p *Profile) {
		p.Name, p.Doc = "flap", "links flap between dead and lossy; retransmissions avoid the losing path"
		p.PRetx = 0.2
		for t := int64(1000); t < 20000; t += 1500 {
			p.Events = append(p.Events, LinkEvent{At: t, Link: int(t/1500) % 4, Dead: true}, LinkEvent{At: t + 700, Link: int(t/1500) % 4, Loss: 0.05})
		}
	})
	with(func(p *Profile) {
		p.Name, p.Doc = "ecn_storm", "every link marks every packet for a while: windows fall to one packet, quanta to one; then recovery"
		p.Events = []LinkEvent{{At: 2000, Link: -1, ECN: 1}, {At: 12000, Link: -1}}
		p.PZero, p.Conns = 0.01, 2
	})
	with(func(p *Profile) {
		p.Name, p.Doc = "every_conn", "each connection in turn at full load over long round trips: its windows grow to cwnd_max and fill, light ECN and coalesced losses; every connection's per-path state is exercised"
		p.Rotate, p.RTT, p.Jitter, p.Cycles, p.PAgg, p.PBigLoss = true, 700, 100, 192000, 0, 0.3
		p.Events = []LinkEvent{{At: 0, Link: -1, ECN: 0.002, Loss: 0.0005}}
	})
	with(func(p *Profile) {
		p.Name, p.Doc = "window_fill", "every window of every (connection, path) grown to cwnd_max by delivered reports of 255 packets, then filled by one connection's requests at a time (in-flight counts reach cwnd_max; one more request waits for the starvation guard), then emptied by one report each"
		p.Fill, p.Cycles = true, 0
	})
	with(func(p *Profile) {
		p.Name, p.Doc = "fb_flood", "a feedback report of 255 packets every cycle, every (connection, path) in turn: per-path loss counters wrap, paths fail and recover in bulk, windows jump, under requests at half load"
		p.Flood, p.Load, p.Cycles = true, 0.5, 80000
	})
	with(func(p *Profile) {
		p.Name, p.Doc = "churn", "connections reopened every ~150 cycles under 30% loss and ECN on one link: paths are reopened while SUSPECT (consecutive losses counted), inside an ECN guard, with a grown window or a new entropy, and the next feedback must see the open state"
		p.ChurnEvery, p.PRetx, p.Conns = 150, 0.05, 4
		p.Events = []LinkEvent{{At: 0, Link: -1, Loss: 0.3}, {At: 0, Link: 0, ECN: 0.3, Loss: 0.3}}
	})
	with(func(p *Profile) {
		p.Name, p.Doc = "random", "everything: ECN, loss, dead links, retransmissions, back-pressure, reopen, reset"
		p.PRetx, p.SelReady, p.ChurnEvery, p.ResetEvery, p.Load = 0.1, 0.7, 3000, 9000, 0.8
		p.PZero, p.PBigLoss = 0.005, 0.05
		p.Events = []LinkEvent{{At: 0, Link: -1, Loss: 0.01}, {At: 0, Link: 2, ECN: 0.3, Loss: 0.01}, {At: 4000, Link: 3, Dead: true},
			{At: 9000, Link: 3, Loss: 0.01}, {At: 13000, Link: 0, Dead: true}, {At: 17000, Link: 0, Loss: 0.02}}
		p.Cycles = 30000
	})
}
