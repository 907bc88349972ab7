package fpga

import (
	"path/filepath"
)

// sourceDirs returns the directories of files, once each in first-use order.
func sourceDirs(files []string) []string {
	var out []string
	seen := map[string]bool{}
	for _, f := range files {
		if d := filepath.Dir(f); !seen[d] {
			seen[d] = true
			out = append(out, d)
		}
	}
	return out
}
