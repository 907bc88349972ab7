package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/spraynic/spraynic/cosim"
	"github.com/spraynic/spraynic/tops"
	"github.com/urfave/cli/v2"
)

func topsCommand() *cli.Command {
	return &cli.Command{
		Name:     "tops",
		Category: catDesign,
		Usage:    "list the synthesizable tops of rtl/manifest.json, or one top's source files",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "files",
				Usage: "print the source files of this top (paths relative to the repository)"}},
		Action: func(c *cli.Context) error {
			root, m, err := repoManifest()
			if err != nil {
				return err
			}
			if top := c.String("files"); top != "" {
				src, err := m.Sources(root, top)
				if err != nil {
					return err
				}
				var rel []string
				for _, s := range src {
					r, err := filepath.Rel(root, s)
					if err != nil {
						return err
					}
					rel = append(rel, r)
				}
				fmt.Fprintln(c.App.Writer, strings.Join(rel, " "))
				return nil
			}
			for _, t := range m.Tops {
				fmt.Fprintln(c.App.Writer, t.Name)
			}
			return nil
		},
	}
}

func buildModelsCommand() *cli.Command {
	return &cli.Command{
		Name:     "build-models",
		Category: catDesign,
		Usage:    "build (or find in the cache) the Verilator model the tests run of every top (nic_roce: its testbench)",
		Flags:    []cli.Flag{&cli.StringFlag{Name: "config", Value: "default", Usage: "preset name or config file"}},
		Action: func(c *cli.Context) error {
			cfg, err := configFlag("config", c.String("config"))
			if err != nil {
				return err
			}
			root, m, err := repoManifest()
			if err != nil {
				return err
			}
			for _, t := range m.Tops {
				lib, err := cosim.BuildModel(root, t.Name, cfg, os.Stderr)
				if err != nil {
					return err
				}
				fmt.Fprintf(c.App.Writer, "%s config=%s: %s\n", t.Name, cfg.Name, lib)
			}
			return nil
		},
	}
}

// repoManifest finds the repository and reads its rtl/manifest.json.
func repoManifest() (string, tops.Manifest, error) {
	root, err := tops.Root()
	if err != nil {
		return "", tops.Manifest{}, err
	}
	m, err := tops.LoadManifest(root)
	return root, m, err
}
