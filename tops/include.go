package tops

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
)

// includeLine matches a Verilog `include of a quoted file name.
var includeLine = regexp.MustCompile("(?m)^[ \t]*`include[ \t]+\"([^\"]+)\"")

// Includes returns the files the sources `include, each resolved against the directory of the source that
// names it, once each in first-use order. A named file that does not exist there is an error.
func Includes(sources []string) ([]string, error) {
	var out []string
	seen := map[string]bool{}
	for _, src := range sources {
		data, err := os.ReadFile(src)
		if err != nil {
			return nil, err
		}
		for _, m := range includeLine.FindAllStringSubmatch(string(data), -1) {
			f := filepath.Join(filepath.Dir(src), m[1])
			if _, err := os.Stat(f); err != nil {
				return nil, fmt.Errorf("%s includes %q, which is not beside it: %w", src, m[1], err)
			}
			if !seen[f] {
				seen[f] = true
				out = append(out, f)
			}
		}
	}
	return out, nil
}
