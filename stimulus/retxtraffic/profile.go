package retxtraffic

import (
	"github.com/spraynic/spraynic/config"
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

var profiles = registry.New("retx test", func(p Profile) string { return p.Name })

// Lookup returns the named profile.
func Lookup(name string) (Profile, error) { return profiles.Lookup(name) }

// Names lists the profiles, sorted.
func Names() []string { return profiles.Names() }

func init() {
	base := Profile{Cycles: 30000, Load: 1, MsgMax: 8, PathValid: 1, PktReady: 1, FbReady: 1, Delay: 60, Skew: 12, DataJitter: 8, Jitter: 30}
	with := func(f func(*Profile)) { p := base; f(&p); profiles.Register(p) }
	with(func(p *Profile) {
		p.Name, p.Doc = "clean", "every connection, no loss, a path every cycle: one new packet per cycle, cumulative ACKs free the window"
	})
	with(func(p *Profile) {
		p.Name, p.Doc = "single_conn", "one connection at full load: the window is the limit; ack_req on window fill keeps it moving"
		p.Conns, p.Delay, p.Skew = 1, 30, 6
	})
	with(func(p *Profile) {
		p.Name, p.Doc = "loss", "1% random loss on every path: each SACK hole is retransmitted once, on a fresh path sequence"
		p.Loss = 0.01
	})
	with(func(p *Profile) {
		p.Name, p.Doc = "bad_path", "path 1 loses 20%: losses found by SACK, retransmissions steered away by the avoid hint"
		p.Loss, p.LossPaths = 0.2, 2
	})
	with(func(p *Profile) {
		p.Name, p.Doc = "heavy_loss", "10% loss everywhere, ECN marks: lost retransmissions are found again, RTO backs up the tail"
		p.Loss, p.ECN, p.Cycles = 0.1, 0.05, 40000
	})
	with(func(p *Profile) {
		p.Name, p.Doc = "ack_chaos", "ACKs lost (20%), duplicated (10%) and replayed late (10%) over a jittery return path: stale and duplicate ACKs change nothing"
		p.Loss, p.AckLoss, p.AckDup, p.AckReplay, p.Jitter = 0.02, 0.2, 0.1, 0.1, 200
	})
	with(func(p *Profile) {
		p.Name, p.Doc = "timeout", "every path silent for long stretches: RTO with backoff retransmits the oldest packet until the paths heal"
		p.Loss, p.Cycles = 0.01, 60000
		p.Blackouts = []Blackout{{From: 5000, To: 12000}, {From: 25000, To: 40000}}
	})
	with(func(p *Profile) {
		p.Name, p.Doc = "max_retries", "every path dead for good mid-run: connections with packets in flight go to error after max_retries timeouts and stop"
		p.Cycles, p.Errors, p.ClosedSend = 20000, true, 0.05
		p.Blackouts = []Blackout{{From: 4000, To: 1 << 40}}
	})
	with(func(p *Profile) {
		p.Name, p.Doc = "wrap", "connections open just below 2^24 with loss: PSNs, windows and retransmissions across the wrap"
		p.Wrap, p.Loss = true, 0.02
	})
	with(func(p *Profile) {
		p.Name, p.Doc = "backpressure", "path offers, m_pkt_ready and m_fb_ready random: held candidates, held outputs, stalled ACK intake"
		p.PathValid, p.PktReady, p.FbReady, p.Loss, p.ECN = 0.6, 0.7, 0.3, 0.03, 0.1
	})
	with(func(p *Profile) {
		p.Name, p.Doc = "churn", "connections closed and reopened mid-traffic (with work sent to closed ones): the engine flushes that connection"
		p.ChurnEvery, p.ClosedSend, p.Loss = 1500, 0.05, 0.02
	})
	with(func(p *Profile) {
		p.Name, p.Doc = "reset", "reset pulses mid-traffic: everything restarts from the reset state"
		p.ResetEvery, p.Loss = 6000, 0.02
	})
	with(func(p *Profile) {
		p.Name, p.Doc = "random", "everything at once: loss, ECN, ACK chaos, backpressure, silences, churn, resets, wrap"
		p.Loss, p.ECN, p.AckLoss, p.AckDup, p.AckReplay, p.Jitter = 0.03, 0.05, 0.05, 0.05, 0.05, 100
		p.PathValid, p.PktReady, p.FbReady, p.Wrap, p.ChurnEvery, p.ResetEvery = 0.9, 0.9, 0.8, true, 5000, 20000
		p.Blackouts, p.ClosedSend, p.Cycles = []Blackout{{From: 10000, To: 14000, Paths: 5}}, 0.02, 40000
	})
	with(func(p *Profile) {
		p.Name, p.Doc = "pseq_wrap", "one connection on path 0 only, short round trip, 0.2% loss: 2^16+ packets on one (connection, path), so its path sequence wraps, with SACK holes found across the wrap"
		p.Conns, p.Paths, p.Delay, p.Skew, p.DataJitter, p.Jitter, p.Loss, p.Cycles = 1, 1, 4, 0, 0, 4, 0.002, 90000
	})
	with(func(p *Profile) {
		p.Name, p.Doc = "every_pair", "every connection's packets spread evenly over every path, no loss: more than 2^8 packets and ACKs on every (connection, path), so bits 0-7 of each pair's path sequences count both ways"
		p.Spread, p.PerPair, p.Cycles, p.MsgMax, p.Delay, p.Skew, p.Jitter = true, 320, 0, 4, 20, 4, 8
	})
	with(func(p *Profile) {
		p.Name, p.Doc = "gbn_loss", "go-back-N mode, 1% loss, paths of equal delay (no reordering, as RoCEv2 needs): NAK rewinds resend everything from the expected PSN, one per cycle"
		p.GBN, p.Skew, p.DataJitter, p.Loss = true, 0, 0, 0.01
	})
	with(func(p *Profile) {
		p.Name, p.Doc = "gbn_timeout", "go-back-N mode with silences and ACK loss: timeouts rewind, backoff, recovery"
		p.GBN, p.Skew, p.DataJitter, p.Loss, p.AckLoss, p.Cycles = true, 0, 0, 0.01, 0.1, 50000
		p.Blackouts = []Blackout{{From: 6000, To: 15000}}
	})
	with(func(p *Profile) {
		p.Name, p.Doc = "gbn_spray", "go-back-N mode sprayed over every path: reordering looks like loss, NAK storms, connections give up (the baseline's weakness)"
		p.GBN, p.Errors, p.Cycles = true, true, 20000
	})
	with(func(p *Profile) {
		p.Name, p.Doc = "gbn_random", "go-back-N mode with everything: loss, ACK chaos, backpressure, churn, resets, wrap"
		p.GBN, p.Skew, p.DataJitter, p.Loss, p.AckLoss, p.AckDup, p.AckReplay, p.Jitter = true, 0, 0, 0.02, 0.05, 0.05, 0.05, 100
		p.PathValid, p.PktReady, p.FbReady, p.Wrap, p.ChurnEvery, p.ResetEvery, p.Cycles = 0.9, 0.9, 0.8, true, 5000, 20000, 40000
	})
}
