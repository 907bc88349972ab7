package retxtraffic

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/spraynic/spraynic/config"
	"github.com/spraynic/spraynic/golden/retx"
	"github.com/spraynic/spraynic/scoreboard"
)

// mutant is a deliberately wrong engine: the golden model built with another configuration (cfg) and/or with its
// outputs perturbed (out, called every cycle after the model's step; it may keep state).
type mutant struct {
	name string
	cfg  func(config.Config) config.Config
	out  func() func(in *retx.In, out *retx.Out)
}

// runScript plays s on the golden model (or a mutant of it) for cycles cycles with the scoreboard watching, and
// returns the script's Check and the scoreboard's verdict.
func runScript(t *testing.T, cfg config.Config, s Script, cycles int64, mu *mutant) (check, sb error, doneAt int64) {
	t.Helper()
	cfg = ConfigForScript(cfg, s)
	mcfg := cfg
	var perturb func(in *retx.In, out *retx.Out)
	if mu != nil {
		if mu.cfg != nil {
			mcfg = mu.cfg(cfg)
		}
		if mu.out != nil {
			perturb = mu.out()
		}
	}
	g, err := retx.New(mcfg)
	require.NoError(t, err)
	drv := NewScript(cfg, s)
	board := scoreboard.NewRetx(cfg)
	var in retx.In
	var out retx.Out
	for c := int64(0); c < cycles; c++ {
		drv.Drive(c, &in)
		g.Step(&in, &out)
		if perturb != nil {
			perturb(&in, &out)
		}
		drv.Observe(c, &in, &out)
		if sb == nil {
			sb = board.Observe(c, &in, &out)
		}
	}
	if sb == nil {
		sb = board.Finish()
	}
	return drv.Check(), sb, drv.DoneAt()
}

func presets(t *testing.T) []config.Config {
	var cs []config.Config
	for _, n := range config.PresetNames() {
		c, err := config.Preset(n)
		require.NoError(t, err)
		cs = append(cs, c)
	}
	return cs
}

// TestScriptsGolden: every script passes its own check and the scoreboard on the golden model under every preset,
// at its default length (which leaves a quiet tail); cut one cycle short of its last step, its check says where
// it stopped.
func TestScriptsGolden(t *testing.T) {
	for _, cfg := range presets(t) {
		for _, s := range Scripts() {
			t.Run(cfg.Name+"/"+s.Name, func(t *testing.T) {
				n := s.Cycles(ConfigForScript(cfg, s))
				check, sb, done := runScript(t, cfg, s, n, nil)
				require.NoError(t, sb, "scoreboard")
				require.NoError(t, check, "script check")
				require.Less(t, done+50, n, "the default length leaves a tail after the last step")
				check, _, _ = runScript(t, cfg, s, done, nil)
				require.ErrorContains(t, check, "stopped at step", "a run too short must not pass")
			})
		}
	}
}

// perturb returns a stateless output mutant.
func perturb(f func(in *retx.In, out *retx.Out)) func() func(in *retx.In, out *retx.Out) {
	return func() func(in *retx.In, out *retx.Out) { return f }
}

var (
	// retriesPlus1: every retransmission reports one retry too many.
	retriesPlus1 = mutant{name: "m_pkt_retries+1 on retransmissions", out: perturb(func(_ *retx.In, o *retx.Out) {
		if o.PktRetx {
			o.PktRetries++
		}
	})}
	// pktLate: the m_pkt outputs show one cycle late (a one-cycle longer pipeline).
	pktLate = mutant{name: "m_pkt one cycle late", out: func() func(in *retx.In, out *retx.Out) {
		var prev retx.Out
		return func(in *retx.In, o *retx.Out) {
			cur := *o
			o.PktValid, o.PktConn, o.PktPSN = prev.PktValid, prev.PktConn, prev.PktPSN
			o.PktPath, o.PktPseq = prev.PktPath, prev.PktPseq
			o.PktEntropy, o.PktHandle, o.PktRetries = prev.PktEntropy, prev.PktHandle, prev.PktRetries
			o.PktFirst, o.PktLast, o.PktAckReq, o.PktRetx = prev.PktFirst, prev.PktLast, prev.PktAckReq, prev.PktRetx
			prev = cur
		}
	}}
	// lossFbLost: loss feedback events never show.
	lossFbLost = mutant{name: "loss feedback dropped", out: perturb(func(_ *retx.In, o *retx.Out) {
		if o.FbKind == retx.FbLoss {
			o.FbValid = false
		}
	})}
	// ignoredStuck: cnt_ack_ignored never counts.
	ignoredStuck = mutant{name: "cnt_ack_ignored stuck at 0",
		out: perturb(func(_ *retx.In, o *retx.Out) { o.CntAckIgnored = 0 })}
	// droppedStuck: cnt_tx_dropped never counts.
	droppedStuck = mutant{name: "cnt_tx_dropped stuck at 0",
		out: perturb(func(_ *retx.In, o *retx.Out) { o.CntTxDropped = 0 })}
	// ackReqLost: new packets never ask for an ACK.
	ackReqLost = mutant{name: "ack_req only on retransmissions",
		out: perturb(func(_ *retx.In, o *retx.Out) { o.PktAckReq = o.PktRetx })}
	// readyUnderRst: s_tx_ready high in rst cycles.
	readyUnderRst = mutant{name: "s_tx_ready high under rst", out: perturb(func(in *retx.In, o *retx.Out) {
		if in.Rst {
			o.TxReady = true
		}
	})}
	// errTwice: m_err_valid stays high for a second cycle.
	errTwice = mutant{name: "m_err two cycles", out: func() func(in *retx.In, out *retx.Out) {
		prev := false
		return func(_ *retx.In, o *retx.Out) {
			cur := o.ErrValid
			o.ErrValid = o.ErrValid || prev
			prev = cur
		}
	}}
	// psnNoWrap: retransmitted PSNs below 2^23 come out with bit 23 set (a 25-bit add that lost its wrap).
	psnNoWrap = mutant{name: "retransmitted PSN off by 2^23 after the wrap",
		out: perturb(func(_ *retx.In, o *retx.Out) {
			if o.PktRetx && o.PktPSN < 1<<23 {
				o.PktPSN |= 1 << 23
			}
		})}
)

// cfgMutant is an engine built with another configuration than the one the script was written for.
func cfgMutant(name string, f func(c *config.Config)) mutant {
	return mutant{name: name, cfg: func(c config.Config) config.Config { f(&c); return c }}
}

// sackHalved: an engine with half the SACK bitmap.
var sackHalved = cfgMutant("sack_bits halved", func(c *config.Config) { c.SackBits /= 2 })

// TestScriptsCatchMutants: each script's check fails, with a message, on engines that break the rule it is about
// (checked on the golden model with a changed configuration or perturbed outputs, every preset).
func TestScriptsCatchMutants(t *testing.T) {
	mutants := map[string][]mutant{
		"sack_hole":     {retriesPlus1, pktLate, lossFbLost, ignoredStuck},
		"sack_all_lost": {sackHalved, lossFbLost, retriesPlus1, pktLate},
		"sack_region":   {sackHalved, lossFbLost, retriesPlus1},
		"window_full": {cfgMutant("window twice as large", func(c *config.Config) { c.Window *= 2 }),
			ackReqLost, pktLate},
		"rto_backoff": {cfgMutant("rto_max_ticks doubled", func(c *config.Config) { c.RTOMaxTicks *= 2 }),
			cfgMutant("rto_ticks + 1", func(c *config.Config) { c.RTOTicks++ }), retriesPlus1},
		"max_retries": {cfgMutant("max_retries - 1", func(c *config.Config) { c.MaxRetries-- }),
			errTwice, droppedStuck, ignoredStuck},
		"gbn_ack_rewind": {cfgMutant("selective mode", func(c *config.Config) { c.GBN = 0 }), retriesPlus1, pktLate},
		"gbn_nak":        {cfgMutant("selective mode", func(c *config.Config) { c.GBN = 0 }), retriesPlus1, pktLate},
		"ctl_flush":      {lossFbLost, droppedStuck, pktLate},
		"ctl_flush_held": {lossFbLost, droppedStuck, pktLate},
		"wrap":           {psnNoWrap, cfgMutant("window halved", func(c *config.Config) { c.Window /= 2 }), lossFbLost},
		"reset_mid":      {readyUnderRst, retriesPlus1, ignoredStuck},
		"early_scan": {cfgMutant("early_cycles - 3", func(c *config.Config) { c.EarlyCycles -= 3 }),
			cfgMutant("early_cycles + 1", func(c *config.Config) { c.EarlyCycles++ }),
			cfgMutant("early_cycles 0 (off)", func(c *config.Config) { c.EarlyCycles = 0 }), lossFbLost, pktLate},
		"ack_req_age": {cfgMutant("ack_req_ticks + 1", func(c *config.Config) { c.AckReqTicks++ }),
			cfgMutant("ack_req_ticks 0 (off)", func(c *config.Config) { c.AckReqTicks = 0 }), ackReqLost},
		"early_later": {cfgMutant("rto_ticks + 1", func(c *config.Config) { c.RTOTicks++ }), retriesPlus1, pktLate},
		"early_hold": {cfgMutant("early_cycles 0 (off)", func(c *config.Config) { c.EarlyCycles = 0 }),
			lossFbLost, retriesPlus1, pktLate},
	}
	for _, s := range Scripts() {
		require.Contains(t, mutants, s.Name, "every script needs mutants it catches")
	}
	for _, cfg := range presets(t) {
		for _, s := range Scripts() {
			for _, mu := range mutants[s.Name] {
				t.Run(cfg.Name+"/"+s.Name+"/"+mu.name, func(t *testing.T) {
					check, _, _ := runScript(t, cfg, s, s.Cycles(ConfigForScript(cfg, s)), &mu)
					require.Error(t, check, "the check must catch %q", mu.name)
					msg := check.Error()
					require.True(t, strings.HasPrefix(msg, "script "+s.Name), "message names the script: %s", msg)
					if cfg.Name == "ice40" {
						t.Logf("%s / %s: %s", s.Name, mu.name, firstLines(msg, 3))
					}
				})
			}
		}
	}
}

func firstLines(s string, n int) string {
	l := strings.SplitN(s, "\n", n+1)
	return strings.Join(l[:min(n, len(l))], " | ")
}

// TestCtlFlushHeld: the ctl_flush scenario with m_pkt_ready still low in the control cycle, so the packet the m_pkt
// register holds leaves three cycles after the close; the engine counted it when it loaded it, and the scoreboard
// must count it too (it once did not).
func TestCtlFlushHeld(t *testing.T) {
	for _, cfg := range presets(t) {
		t.Run(cfg.Name, func(t *testing.T) {
			s := ctlFlush(true)
			check, sb, _ := runScript(t, cfg, s, s.Cycles(cfg), nil)
			require.NoError(t, check, "script check")
			require.NoError(t, sb, "scoreboard")
		})
	}
}
