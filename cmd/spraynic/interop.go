package main

import (
	"fmt"
	"io"
	"net"
	"net/netip"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/spraynic/spraynic/system/ibrc"
	"github.com/spraynic/spraynic/system/livelink"
	"github.com/spraynic/spraynic/system/roce"
	"github.com/urfave/cli/v2"
)

// interopCommand talks RC to an unchanged ibv_rc_pingpong over a Linux interface (docs/interop.md).
func interopCommand() *cli.Command {
	return &cli.Command{
		Name:     "interop",
		Category: catSystem,
		Usage:    "RoCEv2 interop against Linux rxe: ibv_rc_pingpong as peer over a tap (run), capture check (check)",
		Subcommands: []*cli.Command{
			{
				Name: "run",
				Usage: "run the compatibility-mode endpoint on --iface as ibv_rc_pingpong's server, then its client, " +
					"for each size and each --loss round; needs root (AF_PACKET)",
				Flags:  interopFlags(),
				Action: interopRun,
			},
			{
				Name: "check",
				Usage: "check every RoCEv2 frame of a pcap capture (parse, ICRC); " +
					"exit 1 on a bad frame or one direction",
				ArgsUsage: "CAPTURE.pcap",
				Action:    interopCheck,
			},
		},
	}
}

func interopFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "iface", Required: true, Usage: "the interface the peer's frames arrive on (the tap)"},
		&cli.StringFlag{Name: "ip", Value: "10.0.3.2", Usage: "the endpoint's IPv4 address (not the host's)"},
		&cli.StringFlag{Name: "mac", Value: "02:53:50:00:00:02", Usage: "the endpoint's MAC address"},
		&cli.StringFlag{Name: "host-ip", Value: "10.0.3.1", Usage: "the host's address on --iface (TCP listen)"},
		&cli.StringFlag{Name: "peer", Value: "10.0.3.15", Usage: "the peer's address (TCP connect, client runs)"},
		&cli.StringFlag{Name: "sizes", Value: "1,4096,65536,1048576", Usage: "message sizes, bytes"},
		&cli.IntFlag{Name: "iters", Value: 200, Usage: "iterations per run (ibv_rc_pingpong -n)"},
		&cli.StringFlag{Name: "loss", Value: "0", Usage: "loss rates, one round each (e.g. 0,0.01)"},
		&cli.Uint64Flag{Name: "seed", Value: 1, Usage: "seed of the loss, the PSNs and the data"},
		&cli.IntFlag{Name: "port", Value: 18600, Usage: "TCP port of the first run (see docs/interop.md)"},
		&cli.DurationFlag{Name: "wait", Value: 300 * time.Second, Usage: "wait for the peer to connect or listen"},
		&cli.DurationFlag{Name: "run-timeout", Value: 300 * time.Second, Usage: "limit of one run once connected"},
		&cli.DurationFlag{Name: "rto", Value: 100 * time.Millisecond, Usage: "retransmit timer"},
		&cli.IntFlag{Name: "window", Value: 32, Usage: "packets in flight"},
	}
}

// interopPlan reads the flags into a plan; a bad value is a usage error naming the flag.
func interopPlan(c *cli.Context) (livelink.Plan, error) {
	p := livelink.Plan{Iters: c.Int("iters"), PortBase: c.Int("port"), Seed: c.Uint64("seed"), Wait: c.Duration("wait"),
		RunLimit: c.Duration("run-timeout"), Endpoint: ibrc.DefaultConfig()}
	var err error
	for _, a := range []struct {
		flag string
		dst  *netip.Addr
	}{{flag: "ip", dst: &p.IP}, {flag: "host-ip", dst: &p.HostIP}, {flag: "peer", dst: &p.PeerIP}} {
		if *a.dst, err = netip.ParseAddr(c.String(a.flag)); err != nil || !a.dst.Is4() {
			return p, usagef(c, "--%s %q: not an IPv4 address (allowed: a.b.c.d)", a.flag, c.String(a.flag))
		}
	}
	mac, err := net.ParseMAC(c.String("mac"))
	if err != nil || len(mac) != 6 {
		return p, usagef(c, "--mac %q: not a MAC address (allowed: xx:xx:xx:xx:xx:xx)", c.String("mac"))
	}
	p.MAC = [6]byte(mac)
	for _, s := range strings.Split(c.String("sizes"), ",") {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 || n > 1<<24 {
			return p, usagef(c, "--sizes %q: %q is not a size (allowed: 1..16777216 bytes, comma-separated)",
				c.String("sizes"), s)
		}
		p.Sizes = append(p.Sizes, n)
	}
	for _, s := range strings.Split(c.String("loss"), ",") {
		v, err := strconv.ParseFloat(s, 64)
		if err != nil || v < 0 || v >= 0.5 {
			return p, usagef(c, "--loss %q: %q is not a loss rate (allowed: 0 <= p < 0.5, comma-separated)",
				c.String("loss"), s)
		}
		p.Losses = append(p.Losses, v)
	}
	switch {
	case p.Iters < 1 || p.Iters > 100000:
		return p, usagef(c, "--iters %d: allowed 1..100000", p.Iters)
	case p.PortBase < 1024 || p.Port(len(p.Losses)-1, 1, len(p.Sizes)-1) > 65535:
		return p, usagef(c, "--port %d: allowed 1024.. with every run's port <= 65535", p.PortBase)
	case len(p.Sizes) > 10:
		return p, usagef(c, "--sizes: %d sizes, allowed 1..10", len(p.Sizes))
	case c.Duration("rto") <= 0:
		return p, usagef(c, "--rto %v: allowed > 0", c.Duration("rto"))
	case c.Int("window") < 1 || c.Int("window") > 1024:
		return p, usagef(c, "--window %d: allowed 1..1024", c.Int("window"))
	}
	p.Endpoint.Timeout, p.Endpoint.Window = c.Duration("rto"), c.Int("window")
	return p, nil
}

func interopRun(c *cli.Context) error {
	p, err := interopPlan(c)
	if err != nil {
		return err
	}
	w := c.App.Writer
	fmt.Fprintf(w, "interop: seed=%d iface=%s ip=%s mac=%s host=%s peer=%s sizes=%s iters=%d loss=%s port=%d\n",
		p.Seed, c.String("iface"), p.IP, c.String("mac"), p.HostIP, p.PeerIP, c.String("sizes"), p.Iters,
		c.String("loss"), p.PortBase)
	sock, err := livelink.Open(c.String("iface"))
	if err != nil {
		return fmt.Errorf("--iface %s: %w", c.String("iface"), err)
	}
	defer sock.Close()
	// the granted size: SO_RCVBUFFORCE needs root, SO_RCVBUF is capped by net.core.rmem_max
	fmt.Fprintf(w, "interop: socket iface=%s rcvbuf=%d asked=%d (bytes; getsockopt: the kernel doubles what it "+
		"grants)\n", c.String("iface"), sock.RcvBuf, livelink.RcvBufRequest)
	start := time.Now()
	runs, err := livelink.RunPlan(c.Context, sock, p, func(r *livelink.Run) { printRun(w, r) })
	failed := 0
	for _, r := range runs {
		if !r.OK() {
			failed++
		}
	}
	fmt.Fprintf(w, "INTEROP-HOST-DONE runs=%d failed=%d wall_s=%.1f seed=%d\n", len(runs), failed,
		time.Since(start).Seconds(), p.Seed)
	if err != nil {
		return err
	}
	if failed > 0 || len(runs) != 2*len(p.Sizes)*len(p.Losses) {
		return fmt.Errorf("interop: %d of %d runs failed", failed, len(runs))
	}
	return nil
}

// printRun prints one run as an INTEROP-HOST line.
func printRun(w io.Writer, r *livelink.Run) {
	st := "ok"
	if !r.OK() {
		st = "fail"
	}
	s := r.Stats
	fmt.Fprintf(w, "INTEROP-HOST role=%s size=%d iters=%d loss=%g status=%s sent=%d received=%d data_errors=%d "+
		"final_ack_missing=%t qpn=%#x psn=%#x peer_qpn=%#x peer_psn=%#x data_pkts=%d retransmitted=%d timeouts=%d "+
		"probes=%d naks_rcvd=%d naks_sent=%d acks_sent=%d dup_rcvd=%d out_of_seq=%d bad=%d unsupported=%d "+
		"dropped_tx=%d dropped_rx=%d socket_drops=%d frames_tx=%d frames_rx=%d wall_s=%.2f", r.Role, r.Size, r.Iters,
		r.Loss, st, r.Sent, r.Received, r.DataErrors, r.FinalAckMissing, r.QPN, r.PSN, r.Peer.QPN, r.Peer.PSN,
		s.DataSent, s.Retransmitted, s.Timeouts, s.Probes, s.NAKsRcvd, s.NAKsSent, s.AcksSent, s.Duplicates,
		s.OutOfSeq, s.Bad, s.Unsupported, r.Dropped[0], r.Dropped[1], r.SocketDrops, r.Frames[0], r.Frames[1],
		r.Wall.Seconds())
	if r.FirstDataError != "" {
		fmt.Fprintf(w, " first_data_error=%q", r.FirstDataError)
	}
	if r.Err != nil {
		fmt.Fprintf(w, " error=%q", r.Err.Error())
	}
	fmt.Fprintln(w)
	if r.SocketDrops > 0 && r.Loss == 0 {
		// not a failure of the run, but the lossless round was not lossless on the host's side
		fmt.Fprintf(w, "interop: %s run, %d bytes, lossless round: the host's AF_PACKET socket dropped %d frames "+
			"(receive buffer full; the host's loss, not the peer's)\n", r.Role, r.Size, r.SocketDrops)
	}
}

func interopCheck(c *cli.Context) error {
	if c.NArg() != 1 {
		return usagef(c, "check takes one capture file, got %d arguments", c.NArg())
	}
	f, err := os.Open(c.Args().First())
	if err != nil {
		return err
	}
	defer f.Close()
	frames, _, err := roce.ReadPcap(f)
	if err != nil {
		return fmt.Errorf("%s: %w", c.Args().First(), err)
	}
	k := livelink.CheckCapture(frames)
	fmt.Fprintf(c.App.Writer, "INTEROP-CAPTURE %s\n", k)
	if k.Bad > 0 || len(k.BySource) < 2 {
		return fmt.Errorf("%s: %d bad RoCEv2 frames, %d directions (want 0 and 2)", c.Args().First(), k.Bad,
			len(k.BySource))
	}
	return nil
}
