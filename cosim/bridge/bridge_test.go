package bridge_test

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/spraynic/spraynic/cosim/bridge"
)

// probeSource is the test module, relative to this package.
const probeSource = "../../verilator/testdata/bridge_probe.v"

// cacheDir is the model cache shared by the package's tests: a temporary directory, or $SPRAYNIC_BRIDGE_TEST_CACHE
// to keep the models between runs.
var cacheDir string

func TestMain(m *testing.M) {
	os.Exit(run(m))
}

// run runs the tests with a model cache and removes a temporary one afterwards.
func run(m *testing.M) int {
	cacheDir = os.Getenv("SPRAYNIC_BRIDGE_TEST_CACHE")
	if cacheDir == "" {
		dir, err := os.MkdirTemp("", "bridge-test-")
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		defer os.RemoveAll(dir)
		cacheDir = dir
	}
	return m.Run()
}

// buildKey identifies one build of the probe.
type buildKey struct {
	// variant is the build variant.
	variant bridge.Variant
	// w is the probe's parameter W.
	w int
}

// buildResult is the outcome of one build, shared by every test that needs it.
type buildResult struct {
	// once runs the build.
	once sync.Once
	// lib is the library path.
	lib string
	// err is the build error.
	err error
}

// builds holds the probe builds of this test process.
var builds = struct {
	// Mutex guards m.
	sync.Mutex
	// m maps a build to its result.
	m map[buildKey]*buildResult
}{m: make(map[buildKey]*buildResult)}

// probeSpec returns the spec of the probe with parameter W and the given variant, cached in dir.
func probeSpec(t testing.TB, variant bridge.Variant, w int, dir string) bridge.Spec {
	t.Helper()
	src, err := filepath.Abs(probeSource)
	require.NoError(t, err)
	return bridge.Spec{
		Top:      "bridge_probe",
		Sources:  []string{src},
		Params:   []bridge.Param{{Name: "W", Value: w}},
		Variant:  variant,
		CacheDir: dir,
	}
}

// probeLib returns the probe's library, built once per test process in the shared cache.
func probeLib(t testing.TB, variant bridge.Variant, w int) string {
	t.Helper()
	key := buildKey{variant: variant, w: w}
	builds.Lock()
	r, ok := builds.m[key]
	if !ok {
		r = &buildResult{}
		builds.m[key] = r
	}
	builds.Unlock()
	spec := probeSpec(t, variant, w, cacheDir)
	r.once.Do(func() {
		r.lib, r.err = bridge.Build(spec, nil)
	})
	require.NoError(t, r.err, "build of the probe (%v, W=%d)", variant, w)
	return r.lib
}

// openProbe opens a new instance of the probe, closed at the end of the test.
func openProbe(t testing.TB, variant bridge.Variant, w int) *bridge.Model {
	t.Helper()
	m, err := bridge.Open(probeLib(t, variant, w))
	require.NoError(t, err)
	t.Cleanup(m.Close)
	return m
}

// probeNames are the probe's echoed inputs, in_<name> echoed by comb_<name> and reg_<name>.
var probeNames = []string{"bit", "a", "b", "c", "d", "e"}

// probeWidths are the widths of the echoed inputs.
var probeWidths = map[string]int{"bit": 1, "a": 8, "b": 16, "c": 32, "d": 40, "e": 100}

// probePorts returns the probe's ports for parameter W, as the Go side expects them.
func probePorts(w int) []bridge.Port {
	ports := []bridge.Port{{Name: "rst", Dir: bridge.In, Width: 1}}
	for _, n := range probeNames {
		ports = append(ports, bridge.Port{Name: "in_" + n, Dir: bridge.In, Width: probeWidths[n]})
	}
	ports = append(ports, bridge.Port{Name: "in_w", Dir: bridge.In, Width: w})
	for _, n := range probeNames {
		ports = append(ports, bridge.Port{Name: "comb_" + n, Dir: bridge.Out, Width: probeWidths[n]})
	}
	for _, n := range probeNames {
		ports = append(ports, bridge.Port{Name: "reg_" + n, Dir: bridge.Out, Width: probeWidths[n]})
	}
	return append(ports,
		bridge.Port{Name: "acc", Dir: bridge.Out, Width: 32},
		bridge.Port{Name: "wout", Dir: bridge.Out, Width: w})
}

// vec holds one cycle's values of some ports: name to Words() words, word 0 = bits 31..0.
type vec map[string][]uint32

// pack packs the values of the ports of direction dir in port order; missing values are zero.
func pack(ports []bridge.Port, dir bridge.Dir, v vec) []uint32 {
	var words []uint32
	for _, p := range ports {
		if p.Dir != dir {
			continue
		}
		w := make([]uint32, p.Words())
		copy(w, v[p.Name])
		words = append(words, w...)
	}
	return words
}

// unpack splits one cycle's packed words of the ports of direction dir.
func unpack(ports []bridge.Port, dir bridge.Dir, words []uint32) vec {
	v := vec{}
	for _, p := range ports {
		if p.Dir != dir {
			continue
		}
		v[p.Name] = append([]uint32(nil), words[:p.Words()]...)
		words = words[p.Words():]
	}
	return v
}

// masked returns the words of a width-bit value with the bits above width cleared.
func masked(words []uint32, width int) []uint32 {
	out := make([]uint32, (width+31)/32)
	copy(out, words)
	if r := width % 32; r != 0 {
		out[len(out)-1] &= 1<<r - 1
	}
	return out
}

// plusOne returns (v + 1) mod 2^width.
func plusOne(v []uint32, width int) []uint32 {
	out := masked(v, width)
	for i := range out {
		out[i]++
		if out[i] != 0 {
			break
		}
	}
	return masked(out, width)
}

// randomWords returns n random words, upper bits beyond any width included.
func randomWords(r *rand.Rand, n int) []uint32 {
	w := make([]uint32, n)
	for i := range w {
		w[i] = r.Uint32()
	}
	return w
}

// probeRef is a Go model of the probe, stepped with the bridge's cycle semantics.
type probeRef struct {
	// w is the parameter W.
	w int
	// regs are the registered echoes, by name.
	regs vec
	// acc is the accumulator.
	acc uint32
}

// newProbeRef returns the reference model in its initial state.
func newProbeRef(w int) *probeRef {
	r := &probeRef{w: w, regs: vec{}}
	for _, n := range probeNames {
		r.regs[n] = make([]uint32, (probeWidths[n]+31)/32)
	}
	return r
}

// step returns the outputs of one cycle with inputs in, then clocks the registers.
func (r *probeRef) step(in vec) vec {
	out := vec{"acc": {r.acc}, "wout": plusOne(in["in_w"], r.w)}
	for _, n := range probeNames {
		out["comb_"+n] = masked(in["in_"+n], probeWidths[n])
		out["reg_"+n] = r.regs[n]
	}
	for _, n := range probeNames {
		r.regs[n] = masked(in["in_"+n], probeWidths[n])
	}
	r.acc += in["in_a"][0] & 0xff
	if in["rst"][0]&1 != 0 {
		r.regs["bit"] = []uint32{0}
		r.acc = 0
	}
	return out
}

// randomInputs returns n cycles of random inputs of the probe, rst high one cycle in eight. Upper bits beyond the
// widths are random too: the bridge must mask them.
func randomInputs(r *rand.Rand, ports []bridge.Port, n int) []vec {
	ins := make([]vec, n)
	for i := range ins {
		v := vec{}
		for _, p := range ports {
			if p.Dir == bridge.In {
				v[p.Name] = randomWords(r, p.Words())
			}
		}
		v["rst"] = []uint32{0}
		if r.IntN(8) == 0 {
			v["rst"] = []uint32{1}
		}
		ins[i] = v
	}
	return ins
}

func TestPorts(t *testing.T) {
	for _, w := range []int{12, 70} {
		t.Run(fmt.Sprint("W=", w), func(t *testing.T) {
			m := openProbe(t, bridge.Plain, w)
			require.Equal(t, probePorts(w), m.Ports(), "ports of the probe with W=%d, clk excluded", w)
			require.NoError(t, m.CheckPorts(probePorts(w)))
			in, out := 0, 0
			for _, p := range probePorts(w) {
				if p.Dir == bridge.In {
					in += p.Words()
				} else {
					out += p.Words()
				}
			}
			require.Equal(t, in, m.InWords(), "input words")
			require.Equal(t, out, m.OutWords(), "output words")
		})
	}
}

func TestPackingRoundTrip(t *testing.T) {
	m := openProbe(t, bridge.Plain, 70)
	ports := m.Ports()
	tests := []struct {
		name  string
		port  string
		value []uint32
	}{
		{name: "1 bit set", port: "bit", value: []uint32{1}},
		{name: "1 bit, garbage above", port: "bit", value: []uint32{0xfffffffe}},
		{name: "8 bits", port: "a", value: []uint32{0xa5}},
		{name: "8 bits, garbage above", port: "a", value: []uint32{0xdeadbe5a}},
		{name: "16 bits", port: "b", value: []uint32{0x8001}},
		{name: "16 bits, garbage above", port: "b", value: []uint32{0xffff1234}},
		{name: "32 bits", port: "c", value: []uint32{0x80000001}},
		{name: "32 bits all ones", port: "c", value: []uint32{0xffffffff}},
		{name: "40 bits", port: "d", value: []uint32{0x89abcdef, 0x80}},
		{name: "40 bits, garbage above", port: "d", value: []uint32{0xffffffff, 0xffffff7f}},
		{name: "100 bits, one per word", port: "e", value: []uint32{1, 2, 4, 8}},
		{name: "100 bits all ones", port: "e", value: []uint32{0xffffffff, 0xffffffff, 0xffffffff, 0xf}},
		{name: "100 bits, garbage above", port: "e", value: []uint32{0x01234567, 0x89abcdef, 0xfedcba98, 0x76543210}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			in := pack(ports, bridge.In, vec{"in_" + tc.port: tc.value})
			out := make([]uint32, 2*m.OutWords())
			// Cycle 0 shows the value combinationally; cycle 1 (zero inputs) shows it registered.
			require.NoError(t, m.Step(2, append(in, make([]uint32, m.InWords())...), out))
			want := masked(tc.value, probeWidths[tc.port])
			got0 := unpack(ports, bridge.Out, out[:m.OutWords()])
			got1 := unpack(ports, bridge.Out, out[m.OutWords():])
			require.Equal(t, want, got0["comb_"+tc.port], "comb_%s in the cycle of the input", tc.port)
			require.Equal(t, want, got1["reg_"+tc.port], "reg_%s one cycle later", tc.port)
			for _, n := range probeNames {
				if n != tc.port {
					require.Equal(t, make([]uint32, len(got0["comb_"+n])), got0["comb_"+n], "comb_%s untouched", n)
				}
			}
		})
	}
	t.Run("W port", func(t *testing.T) {
		for _, v := range [][]uint32{{0, 0, 0}, {0xffffffff, 0, 0}, {0xffffffff, 0xffffffff, 0x3f},
			{0xffffffff, 0xffffffff, 0xffffffff}} {
			in := pack(ports, bridge.In, vec{"in_w": v})
			out := make([]uint32, m.OutWords())
			require.NoError(t, m.Step(1, in, out))
			require.Equal(t, plusOne(v, 70), unpack(ports, bridge.Out, out)["wout"], "wout for in_w %x", v)
		}
	})
}

func TestTiming(t *testing.T) {
	m := openProbe(t, bridge.Plain, 12)
	ports := m.Ports()
	// Cycle by cycle: in_a and rst in, and the expected comb_a, reg_a and acc during that cycle.
	tests := []struct {
		a, rst            uint32
		comb, reg, accOut uint32
	}{
		{a: 5, comb: 5, reg: 0, accOut: 0},
		{a: 7, comb: 7, reg: 5, accOut: 5},
		{a: 1, rst: 1, comb: 1, reg: 7, accOut: 12},
		{a: 3, comb: 3, reg: 1, accOut: 0},
		{a: 0, comb: 0, reg: 3, accOut: 3},
		{a: 0, comb: 0, reg: 0, accOut: 3},
	}
	for i, tc := range tests {
		in := pack(ports, bridge.In, vec{"in_a": {tc.a}, "rst": {tc.rst}})
		out := make([]uint32, m.OutWords())
		require.NoError(t, m.Step(1, in, out))
		got := unpack(ports, bridge.Out, out)
		require.Equal(t, tc.comb, got["comb_a"][0], "comb_a in cycle %d", i)
		require.Equal(t, tc.reg, got["reg_a"][0], "reg_a in cycle %d", i)
		require.Equal(t, tc.accOut, got["acc"][0], "acc in cycle %d", i)
	}
	require.Equal(t, int64(len(tests)), m.Cycle(), "cycles counted")
}

func TestReference(t *testing.T) {
	for _, w := range []int{12, 70} {
		t.Run(fmt.Sprint("W=", w), func(t *testing.T) {
			m := openProbe(t, bridge.Plain, w)
			ports := m.Ports()
			ref := newProbeRef(w)
			ins := randomInputs(rand.New(rand.NewPCG(1, uint64(w))), ports, 500)
			var in []uint32
			for _, v := range ins {
				in = append(in, pack(ports, bridge.In, v)...)
			}
			out := make([]uint32, len(ins)*m.OutWords())
			require.NoError(t, m.Step(len(ins), in, out))
			for i, v := range ins {
				want := ref.step(v)
				got := unpack(ports, bridge.Out, out[i*m.OutWords():(i+1)*m.OutWords()])
				require.Equal(t, want, got, "outputs in cycle %d", i)
			}
		})
	}
}

func TestBatchEqualsSingleSteps(t *testing.T) {
	single := openProbe(t, bridge.Plain, 70)
	batch := openProbe(t, bridge.Plain, 70)
	ports := single.Ports()
	const n = 1000
	var in []uint32
	for _, v := range randomInputs(rand.New(rand.NewPCG(2, 3)), ports, n) {
		in = append(in, pack(ports, bridge.In, v)...)
	}
	iw, ow := single.InWords(), single.OutWords()
	got := make([]uint32, n*ow)
	for i := 0; i < n; i++ {
		require.NoError(t, single.Step(1, in[i*iw:(i+1)*iw], got[i*ow:(i+1)*ow]))
	}
	want := make([]uint32, n*ow)
	require.NoError(t, batch.Step(n, in, want))
	require.Equal(t, want, got, "1000 single steps against one batch of 1000")
}

func TestInstancesIndependent(t *testing.T) {
	a := openProbe(t, bridge.Plain, 12)
	b := openProbe(t, bridge.Plain, 12)
	ports := a.Ports()
	out := make([]uint32, a.OutWords())
	acc := func(m *bridge.Model, in uint32) uint32 {
		require.NoError(t, m.Step(1, pack(ports, bridge.In, vec{"in_a": {in}}), out))
		return unpack(ports, bridge.Out, out)["acc"][0]
	}
	// Interleaved: each accumulator sees only its own instance's inputs.
	for i := uint32(0); i < 10; i++ {
		require.Equal(t, 3*i, acc(a, 3), "acc of instance a in cycle %d", i)
		require.Equal(t, 5*i, acc(b, 5), "acc of instance b in cycle %d", i)
	}
	a.Close()
	require.Equal(t, uint32(50), acc(b, 0), "instance b after closing a")
}

func TestConcurrentInstances(t *testing.T) {
	const n, workers = 2000, 2
	ref := openProbe(t, bridge.Plain, 70)
	ports := ref.Ports()
	var in []uint32
	for _, v := range randomInputs(rand.New(rand.NewPCG(6, 7)), ports, n) {
		in = append(in, pack(ports, bridge.In, v)...)
	}
	want := make([]uint32, n*ref.OutWords())
	require.NoError(t, ref.Step(n, in, want))

	models := make([]*bridge.Model, workers)
	for i := range models {
		models[i] = openProbe(t, bridge.Plain, 70)
	}
	outs := make([][]uint32, workers)
	errs := make([]error, workers)
	var wg sync.WaitGroup
	for i, m := range models {
		wg.Add(1)
		go func() {
			defer wg.Done()
			outs[i] = make([]uint32, n*m.OutWords())
			// Small batches, so the goroutines interleave and may move between OS threads.
			for c := 0; c < n && errs[i] == nil; c += 10 {
				errs[i] = m.Step(10, in[c*m.InWords():(c+10)*m.InWords()], outs[i][c*m.OutWords():(c+10)*m.OutWords()])
			}
		}()
	}
	wg.Wait()
	for i := range models {
		require.NoError(t, errs[i], "instance %d", i)
		require.Equal(t, want, outs[i], "outputs of instance %d run on its own goroutine", i)
	}
}

func TestTwoLibraries(t *testing.T) {
	narrow := openProbe(t, bridge.Plain, 12)
	wide := openProbe(t, bridge.Plain, 70)
	require.NotEqual(t, probeLib(t, bridge.Plain, 12), probeLib(t, bridge.Plain, 70), "libraries of W=12 and W=70")
	for i, v := range [][]uint32{{0xfff, 0, 0}, {5, 0, 0}, {0xffffffff, 0xffffffff, 0x3f}} {
		for _, m := range []*bridge.Model{narrow, wide} {
			ports := m.Ports()
			w := ports[len(ports)-1].Width
			out := make([]uint32, m.OutWords())
			require.NoError(t, m.Step(1, pack(ports, bridge.In, vec{"in_w": v[:(w+31)/32]}), out))
			require.Equal(t, plusOne(v, w), unpack(ports, bridge.Out, out)["wout"], "wout of W=%d for value %d", w, i)
		}
	}
}

func TestCheckPorts(t *testing.T) {
	m := openProbe(t, bridge.Plain, 12)
	// edit returns the probe's ports changed by f.
	edit := func(f func([]bridge.Port) []bridge.Port) []bridge.Port {
		return f(probePorts(12))
	}
	tests := []struct {
		name  string
		want  []bridge.Port
		diffs []string
	}{
		{name: "equal", want: probePorts(12)},
		{
			name:  "width",
			want:  edit(func(p []bridge.Port) []bridge.Port { p[len(p)-1].Width = 13; return p }),
			diffs: []string{"port wout: width 12 in the model, 13 expected"},
		},
		{
			name: "missing in the model",
			want: edit(func(p []bridge.Port) []bridge.Port {
				return append(p, bridge.Port{Name: "foo", Dir: bridge.In, Width: 3})
			}),
			diffs: []string{"port foo: missing in the model"},
		},
		{
			name:  "not expected",
			want:  edit(func(p []bridge.Port) []bridge.Port { return p[1:] }),
			diffs: []string{"port rst: not expected"},
		},
		{
			name:  "direction",
			want:  edit(func(p []bridge.Port) []bridge.Port { p[1].Dir = bridge.Out; return p }),
			diffs: []string{"port in_bit: direction input in the model, output expected"},
		},
		{
			name: "order",
			want: edit(func(p []bridge.Port) []bridge.Port { p[1], p[2] = p[2], p[1]; return p }),
			diffs: []string{
				"port in_bit: input 1 in the model, 2 expected",
				"port in_a: input 2 in the model, 1 expected",
			},
		},
		{
			name: "every difference",
			want: edit(func(p []bridge.Port) []bridge.Port {
				p[2].Width = 9
				p[3].Dir = bridge.Out
				return append(p[1:], bridge.Port{Name: "bar", Dir: bridge.Out, Width: 1})
			}),
			diffs: []string{
				"port rst: not expected",
				"port in_a: width 8 in the model, 9 expected",
				"port in_b: direction input in the model, output expected",
				"port bar: missing in the model",
			},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := m.CheckPorts(tc.want)
			if tc.diffs == nil {
				require.NoError(t, err)
				return
			}
			var pe *bridge.PortsError
			require.ErrorAs(t, err, &pe)
			require.Equal(t, tc.diffs, pe.Diffs, "differences")
			for _, d := range tc.diffs {
				require.Contains(t, err.Error(), d, "error message")
			}
		})
	}
}

func TestCacheHit(t *testing.T) {
	lib := probeLib(t, bridge.Plain, 12)
	before, err := os.Stat(lib)
	require.NoError(t, err)
	dirBefore, err := os.Stat(cacheDir)
	require.NoError(t, err)
	entriesBefore, err := os.ReadDir(cacheDir)
	require.NoError(t, err)

	var log bytes.Buffer
	again, err := bridge.Build(probeSpec(t, bridge.Plain, 12, cacheDir), &log)
	require.NoError(t, err)
	require.Equal(t, lib, again, "library path of the same spec")
	require.Empty(t, log.String(), "build log of a cache hit")

	after, err := os.Stat(lib)
	require.NoError(t, err)
	require.Equal(t, before.ModTime(), after.ModTime(), "library untouched")
	require.True(t, os.SameFile(before, after), "same library file")
	dirAfter, err := os.Stat(cacheDir)
	require.NoError(t, err)
	require.Equal(t, dirBefore.ModTime(), dirAfter.ModTime(), "no entry created or removed in the cache directory")
	entriesAfter, err := os.ReadDir(cacheDir)
	require.NoError(t, err)
	require.Equal(t, len(entriesBefore), len(entriesAfter), "cache directory entries")
}

func TestHash(t *testing.T) {
	content, err := os.ReadFile(probeSource)
	require.NoError(t, err)
	dir := t.TempDir()
	src := filepath.Join(dir, "bridge_probe.v")
	require.NoError(t, os.WriteFile(src, content, 0o644))
	waivers := filepath.Join(dir, "waivers.vlt")
	require.NoError(t, os.WriteFile(waivers, []byte("`verilator_config\n"), 0o644))
	base := bridge.Spec{Top: "bridge_probe", Sources: []string{src},
		Params: []bridge.Param{{Name: "W", Value: 12}}, Variant: bridge.Plain, CacheDir: dir}
	hash := func(s bridge.Spec) string {
		h, err := bridge.Hash(s)
		require.NoError(t, err)
		return h
	}
	h0 := hash(base)
	require.Len(t, h0, 64, "hex sha256")
	require.Equal(t, h0, hash(base), "same spec, same hash")

	other := base
	other.CacheDir = t.TempDir()
	require.Equal(t, h0, hash(other), "the cache directory is not an input")
	other = base
	other.Params = []bridge.Param{{Name: "W", Value: 13}}
	require.NotEqual(t, h0, hash(other), "parameter value")
	other = base
	other.Variant = bridge.Trace
	require.NotEqual(t, h0, hash(other), "variant")
	other = base
	other.Waivers = waivers
	hw := hash(other)
	require.NotEqual(t, h0, hw, "waiver file")
	require.NoError(t, os.WriteFile(waivers, []byte("`verilator_config\nlint_off -rule WIDTH\n"), 0o644))
	require.NotEqual(t, hw, hash(other), "waiver content")

	clone := filepath.Join(t.TempDir(), "bridge_probe.v")
	require.NoError(t, os.WriteFile(clone, content, 0o644))
	other = base
	other.Sources = []string{clone}
	require.Equal(t, h0, hash(other), "the same file in another checkout: a shared cache finds the model")
	cov, covClone := base, other
	cov.Variant, covClone.Variant = bridge.Coverage, bridge.Coverage
	require.NotEqual(t, hash(cov), hash(covClone), "coverage data names the source paths: keyed by path")

	require.NoError(t, os.WriteFile(src, append(content, "// changed\n"...), 0o644))
	require.NotEqual(t, h0, hash(base), "source content")
	require.NoError(t, os.WriteFile(src, content, 0o644))
	require.Equal(t, h0, hash(base), "source content restored")
}

func TestBuildSpecErrors(t *testing.T) {
	src, err := filepath.Abs(probeSource)
	require.NoError(t, err)
	good := bridge.Spec{Top: "bridge_probe", Sources: []string{src}, Variant: bridge.Plain, CacheDir: t.TempDir()}
	tests := []struct {
		name string
		edit func(*bridge.Spec)
		msg  string
	}{
		{name: "no top", edit: func(s *bridge.Spec) { s.Top = "" }, msg: "not a plain identifier"},
		{name: "no sources", edit: func(s *bridge.Spec) { s.Sources = nil }, msg: "no sources"},
		{
			name: "relative source",
			edit: func(s *bridge.Spec) { s.Sources = []string{probeSource} },
			msg:  "not an absolute path",
		},
		{
			name: "missing source",
			edit: func(s *bridge.Spec) { s.Sources = []string{src + ".missing"} },
			msg:  "no such file",
		},
		{name: "zero variant", edit: func(s *bridge.Spec) { s.Variant = 0 }, msg: "invalid variant Variant(0)"},
		{
			name: "bad parameter name",
			edit: func(s *bridge.Spec) { s.Params = []bridge.Param{{Name: "W=1 -Dx", Value: 1}} },
			msg:  "parameter name",
		},
		{name: "no cache directory", edit: func(s *bridge.Spec) { s.CacheDir = "" }, msg: "no cache directory"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			spec := good
			tc.edit(&spec)
			_, err := bridge.Build(spec, nil)
			require.ErrorContains(t, err, tc.msg)
		})
	}
}

// writeFile writes content to name in dir and returns its path.
func writeFile(t *testing.T, dir, name, content string) string {
	t.Helper()
	path := filepath.Join(dir, name)
	require.NoError(t, os.WriteFile(path, []byte(content), 0o644))
	return path
}

func TestBuildErrors(t *testing.T) {
	dir := t.TempDir()
	header := writeFile(t, dir, "defs.vh", "`define ONE 1'b1\n")
	tests := []struct {
		name string
		top  string
		src  string
		msgs []string
	}{
		{
			name: "syntax error",
			top:  "bad_syntax",
			src:  "module bad_syntax(input wire clk, output wire y);\nassign y = ;\nendmodule\n",
			msgs: []string{"top bad_syntax", "verilator --xml-only", "%Error", "bad_syntax.v:2"},
		},
		{
			name: "no clock",
			top:  "no_clock",
			src:  "module no_clock(input wire a, output wire y);\nassign y = a;\nendmodule\n",
			msgs: []string{"top no_clock", "no 1-bit input clk"},
		},
		{
			name: "wide clock",
			top:  "wide_clock",
			src:  "module wide_clock(input wire [1:0] clk, output wire y);\nassign y = clk[0];\nendmodule\n",
			msgs: []string{"port clk: must be a 1-bit input, is a 2-bit input"},
		},
		{
			name: "inout",
			top:  "has_inout",
			src:  "module has_inout(input wire clk, inout wire y);\nendmodule\n",
			msgs: []string{"port y: direction \"inout\" is not supported"},
		},
		{
			name: "include outside the sources",
			top:  "includes",
			src: "`include \"" + header + "\"\n" +
				"module includes(input wire clk, output wire y);\nassign y = `ONE;\nendmodule\n",
			msgs: []string{"top includes", "verilator reads " + header + ", which is not in the spec's sources"},
		},
		{
			name: "lint warning",
			top:  "lint_width",
			src: "module lint_width(input wire clk, input wire [3:0] a, output wire [2:0] y);\nassign y = a + " +
				"4'd1;\nendmodule\n",
			msgs: []string{"top lint_width", "%Warning-WIDTH"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			src := writeFile(t, dir, tc.top+".v", tc.src)
			_, err := bridge.Build(
				bridge.Spec{Top: tc.top, Sources: []string{src}, Variant: bridge.Plain,
					CacheDir: filepath.Join(dir, "models")},
				nil,
			)
			require.Error(t, err)
			for _, msg := range tc.msgs {
				require.Contains(t, err.Error(), msg, "build error")
			}
		})
	}
	entries, err := os.ReadDir(filepath.Join(dir, "models"))
	require.NoError(t, err)
	require.Empty(t, entries, "no model and no temporary directory left after failed builds")
}

func TestWaivers(t *testing.T) {
	dir := t.TempDir()
	src := writeFile(
		t,
		dir,
		"lint_width.v",
		"module lint_width(input wire clk, input wire [3:0] a, output wire [2:0] y);\n"+
			"assign y = a + 4'd1;\nendmodule\n",
	)
	waivers := writeFile(
		t,
		dir,
		"waivers.vlt",
		"`verilator_config\n// The probe truncates on purpose.\nlint_off -rule WIDTH -file \"*/lint_width.v\"\n",
	)
	// A relative cache directory works too.
	t.Chdir(dir)
	lib, err := bridge.Build(
		bridge.Spec{Top: "lint_width", Sources: []string{src}, Waivers: waivers, Variant: bridge.Plain,
			CacheDir: "models"},
		nil,
	)
	require.NoError(t, err, "build with the WIDTH warning waived")
	require.True(t, filepath.IsAbs(lib), "library path %s is absolute", lib)
	m, err := bridge.Open(lib)
	require.NoError(t, err)
	defer m.Close()
	out := make([]uint32, 1)
	require.NoError(t, m.Step(1, []uint32{7}, out))
	require.Equal(t, uint32(0), out[0], "y = 7 + 1 truncated to 3 bits")
}

func TestConcurrentBuilds(t *testing.T) {
	dir := t.TempDir()
	spec := probeSpec(t, bridge.Plain, 33, dir)
	const n = 2
	libs := make([]string, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			libs[i], errs[i] = bridge.Build(spec, nil)
		}()
	}
	wg.Wait()
	for i := 0; i < n; i++ {
		require.NoError(t, errs[i], "build %d", i)
		require.Equal(t, libs[0], libs[i], "library of build %d", i)
	}
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	require.Len(t, entries, 1, "one model directory and no temporary one")
	require.False(t, strings.HasPrefix(entries[0].Name(), "."), "model directory %s", entries[0].Name())
	m, err := bridge.Open(libs[0])
	require.NoError(t, err)
	m.Close()
}

func TestTrace(t *testing.T) {
	m := openProbe(t, bridge.Trace, 12)
	ports := m.Ports()
	in := pack(ports, bridge.In, vec{"in_a": {3}, "in_e": {1, 2, 3, 4}})
	path := filepath.Join(t.TempDir(), "probe.fst")
	require.NoError(t, m.TraceOpen(path, 250))
	require.ErrorContains(t, m.TraceOpen(path, 250), "already open")
	out := make([]uint32, m.OutWords())
	for i := 0; i < 100; i++ {
		require.NoError(t, m.Step(1, in, out))
	}
	m.TraceClose()
	info, err := os.Stat(path)
	require.NoError(t, err)
	require.Positive(t, info.Size(), "FST file size")

	// Tracing again after closing works and does not disturb the model.
	second := filepath.Join(t.TempDir(), "second.fst")
	require.NoError(t, m.TraceOpen(second, 250))
	require.NoError(t, m.Step(1, in, out))
	m.TraceClose()
	info, err = os.Stat(second)
	require.NoError(t, err)
	require.Positive(t, info.Size(), "second FST file size")
	require.Equal(t, uint32(3*100), unpack(ports, bridge.Out, out)["acc"][0], "acc after 100 cycles of 3")

	require.ErrorContains(t, m.TraceOpen(filepath.Join(t.TempDir(), "missing", "x.fst"), 250), "cannot open trace file")
	require.ErrorContains(t, m.WriteCoverage(filepath.Join(t.TempDir(), "x.dat")),
		"not built with the coverage variant")
}

func TestCoverage(t *testing.T) {
	m := openProbe(t, bridge.Coverage, 12)
	ports := m.Ports()
	out := make([]uint32, m.OutWords())
	for i := uint32(0); i < 20; i++ {
		require.NoError(t, m.Step(1, pack(ports, bridge.In, vec{"in_a": {i}, "rst": {i % 2}}), out))
	}
	path := filepath.Join(t.TempDir(), "coverage.dat")
	require.NoError(t, m.WriteCoverage(path))
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	require.True(t, strings.HasPrefix(string(data), "# SystemC::Coverage-3\n"), "coverage file header, got %.40q", data)
	require.Contains(t, string(data), "bridge_probe.v", "coverage points name the source")
	// The acc next-state block (SPLIT-COVER) runs at least once per step; with Verilator's always-block splitting
	// its line point counted 1 for the whole run.
	src, err := os.ReadFile(probeSource)
	require.NoError(t, err)
	line := 0
	for i, l := range strings.Split(string(src), "\n") {
		if strings.Contains(l, "always @* begin // SPLIT-COVER") {
			line = i + 1
		}
	}
	require.NotZero(t, line, "bridge_probe.v has the SPLIT-COVER block")
	key := fmt.Sprintf("\x01l\x02%d\x01", line)
	found := false
	for _, l := range strings.Split(string(data), "\n") {
		if strings.Contains(l, key) && strings.Contains(l, "\x02v_line/") && strings.Contains(l, "\x01o\x02block") {
			cnt, err := strconv.Atoi(l[strings.LastIndex(l, " ")+1:])
			require.NoError(t, err)
			require.GreaterOrEqual(t, cnt, 20, "line coverage of the SPLIT-COVER block (line %d) after 20 steps: %q",
				line, l)
			found = true
		}
	}
	require.True(t, found, "no line point for the SPLIT-COVER block at line %d", line)
	require.ErrorContains(t, m.WriteCoverage(filepath.Join(t.TempDir(), "missing", "x.dat")),
		"cannot write coverage file")
	require.ErrorContains(t, m.TraceOpen(filepath.Join(t.TempDir(), "x.fst"), 250), "not built with the trace variant")
}

func TestPlainHasNoTraceOrCoverage(t *testing.T) {
	m := openProbe(t, bridge.Plain, 12)
	path := filepath.Join(t.TempDir(), "x.fst")
	require.ErrorContains(t, m.TraceOpen(path, 250), "not built with the trace variant")
	require.ErrorContains(t, m.WriteCoverage(filepath.Join(t.TempDir(), "x.dat")),
		"not built with the coverage variant")
	m.TraceClose()
	_, err := os.Stat(path)
	require.True(t, os.IsNotExist(err), "no trace file written")
}

func TestStepErrors(t *testing.T) {
	m := openProbe(t, bridge.Plain, 12)
	iw, ow := m.InWords(), m.OutWords()
	tests := []struct {
		name    string
		n       int
		in, out int
		msg     string
	}{
		{name: "negative", n: -1, msg: "step of -1 cycles"},
		{
			name: "short input",
			n:    2,
			in:   2*iw - 1,
			out:  2 * ow,
			msg:  fmt.Sprintf("%d input words for 2 cycles, want %d", 2*iw-1, 2*iw),
		},
		{
			name: "long output",
			n:    1,
			in:   iw,
			out:  ow + 1,
			msg:  fmt.Sprintf("%d output words for 1 cycles, want %d", ow+1, ow),
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			require.ErrorContains(t, m.Step(tc.n, make([]uint32, tc.in), make([]uint32, tc.out)), tc.msg)
		})
	}
	require.NoError(t, m.Step(0, nil, nil), "zero cycles")
	require.ErrorContains(t, m.RunRaw(10, make([]uint32, iw+1)), "not a whole number")
	require.ErrorContains(t, m.RunRaw(10, nil), "not a whole number")
	require.ErrorContains(t, m.RunRaw(-1, make([]uint32, iw)), "run of -1 cycles")
	require.Equal(t, int64(0), m.Cycle(), "no cycle run")

	m.Close()
	m.Close()
	require.ErrorContains(t, m.Step(1, make([]uint32, iw), make([]uint32, ow)), "model is closed")
	require.ErrorContains(t, m.RunRaw(1, make([]uint32, iw)), "model is closed")
	require.ErrorContains(t, m.TraceOpen("x.fst", 250), "model is closed")
}

func TestRunRaw(t *testing.T) {
	raw := openProbe(t, bridge.Plain, 12)
	stepped := openProbe(t, bridge.Plain, 12)
	ports := raw.Ports()
	var pattern []uint32
	for _, a := range []uint32{1, 2, 3} {
		pattern = append(pattern, pack(ports, bridge.In, vec{"in_a": {a}})...)
	}
	require.NoError(t, raw.RunRaw(10, pattern))
	require.Equal(t, int64(10), raw.Cycle(), "cycles run")
	// 10 cycles of 1, 2, 3, 1, ...: acc = 3*(1+2+3) + 1 = 19. A step shows it.
	out := make([]uint32, raw.OutWords())
	require.NoError(t, raw.Step(1, pattern[:raw.InWords()], out))
	require.Equal(t, uint32(19), unpack(ports, bridge.Out, out)["acc"][0], "acc after RunRaw")

	var in []uint32
	for i := 0; i < 10; i++ {
		in = append(in, pattern[(i%3)*raw.InWords():(i%3+1)*raw.InWords()]...)
	}
	all := make([]uint32, 10*raw.OutWords())
	require.NoError(t, stepped.Step(10, in, all))
	require.NoError(t, stepped.Step(1, pattern[:raw.InWords()], out))
	require.Equal(t, uint32(19), unpack(ports, bridge.Out, out)["acc"][0], "acc after the same cycles stepped")
}

func TestFinish(t *testing.T) {
	m := openProbe(t, bridge.Plain, 12)
	ports := m.Ports()
	out := make([]uint32, 3*m.OutWords())
	in := append(pack(ports, bridge.In, vec{}), pack(ports, bridge.In, vec{"rst": {1}, "in_c": {0xf1f1f1f1}})...)
	in = append(in, pack(ports, bridge.In, vec{})...)
	require.ErrorContains(t, m.Step(3, in, out), "$finish by the end of cycle 2")
	// A second $finish reports again instead of ending the process (Verilator's default would exit).
	require.ErrorContains(t, m.Step(3, in, out), "$finish by the end of cycle 5")
}

func TestParameterCheckFails(t *testing.T) {
	lib := probeLib(t, bridge.Plain, 200)
	_, err := bridge.Open(lib)
	require.ErrorContains(t, err, "$stop, $error or $fatal during initialisation", "W=200 is out of range")
}

func TestOpenErrors(t *testing.T) {
	_, err := bridge.Open(filepath.Join(t.TempDir(), "missing.so"))
	require.ErrorContains(t, err, "missing.so")
	notLib := writeFile(t, t.TempDir(), "model.so", "not a library")
	_, err = bridge.Open(notLib)
	require.ErrorContains(t, err, "open "+notLib)
}

func TestVariantString(t *testing.T) {
	tests := []struct {
		v    bridge.Variant
		want string
	}{
		{v: bridge.Plain, want: "plain"},
		{v: bridge.Trace, want: "trace"},
		{v: bridge.Coverage, want: "coverage"},
		{v: 0, want: "Variant(0)"},
		{v: 4, want: "Variant(4)"},
	}
	for _, tc := range tests {
		require.Equal(t, tc.want, tc.v.String(), "String of %d", int(tc.v))
		require.Equal(t, tc.want != "Variant(0)" && tc.want != "Variant(4)", tc.v.Valid(), "Valid of %d", int(tc.v))
	}
	require.Equal(t, "input", bridge.In.String())
	require.Equal(t, "output", bridge.Out.String())
	require.Equal(t, "Dir(0)", bridge.Dir(0).String())
	require.Equal(t, 4, bridge.Port{Width: 100}.Words(), "words of 100 bits")
	require.Equal(t, 1, bridge.Port{Width: 32}.Words(), "words of 32 bits")
	require.Equal(t, 2, bridge.Port{Width: 33}.Words(), "words of 33 bits")
}
