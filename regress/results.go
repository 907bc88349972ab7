package regress

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"sort"
	"time"

	"github.com/spraynic/spraynic/config"
	"github.com/spraynic/spraynic/cosim"
	"github.com/spraynic/spraynic/outfile"
)

// Record is one run in a results file (--json): everything needed to judge, report and reproduce it.
type Record struct {
	// Test, Config, Seed and RequestedCycles identify the run (Config is a preset name or a config file).
	Test            string `json:"test"`
	Config          string `json:"config"`
	Seed            uint64 `json:"seed"`
	RequestedCycles int64  `json:"requested_cycles"`
	// Cycles simulated, Transactions counted, Detail the block's further counts.
	Cycles       int64  `json:"cycles"`
	Transactions int64  `json:"transactions"`
	Detail       string `json:"detail,omitempty"`
	// Status is PASS, FAIL, PANIC or TIMEOUT; Error the failure text (with the reproduce command).
	Status Status `json:"status"`
	Error  string `json:"error,omitempty"`
	// Repro is the command that reproduces the run; Seconds its wall-clock time.
	Repro   string  `json:"repro"`
	Seconds float64 `json:"seconds"`
}

// Key identifies the run of a record: test/config/seed/cycles.
func (r Record) Key() string {
	return fmt.Sprintf("%s/%s/%d/%d", r.Test, r.Config, r.Seed, r.RequestedCycles)
}

// Results is a results file: the runs of one suite, or of one shard of it.
type Results struct {
	// Suite names the suite; FirstSeed its first seed; Shard "i/n" or "" for the whole suite.
	Suite     string `json:"suite"`
	FirstSeed uint64 `json:"first_seed"`
	Shard     string `json:"shard,omitempty"`
	// Total is the number of runs of the whole (unsharded) suite.
	Total int `json:"total"`
	// Runs are the outcomes, in suite order.
	Runs []Record `json:"runs"`
}

// RecordOf converts an outcome.
func RecordOf(o Outcome) Record {
	r := Record{Test: o.Req.Test, Config: o.Req.Config.Name, Seed: o.Req.Seed, RequestedCycles: o.Req.Cycles,
		Cycles: o.Res.Cycles, Transactions: o.Res.Packets, Detail: o.Res.Detail, Status: o.Verdict(),
		Repro: o.Req.Repro(), Seconds: o.Elapsed.Seconds()}
	if o.Err != nil {
		r.Error = o.Err.Error()
	}
	return r
}

// Outcome converts a record back (for tables): the config carries only its name.
func (r Record) Outcome() Outcome {
	o := Outcome{
		Req: cosim.Request{Test: r.Test, Config: config.Config{Name: r.Config}, Seed: r.Seed,
			Cycles: r.RequestedCycles},
		Res: cosim.Result{Cycles: r.Cycles, Packets: r.Transactions, Detail: r.Detail}, Status: r.Status,
		Elapsed: time.Duration(r.Seconds * float64(time.Second))}
	if r.Error != "" {
		o.Err = errors.New(r.Error)
	}
	return o
}

// Outcomes converts every record.
func (rs Results) Outcomes() []Outcome {
	var os []Outcome
	for _, r := range rs.Runs {
		os = append(os, r.Outcome())
	}
	return os
}

// Failed counts the runs that did not pass.
func (rs Results) Failed() int {
	n := 0
	for _, r := range rs.Runs {
		if r.Status != StatusPass {
			n++
		}
	}
	return n
}

// WriteResults writes rs as indented JSON to file.
func WriteResults(file string, rs Results) error {
	b, err := json.MarshalIndent(rs, "", "  ")
	if err != nil {
		return err
	}
	return outfile.WriteFile(file, append(b, '\n'))
}

var statuses = map[Status]bool{StatusPass: true, StatusFail: true, StatusPanic: true, StatusTimeout: true}

// ReadResults reads and checks a results file: every run must name a test, a config, a known status and a
// positive requested length, and no run may appear twice.
func ReadResults(file string) (Results, error) {
	var rs Results
	b, err := os.ReadFile(file)
	if err != nil {
		return rs, fmt.Errorf("results: %w", err)
	}
	if err := json.Unmarshal(b, &rs); err != nil {
		return rs, fmt.Errorf("results %s: not a spraynic results file: %w", file, err)
	}
	if rs.Suite == "" {
		return rs, fmt.Errorf("results %s: field suite: empty (not a spraynic regress --json file?)", file)
	}
	if rs.Total < len(rs.Runs) {
		return rs, fmt.Errorf("results %s: field total: %d is less than the %d runs listed", file, rs.Total,
			len(rs.Runs))
	}
	seen := map[string]bool{}
	for i, r := range rs.Runs {
		switch {
		case r.Test == "":
			return rs, fmt.Errorf("results %s: runs[%d]: field test: empty", file, i)
		case r.Config == "":
			return rs, fmt.Errorf("results %s: runs[%d]: field config: empty", file, i)
		case !statuses[r.Status]:
			return rs, fmt.Errorf("results %s: runs[%d]: field status: value %q (allowed: PASS, FAIL, PANIC, TIMEOUT)",
				file, i, r.Status)
		case r.RequestedCycles <= 0:
			return rs, fmt.Errorf("results %s: runs[%d]: field requested_cycles: value %d (allowed: > 0)", file, i,
				r.RequestedCycles)
		case seen[r.Key()]:
			return rs, fmt.Errorf("results %s: runs[%d]: run %s appears twice", file, i, r.Key())
		}
		seen[r.Key()] = true
	}
	return rs, nil
}

// Merge combines the results of the shards of one suite. The inputs must be shards i/n of the same suite, first
// seed and total, with the same n, each shard once; runs must not overlap. With all n shards present the runs must
// add up to the total. The merged runs are sorted by test, config, seed.
func Merge(parts []Results, names []string) (Results, error) {
	if len(parts) == 0 {
		return Results{}, errors.New("merge: no results files")
	}
	first := parts[0]
	out := Results{Suite: first.Suite, FirstSeed: first.FirstSeed, Total: first.Total}
	var n int
	shards := map[int]string{}
	seen := map[string]string{}
	for k, p := range parts {
		name := names[k]
		if p.Suite != first.Suite || p.FirstSeed != first.FirstSeed || p.Total != first.Total {
			return Results{}, fmt.Errorf(
				"merge: %s is suite %s first seed %d total %d, but %s is suite %s first seed %d total %d", name,
				p.Suite, p.FirstSeed, p.Total, names[0], first.Suite, first.FirstSeed, first.Total)
		}
		i, pn := 1, 1
		if p.Shard != "" {
			var err error
			if i, pn, err = ParseShard(p.Shard); err != nil {
				return Results{}, fmt.Errorf("merge: %s: %w", name, err)
			}
		}
		if k == 0 {
			n = pn
		} else if pn != n {
			return Results{}, fmt.Errorf("merge: %s is shard %s, but %s has %d shards", name, p.Shard, names[0], n)
		}
		if other, ok := shards[i]; ok {
			return Results{}, fmt.Errorf("merge: %s and %s are both shard %d/%d", other, name, i, n)
		}
		shards[i] = name
		for _, r := range p.Runs {
			if other, ok := seen[r.Key()]; ok {
				return Results{}, fmt.Errorf("merge: run %s is in both %s and %s", r.Key(), other, name)
			}
			seen[r.Key()] = name
			out.Runs = append(out.Runs, r)
		}
	}
	if len(shards) == n && len(out.Runs) != out.Total {
		return Results{}, fmt.Errorf("merge: all %d shards hold %d runs, but the suite has %d "+
			"(a shard did not finish?)", n, len(out.Runs), out.Total)
	}
	if len(shards) != n {
		out.Shard = fmt.Sprintf("%d of %d shards", len(shards), n)
	}
	sort.SliceStable(out.Runs, func(a, b int) bool {
		x, y := out.Runs[a], out.Runs[b]
		if x.Test != y.Test {
			return x.Test < y.Test
		}
		if x.Config != y.Config {
			return x.Config < y.Config
		}
		return x.Seed < y.Seed
	})
	return out, nil
}
