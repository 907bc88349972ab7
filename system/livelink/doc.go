// Package livelink runs the compatibility-mode endpoint (system/ibrc) against a real RoCEv2 stack on a Linux
// interface (docs/interop.md): raw Ethernet frames through an AF_PACKET socket bound to the interface (the host
// side of the tap a VM uses), ARP for the endpoint's own IPv4 address, seeded loss in both directions, and the
// out-of-band exchange and iteration protocol of rdma-core's ibv_rc_pingpong, as server and as client. It is the
// one place that reads the wall clock: it hands the endpoint the time since the run started.
package livelink
