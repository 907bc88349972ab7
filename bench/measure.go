package bench

import (
	"fmt"
	"sort"
	"strings"

	"github.com/spraynic/spraynic/config"
	"github.com/spraynic/spraynic/cosim"
	"github.com/spraynic/spraynic/golden/pathsel"
	"github.com/spraynic/spraynic/golden/retx"
	"github.com/spraynic/spraynic/golden/rxreorder"
	"github.com/spraynic/spraynic/scoreboard"
	"github.com/spraynic/spraynic/stimulus/pathtraffic"
	"github.com/spraynic/spraynic/stimulus/retxtraffic"
	"github.com/spraynic/spraynic/stimulus/rxtraffic"
)

// RxFigures are the rx_reorder performance figures of one checked run.
type RxFigures struct {
	// Test and Config name the run.
	Test, Config string
	// Offered is the number of cycles with s_pkt_valid high; Taken the packets taken in them.
	Offered, Taken int64
	// LatMin, LatMean, LatP99, LatMax: cycles from a packet taken to its completion leaving (handshake to
	// handshake), over every completed packet.
	LatMin, LatP99, LatMax int64
	LatMean                float64
}

// PerCycle is packets taken per offered cycle.
func (f RxFigures) PerCycle() float64 { return float64(f.Taken) / float64(max(1, f.Offered)) }

func (f RxFigures) String() string {
	return fmt.Sprintf("%-16s %-8s offered %7d taken %7d  %.4f pkt/cycle  "+
		"release latency min %d mean %.1f p99 %d max %d",
		f.Test, f.Config, f.Offered, f.Taken, f.PerCycle(), f.LatMin, f.LatMean, f.LatP99, f.LatMax)
}

// rxMeasure wraps the scoreboard (every figure comes from a checked run) and times each packet.
type rxMeasure struct {
	sb      *scoreboard.Rx
	fig     RxFigures
	takenAt map[[2]uint32]int64
	lat     []int64
}

func (m *rxMeasure) Observe(cycle int64, in *rxreorder.In, out *rxreorder.Out) error {
	if err := m.sb.Observe(cycle, in, out); err != nil {
		return err
	}
	if in.Rst {
		clear(m.takenAt)
		return nil
	}
	if in.PktValid && !in.CtlValid {
		m.fig.Offered++
		if out.PktReady {
			m.fig.Taken++
			if _, seen := m.takenAt[[2]uint32{in.PktConn, in.PktPSN}]; !seen {
				m.takenAt[[2]uint32{in.PktConn, in.PktPSN}] = cycle
			}
		}
	}
	if out.CplValid && in.CplReady {
		k := [2]uint32{out.CplConn, out.CplPSN}
		if t, ok := m.takenAt[k]; ok {
			m.lat = append(m.lat, cycle-t)
			delete(m.takenAt, k)
		}
	}
	return nil
}

func (m *rxMeasure) Finish() error { return m.sb.Finish() }

// MeasureRx runs an rx_reorder test in lockstep (RTL + golden + scoreboard) and returns its figures.
func MeasureRx(r cosim.Request) (RxFigures, error) {
	prof, err := rxtraffic.Lookup(r.Test[len("rx_"):])
	if err != nil {
		return RxFigures{}, err
	}
	dut, err := cosim.OpenPlain(&r)
	if err != nil {
		return RxFigures{}, err
	}
	defer dut.Close()
	g, err := rxreorder.New(r.Config)
	if err != nil {
		return RxFigures{}, err
	}
	drv, err := rxtraffic.New(r.Config, prof, r.Seed, r.Cycles)
	if err != nil {
		return RxFigures{}, err
	}
	m := &rxMeasure{sb: scoreboard.NewRx(r.Config), takenAt: map[[2]uint32]int64{},
		fig: RxFigures{Test: r.Test, Config: r.Config.Name}}
	if _, err := cosim.Lockstep[rxreorder.In, rxreorder.Out](dut, g, drv, m, rxreorder.Valid,
		cosim.Options{Cycles: r.Cycles, Batch: 1024, Repro: r.Repro()}); err != nil {
		return RxFigures{}, err
	}
	if len(m.lat) == 0 {
		return m.fig, fmt.Errorf("measure %s: no completion to time", r.Test)
	}
	sort.Slice(m.lat, func(i, j int) bool { return m.lat[i] < m.lat[j] })
	var sum int64
	for _, l := range m.lat {
		sum += l
	}
	m.fig.LatMin = m.lat[0]
	m.fig.LatMax = m.lat[len(m.lat)-1]
	m.fig.LatP99 = m.lat[len(m.lat)*99/100]
	m.fig.LatMean = float64(sum) / float64(len(m.lat))
	return m.fig, nil
}

// MeasureTests are the runs whose figures `spraynic bench` reports.
var MeasureTests = []string{"rx_inorder", "rx_single_conn", "rx_reorder", "rx_backpressure"}

// PathFigures are the path_sel figures of one checked run.
type PathFigures struct {
	// Test and Config name the run.
	Test, Config string
	// Offered is the number of cycles with a request waiting; Taken the requests taken in them.
	Offered, Taken int64
	// OnCongested and OnHealthy are decisions per path, averaged over the paths whose entropy hashes onto the
	// ECN-marking link and over the others, measured from cycle From on (after the windows settled).
	OnCongested, OnHealthy float64
	// From is the first cycle counted for the shares.
	From int64
}

func (f PathFigures) String() string {
	return fmt.Sprintf(
		"%-16s %-8s %.4f decisions/cycle  decisions per path from cycle %d: "+
			"congested link %.0f, healthy %.0f (ratio %.2f)",
		f.Test, f.Config, float64(f.Taken)/float64(max(1, f.Offered)), f.From, f.OnCongested, f.OnHealthy,
		f.OnCongested/max(1, f.OnHealthy))
}

// pathMeasure wraps the path_sel scoreboard and counts decisions per path and link.
type pathMeasure struct {
	sb   *scoreboard.PathSel
	drv  *pathtraffic.Driver
	fig  PathFigures
	cong map[[2]uint32]bool
	per  map[[2]uint32]int64
}

func (m *pathMeasure) Observe(cycle int64, in *pathsel.In, out *pathsel.Out) error {
	if err := m.sb.Observe(cycle, in, out); err != nil {
		return err
	}
	if in.ReqValid && !in.Rst {
		m.fig.Offered++
		if out.ReqReady {
			m.fig.Taken++
		}
	}
	if out.SelValid && in.SelReady && cycle >= m.fig.From {
		k := [2]uint32{out.SelConn, out.SelPath}
		m.per[k]++
		m.cong[k] = m.drv.Link(out.SelEntropy) == 0
	}
	return nil
}

func (m *pathMeasure) Finish() error { return m.sb.Finish() }

// MeasurePathSel runs path_congested (link 0 marks ECN on 60% of packets) in lockstep and returns the figures.
func MeasurePathSel(r cosim.Request) (PathFigures, error) {
	r.Test = "path_congested"
	prof, err := pathtraffic.Lookup("congested")
	if err != nil {
		return PathFigures{}, err
	}
	dut, err := cosim.OpenPlain(&r)
	if err != nil {
		return PathFigures{}, err
	}
	defer dut.Close()
	g, err := pathsel.New(r.Config)
	if err != nil {
		return PathFigures{}, err
	}
	drv := pathtraffic.New(r.Config, prof, r.Seed, r.Cycles)
	m := &pathMeasure{sb: scoreboard.NewPathSel(r.Config, false), drv: drv, cong: map[[2]uint32]bool{},
		per: map[[2]uint32]int64{}, fig: PathFigures{Test: r.Test, Config: r.Config.Name, From: prof.Cycles / 4}}
	if _, err := cosim.Lockstep[pathsel.In, pathsel.Out](dut, g, drv, m, pathsel.Valid,
		cosim.Options{Cycles: r.Cycles, Batch: 1024, Repro: r.Repro()}); err != nil {
		return PathFigures{}, err
	}
	var nc, nh, sc, sh float64
	for k, n := range m.per {
		if m.cong[k] {
			nc, sc = nc+1, sc+float64(n)
		} else {
			nh, sh = nh+1, sh+float64(n)
		}
	}
	if nc == 0 || nh == 0 {
		return m.fig, fmt.Errorf("measure %s: need paths on both the congested and healthy links (got %v/%v)", r.Test,
			nc, nh)
	}
	m.fig.OnCongested = sc / nc
	m.fig.OnHealthy = sh / nh
	return m.fig, nil
}

// RetxFigures are the retx figures of one checked run.
type RetxFigures struct {
	// Test and Config name the run.
	Test, Config string
	// Offered is the number of cycles with new work on s_tx for a connection with room in its window and a path
	// on s_path (the engine could send); Taken the new packets taken in them. The window is the engine's view:
	// an ACK frees it from two cycles after its handshake (docs/retx.md: processed the next cycle, visible after).
	Offered, Taken int64
	// Losses is the number of retransmissions of SACK-revealed losses timed; LatMin..LatMax are the cycles from
	// the s_ack handshake of the ACK that first revealed the loss to m_pkt_valid of the retransmission.
	Losses                 int64
	LatMin, LatP99, LatMax int64
	LatMean                float64
}

func (f RetxFigures) String() string {
	s := fmt.Sprintf("%-17s %-8s offered %7d taken %7d  %.4f new pkt/cycle", f.Test, f.Config, f.Offered, f.Taken,
		float64(f.Taken)/float64(max(1, f.Offered)))
	if f.Losses > 0 {
		s += fmt.Sprintf("  SACK->retransmission %d losses: min %d mean %.1f p99 %d max %d cycles", f.Losses, f.LatMin,
			f.LatMean, f.LatP99, f.LatMax)
	}
	return s
}

// retxMeasure wraps the retx scoreboard and times new packets and loss recovery.
type retxMeasure struct {
	sb     *scoreboard.Retx
	cfg    config.Config
	fig    RetxFigures
	una    map[uint32]uint32
	nxt    map[uint32]uint32
	latest map[[3]uint32]uint32 // (conn, path, pseq) -> psn of its latest transmission
	last   map[[2]uint32][2]uint32
	reveal map[[2]uint32]int64
	offers []int64
	lat    []int64
	// acked holds cumulative PSNs taken on s_ack, applied to una two cycles later.
	acked []ackAt
}

// ackAt is a cumulative PSN taken at a cycle.
type ackAt struct {
	conn, psn uint32
	at        int64
}

func (m *retxMeasure) Observe(cycle int64, in *retx.In, out *retx.Out) error {
	if err := m.sb.Observe(cycle, in, out); err != nil {
		return err
	}
	if in.Rst {
		clear(m.una)
		clear(m.nxt)
		clear(m.latest)
		clear(m.last)
		clear(m.reveal)
		m.offers = m.offers[:0]
		m.acked = m.acked[:0]
		return nil
	}
	for len(m.acked) > 0 && m.acked[0].at+2 <= cycle {
		a := m.acked[0]
		m.acked = m.acked[1:]
		if d := (a.psn - m.una[a.conn]) & 0xFFFFFF; d > 0 && d < 1<<23 {
			m.una[a.conn] = a.psn
		}
	}
	if in.CtlValid && out.CtlReady {
		m.una[in.CtlConn], m.nxt[in.CtlConn] = in.CtlPSN, in.CtlPSN
	}
	c := in.TxConn
	if in.TxValid && !in.CtlValid && in.PathValid && in.PktReady &&
		(m.nxt[c]-m.una[c])&0xFFFFFF < uint32(m.cfg.Window) &&
		!out.PreqRetx {
		m.fig.Offered++
		if out.TxReady {
			m.fig.Taken++
		}
	}
	if in.TxValid && out.TxReady && out.PathReady {
		m.nxt[c] = (m.nxt[c] + 1) & 0xFFFFFF // a new packet sent (a dropped one takes no path)
	}
	if in.PathValid && out.PathReady {
		m.offers = append(m.offers, cycle)
	}
	if out.PktValid && in.PktReady && len(m.offers) > 0 {
		at := m.offers[0]
		m.offers = m.offers[1:]
		k := [2]uint32{out.PktConn, out.PktPSN}
		if t, ok := m.reveal[k]; ok && out.PktRetx {
			m.lat = append(m.lat, at+1-t)
			delete(m.reveal, k)
		}
		m.latest[[3]uint32{out.PktConn, out.PktPath, out.PktPseq}] = out.PktPSN
		m.last[k] = [2]uint32{out.PktPath, out.PktPseq}
	}
	if in.AckValid && out.AckReady {
		m.acked = append(m.acked, ackAt{conn: in.AckConn, psn: in.AckPSN, at: cycle})
		for i := 1; i < m.cfg.SackBits; i++ {
			if in.AckSack[i/64]>>(uint(i)%64)&1 == 1 {
				continue
			}
			q := (in.AckPseq - 1 - uint32(i)) & (1<<uint(m.cfg.PseqWidth) - 1)
			psn, ok := m.latest[[3]uint32{in.AckConn, in.AckPath, q}]
			k := [2]uint32{in.AckConn, psn}
			if _, seen := m.reveal[k]; ok && !seen && m.last[k] == [2]uint32{in.AckPath, q} {
				m.reveal[k] = cycle
			}
		}
	}
	return nil
}

func (m *retxMeasure) Finish() error { return m.sb.Finish() }

// RetxMeasureTests are the runs whose figures `spraynic bench` reports for retx.
var RetxMeasureTests = []string{"retx_clean", "retx_single_conn", "retx_loss", "retx_bad_path"}

// MeasureRetx runs a retx test in lockstep (RTL + golden + scoreboard) and returns its figures.
func MeasureRetx(r cosim.Request) (RetxFigures, error) {
	prof, err := retxtraffic.Lookup(strings.TrimPrefix(r.Test, "retx_"))
	if err != nil {
		return RetxFigures{}, err
	}
	dut, err := cosim.OpenPlain(&r)
	if err != nil {
		return RetxFigures{}, err
	}
	defer dut.Close()
	g, err := retx.New(r.Config)
	if err != nil {
		return RetxFigures{}, err
	}
	drv, err := retxtraffic.New(r.Config, prof, r.Seed, r.Cycles)
	if err != nil {
		return RetxFigures{}, err
	}
	m := &retxMeasure{sb: scoreboard.NewRetx(r.Config), cfg: r.Config,
		fig: RetxFigures{Test: r.Test, Config: r.Config.Name}, una: map[uint32]uint32{}, nxt: map[uint32]uint32{},
		latest: map[[3]uint32]uint32{}, last: map[[2]uint32][2]uint32{}, reveal: map[[2]uint32]int64{}}
	if _, err := cosim.Lockstep[retx.In, retx.Out](dut, g, drv, m, retx.Valid,
		cosim.Options{Cycles: r.Cycles, Batch: 1024, Repro: r.Repro()}); err != nil {
		return RetxFigures{}, err
	}
	if len(m.lat) > 0 {
		sort.Slice(m.lat, func(i, j int) bool { return m.lat[i] < m.lat[j] })
		var sum int64
		for _, l := range m.lat {
			sum += l
		}
		m.fig.Losses = int64(len(m.lat))
		m.fig.LatMin = m.lat[0]
		m.fig.LatMax = m.lat[len(m.lat)-1]
		m.fig.LatP99 = m.lat[len(m.lat)*99/100]
		m.fig.LatMean = float64(sum) / float64(len(m.lat))
	}
	return m.fig, nil
}
