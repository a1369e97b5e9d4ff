package engine

import (
	"strings"

	"github.com/agenthooks/agenthooks/internal/settings"
)

// RunOption tells one run about its caller. A host serving many callers
// (the resident engine) passes each step's own in the call, never through
// its context.
type RunOption func(*caller)

// caller is what the options of one run say.
type caller struct {
	// env, when set, is the base environment of the run's hooks in place
	// of Options.Env; withhold names its variables they must not get.
	env, withhold []string
	hasEnv        bool
	// agent is recorded as the agent the step came from.
	agent string
}

// CallerEnv gives the run's hooks env as their base environment in place
// of Options.Env: a resident host serves many callers, and each caller's
// hooks inherit that caller's environment, as they would from a process
// of its own. agenthooks' own secrets named in env (SecretEnv) and in
// Options.Withhold are withheld from it. A nil env changes nothing.
func CallerEnv(env []string) RunOption {
	return func(c *caller) {
		if env == nil {
			return
		}
		m := make(map[string]string, len(env))
		for _, kv := range env {
			if k, v, ok := strings.Cut(kv, "="); ok {
				m[settings.Name(k)] = v
			}
		}
		c.env, c.hasEnv = env, true
		c.withhold = SecretEnv(func(k string) string { return m[settings.Name(k)] })
	}
}

// CallerAgent records agent as the agent the step came from
// (audit.Record.Agent): the log, and a team's audit, tell Claude Code's
// blocked commands from Codex's.
func CallerAgent(agent string) RunOption {
	return func(c *caller) { c.agent = agent }
}

// callerOf applies a run's options.
func callerOf(opts []RunOption) caller {
	var c caller
	for _, o := range opts {
		o(&c)
	}
	return c
}

// hostEnv is the base environment of a run's hooks.
func (e *Engine) hostEnv(c caller) []string {
	if c.hasEnv {
		return withhold(c.env, append(c.withhold, e.opts.Withhold...))
	}
	return e.opts.Env
}
