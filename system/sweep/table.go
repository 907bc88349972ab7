package sweep

import (
	"fmt"
	"io"
	"strconv"
	"text/tabwriter"

	"github.com/spraynic/spraynic/system"
)

// tableColumns are the headings of WriteTable: the CSV's columns in percent and microseconds, and the lossless
// goodput beside the goodput.
var tableColumns = []string{"mode", "paths", "conns", "loss%", "goodput%", "lossless%", "p50_us", "p99_us",
	"p99.9_us", "retx", "spurious"}

// WriteTable prints one row per run, in the order of results: its axes and figures as the CSV has them (loss and
// goodput in percent), and the lossless goodput at its loss, (1 - loss) x system.MaxGoodput at its MTU.
func WriteTable(w io.Writer, results []*system.Result) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	for _, h := range tableColumns {
		fmt.Fprintf(tw, "%s\t", h)
	}
	fmt.Fprintln(tw)
	pct := func(v float64) string { return strconv.FormatFloat(100*v, 'f', 2, 64) }
	us := func(v float64) string { return strconv.FormatFloat(v, 'f', 1, 64) }
	for i, r := range results {
		p := Points(results[i : i+1])[0]
		fmt.Fprintf(tw, "%s\t%d\t%d\t%s\t%s\t%s\t%s\t%s\t%s\t%d\t%d\t\n", p.Mode, p.Paths, p.Conns, pct(p.Loss),
			pct(p.Goodput), pct((1-p.Loss)*system.MaxGoodput(r.MTU)), us(p.P50US), us(p.P99US), us(p.P999US), p.Retx,
			p.Spurious)
	}
	return tw.Flush()
}
