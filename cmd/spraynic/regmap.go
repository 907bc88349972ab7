package main

import (
	"bytes"
	"fmt"
	"os"
	"strings"

	"github.com/spraynic/spraynic/outfile"
	"github.com/spraynic/spraynic/regmap"
	"github.com/spraynic/spraynic/tops"
	"github.com/urfave/cli/v2"
)

func regmapCommand() *cli.Command {
	return &cli.Command{
		Name:     "regmap",
		Category: catDesign,
		Usage: "generate the nic_roce register map's Verilog header and the register table of its doc from " +
			"package regmap (--check: only compare)",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "vh", Value: "rtl/nic_roce_regs.vh",
				Usage: "Verilog header to write (relative paths from the repository root)"},
			&cli.StringFlag{Name: "doc", Value: "docs/nic_roce.md",
				Usage: "document whose register table, between its marker comments, is replaced"},
			&cli.BoolFlag{Name: "check",
				Usage: "write nothing; fail naming each file that differs from what would be written"},
		},
		Action: regmapAction,
	}
}

func regmapAction(c *cli.Context) error {
	root, err := tops.Root()
	if err != nil {
		return err
	}
	m := regmap.NicRoCE()
	if err := m.Check(); err != nil {
		return fmt.Errorf("package regmap: the map breaks its own rules: %w", err)
	}
	vhPath, docPath := inRepo(root, c.String("vh")), inRepo(root, c.String("doc"))
	doc, err := os.ReadFile(docPath)
	if err != nil {
		return fmt.Errorf("--doc: %w", err)
	}
	newDoc, err := regmap.Splice(doc, m.Table())
	if err != nil {
		return fmt.Errorf("--doc %s: %w", c.String("doc"), err)
	}
	outs := []struct {
		flag, path string
		data       []byte
	}{{flag: "vh", path: vhPath, data: m.Verilog()}, {flag: "doc", path: docPath, data: newDoc}}
	if c.Bool("check") {
		var stale []string
		for _, o := range outs {
			if old, err := os.ReadFile(o.path); err != nil || !bytes.Equal(old, o.data) {
				stale = append(stale, c.String(o.flag))
			}
		}
		if stale != nil {
			return fmt.Errorf("%s: not as generated from package regmap; run spraynic regmap", strings.Join(stale, ", "))
		}
		fmt.Fprintln(c.App.Writer, "regmap: both files are as generated")
		return nil
	}
	for _, o := range outs {
		if err := outfile.Check(o.path); err != nil {
			return fmt.Errorf("--%s %s: cannot be written: %w", o.flag, c.String(o.flag), err)
		}
	}
	for _, o := range outs {
		if err := outfile.WriteFile(o.path, o.data); err != nil {
			return fmt.Errorf("--%s: %w", o.flag, err)
		}
		fmt.Fprintf(c.App.Writer, "regmap: wrote %s\n", c.String(o.flag))
	}
	return nil
}
