package english_test

import (
	"testing"

	"github.com/spraynic/spraynic/english"
	"github.com/stretchr/testify/require"
)

func TestPlural(t *testing.T) {
	for _, tc := range []struct {
		name, noun, want string
		n                int
	}{
		{name: "one", n: 1, noun: "job", want: "1 job"},
		{name: "none", n: 0, noun: "frame", want: "0 frames"},
		{name: "many", n: 24, noun: "run", want: "24 runs"},
		{name: "y", n: 3, noun: "entry", want: "3 entries"},
		{name: "vowel y", n: 2, noun: "delay", want: "2 delays"},
	} {
		t.Run(tc.name, func(t *testing.T) { require.Equal(t, tc.want, english.Plural(tc.n, tc.noun)) })
	}
}
