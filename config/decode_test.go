package config_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/spraynic/spraynic/config"
)

// TestDecodeMessages: a malformed file is named with the key, the value, what is wrong, where, and what is
// allowed, in the file's words rather than Go's.
func TestDecodeMessages(t *testing.T) {
	preset, err := config.Preset("default")
	require.NoError(t, err)
	good := strings.TrimSpace(preset.JSON()) // one key per line: "window" is on line 3
	after := strings.Count(good, "\n") + 2   // the line after the closing brace
	tests := []struct {
		name, body, want string
	}{
		{name: "string value", body: replace(good, `"window": 64`, `"window": "64"`),
			want: `line 3: key "window": value "64" is a string (allowed: an integer, power of two, 8..1024)`},
		{name: "fraction", body: replace(good, `"window": 64`, `"window": 64.5`),
			want: `line 3: key "window": value 64.5 is not an integer (allowed: an integer, power of two, 8..1024)`},
		{name: "null", body: replace(good, `"conns": 16`, `"conns": null`),
			want: `line 2: key "conns": value null is not an integer (allowed: an integer, power of two, 2..1024)`},
		{name: "boolean", body: replace(good, `"gbn": 0`, `"gbn": false`),
			want: `line 20: key "gbn": value false is a boolean (allowed: an integer, 0..1)`},
		{name: "array", body: replace(good, `"paths": 8`, `"paths": [8]`),
			want: `line 4: key "paths": value [8] is an array (allowed: an integer, power of two, 2..64)`},
		{name: "duplicate key", body: replace(good, `"gbn": 0`, "\"gbn\": 0,\n  \"window\": 32"),
			want: `key "window": given twice, at line 3 column 11 and at line 21 column 11 (allowed: once)`},
		{name: "unknown key", body: replace(good, `"gbn": 0`, "\"gbn\": 0,\n  \"windw\": 3"),
			want: `line 21: unknown field "windw" (allowed keys: conns, window, paths,`},
		{name: "syntax", body: replace(good, `"window": 64,`, `"window": 64`),
			want: `not a JSON object: invalid character '"' after object key:value pair (line 4, column 3)`},
		{name: "array at the top", body: "[" + good + "]", want: `not a JSON object: it starts with [`},
		{name: "two objects", body: good + "\n{}",
			want: fmt.Sprintf("not a JSON object: more after its closing brace, on line %d (allowed: one object)", after)},
		{name: "empty", body: "", want: `not a JSON object: empty`},
	}
	dir := t.TempDir()
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := filepath.Join(dir, "c.json")
			require.NoError(t, os.WriteFile(p, []byte(tc.body), 0o644))
			_, err := config.Load(p)
			require.ErrorContains(t, err, "config "+p+": "+tc.want)
		})
	}
}
