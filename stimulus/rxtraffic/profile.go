package rxtraffic

import (
	"github.com/spraynic/spraynic/stimulus/derive"
	"github.com/spraynic/spraynic/stimulus/registry"
)

// Profile shapes the traffic of one test. Probabilities are per cycle or per packet as named; cycles are NIC
// clock cycles.
type Profile struct {
	// Name identifies the profile (the test name).
	Name string
	// Doc says what the test exercises.
	Doc string
	// Cycles is the default length of the traffic phase (the drain comes on top, see DrainCycles).
	Cycles int64
	// Conns is the number of connections opened (0: all of the configuration's).
	Conns int
	// Paths is a bit mask of the paths the senders use (0: every path of the configuration).
	Paths uint64
	// NearWrap opens connections just below 2^24 so the PSN wraps during the run.
	NearWrap bool
	// Load is the probability per cycle that a sender produces a new packet.
	Load float64
	// PathSkew is the spread of the fixed per-path delays (reordering across paths).
	PathSkew int
	// Jitter is the spread of the per-packet delay added with probability PJitter (reordering within a path).
	Jitter int
	// PJitter is the probability that a packet gets extra jitter.
	PJitter float64
	// PLoss is the probability that a transmission is lost in the network (its path sequence is consumed).
	PLoss float64
	// PPermanent is the fraction of losses that are never retransmitted (the connection then stalls).
	PPermanent float64
	// RetxDelay is the delay before a lost PSN is sent again, on a fresh path sequence.
	RetxDelay int
	// PDup is the probability that a packet is also sent a second time (a duplicate PSN).
	PDup float64
	// POOW is the probability per cycle of a packet beyond the receive window.
	POOW float64
	// PClosed is the probability per cycle of a packet to a connection that is not open.
	PClosed float64
	// PAckReq is the probability of an ack-request flag besides the last packet of each message.
	PAckReq float64
	// PECN is the probability that a packet arrives CE-marked.
	PECN float64
	// MsgLen is the number of packets per message (first/last flags).
	MsgLen int
	// CplReady and AckReady are the probabilities that m_cpl_ready / m_ack_ready are high in a cycle.
	CplReady, AckReady float64
	// Bursty makes back-pressure come in bursts (the ready level is redrawn only every 16 cycles).
	Bursty bool
	// ChurnEvery is the mean number of cycles between closing and reopening a random connection (0: never).
	ChurnEvery int
	// ResetEvery is the mean number of cycles between resets in the middle of traffic (0: never).
	ResetEvery int
	// Drain is the number of cycles at the end with no new traffic and every ready high.
	Drain int64
}

var profiles = registry.New("test", func(p Profile) string { return p.Name }, profileTable...)

// Lookup returns the named profile.
func Lookup(name string) (Profile, error) { return profiles.Lookup(name) }

// Names lists the profiles, sorted.
func Names() []string { return profiles.Names() }

// baseProfile is what every profile starts from: saturating load, 8-packet messages, readies high, no loss.
var baseProfile = Profile{Cycles: 20000, Load: 1, MsgLen: 8, RetxDelay: 200, CplReady: 1, AckReady: 1, Drain: 2000}

// profileTable is every profile: baseProfile and the fields that differ.
var profileTable = []Profile{
	derive.From(baseProfile, Profile{Name: "inorder",
		Doc: "saturating in-order traffic on every connection, no loss: one packet per cycle"}),
	derive.From(baseProfile, Profile{Name: "single_conn",
		Doc:   "one connection, one path family, back-to-back packets (forwarding), reordering within the window",
		Conns: 1, PathSkew: 12, Jitter: 20, PJitter: 0.2}),
	derive.From(baseProfile, Profile{Name: "reorder",
		Doc:      "spraying over paths with skew and jitter: out-of-order arrival, in-order completion",
		PathSkew: 40, Jitter: 60, PJitter: 0.3}),
	derive.From(baseProfile, Profile{Name: "loss",
		Doc: "losses recovered by retransmission on fresh path sequences, some never recovered " +
			"(stalls, window edge)",
		PathSkew: 20, Jitter: 20, PJitter: 0.1, PLoss: 0.03, PPermanent: 0.005}),
	derive.From(baseProfile, Profile{Name: "dup_oow",
		Doc:      "duplicates, beyond-window packets and packets to closed connections",
		PathSkew: 10, PDup: 0.05, POOW: 0.02, PClosed: 0.02}),
	derive.From(baseProfile, Profile{Name: "pseq_wrap",
		Doc: "one connection on path 0 only, 0.2% loss: 2^16+ packets on one (connection, path), so its path " +
			"sequence wraps, with SACK holes across the wrap",
		Conns: 1, Paths: 1, Jitter: 4, PJitter: 0.05, PLoss: 0.002, RetxDelay: 40, Cycles: 90000}),
	derive.From(baseProfile, Profile{Name: "wrap",
		Doc:      "connections opened just below 2^24: the PSN wraps under reordering and loss",
		NearWrap: true, PathSkew: 30, Jitter: 30, PJitter: 0.2, PLoss: 0.01}),
	derive.From(baseProfile, Profile{Name: "backpressure",
		Doc:      "random bursty back-pressure on m_cpl and m_ack: nothing lost, s_pkt_ready drops",
		PathSkew: 30, Jitter: 30, PJitter: 0.2, CplReady: 0.4, AckReady: 0.5, Bursty: true}),
	derive.From(baseProfile, Profile{Name: "churn",
		Doc:      "connections closed and reopened with new PSNs in the middle of traffic",
		PathSkew: 20, Jitter: 20, PJitter: 0.1, ChurnEvery: 300, PLoss: 0.01, PECN: 0.05}),
	derive.From(baseProfile, Profile{Name: "reset",
		Doc:      "synchronous reset in the middle of traffic, then reopen and continue",
		PathSkew: 20, Jitter: 20, PJitter: 0.1, ResetEvery: 2500, CplReady: 0.8}),
	derive.From(baseProfile, Profile{Name: "random",
		Doc: "everything at once: reorder, loss, duplicates, out-of-window, ECN, back-pressure, churn, " +
			"resets",
		PathSkew: 40, Jitter: 40, PJitter: 0.2, PLoss: 0.02, PPermanent: 0.02,
		PDup: 0.02, POOW: 0.01, PClosed: 0.01, PAckReq: 0.02, PECN: 0.05,
		CplReady: 0.8, AckReady: 0.8, Bursty: true, ChurnEvery: 2000, ResetEvery: 9000, Load: 0.9,
		Cycles: 30000}),
}
