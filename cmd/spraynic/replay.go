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
		Usage: "feed a capture (pcap or pcapng: spraynic gen, a simulation, or a Wireshark capture of our format) " +
			"into one nic_transport RTL endpoint's network input, in lockstep with its golden twin",
		Description: "Frames that are not RoCEv2 of docs/protocol.md, are malformed or are outside --config and " +
			"--mtu are listed as FILE: frame N: reason and not fed. The command fails when the file is not a " +
			"capture, when no frame can be fed, when RTL and golden model disagree, and when the file ends " +
			"inside a frame (after replaying the complete frames), unless --allow-cut.",
		ArgsUsage: "FILE",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "config", Value: "default", Usage: "preset name or config file"},
			&cli.StringFlag{Name: "mode", Value: "spray", Usage: "spray or gbn (the endpoint's GBN parameter)"},
			&cli.IntFlag{Name: "mtu", Value: 4096, Usage: "largest data payload accepted, bytes (the sender's --mtu)"},
			&cli.IntFlag{Name: "show", Value: 10, Usage: "rejected frames listed at most"},
			&cli.BoolFlag{Name: "allow-cut", Usage: "a capture cut inside a frame is expected: replay its complete " +
				"frames, report the cut and succeed"},
		},
		Action: replayAction,
	}
}

func replayAction(c *cli.Context) error {
	if c.NArg() != 1 {
		return usageErr("replay: want one FILE argument (pcap or pcapng), got %d", c.NArg())
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
	if mtu := c.Int("mtu"); mtu < 1 {
		return usageErr("--mtu %d: allowed 1 or more bytes", mtu)
	}
	capt, err := readCapture(path)
	if err != nil {
		return err
	}
	root, err := tops.Root()
	if err != nil {
		return err
	}
	res, err := cosim.Replay(root, cfg, c.Int("mtu"), capt, "spraynic "+strings.Join(os.Args[1:], " "), os.Stderr)
	if res != nil {
		res.Print(c.App.Writer, path, cfg.Name, c.String("mode"), c.Int("show"), err == nil)
	}
	if err != nil {
		return err
	}
	if capt.Cut != nil {
		if c.Bool("allow-cut") {
			fmt.Fprintf(c.App.Writer, "%v (--allow-cut: not an error)\n", capt.Cut)
			return nil
		}
		return fmt.Errorf("replay: %w; they were replayed (--allow-cut accepts a cut capture)", capt.Cut)
	}
	return nil
}

// readCapture reads the capture file at path; a file with no complete frame is an error.
func readCapture(path string) (*roce.Capture, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	capt, err := roce.ReadCapture(path, f)
	if err != nil {
		return nil, err
	}
	if len(capt.Frames) == 0 {
		if capt.Cut != nil {
			return nil, fmt.Errorf("replay: %w", capt.Cut)
		}
		return nil, fmt.Errorf("replay: %s: no frames in this %s file", path, capt.Format)
	}
	return capt, nil
}
