package cosim

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"

	"github.com/spraynic/spraynic/config"
	"github.com/spraynic/spraynic/cosim/bridge"
	"github.com/spraynic/spraynic/tops"
)

// CacheDir is where models are built and cached: $SPRAYNIC_CACHE, else build/models under root.
func CacheDir(root string) string {
	if c := os.Getenv("SPRAYNIC_CACHE"); c != "" {
		return c
	}
	return filepath.Join(root, "build", "models")
}

// BuildModel builds (or finds in CacheDir) the plain model the tests run of a top of the manifest: for nic_roce
// its testbench nic_roce_tb, through which the lockstep drives it (BuildNicRoCETB); for every other top the top
// itself (BuildTop).
func BuildModel(root, top string, cfg config.Config, log io.Writer) (string, error) {
	if top == "nic_roce" {
		return BuildNicRoCETB(root, cfg, CacheDir(root))
	}
	return BuildTop(root, top, cfg, bridge.Plain, log)
}

// BuildTop builds (or finds in the cache) the Verilator model of top under cfg.
func BuildTop(root, top string, cfg config.Config, v bridge.Variant, log io.Writer) (string, error) {
	src, err := tops.Sources(root, top)
	if err != nil {
		return "", err
	}
	tps, err := tops.Params(root, top, cfg)
	if err != nil {
		return "", err
	}
	var params []bridge.Param
	for _, p := range tps {
		params = append(params, bridge.Param{Name: p.Name, Value: p.Value})
	}
	cache := CacheDir(root)
	waivers := filepath.Join(root, "rtl", "lint.vlt")
	if _, err := os.Stat(waivers); err != nil {
		waivers = ""
	}
	// One build per model at a time in this process: parallel tests asking for the same model wait for the first
	// build and then hit the cache instead of compiling it again side by side.
	unlock := lockBuild(fmt.Sprint(top, params, v, cache))
	defer unlock()
	// The build's own log is shown only when it fails; a cache hit prints nothing, a build one line.
	var blog bytes.Buffer
	incs, err := tops.Includes(src)
	if err != nil {
		return "", err
	}
	lib, err := bridge.Build(bridge.Spec{Top: top, Sources: src, Includes: incs, Waivers: waivers,
		Params: params, Variant: v, CacheDir: cache}, &blog)
	if err != nil {
		if log != nil {
			log.Write(blog.Bytes())
		}
		return "", err
	}
	if blog.Len() > 0 && log != nil {
		fmt.Fprintf(log, "built %s model of %s for config %s: %s\n", v, top, cfg.Name, lib)
	}
	return lib, nil
}

// buildLocks holds one mutex per model being built in this process.
var buildLocks = struct {
	sync.Mutex
	m map[string]*sync.Mutex
}{m: map[string]*sync.Mutex{}}

// lockBuild locks the build of the model named key and returns its unlock.
func lockBuild(key string) func() {
	buildLocks.Lock()
	l, ok := buildLocks.m[key]
	if !ok {
		l = &sync.Mutex{}
		buildLocks.m[key] = l
	}
	buildLocks.Unlock()
	l.Lock()
	return l.Unlock
}
