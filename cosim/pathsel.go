package cosim

import (
	"fmt"

	"github.com/spraynic/spraynic/config"
	"github.com/spraynic/spraynic/cosim/bridge"
	"github.com/spraynic/spraynic/golden/pathsel"
	"github.com/spraynic/spraynic/scoreboard"
	"github.com/spraynic/spraynic/stimulus/pathtraffic"
)

func init() {
	for _, name := range pathtraffic.Names() {
		prof, _ := pathtraffic.Lookup(name)
		register(Test{Name: "path_" + name, Block: "path_sel", Doc: prof.Doc, ports: pathPorts,
			CyclesFor: func(cfg config.Config) int64 { return prof.TrafficCycles(cfg) + pathtraffic.DrainCycles(prof) },
			run: func(r Request, dut *bridge.Model) (Result, error) {
				g, err := pathsel.New(r.Config)
				if err != nil {
					return Result{}, err
				}
				drv := pathtraffic.New(r.Config, prof, r.Seed, r.Cycles)
				sb := scoreboard.NewPathSel(r.Config, prof.Healthy)
				st, err := Lockstep[pathsel.In, pathsel.Out](dut, g, drv, sb, pathsel.Valid, r.lockstepOptions())
				return Result{
					Cycles:  st.Cycles,
					Packets: drv.Stats.Decisions,
					Detail: fmt.Sprintf("requests=%d feedback=%d failures=%d probes=%d",
						drv.Stats.Requests, drv.Stats.Feedback, sb.Failures, sb.Probes),
				}, err
			}})
	}
}
