package engine

import (
	"context"
	"testing"

	"github.com/agenthooks/agenthooks/config"
	"github.com/agenthooks/agenthooks/event"
	"github.com/agenthooks/agenthooks/runner"
)

type panicRunner struct{}

func (panicRunner) Run(context.Context, runner.Request) runner.Result { panic("runner bug") }

// A runner that panics fails its hook: a fail-closed one blocks, and the
// engine goes on.
func TestRunnerPanicFailsTheHook(t *testing.T) {
	for _, failClosed := range []bool{true, false} {
		h := &config.Hook{Step: event.BeforeShellExecution, Type: "boom", FailClosed: failClosed, Source: config.User, File: "hooks.json"}
		e := &Engine{opts: Options{Runners: map[string]runner.Runner{"boom": panicRunner{}}, DefaultTimeout: runner.DefaultTimeout}}
		res := e.runHook(context.Background(), event.BeforeShellExecution, h, []byte(`{}`), runEnv{})
		if res.Failure != runner.Panicked {
			t.Fatalf("failure = %q, want %q", res.Failure, runner.Panicked)
		}
		d := merge(mergeInput{step: event.BeforeShellExecution}, []Outcome{{Hook: h, Result: res}})
		if d.Blocked() != failClosed {
			t.Errorf("failClosed %v: blocked = %v", failClosed, d.Blocked())
		}
	}
}
