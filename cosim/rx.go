package cosim

import (
	"fmt"

	"github.com/spraynic/spraynic/config"
	"github.com/spraynic/spraynic/cosim/bridge"
	"github.com/spraynic/spraynic/golden/rxreorder"
	"github.com/spraynic/spraynic/scoreboard"
	"github.com/spraynic/spraynic/stimulus/rxtraffic"
)

// rxDriver is stimulus for rx_reorder; check runs after the lockstep (nil: nothing more to check).
type rxDriver struct {
	Driver[rxreorder.In, rxreorder.Out]
	check func() error
	stats func() int64
}

func init() {
	for _, name := range rxtraffic.Names() {
		prof, _ := rxtraffic.Lookup(name)
		register(Test{Name: "rx_" + name, Block: "rx_reorder", Doc: prof.Doc, ports: rxPorts,
			CyclesFor: func(cfg config.Config) int64 { return prof.Cycles + rxtraffic.DrainCycles(cfg, prof) },
			run: func(r Request, dut *bridge.Model) (Result, error) {
				drv, err := rxtraffic.New(r.Config, prof, r.Seed, r.Cycles)
				if err != nil {
					return Result{}, err
				}
				return runRx(r, rxDriver{Driver: drv, stats: func() int64 { return drv.Stats.Packets }}, dut)
			}})
	}
	for _, s := range rxtraffic.Scripts() {
		register(
			Test{
				Name:      "rx_dir_" + s.Name,
				Block:     "rx_reorder",
				Doc:       "directed: " + s.Doc,
				ports:     rxPorts,
				Directed:  true,
				CyclesFor: func(cfg config.Config) int64 { return int64(12*cfg.Window + 4*cfg.AckFifoDepth + 1000) },
				MinFor:    func(cfg config.Config) Minimum { return rxScriptMinimum(s.Steps(cfg)) },
				run: func(r Request, dut *bridge.Model) (Result, error) {
					drv := rxtraffic.NewScript(r.Config, s)
					return runRx(r, rxDriver{Driver: drv, check: drv.Check, stats: drv.Packets}, dut)
				},
			},
		)
	}
}

// rxScriptMinimum is the minimum of a directed rx_reorder script: every packet it offers (each is taken once).
func rxScriptMinimum(items []rxtraffic.Item) Minimum {
	var n int64
	for _, it := range items {
		if it.Op == rxtraffic.OpPkt {
			n++
		}
	}
	return Minimum{N: n, Why: "the packets the script offers, each taken once"}
}

func runRx(r Request, drv rxDriver, dut *bridge.Model) (Result, error) {
	gold, err := rxreorder.New(r.Config)
	if err != nil {
		return Result{}, err
	}
	sb := scoreboard.NewRx(r.Config)
	st, err := Lockstep[rxreorder.In, rxreorder.Out](dut, gold, drv.Driver, sb, rxreorder.Valid, r.lockstepOptions())
	res := Result{Cycles: st.Cycles, Packets: drv.stats(),
		Detail: fmt.Sprintf("accepted=%d completions=%d acks=%d verdicts=%d", sb.Accepted, sb.Completions, sb.Acks,
			sb.Verdicts)}
	if err == nil && drv.check != nil {
		if err = drv.check(); err != nil {
			err = &CheckError{Cycle: st.Cycles, Err: err, Repro: r.Repro()}
		}
	}
	return res, err
}
