package engine

import (
	"context"
	"maps"
	"slices"

	"github.com/agenthooks/agenthooks/config"
	"github.com/agenthooks/agenthooks/runner"
	"github.com/agenthooks/agenthooks/session"
)

// envSource is the source of the hook whose value of the sessionStart
// variable name the merge kept: the first, in priority order, whose answer
// the merge read and that set it.
func envSource(hooks []Outcome, name string, known config.Sources) config.Source {
	for _, o := range hooks {
		r := o.Result
		if r.Failure != runner.OK || r.Response == nil {
			continue
		}
		if _, ok := r.Response.Env[name]; ok {
			return o.Hook.Source
		}
	}
	return known.Lowest()
}

// screenEnv takes the refused variables out of a sessionStart hook's
// answer before the merge sees it, so they reach neither the session nor
// Decision.Env, and warns about each. The response keeps its raw bytes:
// the execution log shows what the hook said.
func (e *Engine) screenEnv(ctx context.Context, h *config.Hook, res *runner.Result) {
	if res.Response == nil || len(res.Response.Env) == 0 {
		return
	}
	var env map[string]string
	for _, name := range slices.Sorted(maps.Keys(res.Response.Env)) {
		why := session.Refused(name, h.Source, e.sources)
		if why == "" {
			continue
		}
		if env == nil {
			// A copy: the runner's response is not edited in place.
			env = maps.Clone(res.Response.Env)
		}
		delete(env, name)
		e.opts.Logger.WarnContext(ctx, "sessionStart env variable refused",
			"variable", name, "source", h.Source.String(), "hook", h.ID(), "reason", why)
	}
	if env != nil {
		r := *res.Response
		r.Env = env
		res.Response = &r
	}
}
