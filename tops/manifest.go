package tops

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"

	"github.com/spraynic/spraynic/config"
)

// Manifest is rtl/manifest.json: the synthesizable tops and their source files, the one list every flow uses.
type Manifest struct {
	// Tops lists every top with the RTL files it needs (relative to rtl/).
	Tops []TopFiles `json:"tops"`
}

// TopFiles is one top and its sources.
type TopFiles struct {
	// Name is the top module; Files its sources, relative to rtl/.
	Name  string   `json:"name"`
	Files []string `json:"files"`
	// SynthWhenNamed marks a top too large for the yosys runs of every top (nic_roce: docs/nic_roce_rtl.md,
	// "Resources"): yosys runs it only when it is named (synth --top), so it has no FPGA baseline. Lint, the
	// Vivado scripts, the FuseSoC core and the elaboration checks take it like any top.
	SynthWhenNamed bool `json:"synth_when_named,omitempty"`
}

// Root finds the repository: $SPRAYNIC_ROOT, else the nearest parent of the working directory with rtl/manifest.json.
func Root() (string, error) {
	if r := os.Getenv("SPRAYNIC_ROOT"); r != "" {
		if _, err := os.Stat(filepath.Join(r, "rtl", "manifest.json")); err != nil {
			return "", fmt.Errorf("SPRAYNIC_ROOT=%s: no rtl/manifest.json there", r)
		}
		return r, nil
	}
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "rtl", "manifest.json")); err == nil {
			return dir, nil
		}
		up := filepath.Dir(dir)
		if up == dir {
			return "", fmt.Errorf("no spraynic repository (rtl/manifest.json) above the working directory; " +
				"set SPRAYNIC_ROOT")
		}
		dir = up
	}
}

// LoadManifest reads rtl/manifest.json under root.
func LoadManifest(root string) (Manifest, error) {
	var m Manifest
	b, err := os.ReadFile(filepath.Join(root, "rtl", "manifest.json"))
	if err != nil {
		return m, err
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields() // a misspelt key (synth_when_named) is an error, not a silent default
	if err := dec.Decode(&m); err != nil {
		return m, fmt.Errorf("rtl/manifest.json: %w", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return m, fmt.Errorf("rtl/manifest.json: more than one JSON object (allowed: one, {\"tops\": [...]})")
	}
	return m, nil
}

// Sources reads rtl/manifest.json under root and returns the absolute source paths of top.
func Sources(root, top string) ([]string, error) {
	m, err := LoadManifest(root)
	if err != nil {
		return nil, err
	}
	return m.Sources(root, top)
}

// Sources returns the absolute source paths of top.
func (m Manifest) Sources(root, top string) ([]string, error) {
	t, err := m.Top(top)
	if err != nil {
		return nil, err
	}
	var s []string
	for _, f := range t.Files {
		s = append(s, filepath.Join(root, "rtl", f))
	}
	return s, nil
}

// Top returns the manifest's entry of top.
func (m Manifest) Top(top string) (TopFiles, error) {
	for _, t := range m.Tops {
		if t.Name == top {
			return t, nil
		}
	}
	return TopFiles{}, fmt.Errorf("top %q is not in rtl/manifest.json", top)
}

// ModuleFile tells whether name is a module of the design with its own file rtl/<name>.v, a top of the manifest
// or not (roce_icrc, ram_sdp): a Verilog identifier, so no path.
func ModuleFile(root, name string) bool {
	if !ident.MatchString(name) {
		return false
	}
	st, err := os.Stat(filepath.Join(root, "rtl", name+".v"))
	return err == nil && st.Mode().IsRegular()
}

// ident is a simple Verilog identifier.
var ident = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// paramDecl matches a (non-local) parameter declaration of a module header.
var paramDecl = regexp.MustCompile(`(?m)^\s*parameter\s+(?:integer\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=`)

// instanceParams are the parameters of a module that its parent sets per instance, not the configuration:
// elaborated alone, the module keeps their defaults (roce_icrc's RX_ICRC: 2 in roce_rx, 0 in roce_tx).
var instanceParams = map[string][]string{"roce_icrc": {"RX_ICRC"}}

// Params returns the configuration's Verilog parameters that top declares (read from rtl/<top>.v: one module
// per file), in configuration order. Verilator refuses a -G the design does not have, so each top gets its own.
func Params(root, top string, cfg config.Config) ([]config.Param, error) {
	src, err := os.ReadFile(filepath.Join(root, "rtl", top+".v"))
	if err != nil {
		return nil, fmt.Errorf("top %s: %w", top, err)
	}
	declared := map[string]bool{}
	for _, m := range paramDecl.FindAllStringSubmatch(string(src), -1) {
		declared[m[1]] = true
	}
	var ps []config.Param
	for _, p := range cfg.Params() {
		if declared[p.Name] {
			ps = append(ps, p)
			delete(declared, p.Name)
		}
	}
	for _, name := range instanceParams[top] {
		delete(declared, name)
	}
	for name := range declared {
		return nil, fmt.Errorf("top %s declares parameter %s, which no config key sets (config.Keys)", top, name)
	}
	return ps, nil
}

// Names lists the tops of the manifest in its order.
func (m Manifest) Names() []string {
	var names []string
	for _, t := range m.Tops {
		names = append(names, t.Name)
	}
	return names
}

// SynthNames lists the tops that the yosys runs of every top take, in order: all but those marked
// SynthWhenNamed (one too big for a device is a does-not-fit report in the FPGA flows, not a reason to leave
// it out).
func (m Manifest) SynthNames() []string {
	var names []string
	for _, t := range m.Tops {
		if !t.SynthWhenNamed {
			names = append(names, t.Name)
		}
	}
	return names
}
