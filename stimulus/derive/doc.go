// Package derive builds a struct value from a base and a keyed literal of what differs: profiles of one stimulus
// package share a base and each names only its own fields.
package derive
