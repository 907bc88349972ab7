package spraynic_test

import (
	"bufio"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

// lineLimits is the house limit on line length by file extension (a tab counts as one character, as gofmt
// leaves it): Go at most 120, Verilog at most 100.
var lineLimits = map[string]int{".go": 120, ".v": 100, ".vh": 100}

// TestLineLengths fails on every source line longer than its limit, naming the file, line and length; build
// outputs are not sources and are skipped.
func TestLineLengths(t *testing.T) {
	checked := 0
	err := filepath.WalkDir(".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if p == "build" || strings.HasPrefix(d.Name(), ".") && p != "." {
				return filepath.SkipDir
			}
			return nil
		}
		limit, ok := lineLimits[filepath.Ext(p)]
		if !ok {
			return nil
		}
		checked++
		return checkLines(t, p, limit)
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked < 100 {
		t.Fatalf("only %d Go and Verilog files found: is the test running at the module root?", checked)
	}
}

// checkLines reports each line of file p longer than limit characters.
func checkLines(t *testing.T, p string, limit int) error {
	f, err := os.Open(p)
	if err != nil {
		return err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for n := 1; sc.Scan(); n++ {
		if l := utf8.RuneCount(sc.Bytes()); l > limit {
			t.Errorf("%s:%d: %d characters: allowed at most %d", p, n, l, limit)
		}
	}
	return sc.Err()
}
