package cosim_test

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/spraynic/spraynic/cosim"
	"github.com/spraynic/spraynic/system"
	"github.com/spraynic/spraynic/system/roce"
	"github.com/spraynic/spraynic/testseed"
)

// TestSimFrames runs the frame-level end-to-end mode (docs/e2e_frames.md) briefly with every fault it carries:
// both directions, loss, a slow path with ECN marks, a failed path and a link that corrupts frames. SimFrames
// checks the lockstep, the transfer scoreboard, memory and counters; the test checks that each fault happened,
// the figures add up, and that the capture holds every frame, each one parsing (ICRC included).
func TestSimFrames(t *testing.T) {
	sd := testseed.Seed(t)
	fmt.Printf("cosim: TestSimFrames seed=%d (SEED=N to change)\n", sd)
	cfg, _ := nicRoCEModel(t)
	var capture bytes.Buffer
	o := system.Options{Config: cfg, Conns: 3, Msg: "uniform:1000:20000", Loss: 0.05, Bidir: true,
		Slow: []system.SlowPath{{Path: 0, Gbps: 8}}, ECNKB: 4, Failures: []system.Failure{{Path: 1, AtUS: 3}},
		DurationUS: 10, Seed: sd, Capture: &capture}
	r, st, err := cosim.SimFrames(cosim.FrameSimOptions{Root: root(t), Sim: o, Corrupt: 0.05,
		Cache: os.Getenv("SPRAYNIC_CACHE"),
		Repro: fmt.Sprintf("SEED=%d go test ./cosim -run 'TestSimFrames$' -count=1", sd)})
	require.NoError(t, err, "seed %d", sd)
	t.Logf("%d frames (%d lost, %d marked, %d corrupted), %d messages, goodput %.1f%% / %.1f%%, %d cycles",
		st.Frames, st.Lost, st.Marked, st.Corrupted, r.Messages, 100*r.Goodput, 100*r.GoodputBA, r.Cycles)
	require.Len(t, st.Sides, 2)
	require.Equal(t, st.Sides[0].Cycles, r.Cycles)
	require.Positive(t, st.Lost, "frames lost")
	require.Positive(t, st.Marked, "frames CE-marked")
	require.Positive(t, st.Corrupted, "frames corrupted")
	require.GreaterOrEqual(t, r.Messages, int64(2*3*4), "at least the first backlog of each connection, both ways")
	require.Positive(t, r.Goodput)
	require.Positive(t, r.GoodputBA)
	require.Equal(t, r.DataPackets+r.AckPackets, int64(st.Frames), "counters against the frames sent")
	require.Positive(t, r.Retransmissions)
	require.Positive(t, r.MCTP50US)
	pcap := bytes.Clone(capture.Bytes())
	frames, stamps, err := roce.ReadPcap(&capture)
	require.NoError(t, err)
	require.Len(t, frames, st.Frames)
	require.Len(t, stamps, st.Frames)
	for i, f := range frames {
		_, err := roce.Parse(f)
		require.NoError(t, err, "captured frame %d", i)
	}
	tsharkDecodes(t, pcap, st.Frames)
}

// tsharkDecodes checks, when tshark is installed, that Wireshark's RoCEv2 dissector decodes all n frames of the
// pcap and finds none malformed.
func tsharkDecodes(t *testing.T, pcap []byte, n int) {
	if _, err := exec.LookPath("tshark"); err != nil {
		t.Log("tshark not installed (make deps): the capture is checked by system/roce alone")
		return
	}
	dir := t.TempDir()
	file := filepath.Join(dir, "frames.pcap")
	require.NoError(t, os.WriteFile(file, pcap, 0o644))
	count := func(filter string) int {
		cmd := exec.Command("tshark", "-n", "-r", file, "-Y", filter, "-T", "fields", "-e", "frame.number")
		cmd.Env = append(os.Environ(), "HOME="+dir) // no user profile
		out, err := cmd.Output()
		require.NoError(t, err, "tshark -Y %s", filter)
		return len(strings.Fields(string(out)))
	}
	require.Equal(t, n, count("infiniband"), "frames tshark decodes as RoCEv2")
	require.Zero(t, count("_ws.malformed"), "malformed frames")
}
