package main

import (
	"fmt"

	"github.com/spraynic/spraynic/english"
	"github.com/spraynic/spraynic/outfile"
	"github.com/spraynic/spraynic/system"
	"github.com/urfave/cli/v2"
)

func genCommand() *cli.Command {
	flags := append(simFlags(),
		&cli.StringFlag{Name: "out", Required: true, Usage: "pcap file of the data packets as they reached endpoint B"},
	)
	for _, f := range flags {
		if d, ok := f.(*cli.Float64Flag); ok && d.Name == "duration-us" {
			d.Value = 20
		}
	}
	return &cli.Command{
		Name:     "gen",
		Category: catSystem,
		Usage: "write a stimulus capture: the data packets of an end-to-end run as they arrive at one endpoint " +
			"(reordered, lost, marked)",
		Flags:  flags,
		Action: genAction,
	}
}

func genAction(c *cli.Context) error {
	o, err := simOptions(c)
	if err != nil {
		return err
	}
	if err := checkOutputs(c, "out"); err != nil {
		return err
	}
	f, err := outfile.Create(c.String("out"))
	if err != nil {
		return err
	}
	defer f.Abort()
	o.Arrivals = f
	fmt.Fprintf(c.App.Writer, "seed %d\n", o.Seed)
	r, err := system.Run(o)
	if err != nil {
		return err
	}
	if err := f.Commit(); err != nil {
		return fmt.Errorf("--out: %w", err)
	}
	fmt.Fprintf(c.App.Writer, "wrote %s: %s arrived at B (%d sent, %d retransmitted)\n",
		c.String("out"), english.Plural(int(r.DataPackets-sum(r.PathDrops)), "data packet"), r.DataPackets, r.Retransmissions)
	return nil
}

// sum adds xs.
func sum(xs []int64) int64 {
	var t int64
	for _, x := range xs {
		t += x
	}
	return t
}
