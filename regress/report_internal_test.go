package regress

import (
	"bytes"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/spraynic/spraynic/config"
	"github.com/spraynic/spraynic/cosim"
)

// TestTableColumns: the regression table keeps its columns lined up whatever the lengths of the names and
// counts, with a header and the total line.
func TestTableColumns(t *testing.T) {
	cfg := config.Config{Name: "default"}
	out := func(test string, cycles int64, err error) Outcome {
		return Outcome{Req: cosim.Request{Test: test, Config: cfg, Seed: 1}, Res: cosim.Result{Cycles: cycles,
			Packets: 7}, Err: err}
	}
	table, failed := Table([]Outcome{out("rx_inorder", 20000, nil), out("nic_dir_counters", 1572880, nil),
		out("retx_dir_ctl_flush_held", 400, errors.New("mismatch"))})
	require.Equal(t, 1, failed)
	require.Equal(t, strings.Join([]string{
		"test                     config   seeds  cycles   transactions  result",
		"rx_inorder               default  1      20000    7             PASS",
		"nic_dir_counters         default  1      1572880  7             PASS",
		"retx_dir_ctl_flush_held  default  1      400      7             FAIL (1/1)",
		"2 passed, 1 failed", ""}, "\n"), table)
}

// TestReportPlural: the failure count agrees with the number of runs.
func TestReportPlural(t *testing.T) {
	rec := Record{Test: "rx_inorder", Config: "default", Seed: 1, Status: StatusFail, RequestedCycles: 10}
	var w bytes.Buffer
	err := Report(&w, Results{Suite: "smoke", Total: 1, Runs: []Record{rec}}, "", "")
	require.EqualError(t, err, "1 of 1 run failed")
	rec2 := rec
	rec2.Seed = 2
	err = Report(&w, Results{Suite: "smoke", Total: 2, Runs: []Record{rec, rec2}}, "", "")
	require.EqualError(t, err, "2 of 2 runs failed")
}

// TestProgressNotLiveOnDevNull: /dev/null is a character device but no terminal: plain lines, no rewriting.
func TestProgressNotLiveOnDevNull(t *testing.T) {
	f, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	require.NoError(t, err)
	defer f.Close()
	require.False(t, NewProgress(f, 3).live, "no live progress on /dev/null")
}
