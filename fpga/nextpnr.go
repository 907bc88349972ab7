package fpga

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// Use is one resource type of a place-and-route utilisation report.
type Use struct {
	// Used is what the design takes.
	Used int `json:"used"`
	// Available is what the device has.
	Available int `json:"available"`
}

// CriticalPath is the slowest register-to-register path nextpnr reports for the clock.
type CriticalPath struct {
	// From is the cell and pin the path starts at.
	From string `json:"from"`
	// To is the cell and pin the path ends at (a setup check).
	To string `json:"to"`
	// DelayNS is the path's total delay; LogicNS and RoutingNS its split.
	DelayNS   float64 `json:"delay_ns"`
	LogicNS   float64 `json:"logic_ns"`
	RoutingNS float64 `json:"routing_ns"`
	// Through lists, in path order and without repeats, the RTL source locations ("rx_reorder.v:487") of the
	// nets the path crosses, as nextpnr names them ("Defined in"); the yosys library's own files are left out.
	Through []string `json:"through"`
}

// Packing is what nextpnr's packing of a block and its I/O harness used. PnR embeds it; Report.Packing holds it
// alone when the packed design needs more of a bel type than the device has (nextpnr then stops before placement).
type Packing struct {
	// Tool is the place-and-route tool's version line.
	Tool string `json:"tool"`
	// Utilization is nextpnr's table for the whole packed design (the block and its I/O harness).
	Utilization map[string]Use `json:"utilization"`
	// Harness is the yosys count of the I/O harness around the block (see harness.go), included in Utilization.
	Harness Resources `json:"harness"`
}

// summaryLine is the one-screen summary's utilisation line ("placed" or "packed" with the I/O harness).
func (k Packing) summaryLine(verb string) string {
	var us []string
	for _, b := range sortedKeys(k.Utilization) {
		if u := k.Utilization[b]; u.Used > 0 {
			us = append(us, fmt.Sprintf("%s %d/%d", b, u.Used, u.Available))
		}
	}
	return fmt.Sprintf("  %s with I/O harness: %s (harness: %d LUT, %d FF)\n", verb, strings.Join(us, ", "),
		k.Harness.LUT, k.Harness.FF)
}

// PnR is what the place-and-route step found.
type PnR struct {
	// Packing is the tool and the utilisation of the placed design.
	Packing
	// Package and Seed are the nextpnr options used.
	Package string `json:"package"`
	Seed    int    `json:"seed"`
	// TargetMHz is the clock constraint; FmaxMHz what nextpnr achieved for it; TimingMet whether it reached it.
	TargetMHz float64 `json:"target_mhz"`
	FmaxMHz   float64 `json:"fmax_mhz"`
	TimingMet bool    `json:"timing_met"`
	// CriticalPath is the slowest path of the clock.
	CriticalPath CriticalPath `json:"critical_path"`
	// Bitstream is the icepack output, relative to the report's directory.
	Bitstream string `json:"bitstream,omitempty"`
}

// nextpnrReport is the part of nextpnr's --report JSON the flow reads.
type nextpnrReport struct {
	// Fmax maps a clock net to its achieved and constrained frequency (MHz).
	Fmax map[string]struct {
		Achieved   float64 `json:"achieved"`
		Constraint float64 `json:"constraint"`
	} `json:"fmax"`
	// Utilization maps a bel type to its use.
	Utilization map[string]Use `json:"utilization"`
}

// ParseNextpnrReport reads nextpnr's --report JSON: the lowest Fmax over the clocks, its constraint and the
// utilisation. It is an error when the report has no clock.
func ParseNextpnrReport(data []byte) (fmax, target float64, util map[string]Use, err error) {
	var r nextpnrReport
	if err := json.Unmarshal(data, &r); err != nil {
		return 0, 0, nil, fmt.Errorf("nextpnr report: %w", err)
	}
	if len(r.Fmax) == 0 {
		return 0, 0, nil, fmt.Errorf("nextpnr report: no clock in \"fmax\" (is the clock port driven?)")
	}
	fmax = math.Inf(1)
	for _, f := range r.Fmax {
		if f.Achieved < fmax {
			fmax, target = f.Achieved, f.Constraint
		}
	}
	return math.Round(fmax*100) / 100, target, r.Utilization, nil
}

var (
	// cpHeadRe starts a clock-domain critical path report (not the cross-domain '<async>' ones).
	cpHeadRe = regexp.MustCompile(`^Info: Critical path report for clock '([^']+)' \(posedge -> posedge\):$`)
	// cpStepRe is a Source or Setup line: delay, running total, kind, cell.pin.
	cpStepRe = regexp.MustCompile(`^Info:\s+([\d.]+)\s+([\d.]+)\s+(Source|Setup)\s+(\S+)`)
	// cpSplitRe ends the report.
	cpSplitRe = regexp.MustCompile(`^Info: ([\d.]+) ns logic, ([\d.]+) ns routing$`)
	// srcRe is a "Defined in" location.
	srcRe = regexp.MustCompile(`^Info:\s+(\S+\.s?v):(\d+)\.\d+-\d+\.\d+$`)
	// utilHeadRe starts nextpnr's device utilisation table (printed after packing, before placement).
	utilHeadRe = regexp.MustCompile(`^Info: Device utilisation:$`)
	// utilRowRe is one row of it: bel type, used, available.
	utilRowRe = regexp.MustCompile(`^Info:\s+(\S+):\s+(\d+)/\s*(\d+)\s+\d+%$`)
	// nextpnrVersionRe is the version banner nextpnr prints with --version.
	nextpnrVersionRe = regexp.MustCompile(`(nextpnr-\S+) -- .*\(Version ([^)]+)\)`)
)

// ParseCriticalPath reads the first clock-domain critical path report of a nextpnr log (nextpnr -l). rtlDir is
// the directory whose files count as RTL in Through; locations are reported relative to it.
func ParseCriticalPath(log []byte, rtlDir string) (CriticalPath, error) {
	var cp CriticalPath
	in := false
	seen := map[string]bool{}
	prefix := strings.TrimSuffix(rtlDir, "/") + "/"
	sc := bufio.NewScanner(bytes.NewReader(log))
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		line := strings.TrimRight(sc.Text(), "\r")
		if !in {
			in = cpHeadRe.MatchString(line)
			continue
		}
		if m := cpStepRe.FindStringSubmatch(line); m != nil {
			total, _ := strconv.ParseFloat(m[2], 64)
			if m[3] == "Source" && cp.From == "" {
				cp.From = m[4]
			}
			if m[3] == "Setup" {
				cp.To = m[4]
				cp.DelayNS = total
			}
			continue
		}
		if m := srcRe.FindStringSubmatch(line); m != nil {
			if !strings.HasPrefix(m[1], prefix) {
				continue
			}
			loc := strings.TrimPrefix(m[1], prefix) + ":" + m[2]
			if !seen[loc] {
				seen[loc] = true
				cp.Through = append(cp.Through, loc)
			}
			continue
		}
		if m := cpSplitRe.FindStringSubmatch(line); m != nil {
			cp.LogicNS, _ = strconv.ParseFloat(m[1], 64)
			cp.RoutingNS, _ = strconv.ParseFloat(m[2], 64)
			if cp.From == "" || cp.To == "" {
				return cp, fmt.Errorf("nextpnr log: critical path report without Source or Setup line")
			}
			return cp, nil
		}
	}
	if in {
		return cp, fmt.Errorf("nextpnr log: critical path report not terminated by the \"ns logic, ns routing\" line")
	}
	return cp, fmt.Errorf("nextpnr log: no clock critical path report")
}

// ParseUtilisation reads the last "Device utilisation" table of a nextpnr log (nextpnr -l): what the packed
// design takes of each bel type. nextpnr prints it after packing, also when placement then fails. It is an error
// when the log has no such table.
func ParseUtilisation(log []byte) (map[string]Use, error) {
	var util map[string]Use
	in := false
	sc := bufio.NewScanner(bytes.NewReader(log))
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		line := strings.TrimRight(sc.Text(), "\r")
		if utilHeadRe.MatchString(line) {
			util, in = map[string]Use{}, true
			continue
		}
		if !in {
			continue
		}
		m := utilRowRe.FindStringSubmatch(line)
		if m == nil {
			in = false
			continue
		}
		used, err := strconv.Atoi(m[2])
		if err != nil {
			return nil, fmt.Errorf("nextpnr log: utilisation of %s: %w", m[1], err)
		}
		avail, err := strconv.Atoi(m[3])
		if err != nil {
			return nil, fmt.Errorf("nextpnr log: utilisation of %s: %w", m[1], err)
		}
		util[m[1]] = Use{Used: used, Available: avail}
	}
	if len(util) == 0 {
		return nil, fmt.Errorf("nextpnr log: no \"Device utilisation\" table")
	}
	return util, nil
}

// OverAfterPacking returns the bel types a packed design uses beyond the device, sorted by name: nextpnr cannot
// place it. Kind is the bel type (ICESTORM_LC: a LUT4, a flip-flop and a carry; a flip-flop that cannot share a
// cell with the LUT driving it takes a cell of its own, so a design within the device by yosys's LUT and FF
// counts can still need more cells than the device has).
func OverAfterPacking(util map[string]Use) []Overage {
	var out []Overage
	for _, k := range sortedKeys(util) {
		u := util[k]
		if u.Used <= u.Available {
			continue
		}
		out = append(out, newOverage(k, float64(u.Used), float64(u.Available)))
	}
	return out
}

// NextpnrVersion turns `nextpnr-ice40 --version` output into "nextpnr-ice40 0.4-1+b1".
func NextpnrVersion(out string) string {
	if m := nextpnrVersionRe.FindStringSubmatch(out); m != nil {
		return m[1] + " " + m[2]
	}
	return strings.TrimSpace(out)
}

// sortedKeys returns the keys of a map, sorted.
func sortedKeys[V any](m map[string]V) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}
