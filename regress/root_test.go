package regress_test

import (
	"testing"

	"github.com/spraynic/spraynic/tops"
	"github.com/stretchr/testify/require"
)

// root is the repository the tests run in.
func root(t *testing.T) string {
	r, err := tops.Root()
	require.NoError(t, err)
	return r
}
