package config

import (
	"fmt"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/agenthooks/agenthooks/internal/proc"
)

// MissingPrograms reports each command hook whose program is not there
// (proc.MissingProgram): it fails at every run, which lets the step
// through unless the hook is failClosed, which then blocks every step. A
// path with no executable file behind it is certainly missing, and so
// disarms the hook (Problem.Disarms); a name on no folder of env's PATH
// is a warning, since PATH is this process's, which may not be the
// agent's. An interpreter whose script is not there is reported too
// (MissingScripts), a script whose "#!" interpreter is not
// (BadInterpreters), and a program named through a misspelt variable
// (misspeltVar).
func MissingPrograms(hooks []*Hook, env []string) []Problem {
	var out []Problem
	for _, h := range hooks {
		if h.Type != TypeCommand {
			continue
		}
		if p, ok := backslashedProgram(h); ok {
			out = append(out, p)
			continue
		}
		if p, ok := misspeltVar(h, env); ok {
			out = append(out, p)
			continue
		}
		name, missing := proc.MissingProgram(h.Command, h.Dir, env)
		if !missing {
			// The program is there: the script it runs, or the
			// interpreter its "#!" line names, may not be.
			out = append(out, MissingScripts([]*Hook{h})...)
			out = append(out, BadInterpreters([]*Hook{h}, env)...)
			continue
		}
		effect := "lets the step through"
		if h.FailClosed {
			effect = "blocks the step (failClosed)"
		}
		p := Problem{File: h.File, Severity: Error, Disarms: true,
			Message: fmt.Sprintf("%s[%d]: %q is not an executable file (looked for from %s): the hook fails at every run, which %s", h.Step, h.Index, name, h.Dir, effect),
			Fix:     "create the script and chmod +x it, or correct the command"}
		if !strings.Contains(name, "/") {
			p.Severity, p.Disarms = Warning, false
			p.Message = fmt.Sprintf("%s[%d]: %q is in no folder of this PATH: the hook fails at every run, which %s", h.Step, h.Index, name, effect)
			p.Fix = "install it, or name it by its full path"
		}
		out = append(out, p)
	}
	return out
}

// backslashedProgram reports a command hook whose program is a path
// written with Windows separators (.cursor\hooks\guard.sh) where a shell
// runs it: sh reads each backslash as an escape and runs
// .cursorhooksguard.sh, which is not there, so the hook fails at every
// run. It is reported only where the path with "/" is an executable file.
func backslashedProgram(h *Hook) (Problem, bool) {
	if runtime.GOOS == "windows" {
		return Problem{}, false
	}
	first, _, _ := strings.Cut(strings.TrimSpace(strings.SplitN(h.Command, "\n", 2)[0]), " ")
	if !strings.Contains(first, `\`) || strings.ContainsAny(first, `"'$`+"`") {
		return Problem{}, false
	}
	slashed := strings.ReplaceAll(first, `\`, "/")
	path := slashed
	if !filepath.IsAbs(path) {
		path = filepath.Join(h.Dir, path)
	}
	if !isExecutableFile(path) {
		return Problem{}, false
	}
	effect := "lets the step through"
	if h.FailClosed {
		effect = "blocks the step (failClosed)"
	}
	return Problem{File: h.File, Severity: Error, Disarms: true,
		Message: fmt.Sprintf(`%s[%d]: %q is written with backslashes, which the shell reads as escapes: it runs %q, which is not there, so the hook fails at every run, which %s`,
			h.Step, h.Index, first, strings.ReplaceAll(first, `\`, ""), effect),
		Fix: "write the path with forward slashes: " + slashed}, true
}
