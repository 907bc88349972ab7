package sweep

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/spraynic/spraynic/english"
	"github.com/spraynic/spraynic/outfile"
	"github.com/spraynic/spraynic/system"
)

// Grid is the points of a sweep: every mode x path count x connection count x loss rate, over one base run.
type Grid struct {
	// Modes, Paths, Conns and Losses are the axes, in the order the runs are made; no Conns: the base run's
	// connections only.
	Modes  []system.Mode
	Paths  []int
	Conns  []int
	Losses []float64
}

// Runs expands the grid over base: one validated option set per point, modes outermost, then paths, then
// connections, losses innermost.
func (g Grid) Runs(base system.Options) ([]system.Options, error) {
	conns := g.Conns
	if len(conns) == 0 {
		conns = []int{base.Conns}
	}
	var runs []system.Options
	for _, m := range g.Modes {
		for _, n := range g.Paths {
			for _, c := range conns {
				for _, l := range g.Losses {
					o := base
					o.Mode = m
					o.Loss = l
					o.NetPaths = n
					o.Config.Paths = n
					o.Conns = c
					if err := o.Validate(); err != nil {
						return nil, fmt.Errorf("sweep point mode %s, %d paths, %s, loss %g: %w", m, n,
							english.Plural(c, "connection"), l, err)
					}
					runs = append(runs, o)
				}
			}
		}
	}
	return runs, nil
}

// Run runs every option set on jobs goroutines and returns the results in order; the first error wins, except
// that a go-back-N run giving up a connection is a figure of the baseline (docs/retx.md, go-back-N retries): it
// is kept, with a note to log. Unless quiet, log gets one line per finished run.
func Run(runs []system.Options, jobs int, log io.Writer, quiet bool) ([]*system.Result, error) {
	results := make([]*system.Result, len(runs))
	errs := make([]error, len(runs))
	var wg sync.WaitGroup
	next := make(chan int)
	var mu sync.Mutex
	done := 0
	for j := 0; j < jobs; j++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				results[i], errs[i] = system.Run(runs[i])
				mu.Lock()
				done++
				if !quiet {
					o := runs[i]
					fmt.Fprintf(log, "sweep: %d/%d done (%s, %d paths, %s, loss %g)\n", done, len(runs), o.Mode,
						o.NetPaths, english.Plural(o.Conns, "connection"), o.Loss)
				}
				mu.Unlock()
			}
		}()
	}
	for i := range runs {
		next <- i
	}
	close(next)
	wg.Wait()
	for i, err := range errs {
		o := runs[i]
		var lost *system.ConnLostError
		switch {
		case err == nil:
		case errors.As(err, &lost) && o.Mode == system.ModeGBN && results[i] != nil:
			fmt.Fprintf(log, "sweep: note: gbn, %d paths, %s, loss %g: %v\n", o.NetPaths,
				english.Plural(o.Conns, "connection"), o.Loss, err)
		default:
			return nil, fmt.Errorf("sweep run mode %s, %d paths, %s, loss %g, seed %d: %w", o.Mode, o.NetPaths,
				english.Plural(o.Conns, "connection"), o.Loss, o.Seed, err)
		}
	}
	return results, nil
}

// Points are the chart and CSV points of results (goodput capped at 1).
func Points(results []*system.Result) []Point {
	pts := make([]Point, len(results))
	for i, r := range results {
		pts[i] = Point{Mode: r.Mode, Paths: r.Paths, Conns: r.Conns, Loss: r.Loss, Goodput: min(1, r.Goodput),
			P50US: r.MCTP50US, P99US: r.MCTP99US, P999US: r.MCTP999US, Retx: r.Retransmissions, Spurious: r.Spurious}
	}
	return pts
}

// Files are the outputs of a sweep; an empty name writes nothing.
type Files struct {
	// CSV, JSON (every run's figures) and the charts (.svg or .png): Chart goodput and Tail p99 against loss,
	// Conns goodput and p99 against connections (written only when the sweep has more than one count).
	CSV, JSON, Chart, Tail, Conns string
}

// The titles of the charts.
const (
	goodputTitle = "spraynic: goodput versus random loss"
	tailTitle    = "spraynic: p99 MCT versus random loss"
	connsTitle   = "spraynic: goodput, p99 MCT vs connections"
)

// Write writes the CSV, charts and JSON of a sweep, creating their directories, and returns the names it wrote.
// Each is written to a temporary file beside it and all are renamed into place once every one is complete; on an
// error none is changed.
func Write(f Files, results []*system.Result) ([]string, error) {
	pts := Points(results)
	ch := Chart{Caption: Caption(results), Points: pts}
	if len(results) > 0 {
		ch.MTU = results[0].MTU
	}
	withTitle := func(title string) Chart {
		c := ch
		c.Title = title
		return c
	}
	conns := f.Conns
	if len(distinct(pts, func(pt Point) int { return pt.Conns })) < 2 {
		conns = ""
	}
	var outs []*outfile.File
	defer func() {
		for _, o := range outs {
			o.Abort()
		}
	}()
	var names []string
	for _, w := range []struct {
		path  string
		write func(o *outfile.File) error
	}{
		{path: f.CSV, write: func(o *outfile.File) error { return WriteCSV(o, pts) }},
		{path: f.Chart, write: func(o *outfile.File) error { return WriteChart(o.Name(), withTitle(goodputTitle)) }},
		{path: f.Tail, write: func(o *outfile.File) error { return WriteTailChart(o.Name(), withTitle(tailTitle)) }},
		{path: conns, write: func(o *outfile.File) error { return WriteConnsChart(o.Name(), withTitle(connsTitle)) }},
		{path: f.JSON, write: func(o *outfile.File) error {
			b, err := json.MarshalIndent(results, "", "  ")
			if err == nil {
				_, err = o.Write(append(b, '\n'))
			}
			return err
		}},
	} {
		if w.path == "" {
			continue
		}
		o, err := outfile.Create(w.path)
		if err != nil {
			return nil, err
		}
		outs = append(outs, o)
		if err := w.write(o); err != nil {
			return nil, err
		}
		names = append(names, w.path)
	}
	for _, o := range outs {
		if err := o.Commit(); err != nil {
			return nil, err
		}
	}
	return names, nil
}
