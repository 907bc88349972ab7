package system

import (
	"fmt"
	"io"
	"strings"

	"github.com/spraynic/spraynic/system/roce"
)

// Result holds the figures of one run (JSON field names are stable).
type Result struct {
	// Mode, Config, Paths (per connection), NetPaths (fabric), Conns, Loss, AckLoss, Seed, Msg, MTU, PortGbps,
	// ClockMHz and DurationUS repeat the run's options.
	Mode       string  `json:"mode"`
	Config     string  `json:"config"`
	Paths      int     `json:"paths"`
	NetPaths   int     `json:"net_paths"`
	Conns      int     `json:"conns"`
	Loss       float64 `json:"loss"`
	AckLoss    float64 `json:"ack_loss"`
	Seed       uint64  `json:"seed"`
	Msg        string  `json:"msg"`
	MTU        int     `json:"mtu"`
	PortGbps   int     `json:"port_gbps"`
	ClockMHz   int     `json:"clock_mhz"`
	DurationUS float64 `json:"duration_us"`
	// Cycles is the whole run including the drain.
	Cycles int64 `json:"cycles"`
	// Goodput is payload completed during the measured time over the port capacity of that time.
	Goodput float64 `json:"goodput"`
	// PayloadBytes is that payload; Messages the messages delivered in the whole run (both directions).
	PayloadBytes int64 `json:"payload_bytes"`
	// Bidir: B sent messages to A as well; GoodputBA and PayloadBytesBA are that direction's figures.
	Bidir          bool    `json:"bidir"`
	GoodputBA      float64 `json:"goodput_ba"`
	PayloadBytesBA int64   `json:"payload_bytes_ba"`
	Messages       int64   `json:"messages"`
	// MCTP50US, MCTP99US and MCTMaxUS are message completion times (first packet handed to the NIC ->
	// last completion at the receiver), microseconds.
	MCTP50US float64 `json:"mct_p50_us"`
	MCTP99US float64 `json:"mct_p99_us"`
	// MCTP999US is the 99.9th percentile.
	MCTP999US float64 `json:"mct_p999_us"`
	MCTMaxUS  float64 `json:"mct_max_us"`
	// ResendP50US and ResendMaxUS are the median and longest time from a packet's transmission to its
	// retransmission, microseconds (0 without retransmissions): how long a loss took to be found.
	ResendP50US float64 `json:"resend_p50_us"`
	ResendMaxUS float64 `json:"resend_max_us"`
	// DataPackets, Retransmissions, AckPackets: packets sent; Spurious retransmissions of PSNs the receiver
	// already had.
	DataPackets     int64 `json:"data_packets"`
	Retransmissions int64 `json:"retransmissions"`
	Spurious        int64 `json:"spurious_retransmissions"`
	AckPackets      int64 `json:"ack_packets"`
	// RetxLoss, RetxTimeout and RetxGBN split the retransmissions by cause (retx counters); Timeouts counts
	// RTO expiries; Naks NAKs sent; Errors connections put into error; Aborted messages lost with them.
	RetxLoss    int64 `json:"retx_loss"`
	RetxTimeout int64 `json:"retx_timeout"`
	RetxGBN     int64 `json:"retx_gbn"`
	Timeouts    int64 `json:"timeouts"`
	// RetxTimeoutNeeded counts the RTO retransmissions (selective mode) of packets the receiver did not have: the
	// losses only a timeout recovered. Lost is the data packets the forward network dropped.
	RetxTimeoutNeeded int64 `json:"retx_timeout_needed"`
	Lost              int64 `json:"lost"`
	Naks              int64 `json:"naks"`
	Errors            int64 `json:"errors"`
	Aborted           int64 `json:"aborted_messages"`
	// Resets counts endpoint resets, Reconnects the connection manager's reconnects (after errors and resets),
	// ReconnectedMessages the messages delivered on connections after a reconnect, Stale the data packets of an
	// earlier epoch that reached a reopened receiver (not placed); QuietUS is the manager's wait before a reopen.
	Resets              int64   `json:"resets"`
	Reconnects          int64   `json:"reconnects"`
	ReconnectedMessages int64   `json:"reconnected_messages"`
	Stale               int64   `json:"stale_packets"`
	QuietUS             float64 `json:"quiet_us"`
	// AllFailedReconnects counts the reconnects an all-failed status started (Options.AllFailedReconnectUS);
	// TxDropped the packets the hosts handed that the NIC dropped, the connection being closed or in error (retx
	// cnt_tx_dropped; Options.HostLagUS).
	AllFailedReconnects int64 `json:"all_failed_reconnects"`
	TxDropped           int64 `json:"tx_dropped"`
	// PathFailures and PathRecoveries are path_sel's counters (both endpoints).
	PathFailures   int64 `json:"path_failures"`
	PathRecoveries int64 `json:"path_recoveries"`
	// ECNMarks is the number of data packets the fabric CE-marked.
	ECNMarks int64 `json:"ecn_marks"`
	// PathUtil is each fabric path's forward link busy fraction over the run; PathDrops its dropped packets.
	PathUtil  []float64 `json:"path_util"`
	PathDrops []int64   `json:"path_drops"`
	// BinUS and Series are the goodput time series (fraction of port capacity per bin of the measured time).
	BinUS  float64   `json:"bin_us"`
	Series []float64 `json:"series"`
	// RecoveryUS is, for a run with failures, the time from the first failure to the first bin back at >= 85%
	// goodput (-1: never; 0: no dip below it).
	RecoveryUS float64 `json:"recovery_us"`
}

// finish checks the scoreboard, computes the figures and writes the captures. Lost messages are an error only in
// a run that loses none by design.
func (s *sim) finish() error {
	r := s.res
	o := s.o
	if err := s.sb.Finish(); err != nil {
		return err
	}
	// A connection reopened while the hosts still posted must carry messages again (the scoreboard has already
	// proved every one of them delivered exactly once, in order): a reopened connection works.
	if s.reopenedEarly && r.ReconnectedMessages == 0 {
		return fmt.Errorf("reconnect: connections were reopened during the measured time, "+
			"but none delivered a message after it (seed %d)", o.Seed)
	}
	r.Aborted = s.sb.Aborted
	r.Goodput = float64(r.PayloadBytes) / s.capacity(s.measured)
	r.Bidir = o.Bidir
	r.GoodputBA = float64(r.PayloadBytesBA) / s.capacity(s.measured)
	s.counterFigures()
	r.Figures(o, Tally{MCT: s.mct, Resend: s.resend, Bins: s.bins, BinCycles: s.binCycles, Measured: s.measured})
	if err := s.writeCaptures(); err != nil {
		return err
	}
	// An endpoint reset or a reconnect the connection manager starts on its own (scheduled, or on an all-failed
	// status) loses the messages in flight by design; only then are lost messages not an error.
	if s.sb.Aborted > 0 && len(o.Resets) == 0 && len(o.Reconnects) == 0 && o.AllFailedReconnectUS == 0 {
		return &ConnLostError{Conns: r.Errors, Messages: r.Aborted, Seed: o.Seed}
	}
	return nil
}

// counterFigures sums the endpoints' counters (both endpoints) and reads the forward network's per-path figures.
func (s *sim) counterFigures() {
	r := s.res
	for _, sd := range []*side{s.a, s.b} {
		x := &sd.out.Retx
		r.RetxLoss += int64(x.CntRetxLoss)
		r.RetxTimeout += int64(x.CntRetxTimeout)
		r.RetxGBN += int64(x.CntRetxGBN)
		r.Timeouts += int64(x.CntTimeouts)
		r.TxDropped += int64(x.CntTxDropped)
		r.Naks += int64(sd.out.Naks)
		r.PathFailures += int64(sd.out.PathSel.CntFailures)
		r.PathRecoveries += int64(sd.out.PathSel.CntRecoveries)
	}
	for _, ps := range s.a.net.Stats().Paths {
		r.PathUtil = append(r.PathUtil, float64(ps.BusyCycles)/float64(max(1, r.Cycles)))
		r.PathDrops = append(r.PathDrops, ps.DroppedLoss+ps.DroppedTail+ps.DroppedDown)
		r.Lost += ps.DroppedLoss + ps.DroppedTail + ps.DroppedDown
		r.ECNMarks += ps.Marked
	}
}

// writeCaptures writes the pcaps asked for: every packet both ports sent, and the arrivals at B.
func (s *sim) writeCaptures() error {
	if s.o.Capture != nil {
		if err := roce.WritePcap(s.o.Capture, s.frames, s.stamps); err != nil {
			return err
		}
	}
	if s.o.Arrivals != nil {
		if err := roce.WritePcap(s.o.Arrivals, s.arrFrames, s.arrStamps); err != nil {
			return err
		}
	}
	return nil
}

// ConnLostError reports connections that went to error (retx MAX_RETRIES) and the messages lost with them. Run
// returns it together with the figures of the run.
type ConnLostError struct {
	// Conns is the number of connection errors, Messages the messages lost, Seed the run's seed.
	Conns, Messages int64
	Seed            uint64
}

func (e *ConnLostError) Error() string {
	return fmt.Sprintf("%d connection error(s), %d message(s) lost with them (seed %d)", e.Conns, e.Messages, e.Seed)
}

// tableRow is one row of WriteTable: its name and the text of a run's figure.
type tableRow struct {
	// name heads the row; f gives a run's cell.
	name string
	f    func(r *Result) string
}

// tableRows are the rows of WriteTable, in order.
var tableRows = []tableRow{
	{name: "mode", f: func(r *Result) string { return r.Mode }},
	{name: "paths (conn / fabric)", f: func(r *Result) string { return fmt.Sprintf("%d / %d", r.Paths, r.NetPaths) }},
	{name: "loss / ack loss", f: func(r *Result) string {
		return fmt.Sprintf("%g%% / %g%%", 100*r.Loss, 100*r.AckLoss)
	}},
	{name: "goodput (% of port)", f: func(r *Result) string {
		if r.Bidir {
			return fmt.Sprintf("%.2f%% A->B, %.2f%% B->A", 100*r.Goodput, 100*r.GoodputBA)
		}
		return fmt.Sprintf("%.2f%%", 100*r.Goodput)
	}},
	{name: "messages delivered", f: func(r *Result) string { return fmt.Sprint(r.Messages) }},
	{name: "MCT p50 / p99 / max (us)", f: func(r *Result) string {
		return fmt.Sprintf("%.1f / %.1f / %.1f", r.MCTP50US, r.MCTP99US, r.MCTMaxUS)
	}},
	{name: "data packets / retransmitted", f: func(r *Result) string {
		return fmt.Sprintf("%d / %d", r.DataPackets, r.Retransmissions)
	}},
	{name: "retx by SACK / RTO / go-back-N", f: func(r *Result) string {
		return fmt.Sprintf("%d / %d / %d", r.RetxLoss, r.RetxTimeout, r.RetxGBN)
	}},
	{name: "resend after send p50 / max (us)", f: func(r *Result) string {
		return fmt.Sprintf("%.2f / %.2f", r.ResendP50US, r.ResendMaxUS)
	}},
	{name: "spurious retransmissions", f: func(r *Result) string { return fmt.Sprint(r.Spurious) }},
	{name: "timeouts / NAKs", f: func(r *Result) string { return fmt.Sprintf("%d / %d", r.Timeouts, r.Naks) }},
	{name: "conn errors / messages lost", f: func(r *Result) string {
		return fmt.Sprintf("%d / %d", r.Errors, r.Aborted)
	}},
	{name: "resets / reconnects", f: func(r *Result) string { return fmt.Sprintf("%d / %d", r.Resets, r.Reconnects) }},
	{name: "msgs after reconnect / stale pkts", f: func(r *Result) string {
		return fmt.Sprintf("%d / %d", r.ReconnectedMessages, r.Stale)
	}},
	{name: "ECN marks", f: func(r *Result) string { return fmt.Sprint(r.ECNMarks) }},
	{name: "path failures / recoveries", f: func(r *Result) string {
		return fmt.Sprintf("%d / %d", r.PathFailures, r.PathRecoveries)
	}},
	{name: "path utilisation", f: pathUtilisation},
	{name: "recovery after failure/reset (us)", f: func(r *Result) string {
		if r.RecoveryUS < 0 {
			return "never"
		}
		return fmt.Sprintf("%g", r.RecoveryUS)
	}},
	{name: "simulated (us)", f: func(r *Result) string {
		return fmt.Sprintf("%.1f", float64(r.Cycles)/float64(r.ClockMHz))
	}},
}

// pathUtilisation is the table cell of the fabric paths' utilisations, percent.
func pathUtilisation(r *Result) string {
	var b strings.Builder
	for i, u := range r.PathUtil {
		if i > 0 {
			b.WriteByte(' ')
		}
		fmt.Fprintf(&b, "%.0f", 100*u)
	}
	return b.String() + " %"
}

// WriteTable prints the figures of rs as a table, one column per run.
func WriteTable(w io.Writer, rs []*Result) error {
	for _, row := range tableRows {
		if _, err := fmt.Fprintf(w, "%-34s", row.name); err != nil {
			return err
		}
		for _, r := range rs {
			if _, err := fmt.Fprintf(w, " %-22s", row.f(r)); err != nil {
				return err
			}
		}
		if _, err := fmt.Fprintln(w); err != nil {
			return err
		}
	}
	return nil
}
