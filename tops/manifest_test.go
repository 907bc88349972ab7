package tops_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/spraynic/spraynic/tops"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestModuleFile: a module with its file under rtl/, in the manifest or not, and nothing that names a path.
func TestModuleFile(t *testing.T) {
	root, err := tops.Root()
	require.NoError(t, err)
	for name, want := range map[string]bool{"nic_roce": true, "retx": true, "ram_sdp": true, "nosuch": false,
		"../rtl/retx": false, "rtl/retx": false, "": false, "manifest": false} {
		assert.Equal(t, want, tops.ModuleFile(root, name), name)
	}
}

// TestLoadManifestRefuses: a misspelt key of rtl/manifest.json, or text after its object, is an error naming
// it, not a default.
func TestLoadManifestRefuses(t *testing.T) {
	for body, want := range map[string]string{
		`{"tops": [{"name": "nic_roce", "synth_when_name": true, "files": ["nic_roce.v"]}]}`: `rtl/manifest.json: ` +
			`json: unknown field "synth_when_name"`,
		`{"tops": [{"name": "retx", "files": ["retx.v"]}]} {"tops": []}`: `rtl/manifest.json: more than one JSON ` +
			`object (allowed: one, {"tops": [...]})`,
	} {
		root := t.TempDir()
		require.NoError(t, os.MkdirAll(filepath.Join(root, "rtl"), 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(root, "rtl", "manifest.json"), []byte(body), 0o644))
		_, err := tops.LoadManifest(root)
		require.EqualError(t, err, want, body)
	}
	_, err := tops.LoadManifest(filepath.Join("..")) // the repository's own manifest loads
	require.NoError(t, err)
}
