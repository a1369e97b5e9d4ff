//go:build unix

package proc

import (
	"strings"

	"github.com/agenthooks/agenthooks/internal/shellquote"
)

// MissingProgram reports the program of command when it can tell, before
// any run, that sh would not find it: the first word is a plain word (no
// expansion, quote or assignment, not a shell keyword or builtin) that is
// a path with no executable file behind it (relative to dir), or a name on
// no element of env's PATH. A hook whose program is missing fails at every
// run; validate says so. Anything it cannot tell is not reported.
func MissingProgram(command, dir string, env []string) (name string, missing bool) {
	words := splitWords(strings.TrimSpace(strings.SplitN(command, "\n", 2)[0]))
	if len(words) == 0 {
		return "", false
	}
	first := words[0]
	if !shellquote.PlainPOSIX(first) || strings.ContainsAny(first, "=%") || shellWords[first] {
		return "", false
	}
	path, ok := lookPath(first, dir, env)
	if !ok {
		_, hasPath := lookupEnv(env, "PATH")
		return first, hasPath
	}
	// Found on PATH means executable; a path must be one.
	return first, !isExecutable(path)
}
