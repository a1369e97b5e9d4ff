package gitpush

import (
	"slices"
	"strings"

	"github.com/agenthooks/agenthooks/policy/shellscan"
)

// mergePush combines what two commands (or two possible values of an
// alias) push: a policy sees everything either may push. Two pushes to
// different remotes cannot be one remote: dynamic.
func mergePush(a, b Push) Push {
	if !b.Push {
		return a
	}
	if !a.Push {
		return b
	}
	a.Dynamic = a.Dynamic || b.Dynamic || a.Remote != b.Remote
	a.Refspecs = append(slices.Clone(a.Refspecs), b.Refspecs...)
	a.All = a.All || b.All
	a.Mirror = a.Mirror || b.Mirror
	a.Tags = a.Tags || b.Tags
	a.Delete = a.Delete || b.Delete
	a.Force = a.Force || b.Force
	a.Implicit = a.Implicit || b.Implicit
	return a
}

// splitAlias splits an alias's value into words as git does
// (split_cmdline): blanks separate, single and double quotes group, a
// backslash outside single quotes takes the next character literally.
// An unclosed quote or a trailing backslash is an error.
func splitAlias(s string) ([]string, bool) {
	var words []string
	var cur strings.Builder
	var quote byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote == 0 && isGitSpace(c):
			words = append(words, cur.String())
			cur.Reset()
			for i+1 < len(s) && isGitSpace(s[i+1]) {
				i++
			}
		case quote == 0 && (c == '\'' || c == '"'):
			quote = c
		case c == quote:
			quote = 0
		case c == '\\' && quote != '\'':
			i++
			if i >= len(s) {
				return nil, false
			}
			cur.WriteByte(s[i])
		default:
			cur.WriteByte(c)
		}
	}
	if quote != 0 {
		return nil, false
	}
	return append(words, cur.String()), true
}

func isGitSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'
}

// progName is a program's name as a case-insensitive file system would
// find it: git, GIT and git.exe all run git.
func progName(name string) string {
	name = strings.ToLower(name)
	return strings.TrimSuffix(name, ".exe")
}

// dynFlags marks the dynamic arguments of c.
func dynFlags(c *shellscan.Command) []bool {
	dyn := make([]bool, len(c.Args))
	for _, i := range c.DynamicArgs {
		if i >= 0 && i < len(dyn) {
			dyn[i] = true
		}
	}
	return dyn
}

// isGitValueOption reports git's global options that take their value as
// the next word.
func isGitValueOption(a string) bool {
	return slices.Contains(gitGlobalValue, a)
}

// chdirGit applies `git -C dir`: an empty dir is ignored, as git does.
func chdirGit(cur, dir string, dynamic bool) string {
	switch {
	case dynamic:
		return ""
	case dir == "":
		return cur
	}
	return shellscan.JoinDir(cur, dir)
}
