package bridge_test

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/spraynic/spraynic/cosim/bridge"
)

// fstHeader is the part of an FST file's header block that fixes its time axis.
type fstHeader struct {
	// Start and End are the first and last dump times, in units of 10^Timescale seconds.
	Start, End uint64
	Timescale  int8
}

// readFSTHeader reads the header block that starts an FST file (gtkwave's fstapi.c: block type 0, a 64-bit
// big-endian section length of 329, start and end time, an endianness test double, five 64-bit counts, then the
// timescale exponent as one signed byte).
func readFSTHeader(path string) (fstHeader, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return fstHeader{}, err
	}
	const tsOffset = 1 + 8 + 8 + 8 + 8 + 5*8
	if len(b) < tsOffset+1 || b[0] != 0 || binary.BigEndian.Uint64(b[1:]) != 329 {
		return fstHeader{}, fmt.Errorf("%s: no FST header block at the start", path)
	}
	return fstHeader{Start: binary.BigEndian.Uint64(b[9:]), End: binary.BigEndian.Uint64(b[17:]),
		Timescale: int8(b[tsOffset])}, nil
}

// clockValues converts an FST with fst2vcd and returns the times at which clk takes a value (its first, then
// every change), in the VCD's time unit.
func clockValues(t *testing.T, fst string) []uint64 {
	out, err := exec.Command("fst2vcd", fst).Output()
	require.NoError(t, err, "fst2vcd %s", fst)
	var id string
	var now uint64
	var values []uint64
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		switch {
		case len(f) >= 5 && f[0] == "$var" && f[4] == "clk":
			id = f[3]
		case len(f) == 1 && strings.HasPrefix(f[0], "#"):
			now, err = strconv.ParseUint(f[0][1:], 10, 64)
			require.NoError(t, err, "VCD time %q", f[0])
		case id != "" && len(f) == 1 && len(f[0]) == 1+len(id) && f[0][1:] == id:
			values = append(values, now)
		}
	}
	require.NoError(t, sc.Err())
	require.NotEmpty(t, id, "the VCD has a clk")
	return values
}

// TestTraceClock: a trace's time axis is the clock TraceOpen names: cycle C dumps at C periods (clk low) and
// C + 1/2 periods (clk rising), rounded to the model's time precision (the probe's `timescale 1ns / 1ps), also
// when the trace opens mid-run and for a period of no whole picoseconds. The FST header gives the first and last
// dump; fst2vcd, when installed (Debian's gtkwave), gives every clock edge.
func TestTraceClock(t *testing.T) {
	m := openProbe(t, bridge.Trace, 12)
	in := make([]uint32, m.InWords())
	out := make([]uint32, m.OutWords())
	require.NoError(t, m.Step(10, make([]uint32, 10*m.InWords()), make([]uint32, 10*m.OutWords())))
	first := int64(10)
	for _, tc := range []struct {
		name   string
		mhz    float64
		cycles int64
	}{
		{name: "250 MHz, 4 ns", mhz: 250, cycles: 100},
		{name: "322.265625 MHz, 3103.03 ps", mhz: 322.265625, cycles: 50},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "clock.fst")
			require.NoError(t, m.TraceOpen(path, tc.mhz))
			for i := int64(0); i < tc.cycles; i++ {
				require.NoError(t, m.Step(1, in, out))
			}
			m.TraceClose()
			period := 1e6 / tc.mhz // ps
			at := func(halves int64) uint64 { return uint64(math.Round(float64(halves) * period / 2)) }
			last := first + tc.cycles - 1
			h, err := readFSTHeader(path)
			require.NoError(t, err)
			require.Equal(t, fstHeader{Start: at(2 * first), End: at(2*last + 1), Timescale: -12}, h,
				"cycles %d..%d of a %g MHz clock: from %d periods to %d and a half, in ps", first, last, tc.mhz, first, last)
			if _, err := exec.LookPath("fst2vcd"); err == nil {
				values := clockValues(t, path)
				require.Len(t, values, int(2*tc.cycles), "clk's first value, then a change at every half cycle")
				for i, v := range values {
					require.Equal(t, at(2*first+int64(i)), v, "clk value %d (%s)", i, []string{"low", "rising"}[i%2])
				}
			} else {
				t.Log("fst2vcd not installed: checked the first and last dump only")
			}
		})
		first += tc.cycles
	}
	require.ErrorContains(t, m.TraceOpen(filepath.Join(t.TempDir(), "fast.fst"), 600000),
		"half a period is less than the model's time precision")
	require.ErrorContains(t, m.TraceOpen(filepath.Join(t.TempDir(), "zero.fst"), 0), "want a finite frequency above 0")
}
