package cosim

import (
	"fmt"

	"github.com/spraynic/spraynic/config"
	"github.com/spraynic/spraynic/cosim/bridge"
	"github.com/spraynic/spraynic/golden/retx"
	"github.com/spraynic/spraynic/scoreboard"
	"github.com/spraynic/spraynic/stimulus/retxtraffic"
)

func init() {
	for _, name := range retxtraffic.Names() {
		prof, _ := retxtraffic.Lookup(name)
		register(Test{Name: "retx_" + name, Block: "retx", Doc: prof.Doc, ports: retxPorts,
			configure: func(cfg config.Config) config.Config { return retxtraffic.ConfigFor(cfg, prof) },
			CyclesFor: func(cfg config.Config) int64 {
				return prof.TrafficCycles(cfg) + retxtraffic.DrainCycles(cfg, prof)
			},
			run: func(r Request, dut *bridge.Model) (Result, error) {
				g, err := retx.New(r.Config)
				if err != nil {
					return Result{}, err
				}
				drv, err := retxtraffic.New(r.Config, prof, r.Seed, r.Cycles)
				if err != nil {
					return Result{}, err
				}
				sb := scoreboard.NewRetx(r.Config)
				st, err := Lockstep[retx.In, retx.Out](dut, g, drv, sb, retx.Valid, r.lockstepOptions())
				return Result{
					Cycles:  st.Cycles,
					Packets: drv.Stats.Sent,
					Detail: fmt.Sprintf("retx=%d lost=%d acks=%d errors=%d resets=%d reopens=%d", drv.Stats.Retx,
						drv.Stats.Lost, drv.Stats.Acks, drv.Stats.Errors, drv.Stats.Resets, drv.Stats.Reopens),
				}, err
			}})
	}
	// Directed scripts: lockstep with the golden model and the scoreboard, then the script's own exact check.
	for _, s := range retxtraffic.Scripts() {
		register(
			Test{Name: "retx_dir_" + s.Name, Block: "retx", Doc: "directed: " + s.Doc, ports: retxPorts, Directed: true,
				configure: func(cfg config.Config) config.Config { return retxtraffic.ConfigForScript(cfg, s) },
				CyclesFor: s.Cycles,
				MinFor:    func(cfg config.Config) Minimum { return retxScriptMinimum(s.Steps(cfg)) },
				run: func(r Request, dut *bridge.Model) (Result, error) {
					g, err := retx.New(r.Config)
					if err != nil {
						return Result{}, err
					}
					drv := retxtraffic.NewScript(r.Config, s)
					sb := scoreboard.NewRetx(r.Config)
					st, err := Lockstep[retx.In, retx.Out](dut, g, drv, sb, retx.Valid, r.lockstepOptions())
					out := drv.Trace().Last()
					res := Result{
						Cycles:  st.Cycles,
						Packets: drv.Packets(),
						Detail: fmt.Sprintf("sent=%d retx_loss=%d retx_timeout=%d retx_gbn=%d timeouts=%d errors=%d "+
							"dropped=%d ignored=%d", out.CntSent, out.CntRetxLoss, out.CntRetxTimeout, out.CntRetxGBN,
							out.CntTimeouts, out.CntErrors, out.CntTxDropped, out.CntAckIgnored),
					}
					if err == nil {
						if err = drv.Check(); err != nil {
							err = &CheckError{Cycle: st.Cycles, Err: err, Repro: r.Repro()}
						}
					}
					return res, err
				}},
		)
	}
}

// retxScriptMinimum is the minimum of a directed retx script (its steps under the configuration it runs with): as
// many transmissions (retransmissions included) as the packets it hands on s_tx. A packet handed to a closed
// connection is dropped, but every script retransmits at least as many packets as it has dropped.
func retxScriptMinimum(items []retxtraffic.Item) Minimum {
	var n int64
	for _, it := range items {
		if it.Op == retxtraffic.OpTx {
			n++
		}
	}
	return Minimum{N: n, Why: "as many transmissions as the packets the script hands on s_tx"}
}
