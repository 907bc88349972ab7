package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/spraynic/spraynic/config"
	"github.com/spraynic/spraynic/fpga"
	"github.com/spraynic/spraynic/tops"
	"github.com/urfave/cli/v2"
)

// synthFlags are the flags synth and fpga-baseline share.
func synthFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringSliceFlag{Name: "top", EnvVars: []string{"SPRAYNIC_TOP"},
			Usage: "only these tops of rtl/manifest.json (default: every top)"},
		&cli.IntFlag{Name: "jobs", Value: 1, EnvVars: []string{"SPRAYNIC_JOBS"},
			Usage: "(board, top) runs in parallel; 0 is one per CPU"},
		&cli.BoolFlag{Name: "force", Usage: "run the tools even when a report with the same inputs exists"},
		&cli.StringFlag{Name: "out", Value: filepath.Join("build", "fpga"), Usage: "output directory, relative to the repository"},
	}
}

func synthCommand() *cli.Command {
	return &cli.Command{
		Name:  "synth",
		Usage: "FPGA synthesis (yosys; nextpnr-ice40 + icepack on iCE40) of every top, with reports and the baseline check",
		Description: "Each (board, top) runs verilator --lint-only -Wall, then yosys, then on iCE40 nextpnr-ice40 and icepack,\n" +
			"and writes build/fpga/<board>/<top>/report.json. Boards: " + strings.Join(fpga.BoardNames(), ", ") + ".\n" +
			"--check runs the baseline boards and compares with " + fpga.BaselineFile + " (fails on > 5% growth or Fmax drop).",
		Flags: append([]cli.Flag{
			&cli.StringSliceFlag{Name: "board", EnvVars: []string{"SPRAYNIC_BOARD"},
				Usage: "board(s): " + strings.Join(fpga.BoardNames(), ", ")},
			&cli.BoolFlag{Name: "all", Usage: "every board"},
			&cli.StringFlag{Name: "config", EnvVars: []string{"SPRAYNIC_CONFIG"},
				Usage: "preset name or config file instead of each board's preset (not with --check)"},
			&cli.BoolFlag{Name: "check", Usage: "compare with " + fpga.BaselineFile + " (default boards: the baseline's)"},
			&cli.BoolFlag{Name: "vivado-only", Usage: "only write and tclsh-check the Vivado scripts (boards: " +
				strings.Join(boardNames(vivadoBoards(fpga.Boards)), ", ") + "), no yosys"},
		}, synthFlags()...),
		Action: func(c *cli.Context) error {
			env, err := newSynthEnv(c)
			if err != nil {
				return err
			}
			var boards []fpga.Board
			switch {
			case c.Bool("all"):
				boards = fpga.Boards
			case len(c.StringSlice("board")) > 0:
				for _, n := range c.StringSlice("board") {
					b, err := fpga.LookupBoard(n)
					if err != nil {
						return err
					}
					boards = append(boards, b)
				}
			case c.Bool("check"):
				boards = fpga.CheckBoards()
			case c.Bool("vivado-only"):
				boards = vivadoBoards(fpga.Boards)
			default:
				return fmt.Errorf("synth: name a board with --board (allowed: %s), or --all, or --check", strings.Join(fpga.BoardNames(), ", "))
			}
			if c.Bool("check") && c.String("config") != "" {
				return fmt.Errorf("synth --check compares each board's own preset with the baseline: drop --config")
			}
			if c.Bool("vivado-only") {
				if c.Bool("check") {
					return fmt.Errorf("synth: --vivado-only and --check do not go together")
				}
				if len(vivadoBoards(boards)) == 0 {
					return fmt.Errorf("synth --vivado-only: no Vivado scripts for %s (only for %s)",
						strings.Join(boardNames(boards), ", "), strings.Join(boardNames(vivadoBoards(fpga.Boards)), ", "))
				}
				return env.vivado(c, vivadoBoards(boards), c.String("config"))
			}
			results, err := env.run(c, boards, c.String("config"))
			if err != nil {
				return err
			}
			runErr := printResults(c.App.Writer, env.root, results)
			if !c.Bool("check") {
				return runErr
			}
			// the Vivado scripts of every top are generated and tclsh-checked too (seconds, no Vivado needed)
			vivadoErr := env.vivado(c, vivadoBoards(fpga.Boards), "")
			checkErr := env.check(c.App.Writer, results, boards)
			return errors.Join(runErr, vivadoErr, checkErr)
		},
	}
}

func fpgaBaselineCommand() *cli.Command {
	return &cli.Command{
		Name: "fpga-baseline",
		Usage: "run the baseline boards (" + strings.Join(boardNames(fpga.CheckBoards()), ", ") + ") for every top and rewrite " +
			fpga.BaselineFile + " and " + fpga.CoreFile,
		Description: "The one command that moves the FPGA baseline: `synth --check` fails when a block grows more than 5%\n" +
			"or its iCE40 Fmax drops more than 5% against the file this writes. Commit both files with the change that moved them.",
		Flags: synthFlags(),
		Action: func(c *cli.Context) error {
			if len(c.StringSlice("top")) > 0 {
				return fmt.Errorf("fpga-baseline records every top of rtl/manifest.json: drop --top")
			}
			env, err := newSynthEnv(c)
			if err != nil {
				return err
			}
			boards := fpga.CheckBoards()
			results, err := env.run(c, boards, "")
			if err != nil {
				return err
			}
			if err := printResults(c.App.Writer, env.root, results); err != nil {
				return fmt.Errorf("baseline not written: %w", err)
			}
			var reports []fpga.Report
			for _, r := range results {
				reports = append(reports, r.Report)
			}
			path := filepath.Join(env.root, fpga.BaselineFile)
			if err := fpga.WriteBaseline(path, fpga.NewBaseline(reports)); err != nil {
				return err
			}
			core, err := env.core()
			if err != nil {
				return err
			}
			if err := os.WriteFile(filepath.Join(env.root, fpga.CoreFile), []byte(core), 0o644); err != nil {
				return err
			}
			fmt.Fprintf(c.App.Writer, "wrote %s (%d entries) and %s: commit them\n", fpga.BaselineFile, len(reports), fpga.CoreFile)
			return nil
		},
	}
}

// synthEnv is the repository and manifest a synth command works on.
type synthEnv struct {
	// root is the repository root.
	root string
	// manifest is rtl/manifest.json.
	manifest tops.Manifest
	// tops are the selected top names.
	tops []string
}

func newSynthEnv(c *cli.Context) (*synthEnv, error) {
	root, err := tops.Root()
	if err != nil {
		return nil, err
	}
	if root, err = filepath.Abs(root); err != nil {
		return nil, err
	}
	m, err := tops.LoadManifest(root)
	if err != nil {
		return nil, err
	}
	env := &synthEnv{root: root, manifest: m}
	if sel := c.StringSlice("top"); len(sel) > 0 {
		for _, t := range sel {
			if _, err := m.Sources(root, t); err != nil {
				return nil, fmt.Errorf("--top %s: %w (tops: %s)", t, err, strings.Join(topNames(m), ", "))
			}
		}
		env.tops = sel
	} else {
		env.tops = topNames(m)
	}
	if len(env.tops) == 0 {
		return nil, fmt.Errorf("rtl/manifest.json lists no tops")
	}
	return env, nil
}

// top resolves one top under cfg: its files from the manifest, its parameters from the config.
func (e *synthEnv) top(name string, cfg config.Config) (fpga.Top, error) {
	files, err := e.manifest.Sources(e.root, name)
	if err != nil {
		return fpga.Top{}, err
	}
	params, err := tops.Params(e.root, name, cfg)
	if err != nil {
		return fpga.Top{}, err
	}
	return fpga.Top{Name: name, Files: files, Params: params}, nil
}

// jobs builds the (board, top) jobs, configOverride replacing each board's preset when set.
func (e *synthEnv) jobs(boards []fpga.Board, configOverride string) ([]fpga.Job, error) {
	var jobs []fpga.Job
	for _, b := range boards {
		name := b.Config
		if configOverride != "" {
			name = configOverride
		}
		cfg, err := config.Resolve(name)
		if err != nil {
			return nil, fmt.Errorf("board %s: %w", b.Name, err)
		}
		for _, t := range e.tops {
			top, err := e.top(t, cfg)
			if err != nil {
				return nil, err
			}
			jobs = append(jobs, fpga.Job{Board: b, Top: top, Config: cfg})
		}
	}
	return jobs, nil
}

// outDir is --out, made absolute under the repository.
func (e *synthEnv) outDir(c *cli.Context) string {
	out := c.String("out")
	if !filepath.IsAbs(out) {
		out = filepath.Join(e.root, out)
	}
	return out
}

// run builds the (board, top) jobs and runs them.
func (e *synthEnv) run(c *cli.Context, boards []fpga.Board, configOverride string) ([]fpga.Result, error) {
	jobs, err := e.jobs(boards, configOverride)
	if err != nil {
		return nil, err
	}
	return fpga.RunJobs(c.Context, fpga.Options{Root: e.root, OutDir: e.outDir(c), Force: c.Bool("force"), Log: c.App.ErrWriter},
		jobs, c.Int("jobs")), nil
}

// vivado writes and tclsh-checks the Vivado scripts of every selected top on the boards, printing their paths.
func (e *synthEnv) vivado(c *cli.Context, boards []fpga.Board, configOverride string) error {
	jobs, err := e.jobs(boards, configOverride)
	if err != nil {
		return err
	}
	for _, j := range jobs {
		files, err := fpga.VivadoScripts(c.Context, filepath.Join(e.outDir(c), j.Board.Name, j.Top.Name), j)
		if err != nil {
			return fmt.Errorf("%s %s: %w", j.Board.Name, j.Top.Name, err)
		}
		for i, f := range files {
			if rel, err := filepath.Rel(e.root, f); err == nil {
				files[i] = rel
			}
		}
		fmt.Fprintf(c.App.Writer, "vivado scripts for %s on %s (config %s), checked with tclsh (Vivado not run): %s\n",
			j.Top.Name, j.Board.Name, j.Config.Name, strings.Join(files, " "))
	}
	return nil
}

// vivadoBoards keeps the boards that have Vivado scripts.
func vivadoBoards(bs []fpga.Board) []fpga.Board {
	var out []fpga.Board
	for _, b := range bs {
		if b.Vivado {
			out = append(out, b)
		}
	}
	return out
}

// check compares the results with the baseline and the core file with the manifest, printing a table.
func (e *synthEnv) check(w io.Writer, results []fpga.Result, boards []fpga.Board) error {
	base, err := fpga.ReadBaseline(filepath.Join(e.root, fpga.BaselineFile))
	if err != nil {
		return err
	}
	var reports []fpga.Report
	for _, r := range results {
		if r.Err == nil {
			reports = append(reports, r.Report)
		}
	}
	findings := fpga.Compare(base, reports, boardNames(boards))
	fmt.Fprintf(w, "\nFPGA baseline check against %s (fails on > %.0f%% growth or Fmax drop)\n", fpga.BaselineFile, fpga.Tolerance*100)
	fmt.Fprintf(w, "%-13s %-14s %-8s %10s %10s  %s\n", "board", "top", "kind", "baseline", "now", "verdict")
	for _, f := range findings {
		if f.Verdict != fpga.Same || f.Kind == "fmax_mhz" || f.Kind == "lut" || f.Kind == "tools" {
			fmt.Fprintln(w, f)
		}
	}
	var errs []error
	if fpga.Failed(findings) {
		errs = append(errs, fmt.Errorf("FPGA baseline check failed: see the FAIL lines; if the change is intended, run `make fpga-baseline` and commit %s", fpga.BaselineFile))
	}
	core, err := e.core()
	if err != nil {
		return errors.Join(append(errs, err)...)
	}
	have, err := os.ReadFile(filepath.Join(e.root, fpga.CoreFile))
	if err != nil || string(have) != core {
		errs = append(errs, fmt.Errorf("%s is missing or stale against rtl/manifest.json and the presets: `make fpga-baseline` rewrites it", fpga.CoreFile))
	}
	if len(errs) == 0 {
		fmt.Fprintf(w, "FPGA baseline check passed (%d comparisons, %s up to date)\n", len(findings), fpga.CoreFile)
	}
	return errors.Join(errs...)
}

// core renders spraynic.core for every top of the manifest.
func (e *synthEnv) core() (string, error) {
	def, err := config.Preset("default")
	if err != nil {
		return "", err
	}
	var tops []fpga.CoreTop
	for _, t := range topNames(e.manifest) {
		top, err := e.top(t, def)
		if err != nil {
			return "", err
		}
		ct := fpga.CoreTop{Top: top, Boards: map[string][]config.Param{}}
		for _, b := range fpga.Boards {
			cfg, err := config.Preset(b.Config)
			if err != nil {
				return "", fmt.Errorf("board %s: %w", b.Name, err)
			}
			bt, err := e.top(t, cfg)
			if err != nil {
				return "", err
			}
			ct.Boards[b.Name] = bt.Params
		}
		tops = append(tops, ct)
	}
	return fpga.Core(e.root, tops)
}

// printResults prints each report's summary and returns the failures joined.
func printResults(w io.Writer, root string, results []fpga.Result) error {
	var errs []error
	for _, r := range results {
		if r.Err != nil {
			errs = append(errs, fmt.Errorf("%s %s: %w", r.Job.Board.Name, r.Job.Top.Name, r.Err))
			continue
		}
		path := filepath.Join(r.Dir, fpga.ReportFile)
		if rel, err := filepath.Rel(root, path); err == nil {
			path = rel
		}
		fmt.Fprintln(w)
		fmt.Fprint(w, fpga.Summary(r.Report, path))
	}
	return errors.Join(errs...)
}

// topNames lists the tops of the FPGA flows: every top of the manifest (one too big for a device is a
// does-not-fit report, not a reason to leave it out).
func topNames(m tops.Manifest) []string {
	var names []string
	for _, t := range m.Tops {
		names = append(names, t.Name)
	}
	return names
}

func boardNames(bs []fpga.Board) []string {
	var names []string
	for _, b := range bs {
		names = append(names, b.Name)
	}
	return names
}
