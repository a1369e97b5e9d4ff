package llm_test

import (
	"context"
	"testing"

	"github.com/agenthooks/agenthooks/llm"
	"github.com/agenthooks/agenthooks/llm/llmtest"
)

// BenchmarkJudge measures one verdict round trip over loopback against the
// fake API: request encoding, HTTP, response decoding and the strict parse,
// i.e. what agenthooks adds to the model's own latency.
func BenchmarkJudge(b *testing.B) {
	for _, p := range providers {
		b.Run(p, func(b *testing.B) {
			srv := llmtest.New(b, p, llmtest.Reply{Verdict: `{"ok":true,"reason":"read-only"}`})
			c, err := llm.New(llm.Config{Provider: p, BaseURL: srv.URL})
			if err != nil {
				b.Fatal(err)
			}
			req := llm.Request{Prompt: `Only allow read-only commands: {"command":"ls -la","cwd":"/work"}`}
			ctx := context.Background()
			b.ReportAllocs()
			for b.Loop() {
				if _, err := c.Judge(ctx, req); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
