package scenario

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"
)

// spread renders min / median / max of vs in the figure's format ("-" when there are none).
func spread(f Figure, vs []float64) string {
	if len(vs) == 0 {
		return "-"
	}
	s := slices.Clone(vs)
	slices.Sort(s)
	return fmt.Sprintf("%s / %s / %s", f.format(s[0]), f.format(s[(len(s)-1)/2]), f.format(s[len(s)-1]))
}

// Write prints the report as a table: one row per scenario with the min / median / max over the seeds of each
// figure, and its verdict; then the missed targets.
func (r Report) Write(w io.Writer) error {
	fmt.Fprintf(w, "scenario set %s, seeds %v; figures are min / median / max over the seeds\n", r.Set, r.Seeds)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "scenario\tgoodput\tp99 MCT us\tp99/base\tno-RTO recovery\tspurious share\ttargets\tverdict")
	for _, row := range r.Rows {
		var p99 []float64
		for _, run := range row.Runs {
			if run.Result != nil {
				p99 = append(p99, run.Result.MCTP99US)
			}
		}
		var ts []string
		for _, t := range row.Scenario.Targets {
			ts = append(ts, t.String())
		}
		verdict := "PASS"
		if len(row.Missed) > 0 {
			verdict = fmt.Sprintf("MISS (%d)", len(row.Missed))
		}
		if len(ts) == 0 {
			verdict = "-"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", row.Scenario.Name, spread(Goodput, row.Values[Goodput]),
			spread(RecoveryUS, p99), spread(P99Ratio, row.Values[P99Ratio]), spread(NoRTO, row.Values[NoRTO]),
			spread(SpuriousShare, row.Values[SpuriousShare]), strings.Join(ts, ", "), verdict)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, row := range r.Rows {
		for _, m := range row.Missed {
			fmt.Fprintf(w, "%s: %s\n", row.Scenario.Name, m)
		}
	}
	return nil
}
