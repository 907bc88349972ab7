package cosim

import (
	"fmt"
	"sort"

	"github.com/spraynic/spraynic/cosim/scoreboard"
	"github.com/spraynic/spraynic/golden/pathsel"
	"github.com/spraynic/spraynic/golden/rxreorder"
	"github.com/spraynic/spraynic/stimulus/pathtraffic"
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
	return fmt.Sprintf("%-16s %-8s offered %7d taken %7d  %.4f pkt/cycle  release latency min %d mean %.1f p99 %d max %d",
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
func MeasureRx(r Request) (RxFigures, error) {
	prof, err := rxtraffic.Lookup(r.Test[len("rx_"):])
	if err != nil {
		return RxFigures{}, err
	}
	dut, err := plainDUT(&r)
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
	m := &rxMeasure{sb: scoreboard.NewRx(r.Config), takenAt: map[[2]uint32]int64{}, fig: RxFigures{Test: r.Test, Config: r.Config.Name}}
	if _, err := Lockstep[rxreorder.In, rxreorder.Out](dut, g, drv, m, rxreorder.Valid,
		Options{Cycles: r.Cycles, Batch: 1024, Repro: r.Repro()}); err != nil {
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
	m.fig.LatMin, m.fig.LatMax = m.lat[0], m.lat[len(m.lat)-1]
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
	return fmt.Sprintf("%-16s %-8s %.4f decisions/cycle  decisions per path from cycle %d: congested link %.0f, healthy %.0f (ratio %.2f)",
		f.Test, f.Config, float64(f.Taken)/float64(max(1, f.Offered)), f.From, f.OnCongested, f.OnHealthy, f.OnCongested/max(1, f.OnHealthy))
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
func MeasurePathSel(r Request) (PathFigures, error) {
	r.Test = "path_congested"
	prof, err := pathtraffic.Lookup("congested")
	if err != nil {
		return PathFigures{}, err
	}
	dut, err := plainDUT(&r)
	if err != nil {
		return PathFigures{}, err
	}
	defer dut.Close()
	g, err := pathsel.New(r.Config)
	if err != nil {
		return PathFigures{}, err
	}
	drv := pathtraffic.New(r.Config, prof, r.Seed, r.Cycles)
	m := &pathMeasure{sb: scoreboard.NewPathSel(r.Config, false), drv: drv, cong: map[[2]uint32]bool{}, per: map[[2]uint32]int64{},
		fig: PathFigures{Test: r.Test, Config: r.Config.Name, From: prof.Cycles / 4}}
	if _, err := Lockstep[pathsel.In, pathsel.Out](dut, g, drv, m, pathsel.Valid, Options{Cycles: r.Cycles, Batch: 1024, Repro: r.Repro()}); err != nil {
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
		return m.fig, fmt.Errorf("measure %s: need paths on both the congested and healthy links (got %v/%v)", r.Test, nc, nh)
	}
	m.fig.OnCongested, m.fig.OnHealthy = sc/nc, sh/nh
	return m.fig, nil
}
