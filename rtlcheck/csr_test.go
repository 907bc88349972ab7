package rtlcheck_test

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/spraynic/spraynic/config"
	"github.com/spraynic/spraynic/golden/nicrocecsr"
	"github.com/spraynic/spraynic/regmap"
)

// csrPresets are the presets TestNicRoCECSR runs.
var csrPresets = []string{"ice40", "default", "u250"}

// csrStep is the inputs of one cycle of nic_roce_csr_tb: the block's inputs, and one word of cnt_in and of
// conn_info written before the cycle (the testbench keeps the buses).
type csrStep struct {
	in              nicrocecsr.In
	cntWE, infoWE   bool
	cntIdx, infoIdx int
	cntVal, infoVal uint32
}

// line is the testbench's input line of s.
func (s csrStep) line() string {
	b := func(v bool) int {
		if v {
			return 1
		}
		return 0
	}
	in := s.in
	return fmt.Sprintf("%x %x %x %x %x %x %x %x %x %x %x %x %x %x %x %x %x %x %x %x %x %x\n", b(in.Rst),
		b(in.AWValid), in.AWAddr, b(in.WValid), in.WData, in.WStrb, b(in.BReady), b(in.ARValid), in.ARAddr,
		b(in.RReady), b(in.ErrValid), in.ErrConn, in.EvSet, b(s.cntWE), s.cntIdx, s.cntVal, b(s.infoWE),
		s.infoIdx, s.infoVal, in.PathStatus, in.PathEntropy, in.PathCounts)
}

// csrOutNames names the fields of an output line, in the testbench's order.
var csrOutNames = strings.Fields("awready wready bvalid bresp arready rvalid rdata rresp cfg_enable " +
	"cfg_local_mac cfg_local_ip cfg_dscp cfg_ttl cmd_valid cmd_open cmd_conn cmd_peer_mac cmd_mac_check " +
	"cmd_peer_ip cmd_peer_qpn cmd_tx_psn cmd_rx_psn conn_state cnt_clear path_conn path_path irq")

// outLine formats o as the testbench prints the outputs (%h: zero-padded to the port width).
func outLine(p nicrocecsr.Params, o nicrocecsr.Out) string {
	cw, pw := (config.Log2(p.Conns)+3)/4, (config.Log2(p.Paths)+3)/4
	b := func(v bool) string {
		if v {
			return "1"
		}
		return "0"
	}
	var st strings.Builder
	for k := p.Conns/2 - 1; k >= 0; k-- {
		fmt.Fprintf(&st, "%x", o.ConnState[2*k]|o.ConnState[2*k+1]<<2)
	}
	c := o.Cmd
	f := []string{b(o.AWReady), b(o.WReady), b(o.BValid), fmt.Sprintf("%x", o.BResp), b(o.ARReady), b(o.RValid),
		fmt.Sprintf("%08x", o.RData), fmt.Sprintf("%x", o.RResp), b(o.Enable), fmt.Sprintf("%012x", o.LocalMAC),
		fmt.Sprintf("%08x", o.LocalIP), fmt.Sprintf("%02x", o.DSCP), fmt.Sprintf("%02x", o.TTL), b(o.CmdValid),
		b(c.Open), fmt.Sprintf("%0*x", cw, c.Conn), fmt.Sprintf("%012x", c.PeerMAC), b(c.MACCheck),
		fmt.Sprintf("%08x", c.PeerIP), fmt.Sprintf("%06x", c.PeerQPN), fmt.Sprintf("%06x", c.TxPSN),
		fmt.Sprintf("%06x", c.RxPSN), st.String(), b(o.CntClear), fmt.Sprintf("%0*x", cw, o.PathConn),
		fmt.Sprintf("%0*x", pw, o.PathPath), b(o.IRQ)}
	return strings.Join(f, " ")
}

// csrParams returns the nic_roce_csr parameters of preset name.
func csrParams(t *testing.T, name string) nicrocecsr.Params {
	cfg, err := config.Preset(name)
	require.NoError(t, err)
	return nicrocecsr.Params{Conns: cfg.Conns, Paths: cfg.Paths, MTU: cfg.MTU, DataWidth: cfg.DataWidth}
}

// buildCSR builds nic_roce_csr_tb for p with Verilator and returns the binary.
func buildCSR(t *testing.T, root string, p nicrocecsr.Params) string {
	return buildTB(t, tbBuild{root: root, tb: "nic_roce_csr_tb", block: "nic_roce_csr", incRTL: true,
		params: []tbParam{{name: "CONNS", val: p.Conns}, {name: "PATHS", val: p.Paths}, {name: "MTU", val: p.MTU},
			{name: "DATA_WIDTH", val: p.DataWidth}}, dir: t.TempDir()})
}

// runCSR runs the testbench on steps and returns its output lines, one per step.
func runCSR(t *testing.T, bin string, steps []csrStep) []string {
	dir := t.TempDir()
	in, out := filepath.Join(dir, "in.hex"), filepath.Join(dir, "out.hex")
	var sb strings.Builder
	for _, s := range steps {
		sb.WriteString(s.line())
	}
	require.NoError(t, os.WriteFile(in, []byte(sb.String()), 0o644))
	msg, err := exec.Command("nice", "-n", "10", bin, "+in="+in, "+out="+out).CombinedOutput()
	require.NoError(t, err, "testbench:\n%s", msg)
	f, err := os.Open(out)
	require.NoError(t, err)
	defer f.Close()
	var lines []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		lines = append(lines, sc.Text())
	}
	require.NoError(t, sc.Err())
	require.GreaterOrEqual(t, len(lines), len(steps), "testbench output lines:\n%s", msg)
	return lines[:len(steps)]
}

// diffFields names the fields where two output lines differ.
func diffFields(want, got string) string {
	w, g := strings.Fields(want), strings.Fields(got)
	var d []string
	for i := range w {
		if i >= len(g) || w[i] != g[i] {
			gv := ""
			if i < len(g) {
				gv = g[i]
			}
			d = append(d, fmt.Sprintf("%s: twin %s, RTL %s", csrOutNames[i], w[i], gv))
		}
	}
	return strings.Join(d, "; ")
}

// TestNicRoCECSR checks rtl/nic_roce_csr.v on the ice40, default and u250 presets: seeded random AXI4-Lite
// traffic compared with the twin golden/nicrocecsr every cycle (every output), and a directed check of the
// map's rules derived from package regmap alone (not from the twin).
func TestNicRoCECSR(t *testing.T) {
	root, sd := setup(t, "verilator")
	m := regmap.NicRoCE()
	for pi, name := range csrPresets {
		t.Run(name, func(t *testing.T) {
			p := csrParams(t, name)
			t0 := time.Now()
			bin := buildCSR(t, root, p)
			built := time.Since(t0)
			ops := csrDirected(t, &m, p)
			checkDirected(t, p, ops, runCSR(t, bin, directedSteps(p, ops)))
			fmt.Printf("rtlcheck: TestNicRoCECSR %s directed: %d transactions\n", name, len(ops))
			steps, want, counts := csrRandom(t, p, sd, uint64(pi))
			got := runCSR(t, bin, steps)
			for i := range want {
				if want[i] != got[i] {
					t.Fatalf("cycle %d: %s\ntwin %s\nRTL  %s\n(SEED=%d go test ./rtlcheck -run TestNicRoCECSR/%s)",
						i, diffFields(want[i], got[i]), want[i], got[i], sd, name)
				}
			}
			fmt.Printf("rtlcheck: TestNicRoCECSR %s random: %d cycles, %v; build %v, run %v\n", name,
				len(steps), counts, built.Round(time.Second), (time.Since(t0) - built).Round(time.Second))
		})
	}
}
