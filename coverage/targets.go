package coverage

import (
	"fmt"
	"io"
	"strings"
)

// Targets are the coverage goals a regression must reach: per (top, config), RTL line coverage and
// toggle coverage net of coverage/exclusions.yaml in percent, and the share of functional bins hit among the
// reachable ones (reachable: not unreachable under the configuration, and not a bin the testplan calls
// unreachable at that top).
type Targets struct {
	Line, ToggleNet, Bins float64
}

// DefaultTargets are the targets of the nightly suite; 'spraynic cov check' applies them unless told otherwise.
var DefaultTargets = Targets{Line: 95, ToggleNet: 90, Bins: 100}

// Validate names a target outside 0..100.
func (t Targets) Validate() error {
	for _, f := range []struct {
		name string
		v    float64
	}{{name: "line", v: t.Line}, {name: "toggle", v: t.ToggleNet}, {name: "bins", v: t.Bins}} {
		if f.v < 0 || f.v > 100 {
			return fmt.Errorf("target %s %g: allowed 0..100 (percent)", f.name, f.v)
		}
	}
	return nil
}

// Shortfall is one target a design unit or (top, config) misses, or a bin the testplan calls unreachable that
// was hit.
type Shortfall struct {
	// Top is the top, or the RTL file of a design unit.
	Top, Config string
	// What is "line", "toggle net", "functional <group>" or "unreachable <group.point.bin>".
	What string
	// Got and Want are percentages (for an unreachable bin: its hits and 0).
	Got, Want float64
	// Detail lists the holes (bins) or the reason.
	Detail string
}

func (s Shortfall) String() string {
	if strings.HasPrefix(s.What, "unreachable ") {
		return fmt.Sprintf("%s/%s: %s: hit %.0f times, but the testplan calls it unreachable (%s)",
			s.Top, s.Config, s.What, s.Got, s.Detail)
	}
	msg := fmt.Sprintf("%s/%s: %s %.2f%% < target %.2f%%", s.Top, s.Config, s.What, s.Got, s.Want)
	if s.Detail != "" {
		msg += ": " + s.Detail
	}
	return msg
}

// Check returns every target r misses, in report order. The line and toggle targets apply to the design units
// (each RTL file merged over the tops that elaborate it), or to the (top, config) entries of a report without
// units (written before they existed). Bins of plan.Unreachable (for the entry's top) count
// neither as reachable nor as hit; such a bin that was hit is a shortfall of its own (the claim is wrong).
func Check(r Report, t Targets, plan Testplan) []Shortfall {
	var out []Shortfall
	code := func(name, config string, line, net Count) {
		if line.Pct < t.Line {
			out = append(out, Shortfall{Top: name, Config: config, What: "line", Got: line.Pct, Want: t.Line,
				Detail: fmt.Sprintf("%d of %d lines", line.Hit, line.Total)})
		}
		if net.Pct < t.ToggleNet {
			out = append(out, Shortfall{Top: name, Config: config, What: "toggle net", Got: net.Pct, Want: t.ToggleNet,
				Detail: fmt.Sprintf("%d of %d bits", net.Hit, net.Total)})
		}
	}
	if len(r.Units) > 0 {
		for _, u := range r.Units {
			code(u.File, u.Config, u.Line, u.ToggleNet)
		}
	} else {
		for _, e := range r.Entries {
			code(e.Top, e.Config, e.Line, e.ToggleNet)
		}
	}
	for _, e := range r.Functional {
		excused := map[string]string{}
		for _, u := range plan.Unreachable {
			if u.Top == e.Top {
				excused[u.Bin] = u.Reason
			}
		}
		for _, g := range e.Groups {
			hit, reach := 0, 0
			var holes []string
			for _, p := range g.Points {
				for _, b := range p.Bins {
					name := g.Name + "." + p.Name + "." + b.Name
					if why, ok := excused[name]; ok {
						if b.Hits > 0 {
							out = append(out, Shortfall{Top: e.Top, Config: e.Config, What: "unreachable " + name,
								Got: float64(b.Hits), Detail: why})
						}
						continue
					}
					if b.Unreachable != "" {
						continue
					}
					reach++
					if b.Hits > 0 {
						hit++
					} else {
						holes = append(holes, p.Name+"."+b.Name)
					}
				}
			}
			pct := Percent(hit, reach)
			if pct < t.Bins {
				detail := fmt.Sprintf("%d of %d reachable bins; holes: %s", hit, reach, strings.Join(holes, " "))
				out = append(out, Shortfall{Top: e.Top, Config: e.Config, What: "functional " + g.Name, Got: pct,
					Want: t.Bins, Detail: detail})
			}
		}
	}
	return out
}

// PrintCheck writes the verdict of Check: the shortfalls, or that every target is met, with the targets.
func PrintCheck(w io.Writer, r Report, t Targets, ss []Shortfall) {
	fmt.Fprintf(w, "coverage targets (suite %s): line >= %.2f%%, toggle net >= %.2f%%, "+
		"functional >= %.2f%% of reachable bins\n", r.Suite, t.Line, t.ToggleNet, t.Bins)
	if r.Shard != "" {
		fmt.Fprintf(w, "note: this report is only shard %s of the suite; the targets are about the whole suite "+
			"('cov merge' the shards)\n", r.Shard)
	}
	if len(ss) == 0 {
		fmt.Fprintf(w, "every target met (%d design units, %d code entries, %d functional entries)\n",
			len(r.Units), len(r.Entries), len(r.Functional))
		return
	}
	for _, s := range ss {
		fmt.Fprintf(w, "  MISSED %s\n", s)
	}
}
