package engine

import (
	"context"
	"strings"
)

type envCtxKey struct{}

// WithEnv returns a context under which runs give their hooks env as the
// base environment in place of Options.Env: a resident host serves many
// callers, and each caller's hooks inherit that caller's environment, as
// they would from a process of its own. agenthooks' own secrets named in
// env (SecretEnv) and in Options.Withhold are withheld from it.
func WithEnv(ctx context.Context, env []string) context.Context {
	m := make(map[string]string, len(env))
	for _, kv := range env {
		if k, v, ok := strings.Cut(kv, "="); ok {
			m[envKey(k)] = v
		}
	}
	names := SecretEnv(func(k string) string { return m[envKey(k)] })
	return context.WithValue(ctx, envCtxKey{}, callerEnv{env: env, withhold: names})
}

type callerEnv struct {
	env, withhold []string
}

// hostEnv is the base environment of a run's hooks.
func (e *Engine) hostEnv(ctx context.Context) []string {
	if c, ok := ctx.Value(envCtxKey{}).(callerEnv); ok {
		return withhold(c.env, append(c.withhold, e.opts.Withhold...))
	}
	return e.opts.Env
}
