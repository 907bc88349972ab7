package functional

import (
	"fmt"
	"sort"
	"strings"
)

// Bin is one counted value (or value range, or event) of a point.
type Bin struct {
	// Name identifies the bin within its point.
	Name string `json:"name"`
	// Hits counts the samples that fell into the bin.
	Hits uint64 `json:"hits"`
	// Unreachable, when set, says why the configuration(s) of the runs cannot reach the bin; such a bin is not a
	// target (a hit is still counted).
	Unreachable string `json:"unreachable,omitempty"`
}

// Point is a cover point, or a cross of two points of the same group (Cross names them; its bins are named
// "a/b" for bin a of the first and bin b of the second).
type Point struct {
	// Name identifies the point within its group; Doc says what is sampled.
	Name string `json:"name"`
	Doc  string `json:"doc,omitempty"`
	// Cross names the two crossed points (empty for a plain point).
	Cross []string `json:"cross,omitempty"`
	// Bins in a fixed order.
	Bins []Bin `json:"bins"`
	idx  map[string]int
}

// Group is a cover group: the points of one block's behaviour.
type Group struct {
	// Name identifies the group within a top; Doc says what it covers.
	Name string `json:"name"`
	Doc  string `json:"doc,omitempty"`
	// Samples counts the cycles sampled.
	Samples uint64   `json:"samples"`
	Points  []*Point `json:"points"`
}

// NewGroup returns an empty group.
func NewGroup(name, doc string) *Group { return &Group{Name: name, Doc: doc, Points: []*Point{}} }

// Point adds a point with the given bins (in that order) and returns it.
func (g *Group) Point(name, doc string, bins ...string) *Point {
	p := &Point{Name: name, Doc: doc}
	for _, b := range bins {
		p.Bins = append(p.Bins, Bin{Name: b})
	}
	p.index()
	g.Points = append(g.Points, p)
	return p
}

// Cross adds the cross of points a and b (every pair of their bins); a pair with an unreachable side is
// unreachable.
func (g *Group) Cross(name, doc string, a, b *Point) *Point {
	p := &Point{Name: name, Doc: doc, Cross: []string{a.Name, b.Name}}
	for _, x := range a.Bins {
		for _, y := range b.Bins {
			bin := Bin{Name: x.Name + "/" + y.Name}
			switch {
			case x.Unreachable != "":
				bin.Unreachable = x.Unreachable
			case y.Unreachable != "":
				bin.Unreachable = y.Unreachable
			}
			p.Bins = append(p.Bins, bin)
		}
	}
	p.index()
	g.Points = append(g.Points, p)
	return p
}

// Find returns the named point, or nil.
func (g *Group) Find(name string) *Point {
	for _, p := range g.Points {
		if p.Name == name {
			return p
		}
	}
	return nil
}

func (p *Point) index() {
	p.idx = make(map[string]int, len(p.Bins))
	for i, b := range p.Bins {
		p.idx[b.Name] = i
	}
}

func (p *Point) bin(name string) *Bin {
	if p.idx == nil {
		p.index()
	}
	i, ok := p.idx[name]
	if !ok {
		panic(fmt.Sprintf("functional coverage: point %s has no bin %q", p.Name, name))
	}
	return &p.Bins[i]
}

// Hit counts one sample in the named bin (an unknown bin name is a programming error and panics).
func (p *Point) Hit(bin string) { p.bin(bin).Hits++ }

// HitCross counts one sample in the bin (a, b) of a cross.
func (p *Point) HitCross(a, b string) { p.bin(a+"/"+b).Hits++ }

// Unreachable marks a bin as one the configuration cannot reach, with the reason. For a plain point, call it
// before crossing the point so that the cross inherits it.
func (p *Point) Unreachable(bin, why string) { p.bin(bin).Unreachable = why }

// Has reports whether the point has the named bin.
func (p *Point) Has(bin string) bool { return p.find(bin) != nil }

// find returns the named bin, or nil.
func (p *Point) find(bin string) *Bin {
	if p.idx == nil {
		p.index()
	}
	if i, ok := p.idx[bin]; ok {
		return &p.Bins[i]
	}
	return nil
}

// Hits returns the hit count of a bin (0 for an unknown bin).
func (p *Point) Hits(bin string) uint64 {
	if b := p.find(bin); b != nil {
		return b.Hits
	}
	return 0
}

// Count returns the reachable bins hit and the reachable bins of the group.
func (g *Group) Count() (hit, reachable int) {
	for _, p := range g.Points {
		for _, b := range p.Bins {
			if b.Unreachable != "" {
				continue
			}
			reachable++
			if b.Hits > 0 {
				hit++
			}
		}
	}
	return hit, reachable
}

// Holes lists the reachable bins never hit, as "point.bin", in the group's order.
func (g *Group) Holes() []string {
	var h []string
	for _, p := range g.Points {
		for _, b := range p.Bins {
			if b.Unreachable == "" && b.Hits == 0 {
				h = append(h, p.Name+"."+b.Name)
			}
		}
	}
	return h
}

// Clone returns a deep copy of g.
func (g *Group) Clone() *Group {
	c := &Group{Name: g.Name, Doc: g.Doc, Samples: g.Samples, Points: make([]*Point, len(g.Points))}
	for i, p := range g.Points {
		q := &Point{Name: p.Name, Doc: p.Doc, Cross: append([]string(nil), p.Cross...),
			Bins: append([]Bin(nil), p.Bins...)}
		q.index()
		c.Points[i] = q
	}
	return c
}

// Merge adds the hits of o to g. Both must have the same points and bins in the same order (the same group
// definition); a bin stays unreachable only when it is unreachable in both (a bin one run's configuration can
// reach is a target of the merged result).
func (g *Group) Merge(o *Group) error {
	if g.Name != o.Name {
		return fmt.Errorf("merge group %s with group %s", g.Name, o.Name)
	}
	if len(g.Points) != len(o.Points) {
		return fmt.Errorf("group %s: %d points, the other has %d (different definitions)",
			g.Name, len(g.Points), len(o.Points))
	}
	for i, p := range g.Points {
		q := o.Points[i]
		if p.Name != q.Name || len(p.Bins) != len(q.Bins) {
			return fmt.Errorf("group %s: point %d is %s with %d bins, the other has %s with %d bins",
				g.Name, i, p.Name, len(p.Bins), q.Name, len(q.Bins))
		}
		for j := range p.Bins {
			b, c := &p.Bins[j], q.Bins[j]
			if b.Name != c.Name {
				return fmt.Errorf("group %s point %s: bin %d is %q, the other has %q",
					g.Name, p.Name, j, b.Name, c.Name)
			}
			b.Hits += c.Hits
			if c.Unreachable == "" {
				b.Unreachable = ""
			}
		}
	}
	g.Samples += o.Samples
	return nil
}

// Entry is the functional coverage of one RTL top under one configuration, merged over its runs.
type Entry struct {
	// Top and Config identify it (as in the code coverage entries); Runs counts the merged runs.
	Top    string   `json:"top"`
	Config string   `json:"config"`
	Runs   int      `json:"runs"`
	Groups []*Group `json:"groups"`
}

// Add merges the groups of one run into e (the first run's groups are copied).
func (e *Entry) Add(gs []*Group) error {
	if e.Runs == 0 && len(e.Groups) == 0 {
		for _, g := range gs {
			e.Groups = append(e.Groups, g.Clone())
		}
		e.Runs = 1
		return nil
	}
	if len(gs) != len(e.Groups) {
		return fmt.Errorf("%s/%s: a run has %d groups, earlier runs %d", e.Top, e.Config, len(gs), len(e.Groups))
	}
	for i, g := range gs {
		if err := e.Groups[i].Merge(g); err != nil {
			return fmt.Errorf("%s/%s: %w", e.Top, e.Config, err)
		}
	}
	e.Runs++
	return nil
}

// Merge adds the runs of o, an entry of the same (top, config) from another report (a shard).
func (e *Entry) Merge(o Entry) error {
	if e.Top != o.Top || e.Config != o.Config {
		return fmt.Errorf("merge of %s/%s into %s/%s: different (top, config)", o.Top, o.Config, e.Top, e.Config)
	}
	runs := e.Runs
	if runs == 0 {
		e.Groups = nil
	}
	if err := e.Add(o.Groups); err != nil {
		return err
	}
	e.Runs = runs + o.Runs
	return nil
}

// Group returns the named group, or nil.
func (e *Entry) Group(name string) *Group {
	for _, g := range e.Groups {
		if g.Name == name {
			return g
		}
	}
	return nil
}

// Validate checks an entry read from a file; where is its field path ("functional[0]"), used in errors.
func (e *Entry) Validate(where string) error {
	if e.Top == "" {
		return fmt.Errorf("field %s.top: empty", where)
	}
	if e.Config == "" {
		return fmt.Errorf("field %s.config: empty", where)
	}
	if e.Runs < 1 {
		return fmt.Errorf("field %s.runs: value %d (allowed: >= 1)", where, e.Runs)
	}
	if len(e.Groups) == 0 {
		return fmt.Errorf("field %s.groups: empty (allowed: one or more groups)", where)
	}
	gseen := map[string]bool{}
	for i, g := range e.Groups {
		gw := fmt.Sprintf("%s.groups[%d]", where, i)
		if g == nil {
			return fmt.Errorf("field %s: null", gw)
		}
		if g.Name == "" || strings.Contains(g.Name, ".") {
			return fmt.Errorf("field %s.name: value %q (allowed: a non-empty name without '.')", gw, g.Name)
		}
		if gseen[g.Name] {
			return fmt.Errorf("field %s.name: %q repeats an earlier group", gw, g.Name)
		}
		gseen[g.Name] = true
		if err := g.validatePoints(gw); err != nil {
			return err
		}
	}
	return nil
}

// validatePoints checks the points of group g, whose field path is gw, and indexes their bins.
func (g *Group) validatePoints(gw string) error {
	if len(g.Points) == 0 {
		return fmt.Errorf("field %s.points: empty", gw)
	}
	pseen := map[string]*Point{}
	for j, p := range g.Points {
		pw := fmt.Sprintf("%s.points[%d]", gw, j)
		if p == nil {
			return fmt.Errorf("field %s: null", pw)
		}
		if p.Name == "" || strings.Contains(p.Name, ".") {
			return fmt.Errorf("field %s.name: value %q (allowed: a non-empty name without '.')", pw, p.Name)
		}
		if pseen[p.Name] != nil {
			return fmt.Errorf("field %s.name: %q repeats an earlier point", pw, p.Name)
		}
		if len(p.Cross) != 0 {
			if len(p.Cross) != 2 {
				return fmt.Errorf("field %s.cross: %d names (allowed: 2)", pw, len(p.Cross))
			}
			for _, c := range p.Cross {
				if pseen[c] == nil {
					return fmt.Errorf("field %s.cross: %q is not an earlier point of group %s", pw, c, g.Name)
				}
			}
		}
		pseen[p.Name] = p
		if err := p.validateBins(pw); err != nil {
			return err
		}
		p.index()
	}
	return nil
}

// validateBins checks that point p, whose field path is pw, has bins with non-empty, distinct names.
func (p *Point) validateBins(pw string) error {
	if len(p.Bins) == 0 {
		return fmt.Errorf("field %s.bins: empty", pw)
	}
	bseen := map[string]bool{}
	for k, b := range p.Bins {
		if b.Name == "" {
			return fmt.Errorf("field %s.bins[%d].name: empty", pw, k)
		}
		if bseen[b.Name] {
			return fmt.Errorf("field %s.bins[%d].name: %q repeats an earlier bin", pw, k, b.Name)
		}
		bseen[b.Name] = true
	}
	return nil
}

// BinChange is one bin whose hit status differs between two reports.
type BinChange struct {
	// Top, Config, Group, Point, Bin name it.
	Top, Config, Group, Point, Bin string
}

func (c BinChange) String() string { return c.Group + "." + c.Point + "." + c.Bin }

// GroupDiff is the comparison of one group of one (top, config) between a base and a new report.
type GroupDiff struct {
	// Top, Config, Group name it; New says the base lacks it (not a loss), Missing that the new report lacks it.
	Top, Config, Group string
	New, Missing       bool
	// BaseHit/BaseReach and NewHit/NewReach are the reachable bins hit / reachable in each.
	BaseHit, BaseReach, NewHit, NewReach int
	// Lost are bins hit in the base, reachable and not hit in the new report (a failure); Gained the reverse;
	// Dropped are bins hit in the base that the new report marks unreachable or no longer has (reported only).
	Lost, Gained, Dropped []BinChange
}

// Fail reports whether the group's change fails the comparison: a lost reachable bin, or the group gone.
func (d GroupDiff) Fail() bool { return d.Missing || len(d.Lost) > 0 }

// Diff compares the functional entries of two reports. A (top, config) or group only in cur is new, not a loss;
// one only in base is missing (a failure).
func Diff(base, cur []Entry) []GroupDiff {
	bm, bk := indexGroups(base)
	nm, nk := indexGroups(cur)
	keys := bk
	for _, k := range nk {
		if bm[k] == nil {
			keys = append(keys, k)
		}
	}
	sort.Slice(keys, func(i, j int) bool {
		a, b := keys[i], keys[j]
		if a.top != b.top {
			return a.top < b.top
		}
		if a.config != b.config {
			return a.config < b.config
		}
		return a.group < b.group
	})
	var out []GroupDiff
	for _, k := range keys {
		out = append(out, diffGroup(k, bm[k], nm[k]))
	}
	return out
}

// groupKey names one group of one (top, config).
type groupKey struct {
	// top, config and group name it.
	top, config, group string
}

// indexGroups returns the groups of es by key, and the keys in the order of es.
func indexGroups(es []Entry) (map[groupKey]*Group, []groupKey) {
	m := map[groupKey]*Group{}
	var ks []groupKey
	for _, e := range es {
		for _, g := range e.Groups {
			k := groupKey{top: e.Top, config: e.Config, group: g.Name}
			m[k] = g
			ks = append(ks, k)
		}
	}
	return m, ks
}

// diffGroup compares group k of the base (bg) and the new report (ng); either may be nil (absent).
func diffGroup(k groupKey, bg, ng *Group) GroupDiff {
	d := GroupDiff{Top: k.top, Config: k.config, Group: k.group}
	if bg != nil {
		d.BaseHit, d.BaseReach = bg.Count()
	}
	if ng != nil {
		d.NewHit, d.NewReach = ng.Count()
	}
	switch {
	case bg == nil:
		d.New = true
	case ng == nil:
		d.Missing = true
	default:
		d.diffBaseBins(k, bg, ng)
		d.addNewBins(k, bg, ng)
	}
	return d
}

// diffBaseBins classifies each bin of the base group bg against the new group ng: lost (hit, now reachable and
// not hit), dropped (hit, now unreachable or gone) or gained (not hit, now hit).
func (d *GroupDiff) diffBaseBins(k groupKey, bg, ng *Group) {
	for _, bp := range bg.Points {
		np := ng.Find(bp.Name)
		for _, bb := range bp.Bins {
			c := BinChange{Top: k.top, Config: k.config, Group: k.group, Point: bp.Name, Bin: bb.Name}
			var nb *Bin
			if np != nil {
				nb = np.find(bb.Name)
			}
			switch {
			case nb == nil:
				if bb.Hits > 0 {
					d.Dropped = append(d.Dropped, c)
				}
			case bb.Hits > 0 && nb.Hits == 0 && nb.Unreachable == "":
				d.Lost = append(d.Lost, c)
			case bb.Hits > 0 && nb.Hits == 0:
				d.Dropped = append(d.Dropped, c)
			case bb.Hits == 0 && nb.Hits > 0:
				d.Gained = append(d.Gained, c)
			}
		}
	}
}

// addNewBins adds to Gained the bins hit in the new group ng that the base group bg does not have.
func (d *GroupDiff) addNewBins(k groupKey, bg, ng *Group) {
	for _, np := range ng.Points {
		bp := bg.Find(np.Name)
		for _, nb := range np.Bins {
			if nb.Hits == 0 {
				continue
			}
			if bp != nil && bp.Has(nb.Name) {
				continue
			}
			d.Gained = append(d.Gained,
				BinChange{Top: k.top, Config: k.config, Group: k.group, Point: np.Name, Bin: nb.Name})
		}
	}
}
