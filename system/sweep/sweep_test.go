package sweep_test

import (
	"bytes"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/spraynic/spraynic/system"
	"github.com/spraynic/spraynic/system/sweep"
	"github.com/stretchr/testify/require"
)

// header is the CSV header line WriteCSV writes.
const header = "mode,paths,loss,goodput,p99_us,retx\n"

// sample is a small two-mode sweep with awkward floats and an out-of-order loss.
func sample() []sweep.Point {
	var pts []sweep.Point
	for _, paths := range []int{1, 8} {
		for _, loss := range []float64{0.1, 0, 0.001, 0.01, 0.05} {
			pts = append(
				pts,
				sweep.Point{Mode: "spray", Paths: paths, Loss: loss, Goodput: 0.97 - loss*1.5, P99US: 12.3 + loss*1000,
					Retx: int64(loss * 1e6)},
				sweep.Point{Mode: "gbn", Paths: paths, Loss: loss, Goodput: math.Max(0, 0.97-loss*9.1), P99US: 0,
					Retx: int64(loss * 3e6)},
			)
		}
	}
	return pts
}

func TestCSVRoundTrip(t *testing.T) {
	tests := []struct {
		name string
		pts  []sweep.Point
	}{
		{name: "sweep", pts: sample()},
		{
			name: "one point",
			pts: []sweep.Point{
				{Mode: "spray", Paths: 4, Loss: 1.0 / 3, Goodput: 0.1 + 0.2, P99US: 1e-9, Retx: math.MaxInt64},
			},
		},
		{name: "mode needing quotes", pts: []sweep.Point{{Mode: "spray, \"rack\"", Paths: 1, Loss: 1, Goodput: 0}}},
		{name: "header only", pts: []sweep.Point{}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var buf bytes.Buffer
			require.NoError(t, sweep.WriteCSV(&buf, tc.pts), "WriteCSV of valid points should succeed")
			require.True(t, strings.HasPrefix(buf.String(), header), "CSV %q should start with header %q", buf.String(),
				header)
			require.Equal(t, len(tc.pts)+1, strings.Count(buf.String(), "\n"),
				"CSV should have a header and one line per point")
			got, err := sweep.ReadCSV(&buf)
			require.NoError(t, err, "ReadCSV of WriteCSV output should succeed")
			require.Equal(t, tc.pts, got, "points read back should equal the points written")
		})
	}
}

func TestWriteCSVFormat(t *testing.T) {
	pts := []sweep.Point{
		{Mode: "spray", Paths: 8, Loss: 0.01, Goodput: 0.955, P99US: 17.25, Retx: 1234},
		{Mode: "gbn", Paths: 1, Loss: 1e-05, Goodput: 1, P99US: 0, Retx: 0},
	}
	var buf bytes.Buffer
	require.NoError(t, sweep.WriteCSV(&buf, pts), "WriteCSV of valid points should succeed")
	want := header + "spray,8,0.01,0.955,17.25,1234\n" + "gbn,1,1e-05,1,0,0\n"
	require.Equal(t, want, buf.String(), "CSV should list the points in order with shortest %%g numbers")
}

func TestReadCSVErrors(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want string
	}{
		{
			name: "empty input",
			in:   "",
			want: `sweep csv is empty, want header "mode,paths,loss,goodput,p99_us,retx"`,
		},
		{
			name: "bad header",
			in:   "mode,paths,loss,goodput,p99,retx\nspray,8,0.01,0.95,10,3\n",
			want: `sweep csv line 1: header is "mode,paths,loss,goodput,p99,retx", ` +
				`want "mode,paths,loss,goodput,p99_us,retx"`,
		},
		{
			name: "bad float",
			in:   header + "spray,8,0.01,0.95,10,3\ngbn,8,0.0x1,0.5,10,3\n",
			want: `sweep csv line 3: column 3 (loss): value "0.0x1" is not a number`,
		},
		{
			name: "bad integer",
			in:   header + "spray,8.5,0.01,0.95,10,3\n",
			want: `sweep csv line 2: column 2 (paths): value "8.5" is not an integer`,
		},
		{
			name: "retx overflow",
			in:   header + "spray,8,0.01,0.95,10,99999999999999999999\n",
			want: `sweep csv line 2: column 6 (retx): value "99999999999999999999" is not an integer`,
		},
		{
			name: "goodput out of range",
			in:   header + "spray,8,0.01,1.5,10,3\n",
			want: `sweep csv line 2: column 4 (goodput): value "1.5" is 1.5, want 0..1`,
		},
		{
			name: "NaN loss",
			in:   header + "spray,8,NaN,0.5,10,3\n",
			want: `sweep csv line 2: column 3 (loss): value "NaN" is NaN, want 0..1`,
		},
		{
			name: "empty mode",
			in:   header + ",8,0.01,0.5,10,3\n",
			want: `sweep csv line 2: column 1 (mode): value "" is empty`,
		},
		{
			name: "too few columns",
			in:   header + "spray,8,0.01,0.95,10,3\n\nspray,8,0.01,0.95,10\n",
			want: `sweep csv line 4: 5 columns, want 6 (mode,paths,loss,goodput,p99_us,retx)`,
		},
		{
			name: "too many columns",
			in:   header + "spray,8,0.01,0.95,10,3,7\n",
			want: `sweep csv line 2: 7 columns, want 6 (mode,paths,loss,goodput,p99_us,retx)`,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := sweep.ReadCSV(strings.NewReader(tc.in))
			require.EqualError(t, err, tc.want, "ReadCSV should reject the input naming line, column and value")
			require.Nil(t, got, "ReadCSV should return no points with an error")
		})
	}
}

func TestWriteChart(t *testing.T) {
	caption := "preset default, seed 1\n8 connections"
	tests := []struct {
		name  string
		file  string
		chart sweep.Chart
	}{
		{name: "png", file: "sweep.png", chart: sweep.Chart{Title: "goodput vs loss", Caption: caption, Points: sample()}},
		{name: "upper-case png", file: "SWEEP.PNG", chart: sweep.Chart{Points: sample()}},
		{
			name:  "single point at zero loss",
			file:  "one.png",
			chart: sweep.Chart{Title: "one", Points: []sweep.Point{{Mode: "spray", Paths: 1, Goodput: 0.99}}},
		},
		{name: "svg", file: "sweep.svg", chart: sweep.Chart{Title: "goodput vs loss", Caption: caption, Points: sample()}},
		{name: "svg, one point", file: "one.svg", chart: sweep.Chart{Points: []sweep.Point{{Mode: "gbn", Paths: 2}}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), tc.file)
			require.NoError(t, sweep.WriteChart(path, tc.chart), "WriteChart of valid points should succeed")
			data, err := os.ReadFile(path)
			require.NoError(t, err, "WriteChart should have created the file")
			if strings.HasSuffix(strings.ToLower(tc.file), ".svg") {
				checkPortableSVG(t, string(data))
				return
			}
			img, err := png.Decode(bytes.NewReader(data))
			require.NoError(t, err, "PNG output should decode")
			b := img.Bounds()
			require.Equal(t, [2]int{945, 591}, [2]int{b.Dx(), b.Dy()}, "PNG of 16 x 10 cm at 150 dpi")
			for _, at := range [][2]int{{0, 0}, {b.Dx() - 1, 0}, {0, b.Dy() - 1}, {b.Dx() - 1, b.Dy() - 1}} {
				r, g, bl, a := img.At(at[0], at[1]).RGBA()
				require.Equal(t, [4]uint32{0xffff, 0xffff, 0xffff, 0xffff}, [4]uint32{r, g, bl, a},
					"PNG corner %v should be opaque white", at)
			}
		})
	}
}

// svgFill matches an SVG path filled with one colour, as gonum's SVG canvas writes it: its outline and colour.
var svgFill = regexp.MustCompile(`<path d="([^"]*)" style="fill:(#[0-9A-F]{6})" />`)

// svgOutline matches a filled path with quadratic curves: text as glyph outlines (TrueType's are quadratic).
var svgOutline = regexp.MustCompile(`<path d="M[^"]*Q[^"]*Z"[^>]*/>`)

// checkPortableSVG requires an SVG that reads the same in any viewer and on any background: no text elements or
// font references (the text is drawn as outlines), a first fill of opaque white over the whole canvas, and an
// opaque white legend box with a border.
func checkPortableSVG(t *testing.T, s string) {
	t.Helper()
	require.True(t, strings.HasPrefix(s, "<?xml") && strings.Contains(s, "<svg"),
		"SVG output should be XML with an <svg> element, starts %q", s[:min(len(s), 40)])
	for _, ref := range []string{"<text", "font-family", "@font-face", "url("} {
		require.NotContains(t, s, ref, "the SVG should depend on no font (its text is drawn as outlines)")
	}
	fills := svgFill.FindAllStringSubmatch(s, -1)
	require.NotEmpty(t, fills, "SVG should fill paths")
	require.Equal(t, []string{"M0,0L453.54,0L453.54,283.46L0,283.46Z", "#FFFFFF"}, fills[0][1:],
		"the first fill should be opaque white over the whole 16 x 10 cm canvas")
	box := ""
	for _, f := range fills[1:] {
		if f[2] == "#FFFFFF" && strings.Contains(s, `<path d="`+f[1]+`" style="fill:none;stroke:#A0A0A0`) {
			box = f[1]
		}
	}
	require.NotEmpty(t, box, "the legend should sit in an opaque white box with a grey border")
	require.Greater(t, len(svgOutline.FindAllString(s, -1)), 10, "text drawn as filled glyph outlines")
}

func TestWriteChartErrors(t *testing.T) {
	valid := sweep.Point{Mode: "spray", Paths: 8, Loss: 0.01, Goodput: 0.95}
	with := func(f func(p *sweep.Point)) []sweep.Point {
		bad := valid
		f(&bad)
		return []sweep.Point{valid, valid, bad}
	}
	tests := []struct {
		name string
		file string
		pts  []sweep.Point
		want string
	}{
		{
			name: "pdf extension",
			file: "sweep.pdf",
			pts:  []sweep.Point{valid},
			want: `chart "DIR/sweep.pdf": unknown extension, want .png or .svg`,
		},
		{
			name: "no extension",
			file: "sweep",
			pts:  []sweep.Point{valid},
			want: `chart "DIR/sweep": unknown extension, want .png or .svg`,
		},
		{name: "no points", file: "sweep.png", pts: nil, want: "chart: no points"},
		{
			name: "NaN goodput",
			file: "sweep.png",
			pts:  with(func(p *sweep.Point) { p.Goodput = math.NaN() }),
			want: "chart: point 2 (spray, 8 paths): goodput is NaN, want 0..1",
		},
		{
			name: "goodput above 1",
			file: "sweep.png",
			pts:  with(func(p *sweep.Point) { p.Goodput = 1.01 }),
			want: "chart: point 2 (spray, 8 paths): goodput is 1.01, want 0..1",
		},
		{
			name: "negative goodput",
			file: "sweep.svg",
			pts:  with(func(p *sweep.Point) { p.Goodput = -0.1 }),
			want: "chart: point 2 (spray, 8 paths): goodput is -0.1, want 0..1",
		},
		{
			name: "NaN loss",
			file: "sweep.png",
			pts:  with(func(p *sweep.Point) { p.Loss = math.NaN() }),
			want: "chart: point 2 (spray, 8 paths): loss is NaN, want 0..1",
		},
		{
			name: "negative loss",
			file: "sweep.png",
			pts:  with(func(p *sweep.Point) { p.Loss = -0.01 }),
			want: "chart: point 2 (spray, 8 paths): loss is -0.01, want 0..1",
		},
		{
			name: "loss above 1",
			file: "sweep.png",
			pts:  with(func(p *sweep.Point) { p.Loss = 2 }),
			want: "chart: point 2 (spray, 8 paths): loss is 2, want 0..1",
		},
		{
			name: "empty mode",
			file: "sweep.png",
			pts:  with(func(p *sweep.Point) { p.Mode = "" }),
			want: "chart: point 2 (, 8 paths): mode is empty",
		},
		{
			name: "zero paths",
			file: "sweep.png",
			pts:  with(func(p *sweep.Point) { p.Paths = 0 }),
			want: "chart: point 2 (spray, 0 paths): paths is 0, want at least 1",
		},
		{
			name: "negative p99",
			file: "sweep.png",
			pts:  with(func(p *sweep.Point) { p.P99US = -1 }),
			want: "chart: point 2 (spray, 8 paths): p99_us is -1, want a finite value >= 0",
		},
		{
			name: "negative retx",
			file: "sweep.png",
			pts:  with(func(p *sweep.Point) { p.Retx = -3 }),
			want: "chart: point 2 (spray, 8 paths): retx is -3, want at least 0",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, tc.file)
			err := sweep.WriteChart(path, sweep.Chart{Title: "bad", Points: tc.pts})
			require.EqualError(t, err, strings.ReplaceAll(tc.want, "DIR", dir), "WriteChart should reject the input")
			_, statErr := os.Stat(path)
			require.True(t, os.IsNotExist(statErr), "WriteChart should create no file on error, stat says %v", statErr)
		})
	}
}

func TestWriteCSVRejectsInvalidPoint(t *testing.T) {
	tests := []struct {
		name string
		pts  []sweep.Point
		want string
	}{
		{
			name: "goodput above 1",
			pts:  []sweep.Point{{Mode: "gbn", Paths: 1, Goodput: 1.2}},
			want: "point 0 (gbn, 1 path): goodput is 1.2, want 0..1",
		},
		{
			name: "NaN loss",
			pts:  []sweep.Point{{Mode: "gbn", Paths: 1, Goodput: 0.5}, {Mode: "gbn", Paths: 1, Loss: math.NaN()}},
			want: "point 1 (gbn, 1 path): loss is NaN, want 0..1",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var buf bytes.Buffer
			require.EqualError(t, sweep.WriteCSV(&buf, tc.pts), tc.want, "WriteCSV should reject the invalid point")
			require.Empty(t, buf.String(), "WriteCSV should write nothing when a point is invalid")
		})
	}
}

func TestCaption(t *testing.T) {
	base := system.Result{Mode: "spray", Config: "default", Paths: 8, Conns: 8, Loss: 0.01, Seed: 1,
		Msg: "fixed:65536", MTU: 4096, PortGbps: 400, ClockMHz: 250, DurationUS: 200}
	withAck := base
	withAck.AckLoss, withAck.Bidir = 0.005, true
	tests := []struct {
		name    string
		results []*system.Result
		want    string
	}{
		{name: "a sweep", results: []*system.Result{&base, &withAck}, want: "preset default, seed 1, 200 us measured " +
			"per point, MTU 4096\n8 connections, messages fixed:65536, port 400 Gb/s, NIC clock 250 MHz"},
		{name: "ACK loss, both directions", results: []*system.Result{&withAck}, want: "preset default, seed 1, 200 us " +
			"measured per point, MTU 4096\n8 connections, messages fixed:65536, port 400 Gb/s, NIC clock 250 MHz, " +
			"ACK loss 0.5%, both directions"},
		{name: "no results", want: ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			require.Equal(t, tc.want, sweep.Caption(tc.results), "the caption names the conditions of the first run")
		})
	}
}
