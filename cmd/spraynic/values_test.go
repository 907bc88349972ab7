package main

import "testing"

// TestSimValues: an explicit value the simulator would replace by its default, or out of range, is refused with
// the option, the value and the allowed range; a sweep refuses the flags it sets at every point.
func TestSimValues(t *testing.T) {
	see := "; see 'spraynic sim --help'"
	sweep := "; see 'spraynic sim sweep --help'"
	checkCases(t, []cliCase{
		{name: "duration 0", args: []string{"sim", "--duration-us", "0"}, code: 2,
			stderr: "spraynic: option duration-us: value 0 out of range (allowed 1..1e+06)" + see},
		{name: "mtu 0", args: []string{"sim", "--mtu", "0"}, code: 2,
			stderr: "spraynic: option mtu: value 0 out of range (allowed 64..9000)" + see},
		{name: "clock 0", args: []string{"sim", "--clock-mhz", "0"}, code: 2,
			stderr: "spraynic: option clock-mhz: value 0 out of range (allowed 1..2000)" + see},
		{name: "backlog 0", args: []string{"sim", "--backlog", "0"}, code: 2,
			stderr: "spraynic: option backlog: value 0 out of range (allowed 1..1024)" + see},
		{name: "empty mode", args: []string{"sim", "--mode="}, code: 2,
			stderr: `spraynic: option mode: value "" unknown (allowed spray, gbn)` + see},
		{name: "jitter 0", args: []string{"sim", "--jitter-ns", "0"}, code: 2,
			stderr: "spraynic: option jitter-ns: value 0 not supported: the simulator reads 0 as its default 200 ns " +
				"(allowed: above 0; 0.001 for almost none)" + see},
		{name: "gen duration 0", args: []string{"gen", "--out", "x.pcap", "--duration-us", "0"}, code: 2,
			stderr: "spraynic: option duration-us: value 0 out of range (allowed 1..1e+06); see 'spraynic gen --help'"},
		{name: "documented zero", args: []string{"sim", "--duration-us", "5", "--conns", "0", "--quiet"}, code: 0,
			stdout: "goodput (% of port)"},
		{name: "sweep --mode", args: []string{"sim", "sweep", "--mode", "gbn", "--loss", "0.3", "--paths", "4"}, code: 2,
			stderr: "spraynic: --mode gbn: sim sweep runs each mode of --modes; use --modes gbn" + sweep},
		{name: "sweep --loss", args: []string{"sim", "sweep", "--loss", "0.3"}, code: 2,
			stderr: "spraynic: --loss 0.3: sim sweep runs each loss rate of --losses; use --losses 0.3" + sweep},
		{name: "sweep --paths", args: []string{"sim", "sweep", "--paths", "4"}, code: 2,
			stderr: "spraynic: --paths 4: sim sweep runs each path count of --path-counts; use --path-counts 4" + sweep},
		{name: "sweep --net-paths", args: []string{"sim", "sweep", "--net-paths", "4"}, code: 2,
			stderr: "spraynic: --net-paths 4: sim sweep runs the fabric paths of each path count of --path-counts; " +
				"use --path-counts 4" + sweep},
		{name: "sweep loss from the environment", args: []string{"sim", "sweep"},
			env: map[string]string{"SPRAYNIC_LOSS": "0.1"}, code: 2,
			stderr: "spraynic: --loss 0.1 (from SPRAYNIC_LOSS): sim sweep runs each loss rate of --losses; " +
				"use --losses 0.1" + sweep},
		{name: "sweep flag before the subcommand", args: []string{"sim", "--loss", "0.3", "sweep"}, code: 2,
			stderr: "spraynic: --loss 0.3: sim sweep runs each loss rate of --losses; use --losses 0.3" + sweep},
		{name: "sweep negative jobs", args: []string{"sim", "sweep", "--jobs", "-2"}, code: 2,
			stderr: "spraynic: --jobs -2: out of range (allowed: 0 for one per core, or more)" + sweep},
	})
}
