package main

import (
	"fmt"
	"os"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/spraynic/spraynic/cosim"
	"github.com/spraynic/spraynic/system/roce"
	"github.com/spraynic/spraynic/tops"
)

func replayCommand() *cli.Command {
	return &cli.Command{
		Name:     "replay",
		Category: catCosim,
		Usage: "feed a pcap (spraynic gen, a simulation, or a Wireshark capture of our format) into one " +
			"nic_transport RTL endpoint's network input, in lockstep with its golden twin",
		ArgsUsage: "FILE.pcap",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "config", Value: "default", Usage: "preset name or config file"},
			&cli.StringFlag{Name: "mode", Value: "spray", Usage: "spray or gbn (the endpoint's GBN parameter)"},
			&cli.IntFlag{Name: "show", Value: 10, Usage: "rejected frames listed at most"},
		},
		Action: func(c *cli.Context) error {
			if c.NArg() != 1 {
				return usageErr("replay: want one FILE.pcap argument, got %d", c.NArg())
			}
			path := c.Args().First()
			cfg, err := configFlag("config", c.String("config"))
			if err != nil {
				return err
			}
			switch c.String("mode") {
			case "spray":
				cfg.GBN = 0
			case "gbn":
				cfg.GBN = 1
			default:
				return usageErr("--mode %q: allowed spray, gbn", c.String("mode"))
			}
			f, err := os.Open(path)
			if err != nil {
				return err
			}
			frames, _, err := roce.ReadPcap(f)
			f.Close()
			if err != nil {
				return fmt.Errorf("%s: %w", path, err)
			}
			root, err := tops.Root()
			if err != nil {
				return err
			}
			res, err := cosim.Replay(root, cfg, frames, "spraynic "+strings.Join(os.Args[1:], " "), os.Stderr)
			if res != nil {
				res.Print(c.App.Writer, path, cfg.Name, c.String("mode"), c.Int("show"), err == nil)
			}
			return err
		},
	}
}
