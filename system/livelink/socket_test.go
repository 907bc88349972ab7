package livelink

import (
	"os"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestSocketRcvBuf: as root, the socket on the loopback interface gets the receive buffer asked for (forced past
// rmem_max; the kernel reports twice the size) and reads its drop counter. Skipped without root.
func TestSocketRcvBuf(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("AF_PACKET needs root")
	}
	s, err := Open("lo")
	require.NoError(t, err)
	defer s.Close()
	require.GreaterOrEqual(t, s.RcvBuf, RcvBufRequest)
	_, err = s.Drops()
	require.NoError(t, err)
	t.Logf("rcvbuf=%d rmem_max=%s", s.RcvBuf, rmemMax())
}

// rmemMax returns net.core.rmem_max, for the log.
func rmemMax() string {
	b, err := os.ReadFile("/proc/sys/net/core/rmem_max")
	if err != nil {
		return "unknown"
	}
	return string(b[:len(b)-1])
}
