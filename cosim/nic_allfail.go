package cosim

import (
	"fmt"
	"math/rand/v2"

	"github.com/spraynic/spraynic/config"
	"github.com/spraynic/spraynic/golden/nictransport"
	"github.com/spraynic/spraynic/golden/wide"
)

// Phases of allFailDriver, in order.
const (
	// open the connection
	afOpen = iota
	// hand new packets until every path has sent FAIL_K of them
	afSend
	// one ACK per path reporting every sequence sent on it lost (an empty SACK bitmap)
	afLose
	// wait for m_status_all_failed
	afWait
	// ACK every packet sent since as delivered, until the status falls
	afHeal
	afDone
)

// allFailDriver fails every path of one connection of a selective-mode top by loss events, then heals one
// with a probe. It opens connection c (picked by the seed) at psn0 and hands it one-packet messages until each
// path has sent at least FAIL_K packets (window-weighted round robin: every path takes its turn). Then, for every
// path in order, it sends an ACK whose cumulative PSN is psn0 (no progress) and whose path part reports every
// sequence sent on that path with no SACK bit set: retx reports them lost, FAIL_K or more at once, and path_sel
// fails the path. With the last one every path of c is FAILED (or PROBING): m_status_all_failed rises (rd_conn
// is c, so rd_all_failed shows it too). The retransmissions of the lost packets wait; path_sel's starvation
// guard probes a failed path; the driver ACKs every packet sent from the rise on as delivered (its path
// sequence, SACK bit 0), so the probed path recovers and the status falls.
type allFailDriver struct {
	cfg     config.Config
	c, psn0 uint32
	phase   int
	// tx counts the packets handed; pnx and ahi are per path one past the highest path sequence seen on m_pkt
	// and reported by an ACK; next is the path whose losses the next ACK reports.
	tx       uint32
	pnx, ahi []uint32
	next     int
	// heal holds the packets (path, sequence) sent since the rise, to ACK as delivered.
	heal [][2]uint32
	// rise and fall are the cycles m_status_all_failed showed c all-failed and then stopped (-1: not yet);
	// rdAll says rd_all_failed was seen.
	rise, fall int64
	rdAll      bool
	// afBad describes the first cycle m_status_af was not {c} while the status showed c all-failed, or not 0
	// otherwise (only c is ever open, so no other connection can have every path failed).
	afBad string
	last  nictransport.TopOut
}

func newAllFailDriver(cfg config.Config, seed uint64) *allFailDriver {
	rng := rand.New(rand.NewPCG(seed, 0x616c6c66))
	return &allFailDriver{cfg: cfg, c: uint32(rng.IntN(cfg.Conns)), psn0: uint32(rng.IntN(1 << 24)),
		pnx: make([]uint32, cfg.Paths), ahi: make([]uint32, cfg.Paths), rise: -1, fall: -1}
}

// sentFailK says every path has sent at least FAIL_K packets.
func (d *allFailDriver) sentFailK() bool {
	for _, n := range d.pnx {
		if n < uint32(d.cfg.FailK) {
			return false
		}
	}
	return true
}

func (d *allFailDriver) ack(in *nictransport.TopIn, path, pseq uint32, sack wide.Vec) {
	in.AckValid = true
	in.AckConn = d.c
	in.AckPSN = (d.psn0 + d.tx) & 0xFFFFFF
	in.AckPath = path
	in.AckPseq = pseq & (1<<d.cfg.PseqWidth - 1)
	in.AckSack = sack
}

// hand offers the next one-packet message.
func (d *allFailDriver) hand(in *nictransport.TopIn) {
	in.TxValid = true
	in.TxConn = d.c
	in.TxHandle = d.tx & (1<<d.cfg.HandleWidth - 1)
	in.TxFirst = true
	in.TxLast = true
}

func (d *allFailDriver) Drive(cycle int64, in *nictransport.TopIn) {
	*in = nictransport.TopIn{Rst: cycle < 2, CplReady: true, PktReady: true, AckOutReady: true, RdConn: d.c,
		RdPath: uint32(cycle % int64(d.cfg.Paths))}
	if in.Rst {
		return
	}
	switch d.phase {
	case afOpen:
		in.CtlValid = true
		in.CtlOpen = true
		in.CtlConn = d.c
		in.CtlTxPSN = d.psn0
	case afSend:
		// The window bounds the packets a connection has outstanding; the paths' turns fit in it on every preset.
		if !d.sentFailK() && d.tx < uint32(d.cfg.Window) {
			d.hand(in)
		}
	case afLose:
		d.ack(in, uint32(d.next), d.pnx[d.next], wide.Vec{})
	case afHeal:
		d.hand(in)
		if len(d.heal) > 0 {
			d.ack(in, d.heal[0][0], d.heal[0][1]+1, wide.One())
		}
	}
}

func (d *allFailDriver) Observe(cycle int64, in *nictransport.TopIn, out *nictransport.TopOut) {
	d.last = *out
	if in.Rst {
		return
	}
	if out.RdAllFailed {
		d.rdAll = true
	}
	want := wide.Vec{}
	if out.StatusAllFail && int(d.c) < wide.MaxBits {
		want = want.Set(int(d.c))
	}
	if d.afBad == "" && (out.StatusAF != want || out.StatusAllFail && out.StatusConn != d.c) {
		d.afBad = fmt.Sprintf("cycle %d: m_status_all_failed/conn/af = %v/%d/%x, want af %x with conn %d",
			cycle, out.StatusAllFail, out.StatusConn, out.StatusAF, want, d.c)
	}
	if out.PktValid && in.PktReady && out.PktConn == d.c {
		p := out.PktPath
		d.pnx[p] = max(d.pnx[p], out.PktPseq+1)
		if d.phase == afHeal {
			d.heal = append(d.heal, [2]uint32{p, out.PktPseq})
		}
	}
	if in.TxValid && out.TxReady {
		d.tx++
	}
	switch d.phase {
	case afOpen:
		if out.CtlReady {
			d.phase = afSend
		}
	case afSend:
		if d.sentFailK() {
			d.phase = afLose
		}
	case afLose:
		if out.AckReady {
			d.ahi[d.next] = d.pnx[d.next]
			if d.next++; d.next == d.cfg.Paths {
				d.phase = afWait
			}
		}
	case afWait:
		if out.StatusAllFail && out.StatusConn == d.c {
			d.rise = cycle
			d.phase = afHeal
		}
	case afHeal:
		if in.AckValid && out.AckReady {
			d.ahi[in.AckPath] = d.heal[0][1] + 1
			d.heal = d.heal[1:]
		}
		if !out.StatusAllFail {
			d.fall = cycle
			d.phase = afDone
		}
	}
}

// check requires the script to have run to its end: every path failed, the status rose and fell (m_status_af
// showing only c, exactly while m_status_all_failed did), rd_all_failed was seen, a probe recovered a path, and
// the connection never went to error.
func (d *allFailDriver) check() error {
	o := &d.last
	switch {
	case d.phase != afDone:
		return fmt.Errorf("stimulus unfinished in phase %d (packets handed %d, paths reported lost %d, rise at %d)",
			d.phase, d.tx, d.next, d.rise)
	case o.CntFailures < uint32(d.cfg.Paths):
		return fmt.Errorf("cnt_failures %d, want at least %d (every path)", o.CntFailures, d.cfg.Paths)
	case !d.rdAll:
		return fmt.Errorf("rd_all_failed never seen with rd_conn = %d", d.c)
	case d.afBad != "":
		return fmt.Errorf("m_status_af: %s", d.afBad)
	case o.CntProbes == 0 || o.CntRecoveries == 0:
		return fmt.Errorf("cnt_probes %d, cnt_recoveries %d; want both above 0", o.CntProbes, o.CntRecoveries)
	case o.CntErrors != 0:
		return fmt.Errorf("cnt_errors %d, want 0", o.CntErrors)
	}
	return nil
}

func (d *allFailDriver) result() (int64, string) {
	o := &d.last
	return int64(o.CntSent + o.CntRetxLoss + o.CntRetxTimeout), fmt.Sprintf(
		"conn=%d rise=%d fall=%d sent=%d retx_loss=%d retx_timeout=%d failures=%d probes=%d recoveries=%d",
		d.c, d.rise, d.fall, o.CntSent, o.CntRetxLoss, o.CntRetxTimeout, o.CntFailures, o.CntProbes, o.CntRecoveries)
}

func init() {
	registerNicDirected(Test{Name: "nic_dir_allfail",
		Doc: "directed: one connection, selective mode: ACKs with empty SACK bitmaps report every path's packets " +
			"lost until every path has failed (m_status_all_failed rises, rd_all_failed), then the starvation " +
			"guard's probe is ACKed and its path recovers (the status falls)",
		configure: func(cfg config.Config) config.Config { cfg.GBN = 0; return cfg },
		CyclesFor: func(cfg config.Config) int64 { return 8*int64(cfg.TickCycles) + 8*int64(cfg.Window) + 200 },
		MinFor: func(cfg config.Config) Minimum {
			return Minimum{N: int64(cfg.Paths * cfg.FailK), Why: "FAIL_K packets on every path, reported lost"}
		},
	}, func(r Request) nicDirected { return newAllFailDriver(r.Config, r.Seed) })
}
