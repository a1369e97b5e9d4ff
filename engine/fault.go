package engine

import (
	"context"
	"fmt"

	"github.com/agenthooks/agenthooks/config"
	"github.com/agenthooks/agenthooks/event"
	"github.com/agenthooks/agenthooks/runner"
)

// Fault is the decision on a step that agenthooks itself could not decide:
// the payload could not be read, or running it panicked. No hook runs;
// every hook that would have applied counts as failed with cause, so a
// failClosed one blocks exactly as its own crash would, and the others
// fail open. With a payload the engine can read, the hooks are the ones
// whose matcher accepts it; without one (nil, or bytes that are not a
// JSON object), every hook configured for the step would have applied.
//
// The outcome is recorded in the execution log like any run.
func (e *Engine) Fault(ctx context.Context, step event.Step, payload []byte, cause error, opts ...RunOption) *Decision {
	d := &Decision{Step: step}
	idx := event.Index(step)
	if idx < 0 {
		return d
	}
	configured := e.snap.Load().byStep[idx]
	if len(configured) == 0 {
		return d
	}
	hooks := configured
	in := mergeInput{step: step}
	filePath, conv := "", ""
	if p, err := parsePayload(payload); err == nil && len(payload) > 0 {
		hooks = hooks[:0:0]
		for _, m := range match(step, p.fields, configured) {
			if m.Matched {
				hooks = append(hooks, m.Hook)
			}
		}
		in.toolName = stringField(p.fields, "tool_name")
		filePath = stringField(p.fields, "file_path")
		conv = sessionID(p.fields)
	}
	d = faultDecision(in, hooks, cause)
	setBlockMessages(d, filePath, in.toolName)
	if len(d.Hooks) > 0 {
		e.record(ctx, step, conv, nil, false, d, callerOf(opts).agent)
	}
	return d
}

// faultDecision merges hooks that all failed with cause.
func faultDecision(in mergeInput, hooks []*config.Hook, cause error) *Decision {
	outcomes := make([]Outcome, len(hooks))
	detail := "agenthooks could not decide this step"
	if cause != nil {
		detail = cause.Error()
	}
	for i, h := range hooks {
		outcomes[i] = Outcome{Hook: h, Result: runner.Result{Failure: runner.HostFault, Detail: detail, ExitCode: -1}}
	}
	return merge(in, outcomes)
}

// unloadedRunner answers the stand-in of a fail-closed hook whose file
// could not be loaded: it failed, so it blocks.
type unloadedRunner struct{}

func (unloadedRunner) Run(_ context.Context, req runner.Request) runner.Result {
	return runner.Result{Failure: runner.HostFault, ExitCode: -1,
		Detail: "its hooks file could not be loaded, and it may hold a fail-closed hook for this step: " + req.Hook.Command}
}

// safeRun runs one hook, turning a runner's panic (a bug in agenthooks or
// in an in-process runner such as a policy) into that hook's failure, so
// its failClosed applies and the other hooks' answers still count.
func safeRun(ctx context.Context, r runner.Runner, req runner.Request) (res runner.Result) {
	defer func() {
		if p := recover(); p != nil {
			res = runner.Result{Failure: runner.Panicked, ExitCode: -1,
				Detail: fmt.Sprintf("the %s runner panicked (a bug in agenthooks; please report it): %v", req.Hook.Type, p)}
		}
	}()
	return r.Run(ctx, req)
}
