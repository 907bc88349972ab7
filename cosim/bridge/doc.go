// Package bridge runs Verilator models from Go. Build verilates one (top, parameters, variant) into a shared
// library with a generic C ABI (the sn_* functions of shim.cpp.tmpl), cached under a hash of everything that goes
// into it; Open loads such a library with dlopen and steps the model many cycles per cgo call. One Go binary thus
// serves every configuration, and a stale model cannot be loaded: any change of an input changes the library's path.
package bridge
