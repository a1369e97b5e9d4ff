package claude

import (
	"testing"

	"github.com/agenthooks/agenthooks/agent"
	"github.com/agenthooks/agenthooks/engine"
	"github.com/agenthooks/agenthooks/event"
)

// BenchmarkClaudeRoundTrip is the translation cost of one Claude
// PreToolUse of Bash, both ways, without the hooks: parse, encode the
// two step payloads, merge two decisions, answer a deny.
func BenchmarkClaudeRoundTrip(b *testing.B) {
	payload := []byte(claudeBash)
	ds := []*engine.Decision{
		{Step: event.PreToolUse},
		{Step: event.BeforeShellExecution, Permission: event.Deny, ModelMessage: "The terminal command was rejected by a hook. no", ClientMessage: "blocked"},
	}
	b.ReportAllocs()
	for b.Loop() {
		r, err := Dialect.Parse(payload, "")
		if err != nil {
			b.Fatal(err)
		}
		for _, c := range r.Calls {
			if _, err := c.JSON(); err != nil {
				b.Fatal(err)
			}
		}
		a := Dialect.Answer(r, agent.Merge(ds), agent.Options{})
		if len(a.Stdout) == 0 {
			b.Fatal("no answer")
		}
	}
}
