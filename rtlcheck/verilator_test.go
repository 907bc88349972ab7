package rtlcheck_test

import (
	"fmt"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/spraynic/spraynic/testseed"
	"github.com/spraynic/spraynic/tops"
)

// setup is the preamble of a Verilator check: it takes the seed (SEED=N) and prints it under the test's name,
// skips the test when one of tools is not installed, and returns the repository root and the seed.
func setup(t *testing.T, tools ...string) (root string, sd uint64) {
	sd = testseed.Seed(t)
	fmt.Printf("rtlcheck: %s seed=%d (SEED=N to change)\n", t.Name(), sd)
	for _, tool := range tools {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skip(tool + " not installed (make deps)")
		}
	}
	root, err := tops.Root()
	require.NoError(t, err)
	return root, sd
}

// tbParam is one testbench parameter, passed as -G<name>=<val>.
type tbParam struct {
	name string
	val  int
}

// tbBuild is a Verilator build of a testbench under rtl/tb.
type tbBuild struct {
	// root is the repository root.
	root string
	// tb is the testbench module (--top-module), in rtl/tb/<tb>.v.
	tb string
	// block is the rtl/manifest.json top whose sources follow the testbench; "" for none.
	block string
	// files are further sources after those, relative to rtl.
	files []string
	// params are the -G parameters, in this order.
	params []tbParam
	// incRTL adds rtl to the include path (-I).
	incRTL bool
	// noLint leaves out rtl/lint.vlt (the waivers, else the first source).
	noLint bool
	// noNice runs verilator as it is, not under nice -n 10.
	noNice bool
	// dir is the output directory: the model is built in dir/obj.
	dir string
}

// args returns the verilator command line of b.
func (b tbBuild) args(t *testing.T) []string {
	rtl := filepath.Join(b.root, "rtl")
	args := []string{"verilator", "--binary", "-j", "2", "-Wall", "--top-module", b.tb}
	if b.incRTL {
		args = append(args, "-I"+rtl)
	}
	for _, p := range b.params {
		args = append(args, fmt.Sprintf("-G%s=%d", p.name, p.val))
	}
	args = append(args, "--Mdir", filepath.Join(b.dir, "obj"), "-o", "tb")
	if !b.noLint {
		args = append(args, filepath.Join(rtl, "lint.vlt"))
	}
	args = append(args, filepath.Join(rtl, "tb", b.tb+".v"))
	if b.block != "" {
		args = append(args, topSources(t, b.root, b.block)...)
	}
	for _, f := range b.files {
		args = append(args, filepath.Join(rtl, f))
	}
	if !b.noNice {
		args = append([]string{"nice", "-n", "10"}, args...)
	}
	return args
}

// buildTB builds b with verilator --binary and returns the testbench binary.
func buildTB(t *testing.T, b tbBuild) string {
	args := b.args(t)
	out, err := exec.Command(args[0], args[1:]...).CombinedOutput()
	require.NoError(t, err, "verilator build:\n%s", out)
	return filepath.Join(b.dir, "obj", "tb")
}

// topSources returns the files of top as rtl/manifest.json lists them.
func topSources(t *testing.T, root, top string) []string {
	srcs, err := tops.Sources(root, top)
	require.NoError(t, err)
	return srcs
}
