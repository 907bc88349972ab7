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
		&cli.BoolFlag{Name: "frames", Usage: "with --rtl: the endpoints are the frame-level nic_roce top, Ethernet " +
			"frames through the network, work requests and DMA host memory; the port runs at the datapath rate " +
			"(docs/e2e_frames.md)"},
		&cli.Float64Flag{Name: "corrupt",
			Usage: "with --frames: probability that a delivered frame has one byte changed, 0..0.5"},
		&cli.StringFlag{Name: "dma-latency", Value: "2:20", Usage: "with --frames: MIN:MAX cycles every host DMA " +
			"latency is drawn from (descriptor to first read beat, last beat to status); 2:20 is an on-chip RAM"},
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
	if c.Bool("frames") && !c.Bool("rtl") {
		return nil, usageErr("--frames: needs --rtl (the frame-level mode runs the nic_roce RTL tops)")
	}
	if c.IsSet("corrupt") && !c.Bool("frames") {
		return nil, usageErr("--corrupt: needs --frames (only the frame-level mode carries frames)")
	}
	if c.IsSet("dma-latency") && !c.Bool("frames") {
		return nil, usageErr("--dma-latency: needs --frames (only the frame-level mode has host DMA)")
	}
	if !c.Bool("rtl") {
		return system.Run(o)
	}
	root, err := tops.Root()
	if err != nil {
		return nil, err
	}
	if c.Bool("frames") {
		return simFrames(c, root, o)
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

// simFrames runs the frame-level mode: two nic_roce RTL tops in lockstep with their twins. Without --port-gbps
// the port (and, without --path-gbps, the paths) run at the datapath rate.
func simFrames(c *cli.Context, root string, o system.Options) (*system.Result, error) {
	if !c.IsSet("port-gbps") {
		o.PortGbps = cosim.DatapathGbps(o.Config, o.ClockMHz)
		if c.Int("path-gbps") == 0 {
			o.PathGbps = o.PortGbps
		}
	}
	if _, err := cosim.FrameOptions(o, c.Float64("corrupt")); err != nil {
		return nil, asUsage(err)
	}
	lat, err := cosim.ParseDMALatency(c.String("dma-latency"))
	if err != nil {
		return nil, asUsage(err)
	}
	fmt.Fprintf(c.App.Writer, "frame-level: two nic_roce RTL tops, port %d Gb/s (DATA_WIDTH %d at %d MHz: %d Gb/s), "+
		"host DMA latency %d..%d cycles\n", o.PortGbps, o.Config.DataWidth, o.ClockMHz,
		cosim.DatapathGbps(o.Config, o.ClockMHz), lat.Min, lat.Max)
	r, st, err := cosim.SimFrames(cosim.FrameSimOptions{Root: root, Sim: o, Corrupt: c.Float64("corrupt"),
		DMALatency: lat, Repro: "spraynic " + strings.Join(os.Args[1:], " ")})
	for _, sd := range st.Sides {
		fmt.Fprintf(c.App.Writer, "RTL endpoint %s: %d cycles in lockstep with its golden twin (nic_roce), every "+
			"output port equal (%.0f cycles/s)\n", sd.Side, sd.Cycles, float64(sd.Cycles)/sd.Seconds)
	}
	if len(st.Sides) == 2 {
		fmt.Fprintf(c.App.Writer, "frames: %d sent by both MAC TX ports, %d lost, %d CE-marked, %d corrupted\n",
			st.Frames, st.Lost, st.Marked, st.Corrupted)
	}
	if err != nil {
		return nil, err
	}
	fmt.Fprintln(c.App.Writer, "the figures below are the RTL's")
	return r, nil
}
