package main

import "testing"

// TestInteropUsage: every bad flag of interop run is one line naming the flag, the value and what is allowed, exit
// 2, before any socket is opened; a missing interface is a failure naming it.
func TestInteropUsage(t *testing.T) {
	help := "; see 'spraynic interop run --help'"
	checkCases(t, []cliCase{
		{name: "sizes", args: []string{"interop", "run", "--iface", "lo", "--sizes", "1,0"},
			stderr: `spraynic: --sizes "1,0": "0" is not a size (allowed: 1..16777216 bytes, comma-separated)` + help,
			code:   exitUsage},
		{name: "loss", args: []string{"interop", "run", "--iface", "lo", "--loss", "0,0.7"},
			stderr: `spraynic: --loss "0,0.7": "0.7" is not a loss rate (allowed: 0 <= p < 0.5, comma-separated)` +
				help, code: exitUsage},
		{name: "ip", args: []string{"interop", "run", "--iface", "lo", "--ip", "::1"},
			stderr: `spraynic: --ip "::1": not an IPv4 address (allowed: a.b.c.d)` + help, code: exitUsage},
		{name: "iters", args: []string{"interop", "run", "--iface", "lo", "--iters", "0"},
			stderr: "spraynic: --iters 0: allowed 1..100000" + help, code: exitUsage},
		{name: "mac", args: []string{"interop", "run", "--iface", "lo", "--mac", "x"},
			stderr: `spraynic: --mac "x": not a MAC address (allowed: xx:xx:xx:xx:xx:xx)` + help, code: exitUsage},
		{name: "no interface", args: []string{"interop", "run", "--iface", "nosuch0"}, stdout: "interop: seed=1 ",
			stderr: "spraynic: --iface nosuch0: interface nosuch0: route ip+net: no such network interface",
			code:   exitFailure},
		{name: "check args", args: []string{"interop", "check"},
			stderr: "spraynic: check takes one capture file, got 0 arguments; see 'spraynic interop check --help'",
			code:   exitUsage},
	})
}
