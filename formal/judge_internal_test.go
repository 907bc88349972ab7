package formal

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestJudge reads yosys-smtbmc outputs into verdicts: no solver needed.
func TestJudge(t *testing.T) {
	tests := []struct {
		name    string
		method  Method
		out     string
		verdict Verdict
		detail  string
	}{
		{name: "bmc pass", method: MethodBMC, verdict: Bounded,
			out: "##   0:00:00  Checking assertions in step 1..\n##   0:00:05  Status: PASSED\n"},
		{name: "bmc fail", method: MethodBMC, verdict: Failed, detail: "step 3: rx_accept_window",
			out: "##   0:00:00  Checking assertions in step 3..\n##   0:00:01  BMC failed!\n" +
				"##   0:00:01  Assert failed in rx_reorder: rx_accept_window\n##   0:00:01  Status: FAILED\n"},
		{name: "induction pass", method: MethodInduction, verdict: Proved,
			out: "##   0:00:00  Trying induction in step 2..\n##   0:00:00  Temporal induction successful.\n" +
				"##   0:00:00  Status: PASSED\n"},
		{name: "induction fail", method: MethodInduction, verdict: Unknown, detail: "induction step fails rx_head",
			out: "##   0:00:00  Trying induction in step 2..\n##   0:00:01  Assert failed in rx_reorder: rx_head\n" +
				"##   0:00:01  Status: FAILED\n"},
		{name: "cover unreached", method: MethodCover, verdict: Unreached, detail: "c_ram_read",
			out: "##   0:00:00  Checking cover reachability in step 3..\n" +
				"##   0:00:00  Unreached cover statement at c_ram_read.\n##   0:00:00  Status: FAILED\n"},
		{name: "cover reached", method: MethodCover, verdict: Reached,
			out: "##   0:00:00  Reached cover statement at c_ram_read in step 2.\n##   0:00:00  Status: PASSED\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := Result{Method: tt.method}
			judge(&r, tt.out)
			require.Equal(t, tt.verdict, r.Verdict, "verdict of %q", tt.out)
			require.Equal(t, tt.detail, r.Detail, "detail of %q", tt.out)
		})
	}
}
