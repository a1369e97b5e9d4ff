package config

import (
	"fmt"
	"regexp"
	"strings"
)

// hookDirVars are the variables the agents set for a hook to name its
// scripts by (Cursor's, Claude Code's, Gemini CLI's project folder and a
// Claude Code plugin's root).
var hookDirVars = []string{cursorProjectDirVar, "CLAUDE_PROJECT_DIR", "CLAUDE_PLUGIN_ROOT", "GEMINI_PROJECT_DIR"}

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
		known, near := nearName(name, hookDirVars)
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
