package derive

import "reflect"

// From returns base with every field that diff sets (leaves at a non-zero value) taken from diff. A field diff
// leaves at zero keeps the base's value: a value that needs a zero where a base has something else derives from
// a base without it. T must be a struct whose fields are all exported.
func From[T any](base, diff T) T {
	out := base
	o, d := reflect.ValueOf(&out).Elem(), reflect.ValueOf(diff)
	for i := range d.NumField() {
		if f := d.Field(i); !f.IsZero() {
			o.Field(i).Set(f)
		}
	}
	return out
}
