package config

import (
	"bytes"
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"sort"
	"strconv"
	"strings"
)

//go:embed presets.json
var presetsJSON []byte

// Config is one complete configuration. Every field is a parameter of the RTL (see Keys) and of the Go models.
type Config struct {
	// Name is the preset name or the file the configuration came from; it is not a parameter.
	Name string `json:"-"`
	// Conns is the number of connections.
	Conns int `json:"conns"`
	// Window is the receive window in PSNs: bitmap bits per connection.
	Window int `json:"window"`
	// Paths is the number of paths per connection.
	Paths int `json:"paths"`
	// SackBits is the number of SACK bitmap bits per path.
	SackBits int `json:"sack_bits"`
	// PSNWidth is the connection PSN width; RoCEv2 fixes it at 24.
	PSNWidth int `json:"psn_width"`
	// PseqWidth is the width of the per-path sequence number.
	PseqWidth int `json:"pseq_width"`
	// HandleWidth is the width of the opaque payload handle.
	HandleWidth int `json:"handle_width"`
	// AckEvery is the ACK coalescing count: one ACK per this many accepted packets of a connection.
	AckEvery int `json:"ack_every"`
	// AckFifoDepth is the number of entries of the ACK queue.
	AckFifoDepth int `json:"ack_fifo_depth"`
	// TickCycles is the number of clock cycles per timer tick.
	TickCycles int `json:"tick_cycles"`
	// CwndInit is a path's congestion window after open, in packets.
	CwndInit int `json:"cwnd_init"`
	// CwndMax caps a path's congestion window, in packets.
	CwndMax int `json:"cwnd_max"`
	// AI16ths is the additive increase of a path's window per delivered packet, in 1/16 packet.
	AI16ths int `json:"ai_16ths"`
	// FailK is the number of consecutive losses or timeouts that mark a path failed.
	FailK int `json:"fail_k"`
	// HoldoffTicks is the wait, in ticks, before a failed path is probed.
	HoldoffTicks int `json:"holdoff_ticks"`
	// RTOTicks is the initial retransmission timeout, in ticks.
	RTOTicks int `json:"rto_ticks"`
	// RTOMaxTicks caps the retransmission timeout under exponential backoff, in ticks.
	RTOMaxTicks int `json:"rto_max_ticks"`
	// MaxRetries is the number of retransmissions of one packet before its connection goes to error.
	MaxRetries int `json:"max_retries"`
	// GBN selects the retransmit engine's go-back-N (RoCEv2) mode instead of selective retransmission.
	GBN int `json:"gbn"`
	// QPNBase is the RoCEv2 queue pair number of connection 0: connection c is QP QPNBase+c on the wire.
	QPNBase int `json:"qpn_base"`
	// AckReqTicks bounds the time between ACK requests of a busy connection: a new packet asks for an ACK when the
	// connection has sent none that asked for one for this many timer ticks (0: by count and window only).
	AckReqTicks int `json:"ack_req_ticks"`
	// EarlyCycles is the early loss detection age, in cycles: a duplicate ACK marks the oldest outstanding packet
	// lost when nothing was sent on its path for this long (0: off; losses without a later SACK wait for the RTO).
	EarlyCycles int `json:"early_cycles"`
	// DataWidth is the AXI-Stream width of the frame blocks (roce_rx, roce_tx), bits.
	DataWidth int `json:"data_width"`
	// MTU is the largest RoCEv2 data payload the frame blocks take, bytes: one of the IBTA path MTUs.
	MTU int `json:"mtu"`
}

// Key describes one configuration key: its JSON name, its Verilog parameter and its allowed range.
type Key struct {
	// JSON is the key's name in presets and user files.
	JSON string
	// Verilog is the name of the Verilog parameter it sets.
	Verilog string
	// Min and Max bound the value (inclusive).
	Min, Max int
	// Pow2 requires a power of two.
	Pow2 bool
	// field returns a pointer to the key's field.
	field func(*Config) *int
}

// Keys lists every key in the order of the Verilog parameter lists.
var Keys = []Key{
	key("conns", "CONNS", 2, 1024, pow2, func(c *Config) *int { return &c.Conns }),
	key("window", "WINDOW", 8, 1024, pow2, func(c *Config) *int { return &c.Window }),
	key("paths", "PATHS", 2, 64, pow2, func(c *Config) *int { return &c.Paths }),
	key("sack_bits", "SACK_BITS", 8, 256, pow2, func(c *Config) *int { return &c.SackBits }),
	key("psn_width", "PSN_WIDTH", 24, 24, plain, func(c *Config) *int { return &c.PSNWidth }),
	key("pseq_width", "PSEQ_WIDTH", 8, 24, plain, func(c *Config) *int { return &c.PseqWidth }),
	key("handle_width", "HANDLE_WIDTH", 1, 32, plain, func(c *Config) *int { return &c.HandleWidth }),
	key("ack_every", "ACK_EVERY", 1, 64, plain, func(c *Config) *int { return &c.AckEvery }),
	key("ack_fifo_depth", "ACK_FIFO_DEPTH", 4, 64, pow2, func(c *Config) *int { return &c.AckFifoDepth }),
	key("tick_cycles", "TICK_CYCLES", 2, 65536, plain, func(c *Config) *int { return &c.TickCycles }),
	key("cwnd_init", "CWND_INIT", 1, 255, plain, func(c *Config) *int { return &c.CwndInit }),
	key("cwnd_max", "CWND_MAX", 1, 255, plain, func(c *Config) *int { return &c.CwndMax }),
	key("ai_16ths", "AI_16THS", 1, 16, plain, func(c *Config) *int { return &c.AI16ths }),
	key("fail_k", "FAIL_K", 1, 15, plain, func(c *Config) *int { return &c.FailK }),
	key("holdoff_ticks", "HOLDOFF_TICKS", 1, 255, plain, func(c *Config) *int { return &c.HoldoffTicks }),
	key("rto_ticks", "RTO_TICKS", 1, 65535, plain, func(c *Config) *int { return &c.RTOTicks }),
	key("rto_max_ticks", "RTO_MAX_TICKS", 1, 65535, plain, func(c *Config) *int { return &c.RTOMaxTicks }),
	key("max_retries", "MAX_RETRIES", 1, 15, plain, func(c *Config) *int { return &c.MaxRetries }),
	key("gbn", "GBN", 0, 1, plain, func(c *Config) *int { return &c.GBN }),
	key("qpn_base", "QPN_BASE", 2, 1<<24-3, plain, func(c *Config) *int { return &c.QPNBase }),
	key("ack_req_ticks", "ACK_REQ_TICKS", 0, 15, plain, func(c *Config) *int { return &c.AckReqTicks }),
	key("early_cycles", "EARLY_CYCLES", 0, 32767, plain, func(c *Config) *int { return &c.EarlyCycles }),
	key("data_width", "DATA_WIDTH", 64, 512, pow2, func(c *Config) *int { return &c.DataWidth }),
	key("mtu", "MTU", 256, 4096, pow2, func(c *Config) *int { return &c.MTU }),
}

// pow2 and plain say whether a key's value must be a power of two.
const (
	pow2  = true
	plain = false
)

// key is one row of Keys.
func key(json, verilog string, min, max int, pow2 bool, field func(*Config) *int) Key {
	return Key{JSON: json, Verilog: verilog, Min: min, Max: max, Pow2: pow2, field: field}
}

// Log2 is the bit width of an index over n entries (n a power of two): the derived widths CONN_W, PATH_W, ...
func Log2(n int) int {
	w := 0
	for 1<<w < n {
		w++
	}
	return w
}

// Param is one Verilog parameter assignment.
type Param struct {
	// Name is the Verilog parameter name.
	Name string
	// Value is its value.
	Value int
}

// Validate checks every key against its range and the cross-key rules; the error names key, value and range.
func (c Config) Validate() error {
	var errs []error
	for _, k := range Keys {
		v := *k.field(&c)
		if v < k.Min || v > k.Max {
			errs = append(errs, fmt.Errorf("key %q: value %d out of range (allowed %s)", k.JSON, v, k.allowed()))
		} else if k.Pow2 && v&(v-1) != 0 {
			errs = append(errs, fmt.Errorf("key %q: value %d is not a power of two (allowed %s)", k.JSON, v,
				k.allowed()))
		}
	}
	if len(errs) == 0 {
		if err := c.crossKeyError(); err != nil {
			errs = append(errs, err)
		}
	}
	if len(errs) > 0 {
		return fmt.Errorf("config %s: %w", c.Name, errors.Join(errs...))
	}
	return nil
}

// ValidateNicRoCE checks the two rules the frame-level top nic_roce adds to Validate's (docs/nic_roce.md,
// Parameters), which the descriptor-level blocks do not need: handle_width >= 8 (the receive message sequence)
// and 2^(handle_width-1) >= window. It returns the first broken one, naming the key, its value and the rule.
func (c Config) ValidateNicRoCE() error {
	switch {
	case c.HandleWidth < 8:
		return fmt.Errorf("config %s: key %q: value %d below 8 (allowed for nic_roce: 8..32)", c.Name,
			"handle_width", c.HandleWidth)
	case 1<<(c.HandleWidth-1) < c.Window:
		return fmt.Errorf("config %s: key %q: value %d too large for handle_width %d (allowed for nic_roce: "+
			"2^(handle_width-1) >= window)", c.Name, "window", c.Window, c.HandleWidth)
	}
	return nil
}

// crossKeyError checks the rules between keys and returns the first broken one, naming the key, its value and
// the rule.
func (c Config) crossKeyError() error {
	switch {
	case 1<<(c.PseqWidth-1) <= c.SackBits:
		return fmt.Errorf("key %q: value %d too small for sack_bits %d (allowed: 2^(pseq_width-1) > sack_bits)",
			"pseq_width", c.PseqWidth, c.SackBits)
	case c.TickCycles < c.Conns:
		return fmt.Errorf("key %q: value %d below conns %d (allowed: tick_cycles >= conns, retx visits one "+
			"connection timer per cycle)", "tick_cycles", c.TickCycles, c.Conns)
	case c.CwndInit > c.CwndMax:
		return fmt.Errorf("key %q: value %d above cwnd_max %d (allowed: cwnd_init <= cwnd_max)",
			"cwnd_init", c.CwndInit, c.CwndMax)
	case c.RTOMaxTicks < c.RTOTicks:
		return fmt.Errorf("key %q: value %d below rto_ticks %d (allowed: rto_ticks <= rto_max_ticks)",
			"rto_max_ticks", c.RTOMaxTicks, c.RTOTicks)
	case c.QPNBase+c.Conns > 1<<24-1:
		return fmt.Errorf("key %q: value %d too large for conns %d (allowed: qpn_base + conns <= 2^24 - 1, "+
			"QPN 0xFFFFFF is multicast)", "qpn_base", c.QPNBase, c.Conns)
	}
	return nil
}

func (k Key) allowed() string {
	if k.Min == k.Max {
		return fmt.Sprintf("exactly %d", k.Min)
	}
	if k.Pow2 {
		return fmt.Sprintf("power of two, %d..%d", k.Min, k.Max)
	}
	return fmt.Sprintf("%d..%d", k.Min, k.Max)
}

// Params returns the Verilog parameters of c in the order of Keys.
func (c Config) Params() []Param {
	ps := make([]Param, 0, len(Keys))
	for _, k := range Keys {
		ps = append(ps, Param{Name: k.Verilog, Value: *k.field(&c)})
	}
	return ps
}

// Hash is a short stable digest of the parameter values (not the name).
func (c Config) Hash() string {
	h := sha256.New()
	for _, p := range c.Params() {
		fmt.Fprintf(h, "%s=%d\n", p.Name, p.Value)
	}
	return hex.EncodeToString(h.Sum(nil))[:16]
}

// JSON renders c as a user file would hold it.
func (c Config) JSON() string {
	b, err := json.MarshalIndent(c, "", "  ")
	if err != nil {
		return err.Error()
	}
	return string(b) + "\n"
}

// PresetNames lists the built-in presets, sorted.
func PresetNames() []string {
	m, err := presets()
	if err != nil {
		return nil
	}
	names := make([]string, 0, len(m))
	for n := range m {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

func presets() (map[string]json.RawMessage, error) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(presetsJSON, &m); err != nil {
		return nil, fmt.Errorf("built-in presets: %w", err)
	}
	return m, nil
}

// Preset returns the named built-in configuration, validated.
func Preset(name string) (Config, error) {
	m, err := presets()
	if err != nil {
		return Config{}, err
	}
	raw, ok := m[name]
	if !ok {
		return Config{}, fmt.Errorf("unknown config %q (presets: %s)", name, strings.Join(PresetNames(), ", "))
	}
	return decode(name, bytes.NewReader(raw))
}

// Load reads a user configuration file (JSON with every key of Keys, nothing else), validated.
func Load(path string) (Config, error) {
	f, err := os.Open(path)
	if err != nil {
		return Config{}, fmt.Errorf("config file: %w", err)
	}
	defer f.Close()
	return decode(path, f)
}

// Resolve accepts a preset name or a path to a user file.
func Resolve(nameOrPath string) (Config, error) {
	if strings.ContainsAny(nameOrPath, "/.") {
		return Load(nameOrPath)
	}
	return Preset(nameOrPath)
}

// decode reads a configuration object: every key of Keys exactly once, each an integer, nothing else. An error
// names the key, its value or what is wrong with it, where it is (line), and what is allowed.
func decode(name string, r io.Reader) (Config, error) {
	raw, err := io.ReadAll(r)
	if err != nil {
		return Config{}, fmt.Errorf("config %s: %w", name, err)
	}
	c := Config{Name: name}
	seen := map[string]string{} // key -> position of its first occurrence
	err = objectKeys(raw, func(k string, line, col int, v json.RawMessage) error {
		at := fmt.Sprintf("line %d column %d", line, col)
		if first, ok := seen[k]; ok {
			return fmt.Errorf("key %q: given twice, at %s and at %s (allowed: once)", k, first, at)
		}
		seen[k] = at
		for _, key := range Keys {
			if key.JSON == k {
				if err := decodeInt(key, v, key.field(&c)); err != nil {
					return fmt.Errorf("line %d: %w", line, err)
				}
				return nil
			}
		}
		return fmt.Errorf("line %d: unknown field %q (allowed keys: %s)", line, k, keyNames())
	})
	if err != nil {
		return Config{}, fmt.Errorf("config %s: %w", name, err)
	}
	var missing []string
	for _, k := range Keys {
		if _, ok := seen[k.JSON]; !ok {
			missing = append(missing, k.JSON)
		}
	}
	if len(missing) > 0 {
		return Config{}, fmt.Errorf("config %s: missing key(s) %s", name, strings.Join(missing, ", "))
	}
	return c, c.Validate()
}

// objectKeys calls each for every key of the JSON object in raw, in order, with the line and column after the
// key and its raw value; it reports malformed JSON with its line and column.
func objectKeys(raw []byte, each func(key string, line, col int, v json.RawMessage) error) error {
	dec := json.NewDecoder(bytes.NewReader(raw))
	syntax := func(err error) error {
		var se *json.SyntaxError
		off := dec.InputOffset()
		if errors.As(err, &se) {
			off = se.Offset
		}
		line, col := position(raw, off)
		return fmt.Errorf("not a JSON object: %s (line %d, column %d)", strings.TrimPrefix(err.Error(), "json: "), line, col)
	}
	if t, err := dec.Token(); err == io.EOF {
		return errors.New("not a JSON object: empty (allowed: {\"conns\": ..., ...})")
	} else if err != nil {
		return syntax(err)
	} else if t != json.Delim('{') {
		return fmt.Errorf("not a JSON object: it starts with %v (allowed: {\"conns\": ..., ...})", t)
	}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return syntax(err)
		}
		line, col := position(raw, dec.InputOffset())
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return syntax(err)
		}
		if err := each(t.(string), line, col, v); err != nil {
			return err
		}
	}
	if _, err := dec.Token(); err != nil {
		return syntax(err)
	}
	if _, err := dec.Token(); err != io.EOF {
		line, _ := position(raw, dec.InputOffset())
		return fmt.Errorf("not a JSON object: more after its closing brace, on line %d (allowed: one object)", line)
	}
	return nil
}

// position is the line and column (from 1) of byte offset off in raw.
func position(raw []byte, off int64) (int, int) {
	off = min(max(off, 0), int64(len(raw)))
	before := raw[:off]
	line := bytes.Count(before, []byte("\n")) + 1
	return line, int(off) - bytes.LastIndexByte(before, '\n')
}

// decodeInt reads the value v of key k into dst: it must be a JSON integer.
func decodeInt(k Key, v json.RawMessage, dst *int) error {
	var x any
	d := json.NewDecoder(bytes.NewReader(v))
	d.UseNumber()
	if err := d.Decode(&x); err != nil {
		return err
	}
	what := ""
	switch x := x.(type) {
	case json.Number:
		n, err := strconv.Atoi(x.String())
		if err == nil {
			*dst = n
			return nil
		}
		what = "is not an integer"
	case nil:
		what = "is not an integer"
	case string:
		what = "is a string"
	case bool:
		what = "is a boolean"
	case []any:
		what = "is an array"
	default:
		what = "is an object"
	}
	return fmt.Errorf("key %q: value %s %s (allowed: an integer, %s)", k.JSON, v, what, k.allowed())
}

// keyNames lists the keys of Keys.
func keyNames() string {
	names := make([]string, len(Keys))
	for i, k := range Keys {
		names[i] = k.JSON
	}
	return strings.Join(names, ", ")
}

// FormatParams renders parameters as a tool takes them: "verilator" (-GNAME=V) or "yosys" (-set NAME V, the
// arguments of chparam), space-separated, or "verilog": the parameter list of a module instance,
// #(.NAME(V), ...), for a shell's own top or a vendor project.
func FormatParams(ps []Param, format string) (string, error) {
	var parts []string
	for _, p := range ps {
		switch format {
		case "verilator":
			parts = append(parts, fmt.Sprintf("-G%s=%d", p.Name, p.Value))
		case "yosys":
			parts = append(parts, fmt.Sprintf("-set %s %d", p.Name, p.Value))
		case "verilog":
			parts = append(parts, fmt.Sprintf(".%s(%d)", p.Name, p.Value))
		default:
			return "", fmt.Errorf("--format %q: allowed verilator, yosys, verilog", format)
		}
	}
	if format == "verilog" && len(parts) > 0 {
		return "#(" + strings.Join(parts, ", ") + ")", nil
	}
	return strings.Join(parts, " "), nil
}
