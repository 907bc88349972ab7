package regmap

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/spraynic/spraynic/config"
)

// The generated files, relative to this package's directory.
const (
	vhFile  = "../rtl/nic_roce_regs.vh"
	docFile = "../docs/nic_roce.md"
)

func TestNicRoCEConsistent(t *testing.T) {
	require.NoError(t, NicRoCE().Check())
}

// TestGeneratedFilesCurrent is what makes package regmap the one source: the checked-in header and the doc's
// register table must be exactly the generator's output.
func TestGeneratedFilesCurrent(t *testing.T) {
	m := NicRoCE()
	vh, err := os.ReadFile(vhFile)
	require.NoError(t, err)
	require.Equal(t, string(m.Verilog()), string(vh), "%s is not as generated: run spraynic regmap", vhFile)
	doc, err := os.ReadFile(docFile)
	require.NoError(t, err)
	want, err := Splice(doc, m.Table())
	require.NoError(t, err)
	require.Equal(t, string(want), string(doc), "%s: register table not as generated: run spraynic regmap", docFile)
}

// TestCheckRefuses breaks one rule at a time and requires Check to name it.
func TestCheckRefuses(t *testing.T) {
	cases := []struct {
		name   string
		mutate func(m *Map)
		want   string
	}{
		{name: "misaligned", mutate: func(m *Map) { m.Blocks[0].Registers[1].Offset = 0x06 }, want: "aligned"},
		{name: "same offset", mutate: func(m *Map) { m.Blocks[0].Registers[1].Offset = 0x00 }, want: "both at"},
		{name: "blocks overlap", mutate: func(m *Map) { m.Blocks[1].Base = 0x0020 }, want: "overlap"},
		{name: "window entry", mutate: func(m *Map) { m.Blocks[3].Registers[0].Offset = 0x20 }, want: "entry"},
		{name: "address space", mutate: func(m *Map) { m.Blocks[3].MaxCount = 4096 }, want: "address space"},
		{name: "field beyond 31", mutate: func(m *Map) { m.Blocks[0].Registers[1].Fields[1].Lsb = 17 },
			want: "outside 0..31"},
		{name: "fields overlap", mutate: func(m *Map) { m.Blocks[0].Registers[1].Fields[1].Lsb = 15 },
			want: "overlaps"},
		{name: "illegal reset", mutate: func(m *Map) { ttl(m).Reset = 0 }, want: "not a legal value"},
		{name: "reset too wide", mutate: func(m *Map) { ttl(m).Reset = 256 }, want: "does not fit"},
		{name: "range too wide", mutate: func(m *Map) { ttl(m).Max = 256 }, want: "does not fit"},
		{name: "legal on RO", mutate: func(m *Map) { m.Blocks[2].Registers[0].Fields[0].Max = 5 },
			want: "legal values given"},
		{name: "name twice", mutate: func(m *Map) { m.Blocks[2].Registers[1].Name = "CNT_SENT" }, want: "twice"},
		{name: "W1C reset", mutate: func(m *Map) { m.Blocks[0].Registers[6].Fields[0].Reset = 1 },
			want: "resets to 0"},
		{name: "access", mutate: func(m *Map) { m.Blocks[0].Registers[0].Access = "RX" }, want: "unknown access"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			m := NicRoCE()
			tc.mutate(&m)
			err := m.Check()
			require.Error(t, err)
			require.Contains(t, err.Error(), tc.want)
		})
	}
}

// ttl is the TTL field of IP_TOS, a field with a legal range.
func ttl(m *Map) *Field {
	r := &m.Blocks[0].Registers[10]
	if r.Name != "IP_TOS" {
		panic("the test's register index moved: " + r.Name)
	}
	return &r.Fields[1]
}

// TestParamsFit requires every parameter the map names to be a config key's Verilog parameter whose largest
// allowed value fits the field: a reset equal to it, a value below it, a window of that many entries.
func TestParamsFit(t *testing.T) {
	largest := map[string]int{}
	for _, k := range config.Keys {
		largest[k.Verilog] = k.Max
	}
	for _, b := range NicRoCE().Blocks {
		if b.Count != "" {
			require.Contains(t, largest, b.Count, "block %s", b.Name)
			require.LessOrEqual(t, largest[b.Count], b.MaxCount, "block %s: %s", b.Name, b.Count)
		}
		for _, r := range b.Registers {
			for _, f := range r.Fields {
				top := 1<<f.Width - 1
				if f.ResetParam != "" {
					require.Contains(t, largest, f.ResetParam, "%s.%s", r.Name, f.Name)
					require.LessOrEqual(t, largest[f.ResetParam], top, "%s.%s", r.Name, f.Name)
				}
				if f.Below != "" {
					require.Contains(t, largest, f.Below, "%s.%s", r.Name, f.Name)
					require.LessOrEqual(t, largest[f.Below]-1, top, "%s.%s", r.Name, f.Name)
				}
			}
		}
	}
}

func TestFieldLegal(t *testing.T) {
	f := Field{Name: "ttl", Lsb: 8, Width: 8, Min: 1, Max: 255}
	require.False(t, f.Legal(0))
	require.True(t, f.Legal(1))
	require.True(t, f.Legal(255))
	require.False(t, f.Legal(256))
	cmd := Field{Name: "cmd", Width: 2, Values: []uint32{1, 2}}
	require.False(t, cmd.Legal(0))
	require.True(t, cmd.Legal(2))
	require.False(t, cmd.Legal(3))
	all := Field{Name: "value", Width: 24}
	require.True(t, all.Legal(0xFFFFFF))
	require.False(t, all.Legal(0x1000000))
}

// TestCountersCoverRTL requires a register for every counter port of the blocks inside the top, and no register
// naming a counter port that does not exist.
func TestCountersCoverRTL(t *testing.T) {
	sources := map[string]bool{}
	for _, b := range NicRoCE().Blocks {
		for _, r := range b.Registers {
			sources[r.Source] = true
		}
	}
	port := regexp.MustCompile(`output\s+(?:wire|reg)\s+\[31:0\]\s+(cnt_\w+)`)
	ports := map[string]bool{}
	for _, top := range []string{"nic_transport", "roce_rx"} {
		src, err := os.ReadFile(filepath.Join("..", "rtl", top+".v"))
		require.NoError(t, err)
		ms := port.FindAllSubmatch(src, -1)
		require.NotEmpty(t, ms, "no counter ports in rtl/%s.v", top)
		for _, m := range ms {
			name := top + "." + string(m[1])
			ports[name] = true
			require.True(t, sources[name], "no register shows %s", name)
		}
	}
	for s := range sources {
		if strings.Contains(s, ".cnt_") {
			require.True(t, ports[s], "register source %s is not a counter port", s)
		}
	}
}

func TestVerilogHeader(t *testing.T) {
	vh := NicRoCE().Verilog()
	names := map[string]bool{}
	decl := regexp.MustCompile(`^localparam (?:\[\d+:0\] )?(\w+) = `)
	for i, line := range strings.Split(strings.TrimSuffix(string(vh), "\n"), "\n") {
		require.LessOrEqual(t, len(line), 100, "line %d: %q", i+1, line)
		if m := decl.FindStringSubmatch(line); m != nil {
			require.False(t, names[m[1]], "localparam %s twice", m[1])
			names[m[1]] = true
		}
	}
	require.True(t, names["NR_CONN_PEER_IP_OFF"] && names["NR_IP_TOS_TTL_MIN"] && names["NR_CONN_CMD_CMD_LEGAL"])
}

// TestVerilogHeaderLint includes the header in a module and checks it with `verilator --lint-only -Wall` and
// `iverilog -g2005`, each when it is installed.
func TestVerilogHeaderLint(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "nic_roce_regs.vh"), NicRoCE().Verilog(), 0o644))
	mod := "module inc_check (input wire [15:0] addr, output wire hit);\n`include \"nic_roce_regs.vh\"\n" +
		"assign hit = addr == NR_CTRL_ADDR;\nendmodule\n"
	require.NoError(t, os.WriteFile(filepath.Join(dir, "inc_check.v"), []byte(mod), 0o644))
	src := filepath.Join(dir, "inc_check.v")
	tools := [][]string{
		{"verilator", "--lint-only", "-Wall", "-I" + dir, src},
		{"iverilog", "-g2005", "-Wall", "-I" + dir, "-o", os.DevNull, src},
	}
	ran := 0
	for _, args := range tools {
		if _, err := exec.LookPath(args[0]); err != nil {
			continue
		}
		out, err := exec.Command(args[0], args[1:]...).CombinedOutput()
		require.NoError(t, err, "%s", out)
		require.Empty(t, strings.TrimSpace(string(out)), "%s warns", args[0])
		ran++
	}
	if ran == 0 {
		t.Skip("neither verilator nor iverilog installed")
	}
}

func TestTable(t *testing.T) {
	tab := string(NicRoCE().Table())
	require.Contains(t, tab, "| 0x002C | `IP_TOS` | RW | 5:0 dscp = 26; 15:8 ttl = 64, legal 1..255 |")
	require.Contains(t, tab, "| 0x0018 | `CONN_CMD` | WO | 1:0 cmd, legal 1, 2 |")
	require.Contains(t, tab, "`CONN_PEER_IP` | RW, closed only |")
}

func TestSplice(t *testing.T) {
	doc := []byte("a\n" + BeginMarker + "\nold\n" + EndMarker + "\nb\n")
	out, err := Splice(doc, []byte("new\n"))
	require.NoError(t, err)
	require.Equal(t, "a\n"+BeginMarker+"\nnew\n"+EndMarker+"\nb\n", string(out))
	bad := map[string]string{
		"no markers":  "a\nb\n",
		"reversed":    EndMarker + "\n" + BeginMarker + "\n",
		"twice":       BeginMarker + "\n" + EndMarker + "\n" + BeginMarker + "\n" + EndMarker + "\n",
		"inside line": "x" + BeginMarker + "\n" + EndMarker + "\n",
	}
	for name, d := range bad {
		_, err := Splice([]byte(d), nil)
		require.Error(t, err, name)
	}
	require.True(t, bytes.HasPrefix(out, []byte("a\n")))
}
