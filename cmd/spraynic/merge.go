package main

import (
	"fmt"
	"slices"

	"github.com/spraynic/spraynic/regress"
	"github.com/urfave/cli/v2"
)

// mergeCommand combines the --json results of the shards of one suite into one table, JSON and JUnit file.
func mergeCommand() *cli.Command {
	return &cli.Command{
		Name:      "merge",
		Category:  catCosim,
		Usage:     "combine shard results (regress --shard i/n --json) into one table; exit 1 on any failure",
		ArgsUsage: "A.json B.json ...",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "junit", Usage: "write the merged JUnit XML here"},
			&cli.StringFlag{Name: "json", Usage: "write the merged results here"},
		},
		Action: func(c *cli.Context) error {
			files := c.Args().Slice()
			if len(files) == 0 {
				return usageErr("merge takes one or more results files (regress --json), got none")
			}
			for i, f := range files {
				if slices.Contains(files[:i], f) {
					return usageErr("merge: %s given twice (allowed: each shard's results once)", f)
				}
			}
			if err := checkOutputs(c, "json", "junit"); err != nil {
				return err
			}
			var parts []regress.Results
			for _, f := range files {
				rs, err := regress.ReadResults(f)
				if err != nil {
					return err
				}
				parts = append(parts, rs)
			}
			rs, err := regress.Merge(parts, files)
			if err != nil {
				return err
			}
			note := ""
			if rs.Shard != "" {
				note = " (partial: " + rs.Shard + ")"
			}
			fmt.Fprintf(c.App.Writer, "merge suite=%s files=%d runs=%d of %d%s\n", rs.Suite, len(parts), len(rs.Runs),
				rs.Total, note)
			return regress.Report(c.App.Writer, rs, c.String("json"), c.String("junit"))
		},
	}
}
