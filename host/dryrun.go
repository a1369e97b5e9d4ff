package host

import (
	"context"
	"fmt"

	"github.com/agenthooks/agenthooks/config"
	"github.com/agenthooks/agenthooks/engine"
	"github.com/agenthooks/agenthooks/event"
)

// DryRun runs the hooks of step for roots exactly as Run does, and
// returns the decision with how every configured hook of the step was
// matched, remembering nothing (engine.DryRun): what `agenthooks test`
// shows. env is the caller's environment (nil: this process's). A panic of
// agenthooks' own is an error.
func (h *Host) DryRun(ctx context.Context, roots []string, step event.Step, payload []byte, env []string) (d *engine.Decision, ms []engine.Match, err error) {
	defer func() {
		if p := recover(); p != nil {
			d, ms, err = nil, nil, h.panicErr(p)
		}
	}()
	eng, err := h.Engine(roots, config.Skip{})
	if err != nil {
		return nil, nil, fmt.Errorf("load hooks: %w", err)
	}
	return eng.DryRun(ctx, step, payload, engine.CallerEnv(env))
}
