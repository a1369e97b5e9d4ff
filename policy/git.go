package policy

import (
	"slices"
	"strings"
)

// GitPush is what a `git push` would push, as far as its command line
// says. It does not read the repository: what a push without refspecs
// pushes depends on configuration and on the current branch, so
// Implicit says so and policies decide.
type GitPush struct {
	// Push is true when the command is a git push, or might be one: a
	// git command whose subcommand cannot be known statically.
	Push bool
	// Dynamic is true when something that decides what is pushed cannot
	// be known statically: the subcommand, the remote, a refspec, an
	// option's value, or an alias that runs a shell command.
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
}

// gitGlobalValue lists git's global options that take their value as the
// next word.
var gitGlobalValue = []string{"-C", "-c", "--git-dir", "--work-tree", "--namespace",
	"--super-prefix", "--config-env", "--attr-source", "--list-cmds"}

// pushValue lists git push's options that take their value as the next
// word.
var pushValue = []string{"--repo", "-o", "--push-option", "--receive-pack", "--exec"}

// AnalyzeGitPush reads a command as git would, up to what a push pushes.
// The command must be git (or git-push); anything else is not a push.
func AnalyzeGitPush(c Command) GitPush {
	args := c.Args
	dyn := make([]bool, len(args))
	for _, i := range c.DynamicArgs {
		if i >= 0 && i < len(dyn) {
			dyn[i] = true
		}
	}
	switch c.Name {
	case "git-push":
		return pushArgs(args, dyn)
	case "git":
	default:
		return GitPush{}
	}
	aliases := map[string]string{}
	i := 0
	for i < len(args) {
		a := args[i]
		if dyn[i] {
			// An option or the subcommand we cannot read: maybe a push.
			return GitPush{Push: true, Dynamic: true}
		}
		if !strings.HasPrefix(a, "-") {
			break
		}
		if slices.Contains(gitGlobalValue, a) {
			if i+1 < len(args) {
				if dyn[i+1] && a == "-c" {
					return GitPush{Push: true, Dynamic: true} // could define an alias
				}
				if a == "-c" {
					if k, v, ok := strings.Cut(args[i+1], "="); ok && strings.HasPrefix(strings.ToLower(k), "alias.") {
						aliases[k[len("alias."):]] = v
					}
				}
			}
			i += 2
			continue
		}
		i++
	}
	if i >= len(args) {
		return GitPush{}
	}
	sub, rest, restDyn := args[i], args[i+1:], dyn[i+1:]
	if v, ok := aliases[sub]; ok {
		if strings.HasPrefix(v, "!") {
			return GitPush{Push: true, Dynamic: true}
		}
		words := strings.Fields(v)
		if len(words) == 0 {
			return GitPush{}
		}
		sub = words[0]
		rest = append(append([]string{}, words[1:]...), rest...)
		restDyn = append(make([]bool, len(words)-1), restDyn...)
	}
	if sub != "push" {
		return GitPush{}
	}
	return pushArgs(rest, restDyn)
}

// pushArgs reads push's options and operands. Options may come after
// operands, as git's option parser allows; "--" ends them.
func pushArgs(args []string, dyn []bool) GitPush {
	p := GitPush{Push: true}
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
		if p.Delete && !strings.Contains(operands[j], ":") {
			r = Refspec{Dst: normRef(strings.TrimPrefix(operands[j], "+"))}
		}
		p.Force = p.Force || r.Force
		p.Refspecs = append(p.Refspecs, r)
	}
	p.Implicit = len(p.Refspecs) == 0
	return p
}

func parseRefspec(s string) Refspec {
	r := Refspec{}
	if strings.HasPrefix(s, "+") {
		r.Force = true
		s = s[1:]
	}
	src, dst, hasDst := strings.Cut(s, ":")
	r.Src = src
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
