package coverage

import (
	"path/filepath"
	"strings"
)

// RewriteSF makes every SF: (source file) line of an lcov tracefile absolute: a relative path is taken relative
// to root, so that genhtml and other lcov tools find the RTL sources from any working directory.
func RewriteSF(info, root string) string {
	lines := strings.SplitAfter(info, "\n")
	for i, l := range lines {
		rest, ok := strings.CutPrefix(l, "SF:")
		if !ok {
			continue
		}
		nl := ""
		if strings.HasSuffix(rest, "\n") {
			rest, nl = strings.TrimSuffix(rest, "\n"), "\n"
		}
		rest = strings.TrimSuffix(rest, "\r")
		if !filepath.IsAbs(rest) {
			rest = filepath.Join(root, rest)
		}
		lines[i] = "SF:" + filepath.Clean(rest) + nl
	}
	return strings.Join(lines, "")
}
