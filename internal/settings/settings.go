// Package settings is the one place that declares the environment
// variables agenthooks reads: each with its meaning, its default, and
// whether it separates engines (clients whose values differ are served by
// different resident engines). Library packages never read the process
// environment: they take values, or a Getenv over a caller's environment
// made here, so that the resident engine answers every request with that
// request's own settings. The command line lists them (`agenthooks
// settings`).
//
// It uses only the standard library: the client, which agents spawn for
// every step, imports it.
package settings

import (
	"os"
	"slices"
	"strings"
)

// Var is one variable agenthooks reads.
type Var struct {
	Name string
	// Meaning says what it changes, in a line.
	Meaning string
	// Default is what applies when it is unset or empty, in words.
	Default string
	// Separates: an engine's behaviour depends on it, so clients whose
	// values differ get different engines (wire.SocketName). A variable
	// that is read from each request's own environment does not.
	Separates bool
	// Git: it chooses git's configuration or programs, so a policy that
	// follows git aliases reads it from the request's environment, and a
	// command line that assigns it makes the configured aliases unknown.
	Git bool
	// Prefix: Name is a prefix (GIT_) that stands for every variable
	// starting with it.
	Prefix bool
}

// Names of agenthooks' own variables.
const (
	StateDir        = "AGENTHOOKS_STATE_DIR"
	ConfigDir       = "AGENTHOOKS_CONFIG_DIR"
	EnterpriseFile  = "AGENTHOOKS_ENTERPRISE_CONFIG"
	LogRetention    = "AGENTHOOKS_LOG_RETENTION"
	LogMaxRecords   = "AGENTHOOKS_LOG_MAX_RECORDS"
	LogMaxBytes     = "AGENTHOOKS_LOG_MAX_BYTES"
	Redact          = "AGENTHOOKS_REDACT"
	RedactBytes     = "AGENTHOOKS_REDACT_BYTES"
	SessionWait     = "AGENTHOOKS_SESSION_WAIT"
	LLMProvider     = "AGENTHOOKS_LLM_PROVIDER"
	LLMBaseURL      = "AGENTHOOKS_LLM_BASE_URL"
	LLMAPIKeyEnv    = "AGENTHOOKS_LLM_API_KEY_ENV"
	LLMModel        = "AGENTHOOKS_LLM_MODEL"
	TeamServer      = "AGENTHOOKS_TEAM_SERVER"
	TeamToken       = "AGENTHOOKS_TEAM_TOKEN"
	TeamDatabase    = "AGENTHOOKS_TEAM_DATABASE"
	Conversation    = "AGENTHOOKS_CONVERSATION_ID"
	Engine          = "AGENTHOOKS_ENGINE"
	EngineBin       = "AGENTHOOKS_ENGINE_BIN"
	EngineIdle      = "AGENTHOOKS_ENGINE_IDLE"
	EngineDebug     = "AGENTHOOKS_ENGINE_DEBUG"
	Front           = "AGENTHOOKS_FRONT"
	HookMarker      = "AGENTHOOKS_HOOK"
	SandboxMarker   = "AGENTHOOKS_SANDBOX"
	SecretsFD       = "AGENTHOOKS_SECRETS_FD"
	XDGConfigHome   = "XDG_CONFIG_HOME"
	XDGStateHome    = "XDG_STATE_HOME"
	GitConfigGlobal = "GIT_CONFIG_GLOBAL"
	GitConfigSystem = "GIT_CONFIG_SYSTEM"
	ClaudeConfigDir = "CLAUDE_CONFIG_DIR"
)

// All are the variables agenthooks reads, its own first.
var All = []Var{
	{Name: StateDir, Meaning: "the folder of the state store (sessions, the execution log)", Default: "$XDG_STATE_HOME/agenthooks, else the OS's per-user state folder", Separates: true},
	{Name: ConfigDir, Meaning: "the folder of the trust store (trust.json)", Default: "$XDG_CONFIG_HOME/agenthooks, else the OS's per-user config folder", Separates: true},
	{Name: EnterpriseFile, Meaning: "the enterprise hooks file", Default: "the OS's (/etc/cursor/hooks.json on Linux)", Separates: true},
	{Name: LogRetention, Meaning: "how long the execution log keeps a record (72h, 30d)", Default: "30d", Separates: true},
	{Name: LogMaxRecords, Meaning: "the most records the execution log keeps", Default: "100000", Separates: true},
	{Name: LogMaxBytes, Meaning: "the most bytes the execution log keeps (64MiB, 1G)", Default: "64MiB", Separates: true},
	{Name: Redact, Meaning: "what the log keeps of payloads: redact, keep, drop or truncate", Default: "redact", Separates: true},
	{Name: RedactBytes, Meaning: "each big field's cap (redact) or each part's (truncate)", Default: "4096", Separates: true},
	{Name: SessionWait, Meaning: "how long a step waits for another process's session lock (5s)", Default: "1s", Separates: true},
	{Name: LLMProvider, Meaning: "the prompt hooks' model API: openai or anthropic", Default: "openai", Separates: true},
	{Name: LLMBaseURL, Meaning: "the model API's root URL", Default: "the provider's", Separates: true},
	{Name: LLMAPIKeyEnv, Meaning: "the variable holding the model API key", Default: "OPENAI_API_KEY or ANTHROPIC_API_KEY", Separates: true},
	{Name: LLMModel, Meaning: "the model prompt hooks ask", Default: "the provider's small model", Separates: true},
	{Name: TeamServer, Meaning: "the team hooks server the engine and `agenthooks sync` fetch from", Default: "none: no team sync", Separates: true},
	{Name: TeamToken, Meaning: "the team server's token (withheld from hooks)", Default: "none", Separates: true},
	{Name: TeamDatabase, Meaning: "`agenthooks serve`'s database (a SQLite path or a postgres:// URL)", Default: "team.db in the state folder"},
	{Name: Conversation, Meaning: "`agenthooks exec`'s conversation_id when --conversation is not given", Default: "none"},
	{Name: Engine, Meaning: "off: every step runs in a process of its own, without the resident engine", Default: "on"},
	{Name: EngineBin, Meaning: "the engine binary the client starts, and that serves the sandbox's trampoline", Default: "agenthooks-engine beside the client"},
	{Name: EngineIdle, Meaning: "how long an idle engine waits before it exits", Default: "15m"},
	{Name: EngineDebug, Meaning: "the client says on stderr why it ran a step itself", Default: "off"},
	{Name: Front, Meaning: "set by the client for the verb it runs in its own process", Default: "unset"},
	{Name: HookMarker, Meaning: "set inside hooks: `agenthooks exec` in a hook runs its command ungated", Default: "unset"},
	{Name: SandboxMarker, Meaning: "set inside the kernel sandbox", Default: "unset"},
	{Name: SecretsFD, Meaning: "set by the client: the pipe the engine binary reads the team token and the model key from, which stay out of its environment", Default: "unset"},
	{Name: "HOME", Meaning: "the home folder: user and team hooks, Claude Code's settings, git's global configuration", Default: "the user's", Separates: true, Git: true},
	{Name: "USERPROFILE", Meaning: "the home folder on Windows", Default: "the user's", Separates: true, Git: true},
	{Name: "HOMEDRIVE", Meaning: "the home folder's drive on Windows (git)", Default: "the user's", Git: true},
	{Name: "HOMEPATH", Meaning: "the home folder's path on Windows (git)", Default: "the user's", Git: true},
	{Name: "APPDATA", Meaning: "the config folder on Windows", Default: "the user's", Separates: true},
	{Name: "LOCALAPPDATA", Meaning: "the state folder on Windows", Default: "the user's", Separates: true},
	{Name: XDGConfigHome, Meaning: "the config folder (trust.json; git's XDG configuration)", Default: "~/.config", Separates: true, Git: true},
	{Name: XDGStateHome, Meaning: "the state folder", Default: "~/.local/state", Separates: true},
	{Name: "XDG_CACHE_HOME", Meaning: "the cache folder", Default: "~/.cache", Separates: true},
	{Name: "XDG_RUNTIME_DIR", Meaning: "where the engine's socket is", Default: "agenthooks/run in the state folder ($XDG_STATE_HOME, else ~/.local/state)", Separates: true},
	{Name: "TMPDIR", Meaning: "the temporary folder, which the sandbox lets commands write unless disableTmpWrite", Default: "/tmp"},
	{Name: "OPENAI_API_KEY", Meaning: "the OpenAI API key of prompt hooks (withheld from hooks)", Default: "none", Separates: true},
	{Name: "ANTHROPIC_API_KEY", Meaning: "the Anthropic API key of prompt hooks (withheld from hooks)", Default: "none", Separates: true},
	{Name: ClaudeConfigDir, Meaning: "Claude Code's user folder (its user settings file and plugins), as Claude Code reads it", Default: "~/.claude", Separates: true},
	{Name: "PATH", Meaning: "where programs are found: hooks, git, an external git-<name> before an alias", Default: "the system's", Git: true},
	{Name: "GIT_", Meaning: "git's own variables (GIT_CONFIG_GLOBAL, GIT_DIR, …): which configuration and aliases a policy's git sees", Default: "git's", Git: true, Prefix: true},
}

// Lookup is the variable of name in All (a GIT_ variable is the GIT_
// entry); ok is false for one agenthooks does not read.
func Lookup(name string) (Var, bool) {
	n := Name(name)
	for _, v := range All {
		if v.Prefix && strings.HasPrefix(n, Name(v.Name)) || !v.Prefix && n == Name(v.Name) {
			return v, true
		}
	}
	return Var{}, false
}

// GitVar reports whether name chooses git's configuration or programs.
func GitVar(name string) bool {
	v, ok := Lookup(name)
	return ok && v.Git
}

// Separating returns the entries of env that separate engines, sorted:
// those of the variables that say so, every AGENTHOOKS_* variable not
// declared here (an unknown setting errs on the side of an engine of its
// own), and the variable AGENTHOOKS_LLM_API_KEY_ENV names (a model key).
func Separating(env []string) []string {
	keyEnv := strings.TrimSpace(Getenv(env)(LLMAPIKeyEnv))
	var out []string
	for _, kv := range env {
		k, _, ok := strings.Cut(kv, "=")
		if !ok {
			continue
		}
		v, known := Lookup(k)
		if known && v.Separates || !known && strings.HasPrefix(Name(k), Name("AGENTHOOKS_")) ||
			keyEnv != "" && Name(k) == Name(keyEnv) {
			out = append(out, kv)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// Getenv returns a lookup over env (NAME=value entries; the last of a
// name wins), comparing names as the system does.
func Getenv(env []string) func(string) string {
	m := make(map[string]string, len(env))
	for _, kv := range env {
		if k, v, ok := strings.Cut(kv, "="); ok {
			m[Name(k)] = v
		}
	}
	return func(k string) string { return m[Name(k)] }
}

// Environ is the process's environment, or env when it is not nil: nil
// stands for "this process's own" in every API that takes one.
func Environ(env []string) []string {
	if env == nil {
		return os.Environ()
	}
	return env
}

// Process is a lookup over the process's own environment, for the mains
// and the command line.
func Process() func(string) string { return os.Getenv }

// Entry is a variable's value in effect.
type Entry struct {
	Var
	// Name is the variable's own name (GIT_CONFIG_GLOBAL for the GIT_
	// entry).
	Name  string
	Value string
	Set   bool
}

// InEffect lists every declared variable with its value in env, in the
// order of All; a prefix entry lists each variable of env it covers, or
// itself unset. Secrets show as "(set)".
func InEffect(env []string) []Entry {
	get := Getenv(env)
	var out []Entry
	for _, v := range All {
		if v.Prefix {
			var names []string
			for _, kv := range env {
				if k, _, ok := strings.Cut(kv, "="); ok && strings.HasPrefix(Name(k), Name(v.Name)) {
					names = append(names, k)
				}
			}
			slices.Sort(names)
			names = slices.Compact(names)
			for _, n := range names {
				out = append(out, Entry{Var: v, Name: n, Value: get(n), Set: true})
			}
			if len(names) == 0 {
				out = append(out, Entry{Var: v, Name: v.Name + "*"})
			}
			continue
		}
		val := get(v.Name)
		e := Entry{Var: v, Name: v.Name, Value: val, Set: val != ""}
		if e.Set && secret(v.Name) {
			e.Value = "(set)"
		}
		out = append(out, e)
	}
	return out
}

// secret reports the variables whose values are never shown.
func secret(name string) bool {
	return name == TeamToken || strings.HasSuffix(name, "_API_KEY")
}
