# SPDX-License-Identifier: Apache-2.0
# Stand-ins for the Vivado commands spraynic's generated project scripts and XDC files use. Each checks its
# arguments the way Vivado would refuse them (unknown option, missing value, missing file, bad generic), and an
# unknown command is an error, so `tclsh vivado_stub.tcl project.tcl constraints.xdc` proves the scripts parse
# and run their Tcl without Vivado. Embedded in the Go package fpga (fpga.CheckVivado); not a Vivado flow.

set stub_state(files) {}
set stub_state(top) ""
set stub_state(generics) {}
set stub_state(part) ""
set stub_state(clock) ""
set stub_state(runs) {}

proc stub_fail {msg} {
    error "vivado-stub: $msg"
}

# Everything that is neither Tcl nor stubbed below is an error (no auto-loading is needed by the scripts).
proc unknown {args} {
    stub_fail "unknown command \"[lindex $args 0]\": not Tcl and not a Vivado command the stub knows"
}

# stub_opts parses args into the array named by var: flags (no value) and options (one value) must be among
# the allowed ones; the remaining positional arguments are returned.
proc stub_opts {cmd arglist flags options var} {
    upvar 1 $var opt
    set pos {}
    for {set i 0} {$i < [llength $arglist]} {incr i} {
        set a [lindex $arglist $i]
        if {[string index $a 0] eq "-" && ![string is double -strict $a]} {
            set name [string range $a 1 end]
            if {[lsearch -exact $flags $name] >= 0} {
                set opt($name) 1
            } elseif {[lsearch -exact $options $name] >= 0} {
                incr i
                if {$i >= [llength $arglist]} {
                    stub_fail "$cmd: option $a needs a value"
                }
                set opt($name) [lindex $arglist $i]
            } else {
                stub_fail "$cmd: unknown option $a"
            }
        } else {
            lappend pos $a
        }
    }
    return $pos
}

proc create_project {args} {
    global stub_state
    set pos [stub_opts create_project $args {force in_memory} {part} o]
    if {[llength $pos] != 2} {
        stub_fail "create_project: wants NAME DIR, got $pos"
    }
    if {![info exists o(part)] || ![regexp -nocase {^x[a-z0-9]+-[a-z0-9]+-[a-z0-9]+(-[a-z])?$} $o(part)]} {
        stub_fail "create_project: -part missing or not a Xilinx part name"
    }
    set stub_state(part) $o(part)
    return [lindex $pos 0]
}

proc current_project {args} {
    if {[llength $args] != 0} {
        stub_fail "current_project: no arguments expected here"
    }
    return project
}

proc get_filesets {args} {
    foreach f $args {
        if {[lsearch -exact {sources_1 constrs_1 sim_1} $f] < 0} {
            stub_fail "get_filesets: no fileset $f"
        }
    }
    return $args
}

proc get_runs {args} {
    foreach r $args {
        if {[lsearch -exact {synth_1 impl_1} $r] < 0} {
            stub_fail "get_runs: no run $r"
        }
    }
    return $args
}

proc add_files {args} {
    global stub_state
    set pos [stub_opts add_files $args {norecurse quiet} {fileset} o]
    if {[llength $pos] == 0} {
        stub_fail "add_files: no files"
    }
    foreach f [concat {*}$pos] {
        if {![file isfile $f]} {
            stub_fail "add_files: no such file: $f"
        }
        lappend stub_state(files) $f
    }
}

proc set_property {args} {
    global stub_state
    set pos [stub_opts set_property $args {quiet} {name value objects} o]
    if {[info exists o(name)]} {
        if {![info exists o(value)] || ![info exists o(objects)] || [llength $pos] != 0} {
            stub_fail "set_property: -name wants -value and -objects"
        }
        set name $o(name)
        set value $o(value)
        set objects $o(objects)
    } else {
        if {[llength $pos] != 3} {
            stub_fail "set_property: wants PROPERTY VALUE OBJECTS, got [llength $pos] arguments"
        }
        lassign $pos name value objects
    }
    if {[llength $objects] == 0} {
        stub_fail "set_property $name: no objects"
    }
    switch -- [string tolower $name] {
        top {
            set stub_state(top) $value
        }
        generic {
            foreach g $value {
                if {![regexp {^[A-Za-z_][A-Za-z0-9_]*=-?[0-9]+$} $g]} {
                    stub_fail "set_property generic: \"$g\" is not NAME=INTEGER"
                }
            }
            set stub_state(generics) $value
        }
    }
}

proc get_property {args} {
    if {[llength $args] != 2} {
        stub_fail "get_property: wants PROPERTY OBJECT"
    }
    if {[lindex $args 0] eq "PROGRESS"} {
        return "100%"
    }
    return ""
}

proc launch_runs {args} {
    global stub_state
    set pos [stub_opts launch_runs $args {} {jobs to_step} o]
    if {[info exists o(jobs)] && ![string is integer -strict $o(jobs)]} {
        stub_fail "launch_runs: -jobs $o(jobs) is not an integer"
    }
    get_runs {*}$pos
    lappend stub_state(runs) {*}$pos
}

proc wait_on_run {args} {
    get_runs {*}[stub_opts wait_on_run $args {} {timeout} o]
}

proc open_run {args} {
    get_runs {*}[stub_opts open_run $args {} {name} o]
}

proc report_utilization {args} {
    stub_opts report_utilization $args {hierarchical} {file} o
    if {![info exists o(file)]} {
        stub_fail "report_utilization: -file expected"
    }
}

proc report_timing_summary {args} {
    stub_opts report_timing_summary $args {} {file max_paths} o
    if {![info exists o(file)]} {
        stub_fail "report_timing_summary: -file expected"
    }
}

proc get_ports {args} {
    set pos [stub_opts get_ports $args {quiet} {filter} o]
    if {[info exists o(filter)] && ![regexp {^(NAME|DIRECTION) } $o(filter)]} {
        stub_fail "get_ports: odd filter \"$o(filter)\""
    }
    return [list ports $pos]
}

proc create_clock {args} {
    global stub_state
    set pos [stub_opts create_clock $args {add} {period name waveform} o]
    if {![info exists o(period)] || ![string is double -strict $o(period)] || $o(period) <= 0} {
        stub_fail "create_clock: -period must be a positive number"
    }
    if {[llength $pos] != 1} {
        stub_fail "create_clock: wants one object"
    }
    set stub_state(clock) $o(period)
}

proc stub_delay {cmd arglist} {
    set pos [stub_opts $cmd $arglist {max min add_delay} {clock} o]
    if {![info exists o(clock)]} {
        stub_fail "$cmd: -clock expected"
    }
    if {[llength $pos] != 2 || ![string is double -strict [lindex $pos 0]]} {
        stub_fail "$cmd: wants DELAY OBJECTS"
    }
}

proc set_input_delay {args} {
    stub_delay set_input_delay $args
}

proc set_output_delay {args} {
    stub_delay set_output_delay $args
}

foreach script $argv {
    source $script
}
if {$stub_state(top) eq "" || [llength $stub_state(files)] == 0 || $stub_state(part) eq ""} {
    stub_fail "the scripts set no part, top or files"
}
if {$stub_state(clock) eq ""} {
    stub_fail "the scripts create no clock"
}
puts "vivado-stub: ok: part $stub_state(part), top $stub_state(top), [llength $stub_state(files)] files,\
    [llength $stub_state(generics)] generics, clock period $stub_state(clock) ns, runs $stub_state(runs)"
