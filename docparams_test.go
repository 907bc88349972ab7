package spraynic_test

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/spraynic/spraynic/config"
	"github.com/stretchr/testify/require"
)

// paramDocs are the docs whose "Parameters" table lists a module's Verilog parameters, and whether the table must
// name every parameter the module declares (docs/nic_roce.md lists the preset's keys in prose and tabulates only
// its fixed localparams).
var paramDocs = []struct {
	doc, top string
	all      bool
}{
	{doc: "rx_reorder.md", top: "rx_reorder", all: true},
	{doc: "path_sel.md", top: "path_sel", all: true},
	{doc: "retx.md", top: "retx", all: true},
	{doc: "roce_rtl.md", top: "roce_icrc", all: true},
	{doc: "roce_rx.md", top: "roce_rx", all: true},
	{doc: "roce_tx.md", top: "roce_tx", all: true},
	{doc: "nic_roce_csr.md", top: "nic_roce_csr", all: true},
	{doc: "nic_roce.md", top: "nic_roce"},
}

// paramDecl matches a parameter or localparam declaration with a plain value: kind, name, value.
var paramDecl = regexp.MustCompile(`(?m)^\s*(parameter|localparam)\s+(?:integer\s+)?([A-Za-z_]\w*)\s*=\s*([^,;\n]+)`)

// TestDocParams holds each doc's "Parameters" table to its module (rtl/<top>.v): every name is a parameter or a
// localparam of it, a "value" column equals the localparam's literal value, a "config key" column names the
// config.Keys entry of that parameter, and an "allowed" column in one of the forms "A..B", "power of two,
// A..B", "exactly N" or a list of values equals that key's range; with all set, every parameter is named.
func TestDocParams(t *testing.T) {
	keys := map[string]config.Key{}
	for _, k := range config.Keys {
		keys[k.Verilog] = k
	}
	for _, d := range paramDocs {
		t.Run(d.top, func(t *testing.T) {
			src, err := os.ReadFile(filepath.Join("rtl", d.top+".v"))
			require.NoError(t, err)
			decl := map[string][2]string{}
			for _, m := range paramDecl.FindAllStringSubmatch(string(src), -1) {
				decl[m[2]] = [2]string{m[1], strings.TrimSpace(m[3])}
			}
			f, err := os.Open(filepath.Join("docs", d.doc))
			require.NoError(t, err)
			defer func() { _ = f.Close() }()
			rows, err := paramRows(bufio.NewScanner(f))
			require.NoError(t, err, "docs/%s", d.doc)
			require.NotEmpty(t, rows, "docs/%s: no parameter table under a Parameters heading", d.doc)
			var errs []string
			named := map[string]bool{}
			for _, r := range rows {
				named[r["name"]] = true
				errs = append(errs, checkParamRow(r, decl, keys)...)
			}
			for n, dv := range decl {
				if d.all && dv[0] == "parameter" && !named[n] {
					errs = append(errs, fmt.Sprintf("parameter %s is not in the table", n))
				}
			}
			require.Empty(t, errs, "docs/%s against rtl/%s.v", d.doc, d.top)
		})
	}
}

// paramRows returns the rows of the parameter table (the first table under the heading "Parameters") as column
// header -> cell; the first column (headed "Verilog" or "name") is under "name", as its first code span.
func paramRows(sc *bufio.Scanner) ([]map[string]string, error) {
	head, rows, err := docTable(sc, "Parameters")
	if err != nil {
		return nil, err
	}
	if len(head) == 0 || head[0] != "Verilog" && head[0] != "name" {
		return nil, fmt.Errorf("parameter table header %q: the first column is not Verilog or name", head)
	}
	var out []map[string]string
	for _, cells := range rows {
		r := map[string]string{}
		for i, c := range cells {
			if i < len(head) {
				r[head[i]] = c
			}
		}
		m := portName.FindStringSubmatch(cells[0])
		if m == nil {
			return nil, fmt.Errorf("parameter row %q names no parameter", cells)
		}
		r["name"] = m[1]
		out = append(out, r)
	}
	return out, nil
}

// checkParamRow returns one message per way row r disagrees with the module's declarations or config.Keys.
func checkParamRow(r map[string]string, decl map[string][2]string, keys map[string]config.Key) []string {
	n := r["name"]
	dv, ok := decl[n]
	if !ok {
		return []string{fmt.Sprintf("%s is no parameter or localparam", n)}
	}
	var errs []string
	if v, ok := r["value"]; ok && dv[0] == "localparam" && v != dv[1] {
		errs = append(errs, fmt.Sprintf("%s: value %s in the table, %s in the RTL", n, v, dv[1]))
	}
	k, isKey := keys[n]
	if ck, ok := r["config key"]; ok && (!isKey || ck != "`"+k.JSON+"`") {
		errs = append(errs, fmt.Sprintf("%s: config key %s in the table, %q in config.Keys", n, ck, k.JSON))
	}
	if a, ok := r["allowed"]; ok && isKey {
		if lo, hi, pow2, ok := parseAllowed(a); ok && (lo != k.Min || hi != k.Max || pow2 != k.Pow2) {
			errs = append(errs, fmt.Sprintf("%s: allowed %q in the table, config.Keys %d..%d (power of two %v)",
				n, a, k.Min, k.Max, k.Pow2))
		}
	}
	return errs
}

var (
	// allowedRange is "A..B" or "power of two, A..B", then anything.
	allowedRange = regexp.MustCompile(`^(power of two, )?(\d+)\.\.(\d+)\b`)
	// allowedExact is "N" or "exactly N", then nothing but a parenthesis.
	allowedExact = regexp.MustCompile(`^(?:exactly )?(\d+)\s*(?:\(|$)`)
	// allowedList is a list of values, "64, 128, 256 or 512", after an optional "words:" label.
	allowedList = regexp.MustCompile(`^(?:[a-zA-Z ]+: )?(\d+(?:(?:, | or )\d+)+)\s*(?:\(|$)`)
)

// parseAllowed reads an "allowed" cell as a range; ok is false for any other form (a rule between parameters).
// A list of values is a range of powers of two when each value doubles the one before.
func parseAllowed(a string) (lo, hi int, pow2, ok bool) {
	if m := allowedRange.FindStringSubmatch(a); m != nil {
		lo, _ = strconv.Atoi(m[2])
		hi, _ = strconv.Atoi(m[3])
		return lo, hi, m[1] != "", true
	}
	if m := allowedExact.FindStringSubmatch(a); m != nil {
		lo, _ = strconv.Atoi(m[1])
		return lo, lo, false, true
	}
	if m := allowedList.FindStringSubmatch(a); m != nil {
		var vs []int
		for _, f := range regexp.MustCompile(`\d+`).FindAllString(m[1], -1) {
			v, _ := strconv.Atoi(f)
			vs = append(vs, v)
		}
		for i := 1; i < len(vs); i++ {
			if vs[i] != 2*vs[i-1] {
				return 0, 0, false, false
			}
		}
		return vs[0], vs[len(vs)-1], true, true
	}
	return 0, 0, false, false
}
