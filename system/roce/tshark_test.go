package roce

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// tsharkFields are the Wireshark fields compared with what was written (tshark -G fields | grep infiniband).
var tsharkFields = []string{"udp.srcport", "udp.dstport", "ip.dsfield.ecn", "infiniband.bth.opcode",
	"infiniband.bth.p_key", "infiniband.bth.destqp", "infiniband.bth.a", "infiniband.bth.psn", "infiniband.bth.padcnt",
	"infiniband.aeth.syndrome", "infiniband.aeth.msn", "infiniband.invariant.crc"}

// TestTshark writes data and ACK frames to a pcap with pcapgo and checks that Wireshark's RoCEv2 (infiniband)
// dissector reads the same BTH/AETH fields.
func TestTshark(t *testing.T) {
	if _, err := exec.LookPath("tshark"); err != nil {
		t.Skip("tshark not installed (make deps)")
	}
	r := rand.New(rand.NewPCG(17, 18))
	var frames [][]byte
	var want []string
	boolStr := func(b bool) string {
		if b {
			return "1"
		}
		return "0"
	}
	for i := 0; i < 8; i++ {
		d := randData(r)
		d.ECN = ECNECT0
		if i == 0 {
			d.PSN, d.DestQP = Max24, Max24-1
		}
		f, err := BuildData(&d)
		require.NoError(t, err)
		p, err := Parse(f)
		require.NoError(t, err)
		frames = append(frames, f)
		want = append(want, strings.Join([]string{fmt.Sprint(d.SrcPort), "4791", fmt.Sprint(d.ECN), "4",
			fmt.Sprint(d.PKey), fmt.Sprintf("0x%06x", d.DestQP), boolStr(d.AckReq), fmt.Sprint(d.PSN),
			fmt.Sprint(-len(d.Payload) & 3), "", "", fmt.Sprintf("0x%08x", swap32(p.ICRC))}, "\t"))

		a := randAck(r)
		a.ECN = ECNCE
		f, err = BuildAck(&a)
		require.NoError(t, err)
		p, err = Parse(f)
		require.NoError(t, err)
		frames = append(frames, f)
		psn, syn := (a.CumPSN-1)&Max24, SyndromeACK
		if a.NAK {
			psn, syn = a.CumPSN, SyndromeNAKSeq
		}
		// Wireshark 4.0 stops after the AETH of an Acknowledge: it shows the SACK extension and ICRC as no field.
		want = append(want, strings.Join([]string{fmt.Sprint(a.SrcPort), "4791", "3", "17",
			fmt.Sprint(a.PKey), fmt.Sprintf("0x%06x", a.DestQP), "0", fmt.Sprint(psn), "0", fmt.Sprint(syn),
			fmt.Sprint(a.MSN), ""}, "\t"))
	}
	dir := t.TempDir()
	file := filepath.Join(dir, "roce.pcap")
	var buf bytes.Buffer
	require.NoError(t, WritePcap(&buf, frames, nil))
	require.NoError(t, os.WriteFile(file, buf.Bytes(), 0o644))
	args := []string{"-n", "-r", file, "-T", "fields", "-E", "separator=/t"}
	for _, f := range tsharkFields {
		args = append(args, "-e", f)
	}
	cmd := exec.Command("tshark", args...)
	cmd.Env = append(os.Environ(), "HOME="+dir) // no user profile
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	require.NoError(t, err, stderr.String())
	got := strings.Split(strings.TrimRight(string(out), "\n"), "\n")
	t.Logf("tshark %s\n%s", strings.Join(tsharkFields, " "), out)
	require.Equal(t, want, got)
}

// swap32 reverses the bytes of v: Wireshark shows the ICRC's wire bytes read big-endian.
func swap32(v uint32) uint32 { return v>>24 | v>>8&0xFF00 | v<<8&0xFF0000 | v<<24 }
