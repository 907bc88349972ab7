package regress

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/spraynic/spraynic/cosim"
)

// SlurmJob is a regression submitted as a Slurm job array: task i (1..Shards) runs Command with
// --shard i/Shards --json Dir/shard-i.json.
type SlurmJob struct {
	// Name is the job name; Partition, Account and Time go to #SBATCH lines when set.
	Name, Partition, Account, Time string
	// Shards is the number of array tasks; CPUs per task (0: Slurm's default).
	Shards, CPUs int
	// Dir is a directory every node sees: the script, the task logs and the shard results go there.
	Dir string
	// Root is the repository (the tasks' working directory and SPRAYNIC_ROOT).
	Root string
	// Command is the regress command line without --shard and --json (argv[0] an absolute path).
	Command []string
}

// shellQuote quotes s for bash.
func shellQuote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r == '/' || r == '-' || r == '_' || r == '.' || r == ':' || r == '=' ||
			r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z')
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// ShardFile is the results file of array task i.
func (j SlurmJob) ShardFile(i int) string {
	return filepath.Join(j.Dir, fmt.Sprintf("shard-%d.json", i))
}

// Script is the sbatch job-array script.
func (j SlurmJob) Script() string {
	var b strings.Builder
	b.WriteString("#!/bin/bash\n")
	fmt.Fprintf(&b, "#SBATCH --job-name=%s\n#SBATCH --array=1-%d\n", j.Name, j.Shards)
	fmt.Fprintf(&b, "#SBATCH --output=%s\n", filepath.Join(j.Dir, "shard-%a.log"))
	for _, kv := range [][2]string{{"partition", j.Partition}, {"account", j.Account}, {"time", j.Time}} {
		if kv[1] != "" {
			fmt.Fprintf(&b, "#SBATCH --%s=%s\n", kv[0], kv[1])
		}
	}
	if j.CPUs > 0 {
		fmt.Fprintf(&b, "#SBATCH --cpus-per-task=%d\n", j.CPUs)
	}
	b.WriteString("# Written by spraynic regress --slurm: one array task per shard of the suite.\nset -euo pipefail\n")
	fmt.Fprintf(&b, "cd %s\nexport SPRAYNIC_ROOT=%s\n", shellQuote(j.Root), shellQuote(j.Root))
	var q []string
	for _, a := range j.Command {
		q = append(q, shellQuote(a))
	}
	fmt.Fprintf(&b, "exec %s --shard \"${SLURM_ARRAY_TASK_ID}/%d\" --json %s\n", strings.Join(q, " "), j.Shards,
		shellQuote(j.Dir)+"/shard-\"${SLURM_ARRAY_TASK_ID}\".json")
	return b.String()
}

// Run writes the script to Dir, submits it with sbatch, polls squeue every poll until no task of the job is left
// (at most wait), and reads the shard results. A missing or unreadable shard is an error naming its log.
func (j SlurmJob) Run(ctx context.Context, log io.Writer, poll, wait time.Duration) ([]Results, []string, error) {
	if _, err := exec.LookPath("sbatch"); err != nil {
		return nil, nil, fmt.Errorf("slurm: sbatch is not on PATH: %w", err)
	}
	if err := os.MkdirAll(j.Dir, 0o755); err != nil {
		return nil, nil, fmt.Errorf("slurm: shared dir: %w", err)
	}
	for i := 1; i <= j.Shards; i++ {
		if err := os.Remove(j.ShardFile(i)); err != nil && !os.IsNotExist(err) {
			return nil, nil, err
		}
	}
	script := filepath.Join(j.Dir, j.Name+".sbatch")
	if err := os.WriteFile(script, []byte(j.Script()), 0o755); err != nil {
		return nil, nil, fmt.Errorf("slurm: %w", err)
	}
	out, err := exec.CommandContext(ctx, "sbatch", "--parsable", script).CombinedOutput()
	if err != nil {
		return nil, nil, fmt.Errorf("slurm: sbatch %s: %w: %s", script, err, bytes.TrimSpace(out))
	}
	id, _, _ := strings.Cut(strings.TrimSpace(string(out)), ";")
	if _, err := strconv.Atoi(id); err != nil {
		return nil, nil, fmt.Errorf("slurm: sbatch printed %q, not a job id", out)
	}
	fmt.Fprintf(log, "slurm: submitted job %s (%d array tasks), script %s, logs %s/shard-*.log\n", id, j.Shards, script,
		j.Dir)
	deadline := time.Now().Add(wait)
	last := ""
	for {
		out, err := exec.CommandContext(ctx, "squeue", "-h", "-j", id, "-o", "%T").Output()
		if err != nil {
			// squeue fails for a job id it has already purged: the job is over.
			break
		}
		states := strings.Fields(string(out))
		if len(states) == 0 {
			break
		}
		if s := summarise(states); s != last {
			fmt.Fprintf(log, "slurm: job %s: %s\n", id, s)
			last = s
		}
		if time.Now().After(deadline) {
			return nil, nil, fmt.Errorf("slurm: job %s still has %d tasks after %s (scancel %s to stop it)", id,
				len(states), wait, id)
		}
		select {
		case <-ctx.Done():
			return nil, nil, ctx.Err()
		case <-time.After(poll):
		}
	}
	var parts []Results
	var names []string
	for i := 1; i <= j.Shards; i++ {
		f := j.ShardFile(i)
		rs, err := ReadResults(f)
		if err != nil {
			return nil, nil, fmt.Errorf("slurm: job %s task %d left no results (see %s): %w", id, i,
				filepath.Join(j.Dir, fmt.Sprintf("shard-%d.log", i)), err)
		}
		parts = append(parts, rs)
		names = append(names, f)
	}
	return parts, names, nil
}

// summarise counts task states: "2 RUNNING, 1 PENDING".
func summarise(states []string) string {
	counts := map[string]int{}
	var order []string
	for _, s := range states {
		if counts[s] == 0 {
			order = append(order, s)
		}
		counts[s]++
	}
	var parts []string
	for _, s := range order {
		parts = append(parts, fmt.Sprintf("%d %s", counts[s], s))
	}
	return strings.Join(parts, ", ")
}

// SlurmOptions steer a regression submitted as a Slurm job array.
type SlurmOptions struct {
	// Partition, Account and Time go to the #SBATCH lines when set; Shards is the number of array tasks.
	Partition, Account, Time string
	Shards                   int
	// CPUs per task (0: Slurm's default).
	CPUs int
	// SharedDir is a directory every node sees (default: build/slurm/<suite> under the repository).
	SharedDir string
	// Wait is how long to wait for the job at most; Poll how often squeue is asked.
	Wait, Poll time.Duration
	// Command is the regress command line each task runs, without --shard and --json (argv[0] absolute).
	Command []string
	// Log receives model builds.
	Log io.Writer
}

// RunSlurm builds every model the requests need once (the tasks only load them from the shared cache), submits
// the job array, waits for it and merges the shards' results.
func RunSlurm(ctx context.Context, w io.Writer, root string, s Suite, reqs []cosim.Request, opt SlurmOptions) (Results,
	error) {
	if opt.Shards < 1 || opt.Shards > MaxShards {
		return Results{}, fmt.Errorf("--shards %d: must be in 1..%d", opt.Shards, MaxShards)
	}
	dir := opt.SharedDir
	if dir == "" {
		dir = filepath.Join(root, "build", "slurm", s.Name)
	}
	dir, err := filepath.Abs(dir)
	if err != nil {
		return Results{}, err
	}
	job := SlurmJob{Name: "spraynic-" + s.Name, Partition: opt.Partition, Account: opt.Account, Time: opt.Time,
		Shards: min(opt.Shards, len(reqs)), Dir: dir, Root: root, Command: opt.Command, CPUs: opt.CPUs}
	for i := range reqs {
		reqs[i].Log = opt.Log
	}
	if err := BuildModels(reqs); err != nil {
		return Results{}, err
	}
	parts, names, err := job.Run(ctx, w, opt.Poll, opt.Wait)
	if err != nil {
		return Results{}, err
	}
	return Merge(parts, names)
}
