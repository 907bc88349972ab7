package rxtraffic

import "github.com/spraynic/spraynic/stimulus/registry"

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

var profiles = registry.New("test", func(p Profile) string { return p.Name })

// Lookup returns the named profile.
func Lookup(name string) (Profile, error) { return profiles.Lookup(name) }

// Names lists the profiles, sorted.
func Names() []string { return profiles.Names() }

func init() {
	base := Profile{Load: 1, CplReady: 1, AckReady: 1, MsgLen: 8, RetxDelay: 200, Drain: 2000, Cycles: 20000}
	with := func(p Profile, f func(*Profile)) Profile { f(&p); return p }
	profiles.Register(with(base, func(p *Profile) {
		p.Name, p.Doc = "inorder", "saturating in-order traffic on every connection, no loss: one packet per cycle"
	}))
	profiles.Register(with(base, func(p *Profile) {
		p.Name, p.Doc = "single_conn", "one connection, one path family, back-to-back packets (forwarding), reordering within the window"
		p.Conns, p.PathSkew, p.Jitter, p.PJitter = 1, 12, 20, 0.2
	}))
	profiles.Register(with(base, func(p *Profile) {
		p.Name, p.Doc = "reorder", "spraying over paths with skew and jitter: out-of-order arrival, in-order completion"
		p.PathSkew, p.Jitter, p.PJitter = 40, 60, 0.3
	}))
	profiles.Register(with(base, func(p *Profile) {
		p.Name, p.Doc = "loss", "losses recovered by retransmission on fresh path sequences, some never recovered (stalls, window edge)"
		p.PathSkew, p.Jitter, p.PJitter, p.PLoss, p.PPermanent = 20, 20, 0.1, 0.03, 0.005
	}))
	profiles.Register(with(base, func(p *Profile) {
		p.Name, p.Doc = "dup_oow", "duplicates, beyond-window packets and packets to closed connections"
		p.PathSkew, p.PDup, p.POOW, p.PClosed, p.Conns = 10, 0.05, 0.02, 0.02, 0
	}))
	profiles.Register(with(base, func(p *Profile) {
		p.Name, p.Doc = "pseq_wrap", "one connection on path 0 only, 0.2% loss: 2^16+ packets on one (connection, path), so its path sequence wraps, with SACK holes across the wrap"
		p.Conns, p.Paths, p.Jitter, p.PJitter, p.PLoss, p.RetxDelay, p.Cycles = 1, 1, 4, 0.05, 0.002, 40, 90000
	}))
	profiles.Register(with(base, func(p *Profile) {
		p.Name, p.Doc = "wrap", "connections opened just below 2^24: the PSN wraps under reordering and loss"
		p.NearWrap, p.PathSkew, p.Jitter, p.PJitter, p.PLoss = true, 30, 30, 0.2, 0.01
	}))
	profiles.Register(with(base, func(p *Profile) {
		p.Name, p.Doc = "backpressure", "random bursty back-pressure on m_cpl and m_ack: nothing lost, s_pkt_ready drops"
		p.PathSkew, p.Jitter, p.PJitter, p.CplReady, p.AckReady, p.Bursty = 30, 30, 0.2, 0.4, 0.5, true
	}))
	profiles.Register(with(base, func(p *Profile) {
		p.Name, p.Doc = "churn", "connections closed and reopened with new PSNs in the middle of traffic"
		p.PathSkew, p.Jitter, p.PJitter, p.ChurnEvery, p.PLoss, p.PECN = 20, 20, 0.1, 300, 0.01, 0.05
	}))
	profiles.Register(with(base, func(p *Profile) {
		p.Name, p.Doc = "reset", "synchronous reset in the middle of traffic, then reopen and continue"
		p.PathSkew, p.Jitter, p.PJitter, p.ResetEvery, p.CplReady = 20, 20, 0.1, 2500, 0.8
	}))
	profiles.Register(with(base, func(p *Profile) {
		p.Name, p.Doc = "random", "everything at once: reorder, loss, duplicates, out-of-window, ECN, back-pressure, churn, resets"
		p.PathSkew, p.Jitter, p.PJitter, p.PLoss, p.PPermanent = 40, 40, 0.2, 0.02, 0.02
		p.PDup, p.POOW, p.PClosed, p.PAckReq, p.PECN = 0.02, 0.01, 0.01, 0.02, 0.05
		p.CplReady, p.AckReady, p.Bursty, p.ChurnEvery, p.ResetEvery, p.Load = 0.8, 0.8, true, 2000, 9000, 0.9
		p.Cycles = 30000
	}))
}
