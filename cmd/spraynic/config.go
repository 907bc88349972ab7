package main

import (
	"fmt"
	"slices"
	"strings"

	"github.com/spraynic/spraynic/config"
	"github.com/spraynic/spraynic/english"
	"github.com/spraynic/spraynic/tops"
	"github.com/urfave/cli/v2"
)

func configCommand() *cli.Command {
	return &cli.Command{
		Name:     "config",
		Category: catDesign,
		Usage:    "show, check and list configurations",
		Subcommands: []*cli.Command{
			configShowCommand(),
			configCheckCommand(),
			configParamsCommand(),
			configListCommand(),
		},
	}
}

func configShowCommand() *cli.Command {
	return &cli.Command{
		Name:      "show",
		Usage:     "print a preset (or a file) with every key",
		ArgsUsage: "NAME|FILE",
		Action: func(c *cli.Context) error {
			cfg, err := oneConfigArg(c)
			if err != nil {
				return err
			}
			fmt.Fprint(c.App.Writer, cfg.JSON())
			return nil
		},
	}
}

func configCheckCommand() *cli.Command {
	return &cli.Command{
		Name:      "check",
		Usage:     "validate a user configuration file",
		ArgsUsage: "FILE",
		Action: func(c *cli.Context) error {
			if c.NArg() != 1 {
				return usageErr("config check takes one FILE, got %s", english.Plural(c.NArg(), "argument"))
			}
			cfg, err := config.Load(c.Args().First())
			if err != nil {
				return err
			}
			fmt.Fprintf(c.App.Writer, "%s: ok (hash %s)\n", cfg.Name, cfg.Hash())
			return nil
		},
	}
}

func configParamsCommand() *cli.Command {
	return &cli.Command{
		Name:      "params",
		Usage:     "print the Verilog parameters as flags for a tool",
		ArgsUsage: "NAME|FILE",
		Flags: []cli.Flag{&cli.StringFlag{Name: "format", Value: "verilator",
			Usage: "verilator (-GNAME=V), yosys (chparam -set NAME V) or verilog (#(.NAME(V), ...))"},
			&cli.StringFlag{Name: "top", Usage: "only the parameters this top declares (what its tools accept): " +
				"a top of rtl/manifest.json, or a module with its file rtl/<top>.v (roce_icrc)"}},
		Action: func(c *cli.Context) error {
			cfg, err := oneConfigArg(c)
			if err != nil {
				return err
			}
			params := cfg.Params()
			if top := c.String("top"); top != "" {
				root, m, err := repoManifest()
				if err != nil {
					return err
				}
				if !slices.Contains(m.Names(), top) && !tops.ModuleFile(root, top) {
					return usageErr("--top %q: not a top of rtl/manifest.json%s (tops: %s; or a module with its file "+
						"rtl/<top>.v, such as roce_icrc)", top, closest(top, m.Names()), strings.Join(m.Names(), ", "))
				}
				if params, err = tops.Params(root, top, cfg); err != nil {
					return err
				}
			}
			line, err := config.FormatParams(params, c.String("format"))
			if err != nil {
				return asUsage(err)
			}
			fmt.Fprintln(c.App.Writer, line)
			return nil
		},
	}
}

func configListCommand() *cli.Command {
	return &cli.Command{
		Name:  "list",
		Usage: "list the presets",
		Action: func(c *cli.Context) error {
			for _, n := range config.PresetNames() {
				fmt.Fprintln(c.App.Writer, n)
			}
			return nil
		},
	}
}

func oneConfigArg(c *cli.Context) (config.Config, error) {
	if c.NArg() != 1 {
		return config.Config{}, usageErr("config %s takes one NAME or FILE, got %s", c.Command.Name,
			english.Plural(c.NArg(), "argument"))
	}
	return configFlag("", c.Args().First())
}
