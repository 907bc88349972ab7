package main

import (
	"errors"
	"fmt"
	"reflect"
	"regexp"
	"slices"
	"strings"

	"github.com/spraynic/spraynic/config"
	"github.com/spraynic/spraynic/cosim"
	"github.com/urfave/cli/v2"
)

// The command line conventions of every command, applied once to the whole command tree by conventions (README.md,
// "Command line conventions"):
//   - a usage error (unknown command or flag, a malformed or out-of-range flag value, a wrong number of
//     arguments) is one line naming the input, what is wrong and what is allowed, then "see 'spraynic CMD --help'",
//     and exit status 2; any other error is a failure, exit status 1;
//   - flags may follow the arguments ("config params default --top retx"), except after "--";
//   - every flag NAME can also be set by the environment variable SPRAYNIC_NAME (upper case, "-" as "_"); --seed
//     also by SEED. The command line wins over the environment.

// flagEnv lists the environment variables of flag name: SPRAYNIC_ and the name in upper case with "-" as "_"
// (SPRAYNIC_DURATION_US for --duration-us); --seed also reads SEED, as make does.
func flagEnv(name string) []string {
	env := []string{"SPRAYNIC_" + strings.ToUpper(strings.ReplaceAll(name, "-", "_"))}
	if name == "seed" {
		env = append(env, "SEED")
	}
	return env
}

// usageError is a mistake on the command line. main prints it with a pointer to the command's help and exits 2.
type usageError struct {
	// cmd is the command path after "spraynic" ("sim sweep"), empty for the application itself.
	cmd string
	// msg names the input, what is wrong with it and what is allowed.
	msg string
}

// Error is msg and where to read more.
func (e *usageError) Error() string {
	return fmt.Sprintf("%s; see '%s --help'", e.msg, strings.TrimSpace("spraynic "+e.cmd))
}

// usagef returns a usage error of the command c runs.
func usagef(c *cli.Context, format string, a ...any) error {
	return &usageError{cmd: commandPath(c), msg: fmt.Sprintf(format, a...)}
}

// usageErr returns a usage error; the command's action fills in the command path.
func usageErr(format string, a ...any) error {
	return &usageError{msg: fmt.Sprintf(format, a...)}
}

// asUsage makes err a usage error (an option that a package below refused), unless it is nil or one already.
func asUsage(err error) error {
	var ue *usageError
	if err == nil || errors.As(err, &ue) {
		return err
	}
	return &usageError{msg: err.Error()}
}

// configFlag resolves the preset name or config file v given to --flag (or as an argument when flag is empty): an
// unknown preset name is a usage error, a file that cannot be read or is not valid a failure.
func configFlag(flag, v string) (config.Config, error) {
	cfg, err := config.Resolve(v)
	if err != nil && !strings.ContainsAny(v, "/.") {
		if flag == "" {
			return cfg, usageErr("%v", err)
		}
		return cfg, usageErr("--%s: %v", flag, err)
	}
	return cfg, err
}

// closest names the candidate closest to an unknown name, when one is close (a typo: one edit in up to 5
// characters, one more per 6 further, or a prefix): " (did you mean X?)".
func closest(name string, candidates []string) string {
	best, bestD := "", 2+len(name)/6
	for _, n := range candidates {
		if d := editDistance(name, n); d < bestD || (best == "" && strings.HasPrefix(n, name)) {
			best, bestD = n, min(d, bestD)
		}
	}
	if best == "" {
		return ""
	}
	return fmt.Sprintf(" (did you mean %s?)", best)
}

// commandPath is the path of c's command after "spraynic", e.g. "sim sweep"; empty for the application.
func commandPath(c *cli.Context) string {
	var names []string
	for _, l := range c.Lineage() {
		if l.Command != nil && l.Command.Name != "" && l.Command.Name != c.App.Name {
			names = append([]string{l.Command.Name}, names...)
		}
	}
	return strings.Join(names, " ")
}

// conventions applies the conventions above to every command of a, recursively.
func conventions(a *cli.App) {
	a.HideHelpCommand = true
	a.Flags = append(a.Flags, cli.HelpFlag)
	a.OnUsageError = onUsageError
	a.ExitErrHandler = func(*cli.Context, error) {} // errors go back to main, which alone picks the exit status
	a.Action = func(c *cli.Context) error {
		if c.NArg() == 0 {
			return cli.ShowAppHelp(c)
		}
		name := c.Args().First()
		return usagef(c, "unknown command %q%s (commands: %s)", name, closest(name, commandNames(a.Commands)),
			strings.Join(commandNames(a.Commands), ", "))
	}
	for _, cmd := range a.Commands {
		commandConventions(cmd)
	}
	a.Commands = append(a.Commands, helpCommand(a))
}

// helpCommand is "spraynic help [COMMAND]"; an unknown command is a usage error.
func helpCommand(a *cli.App) *cli.Command {
	return &cli.Command{
		Name:            "help",
		Aliases:         []string{"h"},
		Usage:           "show the commands, or one command's help",
		ArgsUsage:       "[COMMAND]",
		HideHelp:        true,
		HideHelpCommand: true,
		Action: func(c *cli.Context) error {
			switch name := c.Args().First(); {
			case c.NArg() == 0:
				return cli.ShowAppHelp(c)
			case c.NArg() > 1:
				return &usageError{msg: fmt.Sprintf("help takes at most one COMMAND, got %d arguments (for a "+
					"subcommand: spraynic %s --help)", c.NArg(), strings.Join(c.Args().Slice(), " "))}
			case a.Command(name) == nil:
				return &usageError{msg: fmt.Sprintf("unknown command %q%s (commands: %s)", name,
					closest(name, commandNames(a.Commands)), strings.Join(commandNames(a.Commands), ", "))}
			default:
				return cli.ShowCommandHelp(c, name)
			}
		},
	}
}

// commandConventions applies the conventions to cmd and its subcommands.
func commandConventions(cmd *cli.Command) {
	cmd.HideHelpCommand = true
	cmd.OnUsageError = onUsageError
	var required []string
	for _, f := range cmd.Flags {
		name := f.Names()[0]
		v := reflect.ValueOf(f).Elem()
		v.FieldByName("EnvVars").Set(reflect.ValueOf(flagEnv(name)))
		if r := v.FieldByName("Required"); r.IsValid() && r.Bool() {
			// checked by the action below, so that a missing flag is one line, not the help text
			r.SetBool(false)
			required = append(required, name)
		}
	}
	for _, sub := range cmd.Subcommands {
		commandConventions(sub)
	}
	act := cmd.Action
	cmd.Action = func(c *cli.Context) error {
		if act == nil || (c.NArg() > 0 && cmd.ArgsUsage == "") {
			return argsError(c, cmd, act != nil)
		}
		for _, name := range required {
			if !c.IsSet(name) {
				return usagef(c, "--%s is required: %s", name, flagUsage(cmd, name))
			}
		}
		err := interruptible(c.Context, func() error { return act(c) })
		var ue *usageError
		if errors.As(err, &ue) && ue.cmd == "" {
			ue.cmd = commandPath(c)
		}
		return err
	}
}

// argsError refuses the arguments of a command that takes none; a group of subcommands without arguments shows
// its help.
func argsError(c *cli.Context, cmd *cli.Command, hasAction bool) error {
	switch {
	case len(cmd.Subcommands) > 0 && c.NArg() == 0:
		return cli.ShowSubcommandHelp(c)
	case len(cmd.Subcommands) > 0 && !hasAction:
		return usagef(c, "unknown command %q (commands: %s)", c.Args().First(),
			strings.Join(commandNames(cmd.Subcommands), ", "))
	case len(cmd.Subcommands) > 0:
		return usagef(c, "unexpected argument %q (%s takes flags, or one of the commands %s)", c.Args().First(),
			cmd.Name, strings.Join(commandNames(cmd.Subcommands), ", "))
	}
	return usagef(c, "unexpected argument %q (%s takes flags only)", c.Args().First(), cmd.Name)
}

// commandNames lists the names of cmds.
func commandNames(cmds []*cli.Command) []string {
	var names []string
	for _, c := range cmds {
		names = append(names, c.Name)
	}
	return names
}

// flagUsage is the usage text of cmd's flag name.
func flagUsage(cmd *cli.Command, name string) string {
	if f := findFlag(cmd.Flags, name); f != nil {
		if d, ok := f.(cli.DocGenerationFlag); ok {
			return d.GetUsage()
		}
	}
	return ""
}

// findFlag is the flag of flags named name (or one of its aliases), or nil.
func findFlag(flags []cli.Flag, name string) cli.Flag {
	for _, f := range flags {
		if slices.Contains(f.Names(), name) {
			return f
		}
	}
	return nil
}

// The messages of the flag package and of urfave/cli that onUsageError rewrites.
var (
	reUnknownFlag = regexp.MustCompile(`^flag provided but not defined: -+(.*)$`)
	reBadValue    = regexp.MustCompile(`^invalid (?:boolean )?value "(.*)" for (?:flag )?-+([^:]+): `)
	reNoValue     = regexp.MustCompile(`^flag needs an argument: -+(.*)$`)
	reBadEnv      = regexp.MustCompile(
		`^could not parse "(.*)" as .* from environment variable "([^"]+)" for flag ([^:]+):`)
)

// onUsageError turns a flag parsing error into one usage line naming the flag, what is wrong and what is allowed.
func onUsageError(c *cli.Context, err error, _ bool) error {
	msg := err.Error()
	if m := reUnknownFlag.FindStringSubmatch(msg); m != nil {
		return usagef(c, "unknown flag --%s%s", m[1], suggestFlag(c.Command.Flags, m[1]))
	}
	if m := reBadValue.FindStringSubmatch(msg); m != nil {
		return usagef(c, "--%s %q: not %s", m[2], m[1], valueKind(findFlag(c.Command.Flags, m[2])))
	}
	if m := reNoValue.FindStringSubmatch(msg); m != nil {
		return usagef(c, "--%s needs a value: %s", m[1], flagUsage(c.Command, m[1]))
	}
	if m := reBadEnv.FindStringSubmatch(msg); m != nil {
		return usagef(c, "environment %s=%q (for --%s): not %s", m[2], m[1], m[3],
			valueKind(findFlag(c.Command.Flags, m[3])))
	}
	return usagef(c, "%s", msg)
}

// valueKind says what a flag's value must be.
func valueKind(f cli.Flag) string {
	switch f.(type) {
	case *cli.IntFlag, *cli.Int64Flag:
		return "an integer"
	case *cli.Uint64Flag, *cli.UintFlag:
		return "a non-negative integer"
	case *cli.Float64Flag:
		return "a number"
	case *cli.DurationFlag:
		return "a duration (such as 90s, 10m, 1h30m)"
	case *cli.BoolFlag:
		return "true or false"
	}
	return "a valid value"
}

// suggestFlag names the flag of flags closest to the unknown name, when one is close.
func suggestFlag(flags []cli.Flag, name string) string {
	var names []string
	for _, f := range flags {
		names = append(names, f.Names()...)
	}
	return strings.Replace(closest(name, names), "mean ", "mean --", 1)
}

// editDistance is the Levenshtein distance of a and b.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur := make([]int, len(b)+1)
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev = cur
	}
	return prev[len(b)]
}

// testFlag checks that --test names a co-simulation test.
func testFlag(name string) error {
	if _, err := cosim.Lookup(name); err != nil {
		var names []string
		for _, t := range cosim.Tests() {
			names = append(names, t.Name)
		}
		return usageErr("--test: unknown test %q%s ('spraynic tests' lists all %d)", name, closest(name, names), len(names))
	}
	return nil
}

// interspersed moves the flags that follow a command's arguments before them, where urfave/cli parses them:
// "spraynic config params default --top retx" runs as "spraynic config params --top retx default". Flags given
// between a command and its subcommand move after the subcommand ("sim --seed 2 sweep" is "sim sweep --seed
// 2"). Everything after "--" stays an argument. args[0] is the program.
func interspersed(a *cli.App, args []string) []string {
	out := []string{args[0]}
	rest := args[1:]
	// the application's own flags (--help, --version) stay before the command
	for len(rest) > 0 && isFlag(rest[0]) {
		out, rest = append(out, rest[0]), rest[1:]
	}
	if len(rest) == 0 || a.Command(rest[0]) == nil {
		return args
	}
	cmd := a.Command(rest[0])
	out, rest = append(out, rest[0]), rest[1:]
	var flags, pos []string
	for len(rest) > 0 {
		tok := rest[0]
		switch {
		case tok == "--":
			pos = append(pos, rest...)
			rest = nil
		case isFlag(tok):
			n := 1
			if takesValue(cmd.Flags, tok) && len(rest) > 1 {
				n = 2
			}
			flags, rest = append(flags, rest[:n]...), rest[n:]
		case len(pos) == 0 && cmd.Command(tok) != nil:
			// a subcommand: the flags so far are its flags
			cmd = cmd.Command(tok)
			out, rest = append(out, tok), rest[1:]
		default:
			pos, rest = append(pos, tok), rest[1:]
		}
	}
	for _, f := range flags {
		if f == "-h" || f == "--help" || f == "-help" {
			// help wins; urfave/cli would read an argument as a help topic
			return append(out, "--help")
		}
	}
	return append(append(out, flags...), pos...)
}

// isFlag is true for "-x", "--x" and "--x=v"; not for "-" (standard input) and "--" (end of flags).
func isFlag(tok string) bool {
	return len(tok) > 1 && tok[0] == '-' && tok != "--"
}

// takesValue is true when tok ("--name" or "-name", without "=value") names a flag of flags that takes a value.
func takesValue(flags []cli.Flag, tok string) bool {
	name := strings.TrimLeft(tok, "-")
	if strings.Contains(name, "=") {
		return false
	}
	f := findFlag(flags, name)
	if f == nil {
		return false
	}
	d, ok := f.(cli.DocGenerationFlag)
	return ok && d.TakesValue()
}
