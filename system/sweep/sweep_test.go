package sweep_test

import (
	"bytes"
	"fmt"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/spraynic/spraynic/config"
	"github.com/spraynic/spraynic/system"
	"github.com/spraynic/spraynic/system/sweep"
	"github.com/stretchr/testify/require"
)

// header is the CSV header line WriteCSV writes.
const header = "mode,paths,conns,loss,goodput,p50_us,p99_us,p999_us,retx,spurious\n"

// connsSample is a small two-mode sweep over connection counts at two loss rates.
func connsSample() []sweep.Point {
	var pts []sweep.Point
	for _, mode := range []string{"spray", "gbn"} {
		for _, n := range []int{8, 16, 32, 64} {
			for _, loss := range []float64{0, 0.01} {
				p99 := 12 + float64(n)*(1+10*loss)
				pts = append(pts, sweep.Point{Mode: mode, Paths: 8, Conns: n, Loss: loss, Goodput: 0.97 - loss - float64(n)/200,
					P50US: p99 * 0.9, P99US: p99, P999US: p99 * 1.2, Retx: 10, Spurious: 1})
			}
		}
	}
	return pts
}

// sample is a small two-mode sweep with awkward floats and an out-of-order loss.
func sample() []sweep.Point {
	var pts []sweep.Point
	for _, paths := range []int{1, 8} {
		for _, loss := range []float64{0.1, 0, 0.001, 0.01, 0.05} {
			pts = append(
				pts,
				sweep.Point{Mode: "spray", Paths: paths, Conns: 8, Loss: loss, Goodput: 0.97 - loss*1.5,
					P50US: 10.1 + loss*100, P99US: 12.3 + loss*1000, P999US: 12.7 + loss*3000, Retx: int64(loss * 1e6),
					Spurious: int64(loss * 1e4)},
				sweep.Point{Mode: "gbn", Paths: paths, Conns: 8, Loss: loss, Goodput: math.Max(0, 0.97-loss*9.1),
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
				{Mode: "spray", Paths: 4, Conns: 1 << 20, Loss: 1.0 / 3, Goodput: 0.1 + 0.2, P50US: 1e-10, P99US: 1e-9,
					P999US: 1.0 / 7, Retx: math.MaxInt64, Spurious: math.MaxInt64 - 1},
			},
		},
		{name: "mode needing quotes", pts: []sweep.Point{{Mode: "spray, \"rack\"", Paths: 1, Conns: 1, Loss: 1}}},
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
		{Mode: "spray", Paths: 8, Conns: 64, Loss: 0.01, Goodput: 0.955, P50US: 12.5, P99US: 17.25, P999US: 20,
			Retx: 1234, Spurious: 3},
		{Mode: "gbn", Paths: 1, Conns: 8, Loss: 1e-05, Goodput: 1},
	}
	var buf bytes.Buffer
	require.NoError(t, sweep.WriteCSV(&buf, pts), "WriteCSV of valid points should succeed")
	want := header + "spray,8,64,0.01,0.955,12.5,17.25,20,1234,3\n" + "gbn,1,8,1e-05,1,0,0,0,0,0\n"
	require.Equal(t, want, buf.String(), "CSV should list the points in order with shortest %%g numbers")
}

func TestReadCSVErrors(t *testing.T) {
	const cols = "mode,paths,conns,loss,goodput,p50_us,p99_us,p999_us,retx,spurious"
	tests := []struct {
		name string
		in   string
		want string
	}{
		{
			name: "empty input",
			in:   "",
			want: `sweep csv is empty, want header "` + cols + `"`,
		},
		{
			name: "the header without conns, p50, p99.9 and spurious",
			in:   "mode,paths,loss,goodput,p99_us,retx\nspray,8,0.01,0.95,10,3\n",
			want: `sweep csv line 1: header is "mode,paths,loss,goodput,p99_us,retx", want "` + cols + `"`,
		},
		{
			name: "bad float",
			in:   header + "spray,8,8,0.01,0.95,9,10,11,3,0\ngbn,8,8,0.0x1,0.5,9,10,11,3,0\n",
			want: `sweep csv line 3: column 4 (loss): value "0.0x1" is not a number`,
		},
		{
			name: "bad integer",
			in:   header + "spray,8.5,8,0.01,0.95,9,10,11,3,0\n",
			want: `sweep csv line 2: column 2 (paths): value "8.5" is not an integer`,
		},
		{
			name: "zero conns",
			in:   header + "spray,8,0,0.01,0.95,9,10,11,3,0\n",
			want: `sweep csv line 2: column 3 (conns): value "0" is 0, want at least 1`,
		},
		{
			name: "retx overflow",
			in:   header + "spray,8,8,0.01,0.95,9,10,11,99999999999999999999,0\n",
			want: `sweep csv line 2: column 9 (retx): value "99999999999999999999" is not an integer`,
		},
		{
			name: "goodput out of range",
			in:   header + "spray,8,8,0.01,1.5,9,10,11,3,0\n",
			want: `sweep csv line 2: column 5 (goodput): value "1.5" is 1.5, want 0..1`,
		},
		{
			name: "NaN loss",
			in:   header + "spray,8,8,NaN,0.5,9,10,11,3,0\n",
			want: `sweep csv line 2: column 4 (loss): value "NaN" is NaN, want 0..1`,
		},
		{
			name: "p99 below p50",
			in:   header + "spray,8,8,0.01,0.5,12,10,11,3,0\n",
			want: `sweep csv line 2: column 7 (p99_us): value "10" is 10, want at least p50_us 12`,
		},
		{
			name: "p99.9 below p99",
			in:   header + "spray,8,8,0.01,0.5,9,10,9.5,3,0\n",
			want: `sweep csv line 2: column 8 (p999_us): value "9.5" is 9.5, want at least p99_us 10`,
		},
		{
			name: "more spurious than retransmissions",
			in:   header + "spray,8,8,0.01,0.5,9,10,11,3,4\n",
			want: `sweep csv line 2: column 10 (spurious): value "4" is 4, want 0..retx 3`,
		},
		{
			name: "empty mode",
			in:   header + ",8,8,0.01,0.5,9,10,11,3,0\n",
			want: `sweep csv line 2: column 1 (mode): value "" is empty`,
		},
		{
			name: "too few columns",
			in:   header + "spray,8,8,0.01,0.95,9,10,11,3,0\n\nspray,8,0.01,0.95,10,3\n",
			want: `sweep csv line 4: 6 columns, want 10 (` + cols + `)`,
		},
		{
			name: "too many columns",
			in:   header + "spray,8,8,0.01,0.95,9,10,11,3,0,7\n",
			want: `sweep csv line 2: 11 columns, want 10 (` + cols + `)`,
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
		name string
		file string
		// write draws the chart (nil: WriteChart); size is the PNG's size in pixels (zero: 16 x 10 cm).
		write func(string, sweep.Chart) error
		size  [2]int
		chart sweep.Chart
	}{
		{name: "png", file: "sweep.png", chart: sweep.Chart{Title: "goodput vs loss", Caption: caption, Points: sample()}},
		{name: "upper-case png", file: "SWEEP.PNG", chart: sweep.Chart{Points: sample()}},
		{
			name:  "single point at zero loss",
			file:  "one.png",
			chart: sweep.Chart{Title: "one", Points: []sweep.Point{{Mode: "spray", Paths: 1, Conns: 1, Goodput: 0.99}}},
		},
		{name: "svg", file: "sweep.svg", chart: sweep.Chart{Title: "goodput vs loss", Caption: caption, Points: sample()}},
		{name: "svg, one point", file: "one.svg", chart: sweep.Chart{Points: []sweep.Point{{Mode: "gbn", Paths: 2,
			Conns: 8}}}},
		{name: "svg with the lossless line", file: "mtu.svg", chart: sweep.Chart{Caption: caption, MTU: 4096,
			Points: sample()}},
		{name: "tail png", file: "tail.png", write: sweep.WriteTailChart, chart: sweep.Chart{Title: "p99",
			Caption: caption, Points: sample()}},
		{name: "tail svg", file: "tail.svg", write: sweep.WriteTailChart, chart: sweep.Chart{Points: sample()}},
		{name: "tail svg, no completed message", file: "tail0.svg", write: sweep.WriteTailChart,
			chart: sweep.Chart{Caption: caption, Points: []sweep.Point{{Mode: "gbn", Paths: 2, Conns: 8}}}},
		{name: "conns svg", file: "conns.svg", write: sweep.WriteConnsChart, size: [2]int{945, 827},
			chart: sweep.Chart{Title: "conns", Caption: caption, Points: connsSample()}},
		{name: "conns png", file: "conns.png", write: sweep.WriteConnsChart, size: [2]int{945, 827},
			chart: sweep.Chart{Title: "conns", Caption: caption, Points: connsSample()}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), tc.file)
			write, size := sweep.WriteChart, [2]int{945, 591}
			if tc.write != nil {
				write = tc.write
			}
			if tc.size != [2]int{} {
				size = tc.size
			}
			require.NoError(t, write(path, tc.chart), "writing a chart of valid points should succeed")
			data, err := os.ReadFile(path)
			require.NoError(t, err, "WriteChart should have created the file")
			if strings.HasSuffix(strings.ToLower(tc.file), ".svg") {
				checkPortableSVG(t, string(data), size)
				return
			}
			img, err := png.Decode(bytes.NewReader(data))
			require.NoError(t, err, "PNG output should decode")
			b := img.Bounds()
			require.Equal(t, size, [2]int{b.Dx(), b.Dy()}, "PNG of the chart's size at 150 dpi")
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
func checkPortableSVG(t *testing.T, s string, px [2]int) {
	t.Helper()
	require.True(t, strings.HasPrefix(s, "<?xml") && strings.Contains(s, "<svg"),
		"SVG output should be XML with an <svg> element, starts %q", s[:min(len(s), 40)])
	for _, ref := range []string{"<text", "font-family", "@font-face", "url("} {
		require.NotContains(t, s, ref, "the SVG should depend on no font (its text is drawn as outlines)")
	}
	fills := svgFill.FindAllStringSubmatch(s, -1)
	require.NotEmpty(t, fills, "SVG should fill paths")
	// The canvas in points: 16 cm wide, 10 cm (591 pixels at 150 dpi) or 14 cm high.
	h := map[int]string{591: "283.46", 827: "396.85"}[px[1]]
	require.Equal(t, []string{fmt.Sprintf("M0,0L453.54,0L453.54,%sL0,%sZ", h, h), "#FFFFFF"}, fills[0][1:],
		"the first fill should be opaque white over the whole canvas")
	box := ""
	for _, f := range fills[1:] {
		if f[2] == "#FFFFFF" && strings.Contains(s, `<path d="`+f[1]+`" style="fill:none;stroke:#A0A0A0`) {
			box = f[1]
		}
	}
	require.NotEmpty(t, box, "the legend should sit in an opaque white box with a grey border")
	require.Greater(t, len(svgOutline.FindAllString(s, -1)), 5, "text drawn as filled glyph outlines")
}

func TestWriteChartErrors(t *testing.T) {
	valid := sweep.Point{Mode: "spray", Paths: 8, Conns: 8, Loss: 0.01, Goodput: 0.95, P50US: 1, P99US: 2, P999US: 3}
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
			name: "infinite p99.9",
			file: "sweep.svg",
			pts:  with(func(p *sweep.Point) { p.P999US = math.Inf(1) }),
			want: "chart: point 2 (spray, 8 paths): p999_us is +Inf, want a finite value >= 0",
		},
		{
			name: "zero conns",
			file: "sweep.png",
			pts:  with(func(p *sweep.Point) { p.Conns = 0 }),
			want: "chart: point 2 (spray, 8 paths): conns is 0, want at least 1",
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
			pts:  []sweep.Point{{Mode: "gbn", Paths: 1, Conns: 1, Goodput: 1.2}},
			want: "point 0 (gbn, 1 path): goodput is 1.2, want 0..1",
		},
		{
			name: "NaN loss",
			pts: []sweep.Point{{Mode: "gbn", Paths: 1, Conns: 1, Goodput: 0.5},
				{Mode: "gbn", Paths: 1, Conns: 1, Loss: math.NaN()}},
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
	conns := []*system.Result{&base, &base, &base}
	for i, n := range []int{64, 8, 16} {
		r := base
		r.Conns = n
		conns[i] = &r
	}
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
		{name: "connection counts", results: conns, want: "preset default, seed 1, 200 us measured per point, " +
			"MTU 4096\n8, 16 and 64 connections, messages fixed:65536, port 400 Gb/s, NIC clock 250 MHz"},
		{name: "no results", want: ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			require.Equal(t, tc.want, sweep.Caption(tc.results), "the caption names the conditions of the first run")
		})
	}
}

func TestWriteTable(t *testing.T) {
	rs := []*system.Result{
		{Mode: "spray", Paths: 8, Conns: 16, Loss: 0.01, MTU: 4096, Goodput: 0.955, MCTP50US: 12.34, MCTP99US: 20.06,
			MCTP999US: 30.2, Retransmissions: 32, Spurious: 4},
		{Mode: "gbn", Paths: 8, Conns: 64, MTU: 4096, Goodput: 0.5, MCTP50US: 159.6, MCTP99US: 165.4,
			MCTP999US: 165.5, Retransmissions: 4878, Spurious: 4844},
	}
	var buf bytes.Buffer
	require.NoError(t, sweep.WriteTable(&buf, rs), "WriteTable should succeed")
	want := "" +
		"   mode  paths  conns  loss%  goodput%  lossless%  p50_us  p99_us  p99.9_us  retx  spurious\n" +
		"  spray      8     16   1.00     95.50      96.69    12.3    20.1      30.2    32         4\n" +
		"    gbn      8     64   0.00     50.00      97.66   159.6   165.4     165.5  4878      4844\n"
	require.Equal(t, want, buf.String(), "one right-aligned row per run; lossless%% is (1 - loss) x 4096/4194")
}

func TestGridRuns(t *testing.T) {
	cfg, err := config.Resolve("default")
	require.NoError(t, err, "the default preset")
	base := system.Options{Config: cfg, Seed: 1}.Defaults()
	tests := []struct {
		name  string
		conns []int
		want  []string // mode/paths/conns/loss of each run
	}{
		{name: "the base run's connections", want: []string{"spray/4/8/0", "spray/4/8/0.01"}},
		{name: "two counts", conns: []int{16, 2},
			want: []string{"spray/4/16/0", "spray/4/16/0.01", "spray/4/2/0", "spray/4/2/0.01"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g := sweep.Grid{Modes: []system.Mode{system.ModeSpray}, Paths: []int{4}, Conns: tc.conns,
				Losses: []float64{0, 0.01}}
			runs, err := g.Runs(base)
			require.NoError(t, err, "Runs of a valid grid")
			var got []string
			for _, o := range runs {
				got = append(got, fmt.Sprintf("%s/%d/%d/%g", o.Mode, o.NetPaths, o.Conns, o.Loss))
			}
			require.Equal(t, tc.want, got, "modes outermost, then paths, connections, losses")
		})
	}
	_, err = sweep.Grid{Modes: []system.Mode{system.ModeSpray}, Paths: []int{4}, Conns: []int{17},
		Losses: []float64{0}}.Runs(base)
	require.ErrorContains(t, err, "sweep point mode spray, 4 paths, 17 connections, loss 0: option conns",
		"a count above the config's conns is refused")
}
