package sweep

import (
	"image/color"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/recorder"
)

// sweepOf is a sweep's points over losses (fractions) for spray and gbn on 2 and 8 paths.
func sweepOf(losses ...float64) []Point {
	var pts []Point
	for _, mode := range []string{"spray", "gbn"} {
		for _, paths := range []int{2, 8} {
			for _, l := range losses {
				pts = append(pts, Point{Mode: mode, Paths: paths, Conns: 8, Loss: l, Goodput: 0.97 - 3*l})
			}
		}
	}
	return pts
}

// TestLossAxis: the loss axis has one labelled tick per swept rate; above 0 it is logarithmic, and 0 sits one
// decade left of the smallest non-zero rate, so 0, 0.1, 1 and 2% are far apart.
func TestLossAxis(t *testing.T) {
	ax := newLossAxis(sweepOf(0.1, 0, 0.001, 0.01, 0.02, 0.05))
	p := plot.New()
	ax.apply(p)
	ticks := p.X.Tick.Marker.Ticks(p.X.Min, p.X.Max)
	var labels []string
	for _, tk := range ticks {
		labels = append(labels, tk.Label)
	}
	require.Equal(t, []string{"0", "0.1", "1", "2", "5", "10"}, labels, "one tick per swept loss rate, in percent")
	for i, want := range []float64{0, 1, 2, 2 + math.Log10(2), 2 + math.Log10(5), 3} {
		require.InDelta(t, want, ticks[i].Value, 1e-12, "position of %s%%", labels[i])
	}
	require.Less(t, p.X.Min, 0.0, "a margin left of 0")
	require.Greater(t, p.X.Max, 3.0, "a margin right of 10%")
	require.Equal(t, 0.0, newLossAxis(sweepOf(0)).x(0), "a sweep at zero loss alone")
}

// TestTargetMarks: each target is one mark at its own loss rate and goal (no line across the other rates), and
// only when the sweep covers that rate.
func TestTargetMarks(t *testing.T) {
	for _, tc := range []struct {
		name   string
		losses []float64
		want   [][2]float64 // loss %, goodput %
	}{
		{name: "both", losses: []float64{0, 0.001, 0.01, 0.02, 0.05, 0.1}, want: [][2]float64{{1, 95}, {10, 80}}},
		{name: "up to 5%", losses: []float64{0, 0.01, 0.05}, want: [][2]float64{{1, 95}}},
		{name: "from 2%", losses: []float64{0.02, 0.1}, want: [][2]float64{{10, 80}}},
		{name: "none", losses: []float64{0, 0.001}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			pts := sweepOf(tc.losses...)
			p, _, err := newPlot(Chart{Points: pts})
			require.NoError(t, err)
			ax := newLossAxis(pts)
			var got [][2]float64
			for _, b := range p.GlyphBoxes(p) {
				if b.Size().X != 2*targetRadius {
					continue // a series' point
				}
				x := p.X.Min + b.X*(p.X.Max-p.X.Min)
				got = append(got, [2]float64{math.Round(100*math.Pow(10, x-1)*ax.least) / 100, math.Round(b.Y * 100)})
			}
			require.Equal(t, tc.want, got, "target marks (loss %%, goodput %%)")
		})
	}
}

// connsSweep is a sweep's points over connection counts for spray and gbn on 8 paths at losses (fractions).
func connsSweep(losses ...float64) []Point {
	var pts []Point
	for _, mode := range []string{"spray", "gbn"} {
		for _, n := range []int{8, 16, 32, 64} {
			for _, l := range losses {
				p99 := 12 + float64(n)*(1+10*l)
				pts = append(pts, Point{Mode: mode, Paths: 8, Conns: n, Loss: l, Goodput: 0.97 - 3*l,
					P50US: p99 / 2, P99US: p99, P999US: p99 * 1.1})
			}
		}
	}
	return pts
}

// TestChartLayout: drawn on a canvas of the chart's size, each chart has an opaque white background, the legend
// sits in an opaque box with a border, and every legend and caption line lies inside its box and the canvas,
// measured with the font the SVG outlines (so no viewer can clip it).
func TestChartLayout(t *testing.T) {
	caption := "preset default, seed 1, 200 us measured per point, MTU 4096\n" +
		"8, 16, 32 and 64 connections, messages fixed:65536, port 400 Gb/s, NIC clock 250 MHz"
	one := func(p *plot.Plot, l plot.Legend, err error) ([]*plot.Plot, plot.Legend, error) {
		return []*plot.Plot{p}, l, err
	}
	for _, tc := range []struct {
		name   string
		build  func() ([]*plot.Plot, plot.Legend, error)
		size   vg.Point
		panels int
		// legend is the number of legend lines: series, lossless line and targets.
		legend int
	}{
		{name: "goodput", size: lossChartSize, panels: 1, legend: 7, build: func() ([]*plot.Plot, plot.Legend, error) {
			return one(newPlot(Chart{Title: goodputTitle, MTU: 4096, Points: sweepOf(0, 0.001, 0.01, 0.02, 0.05, 0.1)}))
		}},
		{name: "goodput, four connection counts", size: lossChartSize, panels: 1, legend: 11,
			build: func() ([]*plot.Plot, plot.Legend, error) {
				return one(newPlot(Chart{Title: goodputTitle, MTU: 4096, Points: connsSweep(0, 0.01, 0.1)}))
			}},
		{name: "tail", size: lossChartSize, panels: 1, legend: 8, build: func() ([]*plot.Plot, plot.Legend, error) {
			return one(newTailPlot(Chart{Title: tailTitle, Points: connsSweep(0, 0.01, 0.1)}))
		}},
		{name: "conns", size: connsChartSize, panels: 2, legend: 7, build: func() ([]*plot.Plot, plot.Legend, error) {
			return newConnsPlots(Chart{Title: connsTitle, Points: connsSweep(0, 0.01, 0.1)})
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			plots, legend, err := tc.build()
			require.NoError(t, err)
			require.Len(t, plots, tc.panels, "panels of the chart")
			rec := &recorder.Canvas{}
			drawChart(draw.NewCanvas(rec, tc.size.X, tc.size.Y), plots, legend, caption)
			checkLayout(t, rec, tc.size, caption, tc.legend)
		})
	}
}

// checkLayout checks the drawing rec of a chart of size: an opaque white background, an opaque white legend box
// with a border in the right half holding legend lines, and the caption's lines inside the chart.
func checkLayout(t *testing.T, rec *recorder.Canvas, size vg.Point, caption string, legend int) {
	t.Helper()
	full := vg.Rectangle{Max: size}
	var fills []vg.Rectangle
	var strokes []vg.Rectangle
	var texts []*recorder.FillString
	var white bool
	for _, a := range rec.Actions {
		switch a := a.(type) {
		case *recorder.SetColor:
			white = a.Color == color.White
		case *recorder.Fill:
			if r, ok := rectOf(a.Path); ok && white {
				fills = append(fills, r)
			}
		case *recorder.Stroke:
			if r, ok := rectOf(a.Path); ok {
				strokes = append(strokes, r)
			}
		case *recorder.FillString:
			texts = append(texts, a)
		}
	}
	require.NotEmpty(t, fills)
	require.Equal(t, full, fills[0], "the first thing drawn is an opaque white background over the whole chart")
	var box vg.Rectangle
	for _, f := range fills[1:] {
		for _, s := range strokes {
			if f == s && f.Min.X > size.X/2 {
				box = f
			}
		}
	}
	require.NotZero(t, box, "an opaque white legend box with a border, in the right half")
	inside := func(r, in vg.Rectangle) bool {
		return r.Min.X >= in.Min.X && r.Max.X <= in.Max.X && r.Min.Y >= in.Min.Y && r.Max.Y <= in.Max.Y
	}
	var legendLines, captionLines int
	for _, s := range texts {
		r := textRect(s)
		switch {
		case isLegendLabel(s.String):
			legendLines++
			require.True(t, inside(r, box), "legend label %q %v inside its box %v", s.String, r, box)
		case slices.Contains(strings.Split(caption, "\n"), s.String):
			captionLines++
			require.True(t, inside(r, full), "caption line %q %v inside the chart", s.String, r)
		case strings.HasPrefix(s.String, "spraynic:"):
			require.True(t, r.Min.X >= 0 && r.Max.X <= size.X, "title %q %v within the chart's width", s.String, r)
		}
	}
	require.Equal(t, legend, legendLines, "lines of the legend")
	require.Equal(t, 2, captionLines, "the caption's two lines")
}

// isLegendLabel reports whether s is a label of the legend of a test chart: a series, the lossless line or a
// target.
func isLegendLabel(s string) bool {
	return strings.HasSuffix(s, " paths") || strings.HasSuffix(s, " conns") || strings.HasSuffix(s, "%") ||
		strings.HasPrefix(s, "target ")
}

// rectOf returns the rectangle a path of a move and four lines (or three and a close) outlines, if it is one.
func rectOf(p vg.Path) (vg.Rectangle, bool) {
	var pts []vg.Point
	for _, c := range p {
		switch c.Type {
		case vg.MoveComp, vg.LineComp:
			pts = append(pts, c.Pos)
		case vg.CloseComp:
		default:
			return vg.Rectangle{}, false
		}
	}
	if len(pts) < 4 || len(pts) > 5 {
		return vg.Rectangle{}, false
	}
	r := vg.Rectangle{Min: pts[0], Max: pts[0]}
	for _, q := range pts {
		r.Min.X, r.Min.Y = min(r.Min.X, q.X), min(r.Min.Y, q.Y)
		r.Max.X, r.Max.Y = max(r.Max.X, q.X), max(r.Max.Y, q.Y)
	}
	return r, true
}

// textRect is the box of one drawn line of text: from its baseline's left end, its advance width and the font's
// ascent and descent.
func textRect(s *recorder.FillString) vg.Rectangle {
	face := font.DefaultCache.Lookup(s.Font, s.Size)
	e := face.Extents()
	return vg.Rectangle{Min: vg.Point{X: s.Point.X, Y: s.Point.Y - e.Descent},
		Max: vg.Point{X: s.Point.X + face.Width(s.String), Y: s.Point.Y + e.Ascent}}
}
