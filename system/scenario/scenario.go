package scenario

import (
	"fmt"

	"github.com/spraynic/spraynic/config"
	"github.com/spraynic/spraynic/system"
)

// Scenario is one named end-to-end run, repeated over seeds.
type Scenario struct {
	// Name names it; Doc says what it exercises.
	Name, Doc string
	// Options returns the run's options for a seed (Defaults and Validate are applied by the runner).
	Options func(seed uint64) (system.Options, error)
	// Baseline, when set, names the scenario of the same set whose run of the same seed the ratios compare with.
	Baseline string
	// Targets are what the scenario must reach, every seed.
	Targets []Target
}

// Target is one bound on one figure of a run.
type Target struct {
	// Figure is the figure bounded; Max says whether the bound is an upper one; Bound is the value.
	Figure Figure
	Max    bool
	Bound  float64
}

// String is the target as a table shows it: "p99/base <= 1.3".
func (t Target) String() string {
	op := ">="
	if t.Max {
		op = "<="
	}
	return fmt.Sprintf("%s %s %s", t.Figure, op, t.Figure.format(t.Bound))
}

// Met reports whether value meets the target.
func (t Target) Met(value float64) bool {
	if t.Max {
		return value <= t.Bound
	}
	return value >= t.Bound
}

// Set is a named list of scenarios.
type Set struct {
	// Name and Doc describe it; Scenarios are its scenarios, each baseline before the scenarios that use it.
	Name, Doc string
	Scenarios []Scenario
}

// preset returns the named preset, with edit applied and validated.
func preset(name string, edit func(*config.Config)) (config.Config, error) {
	cfg, err := config.Preset(name)
	if err != nil {
		return cfg, err
	}
	if edit != nil {
		edit(&cfg)
		cfg.Name = name + "-edited"
	}
	return cfg, cfg.Validate()
}

// Sets are the built-in scenario sets.
func Sets() []Set { return []Set{tailSet(), scaleSet()} }

// Lookup finds a set by name.
func Lookup(name string) (Set, error) {
	var names []string
	for _, s := range Sets() {
		if s.Name == name {
			return s, nil
		}
		names = append(names, s.Name)
	}
	return Set{}, fmt.Errorf("unknown scenario set %q (allowed: %v)", name, names)
}
