package fpga

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/spraynic/spraynic/config"
	"github.com/spraynic/spraynic/tops"
)

// Project is the repository and the tops the flows run on.
type Project struct {
	// Root is the repository root (absolute).
	Root string
	// Manifest is rtl/manifest.json.
	Manifest tops.Manifest
	// Tops are the selected top names that yosys runs: every top of SynthNames when none is selected.
	Tops []string
	// Scripts are the selected top names whose Vivado scripts are written: every top when none is selected.
	Scripts []string
}

// NewProject reads the manifest under root; selected names the tops to run (when empty, yosys runs every top
// but those marked synth_when_named, and the Vivado scripts are written for every top).
func NewProject(root string, selected []string) (*Project, error) {
	root, err := filepath.Abs(root)
	if err != nil {
		return nil, err
	}
	m, err := tops.LoadManifest(root)
	if err != nil {
		return nil, err
	}
	p := &Project{Root: root, Manifest: m, Tops: selected, Scripts: selected}
	for _, t := range selected {
		if _, err := m.Sources(root, t); err != nil {
			return nil, fmt.Errorf("--top %s: %w (tops: %s)", t, err, strings.Join(m.Names(), ", "))
		}
	}
	if len(selected) == 0 {
		p.Tops = m.SynthNames()
		p.Scripts = m.Names()
	}
	if len(p.Tops) == 0 {
		return nil, fmt.Errorf("rtl/manifest.json lists no tops")
	}
	return p, nil
}

// Top resolves one top under cfg: its files from the manifest, its parameters from the config.
func (p *Project) Top(name string, cfg config.Config) (Top, error) {
	files, err := p.Manifest.Sources(p.Root, name)
	if err != nil {
		return Top{}, err
	}
	params, err := tops.Params(p.Root, name, cfg)
	if err != nil {
		return Top{}, err
	}
	return Top{Name: name, Files: files, Params: params}, nil
}

// Jobs are the (board, top) jobs of the selected tops, configOverride replacing each board's preset when set.
func (p *Project) Jobs(boards []Board, configOverride string) ([]Job, error) {
	return p.jobs(p.Tops, boards, configOverride)
}

// jobs are the (board, top) jobs of the named tops.
func (p *Project) jobs(names []string, boards []Board, configOverride string) ([]Job, error) {
	var jobs []Job
	for _, b := range boards {
		name := b.Config
		if configOverride != "" {
			name = configOverride
		}
		cfg, err := config.Resolve(name)
		if err != nil {
			return nil, fmt.Errorf("board %s: %w", b.Name, err)
		}
		for _, t := range names {
			top, err := p.Top(t, cfg)
			if err != nil {
				return nil, err
			}
			jobs = append(jobs, Job{Board: b, Top: top, Config: cfg})
		}
	}
	return jobs, nil
}

// Run builds the (board, top) jobs and runs them, parallel at a time.
func (p *Project) Run(ctx context.Context, o Options, boards []Board, configOverride string, parallel int) ([]Result,
	error) {
	jobs, err := p.Jobs(boards, configOverride)
	if err != nil {
		return nil, err
	}
	o.Root = p.Root
	return RunJobs(ctx, o, jobs, parallel), nil
}

// RunCheck runs the jobs of the baseline check on boards, each board's own preset: the selected tops the board
// checks (Board.Checks).
func (p *Project) RunCheck(ctx context.Context, o Options, boards []Board, parallel int) ([]Result, error) {
	jobs, err := p.CheckJobs(boards)
	if err != nil {
		return nil, err
	}
	o.Root = p.Root
	return RunJobs(ctx, o, jobs, parallel), nil
}

// CheckJobs are the jobs of the baseline check on boards: the selected tops each board checks. A board that checks
// none of them is an error naming what the check covers.
func (p *Project) CheckJobs(boards []Board) ([]Job, error) {
	all, err := p.Jobs(boards, "")
	if err != nil {
		return nil, err
	}
	var jobs []Job
	for _, b := range boards {
		n := len(jobs)
		for _, j := range all {
			if j.Board.Name == b.Name && b.Checks(j.Top.Name) {
				jobs = append(jobs, j)
			}
		}
		if len(jobs) == n {
			return nil, fmt.Errorf("board %s: the baseline check covers none of its tops (it covers %s)", b.Name,
				CheckScope())
		}
	}
	return jobs, nil
}

// Vivado writes and tclsh-checks the Vivado scripts of the selected tops (Scripts) on the boards under outDir,
// printing their paths to w.
func (p *Project) Vivado(ctx context.Context, w io.Writer, outDir string, boards []Board, configOverride string) error {
	jobs, err := p.jobs(p.Scripts, boards, configOverride)
	if err != nil {
		return err
	}
	for _, j := range jobs {
		files, err := VivadoScripts(ctx, filepath.Join(outDir, j.Board.Name, j.Top.Name), j)
		if err != nil {
			return fmt.Errorf("%s %s: %w", j.Board.Name, j.Top.Name, err)
		}
		for i, f := range files {
			if rel, err := filepath.Rel(p.Root, f); err == nil {
				files[i] = rel
			}
		}
		fmt.Fprintf(w, "vivado scripts for %s on %s (config %s), checked with tclsh (Vivado not run): %s\n",
			j.Top.Name, j.Board.Name, j.Config.Name, strings.Join(files, " "))
	}
	return nil
}

// VivadoBoards keeps the boards that have Vivado scripts.
func VivadoBoards(bs []Board) []Board {
	var out []Board
	for _, b := range bs {
		if b.Vivado {
			out = append(out, b)
		}
	}
	return out
}

// Names lists the boards' names.
func Names(bs []Board) []string {
	var names []string
	for _, b := range bs {
		names = append(names, b.Name)
	}
	return names
}

// Check compares the results with the baseline and the core file with the manifest, printing a table to w; it
// fails on a finding beyond the tolerance or a stale core file.
func (p *Project) Check(w io.Writer, results []Result, boards []Board) error {
	base, err := ReadBaseline(filepath.Join(p.Root, BaselineFile))
	if err != nil {
		return err
	}
	var reports []Report
	for _, r := range results {
		if r.Err == nil {
			reports = append(reports, r.Report)
		}
	}
	findings := Compare(base, reports, Names(boards))
	fmt.Fprintf(w, "\nFPGA baseline check against %s (fails on > %.0f%% growth or Fmax drop)\n", BaselineFile,
		Tolerance*100)
	fmt.Fprintf(w, "%-13s %-14s %-8s %10s %10s  %s\n", "board", "top", "kind", "baseline", "now", "verdict")
	for _, f := range findings {
		if f.Verdict != Same || f.Kind == "fmax_mhz" || f.Kind == "lut" || f.Kind == "tools" {
			fmt.Fprintln(w, f)
		}
	}
	var errs []error
	if Failed(findings) {
		errs = append(errs, fmt.Errorf("FPGA baseline check failed: see the FAIL lines; if the change is intended, "+
			"run `make fpga-baseline` and commit %s", BaselineFile))
	}
	if err := p.checkCore(); err != nil {
		errs = append(errs, err)
	}
	if len(errs) == 0 {
		fmt.Fprintf(w, "FPGA baseline check passed (%d comparisons, %s up to date)\n", len(findings), CoreFile)
	}
	return errors.Join(errs...)
}

// checkCore fails when the committed core file differs from the one the manifest and presets give.
func (p *Project) checkCore() error {
	core, err := p.Core()
	if err != nil {
		return err
	}
	have, err := os.ReadFile(filepath.Join(p.Root, CoreFile))
	if err != nil || string(have) != core {
		return fmt.Errorf("%s is missing or stale against rtl/manifest.json and the presets: `make fpga-baseline` "+
			"rewrites it", CoreFile)
	}
	return nil
}

// Core renders spraynic.core for every top of the manifest.
func (p *Project) Core() (string, error) {
	def, err := config.Preset("default")
	if err != nil {
		return "", err
	}
	var cts []CoreTop
	for _, t := range p.Manifest.Names() {
		top, err := p.Top(t, def)
		if err != nil {
			return "", err
		}
		ct := CoreTop{Top: top, Boards: map[string][]config.Param{}}
		for _, b := range Boards {
			cfg, err := config.Preset(b.Config)
			if err != nil {
				return "", fmt.Errorf("board %s: %w", b.Name, err)
			}
			bt, err := p.Top(t, cfg)
			if err != nil {
				return "", err
			}
			ct.Boards[b.Name] = bt.Params
		}
		cts = append(cts, ct)
	}
	return Core(p.Root, cts)
}

// WriteBaseline rewrites the baseline from the results and the core file from the manifest.
func (p *Project) WriteBaseline(results []Result) error {
	var reports []Report
	for _, r := range results {
		reports = append(reports, r.Report)
	}
	if err := WriteBaseline(filepath.Join(p.Root, BaselineFile), NewBaseline(reports)); err != nil {
		return err
	}
	core, err := p.Core()
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(p.Root, CoreFile), []byte(core), 0o644)
}

// PrintResults prints each report's summary to w and returns the failures joined.
func (p *Project) PrintResults(w io.Writer, results []Result) error {
	var errs []error
	for _, r := range results {
		if r.Err != nil {
			errs = append(errs, fmt.Errorf("%s %s: %w", r.Job.Board.Name, r.Job.Top.Name, r.Err))
			continue
		}
		path := filepath.Join(r.Dir, ReportFile)
		if rel, err := filepath.Rel(p.Root, path); err == nil {
			path = rel
		}
		fmt.Fprintln(w)
		fmt.Fprint(w, Summary(r.Report, path))
	}
	return errors.Join(errs...)
}
