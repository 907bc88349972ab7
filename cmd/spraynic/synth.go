package main

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/spraynic/spraynic/english"
	"github.com/spraynic/spraynic/fpga"
	"github.com/spraynic/spraynic/tops"
	"github.com/urfave/cli/v2"
)

// synthFlags are the flags synth and fpga-baseline share (fpga-baseline records every top it runs: no --top).
func synthFlags() []cli.Flag {
	return []cli.Flag{
		&cli.IntFlag{Name: "jobs", Value: 1,
			Usage: "(board, top) runs in parallel; 0 is one per CPU"},
		&cli.BoolFlag{Name: "force", Usage: "run the tools even when a report with the same inputs exists"},
		&cli.StringFlag{Name: "out", Value: filepath.Join("build", "fpga"),
			Usage: "output directory, relative to the repository"},
	}
}

func synthCommand() *cli.Command {
	return &cli.Command{
		Name:     "synth",
		Category: catFPGA,
		Usage: "FPGA synthesis (yosys; nextpnr-ice40 + icepack on iCE40) of the tops, with reports and the " +
			"baseline check",
		Description: "Each (board, top) runs verilator --lint-only -Wall, then yosys, then on iCE40 nextpnr-ice40 and " +
			"icepack,\n" +
			"and writes build/fpga/<board>/<top>/report.json. Boards: " + strings.Join(
			fpga.BoardNames(),
			", ",
		) + ".\n" +
			"--check runs the baseline's (board, top) pairs and compares with " + fpga.BaselineFile +
			" (fails on > 5% growth or Fmax drop).",
		Flags: append([]cli.Flag{
			&cli.StringSliceFlag{Name: "board",
				Usage: "board(s): " + strings.Join(fpga.BoardNames(), ", ")},
			&cli.BoolFlag{Name: "all", Usage: "every board"},
			&cli.StringFlag{Name: "config",
				Usage: "preset name or config file instead of each board's preset (not with --check)"},
			&cli.BoolFlag{Name: "check",
				Usage: "compare with " + fpga.BaselineFile + "; without --board: " + fpga.CheckScope()},
			&cli.BoolFlag{Name: "vivado-only", Usage: "only write and tclsh-check the Vivado scripts (boards: " +
				strings.Join(fpga.Names(fpga.VivadoBoards(fpga.Boards)), ", ") + "), no yosys"},
			&cli.StringSliceFlag{Name: "top",
				Usage: "only these tops of rtl/manifest.json (default: every top not marked synth_when_named)"},
		}, synthFlags()...),
		Action: synthAction,
	}
}

func synthAction(c *cli.Context) error {
	p, err := newProject(c)
	if err != nil {
		return err
	}
	if err := checkOutDir("out", outDir(c, p)); err != nil {
		return err
	}
	boards, err := synthBoards(c)
	if err != nil {
		return err
	}
	cfg := c.String("config")
	if c.Bool("vivado-only") {
		return p.Vivado(c.Context, c.App.Writer, outDir(c, p), fpga.VivadoBoards(boards), cfg)
	}
	var results []fpga.Result
	if c.Bool("check") {
		results, err = runCheckFlows(c, p, boards)
	} else {
		results, err = runFlows(c, p, boards, cfg)
	}
	if err != nil {
		return err
	}
	runErr := p.PrintResults(c.App.Writer, results)
	if !c.Bool("check") {
		return runErr
	}
	// the Vivado scripts of every top are generated and tclsh-checked too (seconds, no Vivado needed)
	vivadoErr := p.Vivado(c.Context, c.App.Writer, outDir(c, p), fpga.VivadoBoards(fpga.Boards), "")
	return errors.Join(runErr, vivadoErr, p.Check(c.App.Writer, results, boards))
}

// synthBoards are the boards synth runs: --all, --board, the baseline's with --check, the Vivado ones with
// --vivado-only; it refuses flags that do not go together.
func synthBoards(c *cli.Context) ([]fpga.Board, error) {
	var boards []fpga.Board
	switch {
	case c.Bool("all"):
		boards = fpga.Boards
	case len(c.StringSlice("board")) > 0:
		for _, n := range c.StringSlice("board") {
			b, err := fpga.LookupBoard(n)
			if err != nil {
				return nil, usageErr("--board: %v", err)
			}
			boards = append(boards, b)
		}
	case c.Bool("check"):
		boards = fpga.CheckBoards()
	case c.Bool("vivado-only"):
		boards = fpga.VivadoBoards(fpga.Boards)
	default:
		return nil, usageErr("synth: name a board with --board (allowed: %s), or --all, or --check",
			strings.Join(fpga.BoardNames(), ", "))
	}
	if c.Bool("check") && c.String("config") != "" {
		return nil, usageErr("synth --check compares each board's own preset with the baseline: drop --config")
	}
	if c.Bool("check") && len(c.StringSlice("top")) > 0 {
		return nil, usageErr("synth --check compares every top that has a baseline with %s: drop --top "+
			"(one top alone: --board)", fpga.BaselineFile)
	}
	if c.Bool("vivado-only") {
		if c.Bool("check") {
			return nil, usageErr("synth: --vivado-only and --check do not go together")
		}
		if len(fpga.VivadoBoards(boards)) == 0 {
			return nil, usageErr("synth --vivado-only: no Vivado scripts for %s (only for %s)",
				strings.Join(fpga.Names(boards), ", "), strings.Join(fpga.Names(fpga.VivadoBoards(fpga.Boards)), ", "))
		}
	}
	return boards, nil
}

func fpgaBaselineCommand() *cli.Command {
	return &cli.Command{
		Name:     "fpga-baseline",
		Category: catFPGA,
		Usage: "run the baseline check's (board, top) pairs (" + fpga.CheckScope() + "; every top not marked " +
			"synth_when_named) and rewrite " + fpga.BaselineFile + " and " + fpga.CoreFile,
		Description: "The one command that moves the FPGA baseline: " +
			"`synth --check` fails when a block grows more than 5%\n" +
			"or its iCE40 Fmax drops more than 5% against the file this writes. " +
			"Commit both files with the change that moved them.",
		Flags: synthFlags(),
		Action: func(c *cli.Context) error {
			p, err := newProject(c)
			if err != nil {
				return err
			}
			results, err := runCheckFlows(c, p, fpga.CheckBoards())
			if err != nil {
				return err
			}
			if err := p.PrintResults(c.App.Writer, results); err != nil {
				return fmt.Errorf("baseline not written: %w", err)
			}
			if err := p.WriteBaseline(results); err != nil {
				return err
			}
			fmt.Fprintf(c.App.Writer, "wrote %s (%s) and %s: commit them\n", fpga.BaselineFile,
				english.Plural(len(results), "entry"),
				fpga.CoreFile)
			return nil
		},
	}
}

// newProject is the repository with the --top selection.
func newProject(c *cli.Context) (*fpga.Project, error) {
	root, err := tops.Root()
	if err != nil {
		return nil, err
	}
	return fpga.NewProject(root, c.StringSlice("top"))
}

// outDir is --out, made absolute under the repository.
func outDir(c *cli.Context, p *fpga.Project) string {
	out := c.String("out")
	if !filepath.IsAbs(out) {
		out = filepath.Join(p.Root, out)
	}
	return out
}

// flowOptions are the flow options the flags give.
func flowOptions(c *cli.Context, p *fpga.Project) fpga.Options {
	return fpga.Options{OutDir: outDir(c, p), Force: c.Bool("force"), Log: c.App.ErrWriter}
}

// runCheckFlows runs the jobs of the baseline check on boards (Board.Checks).
func runCheckFlows(c *cli.Context, p *fpga.Project, boards []fpga.Board) ([]fpga.Result, error) {
	return p.RunCheck(c.Context, flowOptions(c, p), boards, c.Int("jobs"))
}

// runFlows runs the (board, top) jobs of the project as the flags say.
func runFlows(c *cli.Context, p *fpga.Project, boards []fpga.Board, cfg string) ([]fpga.Result, error) {
	return p.Run(c.Context, flowOptions(c, p), boards, cfg, c.Int("jobs"))
}
