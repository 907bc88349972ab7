package retxtraffic

import (
	"github.com/spraynic/spraynic/config"
	"github.com/spraynic/spraynic/stimulus/derive"
	"github.com/spraynic/spraynic/stimulus/registry"
)

// Blackout makes some paths drop every packet (and ACK) sent during [From, To): a long silence.
type Blackout struct {
	// From and To bound the cycles; Paths is a bit mask of the paths hit (0: every path).
	From, To int64
	Paths    uint64
}

// Profile shapes one test.
type Profile struct {
	// Name and Doc identify it; Cycles is the shortest traffic length (TrafficCycles: PerPair may make it
	// longer on a large preset; a drain follows, see DrainCycles).
	Name, Doc string
	Cycles    int64
	// Conns is the number of connections in use (0: all); Load the probability of new work per cycle; MsgMax the
	// longest message in packets.
	Conns  int
	Load   float64
	MsgMax int
	// PathValid, PktReady and FbReady are the per-cycle probabilities of s_path_valid, m_pkt_ready, m_fb_ready.
	PathValid, PktReady, FbReady float64
	// Paths is a bit mask of the paths the selector offers (0: every path of the configuration).
	Paths uint64
	// Delay is the base one-way delay in cycles; Skew adds p*Skew on path p (reordering across paths); DataJitter
	// is a random spread of data packets (order within a path is kept); Jitter the random spread of the ACK
	// return (ACKs of one connection may overtake each other: stale ACKs).
	Delay, Skew, DataJitter, Jitter int
	// Loss is the loss probability of a data packet on a lossy path; LossPaths the lossy paths (0: all).
	Loss      float64
	LossPaths uint64
	// ECN is the CE-mark probability of a data packet.
	ECN float64
	// AckLoss, AckDup and AckReplay are the probabilities that an ACK is lost, sent twice, or sent again much
	// later (a stale ACK).
	AckLoss, AckDup, AckReplay float64
	// Blackouts are silences.
	Blackouts []Blackout
	// Wrap opens connections just below 2^24 so that PSNs wrap during the run.
	Wrap bool
	// ChurnEvery and ResetEvery are the mean cycles between reopening a connection and between resets (0: never).
	ChurnEvery, ResetEvery int
	// ClosedSend is the probability that new work goes to a closed connection (it must be dropped).
	ClosedSend float64
	// GBN runs the engine in go-back-N mode against a go-back-N receiver.
	GBN bool
	// Errors lets connections go to error (max retries); the scoreboard then allows packets left outstanding on
	// those connections only.
	Errors bool
	// Spread sends new packets to the connections in turn and each connection's packets to its paths in rounds
	// (every path once per round, in a fresh random order), so every (connection, path) gets the same share.
	Spread bool
	// PerPair makes the traffic at least PerPair cycles per (connection, path) of the configuration long.
	PerPair int64
}

// TrafficCycles is the traffic length on cfg, before the drain (DrainCycles).
func (p Profile) TrafficCycles(cfg config.Config) int64 {
	return max(p.Cycles, p.PerPair*int64(cfg.Conns)*int64(cfg.Paths))
}

var profiles = registry.New("retx test", func(p Profile) string { return p.Name }, profileTable...)

// Lookup returns the named profile.
func Lookup(name string) (Profile, error) { return profiles.Lookup(name) }

// Names lists the profiles, sorted.
func Names() []string { return profiles.Names() }

// The profiles derive from three bases, each adding to the one before: steady is new work every cycle in messages
// of up to 8 packets, a path and both readies every cycle, a 60-cycle delay and a jittery ACK return; inOrder
// adds a length (its paths have equal delays: nothing reorders); baseProfile skews the paths and jitters the data.
var (
	steady      = Profile{Load: 1, MsgMax: 8, PathValid: 1, PktReady: 1, FbReady: 1, Delay: 60, Jitter: 30}
	inOrder     = derive.From(steady, Profile{Cycles: 30000})
	baseProfile = derive.From(inOrder, Profile{Skew: 12, DataJitter: 8})
)

// profileTable is every profile: a base and the fields that differ.
var profileTable = []Profile{
	derive.From(baseProfile, Profile{Name: "clean",
		Doc: "every connection, no loss, a path every cycle: one new packet per cycle, cumulative ACKs free the " +
			"window"}),
	derive.From(baseProfile, Profile{Name: "single_conn",
		Doc:   "one connection at full load: the window is the limit; ack_req on window fill keeps it moving",
		Conns: 1, Delay: 30, Skew: 6}),
	derive.From(baseProfile, Profile{Name: "loss",
		Doc:  "1% random loss on every path: each SACK hole is retransmitted once, on a fresh path sequence",
		Loss: 0.01}),
	derive.From(baseProfile, Profile{Name: "bad_path",
		Doc:  "path 1 loses 20%: losses found by SACK, retransmissions steered away by the avoid hint",
		Loss: 0.2, LossPaths: 2}),
	derive.From(baseProfile, Profile{Name: "heavy_loss",
		Doc:  "10% loss everywhere, ECN marks: lost retransmissions are found again, RTO backs up the tail",
		Loss: 0.1, ECN: 0.05, Cycles: 40000}),
	derive.From(baseProfile, Profile{Name: "ack_chaos",
		Doc: "ACKs lost (20%), duplicated (10%) and replayed late (10%) over a jittery return path: stale and " +
			"duplicate ACKs change nothing",
		Loss: 0.02, AckLoss: 0.2, AckDup: 0.1, AckReplay: 0.1, Jitter: 200}),
	derive.From(baseProfile, Profile{Name: "timeout",
		Doc: "every path silent for long stretches: RTO with backoff retransmits the oldest packet until the " +
			"paths heal",
		Loss: 0.01, Cycles: 60000,
		Blackouts: []Blackout{{From: 5000, To: 12000}, {From: 25000, To: 40000}}}),
	derive.From(baseProfile, Profile{Name: "max_retries",
		Doc: "every path dead for good mid-run: connections with packets in flight go to error after " +
			"max_retries timeouts and stop",
		Cycles: 20000, Errors: true, ClosedSend: 0.05,
		Blackouts: []Blackout{{From: 4000, To: 1 << 40}}}),
	derive.From(baseProfile, Profile{Name: "wrap",
		Doc:  "connections open just below 2^24 with loss: PSNs, windows and retransmissions across the wrap",
		Wrap: true, Loss: 0.02}),
	derive.From(baseProfile, Profile{Name: "backpressure",
		Doc: "path offers, m_pkt_ready and m_fb_ready random: held candidates, held outputs, stalled ACK " +
			"intake",
		PathValid: 0.6, PktReady: 0.7, FbReady: 0.3, Loss: 0.03, ECN: 0.1}),
	derive.From(baseProfile, Profile{Name: "churn",
		Doc: "connections closed and reopened mid-traffic (with work sent to closed ones): the engine flushes " +
			"that connection",
		ChurnEvery: 1500, ClosedSend: 0.05, Loss: 0.02}),
	derive.From(baseProfile, Profile{Name: "reset",
		Doc:        "reset pulses mid-traffic: everything restarts from the reset state",
		ResetEvery: 6000, Loss: 0.02}),
	derive.From(baseProfile, Profile{Name: "random",
		Doc:  "everything at once: loss, ECN, ACK chaos, backpressure, silences, churn, resets, wrap",
		Loss: 0.03, ECN: 0.05, AckLoss: 0.05, AckDup: 0.05, AckReplay: 0.05, Jitter: 100,
		PathValid: 0.9, PktReady: 0.9, FbReady: 0.8, Wrap: true, ChurnEvery: 5000, ResetEvery: 20000,
		Blackouts: []Blackout{{From: 10000, To: 14000, Paths: 5}}, ClosedSend: 0.02, Cycles: 40000}),
	derive.From(inOrder, Profile{Name: "pseq_wrap",
		Doc: "one connection on path 0 only, short round trip, 0.2% loss: 2^16+ packets on one (connection, " +
			"path), so its path sequence wraps, with SACK holes found across the wrap",
		Conns: 1, Paths: 1, Delay: 4, Jitter: 4, Loss: 0.002, Cycles: 90000}),
	derive.From(steady, Profile{Name: "every_pair",
		Doc: "every connection's packets spread evenly over every path, no loss: more than 2^8 packets and ACKs " +
			"on every (connection, path), so bits 0-7 of each pair's path sequences count both ways",
		Spread: true, PerPair: 320, MsgMax: 4, Delay: 20, Skew: 4, DataJitter: 8, Jitter: 8}),
	derive.From(inOrder, Profile{Name: "gbn_loss",
		Doc: "go-back-N mode, 1% loss, paths of equal delay (no reordering, as RoCEv2 needs): NAK rewinds " +
			"resend everything from the expected PSN, one per cycle",
		GBN: true, Loss: 0.01}),
	derive.From(inOrder, Profile{Name: "gbn_timeout",
		Doc: "go-back-N mode with silences and ACK loss: timeouts rewind, backoff, recovery",
		GBN: true, Loss: 0.01, AckLoss: 0.1, Cycles: 50000,
		Blackouts: []Blackout{{From: 6000, To: 15000}}}),
	derive.From(baseProfile, Profile{Name: "gbn_spray",
		Doc: "go-back-N mode sprayed over every path: reordering looks like loss, NAK storms, connections give " +
			"up (the baseline's weakness)",
		GBN: true, Errors: true, Cycles: 20000}),
	derive.From(inOrder, Profile{Name: "gbn_random",
		Doc: "go-back-N mode with everything: loss, ACK chaos, backpressure, churn, resets, wrap",
		GBN: true, Loss: 0.02, AckLoss: 0.05, AckDup: 0.05, AckReplay: 0.05, Jitter: 100,
		PathValid: 0.9, PktReady: 0.9, FbReady: 0.8, Wrap: true, ChurnEvery: 5000, ResetEvery: 20000,
		Cycles: 40000}),
}
