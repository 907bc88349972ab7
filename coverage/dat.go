package coverage

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
)

// Kind is the coverage type of a point, the part of its "page" field before the '/'.
type Kind string

// The point kinds spraynic reports on; other kinds (v_user, v_expr) are parsed but not counted.
const (
	// KindLine is a statement block point (--coverage-line).
	KindLine Kind = "v_line"
	// KindBranch is an if/else or case arm point (--coverage-line); it counts as line coverage.
	KindBranch Kind = "v_branch"
	// KindToggle is one bit of one signal of one instance (--coverage-toggle).
	KindToggle Kind = "v_toggle"
)

// Point is one coverage point of a Verilator .dat file.
type Point struct {
	// File is the source file (field f); Line the line (l), Column the column (n).
	File         string
	Line, Column int
	// Kind is the page type (v_line, v_branch, v_toggle, ...); Module the rest of the page field.
	Kind   Kind
	Module string
	// Comment is field o (block, if, else, signal name); Hier the instance (h).
	Comment, Hier string
	// Lines are the source lines the point stands for (field S, else Line).
	Lines []int
	// Count is how often the point was hit.
	Count uint64
	// Key is the raw key, unique per point.
	Key string
}

// IsLine reports whether the point counts as line coverage (v_line or v_branch).
func (p Point) IsLine() bool { return p.Kind == KindLine || p.Kind == KindBranch }

// ParseDatFile reads a Verilator coverage .dat file.
func ParseDatFile(file string) ([]Point, error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	pts, err := ParseDat(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	return pts, nil
}

// ParseDat reads Verilator's "SystemC::Coverage-3" text format: a header line, then one line per point,
// C '<key>' <count>, where the key is a list of \x01name\x02value fields. Points with the same key are summed,
// as verilator_coverage does.
func ParseDat(r io.Reader) ([]Point, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<16), 1<<24)
	var pts []Point
	index := map[string]int{}
	n := 0
	for sc.Scan() {
		n++
		line := sc.Text()
		if n == 1 {
			if !strings.HasPrefix(line, "# SystemC::Coverage-") {
				return nil, fmt.Errorf("line 1: not a Verilator coverage file "+
					"(want header \"# SystemC::Coverage-3\", got %.40q)", line)
			}
			continue
		}
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		p, err := parsePoint(line)
		if err != nil {
			return nil, fmt.Errorf("line %d: %w", n, err)
		}
		if i, ok := index[p.Key]; ok {
			pts[i].Count += p.Count
			continue
		}
		index[p.Key] = len(pts)
		pts = append(pts, p)
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if n == 0 {
		return nil, fmt.Errorf("empty file, not a Verilator coverage file")
	}
	return pts, nil
}

func parsePoint(line string) (Point, error) {
	if !strings.HasPrefix(line, "C '") {
		return Point{}, fmt.Errorf("want C '<key>' <count>, got %.60q", line)
	}
	end := strings.LastIndex(line, "' ")
	if end < 3 {
		return Point{}, fmt.Errorf("unterminated key in %.60q", line)
	}
	key := line[3:end]
	cnt, err := strconv.ParseUint(strings.TrimSpace(line[end+2:]), 10, 64)
	if err != nil {
		return Point{}, fmt.Errorf("bad count %q", line[end+2:])
	}
	p := Point{Key: key, Count: cnt}
	for _, field := range strings.Split(key, "\x01") {
		if field == "" {
			continue
		}
		name, val, ok := strings.Cut(field, "\x02")
		if !ok {
			return Point{}, fmt.Errorf("field %q has no value separator", field)
		}
		switch name {
		case "f":
			p.File = val
		case "l":
			if p.Line, err = strconv.Atoi(val); err != nil {
				return Point{}, fmt.Errorf("field l: bad line %q", val)
			}
		case "n":
			p.Column, _ = strconv.Atoi(val)
		case "page":
			k, mod, _ := strings.Cut(val, "/")
			p.Kind = Kind(k)
			p.Module = mod
		case "o":
			p.Comment = val
		case "h":
			p.Hier = val
		case "S":
			if p.Lines, err = parseSpan(val); err != nil {
				return Point{}, fmt.Errorf("field S: %w", err)
			}
		}
	}
	if p.File == "" || p.Kind == "" {
		return Point{}, fmt.Errorf("point without file (f) or page field: %.80q",
			strings.ReplaceAll(strings.ReplaceAll(key, "\x01", "|"), "\x02", "="))
	}
	if len(p.Lines) == 0 {
		p.Lines = []int{p.Line}
	}
	return p, nil
}

// parseSpan parses Verilator's line list "44", "64-65" or "25-27,30".
func parseSpan(s string) ([]int, error) {
	var out []int
	for _, part := range strings.Split(s, ",") {
		lo, hi, isRange := strings.Cut(part, "-")
		a, err := strconv.Atoi(lo)
		if err != nil {
			return nil, fmt.Errorf("bad line list %q", s)
		}
		b := a
		if isRange {
			if b, err = strconv.Atoi(hi); err != nil || b < a || b-a > 100000 {
				return nil, fmt.Errorf("bad line range %q", part)
			}
		}
		for i := a; i <= b; i++ {
			out = append(out, i)
		}
	}
	return out, nil
}
