package main

import (
	"errors"
	"fmt"
	"net"
	"os"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/spraynic/spraynic/config"
	"github.com/spraynic/spraynic/cosim"
	"github.com/spraynic/spraynic/outfile"
	"github.com/spraynic/spraynic/system/roce"
	"github.com/spraynic/spraynic/tops"
)

func replayCommand() *cli.Command {
	return &cli.Command{
		Name:     "replay",
		Category: catCosim,
		Usage: "feed a capture (pcap or pcapng: spraynic gen, a simulation, or a Wireshark capture of our format) " +
			"into one nic_transport RTL endpoint's network input, in lockstep with its golden twin, " +
			"(--level frame) into the RoCEv2 RX parser roce_rx, frame by frame, or (--level top) into the MAC " +
			"input of the nic_roce top",
		Description: "--level packet (the default): frames that are not RoCEv2 of docs/protocol.md, are malformed " +
			"or are outside --config and --mtu are listed as FILE: frame N: reason and not fed. The command fails " +
			"when the file is not a capture, when no frame can be fed, when RTL and golden model disagree, and " +
			"when the file ends inside a frame (after replaying the complete frames), unless --allow-cut.\n\n" +
			"--level frame: every Ethernet frame, good or bad, is driven as AXI-Stream beats into rtl/roce_rx.v " +
			"(parameters from --config, width and MTU its data_width and mtu or --data-width and --mtu) and the " +
			"parser's verdict, descriptors, SACK words and payload bytes are compared with roce.Parse frame by " +
			"frame; each mismatch is listed as FILE: frame N: field: RTL X, roce.Parse Y and fails the command " +
			"(docs/roce_rx.md, \"Frame replay\").\n\n" +
			"--level top: the frames whose Ethernet destination is the endpoint's (--local-mac, or the destination " +
			"of the first data frame) are fed into MAC RX of rtl/nic_roce.v in lockstep with its golden twin; the " +
			"top is programmed from the capture (a connection per destination QP, its peer and first PSN) and a " +
			"receive is posted for each message; every receive completion is checked byte for byte against the " +
			"capture, and the connections and counters are printed; --out writes the frames the top sent " +
			"(docs/e2e_frames.md, \"Replay into one top\").",
		ArgsUsage: "FILE",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "config", Value: "default", Usage: "preset name or config file"},
			&cli.StringFlag{Name: "level", Value: "packet", Usage: "packet (parsed in Go, fed to nic_transport), " +
				"frame (each frame's bytes fed to roce_rx) or top (fed to the nic_roce top's MAC RX)"},
			&cli.StringFlag{Name: "local-mac", Usage: "--level top: the endpoint's MAC, aa:bb:cc:dd:ee:ff (unset: " +
				"the destination of the capture's first data frame)"},
			&cli.StringFlag{Name: "out", Usage: "--level top: write the frames the top sent on MAC TX to this pcap"},
			&cli.StringFlag{Name: "mode", Value: "spray", Usage: "spray or gbn (the endpoint's GBN parameter; " +
				"--level packet, and --level top when set)"},
			&cli.IntFlag{Name: "data-width", Usage: "roce_rx's AXI-Stream width, bits: 64, 128, 256 or 512 " +
				"(--level frame or top; 0: the config's data_width)"},
			&cli.IntFlag{Name: "mtu", Value: 4096, Usage: "largest data payload accepted, bytes (the sender's --mtu); " +
				"with --level frame or top the parser's or top's MTU too, 256..4096, a power of two (unset: the " +
				"config's mtu)"},
			&cli.IntFlag{Name: "show", Value: 10, Usage: "rejected frames (and mismatches) listed at most"},
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
	cfg, err := replayFlags(c)
	if err != nil {
		return err
	}
	capt, err := readCapture(path)
	if err != nil {
		return err
	}
	root, err := tops.Root()
	if err != nil {
		return err
	}
	switch c.String("level") {
	case "frame":
		return replayFrames(c, root, cfg, capt)
	case "top":
		return replayTop(c, root, cfg, capt)
	}
	res, err := cosim.Replay(root, cfg, c.Int("mtu"), capt, "spraynic "+strings.Join(os.Args[1:], " "), os.Stderr)
	if res != nil {
		res.Print(c.App.Writer, path, cfg.Name, c.String("mode"), c.Int("show"), err == nil)
	}
	if err != nil {
		return err
	}
	return cutErr(c, capt)
}

// replayFlags checks the flags and returns the configuration (--config, with --mode's GBN).
func replayFlags(c *cli.Context) (config.Config, error) {
	cfg, err := configFlag("config", c.String("config"))
	if err != nil {
		return cfg, err
	}
	switch c.String("mode") {
	case "spray":
		if c.String("level") == "packet" || c.IsSet("mode") {
			cfg.GBN = 0
		}
	case "gbn":
		cfg.GBN = 1
	default:
		return cfg, usageErr("--mode %q: allowed spray, gbn", c.String("mode"))
	}
	if mtu := c.Int("mtu"); mtu < 1 {
		return cfg, usageErr("--mtu %d: allowed 1 or more bytes", mtu)
	}
	switch level := c.String("level"); level {
	case "packet":
		if c.IsSet("local-mac") || c.IsSet("out") {
			return cfg, usageErr("--local-mac and --out: only with --level top")
		}
		return cfg, nil
	case "frame", "top":
		if level == "frame" && (c.IsSet("local-mac") || c.IsSet("out")) {
			return cfg, usageErr("--local-mac and --out: only with --level top")
		}
		return frameFlags(c, cfg)
	default:
		return cfg, usageErr("--level %q: allowed packet, frame, top", level)
	}
}

// frameFlags applies the flags of --level frame to cfg: --data-width, and --mtu when set, within the ranges of
// the config keys data_width and mtu.
func frameFlags(c *cli.Context, cfg config.Config) (config.Config, error) {
	if w := c.Int("data-width"); w != 0 {
		if !pow2Key("data_width", w) {
			return cfg, usageErr("--data-width %d: allowed 64, 128, 256, 512 (bits; 0: the config's data_width)", w)
		}
		cfg.DataWidth = w
	}
	if c.IsSet("mtu") {
		mtu := c.Int("mtu")
		if !pow2Key("mtu", mtu) {
			who := map[string]string{"frame": "roce_rx's", "top": "the top's"}[c.String("level")]
			return cfg, usageErr("--mtu %d: allowed 256, 512, 1024, 2048, 4096 bytes with --level %s (%s MTU, an "+
				"IBTA path MTU)", mtu, c.String("level"), who)
		}
		cfg.MTU = mtu
	}
	return cfg, nil
}

// pow2Key reports whether v is a power of two in the range of the config key named json.
func pow2Key(json string, v int) bool {
	for _, k := range config.Keys {
		if k.JSON == json {
			return v >= k.Min && v <= k.Max && v&(v-1) == 0
		}
	}
	return false
}

// replayFrames runs the frame-level replay, prints its summary and fails on a mismatch or a cut capture.
func replayFrames(c *cli.Context, root string, cfg config.Config, capt *roce.Capture) error {
	path := c.Args().First()
	res, err := cosim.FrameReplay(root, cfg, capt, os.Stderr)
	if res != nil {
		res.Print(c.App.Writer, path, cfg.Name, c.Int("show"))
	}
	if err != nil {
		return err
	}
	if err := res.Err(path); err != nil {
		return err
	}
	return cutErr(c, capt)
}

// replayTop runs the top replay, prints its summary, writes --out, and fails on any check or a cut capture.
func replayTop(c *cli.Context, root string, cfg config.Config, capt *roce.Capture) error {
	var local net.HardwareAddr
	if v := c.String("local-mac"); v != "" {
		mac, err := net.ParseMAC(v)
		if err != nil || len(mac) != 6 {
			return usageErr("--local-mac %q: not a MAC address (allowed: six bytes, aa:bb:cc:dd:ee:ff)", v)
		}
		local = mac
	}
	var out *outfile.File
	if p := c.String("out"); p != "" {
		if err := checkOutputs(c, "out"); err != nil {
			return err
		}
		in, err1 := os.Stat(c.Args().First())
		o, err2 := os.Stat(p)
		if err1 == nil && err2 == nil && os.SameFile(in, o) {
			return usageErr("--out %s: is the capture being replayed (allowed: another file)", p)
		}
		f, err := outfile.Create(p)
		if err != nil {
			return err
		}
		defer f.Abort()
		out = f
	}
	path := c.Args().First()
	res, err := cosim.TopReplay(cosim.TopReplayOptions{Root: root, Config: cfg, Capture: capt, LocalMAC: local,
		Repro: "spraynic " + strings.Join(os.Args[1:], " ")})
	if errors.Is(err, cosim.ErrNoEndpoint) {
		return usageErr("replay %s: %v", path, err)
	}
	if res != nil {
		res.Print(c.App.Writer, path, cfg.Name)
	}
	if err != nil {
		return fmt.Errorf("replay: %w", err)
	}
	if out != nil {
		if err := res.WriteSent(out); err != nil {
			return fmt.Errorf("--out: %w", err)
		}
		if err := out.Commit(); err != nil {
			return fmt.Errorf("--out: %w", err)
		}
		fmt.Fprintf(c.App.Writer, "wrote %s: %d frames the top sent\n", c.String("out"), len(res.Sent))
	}
	return cutErr(c, capt)
}

// cutErr reports a cut capture after its complete frames were replayed: an error unless --allow-cut.
func cutErr(c *cli.Context, capt *roce.Capture) error {
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
