package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/debug"
	"syscall"

	"github.com/urfave/cli/v2"
)

// version is the release this source belongs to: the latest one in CHANGELOG.md.
const version = "0.1.0"

// Exit statuses: success, a failure (a run, a check, an I/O error), a usage error.
const (
	exitOK      = 0
	exitFailure = 1
	exitUsage   = 2
)

func main() {
	os.Exit(run(os.Args, os.Stdout, os.Stderr))
}

// run runs the application on args (flags may follow arguments) and returns the exit status; Ctrl-C and SIGTERM
// cancel the context of the running command, which then removes its unfinished output files and returns.
func run(args []string, stdout, stderr io.Writer) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	a := app()
	a.Writer, a.ErrWriter = stdout, stderr
	return exitStatus(ctx, a.RunContext(ctx, interspersed(a, args)), stderr)
}

// exitStatus prints err (if any) to stderr and maps it to the exit status: 2 for a usage error, 128+N after
// signal N, 1 for any other error.
func exitStatus(ctx context.Context, err error, stderr io.Writer) int {
	if err == nil {
		return exitOK
	}
	for _, s := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		if c := context.Cause(ctx); c != nil && c.Error() == s.String()+" signal received" {
			fmt.Fprintf(stderr, "spraynic: stopped by %s\n", s)
			return 128 + int(s)
		}
	}
	fmt.Fprintln(stderr, "spraynic:", err)
	var ue *usageError
	if errors.As(err, &ue) {
		return exitUsage
	}
	return exitFailure
}

// The command categories of the help text.
const (
	catCosim   = "Co-simulation (RTL in lockstep with the golden models)"
	catSystem  = "End-to-end system simulation"
	catMeasure = "Measurement and coverage"
	catFPGA    = "FPGA"
	catDesign  = "Configuration and design"
)

func app() *cli.App {
	a := &cli.App{
		Name:    "spraynic",
		Usage:   "RDMA-over-lossy-Ethernet transport core: co-simulation against golden models, regressions, configs",
		Version: versionString(),
		Commands: []*cli.Command{
			testsCommand(), runCommand(), regressCommand(), mergeCommand(), replayCommand(),
			simCommand(), genCommand(),
			benchCommand(), measureCommand(), covCommand(),
			synthCommand(), fpgaBaselineCommand(), formalCommand(),
			configCommand(), topsCommand(), buildModelsCommand(), regmapCommand(), interopCommand(),
		},
	}
	conventions(a)
	return a
}

// versionString is version and, when the binary records it, the VCS revision it was built from.
func versionString() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return version
	}
	rev, modified := "", false
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			modified = s.Value == "true"
		}
	}
	if rev == "" {
		return version
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	if modified {
		rev += ", modified"
	}
	return fmt.Sprintf("%s (revision %s)", version, rev)
}
