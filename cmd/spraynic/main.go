package main

import (
	"fmt"
	"os"

	"github.com/urfave/cli/v2"
)

func main() {
	if err := app().Run(os.Args); err != nil {
		fmt.Fprintln(os.Stderr, "spraynic:", err)
		os.Exit(1)
	}
}

// The command categories of the help text.
const (
	catCosim   = "Co-simulation (RTL in lockstep with the golden models)"
	catSystem  = "End-to-end system simulation"
	catMeasure = "Measurement and coverage"
	catFPGA    = "FPGA"
	catDesign  = "Configuration and design"
)

func app() *cli.App {
	return &cli.App{
		Name:  "spraynic",
		Usage: "RDMA-over-lossy-Ethernet transport core: co-simulation against golden models, regressions, configs",
		Commands: []*cli.Command{
			testsCommand(), runCommand(), regressCommand(), mergeCommand(), replayCommand(),
			simCommand(), genCommand(),
			benchCommand(), measureCommand(), covCommand(),
			synthCommand(), fpgaBaselineCommand(),
			configCommand(), topsCommand(), buildModelsCommand(),
		},
	}
}
