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

// seriesKey identifies one line of the chart.
type seriesKey struct {
	// mode is Point.Mode.
	mode string
	// paths is Point.Paths.
	paths int
}

// String is the legend label, e.g. "spray, 8 paths".
func (k seriesKey) String() string {
	if k.paths == 1 {
		return fmt.Sprintf("%s, 1 path", k.mode)
	}
	return fmt.Sprintf("%s, %d paths", k.mode, k.paths)
}

// Chart is what WriteChart draws.
type Chart struct {
	// Title is the heading (empty: none); Caption the lines under the chart naming the conditions every point
	// shares (Caption gives them for a sweep's results; empty: none).
	Title, Caption string
	// Points are the runs, one line per (mode, paths).
	Points []Point
}

// WriteChart draws goodput (% of link capacity) against random loss (%) with one line per (mode, paths), sorted by
// loss, plus a mark per spray target at its loss rate. The format follows the extension of path: .png or .svg.
// Empty or invalid points are an error naming the point index and field, and then no file is created.
func WriteChart(path string, ch Chart) error {
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
	p, legend, err := newPlot(ch.Title, ch.Points)
	if err != nil {
		return fmt.Errorf("chart %q: %w", path, err)
	}
	var wt io.WriterTo
	if format == "png" {
		c := vgimg.NewWith(vgimg.UseWH(chartWidth, chartHeight), vgimg.UseDPI(pngDPI))
		drawChart(draw.New(c), p, legend, ch.Caption)
		wt = vgimg.PngCanvas{Canvas: c}
	} else {
		c := vgsvg.New(chartWidth, chartHeight)
		drawChart(draw.New(outlineCanvas{c}), p, legend, ch.Caption)
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

// drawChart draws p on an opaque white background, with the legend in a boxed column to its right where it can
// hide no data, and the caption (if any) along the bottom.
func drawChart(c draw.Canvas, p *plot.Plot, legend plot.Legend, caption string) {
	c.SetColor(color.White)
	c.Fill(c.Rectangle.Path())
	bottom := vg.Length(0)
	if caption != "" {
		sty := captionStyle(p)
		bottom = sty.Height(caption) + 2*legendGap
		sty.XAlign, sty.YAlign = draw.XLeft, draw.YBottom
		c.FillText(sty, vg.Point{X: c.Min.X + legendGap, Y: c.Min.Y + legendGap}, caption)
	}
	r := legend.Rectangle(c)
	width := r.Max.X - r.Min.X + 2*boxPad
	p.Draw(draw.Crop(c, 0, -(width + 2*legendGap), bottom, 0))
	// Level with the top of the data area: below the title, if any.
	top := legendGap
	if p.Title.Text != "" {
		top += p.Title.TextStyle.Rectangle(p.Title.Text).Max.Y + p.Title.Padding
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

// newPlot builds the chart of valid, non-empty pts and its legend, which the plot does not draw.
func newPlot(title string, pts []Point) (*plot.Plot, plot.Legend, error) {
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = "random loss per packet (%, log scale)"
	p.Y.Label.Text = "goodput (% of link capacity)"
	p.Add(plotter.NewGrid())
	legend := plot.NewLegend()
	legend.Top = true
	legend.Left = true
	legend.TextStyle.Font.Size = vg.Points(10)
	legend.Padding = vg.Points(3)
	ax := newLossAxis(pts)
	if err := addSeries(p, &legend, ax, pts); err != nil {
		return nil, plot.Legend{}, err
	}
	if err := addTargets(p, &legend, ax); err != nil {
		return nil, plot.Legend{}, err
	}
	ax.apply(p)
	setFonts(p, &legend)
	return p, legend, nil
}

// setFonts gives every text of p and legend the chart's typeface, keeping their sizes.
func setFonts(p *plot.Plot, legend *plot.Legend) {
	for _, f := range []*font.Font{&p.Title.TextStyle.Font, &p.X.Label.TextStyle.Font, &p.Y.Label.TextStyle.Font,
		&p.X.Tick.Label.Font, &p.Y.Tick.Label.Font, &legend.TextStyle.Font} {
		f.Typeface, f.Variant = chartFont.Typeface, chartFont.Variant
	}
}

// addSeries adds one line with marks per (mode, paths) of pts, sorted by mode then paths, each sorted by loss.
func addSeries(p *plot.Plot, legend *plot.Legend, ax lossAxis, pts []Point) error {
	groups := map[seriesKey][]Point{}
	for _, pt := range pts {
		k := seriesKey{mode: pt.Mode, paths: pt.Paths}
		groups[k] = append(groups[k], pt)
	}
	keys := make([]seriesKey, 0, len(groups))
	for k := range groups {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b seriesKey) int {
		return cmp.Or(cmp.Compare(a.mode, b.mode), cmp.Compare(a.paths, b.paths))
	})
	colors := plotutil.DarkColors
	for i, k := range keys {
		g := groups[k]
		slices.SortStableFunc(g, func(a, b Point) int { return cmp.Compare(a.Loss, b.Loss) })
		xys := make(plotter.XYs, len(g))
		for j, pt := range g {
			xys[j] = plotter.XY{X: ax.x(pt.Loss * 100), Y: pt.Goodput * 100}
		}
		line, points, err := plotter.NewLinePoints(xys)
		if err != nil {
			return fmt.Errorf("series %s: %w", k, err)
		}
		c := colors[i%len(colors)]
		line.Color = c
		line.Width = vg.Points(1.5)
		points.Color = c
		points.Shape = plotutil.Shape(i)
		points.Radius = vg.Points(2.5)
		p.Add(line, points)
		legend.Add(k.String(), line, points)
	}
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

// apply sets p's axes: one labelled x tick per swept rate, a margin around them; goodput 0..100 with a tick
// every 5 and a label every 10, so charts compare at a glance.
func (ax lossAxis) apply(p *plot.Plot) {
	var xt plot.ConstantTicks
	for _, v := range ax.rates {
		xt = append(xt, plot.Tick{Value: ax.x(v), Label: fmt.Sprintf("%g", v)})
	}
	p.X.Tick.Marker = xt
	p.X.Min, p.X.Max = ax.x(ax.rates[0])-0.25, ax.x(ax.rates[len(ax.rates)-1])+0.25
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

// Caption is the chart caption of a sweep's results: the conditions every point shares, as the first run
// repeats them (the points differ only in mode, paths and loss).
func Caption(results []*system.Result) string {
	if len(results) == 0 {
		return ""
	}
	r := results[0]
	first := fmt.Sprintf("preset %s, seed %d, %g us measured per point, MTU %d", r.Config, r.Seed, r.DurationUS,
		r.MTU)
	second := fmt.Sprintf("%d connections, messages %s, port %d Gb/s, NIC clock %d MHz", r.Conns, r.Msg, r.PortGbps,
		r.ClockMHz)
	if r.AckLoss > 0 {
		second += fmt.Sprintf(", ACK loss %g%%", r.AckLoss*100)
	}
	if r.Bidir {
		second += ", both directions"
	}
	return first + "\n" + second
}
