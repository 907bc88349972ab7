package coverage

import (
	"bytes"
	"fmt"
	"os"
	"path"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// Exclusion takes toggle points out of the toggle target (coverage/exclusions.yaml). The raw toggle figure
// keeps them; the net figure (Entry.ToggleNet) does not. Every exclusion says why.
type Exclusion struct {
	// File is the RTL file (as in the report, relative to the repository); Signals are path.Match patterns over
	// the signal name without its bit index.
	File    string   `yaml:"file"`
	Signals []string `yaml:"signals"`
	// Field is the width of one field of a packed per-connection signal (0: the whole signal is one field);
	// Bits are the excluded bit positions within each field, as "A-B,C" ranges.
	Field int    `yaml:"field"`
	Bits  string `yaml:"bits"`
	// FromField limits the exclusion to fields FromField, FromField+1, ... (0: every field; needs Field): a test
	// covers the fields below it, the others are replicas of the same logic.
	FromField int `yaml:"from_field"`
	// Configs are the configurations the exclusion holds for (empty: all).
	Configs []string `yaml:"configs"`
	// Unreachable says the bits can never toggle: a hit on one is an error (the justification is wrong).
	Unreachable bool `yaml:"unreachable"`
	// Reason justifies it.
	Reason string `yaml:"reason"`

	ranges [][2]int
}

// exclusionFile is the shape of coverage/exclusions.yaml.
type exclusionFile struct {
	Exclusions []Exclusion `yaml:"exclusions"`
}

// LoadExclusions reads and checks an exclusion file; every error names the file, the entry and the field.
func LoadExclusions(file string) ([]Exclusion, error) {
	b, err := os.ReadFile(file)
	if err != nil {
		return nil, fmt.Errorf("exclusions: %w", err)
	}
	dec := yaml.NewDecoder(bytes.NewReader(b))
	dec.KnownFields(true)
	var ef exclusionFile
	if err := dec.Decode(&ef); err != nil {
		return nil, fmt.Errorf("exclusions %s: %w (allowed keys: file, signals, field, bits, from_field, configs, "+
			"unreachable, reason)", file, err)
	}
	for i := range ef.Exclusions {
		e := &ef.Exclusions[i]
		where := fmt.Sprintf("exclusions %s: entry %d", file, i)
		switch {
		case e.File == "":
			return nil, fmt.Errorf("%s: field file: empty (allowed: an RTL file such as rtl/retx.v)", where)
		case len(e.Signals) == 0:
			return nil, fmt.Errorf("%s: field signals: empty (allowed: signal name patterns)", where)
		case strings.TrimSpace(e.Reason) == "":
			return nil, fmt.Errorf("%s: field reason: empty (every exclusion says why)", where)
		case e.Field < 0:
			return nil, fmt.Errorf("%s: field field: value %d (allowed: 0 or a field width)", where, e.Field)
		case e.FromField < 0 || (e.FromField > 0 && e.Field == 0):
			return nil, fmt.Errorf("%s: field from_field: value %d (allowed: 0, or a field index >= 1 with field set)",
				where, e.FromField)
		}
		for _, p := range e.Signals {
			if _, err := path.Match(p, ""); err != nil {
				return nil, fmt.Errorf("%s: field signals: value %q: bad pattern", where, p)
			}
		}
		if e.ranges, err = parseBits(e.Bits, e.Field); err != nil {
			return nil, fmt.Errorf("%s: field bits: value %q: %w", where, e.Bits, err)
		}
	}
	return ef.Exclusions, nil
}

// parseBits parses "A-B,C" (bit positions within a field of width field; field 0: any position).
func parseBits(s string, field int) ([][2]int, error) {
	if strings.TrimSpace(s) == "" {
		return nil, fmt.Errorf("empty (allowed: ranges such as 0-2,7-15)")
	}
	var rs [][2]int
	for _, part := range strings.Split(s, ",") {
		lo, hi, isRange := strings.Cut(strings.TrimSpace(part), "-")
		a, err := strconv.Atoi(lo)
		b := a
		if err == nil && isRange {
			b, err = strconv.Atoi(hi)
		}
		if err != nil || a < 0 || b < a || (field > 0 && b >= field) {
			return nil, fmt.Errorf("range %q invalid (allowed: A or A-B with 0 <= A <= B < field width %d)",
				part, field)
		}
		rs = append(rs, [2]int{a, b})
	}
	return rs, nil
}

// signalBit splits a toggle point's signal "name[7]" into its name and bit (0 without an index).
func signalBit(comment string) (string, int) {
	name, idx, ok := strings.Cut(comment, "[")
	if !ok {
		return comment, 0
	}
	b, err := strconv.Atoi(strings.TrimSuffix(idx, "]"))
	if err != nil {
		return comment, -1
	}
	return name, b
}

// appliesTo reports whether e holds for config cfg.
func (e *Exclusion) appliesTo(cfg string) bool {
	if len(e.Configs) == 0 {
		return true
	}
	for _, c := range e.Configs {
		if c == cfg {
			return true
		}
	}
	return false
}

// matches reports whether toggle point p of file f (as reported) under config cfg is excluded by e.
func (e *Exclusion) matches(f, cfg string, p Point) bool {
	if f != e.File || !e.appliesTo(cfg) {
		return false
	}
	name, bit := signalBit(p.Comment)
	if bit < 0 {
		return false
	}
	hit := false
	for _, pat := range e.Signals {
		if m, _ := path.Match(pat, name); m {
			hit = true
		}
	}
	if !hit {
		return false
	}
	if e.Field > 0 {
		if bit/e.Field < e.FromField {
			return false
		}
		bit %= e.Field
	}
	for _, r := range e.ranges {
		if bit >= r[0] && bit <= r[1] {
			return true
		}
	}
	return false
}

// checkStale returns an error when an exclusion that holds for cfg names a file present in the points (toggleFiles:
// the files with toggle points, as reported) but one of its signal patterns matches no signal of that file
// (signals: the signal names seen per file), or it excludes no point at all (used[i]). Such an entry is stale: the
// signal was renamed or removed, or its bits moved, and it would silently stop excluding anything.
func checkStale(cfg string, ex []Exclusion, signals map[string]map[string]bool, used []bool) error {
	for i := range ex {
		e := &ex[i]
		names, present := signals[e.File]
		if !present || !e.appliesTo(cfg) {
			continue
		}
		for _, pat := range e.Signals {
			found := false
			for n := range names {
				if m, _ := path.Match(pat, n); m {
					found = true
					break
				}
			}
			if !found {
				return fmt.Errorf("coverage exclusion for %s %v (config %s): signal pattern %q matches no toggle "+
					"point of %s; the signal was renamed or removed: update coverage/exclusions.yaml",
					e.File, e.Signals, cfg, pat, e.File)
			}
		}
		if !used[i] {
			return fmt.Errorf("coverage exclusion for %s %v (config %s): bits %q (field %d) exclude no toggle "+
				"point of %s; the signals' widths changed: update coverage/exclusions.yaml",
				e.File, e.Signals, cfg, e.Bits, e.Field, e.File)
		}
	}
	return nil
}
