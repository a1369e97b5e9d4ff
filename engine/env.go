package engine

import "encoding/json"

// HookMarker is set in every hook's environment.
const HookMarker = "AGENTHOOKS_HOOK"

// runEnv is the environment shared by every hook of one run; only the
// project directory differs between hooks.
type runEnv []string

// baseEnv builds the environment of a run's hooks, in rising precedence:
// the host's, the session's sessionStart variables, then the CURSOR_*
// variables of seed 004, which no session variable may override. Later
// entries win: the process runner keeps the last value of each name.
func (e *Engine) baseEnv(fields map[string]json.RawMessage, sessionEnv map[string]string) runEnv {
	env := make([]string, 0, len(e.opts.Env)+len(sessionEnv)+4)
	env = append(env, e.opts.Env...)
	for k, v := range sessionEnv {
		env = append(env, k+"="+v)
	}
	env = append(env, "CURSOR_VERSION="+stringField(fields, "cursor_version"))
	if v := stringField(fields, "user_email"); v != "" {
		env = append(env, "CURSOR_USER_EMAIL="+v)
	}
	if v := stringField(fields, "transcript_path"); v != "" {
		env = append(env, "CURSOR_TRANSCRIPT_PATH="+v)
	}
	if e.opts.Remote {
		env = append(env, "CURSOR_CODE_REMOTE=true")
	}
	// Hooks inherit the host's SHELL, which may be agenthooks itself: the
	// marker lets `agenthooks exec` inside a hook run its command ungated
	// instead of running the hooks again, without end.
	env = append(env, HookMarker+"=1")
	return runEnv(env)
}

// forHook returns the environment of a hook whose project root is root.
func (r runEnv) forHook(root string) []string {
	env := make([]string, len(r), len(r)+2)
	copy(env, r)
	return append(env, "CURSOR_PROJECT_DIR="+root, "CLAUDE_PROJECT_DIR="+root)
}
