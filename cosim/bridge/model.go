package bridge

/*
#cgo LDFLAGS: -ldl
#include <dlfcn.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
	const char *name;
	int dir;
	int width;
} sn_port;

// sn_api holds the library's entry points, resolved once by sn_load.
typedef struct {
	int (*abi_version)(void);
	int (*num_ports)(void);
	const sn_port *(*port_at)(int);
	void *(*new_)(void);
	void (*free_)(void *);
	int (*step)(void *, int, const uint32_t *, uint32_t *);
	int (*run_raw)(void *, long long, const uint32_t *, int);
	int (*status)(void *);
	int (*trace_open)(void *, const char *, double);
	void (*trace_close)(void *);
	int (*coverage_write)(void *, const char *);
} sn_api;

// sn_load opens the library and resolves every entry point. On failure it returns 0 and copies dlerror's message
// into err (dlerror is per thread, so it is read here, on the thread that failed).
static int sn_load(const char *path, sn_api *api, char *err, size_t errlen) {
	void *lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (!lib) {
		strncpy(err, dlerror(), errlen - 1);
		return 0;
	}
	struct { void **fn; const char *name; } syms[] = {
		{(void **)&api->abi_version, "sn_abi_version"},
		{(void **)&api->num_ports, "sn_num_ports"},
		{(void **)&api->port_at, "sn_port_at"},
		{(void **)&api->new_, "sn_new"},
		{(void **)&api->free_, "sn_free"},
		{(void **)&api->step, "sn_step"},
		{(void **)&api->run_raw, "sn_run_raw"},
		{(void **)&api->status, "sn_status"},
		{(void **)&api->trace_open, "sn_trace_open"},
		{(void **)&api->trace_close, "sn_trace_close"},
		{(void **)&api->coverage_write, "sn_coverage_write"},
	};
	for (size_t i = 0; i < sizeof syms / sizeof syms[0]; i++) {
		*syms[i].fn = dlsym(lib, syms[i].name);
		if (!*syms[i].fn) {
			strncpy(err, syms[i].name, errlen - 1);
			// The library stays loaded: unloading a C++ runtime with thread-locals is not safe.
			return 0;
		}
	}
	return 1;
}

// Trampolines: cgo cannot call C function pointers directly.
static int sn_call_abi_version(sn_api *a) { return a->abi_version(); }
static int sn_call_num_ports(sn_api *a) { return a->num_ports(); }
static const sn_port *sn_call_port_at(sn_api *a, int i) { return a->port_at(i); }
static void *sn_call_new(sn_api *a) { return a->new_(); }
static void sn_call_free(sn_api *a, void *h) { a->free_(h); }
static int sn_call_step(sn_api *a, void *h, int n, const uint32_t *in, uint32_t *out) { return a->step(h, n, in, out); }
static int sn_call_run_raw(sn_api *a, void *h, long long n, const uint32_t *in, int cycles) {
	return a->run_raw(h, n, in, cycles);
}
static int sn_call_status(sn_api *a, void *h) { return a->status(h); }
static int sn_call_trace_open(sn_api *a, void *h, const char *path, double hz) { return a->trace_open(h, path, hz); }
static void sn_call_trace_close(sn_api *a, void *h) { a->trace_close(h); }
static int sn_call_coverage_write(sn_api *a, void *h, const char *path) { return a->coverage_write(h, path); }
*/
import "C"

import (
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"strings"
	"sync"
	"unsafe"
)

// Model is one instance of a Verilated model loaded from a library made by Build. Each instance has its own
// Verilator context, so instances never share state, also when they come from the same library. A Model is not safe
// for concurrent use; different Models may run on different goroutines.
type Model struct {
	// name names the model in errors: the library's cache directory, <top>-<hash16>.
	name string
	// api holds the library's entry points; it is C memory, shared by every Model of the library.
	api *C.sn_api
	// h is the C++ instance; nil once closed.
	h unsafe.Pointer
	// ports are the model's ports, clk excluded, in port-list order.
	ports []Port
	// inWords and outWords are the words of one cycle's packed inputs and outputs.
	inWords, outWords int
	// cycle counts the cycles run so far.
	cycle int64
}

// libs caches the resolved entry points of each library path, which live as long as the process.
var libs = struct {
	// Mutex guards m.
	sync.Mutex
	// m maps a library path to its entry points.
	m map[string]*C.sn_api
}{m: make(map[string]*C.sn_api)}

// Open loads the library at libPath (dlopen, RTLD_NOW | RTLD_LOCAL), checks its ABI version, reads its ports and
// creates a model instance, with clk low and evaluated once. The library stays loaded until the process ends.
func Open(libPath string) (*Model, error) {
	abs, err := filepath.Abs(libPath)
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", libPath, err)
	}
	api, err := load(abs)
	if err != nil {
		return nil, err
	}
	if v := int(C.sn_call_abi_version(api)); v != abiVersion {
		return nil, fmt.Errorf("open %s: ABI version %d, want %d (rebuild the model)", abs, v, abiVersion)
	}
	m := &Model{name: filepath.Base(filepath.Dir(abs)), api: api}
	n := int(C.sn_call_num_ports(api))
	for i := 0; i < n; i++ {
		cp := C.sn_call_port_at(api, C.int(i))
		if cp == nil {
			return nil, fmt.Errorf("open %s: port %d of %d missing", abs, i, n)
		}
		p := Port{Name: C.GoString(cp.name), Dir: In, Width: int(cp.width)}
		if cp.dir != 0 {
			p.Dir = Out
			m.outWords += p.Words()
		} else {
			m.inWords += p.Words()
		}
		m.ports = append(m.ports, p)
	}
	m.h = C.sn_call_new(api)
	if err := m.status("during initialisation"); err != nil {
		m.Close()
		return nil, err
	}
	return m, nil
}

// load returns the entry points of the library at path, loading it on first use.
func load(path string) (*C.sn_api, error) {
	libs.Lock()
	defer libs.Unlock()
	if api, ok := libs.m[path]; ok {
		return api, nil
	}
	api := (*C.sn_api)(C.calloc(1, C.size_t(unsafe.Sizeof(C.sn_api{}))))
	cpath := C.CString(path)
	defer C.free(unsafe.Pointer(cpath))
	var msg [512]C.char
	if C.sn_load(cpath, api, &msg[0], C.size_t(len(msg))) == 0 {
		C.free(unsafe.Pointer(api))
		return nil, fmt.Errorf("open %s: %s", path, C.GoString(&msg[0]))
	}
	libs.m[path] = api
	return api, nil
}

// Ports returns the model's ports, clk excluded, in port-list order.
func (m *Model) Ports() []Port {
	return append([]Port(nil), m.ports...)
}

// InWords returns the number of 32-bit words of one cycle's packed inputs.
func (m *Model) InWords() int { return m.inWords }

// OutWords returns the number of 32-bit words of one cycle's packed outputs.
func (m *Model) OutWords() int { return m.outWords }

// Cycle returns the number of cycles run so far.
func (m *Model) Cycle() int64 { return m.cycle }

// errClosed is returned by the methods of a closed Model.
var errClosed = errors.New("model is closed")

// Step runs n cycles in one cgo call. in holds n cycles of packed inputs (n*InWords words), out receives n cycles of
// packed outputs (n*OutWords words). Cycle i applies its inputs with clk low, evaluates, reads its outputs (so
// combinational outputs see cycle i's inputs and registers the value clocked in at the end of cycle i-1), then
// raises clk and evaluates again.
func (m *Model) Step(n int, in, out []uint32) error {
	if m.h == nil {
		return errClosed
	}
	if n < 0 || n > math.MaxInt32 {
		return fmt.Errorf("model %s: step of %d cycles", m.name, n)
	}
	if len(in) != n*m.inWords {
		return fmt.Errorf("model %s: %d input words for %d cycles, want %d", m.name, len(in), n, n*m.inWords)
	}
	if len(out) != n*m.outWords {
		return fmt.Errorf("model %s: %d output words for %d cycles, want %d", m.name, len(out), n, n*m.outWords)
	}
	if n == 0 {
		return nil
	}
	st := C.sn_call_step(m.api, m.h, C.int(n), words(in), words(out))
	return m.advance(int64(n), st)
}

// RunRaw runs n cycles entirely in C++ without reading outputs, feeding the cycles of pattern (a whole number of
// cycles of packed inputs) over and over. It measures the raw speed of the Verilated model.
func (m *Model) RunRaw(n int64, pattern []uint32) error {
	if m.h == nil {
		return errClosed
	}
	if n < 0 {
		return fmt.Errorf("model %s: run of %d cycles", m.name, n)
	}
	cycles := 1
	if m.inWords > 0 {
		if len(pattern) == 0 || len(pattern)%m.inWords != 0 {
			return fmt.Errorf("model %s: pattern of %d words is not a whole number of %d-word cycles", m.name,
				len(pattern), m.inWords)
		}
		cycles = len(pattern) / m.inWords
	}
	if cycles > math.MaxInt32 {
		return fmt.Errorf("model %s: pattern of %d cycles", m.name, cycles)
	}
	if n == 0 {
		return nil
	}
	st := C.sn_call_run_raw(m.api, m.h, C.longlong(n), words(pattern), C.int(cycles))
	return m.advance(n, st)
}

// words returns a C pointer to the first element of w, or nil for an empty slice.
func words(w []uint32) *C.uint32_t {
	if len(w) == 0 {
		return nil
	}
	return (*C.uint32_t)(unsafe.Pointer(&w[0]))
}

// advance counts n cycles run and turns the model's status st into an error.
func (m *Model) advance(n int64, st C.int) error {
	m.cycle += n
	if st == 0 {
		return nil
	}
	return statusError(m.name, int(st), fmt.Sprintf("by the end of cycle %d", m.cycle-1))
}

// status reads the model's status and turns it into an error.
func (m *Model) status(when string) error {
	return statusError(m.name, int(C.sn_call_status(m.api, m.h)), when)
}

// statusError turns a status of sn_status into an error. The status is sticky: once the model has run $finish,
// every later call reports it.
func statusError(name string, st int, when string) error {
	switch st {
	case 0:
		return nil
	case 1:
		return fmt.Errorf("model %s: $finish %s (see the model's output)", name, when)
	default:
		return fmt.Errorf("model %s: $stop, $error or $fatal %s (see the model's output)", name, when)
	}
}

// TraceOpen starts writing an FST waveform to path with the time axis of a clockMHz clock: from now on cycle C
// dumps at C periods (clk low) and C + 1/2 periods (clk rising), in ticks of the model's time precision (the
// RTL's `timescale precision). It fails unless the model was built with the Trace variant, if a trace is
// already open, or if half a period is less than one tick.
func (m *Model) TraceOpen(path string, clockMHz float64) error {
	if m.h == nil {
		return errClosed
	}
	if !(clockMHz > 0) || math.IsInf(clockMHz, 1) {
		return fmt.Errorf("model %s: trace clock %g MHz, want a finite frequency above 0", m.name, clockMHz)
	}
	cpath := C.CString(path)
	defer C.free(unsafe.Pointer(cpath))
	switch C.sn_call_trace_open(m.api, m.h, cpath, C.double(clockMHz*1e6)) {
	case 0:
		return nil
	case -1:
		return fmt.Errorf("model %s: not built with the %s variant, cannot trace", m.name, Trace)
	case -2:
		return fmt.Errorf("model %s: a trace is already open", m.name)
	case -4:
		return fmt.Errorf("model %s: trace clock %g MHz: half a period is less than the model's time precision",
			m.name, clockMHz)
	default:
		return fmt.Errorf("model %s: cannot open trace file %s", m.name, path)
	}
}

// TraceClose flushes and closes the open trace, if any.
func (m *Model) TraceClose() {
	if m.h == nil {
		return
	}
	C.sn_call_trace_close(m.api, m.h)
}

// WriteCoverage writes the coverage counts so far to path, in Verilator's coverage .dat format (for
// verilator_coverage). It fails unless the model was built with the Coverage variant.
func (m *Model) WriteCoverage(path string) error {
	if m.h == nil {
		return errClosed
	}
	cpath := C.CString(path)
	defer C.free(unsafe.Pointer(cpath))
	switch C.sn_call_coverage_write(m.api, m.h, cpath) {
	case 0:
		return nil
	case -1:
		return fmt.Errorf("model %s: not built with the %s variant, no coverage", m.name, Coverage)
	default:
		return fmt.Errorf("model %s: cannot write coverage file %s", m.name, path)
	}
}

// Close closes the trace, runs the model's final blocks and frees the instance. Closing twice is harmless.
func (m *Model) Close() {
	if m.h == nil {
		return
	}
	C.sn_call_free(m.api, m.h)
	m.h = nil
}

// PortsError lists every difference between a model's ports and the expected ones.
type PortsError struct {
	// Model names the model.
	Model string
	// Diffs are the differences, one sentence each: "port x: width 4 in the model, 5 expected".
	Diffs []string
}

// Error returns the model name and every difference.
func (e *PortsError) Error() string {
	return fmt.Sprintf("model %s: ports differ from the expected ones: %s", e.Model, strings.Join(e.Diffs, "; "))
}

// CheckPorts compares the model's ports with want (clk excluded) and returns a *PortsError listing every difference
// of name, direction and width. When names and directions agree, it also checks the order of the inputs and of the
// outputs, which fixes the packing.
func (m *Model) CheckPorts(want []Port) error {
	var diffs []string
	wanted := make(map[string]Port, len(want))
	for _, p := range want {
		wanted[p.Name] = p
	}
	have := make(map[string]bool, len(m.ports))
	for _, p := range m.ports {
		have[p.Name] = true
		w, ok := wanted[p.Name]
		switch {
		case !ok:
			diffs = append(diffs, fmt.Sprintf("port %s: not expected", p.Name))
		case w.Dir != p.Dir:
			diffs = append(diffs, fmt.Sprintf("port %s: direction %s in the model, %s expected", p.Name, p.Dir, w.Dir))
		case w.Width != p.Width:
			diffs = append(diffs, fmt.Sprintf("port %s: width %d in the model, %d expected", p.Name, p.Width, w.Width))
		}
	}
	for _, w := range want {
		if !have[w.Name] {
			diffs = append(diffs, fmt.Sprintf("port %s: missing in the model", w.Name))
		}
	}
	if len(diffs) == 0 && len(want) == len(m.ports) {
		// Same names and directions: the position among the ports of the same direction must agree too.
		position := func(ports []Port) map[string]int {
			pos := make(map[string]int)
			count := map[Dir]int{}
			for _, p := range ports {
				pos[p.Name] = count[p.Dir]
				count[p.Dir]++
			}
			return pos
		}
		got, exp := position(m.ports), position(want)
		for _, p := range m.ports {
			if got[p.Name] != exp[p.Name] {
				diffs = append(diffs,
					fmt.Sprintf("port %s: %s %d in the model, %d expected", p.Name, p.Dir, got[p.Name], exp[p.Name]))
			}
		}
	}
	if len(diffs) == 0 && len(want) != len(m.ports) {
		diffs = append(diffs, fmt.Sprintf("%d ports in the model, %d expected (duplicate names?)", len(m.ports),
			len(want)))
	}
	if len(diffs) > 0 {
		return &PortsError{Model: m.name, Diffs: diffs}
	}
	return nil
}
