package sweep

import (
	"cmp"
	"errors"
	"fmt"
	"image/color"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"
)

// Chart size fits a slide or a page column; PNGs are drawn at pngDPI so the text stays sharp.
const (
	chartWidth  = 16 * vg.Centimeter
	chartHeight = 10 * vg.Centimeter
	pngDPI      = 150
)

// target is a goodput goal drawn as a dashed horizontal line.
type target struct {
	// label names the goal in the legend.
	label string
	// goodput is the goal in percent of link capacity.
	goodput float64
	// dashes tells the targets apart: on and off lengths in points.
	dashes []vg.Length
}

// targets are the spray goals: 95% goodput at 1% loss, 80% at 10%.
var targets = []target{
	{label: "target spray 1%: 95%", goodput: 95, dashes: []vg.Length{2, 2}},
	{label: "target spray 10%: 80%", goodput: 80, dashes: []vg.Length{6, 3}},
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

// WriteChart draws goodput (% of link capacity) against random loss (%) with one line per (mode, paths), sorted by
// loss, plus dashed lines at the spray targets. The format follows the extension of path: .png or .svg. Empty or
// invalid points are an error naming the point index and field, and then no file is created.
func WriteChart(path, title string, pts []Point) error {
	format := strings.ToLower(strings.TrimPrefix(filepath.Ext(path), "."))
	if format != "png" && format != "svg" {
		return fmt.Errorf("chart %q: unknown extension, want .png or .svg", path)
	}
	if len(pts) == 0 {
		return errors.New("chart: no points")
	}
	if err := validate(pts); err != nil {
		return fmt.Errorf("chart: %w", err)
	}
	p, legend, err := newPlot(title, pts)
	if err != nil {
		return fmt.Errorf("chart %q: %w", path, err)
	}
	var wt io.WriterTo
	if format == "png" {
		c := vgimg.NewWith(vgimg.UseWH(chartWidth, chartHeight), vgimg.UseDPI(pngDPI))
		drawChart(draw.New(c), p, legend)
		wt = vgimg.PngCanvas{Canvas: c}
	} else {
		c := vgsvg.New(chartWidth, chartHeight)
		drawChart(draw.New(c), p, legend)
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

// legendGap is the space between the plot and the legend beside it, and between the legend and the right edge.
const legendGap = 2 * vg.Millimeter

// drawChart draws p with the legend in a column to its right, where it can hide no data.
func drawChart(c draw.Canvas, p *plot.Plot, legend plot.Legend) {
	r := legend.Rectangle(c)
	width := r.Max.X - r.Min.X
	p.Draw(draw.Crop(c, 0, -(width + 2*legendGap), 0, 0))
	// Level with the top of the data area: below the title, if any.
	top := legendGap
	if p.Title.Text != "" {
		top += p.Title.TextStyle.Rectangle(p.Title.Text).Max.Y + p.Title.Padding
	}
	legend.Draw(draw.Crop(c, c.Max.X-c.Min.X-width-legendGap, -legendGap, 0, -top))
}

// newPlot builds the chart of valid, non-empty pts and its legend, which the plot does not draw.
func newPlot(title string, pts []Point) (*plot.Plot, plot.Legend, error) {
	groups := map[seriesKey][]Point{}
	maxLoss := 0.0
	for _, pt := range pts {
		k := seriesKey{mode: pt.Mode, paths: pt.Paths}
		groups[k] = append(groups[k], pt)
		maxLoss = max(maxLoss, pt.Loss*100)
	}
	keys := make([]seriesKey, 0, len(groups))
	for k := range groups {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b seriesKey) int {
		return cmp.Or(cmp.Compare(a.mode, b.mode), cmp.Compare(a.paths, b.paths))
	})

	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = "random loss per packet (%)"
	p.Y.Label.Text = "goodput (% of link capacity)"
	p.Add(plotter.NewGrid())
	legend := plot.NewLegend()
	legend.Top = true
	legend.Left = true
	legend.TextStyle.Font.Size = vg.Points(10)
	legend.Padding = vg.Points(3)

	for _, t := range targets {
		line := plotter.NewFunction(func(float64) float64 { return t.goodput })
		line.Color = color.Gray{Y: 96}
		line.Dashes = t.dashes
		p.Add(line)
		legend.Add(t.label, line)
	}

	colors := plotutil.DarkColors
	for i, k := range keys {
		g := groups[k]
		slices.SortStableFunc(g, func(a, b Point) int { return cmp.Compare(a.Loss, b.Loss) })
		xys := make(plotter.XYs, len(g))
		for j, pt := range g {
			xys[j] = plotter.XY{X: pt.Loss * 100, Y: pt.Goodput * 100}
		}
		line, points, err := plotter.NewLinePoints(xys)
		if err != nil {
			return nil, plot.Legend{}, fmt.Errorf("series %s: %w", k, err)
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

	// Fixed axes: loss from 0, goodput over its whole range so charts compare at a glance.
	p.X.Min = 0
	p.X.Max = maxLoss
	if p.X.Max == 0 {
		p.X.Max = 1
	}
	p.Y.Min = 0
	p.Y.Max = 100
	var ticks plot.ConstantTicks
	for v := 0; v <= 100; v += 5 {
		tick := plot.Tick{Value: float64(v)}
		if v%10 == 0 {
			tick.Label = fmt.Sprint(v)
		}
		ticks = append(ticks, tick)
	}
	p.Y.Tick.Marker = ticks
	return p, legend, nil
}
