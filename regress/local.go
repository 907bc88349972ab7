package regress

import (
	"fmt"
	"io"
	"time"

	"github.com/spraynic/spraynic/cosim"
)

// LocalOptions steer a regression on this machine.
type LocalOptions struct {
	// Jobs, Timeout and StopOnFailure are those of RegressOptions.
	Jobs          int
	Timeout       time.Duration
	StopOnFailure bool
	// Shard, when set ("i/n"), runs only shard i of n of the requests.
	Shard string
	// Golden runs the golden models and scoreboards alone, without the RTL.
	Golden bool
	// FirstSeed is the suite's first seed (recorded in the results).
	FirstSeed uint64
	// Log receives model builds and the runs' own messages.
	Log io.Writer
}

// RunLocal runs the requests of suite s on this machine, printing a header and one progress line per run to w,
// and returns their results (in request order; with StopOnFailure only the runs that finished).
func RunLocal(w io.Writer, s Suite, reqs []cosim.Request, opt LocalOptions) (Results, error) {
	rs := Results{Suite: s.Name, FirstSeed: opt.FirstSeed, Total: len(reqs)}
	shard := ""
	if opt.Shard != "" {
		i, n, err := ParseShard(opt.Shard)
		if err != nil {
			return rs, fmt.Errorf("--shard: %w", err)
		}
		reqs = Shard(reqs, i, n)
		rs.Shard = fmt.Sprintf("%d/%d", i, n)
		shard = " shard=" + rs.Shard
	}
	for i := range reqs {
		reqs[i].Log = opt.Log
		reqs[i].Golden = opt.Golden
	}
	fmt.Fprintf(w, "regress suite=%s%s runs=%d first seed=%d jobs=%d timeout=%s\n", s.Name, shard, len(reqs),
		rs.FirstSeed, opt.Jobs, opt.Timeout)
	prog := NewProgress(w, len(reqs))
	outs, err := RegressWith(reqs, RegressOptions{Jobs: opt.Jobs, Timeout: opt.Timeout,
		StopOnFailure: opt.StopOnFailure, Progress: prog.Update})
	prog.Finish()
	if err != nil {
		return rs, err
	}
	for _, o := range outs {
		rs.Runs = append(rs.Runs, RecordOf(o))
	}
	if len(outs) < len(reqs) {
		fmt.Fprintf(w, "stopped on failure: %d of %d runs not started\n", len(reqs)-len(outs), len(reqs))
	}
	return rs, nil
}
