package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/spraynic/spraynic/cosim"
	"github.com/spraynic/spraynic/outfile"
	"github.com/urfave/cli/v2"
)

// checkOutputs checks the output files that flags name, before any work: each can be written (its directory
// exists or can be created, and takes files), and no two flags name the same file.
func checkOutputs(c *cli.Context, flags ...string) error {
	seen := map[string]string{}
	for _, f := range flags {
		p := c.String(f)
		if p == "" {
			continue
		}
		if err := outfile.Check(p); err != nil {
			return fmt.Errorf("--%s %s: cannot be written: %w", f, p, err)
		}
		if st, err := os.Stat(p); err == nil && !st.Mode().IsRegular() {
			continue // a device such as /dev/null takes any number of outputs
		}
		abs, err := filepath.Abs(p)
		if err != nil {
			return err
		}
		if other, ok := seen[abs]; ok {
			return usageErr("--%s and --%s name the same file %s (allowed: a file of its own for each)", other, f, p)
		}
		seen[abs] = f
	}
	return nil
}

// checkOutDir checks the output directory dir of --flag before any work: it is a directory, or can be created,
// and takes files.
func checkOutDir(flag, dir string) error {
	if err := outfile.Check(filepath.Join(dir, "x")); err != nil {
		return fmt.Errorf("--%s %s: cannot be written: %w", flag, dir, err)
	}
	return nil
}

// waveform starts the FST file of req.Waves: the model writes a temporary file beside it, which finish renames
// into place when the model wrote anything (a failing run's waveform is what --waves is for), or removes.
func waveform(req *cosim.Request) (finish func() error, err error) {
	if req.Waves == "" {
		return func() error { return nil }, nil
	}
	o, err := outfile.Create(req.Waves)
	if err != nil {
		return nil, err
	}
	req.Waves = o.Name()
	return func() error {
		if st, err := os.Stat(o.Name()); err != nil || st.Size() == 0 {
			o.Abort()
			return nil
		}
		return o.Commit()
	}, nil
}

// writeJSON writes v to the output file path as indented JSON.
func writeJSON(path string, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	return outfile.WriteFile(path, append(b, '\n'))
}

// stopGrace is how long a command that watches its context gets to stop on its own after a signal.
const stopGrace = time.Second

// interruptible runs work and returns its error; when a signal cancels ctx first it removes every unfinished
// output file and returns the signal as the error (most work, such as a cgo call into Verilator, cannot be
// stopped: main returns and the process ends with it).
func interruptible(ctx context.Context, work func() error) error {
	done := make(chan error, 1)
	go func() { done <- work() }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
	}
	select {
	case <-done:
	case <-time.After(stopGrace):
	}
	outfile.AbortAll()
	return context.Cause(ctx)
}
