package registry

import (
	"fmt"
	"maps"
	"slices"
	"strings"
)

// Registry holds values of one kind by name.
type Registry[T any] struct {
	// kind says what the values are, in errors ("retx test").
	kind string
	// name returns a value's name.
	name func(T) string
	// byName holds the values.
	byName map[string]T
}

// New returns a registry of kind holding values, each under the name name returns for it. It panics when two
// values have the same name (a programming error, as database/sql.Register treats it).
func New[T any](kind string, name func(T) string, values ...T) *Registry[T] {
	r := &Registry[T]{kind: kind, name: name, byName: map[string]T{}}
	for _, v := range values {
		r.Register(v)
	}
	return r
}

// Register adds v under its name; it panics when the name is taken.
func (r *Registry[T]) Register(v T) {
	n := r.name(v)
	if _, dup := r.byName[n]; dup {
		panic(fmt.Sprintf("registry: %s %q registered twice", r.kind, n))
	}
	r.byName[n] = v
}

// Lookup returns the value named name; an unknown name is an error that lists the known ones.
func (r *Registry[T]) Lookup(name string) (T, error) {
	v, ok := r.byName[name]
	if !ok {
		return v, fmt.Errorf("unknown %s %q (tests: %s)", r.kind, name, strings.Join(r.Names(), ", "))
	}
	return v, nil
}

// Names lists the names, sorted.
func (r *Registry[T]) Names() []string { return slices.Sorted(maps.Keys(r.byName)) }

// All lists the values, sorted by name.
func (r *Registry[T]) All() []T {
	var all []T
	for _, n := range r.Names() {
		all = append(all, r.byName[n])
	}
	return all
}
