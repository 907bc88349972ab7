package spraynic_test

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/spraynic/spraynic/config"
	"github.com/spraynic/spraynic/cosim/bridge"
	"github.com/spraynic/spraynic/tops"
	"github.com/stretchr/testify/require"
)

// docPorts names a doc's port table and the RTL module it describes.
type docPorts struct {
	// doc is the file under docs/; its first heading "Ports" (any level) holds the table.
	doc string
	// top is the module; files its sources under rtl/ (nil: rtl/manifest.json's list).
	top   string
	files []string
}

// portDocs are the docs whose "Ports" tables list a module's Verilog ports by name. docs/nic_transport.md lists
// the Go twin's field names instead and points to rtl/nic_transport.v.
var portDocs = []docPorts{
	{doc: "rx_reorder.md", top: "rx_reorder"},
	{doc: "path_sel.md", top: "path_sel"},
	{doc: "retx.md", top: "retx"},
	{doc: "roce_rtl.md", top: "roce_icrc", files: []string{"roce_icrc.v"}},
	{doc: "roce_rx.md", top: "roce_rx"},
	{doc: "roce_tx.md", top: "roce_tx"},
	{doc: "nic_roce_csr.md", top: "nic_roce_csr"},
	{doc: "nic_roce.md", top: "nic_roce"},
}

// TestDocPorts holds every port table of portDocs equal to its module's ports, as Verilator elaborates the module
// at the default preset: each name the table gives is a port, and each port is named. A name in the table may be
// a suffix of the one before it in its cell (`s_axis_tdata`, `_tkeep`) or a pattern (`cnt_*`).
func TestDocPorts(t *testing.T) {
	if _, err := exec.LookPath("verilator"); err != nil {
		t.Skip("verilator not installed (make deps)")
	}
	root, err := filepath.Abs(".")
	require.NoError(t, err)
	cfg, err := config.Preset("default")
	require.NoError(t, err)
	for _, d := range portDocs {
		t.Run(d.top, func(t *testing.T) {
			ports := rtlPorts(t, root, d, cfg)
			f, err := os.Open(filepath.Join(root, "docs", d.doc))
			require.NoError(t, err)
			defer func() { _ = f.Close() }()
			cells, err := portCells(bufio.NewScanner(f))
			require.NoError(t, err, "docs/%s", d.doc)
			require.NotEmpty(t, cells, "docs/%s: no port table under a Ports heading", d.doc)
			named, errs := resolvePorts(cells, ports)
			for p := range ports {
				if !named[p] {
					errs = append(errs, fmt.Sprintf("port %s of %s is not in the table", p, d.top))
				}
			}
			sort.Strings(errs)
			require.Empty(t, errs, "docs/%s against rtl/%s.v", d.doc, d.top)
		})
	}
}

// rtlPorts elaborates d's module at cfg and returns its port names, clk included.
func rtlPorts(t *testing.T, root string, d docPorts, cfg config.Config) map[string]bool {
	var files []string
	for _, f := range d.files {
		files = append(files, filepath.Join(root, "rtl", f))
	}
	if files == nil {
		var err error
		files, err = tops.Sources(root, d.top)
		require.NoError(t, err)
	}
	params, err := tops.Params(root, d.top, cfg)
	require.NoError(t, err)
	incs, err := tops.Includes(files)
	require.NoError(t, err)
	spec := bridge.Spec{Top: d.top, Sources: files, Waivers: filepath.Join(root, "rtl", "lint.vlt"),
		Includes: incs}
	for _, p := range params {
		spec.Params = append(spec.Params, bridge.Param{Name: p.Name, Value: p.Value})
	}
	var log bytes.Buffer
	ps, err := bridge.ReadPorts(spec, &log)
	require.NoError(t, err, log.String())
	names := map[string]bool{"clk": true}
	for _, p := range ps {
		names[p.Name] = true
	}
	return names
}

// portName is one `code` span of a table cell.
var portName = regexp.MustCompile("`([^`]+)`")

// docTable returns the header cells and the rows of the first table under the first heading named heading (of any
// level, up to the next heading of the same or a higher level), each cell trimmed; an empty header when there is none.
func docTable(sc *bufio.Scanner, heading string) ([]string, [][]string, error) {
	level := 0
	var head []string
	var rows [][]string
	for sc.Scan() {
		line := sc.Text()
		if h := strings.TrimLeft(line, "#"); h != line && strings.HasPrefix(h, " ") {
			if n := len(line) - len(h); level > 0 && n <= level {
				break
			} else if level == 0 && strings.TrimSpace(h) == heading {
				level = n
			}
			continue
		}
		if level == 0 {
			continue
		}
		if !strings.HasPrefix(line, "|") {
			if head != nil {
				break
			}
			continue
		}
		var cells []string
		for _, c := range strings.Split(strings.Trim(line, "|"), "|") {
			cells = append(cells, strings.TrimSpace(c))
		}
		switch {
		case head == nil:
			head = cells
		case !strings.HasPrefix(cells[0], "---"):
			rows = append(rows, cells)
		}
	}
	return head, rows, sc.Err()
}

// portCells returns, for each row of the port table (the first table under the heading "Ports"), the code spans of
// its port column: the column headed "port" or "ports".
func portCells(sc *bufio.Scanner) ([][]string, error) {
	head, rows, err := docTable(sc, "Ports")
	if err != nil {
		return nil, err
	}
	col := -1
	for i, h := range head {
		if h == "port" || h == "ports" {
			col = i
		}
	}
	if col < 0 {
		return nil, fmt.Errorf("port table header %q has no port column", head)
	}
	var cells [][]string
	for _, r := range rows {
		var names []string
		if col < len(r) {
			for _, m := range portName.FindAllStringSubmatch(r[col], -1) {
				names = append(names, m[1])
			}
		}
		cells = append(cells, names)
	}
	return cells, nil
}

// resolvePorts maps the table's names to ports: a full name must be a port; a suffix ("_tkeep") is joined to a
// prefix of the previous full name of its cell, cut at an underscore, the longest prefix that gives a port; a
// pattern must match at least one port. It returns the ports named and one message per name that is none.
func resolvePorts(cells [][]string, ports map[string]bool) (map[string]bool, []string) {
	named := map[string]bool{}
	var errs []string
	for _, cell := range cells {
		prev := ""
		for _, n := range cell {
			switch {
			case strings.Contains(n, "*"):
				hit := false
				for p := range ports {
					if ok, _ := path.Match(n, p); ok {
						named[p], hit = true, true
					}
				}
				if !hit {
					errs = append(errs, fmt.Sprintf("%s matches no port", n))
				}
			case strings.HasPrefix(n, "_") && prev != "":
				full := ""
				for i := strings.LastIndex(prev, "_"); i > 0 && full == ""; i = strings.LastIndex(prev[:i], "_") {
					if ports[prev[:i]+n] {
						full = prev[:i] + n
					}
				}
				if full == "" {
					errs = append(errs, fmt.Sprintf("%s (after %s) is no port", n, prev))
				}
				named[full] = full != ""
			default:
				if !ports[n] {
					errs = append(errs, fmt.Sprintf("%s is no port", n))
				}
				named[n], prev = true, n
			}
		}
	}
	return named, errs
}
