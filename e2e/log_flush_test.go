//go:build unix

package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestLogListsEveryAnsweredStep runs 20 steps at once through the client
// and the resident engine, and then at once agenthooks log: every step
// answered before log was called is listed, though the engine writes the
// log after its answers (log asks it to write what it holds first).
func TestLogListsEveryAnsweredStep(t *testing.T) {
	w := newWorkspace(t)
	const steps = 20
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	// The first step starts the engine; the 20 then all go to it.
	if out, err := w.run(ctx, "sh", "-c", `echo '{"command":"ls","conversation_id":"warm-up"}' | "$0" run beforeShellExecution`, w.Bin); err != nil {
		t.Fatalf("warm-up step: %v\n%s", err, out)
	}
	for round := range 3 {
		var wg sync.WaitGroup
		errs := make(chan string, steps)
		for i := range steps {
			wg.Add(1)
			go func() {
				defer wg.Done()
				payload := fmt.Sprintf(`{"command":"ls","conversation_id":"r%d-s%d"}`, round, i)
				out, err := w.run(ctx, "sh", "-c", `printf '%s' "$1" | "$0" run beforeShellExecution`, w.Bin, payload)
				if err != nil {
					errs <- fmt.Sprintf("step %d: %v\n%s", i, err, out)
				}
			}()
		}
		wg.Wait()
		close(errs)
		for e := range errs {
			t.Fatal(e)
		}
		out, err := w.run(ctx, w.Bin, "log", "--json", "--limit", "0")
		if err != nil {
			t.Fatalf("agenthooks log: %v\n%s", err, out)
		}
		seen := map[string]bool{}
		for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
			var r struct {
				ConversationID string `json:"conversation_id"`
			}
			if json.Unmarshal([]byte(line), &r) == nil && strings.HasPrefix(r.ConversationID, fmt.Sprintf("r%d-", round)) {
				seen[r.ConversationID] = true
			}
		}
		if len(seen) != steps {
			t.Fatalf("round %d: log --json right after %d concurrent steps lists %d of them\n%s", round, steps, len(seen), out)
		}
	}
	st := w.agenthooks("engine", "status", "--json")
	if !strings.Contains(st, `"steps"`) {
		t.Errorf("the steps did not go to a resident engine: %s", st)
	}
}
