package engine_test

import (
	"context"
	"sync/atomic"
	"testing"

	"github.com/agenthooks/agenthooks/config"
	"github.com/agenthooks/agenthooks/engine"
	"github.com/agenthooks/agenthooks/event"
	"github.com/agenthooks/agenthooks/runner"
	"github.com/agenthooks/agenthooks/session"
)

// countingSessions counts the session reads.
type countingSessions struct {
	session.Memory
	gets atomic.Int64
}

func (c *countingSessions) Get(ctx context.Context, id string) (session.Session, error) {
	c.gets.Add(1)
	return c.Memory.Get(ctx, id)
}

// inProcess answers every hook itself, like a policy.
type inProcess struct{}

func (inProcess) Run(context.Context, runner.Request) runner.Result {
	return runner.Result{Stdout: []byte(`{}`)}
}
func (inProcess) InProcess(*config.Hook) bool { return true }

// The session is read only when a step needs it: not when no hook
// matches, not when every hook that runs is in-process, and still when a
// hook starts a process (its env comes from the session).
func TestSessionReadOnlyWhenNeeded(t *testing.T) {
	f := newFixture(t)
	f.write(config.User, map[event.Step][]hk{event.BeforeShellExecution: {
		{"command": "policy-like", "matcher": "git push"},
	}})
	sess := &countingSessions{}
	e := f.engine(func(o *engine.Options) {
		o.Sessions = sess
		o.Runners = map[string]runner.Runner{config.TypeCommand: inProcess{}}
	})
	run(t, e, event.BeforeShellExecution, `{"conversation_id":"c","command":"ls"}`)
	if n := sess.gets.Load(); n != 0 {
		t.Errorf("no hook matched, and the session was read %d times", n)
	}
	if d := run(t, e, event.BeforeShellExecution, `{"conversation_id":"c","command":"git push"}`); len(d.Hooks) != 1 {
		t.Fatalf("the in-process hook did not run: %+v", d)
	}
	if n := sess.gets.Load(); n != 0 {
		t.Errorf("only in-process hooks ran, and the session was read %d times", n)
	}
	e = f.engine(func(o *engine.Options) { o.Sessions = sess })
	run(t, e, event.BeforeShellExecution, `{"conversation_id":"c","command":"git push"}`)
	if n := sess.gets.Load(); n != 1 {
		t.Errorf("a process hook ran, and the session was read %d times, want 1", n)
	}
}
