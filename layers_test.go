package spraynic_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// module is this module's path; imports outside it are not layered.
const module = "github.com/spraynic/spraynic"

// layer is one row of README.md's layer table: its name and the package patterns it holds ("golden/*" is every
// package below golden/).
type layer struct {
	name     string
	patterns []string
}

// readLayers parses the layer table of README.md's "Architecture" section, top layer first: rows of the form
// "| name | `pkg`, `dir/*` | job |".
func readLayers(r io.Reader) ([]layer, error) {
	var ls []layer
	in := false
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "## ") {
			in = line == "## Architecture"
			continue
		}
		if !in || !strings.HasPrefix(line, "| ") {
			continue
		}
		cells := strings.Split(strings.Trim(line, "|"), "|")
		if len(cells) < 2 || !strings.Contains(cells[1], "`") {
			continue
		}
		l := layer{name: strings.TrimSpace(cells[0])}
		for _, p := range strings.Split(cells[1], ",") {
			l.patterns = append(l.patterns, strings.Trim(strings.TrimSpace(p), "`"))
		}
		ls = append(ls, l)
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if len(ls) == 0 {
		return nil, fmt.Errorf("README.md: no layer table in section Architecture")
	}
	return ls, nil
}

// rank is the layer index of a package path relative to the module (0: top), or -1 when no layer holds it.
func rank(ls []layer, pkg string) int {
	for i, l := range ls {
		for _, p := range l.patterns {
			if p == pkg || (strings.HasSuffix(p, "/*") && strings.HasPrefix(pkg, strings.TrimSuffix(p, "*"))) {
				return i
			}
		}
	}
	return -1
}

// goPackage is the part of `go list -json` this test reads.
type goPackage struct {
	ImportPath                         string
	Imports, TestImports, XTestImports []string
}

// listPackages runs go list -json ./... in the module root.
func listPackages(t *testing.T) []goPackage {
	out, err := exec.Command("go", "list", "-json", "./...").Output()
	require.NoError(t, err, "go list -json ./...")
	var pkgs []goPackage
	dec := json.NewDecoder(bytes.NewReader(out))
	for dec.More() {
		var p goPackage
		require.NoError(t, dec.Decode(&p))
		pkgs = append(pkgs, p)
	}
	return pkgs
}

// violations lists every import of pkgs that reaches a layer above the importer's, and every package in no layer.
func violations(ls []layer, pkgs []goPackage) []string {
	var bad []string
	for _, p := range pkgs {
		rel := strings.TrimPrefix(strings.TrimPrefix(p.ImportPath, module), "/")
		if rel == "" {
			continue // the module root holds only this test
		}
		from := rank(ls, rel)
		if from < 0 {
			bad = append(bad, fmt.Sprintf("%s is in no layer of README.md's Architecture table", rel))
			continue
		}
		imports := append(append(append([]string{}, p.Imports...), p.TestImports...), p.XTestImports...)
		for _, imp := range imports {
			if !strings.HasPrefix(imp, module+"/") {
				continue
			}
			to := strings.TrimPrefix(imp, module+"/")
			if r := rank(ls, to); r < from {
				bad = append(bad, fmt.Sprintf("%s (layer %s) imports %s (layer %s, above it)", rel, ls[from].name, to,
					layerName(ls, r)))
			}
		}
	}
	return bad
}

// layerName names layer r, or says there is none.
func layerName(ls []layer, r int) string {
	if r < 0 {
		return "none"
	}
	return ls[r].name
}

// TestLayers checks the module's import graph against the layers of README.md.
func TestLayers(t *testing.T) {
	f, err := os.Open("README.md")
	require.NoError(t, err)
	defer f.Close()
	ls, err := readLayers(f)
	require.NoError(t, err)
	bad := violations(ls, listPackages(t))
	require.Empty(t, bad, "imports against the layers of README.md, Architecture (top layer first)")
}

// TestLayersBite checks that the rule rejects an upward import and an unplaced package, so the test above cannot
// pass vacuously.
func TestLayersBite(t *testing.T) {
	ls := []layer{{name: "top", patterns: []string{"cmd/*"}}, {name: "mid", patterns: []string{"cosim"}},
		{name: "base", patterns: []string{"golden/*", "config"}}}
	for _, tc := range []struct {
		name string
		pkg  goPackage
		want int
	}{
		{name: "down", pkg: goPackage{ImportPath: module + "/cosim", Imports: []string{module + "/golden/retx"}}},
		{name: "same layer",
			pkg: goPackage{ImportPath: module + "/golden/retx", Imports: []string{module + "/config"}}},
		{name: "outside the module", pkg: goPackage{ImportPath: module + "/config", Imports: []string{"fmt"}}},
		{name: "up",
			pkg: goPackage{ImportPath: module + "/golden/retx", Imports: []string{module + "/cosim"}}, want: 1},
		{name: "up in a test",
			pkg: goPackage{ImportPath: module + "/config", XTestImports: []string{module + "/cmd/x"}}, want: 1},
		{name: "no layer", pkg: goPackage{ImportPath: module + "/stray"}, want: 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			require.Len(t, violations(ls, []goPackage{tc.pkg}), tc.want)
		})
	}
	require.Equal(t, 2, rank(ls, path.Join("golden", "retx")), "golden/* holds golden/retx")
}
