package sweep

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/spraynic/spraynic/outfile"
	"github.com/spraynic/spraynic/system"
)

// Grid is the points of a sweep: every mode x path count x loss rate, over one base run.
type Grid struct {
	// Modes, Paths and Losses are the axes, in the order the runs are made.
	Modes  []system.Mode
	Paths  []int
	Losses []float64
}

// Runs expands the grid over base: one validated option set per point, modes outermost, losses innermost.
func (g Grid) Runs(base system.Options) ([]system.Options, error) {
	var runs []system.Options
	for _, m := range g.Modes {
		for _, n := range g.Paths {
			for _, l := range g.Losses {
				o := base
				o.Mode = m
				o.Loss = l
				o.NetPaths = n
				o.Config.Paths = n
				if err := o.Validate(); err != nil {
					return nil, fmt.Errorf("sweep point mode %s, %d paths, loss %g: %w", m, n, l, err)
				}
				runs = append(runs, o)
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
					fmt.Fprintf(log, "sweep: %d/%d done (%s, %d paths, loss %g)\n", done, len(runs), o.Mode, o.NetPaths,
						o.Loss)
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
			fmt.Fprintf(log, "sweep: note: gbn, %d paths, loss %g: %v\n", o.NetPaths, o.Loss, err)
		default:
			return nil, fmt.Errorf("sweep run mode %s, %d paths, loss %g, seed %d: %w", o.Mode, o.NetPaths, o.Loss,
				o.Seed, err)
		}
	}
	return results, nil
}

// Points are the chart and CSV points of results (goodput capped at 1).
func Points(results []*system.Result) []Point {
	pts := make([]Point, len(results))
	for i, r := range results {
		pts[i] = Point{Mode: r.Mode, Paths: r.Paths, Loss: r.Loss, Goodput: min(1, r.Goodput), P99US: r.MCTP99US,
			Retx: r.Retransmissions}
	}
	return pts
}

// Files are the outputs of a sweep; an empty name writes nothing.
type Files struct {
	// CSV, Chart (.svg or .png) and JSON (every run's figures).
	CSV, Chart, JSON string
}

// Write writes the CSV, chart and JSON of a sweep, creating their directories. Each is written to a temporary file
// beside it and all are renamed into place once every one is complete; on an error none is changed.
func Write(f Files, results []*system.Result) error {
	pts := Points(results)
	var outs []*outfile.File
	defer func() {
		for _, o := range outs {
			o.Abort()
		}
	}()
	for _, w := range []struct {
		path  string
		write func(o *outfile.File) error
	}{
		{path: f.CSV, write: func(o *outfile.File) error { return WriteCSV(o, pts) }},
		{path: f.Chart, write: func(o *outfile.File) error {
			return WriteChart(o.Name(), Chart{Title: "spraynic: goodput versus random loss",
				Caption: Caption(results), Points: pts})
		}},
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
			return err
		}
		outs = append(outs, o)
		if err := w.write(o); err != nil {
			return err
		}
	}
	for _, o := range outs {
		if err := o.Commit(); err != nil {
			return err
		}
	}
	return nil
}
