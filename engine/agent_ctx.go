package engine

import "context"

type agentCtxKey struct{}

// WithAgent returns a context under which runs record agent as the agent
// the step came from (audit.Record.Agent): the log, and a team's audit,
// tell Claude Code's blocked commands from Codex's.
func WithAgent(ctx context.Context, agent string) context.Context {
	return context.WithValue(ctx, agentCtxKey{}, agent)
}

// agentOf is the agent WithAgent set, or "".
func agentOf(ctx context.Context) string {
	a, _ := ctx.Value(agentCtxKey{}).(string)
	return a
}
