package engine

import (
	"context"
	"strings"
	"testing"

	"github.com/agenthooks/agenthooks/event"
	"github.com/agenthooks/agenthooks/runner"
)

// The model writes the command a matcher is tested against. One that makes
// the matcher run out of time must not slip past the hook: the hook counts
// as failed, so a fail-closed one blocks.
func TestMatcherTimeoutIsAFailure(t *testing.T) {
	for _, failClosed := range []bool{true, false} {
		e := loadMatcherHook(t, `(?=g)^(\w+\s?)*$`, failClosed)
		cmd := "git push " + strings.Repeat("a", 40) + "!"
		d, err := e.Run(context.Background(), event.BeforeShellExecution, &event.BeforeShellExecutionInput{Command: cmd})
		if err != nil {
			t.Fatal(err)
		}
		if len(d.Hooks) != 1 || d.Hooks[0].Result.Failure != runner.MatcherTimeout {
			t.Fatalf("failClosed %v: outcomes %+v, want one matcher_timeout", failClosed, d.Hooks)
		}
		if d.Blocked() != failClosed {
			t.Errorf("failClosed %v: blocked = %v", failClosed, d.Blocked())
		}
	}
}
