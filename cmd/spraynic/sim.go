package main

import (
	"fmt"
	"os"
	"strings"

	"github.com/spraynic/spraynic/cosim"
	"github.com/spraynic/spraynic/outfile"
	"github.com/spraynic/spraynic/system"
	"github.com/spraynic/spraynic/tops"
	"github.com/urfave/cli/v2"
)

func simCommand() *cli.Command {
	flags := append(
		simFlags(),
		&cli.StringFlag{Name: "json", Usage: "write the figures as JSON to this file"},
		&cli.StringFlag{Name: "pcap",
			Usage: "write every packet both ports sent to this pcap file (opens in Wireshark)"},
		&cli.BoolFlag{Name: "rtl",
			Usage: "check both endpoints as nic_transport RTL (Verilator), each in lockstep with its golden twin"},
	)
	return &cli.Command{
		Name:        "sim",
		Category:    catSystem,
		Usage:       "end-to-end transport simulation: two endpoints of golden block models over the multipath network",
		Flags:       flags,
		Action:      simAction,
		Subcommands: []*cli.Command{simSweepCommand(), simScenariosCommand()},
	}
}

func simAction(c *cli.Context) error {
	o, err := simOptions(c)
	if err != nil {
		return err
	}
	if err := checkOutputs(c, "json", "pcap"); err != nil {
		return err
	}
	var capture *outfile.File
	if p := c.String("pcap"); p != "" {
		if capture, err = outfile.Create(p); err != nil {
			return err
		}
		defer capture.Abort()
		o.Capture = capture
	}
	o.Progress = progressTo(os.Stderr, c.Bool("quiet"), o.ClockMHz)
	fmt.Fprintf(c.App.Writer, "seed %d (--seed N or SEED=N to reproduce)\n", o.Seed)
	r, runErr := simRun(c, o)
	if o.Progress != nil {
		fmt.Fprintln(os.Stderr)
	}
	if r != nil {
		if err := system.WriteTable(c.App.Writer, []*system.Result{r}); err != nil {
			return err
		}
		if p := c.String("json"); p != "" {
			if err := writeJSON(p, r); err != nil {
				return fmt.Errorf("--json: %w", err)
			}
		}
	}
	if capture != nil && runErr == nil {
		if err := capture.Commit(); err != nil {
			return fmt.Errorf("--pcap: %w", err)
		}
	}
	return runErr
}

// simRun runs the simulation on the golden endpoints, or with --rtl on both RTL endpoints in lockstep.
func simRun(c *cli.Context, o system.Options) (*system.Result, error) {
	if !c.Bool("rtl") {
		return system.Run(o)
	}
	root, err := tops.Root()
	if err != nil {
		return nil, err
	}
	r, sides, err := cosim.SimRTL(root, o, "spraynic "+strings.Join(os.Args[1:], " "), os.Stderr)
	for _, sd := range sides {
		fmt.Fprintf(c.App.Writer, "RTL endpoint %s: %d cycles in lockstep with its golden twin, every output port "+
			"equal (%.0f cycles/s)\n", sd.Side, sd.Cycles, float64(sd.Cycles)/sd.Seconds)
	}
	if len(sides) == 2 {
		fmt.Fprintln(c.App.Writer, "the figures below are the RTL's")
	}
	return r, err
}
