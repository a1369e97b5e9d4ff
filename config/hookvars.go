package config

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
)

// hookDirVars are the variables set for h to name its scripts by: those
// that hold its root (Cursor's and each agent's project folder, from its
// Sources) and those its loader sets (a plugin's root).
func hookDirVars(h *Hook) []string {
	vars := slices.Clone(h.ProjectDirVars())
	for _, kv := range h.Vars {
		if k, _, ok := strings.Cut(kv, "="); ok {
			vars = append(vars, k)
		}
	}
	return vars
}

// varRef finds $NAME and ${NAME} in a command's program word.
var varRef = regexp.MustCompile(`\$\{?([A-Za-z_][A-Za-z0-9_]*)`)

// misspeltVar reports a command hook whose program is named through a
// variable that is a typo of one the agents set ($CLAUDE_PROJCT_DIR for
// $CLAUDE_PROJECT_DIR) and set nowhere: the shell expands it to nothing,
// the program is looked for at the file system's root, and the hook
// fails at every run (Problem.Disarms).
func misspeltVar(h *Hook, env []string) (Problem, bool) {
	program, _, _ := strings.Cut(strings.TrimSpace(strings.SplitN(h.Command, "\n", 2)[0]), " ")
	for _, m := range varRef.FindAllStringSubmatch(program, -1) {
		name := m[1]
		known, near := nearName(name, hookDirVars(h))
		if !near || isSetIn(name, h.Env, env) {
			continue
		}
		effect := "lets the step through"
		if h.FailClosed {
			effect = "blocks the step (failClosed)"
		}
		return Problem{File: h.File, Severity: Error, Disarms: true,
			Message: fmt.Sprintf("%s[%d]: $%s is set for no hook, so the shell expands it to nothing and the program is not found: the hook fails at every run, which %s", h.Step, h.Index, name, effect),
			Fix:     "did you mean $" + known + "?"}, true
	}
	return Problem{}, false
}

// isSetIn reports whether name is set by the hook's settings file or in
// env.
func isSetIn(name string, fileEnv map[string]string, env []string) bool {
	if _, ok := fileEnv[name]; ok {
		return true
	}
	for _, kv := range env {
		if k, _, _ := strings.Cut(kv, "="); k == name {
			return true
		}
	}
	return false
}
