package cosim_test

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/google/gopacket/layers"
	"github.com/stretchr/testify/require"

	"github.com/spraynic/spraynic/config"
	"github.com/spraynic/spraynic/cosim"
	"github.com/spraynic/spraynic/system"
	"github.com/spraynic/spraynic/system/roce"
	"github.com/spraynic/spraynic/testseed"
)

// simCapture returns the capture, named name, of a short simulation of cfg in mode at 5% loss (both directions:
// data and ACKs; in go-back-N mode NAKs too).
func simCapture(t *testing.T, cfg config.Config, mode system.Mode, sd uint64, name string) *roce.Capture {
	var buf bytes.Buffer
	_, err := system.Run(system.Options{Config: cfg, Mode: mode, Seed: sd, DurationUS: 3, DrainUS: 20, Loss: 0.05,
		Msg: "fixed:1500", Capture: &buf})
	require.NoError(t, err)
	c, err := roce.ReadCapture(name, &buf)
	require.NoError(t, err)
	require.Nil(t, c.Cut)
	return c
}

// corrupt returns a capture of frames from good, each changed at random: one bit flipped, cut short, an ICRC
// byte changed, or left as it is; then three frames edited with their checksums fixed (a QPN beyond the
// configuration, an unknown opcode, TCP), a runt of one byte and a frame cut by the snap length (not fed).
func corrupt(r *rand.Rand, good *roce.Capture) *roce.Capture {
	c := &roce.Capture{Name: "corrupt.pcap", Format: "pcap"}
	add := func(b []byte) {
		c.Frames = append(c.Frames, roce.CapturedFrame{Data: b, Length: len(b), LinkType: layers.LinkTypeEthernet})
	}
	for _, f := range good.Frames {
		b := append([]byte(nil), f.Data...)
		switch r.IntN(4) {
		case 0:
			b[r.IntN(len(b))] ^= 1 << r.IntN(8)
		case 1:
			b = b[:1+r.IntN(len(b)-1)]
		case 2:
			b[len(b)-1-r.IntN(4)] ^= byte(1 + r.IntN(255))
		}
		add(b)
	}
	edits := []func(b []byte){
		func(b []byte) { b[47], b[48], b[49] = 0, 1, 0x10 }, // QPN 272: beyond the 16 connections (limit)
		func(b []byte) { b[42] = 0x0a },                     // opcode RC RDMA WRITE (unknown opcode)
		func(b []byte) { b[23] = 6 },                        // TCP (not RoCEv2)
	}
	for i, e := range edits {
		b := append([]byte(nil), good.Frames[i].Data...)
		e(b)
		if roce.FixChecksums(b) == nil {
			add(b)
		}
	}
	add([]byte{0x5a})
	snap := append([]byte(nil), good.Frames[0].Data[:60]...)
	c.Frames = append(c.Frames, roce.CapturedFrame{Data: snap, Length: len(good.Frames[0].Data),
		LinkType: layers.LinkTypeEthernet})
	return c
}

// goVerdicts counts the verdicts roce.Parse gives the Ethernet frames of c, in the order of cosim.RXVerdicts.
func goVerdicts(t *testing.T, lim roce.Limits, c *roce.Capture) (cnt [len(cosim.RXVerdicts)]uint32) {
	for i := range c.Frames {
		f := &c.Frames[i]
		if f.Check() != nil {
			continue
		}
		k := cosim.RXVerdict(lim.Parse(f.Data))
		require.GreaterOrEqual(t, k, 0, "frame %d: an error of no counter", i+1)
		cnt[k]++
	}
	return cnt
}

// TestFrameReplay replays a simulation capture, one in go-back-N mode (with NAKs) and a corrupted copy of the
// first (bit flips, cut frames, bad ICRCs, edited fields, a runt, a frame cut by the snap length) into the roce_rx
// of the default preset (256 bits) and requires no mismatch and the verdict counts of roce.Parse.
func TestFrameReplay(t *testing.T) {
	sd := testseed.Seed(t)
	fmt.Printf("cosim: TestFrameReplay seed=%d (SEED=N to change)\n", sd)
	if _, err := exec.LookPath("verilator"); err != nil {
		t.Skip("verilator not installed (make deps)")
	}
	cfg, err := config.Preset("default")
	require.NoError(t, err)
	good := simCapture(t, cfg, system.ModeSpray, sd, "spray.pcap")
	gbn := simCapture(t, cfg, system.ModeGBN, sd, "gbn.pcap")
	bad := corrupt(rand.New(rand.NewPCG(sd, 0xf4a3)), good)
	lim := roce.LimitsFor(cfg, cfg.MTU)
	naks := 0
	for _, f := range gbn.Frames {
		if p, err := lim.Parse(f.Data); err == nil && p.IsAck() && p.Ack.NAK {
			naks++
		}
	}
	require.Positive(t, naks, "the go-back-N capture has NAKs")
	for _, c := range []*roce.Capture{good, gbn, bad} {
		res, err := cosim.FrameReplay(root(t), cfg, c, os.Stderr)
		require.NoError(t, err)
		var out strings.Builder
		res.Print(&out, c.Name, cfg.Name, 5)
		fmt.Print(out.String())
		require.NoError(t, res.Err(c.Name), "seed %d", sd)
		require.Equal(t, goVerdicts(t, lim, c), res.Verdicts, "%s: verdicts (%v)", c.Name, cosim.RXVerdicts)
		require.Equal(t, len(c.Frames), res.Fed+len(res.NotFed))
	}
	require.Len(t, good.Frames, int(goVerdicts(t, lim, good)[0]+goVerdicts(t, lim, good)[1]), "every frame good")
	v := goVerdicts(t, lim, bad)
	for _, k := range []int{0, 1, 2, 3, 4, 5, 6, 7} { // every counter but mac_error
		require.Positive(t, v[k], "the corrupt capture has frames of verdict %s", cosim.RXVerdicts[k])
	}
}
