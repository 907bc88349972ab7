package main

import (
	"fmt"

	"github.com/spraynic/spraynic/cosim"
	"github.com/urfave/cli/v2"
)

func testsCommand() *cli.Command {
	return &cli.Command{
		Name:     "tests",
		Category: catCosim,
		Usage:    "list the co-simulation tests",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "config", Value: "default", Usage: "config whose default run lengths are shown"}},
		Action: func(c *cli.Context) error {
			cfg, err := configFlag("config", c.String("config"))
			if err != nil {
				return err
			}
			for _, t := range cosim.Tests() {
				fmt.Fprintf(c.App.Writer, "%-22s %-12s %7d  %s\n", t.Name, t.Block, t.Scaled(cfg, 1), t.Doc)
			}
			return nil
		},
	}
}
