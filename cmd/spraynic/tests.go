package main

import (
	"fmt"
	"text/tabwriter"

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
			tw := tabwriter.NewWriter(c.App.Writer, 0, 0, 2, ' ', 0)
			fmt.Fprintf(tw, "test\tblock\tcycles (%s)\twhat it does\n", cfg.Name)
			for _, t := range cosim.Tests() {
				fmt.Fprintf(tw, "%s\t%s\t%d\t%s\n", t.Name, t.Block, t.Scaled(cfg, 1), t.Doc)
			}
			return tw.Flush()
		},
	}
}
