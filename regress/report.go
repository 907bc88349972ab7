package regress

import (
	"fmt"
	"io"
	"os"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spraynic/spraynic/english"
	"golang.org/x/term"
)

// Report prints the failures and the table of rs to w, writes rs as JSON to jsonFile and as JUnit XML to
// junitFile (each when not empty), and returns an error when a run did not pass.
func Report(w io.Writer, rs Results, jsonFile, junitFile string) error {
	for _, r := range rs.Runs {
		if r.Status != StatusPass {
			fmt.Fprintf(w, "\n%s %s config=%s seed=%d\n%s\n", r.Status, r.Test, r.Config, r.Seed, r.Error)
		}
	}
	table, failed := Table(rs.Outcomes())
	fmt.Fprint(w, "\n"+table)
	if jsonFile != "" {
		if err := WriteResults(jsonFile, rs); err != nil {
			return fmt.Errorf("--json: %w", err)
		}
		fmt.Fprintf(w, "results: %s\n", jsonFile)
	}
	if junitFile != "" {
		if err := WriteJUnitFile(junitFile, rs); err != nil {
			return fmt.Errorf("--junit: %w", err)
		}
		fmt.Fprintf(w, "junit: %s\n", junitFile)
	}
	if failed > 0 {
		return fmt.Errorf("%d of %s failed", failed, english.Plural(len(rs.Runs), "run"))
	}
	return nil
}

// tableRow is one (test, config) of the regression table.
type tableRow struct {
	// test and cfg name the row; seeds runs of them, pass of which passed, timeouts of which timed out.
	test, cfg             string
	seeds, pass, timeouts int
	// cycles and packets add up the runs' cycles and transactions.
	cycles, packets int64
}

// result is the row's verdict: PASS, or FAIL (failed/seeds) with the timeouts among them.
func (r tableRow) result() string {
	if r.pass == r.seeds {
		return "PASS"
	}
	res := fmt.Sprintf("FAIL (%d/%d)", r.seeds-r.pass, r.seeds)
	if r.timeouts > 0 {
		res += fmt.Sprintf(" incl. %d TIMEOUT", r.timeouts)
	}
	return res
}

// Table summarises outcomes per (test, config), in the order first seen: seeds, cycles, transactions, result;
// then the pass/fail total. It returns the table and the number of failed runs.
func Table(outs []Outcome) (string, int) {
	var rows []*tableRow
	index := map[string]*tableRow{}
	failed := 0
	for _, o := range outs {
		k := o.Req.Test + "\x00" + o.Req.Config.Name
		r, ok := index[k]
		if !ok {
			r = &tableRow{test: o.Req.Test, cfg: o.Req.Config.Name}
			index[k] = r
			rows = append(rows, r)
		}
		r.seeds++
		r.cycles += o.Res.Cycles
		r.packets += o.Res.Packets
		switch o.Verdict() {
		case StatusPass:
			r.pass++
		case StatusTimeout:
			r.timeouts++
			failed++
		default:
			failed++
		}
	}
	var b strings.Builder
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "test\tconfig\tseeds\tcycles\ttransactions\tresult")
	for _, r := range rows {
		fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%d\t%s\n", r.test, r.cfg, r.seeds, r.cycles, r.packets, r.result())
	}
	tw.Flush()
	fmt.Fprintf(&b, "%d passed, %d failed\n", len(outs)-failed, failed)
	return b.String(), failed
}

// Progress shows regression progress: on a terminal one rewritten line (done/total, failures, ETA); otherwise (or
// with CI=true) one plain line per finished run.
type Progress struct {
	// w receives the lines; live is true on a terminal.
	w    io.Writer
	live bool
	// total runs; failed so far; start of the regression.
	total  int
	failed int
	start  time.Time
}

// NewProgress returns the progress display of a regression of total runs on w.
func NewProgress(w io.Writer, total int) *Progress {
	live := false
	if f, ok := w.(*os.File); ok && os.Getenv("CI") != "true" && os.Getenv("TERM") != "dumb" {
		live = term.IsTerminal(int(f.Fd()))
	}
	return &Progress{w: w, live: live, total: total, start: time.Now()}
}

// Update shows that run o finished, the done-th of total.
func (p *Progress) Update(done, total int, o Outcome) {
	v := o.Verdict()
	if v != StatusPass {
		p.failed++
	}
	if !p.live {
		fmt.Fprintf(p.w, "[%d/%d] %s %s config=%s seed=%d %.1fs\n", done, total, v, o.Req.Test, o.Req.Config.Name,
			o.Req.Seed, o.Elapsed.Seconds())
		return
	}
	if v != StatusPass {
		fmt.Fprintf(p.w, "\r\033[K%s %s config=%s seed=%d\n", v, o.Req.Test, o.Req.Config.Name, o.Req.Seed)
	}
	el := time.Since(p.start)
	eta := time.Duration(float64(el) / float64(done) * float64(total-done)).Round(time.Second)
	fmt.Fprintf(p.w, "\r\033[K[%d/%d] %d failed, elapsed %s, ETA %s, last %s/%s/%d", done, total, p.failed,
		el.Round(time.Second), eta, o.Req.Test, o.Req.Config.Name, o.Req.Seed)
}

// Finish ends the live line.
func (p *Progress) Finish() {
	if p.live {
		fmt.Fprintln(p.w)
	}
}
