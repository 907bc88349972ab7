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

func app() *cli.App {
	return &cli.App{
		Name:  "spraynic",
		Usage: "RDMA-over-lossy-Ethernet transport core: co-simulation against golden models, regressions, configs",
		Commands: []*cli.Command{
			configCommand(),
			testsCommand(),
			runCommand(),
			regressCommand(),
			benchCommand(),
			measureCommand(),
			simCommand(),
			genCommand(),
			replayCommand(),
			mergeCommand(),
			synthCommand(),
			fpgaBaselineCommand(),
			covCommand(),
			topsCommand(),
			buildModelsCommand(),
		},
	}
}
