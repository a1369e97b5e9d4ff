package wire

import (
	"strconv"
	"strings"
)

// The verbs the engine runs, as Call.Verb names them.
const (
	VerbRun        = "run"
	VerbPolicy     = "policy"
	VerbExecPlan   = "exec --plan"
	VerbExecReport = "exec --report"
)

// Call is a served verb as the engine runs it: the client reads it from
// its command line (ParseCall), and the engine runs it on its host with no
// command line of its own. The engine still checks every value, as the
// verb does in a process of its own.
type Call struct {
	// Verb is VerbRun, VerbPolicy, VerbExecPlan or VerbExecReport.
	Verb string
	// Args are the positional arguments: run's STEP (or, with --from,
	// EVENT), policy's FILE, exec's COMMAND and its arguments (with -c,
	// $0, $1, …).
	Args []string
	// Workspaces are --workspace's, in order (run, exec).
	Workspaces []string
	// From, AllowMeans and Verbose are run's --from, --allow-means ("" when
	// not given) and --verbose.
	From       string
	AllowMeans string
	Verbose    bool
	// Step is policy's --step.
	Step string
	// Script is exec's -c STRING, ScriptSet whether it was given;
	// Conversation, Ask ("" when not given), NoPTY and Quiet its
	// --conversation, --ask, --no-pty and --quiet.
	Script       string
	ScriptSet    bool
	Conversation string
	Ask          string
	NoPTY, Quiet bool
}

// flagSpec is one flag a served verb takes, as its command line defines
// it: a long name, a one-letter short name or 0, and whether it takes a
// value.
type flagSpec struct {
	long  string
	short byte
	value bool
	set   func(c *Call, v string)
}

func boolFlag(long string, short byte, set func(*Call, bool)) flagSpec {
	return flagSpec{long: long, short: short, set: func(c *Call, v string) { set(c, v == "true") }}
}

func valueFlag(long string, short byte, set func(*Call, string)) flagSpec {
	return flagSpec{long: long, short: short, value: true, set: set}
}

var (
	workspaceFlag = valueFlag("workspace", 'w', func(c *Call, v string) { c.Workspaces = append(c.Workspaces, v) })
	runFlags      = []flagSpec{
		workspaceFlag,
		valueFlag("from", 0, func(c *Call, v string) { c.From = v }),
		valueFlag("allow-means", 0, func(c *Call, v string) { c.AllowMeans = v }),
		boolFlag("verbose", 0, func(c *Call, b bool) { c.Verbose = b }),
	}
	policyFlags = []flagSpec{valueFlag("step", 0, func(c *Call, v string) { c.Step = v })}
	execFlags   = []flagSpec{
		valueFlag("command", 'c', func(c *Call, v string) { c.Script, c.ScriptSet = v, true }),
		workspaceFlag,
		valueFlag("conversation", 0, func(c *Call, v string) { c.Conversation = v }),
		valueFlag("ask", 0, func(c *Call, v string) { c.Ask = v }),
		boolFlag("no-pty", 0, func(c *Call, b bool) { c.NoPTY = b }),
		boolFlag("quiet", 'q', func(c *Call, b bool) { c.Quiet = b }),
		boolFlag("login", 'l', func(*Call, bool) {}),
		boolFlag("interactive", 'i', func(*Call, bool) {}),
	}
)

// ParseCall reads a served verb's command line (`run …`, `policy FILE …`,
// `exec --plan …`, `exec --report`) as the verb's own flags would. ok is
// false for anything it does not read exactly as they would (help, a
// flag it does not know, an empty value, a policy subcommand): such a
// step runs in a process of the full binary, whose command line answers
// it, never in the engine.
func ParseCall(args []string) (*Call, bool) {
	if len(args) == 0 {
		return nil, false
	}
	switch args[0] {
	case "run":
		return parseFlags(&Call{Verb: VerbRun}, args[1:], runFlags, true)
	case "policy":
		c, ok := parseFlags(&Call{Verb: VerbPolicy}, args[1:], policyFlags, true)
		if ok && len(c.Args) > 0 && (c.Args[0] == "check" || c.Args[0] == "test" || c.Args[0] == "help") {
			return nil, false
		}
		return c, ok
	case "exec":
		if len(args) < 2 {
			return nil, false
		}
		switch args[1] {
		case "--plan":
			return parseFlags(&Call{Verb: VerbExecPlan}, args[2:], execFlags, false)
		case "--report":
			if len(args) == 2 {
				return &Call{Verb: VerbExecReport}, true
			}
		}
	}
	return nil, false
}

// parseFlags reads args by specs: --long, --long=VALUE, --long VALUE, -s,
// -sVALUE, -s VALUE and bundled short flags (-lc VALUE); "--" ends the
// flags. With interspersed, flags may follow positional arguments;
// without, the first positional argument ends them.
func parseFlags(c *Call, args []string, specs []flagSpec, interspersed bool) (*Call, bool) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			c.Args = append(c.Args, args[i+1:]...)
			return c, true
		case strings.HasPrefix(a, "--"):
			name, value, hasValue := strings.Cut(a[2:], "=")
			f := findFlag(specs, func(f flagSpec) bool { return f.long == name })
			if f == nil || name == "" {
				return nil, false
			}
			if f.value && !hasValue {
				if i+1 >= len(args) {
					return nil, false
				}
				i++
				value, hasValue = args[i], true
			}
			if !f.value {
				if !hasValue {
					value = "true"
				} else if value != "true" && value != "false" {
					return nil, false
				}
			}
			if value == "" {
				return nil, false
			}
			f.set(c, value)
		case len(a) > 1 && a[0] == '-':
			for j := 1; j < len(a); j++ {
				f := findFlag(specs, func(f flagSpec) bool { return f.short == a[j] })
				if f == nil {
					return nil, false
				}
				if !f.value {
					f.set(c, "true")
					continue
				}
				value := a[j+1:]
				if value == "" {
					if i+1 >= len(args) {
						return nil, false
					}
					i++
					value = args[i]
				}
				if value == "" {
					return nil, false
				}
				f.set(c, value)
				break
			}
		default:
			if !interspersed {
				c.Args = append(c.Args, args[i:]...)
				return c, true
			}
			c.Args = append(c.Args, a)
		}
	}
	return c, true
}

func findFlag(specs []flagSpec, match func(flagSpec) bool) *flagSpec {
	for i := range specs {
		if match(specs[i]) {
			return &specs[i]
		}
	}
	return nil
}

// callFields is c as header fields: whether there is one, then its
// fields in a fixed order, lists with their lengths.
func callFields(c *Call) []string {
	if c == nil {
		return []string{""}
	}
	f := []string{"1", c.Verb, strconv.Itoa(len(c.Args))}
	f = append(f, c.Args...)
	f = append(f, strconv.Itoa(len(c.Workspaces)))
	f = append(f, c.Workspaces...)
	return append(f, c.From, c.AllowMeans, flag(c.Verbose), c.Step, c.Script, flag(c.ScriptSet),
		c.Conversation, c.Ask, flag(c.NoPTY), flag(c.Quiet))
}

func flag(b bool) string {
	if b {
		return "1"
	}
	return ""
}

// readCall reads what callFields wrote from the start of f, and returns
// the fields after it; ok is false when f is too short or malformed.
func readCall(f []string) (c *Call, rest []string, ok bool) {
	if len(f) < 1 {
		return nil, nil, false
	}
	if f[0] == "" {
		return nil, f[1:], true
	}
	list := func() ([]string, bool) {
		if len(f) < 1 {
			return nil, false
		}
		n, err := strconv.Atoi(f[0])
		if err != nil || n < 0 || n > len(f)-1 {
			return nil, false
		}
		l := f[1 : 1+n]
		f = f[1+n:]
		return l, true
	}
	if len(f) < 2 {
		return nil, nil, false
	}
	c = &Call{Verb: f[1]}
	f = f[2:]
	if c.Args, ok = list(); !ok {
		return nil, nil, false
	}
	if c.Workspaces, ok = list(); !ok || len(f) < 10 {
		return nil, nil, false
	}
	c.From, c.AllowMeans, c.Verbose, c.Step, c.Script, c.ScriptSet = f[0], f[1], f[2] == "1", f[3], f[4], f[5] == "1"
	c.Conversation, c.Ask, c.NoPTY, c.Quiet = f[6], f[7], f[8] == "1", f[9] == "1"
	return c, f[10:], true
}
