package sweep

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// columns is the CSV header, in column order (docs/e2e.md, "Sweep"): the point's axes (mode, paths, conns, loss),
// then its figures.
var columns = []string{"mode", "paths", "conns", "loss", "goodput", "p50_us", "p99_us", "p999_us", "retx", "spurious"}

// WriteCSV writes a header and one row per point, in the given order. Floats use the shortest form that parses back
// to the same value, so ReadCSV returns exactly pts. An invalid point is an error naming its index and field, and
// then nothing is written.
func WriteCSV(w io.Writer, pts []Point) error {
	if err := validate(pts); err != nil {
		return err
	}
	cw := csv.NewWriter(w)
	if err := cw.Write(columns); err != nil {
		return fmt.Errorf("write sweep csv: %w", err)
	}
	for _, p := range pts {
		row := []string{
			p.Mode,
			strconv.Itoa(p.Paths),
			strconv.Itoa(p.Conns),
			formatFloat(p.Loss),
			formatFloat(p.Goodput),
			formatFloat(p.P50US),
			formatFloat(p.P99US),
			formatFloat(p.P999US),
			strconv.FormatInt(p.Retx, 10),
			strconv.FormatInt(p.Spurious, 10),
		}
		if err := cw.Write(row); err != nil {
			return fmt.Errorf("write sweep csv: %w", err)
		}
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return fmt.Errorf("write sweep csv: %w", err)
	}
	return nil
}

// formatFloat is %g with the fewest digits that round-trip.
func formatFloat(v float64) string {
	return strconv.FormatFloat(v, 'g', -1, 64)
}

// ReadCSV parses what WriteCSV writes. Errors name the line, the column (number and name) and the bad value.
// A header with no rows gives an empty slice.
func ReadCSV(r io.Reader) ([]Point, error) {
	cr := csv.NewReader(r)
	// Column counts are checked here, for a message that names the line and both counts.
	cr.FieldsPerRecord = -1
	head, err := cr.Read()
	if errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("sweep csv is empty, want header %q", strings.Join(columns, ","))
	}
	if err != nil {
		return nil, fmt.Errorf("sweep csv: %w", err)
	}
	if strings.Join(head, ",") != strings.Join(columns, ",") {
		return nil, fmt.Errorf("sweep csv line 1: header is %q, want %q", strings.Join(head, ","),
			strings.Join(columns, ","))
	}
	pts := []Point{}
	for {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			return pts, nil
		}
		if err != nil {
			return nil, fmt.Errorf("sweep csv: %w", err)
		}
		line, _ := cr.FieldPos(0)
		if len(rec) != len(columns) {
			return nil, fmt.Errorf("sweep csv line %d: %d columns, want %d (%s)", line, len(rec), len(columns),
				strings.Join(columns, ","))
		}
		p, err := parseRow(rec)
		if err != nil {
			return nil, fmt.Errorf("sweep csv line %d: %w", line, err)
		}
		pts = append(pts, p)
	}
}

// parseRow turns one data record of len(columns) fields into a checked point.
func parseRow(rec []string) (Point, error) {
	p := Point{Mode: rec[0]}
	var err error
	for i, v := range []*int{&p.Paths, &p.Conns} {
		n, err := parseInt(rec, 1+i, strconv.IntSize)
		if err != nil {
			return Point{}, err
		}
		*v = int(n)
	}
	for i, v := range []*float64{&p.Loss, &p.Goodput, &p.P50US, &p.P99US, &p.P999US} {
		if *v, err = parseFloat(rec, 3+i); err != nil {
			return Point{}, err
		}
	}
	for i, v := range []*int64{&p.Retx, &p.Spurious} {
		if *v, err = parseInt(rec, 8+i, 64); err != nil {
			return Point{}, err
		}
	}
	if fe := p.check(); fe != nil {
		col := 0
		for i, c := range columns {
			if c == fe.field {
				col = i
			}
		}
		return Point{}, fmt.Errorf("column %d (%s): value %q %s", col+1, fe.field, rec[col], fe.msg)
	}
	return p, nil
}

// parseInt parses column i of rec as a decimal integer that fits in bits bits.
func parseInt(rec []string, i, bits int) (int64, error) {
	v, err := strconv.ParseInt(rec[i], 10, bits)
	if err != nil {
		return 0, fmt.Errorf("column %d (%s): value %q is not an integer", i+1, columns[i], rec[i])
	}
	return v, nil
}

// parseFloat parses column i of rec as a number.
func parseFloat(rec []string, i int) (float64, error) {
	v, err := strconv.ParseFloat(rec[i], 64)
	if err != nil {
		return 0, fmt.Errorf("column %d (%s): value %q is not a number", i+1, columns[i], rec[i])
	}
	return v, nil
}
