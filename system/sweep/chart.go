package sweep

import (
	"cmp"
	"errors"
	"fmt"
	"image/color"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	xfont "golang.org/x/image/font"
	"golang.org/x/image/font/sfnt"
	"golang.org/x/image/math/fixed"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"

	"github.com/spraynic/spraynic/english"
	"github.com/spraynic/spraynic/system"
)

// Chart size fits a slide or a page column; PNGs are drawn at pngDPI so the text stays sharp.
const (
	chartWidth  = 16 * vg.Centimeter
	chartHeight = 10 * vg.Centimeter
	pngDPI      = 150
)

// chartFont is the typeface of every text of the chart (gonum's Liberation Sans, built in).
var chartFont = font.Font{Typeface: "Liberation", Variant: "Sans"}

// target is a goodput goal at one loss rate, drawn as a mark at that rate only.
type target struct {
	// label names the goal in the legend.
	label string
	// lossPct is the loss rate the goal applies at, in percent; goodput the goal, in percent of link capacity.
	lossPct, goodput float64
}

// targets are the spray goals (README, "Figures"): goodput >= 95% at 1% loss, >= 80% at 10%.
var targets = []target{
	{label: "target ≥ 95% at 1%", lossPct: 1, goodput: 95},
	{label: "target ≥ 80% at 10%", lossPct: 10, goodput: 80},
}

// seriesKey identifies one line of a chart: a mode and path count, and where the chart has more than one of
// them, a connection count and a loss rate.
type seriesKey struct {
	// mode is Point.Mode.
	mode string
	// paths is Point.Paths.
	paths int
	// conns is Point.Conns, or 0 when the line is not one connection count's.
	conns int
	// loss is Point.Loss when byLoss: the line is one loss rate's.
	loss   float64
	byLoss bool
}

// String is the legend label, e.g. "spray, 8 paths" or "gbn, 1 path, 64 conns, loss 1%".
func (k seriesKey) String() string {
	s := k.mode + ", " + english.Plural(k.paths, "path")
	if k.conns > 0 {
		s += ", " + english.Plural(k.conns, "conn")
	}
	if k.byLoss {
		s += fmt.Sprintf(", loss %g%%", k.loss*100)
	}
	return s
}

// compare orders keys by mode, paths, connections and loss, so every chart of a sweep gives a line the same
// colour and mark.
func (k seriesKey) compare(o seriesKey) int {
	return cmp.Or(cmp.Compare(k.mode, o.mode), cmp.Compare(k.paths, o.paths), cmp.Compare(k.conns, o.conns),
		cmp.Compare(k.loss, o.loss))
}

// Chart is what WriteChart, WriteTailChart and WriteConnsChart draw.
type Chart struct {
	// Title is the heading (empty: none); Caption the lines under the chart naming the conditions every point
	// shares (Caption gives them for a sweep's results; empty: none).
	Title, Caption string
	// MTU is the payload bytes per packet of the runs: WriteChart draws the lossless line, (1 - loss) x
	// system.MaxGoodput(MTU), the best goodput when every lost packet is sent once more (0: no line).
	MTU int
	// Points are the runs.
	Points []Point
}

// Chart sizes: a loss chart fits a slide or a page column; the connection chart has two panels, one above the
// other. PNGs are drawn at pngDPI so the text stays sharp.
var (
	lossChartSize  = vg.Point{X: chartWidth, Y: chartHeight}
	connsChartSize = vg.Point{X: chartWidth, Y: 14 * vg.Centimeter}
)

// WriteChart draws goodput (% of link capacity) against random loss (%) with one line per (mode, paths), and per
// connection count when the points have several, sorted by loss, plus a mark per spray target at its loss rate and
// the lossless line (Chart.MTU). The format follows the extension of path: .png or .svg. Empty or invalid points
// are an error naming the point index and field, and then no file is created.
func WriteChart(path string, ch Chart) error {
	return writeImage(path, lossChartSize, ch, func() ([]*plot.Plot, plot.Legend, error) {
		p, legend, err := newPlot(ch)
		return []*plot.Plot{p}, legend, err
	})
}

// WriteTailChart draws the p99 message completion time (microseconds, log scale) against random loss with the
// lines of WriteChart; a point with no completed message (p99 0) is left out of its line.
func WriteTailChart(path string, ch Chart) error {
	return writeImage(path, lossChartSize, ch, func() ([]*plot.Plot, plot.Legend, error) {
		p, legend, err := newTailPlot(ch)
		return []*plot.Plot{p}, legend, err
	})
}

// WriteConnsChart draws goodput (upper panel) and the p99 message completion time (lower panel) against the
// number of active connections, one line per (mode, paths), and per loss rate when the points have several; in
// the goodput panel a mark at each connection count for the lossless goal (goodput >= 95% with no loss), when
// the points have loss 0.
func WriteConnsChart(path string, ch Chart) error {
	return writeImage(path, connsChartSize, ch, func() ([]*plot.Plot, plot.Legend, error) {
		return newConnsPlots(ch)
	})
}

// writeImage checks ch's points, builds its panels with build and draws them, the legend and ch.Caption on an
// image of size in the format of path's extension; on an error no file is left.
func writeImage(path string, size vg.Point, ch Chart, build func() ([]*plot.Plot, plot.Legend, error)) error {
	format := strings.ToLower(strings.TrimPrefix(filepath.Ext(path), "."))
	if format != "png" && format != "svg" {
		return fmt.Errorf("chart %q: unknown extension, want .png or .svg", path)
	}
	if len(ch.Points) == 0 {
		return errors.New("chart: no points")
	}
	if err := validate(ch.Points); err != nil {
		return fmt.Errorf("chart: %w", err)
	}
	plots, legend, err := build()
	if err != nil {
		return fmt.Errorf("chart %q: %w", path, err)
	}
	var wt io.WriterTo
	if format == "png" {
		c := vgimg.NewWith(vgimg.UseWH(size.X, size.Y), vgimg.UseDPI(pngDPI))
		drawChart(draw.New(c), plots, legend, ch.Caption)
		wt = vgimg.PngCanvas{Canvas: c}
	} else {
		c := vgsvg.New(size.X, size.Y)
		drawChart(draw.New(outlineCanvas{c}), plots, legend, ch.Caption)
		wt = c
	}
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("chart: %w", err)
	}
	_, err = wt.WriteTo(f)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		// A truncated image would pass for a chart; leave none.
		_ = os.Remove(path)
		return fmt.Errorf("chart %q: %w", path, err)
	}
	return nil
}

// outlineCanvas is an SVG canvas that draws text as the glyph outlines of its font (filled paths): the SVG names
// no font, so every viewer shows the text exactly as it was laid out. (A font the SVG names but the viewer lacks
// is replaced by a wider one that overflows the legend, and an embedded web font is ignored by some renderers,
// librsvg among them.)
type outlineCanvas struct{ *vgsvg.Canvas }

// FillString implements vg.Canvas: str's glyphs, advanced and kerned as font.Face.Width measures them, with the
// baseline's left end at pt. vg.Canvas has no error to return: a glyph the font cannot give is left out (the text
// handler measures every line with font.Face.Width first, which panics on such a glyph, as gonum does).
func (c outlineCanvas) FillString(f font.Face, pt vg.Point, str string) {
	var buf sfnt.Buffer
	// With ppem = units per em, the font's coordinates come in font units; scale turns them into lengths.
	ppem := fixed.Int26_6(f.Face.UnitsPerEm())
	scale := f.Font.Size / vg.Length(ppem)
	var path vg.Path
	var x vg.Length
	at := func(p fixed.Point26_6) vg.Point {
		return vg.Point{X: pt.X + x + vg.Length(p.X)*scale, Y: pt.Y - vg.Length(p.Y)*scale}
	}
	prev, hasPrev := sfnt.GlyphIndex(0), false
	for _, r := range str {
		idx, err := f.Face.GlyphIndex(&buf, r)
		if err != nil {
			continue
		}
		if hasPrev {
			if k, err := f.Face.Kern(&buf, prev, idx, ppem, xfont.HintingNone); err == nil {
				x += vg.Length(k) * scale
			}
		}
		prev, hasPrev = idx, true
		segs, _ := f.Face.LoadGlyph(&buf, idx, ppem, nil)
		for j, s := range segs {
			switch a := s.Args; s.Op {
			case sfnt.SegmentOpMoveTo:
				if j > 0 {
					path.Close()
				}
				path.Move(at(a[0]))
			case sfnt.SegmentOpLineTo:
				path.Line(at(a[0]))
			case sfnt.SegmentOpQuadTo:
				path.QuadTo(at(a[0]), at(a[1]))
			case sfnt.SegmentOpCubeTo:
				path.CubeTo(at(a[0]), at(a[1]), at(a[2]))
			}
		}
		if len(segs) > 0 {
			path.Close()
		}
		adv, _ := f.Face.GlyphAdvance(&buf, idx, ppem, xfont.HintingNone)
		x += vg.Length(adv) * scale
	}
	if len(path) > 0 {
		c.Fill(path)
	}
}

// Layout of the chart: the gap between the plot, the legend beside it and the edges; the legend box's padding.
const (
	legendGap = 2 * vg.Millimeter
	boxPad    = 1.5 * vg.Millimeter
)

// drawChart draws plots, one above the other with their axes aligned, on an opaque white background, with the
// legend in a boxed column to their right where it can hide no data, and the caption (if any) along the bottom.
func drawChart(c draw.Canvas, plots []*plot.Plot, legend plot.Legend, caption string) {
	c.SetColor(color.White)
	c.Fill(c.Rectangle.Path())
	bottom := vg.Length(0)
	if caption != "" {
		sty := captionStyle(plots[0])
		bottom = sty.Height(caption) + 2*legendGap
		sty.XAlign, sty.YAlign = draw.XLeft, draw.YBottom
		c.FillText(sty, vg.Point{X: c.Min.X + legendGap, Y: c.Min.Y + legendGap}, caption)
	}
	r := legend.Rectangle(c)
	width := r.Max.X - r.Min.X + 2*boxPad
	area := draw.Crop(c, 0, -(width + 2*legendGap), bottom, 0)
	if len(plots) == 1 {
		plots[0].Draw(area)
	} else {
		rows := make([][]*plot.Plot, len(plots))
		for i, p := range plots {
			rows[i] = []*plot.Plot{p}
		}
		tiles := draw.Tiles{Rows: len(plots), Cols: 1, PadY: legendGap}
		for i, cs := range plot.Align(rows, tiles, area) {
			plots[i].Draw(cs[0])
		}
	}
	// Level with the top of the data area: below the title, if any.
	top := legendGap
	if t := plots[0].Title; t.Text != "" {
		top += t.TextStyle.Rectangle(t.Text).Max.Y + t.Padding
	}
	box := vg.Rectangle{Max: vg.Point{X: c.Max.X - legendGap, Y: c.Max.Y - top}}
	box.Min = vg.Point{X: box.Max.X - width, Y: box.Max.Y - (r.Max.Y - r.Min.Y) - 2*boxPad}
	c.SetColor(color.White)
	c.Fill(box.Path())
	c.SetLineStyle(draw.LineStyle{Color: color.Gray{Y: 160}, Width: vg.Points(0.5)})
	c.Stroke(box.Path())
	pad := vg.Point{X: boxPad, Y: boxPad}
	legend.Draw(draw.Canvas{Canvas: c.Canvas, Rectangle: vg.Rectangle{Min: box.Min.Add(pad), Max: box.Max.Sub(pad)}})
}

// captionStyle is the text style of the caption: the tick labels' font, a little smaller, dark grey.
func captionStyle(p *plot.Plot) draw.TextStyle {
	sty := p.X.Tick.Label
	sty.Font.Size = vg.Points(8)
	sty.Color = color.Gray{Y: 64}
	return sty
}

// newLegend is an empty legend in the chart's style.
func newLegend() plot.Legend {
	legend := plot.NewLegend()
	legend.Top = true
	legend.Left = true
	legend.TextStyle.Font.Size = vg.Points(10)
	legend.Padding = vg.Points(3)
	return legend
}

// newLossPlot is a plot with the title, a grid and the loss axis label, for the charts against loss.
func newLossPlot(title string) *plot.Plot {
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = "random loss per packet (%, log scale)"
	p.Add(plotter.NewGrid())
	return p
}

// newPlot builds the goodput chart of ch's valid, non-empty points and its legend, which the plot does not draw.
func newPlot(ch Chart) (*plot.Plot, plot.Legend, error) {
	p := newLossPlot(ch.Title)
	p.Y.Label.Text = "goodput (% of link capacity)"
	legend := newLegend()
	ax := newLossAxis(ch.Points)
	err := addLines(p, &legend, lossSeries(ch.Points), func(pt Point) (plotter.XY, bool) {
		return plotter.XY{X: ax.x(pt.Loss * 100), Y: pt.Goodput * 100}, true
	})
	if err != nil {
		return nil, plot.Legend{}, err
	}
	if err := addLossless(p, &legend, ax, ch.MTU); err != nil {
		return nil, plot.Legend{}, err
	}
	if err := addTargets(p, &legend, ax); err != nil {
		return nil, plot.Legend{}, err
	}
	ax.apply(p)
	goodputAxis(p)
	setFonts(p, &legend)
	return p, legend, nil
}

// newTailPlot builds the p99 chart of ch's valid, non-empty points and its legend.
func newTailPlot(ch Chart) (*plot.Plot, plot.Legend, error) {
	p := newLossPlot(ch.Title)
	p.Y.Label.Text = "p99 MCT (us, log scale)"
	legend := newLegend()
	ax := newLossAxis(ch.Points)
	err := addLines(p, &legend, lossSeries(ch.Points), func(pt Point) (plotter.XY, bool) {
		return plotter.XY{X: ax.x(pt.Loss * 100), Y: pt.P99US}, pt.P99US > 0
	})
	if err != nil {
		return nil, plot.Legend{}, err
	}
	ax.apply(p)
	var p99s []float64
	for _, pt := range ch.Points {
		p99s = append(p99s, pt.P99US)
	}
	logAxis(&p.Y, p99s)
	setFonts(p, &legend)
	return p, legend, nil
}

// newConnsPlots builds the two panels of the connection chart of ch's valid, non-empty points, goodput above and
// p99 below, and their common legend.
func newConnsPlots(ch Chart) ([]*plot.Plot, plot.Legend, error) {
	legend := newLegend()
	ax := newConnsAxis(ch.Points)
	series := connsSeries(ch.Points)
	good := plot.New()
	good.Title.Text = ch.Title
	good.Y.Label.Text = "goodput (% of link capacity)"
	good.Add(plotter.NewGrid())
	err := addLines(good, &legend, series, func(pt Point) (plotter.XY, bool) {
		return plotter.XY{X: ax.x(pt.Conns), Y: pt.Goodput * 100}, true
	})
	if err != nil {
		return nil, plot.Legend{}, err
	}
	if slices.ContainsFunc(ch.Points, func(pt Point) bool { return pt.Loss == 0 }) {
		var xys plotter.XYs
		for _, n := range ax.counts {
			xys = append(xys, plotter.XY{X: ax.x(n), Y: connsTarget})
		}
		s, err := plotter.NewScatter(xys)
		if err != nil {
			return nil, plot.Legend{}, fmt.Errorf("target: %w", err)
		}
		s.GlyphStyle = draw.GlyphStyle{Color: color.Black, Radius: targetRadius, Shape: atLeastGlyph{}}
		good.Add(s)
		legend.Add(fmt.Sprintf("target ≥ %g%% at no loss", connsTarget), s)
	}
	tail := plot.New()
	tail.X.Label.Text = "active connections (log scale)"
	tail.Y.Label.Text = "p99 MCT (us)"
	tail.Add(plotter.NewGrid())
	// The same lines again, without legend entries of their own.
	var discard plot.Legend
	err = addLines(tail, &discard, series, func(pt Point) (plotter.XY, bool) {
		return plotter.XY{X: ax.x(pt.Conns), Y: pt.P99US}, true
	})
	if err != nil {
		return nil, plot.Legend{}, err
	}
	for _, p := range []*plot.Plot{good, tail} {
		ax.apply(p)
		setFonts(p, &legend)
	}
	goodputAxis(good)
	tail.Y.Min = 0
	tail.Y.Max = math.Max(1, tail.Y.Max*1.1)
	return []*plot.Plot{good, tail}, legend, nil
}

// connsTarget is the scale goal (docs/e2e.md, "Scenarios"): goodput >= 95% at every connection count, no loss.
const connsTarget = 95.0

// setFonts gives every text of p and legend the chart's typeface, keeping their sizes.
func setFonts(p *plot.Plot, legend *plot.Legend) {
	for _, f := range []*font.Font{&p.Title.TextStyle.Font, &p.X.Label.TextStyle.Font, &p.Y.Label.TextStyle.Font,
		&p.X.Tick.Label.Font, &p.Y.Tick.Label.Font, &legend.TextStyle.Font} {
		f.Typeface, f.Variant = chartFont.Typeface, chartFont.Variant
	}
}

// series is one line of a chart: its key and points, in the order the line joins them.
type series struct {
	// key names the line; pts are its points.
	key seriesKey
	pts []Point
}

// groupSeries groups pts into lines by key, sorted by key, each line's points sorted by along.
func groupSeries(pts []Point, key func(Point) seriesKey, along func(a, b Point) int) []series {
	groups := map[seriesKey][]Point{}
	for _, pt := range pts {
		k := key(pt)
		groups[k] = append(groups[k], pt)
	}
	var out []series
	for k, g := range groups {
		slices.SortStableFunc(g, along)
		out = append(out, series{key: k, pts: g})
	}
	slices.SortFunc(out, func(a, b series) int { return a.key.compare(b.key) })
	return out
}

// lossSeries are the lines of a chart against loss: one per (mode, paths), and per connection count when pts have
// several.
func lossSeries(pts []Point) []series {
	several := len(distinct(pts, func(pt Point) int { return pt.Conns })) > 1
	return groupSeries(pts, func(pt Point) seriesKey {
		k := seriesKey{mode: pt.Mode, paths: pt.Paths}
		if several {
			k.conns = pt.Conns
		}
		return k
	}, func(a, b Point) int { return cmp.Compare(a.Loss, b.Loss) })
}

// connsSeries are the lines of a chart against connections: one per (mode, paths), and per loss rate when pts
// have several.
func connsSeries(pts []Point) []series {
	several := len(distinct(pts, func(pt Point) float64 { return pt.Loss })) > 1
	return groupSeries(pts, func(pt Point) seriesKey {
		k := seriesKey{mode: pt.Mode, paths: pt.Paths}
		if several {
			k.loss, k.byLoss = pt.Loss, true
		}
		return k
	}, func(a, b Point) int { return cmp.Compare(a.Conns, b.Conns) })
}

// distinct is the distinct values of f over pts, ascending.
func distinct[T cmp.Ordered](pts []Point, f func(Point) T) []T {
	var vs []T
	for _, pt := range pts {
		if v := f(pt); !slices.Contains(vs, v) {
			vs = append(vs, v)
		}
	}
	slices.Sort(vs)
	return vs
}

// addLines adds one line with marks per series, the i-th in the i-th colour and mark shape, with a legend entry;
// a point xy refuses is left out of its line.
func addLines(p *plot.Plot, legend *plot.Legend, ss []series, xy func(Point) (plotter.XY, bool)) error {
	for i, s := range ss {
		var xys plotter.XYs
		for _, pt := range s.pts {
			if v, ok := xy(pt); ok {
				xys = append(xys, v)
			}
		}
		c := colors[i%len(colors)]
		if len(xys) == 0 {
			continue
		}
		line, points, err := plotter.NewLinePoints(xys)
		if err != nil {
			return fmt.Errorf("series %s: %w", s.key, err)
		}
		line.Color = c
		line.Width = vg.Points(1.5)
		points.Color = c
		points.Shape = plotutil.Shape(i)
		points.Radius = vg.Points(2.5)
		p.Add(line, points)
		legend.Add(s.key.String(), line, points)
	}
	return nil
}

// colors are the colours of the lines, in turn: gonum's dark palette, then three more so that eight lines (two
// modes by four connection counts) differ in colour as well as in mark.
var colors = append(slices.Clone(plotutil.DarkColors), color.RGBA{R: 0x8c, G: 0x56, B: 0x4b, A: 0xff},
	color.RGBA{R: 0x17, G: 0xa2, B: 0xb8, A: 0xff}, color.RGBA{R: 0x80, G: 0x80, B: 0x00, A: 0xff})

// addLossless draws the lossless line (1 - loss) x system.MaxGoodput(mtu) over the swept loss rates, dashed grey
// (mtu 0 or a single rate: none).
func addLossless(p *plot.Plot, legend *plot.Legend, ax lossAxis, mtu int) error {
	if mtu <= 0 || len(ax.rates) < 2 {
		return nil
	}
	best := system.MaxGoodput(mtu)
	var xys plotter.XYs
	for _, v := range ax.rates {
		xys = append(xys, plotter.XY{X: ax.x(v), Y: (1 - v/100) * best * 100})
	}
	line, err := plotter.NewLine(xys)
	if err != nil {
		return fmt.Errorf("lossless line: %w", err)
	}
	line.Color = color.Gray{Y: 110}
	line.Width = vg.Points(1)
	line.Dashes = []vg.Length{vg.Points(4), vg.Points(2)}
	p.Add(line)
	legend.Add(fmt.Sprintf("(1 − loss) × %.2f%%", best*100), line)
	return nil
}

// addTargets marks each target at its own loss rate, when that rate lies in the swept range; the marks go on
// top of the lines.
func addTargets(p *plot.Plot, legend *plot.Legend, ax lossAxis) error {
	for _, t := range targets {
		if !ax.covers(t.lossPct) {
			continue
		}
		s, err := plotter.NewScatter(plotter.XYs{{X: ax.x(t.lossPct), Y: t.goodput}})
		if err != nil {
			return fmt.Errorf("target %s: %w", t.label, err)
		}
		s.GlyphStyle = draw.GlyphStyle{Color: color.Black, Radius: targetRadius, Shape: atLeastGlyph{}}
		p.Add(s)
		legend.Add(t.label, s)
	}
	return nil
}

// targetRadius is the half width of a target mark (vg.Length is in points).
const targetRadius vg.Length = 5

// atLeastGlyph marks a floor: a bar at the point's height with a small triangle on it pointing up.
type atLeastGlyph struct{}

// DrawGlyph implements draw.GlyphDrawer.
func (atLeastGlyph) DrawGlyph(c *draw.Canvas, sty draw.GlyphStyle, pt vg.Point) {
	r := sty.Radius
	c.SetLineStyle(draw.LineStyle{Color: sty.Color, Width: vg.Points(2)})
	var bar vg.Path
	bar.Move(vg.Point{X: pt.X - r, Y: pt.Y})
	bar.Line(vg.Point{X: pt.X + r, Y: pt.Y})
	c.Stroke(bar)
	var tri vg.Path
	tri.Move(vg.Point{X: pt.X - r/2, Y: pt.Y})
	tri.Line(vg.Point{X: pt.X + r/2, Y: pt.Y})
	tri.Line(vg.Point{X: pt.X, Y: pt.Y + r})
	tri.Close()
	c.SetColor(sty.Color)
	c.Fill(tri)
}

// lossAxis places loss rates (percent) on the x axis: logarithmically above 0, and 0 one decade to the left of
// the smallest non-zero rate, so rates from 0.1% to 10% spread out and 0 stands apart.
type lossAxis struct {
	// rates are the distinct loss rates of the points, ascending; least the smallest non-zero one (0: none).
	rates []float64
	least float64
}

// newLossAxis is the axis of the loss rates of pts.
func newLossAxis(pts []Point) lossAxis {
	var ax lossAxis
	for _, pt := range pts {
		if v := pt.Loss * 100; !slices.Contains(ax.rates, v) {
			ax.rates = append(ax.rates, v)
		}
	}
	slices.Sort(ax.rates)
	for _, v := range ax.rates {
		if v > 0 {
			ax.least = v
			break
		}
	}
	return ax
}

// x is the axis position of loss rate v: 0 for 0, else 1 + log10(v / least).
func (ax lossAxis) x(v float64) float64 {
	if v <= 0 || ax.least == 0 {
		return 0
	}
	return 1 + math.Log10(v/ax.least)
}

// covers reports whether v lies between the smallest non-zero and the largest rate.
func (ax lossAxis) covers(v float64) bool {
	return ax.least > 0 && v >= ax.least && v <= ax.rates[len(ax.rates)-1]
}

// apply sets p's x axis: one labelled tick per swept rate, a margin around them.
func (ax lossAxis) apply(p *plot.Plot) {
	var xt plot.ConstantTicks
	for _, v := range ax.rates {
		xt = append(xt, plot.Tick{Value: ax.x(v), Label: fmt.Sprintf("%g", v)})
	}
	p.X.Tick.Marker = xt
	p.X.Min, p.X.Max = ax.x(ax.rates[0])-0.25, ax.x(ax.rates[len(ax.rates)-1])+0.25
}

// goodputAxis sets p's y axis to goodput 0..100 with a tick every 5 and a label every 10, so charts compare at a
// glance.
func goodputAxis(p *plot.Plot) {
	p.Y.Min, p.Y.Max = 0, 100
	var yt plot.ConstantTicks
	for v := 0; v <= 100; v += 5 {
		tick := plot.Tick{Value: float64(v)}
		if v%10 == 0 {
			tick.Label = fmt.Sprint(v)
		}
		yt = append(yt, tick)
	}
	p.Y.Tick.Marker = yt
}

// connsAxis places connection counts on the x axis by their logarithm, so 8, 16, 32 and 64 stand equally apart.
type connsAxis struct {
	// counts are the distinct connection counts of the points, ascending.
	counts []int
}

// newConnsAxis is the axis of the connection counts of pts.
func newConnsAxis(pts []Point) connsAxis {
	return connsAxis{counts: distinct(pts, func(pt Point) int { return pt.Conns })}
}

// x is the axis position of n connections: log2(n).
func (ax connsAxis) x(n int) float64 {
	return math.Log2(float64(n))
}

// apply sets p's x axis: one labelled tick per swept count, a margin around them.
func (ax connsAxis) apply(p *plot.Plot) {
	var xt plot.ConstantTicks
	for _, n := range ax.counts {
		xt = append(xt, plot.Tick{Value: ax.x(n), Label: fmt.Sprint(n)})
	}
	p.X.Tick.Marker = xt
	p.X.Min, p.X.Max = ax.x(ax.counts[0])-0.3, ax.x(ax.counts[len(ax.counts)-1])+0.3
}

// logAxis makes a a log scale over the positive values of vs, with a margin and a tick at every whole multiple of
// a power of ten in between, labelled at 1, 2 and 5 times one (at every one when that labels fewer than two);
// 1..10 when no value is positive.
func logAxis(a *plot.Axis, vs []float64) {
	lo, hi := math.Inf(1), 0.0
	for _, v := range vs {
		if v > 0 {
			lo, hi = min(lo, v), max(hi, v)
		}
	}
	if hi == 0 {
		lo, hi = 1, 10
	}
	a.Scale = plot.LogScale{}
	a.Min, a.Max = lo/1.25, hi*1.25
	var ticks plot.ConstantTicks
	labelled := 0
	for e := math.Floor(math.Log10(a.Min)); e <= math.Ceil(math.Log10(a.Max)); e++ {
		for m := 1.0; m <= 9; m++ {
			v := m * math.Pow(10, e)
			if v < a.Min || v > a.Max {
				continue
			}
			t := plot.Tick{Value: v}
			if m == 1 || m == 2 || m == 5 {
				t.Label = strconv.FormatFloat(v, 'g', 4, 64)
				labelled++
			}
			ticks = append(ticks, t)
		}
	}
	if labelled < 2 {
		for i := range ticks {
			ticks[i].Label = strconv.FormatFloat(ticks[i].Value, 'g', 4, 64)
		}
	}
	a.Tick.Marker = ticks
}

// Caption is the chart caption of a sweep's results: the conditions every point shares, as the first run
// repeats them (the points differ only in mode, paths, connections and loss), and the connection counts swept.
func Caption(results []*system.Result) string {
	if len(results) == 0 {
		return ""
	}
	r := results[0]
	first := fmt.Sprintf("preset %s, seed %d, %g us measured per point, MTU %d", r.Config, r.Seed, r.DurationUS,
		r.MTU)
	var conns []string
	for _, c := range distinct(Points(results), func(pt Point) int { return pt.Conns }) {
		conns = append(conns, strconv.Itoa(c))
	}
	n := conns[len(conns)-1]
	if k := len(conns); k > 1 {
		n = strings.Join(conns[:k-1], ", ") + " and " + n
	}
	second := fmt.Sprintf("%s connections, messages %s, port %d Gb/s, NIC clock %d MHz", n, r.Msg, r.PortGbps,
		r.ClockMHz)
	if r.AckLoss > 0 {
		second += fmt.Sprintf(", ACK loss %g%%", r.AckLoss*100)
	}
	if r.Bidir {
		second += ", both directions"
	}
	return first + "\n" + second
}
