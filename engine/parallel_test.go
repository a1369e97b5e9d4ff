package engine_test

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/agenthooks/agenthooks/audit"
	"github.com/agenthooks/agenthooks/config"
	"github.com/agenthooks/agenthooks/engine"
	"github.com/agenthooks/agenthooks/event"
	"github.com/agenthooks/agenthooks/internal/jsonscan"
	"github.com/agenthooks/agenthooks/runner"
)

// concurrencyHooks configures n hooks that record how many of them were
// running at once, and returns the file holding those counts.
func concurrencyHooks(f *fixture, n int) string {
	running := filepath.Join(f.dir, "running")
	counts := filepath.Join(f.dir, "counts")
	if err := os.MkdirAll(running, 0o755); err != nil {
		f.t.Fatal(err)
	}
	body := `cat >/dev/null; touch ` + running + `/$$; sleep 0.3; ls ` + running + ` | wc -l >> ` + counts + `; sleep 0.1; rm ` + running + `/$$`
	var hooks []hk
	for range n {
		hooks = append(hooks, hk{"command": f.script("c.sh", body)})
	}
	f.write(config.User, map[event.Step][]hk{event.BeforeShellExecution: hooks})
	return counts
}

func maxCount(t *testing.T, path string) int {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	m := 0
	for _, line := range strings.Fields(string(b)) {
		n, err := strconv.Atoi(line)
		if err != nil {
			t.Fatal(err)
		}
		m = max(m, n)
	}
	return m
}

// TestParallelism: hooks overlap, never more than MaxParallel at once, and
// not at all with Sequential.
func TestParallelism(t *testing.T) {
	cases := []struct {
		name       string
		opts       func(*engine.Options)
		hooks      int
		min, limit int
	}{
		{"default runs all eight at once", func(*engine.Options) {}, 8, 8, 8},
		{"bounded by MaxParallel", func(o *engine.Options) { o.MaxParallel = 3 }, 6, 2, 3},
		{"Sequential", func(o *engine.Options) { o.Sequential = true }, 3, 1, 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := newFixture(t)
			counts := concurrencyHooks(f, c.hooks)
			d := run(t, f.engine(c.opts), event.BeforeShellExecution, `{"command":"ls"}`)
			if len(d.Hooks) != c.hooks {
				t.Fatalf("%d hooks ran", len(d.Hooks))
			}
			if m := maxCount(t, counts); m < c.min || m > c.limit {
				t.Fatalf("at most %d hooks ran at once, want between %d and %d", m, c.min, c.limit)
			}
		})
	}
}

// memorySink keeps what it is handed.
type memorySink struct {
	mu      sync.Mutex
	records []audit.Record
}

func (s *memorySink) Write(_ context.Context, recs []audit.Record) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.records = append(s.records, recs...)
	return nil
}

// TestExecutionLog: every execution reaches the sink with the fields of
// Cursor's execution log (docs/cli.md), and the in-memory log keeps the
// last 100.
func TestExecutionLog(t *testing.T) {
	f := newFixture(t)
	f.write(config.User, map[event.Step][]hk{event.BeforeShellExecution: {
		f.answer("a.sh", `{"permission":"deny","user_message":"no"}`),
		{"command": f.script("b.sh", `echo oops >&2; exit 3`)},
	}})
	sink := &memorySink{}
	e := f.engine(func(o *engine.Options) { o.Sink = sink })
	for i := range 60 {
		run(t, e, event.BeforeShellExecution, `{"conversation_id":"c`+strconv.Itoa(i)+`","command":"git push"}`)
	}
	if len(sink.records) != 120 {
		t.Fatalf("sink got %d records, want 120", len(sink.records))
	}
	if got := len(e.Log()); got != audit.RingSize {
		t.Fatalf("in-memory log keeps %d, want %d", got, audit.RingSize)
	}
	last := e.Log()[audit.RingSize-1]
	if last.ConversationID != "c59" || last.Step != "beforeShellExecution" || last.Source != "user" ||
		!strings.HasSuffix(last.Command, "b.sh") || last.ExitCode != 3 || last.Failure != "exit_status" ||
		!strings.Contains(last.Stderr, "oops") || last.Decision != "deny" || last.Outcome != "failed" ||
		!strings.Contains(string(last.Payload), `"command":"git push"`) || last.ID == "" || last.Time.IsZero() {
		t.Fatalf("record %+v", last)
	}
	first := sink.records[0]
	if string(first.Response) != `{"permission":"deny","user_message":"no"}` || first.Outcome != "deny" {
		t.Fatalf("record %+v", first)
	}
}

// TestHookTypesRegistry: a type without a runner fails (open or closed as
// configured); a registered runner serves it.
func TestHookTypesRegistry(t *testing.T) {
	f := newFixture(t)
	f.write(config.User, map[event.Step][]hk{event.BeforeShellExecution: {
		{"type": "prompt", "prompt": "Is this safe?", "failClosed": true},
	}})
	d := run(t, f.engine(), event.BeforeShellExecution, `{"command":"ls"}`)
	if d.Hooks[0].Result.Failure != runner.Unsupported || d.Permission != event.Deny {
		t.Fatalf("prompt hook without a runner: %q %q", d.Hooks[0].Result.Failure, d.Permission)
	}
	judge := runner.Func(func(_ context.Context, req runner.Request) runner.Result {
		return runner.Result{Response: &event.Response{Permission: event.Ask, UserMessage: req.Hook.Prompt}}
	})
	d = run(t, f.engine(func(o *engine.Options) { o.Runners = map[string]runner.Runner{config.TypePrompt: judge} }), event.BeforeShellExecution, `{"command":"ls"}`)
	if d.Permission != event.Ask || d.UserMessage != "Is this safe?" {
		t.Fatalf("registered prompt runner: %q %q", d.Permission, d.UserMessage)
	}
}

// TestCancel: a canceled context ends the run promptly with the hooks
// marked canceled, and fail-closed hooks deny.
func TestCancel(t *testing.T) {
	f := newFixture(t)
	f.write(config.User, map[event.Step][]hk{event.BeforeShellExecution: {
		{"command": f.script("slow.sh", `sleep 30`), "failClosed": true},
		{"command": f.script("slow2.sh", `sleep 30`)},
	}})
	e := f.engine()
	ctx, cancel := context.WithCancel(t.Context())
	go func() { cancel() }()
	d, err := e.Run(ctx, event.BeforeShellExecution, []byte(`{"command":"ls"}`))
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range d.Hooks {
		if o.Result.Failure != runner.Canceled {
			t.Fatalf("hook %s: failure %q", o.Hook.Command, o.Result.Failure)
		}
	}
	if d.Permission != event.Deny {
		t.Fatalf("permission %q, want deny from the fail-closed hook", d.Permission)
	}
}

// A record says its payload was checked, so that the log does not scan a
// payload of megabytes again, only when the engine's own scan bounded its
// nesting as the log must: a payload nested deeper still runs its hooks,
// and is left to the log to check.
func TestRecordPayloadChecked(t *testing.T) {
	f := newFixture(t)
	f.write(config.User, map[event.Step][]hk{event.BeforeShellExecution: {{"command": f.script("a.sh", `cat >/dev/null; echo '{}'`)}}})
	sink := &memorySink{}
	e := f.engine(func(o *engine.Options) { o.Sink = sink })
	run(t, e, event.BeforeShellExecution, `{"command":"ls","tool_input":{"a":[1,{"b":2}]}}`)
	for _, n := range []int{audit.MaxDepth - 1, audit.MaxDepth} {
		run(t, e, event.BeforeShellExecution, `{"command":"ls","deep":`+strings.Repeat("[", n)+strings.Repeat("]", n)+`}`)
	}
	if len(sink.records) != 3 {
		t.Fatalf("sink got %d records, want 3", len(sink.records))
	}
	for i, want := range []bool{true, true, false} {
		r := sink.records[i]
		if r.PayloadChecked != want {
			t.Errorf("record %d: PayloadChecked %v, want %v", i, r.PayloadChecked, want)
		}
		if want && jsonscan.CheckDepth(r.Payload, audit.MaxDepth) != nil {
			t.Errorf("record %d: checked, but its payload fails the log's check", i)
		}
	}
}
