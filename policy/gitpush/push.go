package gitpush

import (
	"context"
	"slices"
	"strings"

	"github.com/agenthooks/agenthooks/policy/shellscan"
)

// Push is what a `git push` would push, as far as its command line
// says. It does not read the repository: what a push without refspecs
// pushes depends on configuration and on the current branch, so
// Implicit says so and policies decide.
type Push struct {
	// Push is true when the command is a git push, directly or through
	// an alias, or might be one: a git command whose subcommand cannot be
	// known statically, or is neither git's own nor an alias.
	Push bool
	// Dynamic is true when something that decides what is pushed cannot
	// be known statically: the subcommand (not git's own and not an
	// alias, or an alias whose value or configuration cannot be read), the
	// remote, a refspec, an option's value, or a command inside a shell
	// alias.
	Dynamic bool
	// Remote is the repository argument (or --repo), "" when not given.
	Remote string
	// Refspecs are the refspecs given; empty when none was (Implicit).
	Refspecs []Refspec
	// All, Mirror and Tags report --all (--branches), --mirror and
	// --tags; Delete -d/--delete; Force any of -f, --force,
	// --force-with-lease, --force-if-includes or a "+" refspec.
	All, Mirror, Tags, Delete, Force bool
	// Implicit is true when no refspec was given: git pushes what its
	// configuration and the current branch say.
	Implicit bool
}

// Refspec is one `[+]<src>[:<dst>]` of a push.
type Refspec struct {
	Src string
	// Dst is the ref updated on the remote, with "refs/heads/" removed so
	// that a branch reads as its name ("main"). It is "" when it cannot
	// be known statically: HEAD or @ (the current branch, whatever it
	// is), an expression such as main~1 without a destination, or a
	// dynamic word.
	Dst   string
	Force bool
	// Pattern is a wildcard destination as written (`refs/heads/ma*`),
	// which may match any ref, a protected one among them; its Dst is "".
	Pattern string
}

// gitGlobalValue lists git's global options that take their value as the
// next word.
var gitGlobalValue = []string{"-C", "-c", "--git-dir", "--work-tree", "--namespace",
	"--super-prefix", "--config-env", "--attr-source", "--list-cmds"}

// pushValue lists git push's options that take their value as the next
// word.
var pushValue = []string{"--repo", "-o", "--push-option", "--receive-pack", "--exec"}

// Analyze reads a command as git would, up to what a push pushes.
// The command must be git (or git-push); anything else is not a push. It
// knows nothing of the command's line or directory, so it follows only
// the aliases given on the command itself (`git -c alias.p=push p`); any
// other subcommand that is not git's own is dynamic. AnalyzeIn
// follows the aliases of the line and of the repository.
func Analyze(c shellscan.Command) Push {
	r := &gitResolver{ctx: context.Background}
	return r.command(&c, "", 0)
}

// Scope is where a git command runs, for following its aliases.
type Scope struct {
	// Dir is the absolute directory the command line starts in (a
	// payload's cwd); "" when unknown, and then the configured aliases
	// are unknown too.
	Dir string
	// Line is the whole command line the command is part of: the aliases
	// its `git config` commands define apply, and what it may change in
	// git's configuration otherwise (a file written, HOME assigned) makes
	// the configured aliases unknown. "" stands for a line holding only
	// the command.
	Line string
	// Env is the environment the command runs in, whose git variables
	// (HOME, PATH, GIT_CONFIG_GLOBAL, …) choose the configuration git
	// is asked for; nil means this process's.
	Env []string
}

// AnalyzeIn is Analyze following every alias git would:
// those the command gives with -c, those its line defines with `git
// config`, and those configured for the repository at s.Dir (and the
// command's cd, -C and --git-dir), read by running git, bounded by ctx
// and a one-second timeout, and cached while git's configuration files
// are unchanged. Shell aliases (`!…`) are analysed as command lines. A
// subcommand that is neither git's own nor an alias, an alias that
// cannot be read, a loop, and a failure to run git make the result
// dynamic.
func AnalyzeIn(ctx context.Context, c shellscan.Command, s Scope) Push {
	li := LineOf(c)
	if s.Line != "" {
		li = ReadLine(s.Line)
	}
	p, _ := AnalyzeLine(func() context.Context { return ctx }, s.Env, &c, s.Dir, li)
	return p
}

// AnalyzeLine is AnalyzeIn for c, a command of li (ReadLine), that
// starts in dir and runs with env (nil: this process's environment, whose
// git variables choose the configuration git is asked for): the form to use when every command of one line is
// read, since what the line does to git's configuration is computed once
// for all of them. ctx gives the context that bounds the runs of git; it
// is called only if git must run. basis is what the answer rests on
// besides the line (the directory, the repository's configuration), so
// that it may be kept with the line while basis.Holds.
func AnalyzeLine(ctx func() context.Context, env []string, c *shellscan.Command, dir string, li *Line) (p Push, basis Basis) {
	if !gitProgram(progName(c.Name)) {
		return Push{}, Basis{}
	}
	r := &gitResolver{ctx: ctx, env: env, li: li}
	p = r.command(c, dir, 0)
	r.basis.dir = dir
	return p, r.basis
}

// pushArgs reads push's options and operands, and gives the indexes of
// the refspecs that name no destination: configuration
// (remote.<name>.push) may choose it. Options may come after operands,
// as git's option parser allows; "--" ends them.
func pushArgs(args []string, dyn []bool) (p Push, srcOnly []int) {
	p = Push{Push: true}
	var operands []string
	var operandDyn []bool
	i := 0
	for ; i < len(args); i++ {
		a := args[i]
		if dyn[i] {
			p.Dynamic = true
		}
		if a == "--" {
			i++
			break
		}
		if !strings.HasPrefix(a, "-") || a == "-" || dyn[i] {
			operands = append(operands, a)
			operandDyn = append(operandDyn, dyn[i])
			continue
		}
		name, val, hasVal := strings.Cut(a, "=")
		if slices.Contains(pushValue, name) {
			if !hasVal && i+1 < len(args) {
				val = args[i+1]
				p.Dynamic = p.Dynamic || dyn[i+1]
				i++
			}
			if name == "--repo" {
				p.Remote = val
			}
			continue
		}
		switch {
		case name == "--all" || name == "--branches":
			p.All = true
		case name == "--mirror":
			p.Mirror = true
		case name == "--tags":
			p.Tags = true
		case name == "--delete":
			p.Delete = true
		case name == "--force" || name == "--force-with-lease" || name == "--force-if-includes":
			p.Force = true
		case strings.HasPrefix(name, "--"):
		default: // a cluster of short options: -fu, -d, -o value
			for j := 1; j < len(a); j++ {
				switch a[j] {
				case 'f':
					p.Force = true
				case 'd':
					p.Delete = true
				case 'o':
					if j == len(a)-1 && i+1 < len(args) {
						i++
					}
					j = len(a)
				}
			}
		}
	}
	for ; i < len(args); i++ {
		operands = append(operands, args[i])
		operandDyn = append(operandDyn, dyn[i])
		p.Dynamic = p.Dynamic || dyn[i]
	}
	if len(operands) > 0 {
		p.Remote = operands[0]
		operands, operandDyn = operands[1:], operandDyn[1:]
	}
	for j := 0; j < len(operands); j++ {
		if operands[j] == "tag" && j+1 < len(operands) {
			// `tag <name>` means refs/tags/<name>:refs/tags/<name>.
			name := operands[j+1]
			dst := "refs/tags/" + name
			if operandDyn[j+1] {
				dst = ""
			}
			p.Refspecs = append(p.Refspecs, Refspec{Src: dst, Dst: dst})
			j++
			continue
		}
		r := parseRefspec(operands[j])
		if operandDyn[j] {
			r.Dst = ""
		}
		if !strings.Contains(operands[j], ":") && !p.Delete {
			srcOnly = append(srcOnly, len(p.Refspecs))
		}
		if p.Delete && !strings.Contains(operands[j], ":") {
			r = Refspec{Dst: normRef(strings.TrimPrefix(operands[j], "+"))}
		}
		p.Force = p.Force || r.Force
		p.Refspecs = append(p.Refspecs, r)
	}
	p.Implicit = len(p.Refspecs) == 0
	return p, srcOnly
}

func parseRefspec(s string) Refspec {
	r := Refspec{}
	if strings.HasPrefix(s, "+") {
		r.Force = true
		s = s[1:]
	}
	src, dst, hasDst := strings.Cut(s, ":")
	r.Src = src
	if !hasDst {
		dst = src
	}
	if strings.Contains(dst, "*") {
		// A pattern: every local ref its source matches, under the
		// destination's name. It stands for any name.
		r.Pattern = dst
		return r
	}
	if hasDst {
		r.Dst = normRef(dst)
		return r
	}
	// Without a destination, the source's own name is updated: known for
	// a branch name, not for HEAD, @ or an expression.
	if src == "HEAD" || src == "@" || strings.ContainsAny(src, "~^@{}") || src == "" {
		return r
	}
	r.Dst = normRef(src)
	return r
}

// normRef turns a destination into the name policies match: a branch
// without refs/heads/ (or heads/), anything else as written.
func normRef(s string) string {
	if b, ok := strings.CutPrefix(s, "refs/heads/"); ok {
		return b
	}
	if b, ok := strings.CutPrefix(s, "heads/"); ok {
		return b
	}
	if s == "HEAD" || s == "@" {
		return ""
	}
	return s
}
