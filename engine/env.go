package engine

import (
	"cmp"
	"encoding/json"
	"maps"
	"slices"
	"strings"

	"github.com/agenthooks/agenthooks/config"
	"github.com/agenthooks/agenthooks/internal/settings"
	"github.com/agenthooks/agenthooks/llm"
	"github.com/agenthooks/agenthooks/session"
)

// HookMarker is set in every hook's environment.
const HookMarker = "AGENTHOOKS_HOOK"

// TeamTokenEnv is the variable team sync reads its bearer token from. It
// never reaches a hook: a hook of any source could send it anywhere.
const TeamTokenEnv = "AGENTHOOKS_TEAM_TOKEN"

// SecretEnv returns the names of the variables of the host's environment
// that hold agenthooks' own secrets, for Options.Withhold: the team token
// and, when AGENTHOOKS_LLM_API_KEY_ENV names one, the variable prompt
// hooks' API key is read from. The default key variables
// (OPENAI_API_KEY, ANTHROPIC_API_KEY) are the user's own and stay. When
// AGENTHOOKS_LLM_API_KEY_ENV holds no variable name, it most likely holds
// the key itself, pasted there, and is withheld instead. getenv is
// os.Getenv in production.
func SecretEnv(getenv func(string) string) []string {
	names := []string{TeamTokenEnv}
	if k := llm.ConfiguredKeyEnv(getenv); k != "" {
		names = append(names, k)
	} else if strings.TrimSpace(getenv(llm.EnvAPIKeyEnv)) != "" {
		names = append(names, llm.EnvAPIKeyEnv)
	}
	return names
}

// withhold returns env without the variables named in names, and never
// with TeamTokenEnv. env itself is not changed.
func withhold(env, names []string) []string {
	drop := map[string]bool{settings.Name(TeamTokenEnv): true}
	for _, n := range names {
		if n != "" {
			drop[settings.Name(n)] = true
		}
	}
	out := make([]string, 0, len(env))
	for _, kv := range env {
		name, _, _ := strings.Cut(kv, "=")
		if !drop[settings.Name(name)] {
			out = append(out, kv)
		}
	}
	return out
}

// runEnv is the environment of one run's hooks: the host's, the session's
// variables, each with the source that set it, and the variables the
// engine sets. Only the session part and the project directory differ
// between hooks.
type runEnv struct {
	host    []string
	session []sessionVar // lowest priority first
	tail    []string
	sources config.Sources
}

type sessionVar struct {
	kv  string // NAME=value
	src config.Source
}

// baseEnv builds the environment of a run's hooks, in rising precedence:
// the host's, the session's sessionStart variables, then the CURSOR_*
// variables, which no session variable may override. Later entries win:
// the process runner keeps the last value of each name.
func (e *Engine) baseEnv(c caller, fields map[string]json.RawMessage, sess session.Session) runEnv {
	r := runEnv{host: e.hostEnv(c), sources: e.sources}
	for k, v := range sess.Env {
		src := sess.SourceOf(k, e.sources)
		if session.Refused(k, src, e.sources) != "" {
			continue
		}
		r.session = append(r.session, sessionVar{kv: k + "=" + v, src: src})
	}
	// Lowest priority first, so that where two names are one variable
	// (Windows ignores case) the higher source's value comes last and wins.
	slices.SortFunc(r.session, func(a, b sessionVar) int {
		return cmp.Or(b.src.Compare(a.src), strings.Compare(a.kv, b.kv))
	})
	r.tail = make([]string, 0, 5)
	r.tail = append(r.tail, "CURSOR_VERSION="+stringField(fields, "cursor_version"))
	if v := stringField(fields, "user_email"); v != "" {
		r.tail = append(r.tail, "CURSOR_USER_EMAIL="+v)
	}
	if v := stringField(fields, "transcript_path"); v != "" {
		r.tail = append(r.tail, "CURSOR_TRANSCRIPT_PATH="+v)
	}
	if e.opts.Remote {
		r.tail = append(r.tail, "CURSOR_CODE_REMOTE=true")
	}
	// Hooks inherit the host's SHELL, which may be agenthooks itself: the
	// marker lets `agenthooks exec` inside a hook run its command ungated
	// instead of running the hooks again, without end.
	r.tail = append(r.tail, HookMarker+"=1")
	return r
}

// forHook returns the environment of hook h: the session variables set by
// its own source or one of higher priority, never by a lower one, its
// settings file's env block (Hook.Env) and the loader's variables
// (Hook.Vars), and its project root.
func (r runEnv) forHook(h *config.Hook) []string {
	env := make([]string, 0, len(r.host)+len(r.session)+len(r.tail)+len(h.Env)+len(h.Vars)+len(r.sources.ProjectDirVars()))
	env = append(env, r.host...)
	for _, v := range r.session {
		if v.src.Compare(h.Source) <= 0 {
			env = append(env, v.kv)
		}
	}
	// The env block of the hook's settings file, screened as a
	// sessionStart env of the same source is, sorted so that the
	// environment does not depend on map order.
	if len(h.Env) > 0 {
		for _, k := range slices.Sorted(maps.Keys(h.Env)) {
			if session.Refused(k, h.Source, r.sources) == "" {
				env = append(env, k+"="+h.Env[k])
			}
		}
	}
	env = append(env, r.tail...)
	env = append(env, h.Vars...)
	for _, v := range r.sources.ProjectDirVars() {
		env = append(env, v+"="+h.Root)
	}
	return env
}
