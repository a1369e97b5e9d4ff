package engine_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/agenthooks/agenthooks/config"
	"github.com/agenthooks/agenthooks/engine"
	"github.com/agenthooks/agenthooks/event"
	"github.com/agenthooks/agenthooks/trust"
)

// TestEveryHookRunsAndOrderIsPriority: an audit hook still runs when
// another denies, and the merge follows priority, not finishing order.
func TestEveryHookRunsAndOrderIsPriority(t *testing.T) {
	f := newFixture(t)
	audit := filepath.Join(f.dir, "audit")
	f.write(config.Enterprise, map[event.Step][]hk{event.BeforeShellExecution: {
		{"command": f.script("slow.sh", `cat >/dev/null; sleep 0.3; echo '{"permission":"deny","user_message":"slow enterprise"}'`)},
	}})
	f.write(config.User, map[event.Step][]hk{event.BeforeShellExecution: {
		{"command": f.script("fast.sh", `cat >/dev/null; echo '{"permission":"deny","user_message":"fast user"}'`)},
		{"command": f.script("audit.sh", `cat >> `+audit+`; echo >> `+audit)},
	}})
	d := run(t, f.engine(), event.BeforeShellExecution, `{"command":"git push"}`)
	if d.UserMessage != "slow enterprise\nfast user" {
		t.Fatalf("messages %q: not in priority order", d.UserMessage)
	}
	logged, err := os.ReadFile(audit)
	if err != nil || !strings.Contains(string(logged), `"command":"git push"`) {
		t.Fatalf("audit hook did not run: %q %v", logged, err)
	}
	if got := said(d); !slices.Equal(got, []string{"deny", "deny", "none"}) {
		t.Fatalf("said %v", got)
	}
}

// TestEditHooksRunInSequence: afterFileEdit hooks run one after another in
// priority order even when the first is slow.
func TestEditHooksRunInSequence(t *testing.T) {
	f := newFixture(t)
	out := filepath.Join(f.dir, "order")
	f.write(config.Enterprise, map[event.Step][]hk{event.AfterFileEdit: {
		{"command": f.script("a.sh", `cat >/dev/null; sleep 0.2; echo first >> `+out)},
	}})
	f.write(config.User, map[event.Step][]hk{event.AfterFileEdit: {
		{"command": f.script("b.sh", `cat >/dev/null; echo second >> `+out)},
	}})
	run(t, f.engine(), event.AfterFileEdit, `{"file_path":"/x","edits":[]}`)
	got, _ := os.ReadFile(out)
	if string(got) != "first\nsecond\n" {
		t.Fatalf("order %q", got)
	}
}

// TestMatchers: each step's matcher is tested against the right value.
func TestMatchers(t *testing.T) {
	f := newFixture(t)
	allow := func(name, matcher string) hk {
		h := f.answer(name, `{"permission":"allow","user_message":"`+name+`"}`)
		h["matcher"] = matcher
		return h
	}
	f.write(config.User, map[event.Step][]hk{
		event.BeforeShellExecution: {allow("net", "curl|wget|nc "), allow("all", ""), allow("star", "*")},
		event.PreToolUse:           {allow("shell", "^Shell$"), allow("mcp", "MCP:.*")},
		event.SubagentStart:        {allow("explore", "explore|shell")},
		// A beforeReadFile matcher that cannot match "Read" (TabRead) is
		// refused at load, as a mistake that disarms it (config's
		// TestMatcherNeverMatches), so only one that does is here.
		event.BeforeReadFile:     {allow("read", "^Read$")},
		event.BeforeMCPExecution: {allow("ignored", "never-matches-anything")},
	})
	e := f.engine()
	cases := []struct {
		step    event.Step
		payload string
		want    string
	}{
		{event.BeforeShellExecution, `{"command":"curl example.com"}`, "net\nall\nstar"},
		{event.BeforeShellExecution, `{"command":"ls"}`, "all\nstar"},
		{event.PreToolUse, `{"tool_name":"Shell"}`, "shell"},
		{event.PreToolUse, `{"tool_name":"MCP:search"}`, "mcp"},
		{event.PreToolUse, `{"tool_name":"Read"}`, ""},
		{event.SubagentStart, `{"subagent_type":"generalPurpose"}`, ""},
		{event.SubagentStart, `{"subagent_type":"explore"}`, "explore"},
		{event.BeforeReadFile, `{"file_path":"/x"}`, "read"},
		{event.BeforeMCPExecution, `{"tool_name":"x"}`, "ignored"},
	}
	for _, c := range cases {
		if d := run(t, e, c.step, c.payload); d.UserMessage != c.want {
			t.Errorf("%s %s: hooks %q, want %q", c.step, c.payload, d.UserMessage, c.want)
		}
	}
}

// TestEnvironmentAndWorkingDirectory: each source's hooks run from their
// own folder and see the variables of Cursor's hooks documentation
// (docs/semantics.md, one hook).
func TestEnvironmentAndWorkingDirectory(t *testing.T) {
	f := newFixture(t)
	body := `cat >/dev/null; printf '{"permission":"allow","user_message":"%s|%s|%s|%s|%s|%s"}' "$(pwd -P)" "$CURSOR_PROJECT_DIR" "$CLAUDE_PROJECT_DIR" "$CURSOR_VERSION" "$CURSOR_USER_EMAIL" "$CURSOR_TRANSCRIPT_PATH"`
	for _, src := range []config.Source{config.Enterprise, config.Team, config.Project, config.User} {
		f.write(src, map[event.Step][]hk{event.BeforeShellExecution: {{"command": f.script(src.String()+".sh", body)}}})
	}
	e := f.engine()
	d := run(t, e, event.BeforeShellExecution, `{"command":"ls","cursor_version":"9.9","user_email":"a@b.c","transcript_path":"/t.txt"}`)
	real := func(p string) string {
		r, err := filepath.EvalSymlinks(p)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	rest := "|" + f.root + "|" + f.root + "|9.9|a@b.c|/t.txt"
	want := []string{
		real(filepath.Dir(f.enterprise)) + rest,
		real(filepath.Join(f.home, ".cursor", "managed", "team_1", "hooks")) + rest,
		real(f.root) + rest,
		real(filepath.Join(f.home, ".cursor")) + rest,
	}
	if got := strings.Split(d.UserMessage, "\n"); !slices.Equal(got, want) {
		t.Fatalf("hooks saw\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestCommonFieldsFilled: a payload without the common fields reaches the
// hook with all of them.
func TestCommonFieldsFilled(t *testing.T) {
	f := newFixture(t)
	out := filepath.Join(f.dir, "payload")
	f.write(config.User, map[event.Step][]hk{event.AfterAgentResponse: {{"command": f.script("p.sh", `cat > `+out)}}})
	run(t, f.engine(), event.AfterAgentResponse, `{"text":"done"}`)
	got, _ := os.ReadFile(out)
	for _, k := range []string{`"hook_event_name":"afterAgentResponse"`, `"conversation_id":""`, `"generation_id":""`, `"model":""`, `"cursor_version":"agenthooks"`, `"workspace_roots":["` + f.root + `"]`, `"user_email":null`, `"transcript_path":null`, `"text":"done"`} {
		if !strings.Contains(string(got), k) {
			t.Errorf("payload %s lacks %s", got, k)
		}
	}
}

// TestUntrustedProjectHooksDoNotRun: a project file the trust store does
// not vouch for is reported and skipped; the other sources still run.
func TestUntrustedProjectHooksDoNotRun(t *testing.T) {
	f := newFixture(t)
	p := f.write(config.Project, map[event.Step][]hk{event.BeforeShellExecution: {f.answer("p.sh", `{"permission":"deny"}`)}})
	f.write(config.User, map[event.Step][]hk{event.BeforeShellExecution: {f.answer("u.sh", `{"permission":"allow"}`)}})
	delete(f.trusted, p)
	e := f.engine()
	d := run(t, e, event.BeforeShellExecution, `{"command":"ls"}`)
	if d.Permission != event.Allow || len(d.Hooks) != 1 {
		t.Fatalf("untrusted project hook ran: %q %v", d.Permission, said(d))
	}
	found := false
	for _, pr := range e.Problems() {
		if pr.File == p && strings.Contains(pr.Error(), "not trusted") {
			found = true
		}
	}
	if !found {
		t.Fatalf("no problem names the untrusted file: %v", e.Problems())
	}
	f.trusted[p] = true
	e.Reload(t.Context())
	if d := run(t, e, event.BeforeShellExecution, `{"command":"ls"}`); d.Permission != event.Deny {
		t.Fatalf("trusted project hook did not run: %q", d.Permission)
	}
}

// TestBrokenSourceSkipped: a source that does not parse is reported, and
// the others still load and run.
func TestBrokenSourceSkipped(t *testing.T) {
	f := newFixture(t)
	if err := os.WriteFile(f.enterprise, []byte(`{"version":1,"hooks":{`), 0o644); err != nil {
		t.Fatal(err)
	}
	f.write(config.User, map[event.Step][]hk{event.BeforeShellExecution: {f.answer("u.sh", `{"permission":"deny"}`)}})
	e, err := engine.Load(f.options())
	if err != nil {
		t.Fatal(err)
	}
	if d := run(t, e, event.BeforeShellExecution, `{"command":"ls"}`); d.Permission != event.Deny {
		t.Fatalf("user hook did not run beside a broken enterprise file")
	}
	if len(e.Problems()) == 0 || e.Problems()[0].File != f.enterprise || e.Problems()[0].Line < 1 {
		t.Fatalf("problems %v", e.Problems())
	}
}

func TestHasHooks(t *testing.T) {
	f := newFixture(t)
	e := f.engine()
	for _, s := range event.Steps {
		if e.HasHooks(s) {
			t.Fatalf("HasHooks(%s) with nothing configured", s)
		}
	}
	f.write(config.User, map[event.Step][]hk{event.Stop: {f.answer("s.sh", `{}`)}})
	e.Reload(t.Context())
	if !e.HasHooks(event.Stop) || e.HasHooks(event.SessionStart) || e.HasHooks("nonsense") {
		t.Fatal("HasHooks does not follow the configuration")
	}
}

func TestRunRejectsBadInput(t *testing.T) {
	e := newFixture(t).engine()
	if _, err := e.Run(t.Context(), "nonsense", nil); err == nil {
		t.Fatal("unknown step accepted")
	}
	if _, err := e.Run(t.Context(), event.Stop, []byte(`[1,2]`)); err == nil {
		t.Fatal("non-object payload accepted")
	}
	// A typed input works as a payload.
	if _, err := e.Run(t.Context(), event.Stop, &event.StopInput{Status: "completed"}); err != nil {
		t.Fatal(err)
	}
}

// TestWatchReloads: creating and changing the user hooks file is picked up
// without a Reload call.
func TestWatchReloads(t *testing.T) {
	f := newFixture(t)
	e := f.engine()
	reloaded := make(chan struct{}, 16)
	done := make(chan error, 1)
	ctx, cancel := context.WithCancel(t.Context())
	go func() { done <- e.Watch(ctx, func() { reloaded <- struct{}{} }) }()
	defer func() { cancel(); <-done }()
	time.Sleep(100 * time.Millisecond) // let the watcher start
	f.write(config.User, map[event.Step][]hk{event.Stop: {f.answer("s.sh", `{}`)}})
	waitFor(t, reloaded, func() bool { return e.HasHooks(event.Stop) })
	if err := os.Remove(filepath.Join(f.home, ".cursor", "hooks.json")); err != nil {
		t.Fatal(err)
	}
	waitFor(t, reloaded, func() bool { return !e.HasHooks(event.Stop) })
}

func waitFor(t *testing.T, reloaded <-chan struct{}, cond func() bool) {
	t.Helper()
	deadline := time.After(10 * time.Second)
	for !cond() {
		select {
		case <-reloaded:
		case <-deadline:
			t.Fatal("configuration change not picked up")
		}
	}
}

// TestTypedInputGetsCommonFields: a typed input leaves the common fields
// zero; the hook still sees the engine's defaults.
func TestTypedInputGetsCommonFields(t *testing.T) {
	f := newFixture(t)
	out := filepath.Join(f.dir, "payload")
	f.write(config.User, map[event.Step][]hk{event.BeforeShellExecution: {{"command": f.script("p.sh", `cat > `+out)}}})
	if _, err := f.engine().Run(t.Context(), event.BeforeShellExecution, &event.BeforeShellExecutionInput{Command: "ls", Cwd: "/"}); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(out)
	for _, k := range []string{`"hook_event_name":"beforeShellExecution"`, `"cursor_version":"agenthooks"`, `"workspace_roots":["` + f.root + `"]`, `"command":"ls"`} {
		if !strings.Contains(string(got), k) {
			t.Errorf("payload %s lacks %s", got, k)
		}
	}
}

// TestTypedInputsKeepSessions: typed inputs marshal conversation_id and
// loop_count as zero values; neither may lose the session nor switch the
// loop limit off. Payloads are not HTML-escaped, and hooks are marked.
func TestTypedInputsKeepSessions(t *testing.T) {
	f := newFixture(t)
	out := filepath.Join(f.dir, "seen")
	f.write(config.User, map[event.Step][]hk{
		event.SessionStart:         {f.answer("s.sh", `{"env":{"FOO":"bar"}}`)},
		event.BeforeShellExecution: {{"command": f.script("e.sh", `cat >> `+out+`; echo " FOO=$FOO MARK=$AGENTHOOKS_HOOK" >> `+out)}},
		event.Stop:                 {{"command": f.script("st.sh", `cat >/dev/null; echo '{"followup_message":"again"}'`), "loop_limit": 2}},
	})
	e := f.engine()
	ctx := t.Context()
	if _, err := e.Run(ctx, event.SessionStart, &event.SessionStartInput{SessionID: "conv-1"}); err != nil {
		t.Fatal(err)
	}
	in := &event.BeforeShellExecutionInput{Command: "make 2>&1 && ls"}
	in.ConversationID = "conv-1"
	if _, err := e.Run(ctx, event.BeforeShellExecution, in); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(out)
	if !strings.Contains(string(got), `"command":"make 2>&1 && ls"`) || !strings.Contains(string(got), "FOO=bar MARK=1") {
		t.Fatalf("hook saw %s", got)
	}
	// loop_limit 2: two follow-ups, then none (the chain ends and starts over).
	var got2 []bool
	for range 5 {
		stop := &event.StopInput{Status: "completed"}
		stop.ConversationID = "conv-1"
		d, err := e.Run(ctx, event.Stop, stop)
		if err != nil {
			t.Fatal(err)
		}
		got2 = append(got2, d.FollowupMessage != "")
	}
	if want := []bool{true, true, false, true, true}; !slices.Equal(got2, want) {
		t.Fatalf("follow-ups %v, want %v", got2, want)
	}
}

// TestReloadSeesRevokedTrust: trust revoked by another process (another
// store on the same file) stops project hooks at the next Reload.
func TestReloadSeesRevokedTrust(t *testing.T) {
	f := newFixture(t)
	p := f.write(config.Project, map[event.Step][]hk{event.BeforeShellExecution: {f.answer("p.sh", `{"permission":"deny"}`)}})
	cfgDir := filepath.Join(f.dir, "trust")
	mine, err := trust.Open(cfgDir)
	if err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(p)
	if err := mine.Trust(f.root, map[string][]byte{p: data}); err != nil {
		t.Fatal(err)
	}
	e := f.engine(func(o *engine.Options) { o.Trust = mine })
	if d := run(t, e, event.BeforeShellExecution, `{"command":"ls"}`); d.Permission != event.Deny {
		t.Fatalf("trusted project hook did not run: %q", d.Permission)
	}
	other, err := trust.Open(cfgDir)
	if err != nil {
		t.Fatal(err)
	}
	if err := other.Revoke(f.root); err != nil {
		t.Fatal(err)
	}
	e.Reload(t.Context())
	if d := run(t, e, event.BeforeShellExecution, `{"command":"ls"}`); d.Permission != event.NoOpinion {
		t.Fatalf("revoked project hook still ran: %q", d.Permission)
	}
}
