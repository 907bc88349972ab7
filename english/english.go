package english

import (
	"fmt"
	"strings"
)

// Plural is n and the noun, with the plural ending unless n is 1: "1 job", "2 jobs", "3 entries".
func Plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	if strings.HasSuffix(noun, "y") && !strings.HasSuffix(noun, "ay") && !strings.HasSuffix(noun, "ey") {
		noun = strings.TrimSuffix(noun, "y") + "ie"
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
