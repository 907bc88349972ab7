package tops_test

import (
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
