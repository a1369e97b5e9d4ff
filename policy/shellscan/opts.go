package shellscan

import (
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// optSpec describes a program's options well enough to find its first
// operand: which short and long options take a value.
type optSpec struct {
	short string   // short options that take a value: "uC" for -u USER, -C DIR
	long  []string // long options that take a value, without "--"
}

// opt is one option found by scan: its name ("u", "user") and value.
type opt struct {
	name string
	val  field
	has  bool
}

// scan reads the options at the start of args, the way getopt does with
// option permutation off (every wrapper stops at its program): clusters
// (-abc), values attached or separate (-uroot, -u root, --user=root,
// --user root), "--" ending the options. It returns the options and the
// index of the first operand.
func (o optSpec) scan(args argv) ([]opt, int) {
	var out []opt
	i := 0
	for i < len(args) {
		a := args[i].s
		switch {
		case a == "--":
			return out, i + 1
		case strings.HasPrefix(a, "--"):
			name, val, has := strings.Cut(a[2:], "=")
			name = o.longName(name)
			if !has && slices.Contains(o.long, name) && i+1 < len(args) {
				out = append(out, opt{name: name, val: args[i+1], has: true})
				i += 2
				continue
			}
			out = append(out, opt{name: name, val: field{s: val, dynamic: args[i].dynamic}, has: has})
			i++
		case len(a) > 1 && a[0] == '-' && !args[i].dynamic:
			i++
			for j := 1; j < len(a); j++ {
				ch := a[j : j+1]
				if !strings.Contains(o.short, ch) {
					out = append(out, opt{name: ch})
					continue
				}
				if j+1 < len(a) {
					out = append(out, opt{name: ch, val: field{s: a[j+1:]}, has: true})
				} else if i < len(args) {
					out = append(out, opt{name: ch, val: args[i], has: true})
					i++
				}
				break
			}
		default:
			return out, i
		}
	}
	return out, i
}

// longName is the long option a name abbreviates, as getopt_long reads
// --chd for --chdir: a unique prefix of one option that takes a value.
// Any other name is returned as it is.
func (o optSpec) longName(name string) string {
	if name == "" || slices.Contains(o.long, name) {
		return name
	}
	found := ""
	for _, l := range o.long {
		if strings.HasPrefix(l, name) {
			if found != "" {
				return name // ambiguous
			}
			found = l
		}
	}
	if found == "" {
		return name
	}
	return found
}

// has reports whether any of names was given.
func hasOpt(opts []opt, names ...string) bool {
	for _, o := range opts {
		if slices.Contains(names, o.name) {
			return true
		}
	}
	return false
}

// optValue returns the value of the last of names given.
func optValue(opts []opt, names ...string) (field, bool) {
	for i := len(opts) - 1; i >= 0; i-- {
		if opts[i].has && slices.Contains(names, opts[i].name) {
			return opts[i].val, true
		}
	}
	return field{}, false
}

// skipAssigns skips NAME=VALUE words (env, sudo), collecting them.
func skipAssigns(args argv, env map[string]string) (map[string]string, int) {
	i := 0
	for ; i < len(args); i++ {
		// env and sudo take any word holding "=" for an assignment,
		// names a shell would refuse among them (BASH_FUNC_f%%=…).
		name, val, ok := strings.Cut(args[i].s, "=")
		if !ok || name == "" || strings.ContainsRune(name, '/') {
			break
		}
		// A dynamic word whose name is literal and whose value is quoted
		// whole (`PATH="$PATH"`, kept as its source text) is still one
		// assignment, of a value not known. Unquoted (`PATH=$PATH`), its
		// value may split into more words, one of them the program.
		if args[i].dynamic && !(len(val) >= 2 && val[0] == '"' && val[len(val)-1] == '"' && !strings.Contains(val[1:len(val)-1], `"`)) {
			break
		}
		if env == nil {
			env = map[string]string{}
		}
		env[name] = val
	}
	return env, i
}

// splitWords splits a string into words the way a shell would (quotes,
// escapes), without expanding anything; ok is false when the string
// needs expansion or does not parse.
func splitWords(s string) (argv, bool) {
	f, err := parse(s)
	if err != nil {
		return nil, false
	}
	if len(f.Stmts) == 0 {
		return nil, true
	}
	if len(f.Stmts) != 1 {
		return nil, false
	}
	ce, ok := f.Stmts[0].Cmd.(*syntax.CallExpr)
	if !ok || len(ce.Assigns) > 0 || len(f.Stmts[0].Redirs) > 0 {
		return nil, false
	}
	w := &walker{}
	st := newState("")
	var out argv
	for _, word := range ce.Args {
		if ok, glob := w.static(st, word.Parts, false); !ok || glob {
			return nil, false
		}
		out = append(out, w.fields(st, word, &scope{src: s})...)
	}
	return out, true
}

// Options describes which options of a program take a value, so that its
// operands can be told from its options' values.
type Options struct {
	// Short lists the short options that take a value: "uC" for -u USER,
	// -C DIR.
	Short string
	// Long lists the long options that take a value, without "--".
	Long []string
}

// Option is one option Scan found.
type Option struct {
	// Name is the option without dashes: "u", "user".
	Name string
	// Value is its value, when HasValue.
	Value    string
	HasValue bool
	// Dynamic is set when the value cannot be known statically.
	Dynamic bool
}

// Scan reads the options at the start of args the way getopt does with
// option permutation off: clusters (-abc), values attached or separate
// (-uroot, -u root, --user=root, --user root), a unique prefix of a long
// option, "--" ending the options. dynamic[i] is set when args[i] cannot
// be known statically (such a word is never read as options). It returns
// the options and the index of the first operand.
func (o Options) Scan(args []string, dynamic []bool) ([]Option, int) {
	in := make(argv, len(args))
	for i, a := range args {
		in[i] = field{s: a, dynamic: i < len(dynamic) && dynamic[i]}
	}
	opts, n := optSpec{short: o.Short, long: o.Long}.scan(in)
	out := make([]Option, len(opts))
	for i, op := range opts {
		out[i] = Option{Name: op.name, Value: op.val.s, HasValue: op.has, Dynamic: op.val.dynamic}
	}
	return out, n
}
