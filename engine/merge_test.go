package engine_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/agenthooks/agenthooks/config"
	"github.com/agenthooks/agenthooks/event"
)

// answer returns a hook that prints a fixed JSON answer.
func (f *fixture) answer(name, json string) hk {
	return hk{"command": f.script(name, "cat >/dev/null; printf '%s\\n' '"+json+"'")}
}

// TestGateMostRestrictiveWins: deny > ask > allow > none, whatever the
// source, so no source loosens another's deny.
func TestGateMostRestrictiveWins(t *testing.T) {
	cases := []struct {
		name             string
		enterprise, user string // answers; "" for no hook
		want             event.Permission
	}{
		{"enterprise allow does not cancel user deny", `{"permission":"allow"}`, `{"permission":"deny"}`, event.Deny},
		{"enterprise deny beats user allow", `{"permission":"deny"}`, `{"permission":"allow"}`, event.Deny},
		{"ask beats allow", `{"permission":"allow"}`, `{"permission":"ask"}`, event.Ask},
		{"deny beats ask", `{"permission":"ask"}`, `{"permission":"deny"}`, event.Deny},
		{"allow beats no opinion", `{}`, `{"permission":"allow"}`, event.Allow},
		{"no opinion stays no opinion", `{}`, ``, event.NoOpinion},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			f := newFixture(t)
			f.write(config.Enterprise, map[event.Step][]hk{event.BeforeShellExecution: {f.answer("e.sh", c.enterprise)}})
			if c.user != "" {
				f.write(config.User, map[event.Step][]hk{event.BeforeShellExecution: {f.answer("u.sh", c.user)}})
			}
			d := run(t, f.engine(), event.BeforeShellExecution, `{"command":"rm -rf /"}`)
			if d.Permission != c.want {
				t.Fatalf("permission = %q, want %q (hooks said %v)", d.Permission, c.want, said(d))
			}
			if d.Blocked() != (c.want == event.Deny) {
				t.Fatalf("Blocked() = %v for %q", d.Blocked(), d.Permission)
			}
		})
	}
}

// TestGateMessagesAndRewrites: messages from the hooks that gave the
// winning permission, highest priority first; updated_input and
// new_content from the highest-priority hook that gave one, dropped on deny.
func TestGateMessagesAndRewrites(t *testing.T) {
	f := newFixture(t)
	f.write(config.Enterprise, map[event.Step][]hk{
		event.PreToolUse:     {f.answer("e1.sh", `{"permission":"allow","user_message":"enterprise allows","updated_input":{"command":"npm ci"}}`)},
		event.BeforeReadFile: {f.answer("e2.sh", `{"permission":"allow","new_content":"REDACTED-E"}`)},
	})
	f.write(config.Team, map[event.Step][]hk{
		event.PreToolUse:     {f.answer("t1.sh", `{"permission":"ask","user_message":"team asks","agent_message":"team says wait"}`)},
		event.BeforeReadFile: {f.answer("t2.sh", `{"permission":"allow","new_content":"REDACTED-T"}`)},
	})
	f.write(config.User, map[event.Step][]hk{
		event.PreToolUse: {
			f.answer("u1.sh", `{"permission":"ask","user_message":"user asks too","updated_input":{"command":"npm i"}}`),
			f.answer("u2.sh", `{"permission":"allow","user_message":"user allows"}`),
		},
	})
	e := f.engine()
	d := run(t, e, event.PreToolUse, `{"tool_name":"Shell","tool_input":{"command":"npm install"}}`)
	if d.Permission != event.Ask {
		t.Fatalf("permission %q, want ask", d.Permission)
	}
	if d.UserMessage != "team asks\nuser asks too" || d.AgentMessage != "team says wait" {
		t.Fatalf("messages %q / %q", d.UserMessage, d.AgentMessage)
	}
	if string(d.UpdatedInput) != `{"command":"npm ci"}` {
		t.Fatalf("updated_input %s, want the enterprise one", d.UpdatedInput)
	}
	if got := said(d); !slices.Equal(got, []string{"allow", "ask", "ask", "allow"}) {
		t.Fatalf("said %v", got)
	}
	r := run(t, e, event.BeforeReadFile, `{"file_path":"/x","content":"secret"}`)
	if r.NewContent == nil || *r.NewContent != "REDACTED-E" {
		t.Fatalf("new_content %v, want the enterprise one", r.NewContent)
	}

	// A deny drops every rewrite.
	f.write(config.User, map[event.Step][]hk{
		event.PreToolUse:     {f.answer("u3.sh", `{"permission":"deny","user_message":"no"}`)},
		event.BeforeReadFile: {f.answer("u4.sh", `{"permission":"deny"}`)},
	})
	e.Reload(t.Context())
	d = run(t, e, event.PreToolUse, `{"tool_name":"Shell","tool_input":{"command":"npm install"}}`)
	if d.Permission != event.Deny || d.UpdatedInput != nil || d.UserMessage != "no" {
		t.Fatalf("deny: %+v", d)
	}
	r = run(t, e, event.BeforeReadFile, `{"file_path":"/x","content":"secret"}`)
	if r.Permission != event.Deny || r.NewContent != nil {
		t.Fatalf("deny read: permission %q new_content %v", r.Permission, r.NewContent)
	}
	if !strings.HasPrefix(r.ModelMessage, "File reading was blocked by a security hook: /x. Do not attempt to work around this restriction") {
		t.Fatalf("model message %q", r.ModelMessage)
	}
}

// TestBlockMessages: the client- and model-visible messages as Cursor words
// them (docs/semantics.md, blocking messages).
func TestBlockMessages(t *testing.T) {
	f := newFixture(t)
	deny := f.answer("d.sh", `{"permission":"deny","user_message":"not here","agent_message":"use gh"}`)
	f.write(config.User, map[event.Step][]hk{
		event.BeforeShellExecution: {deny},
		event.BeforeMCPExecution:   {deny},
		event.PreToolUse:           {deny},
		event.SubagentStart:        {f.answer("s.sh", `{"permission":"ask"}`)},
		event.BeforeSubmitPrompt:   {f.answer("p.sh", `{"continue":false,"user_message":"no secrets in prompts"}`)},
	})
	e := f.engine()
	cases := []struct {
		step          event.Step
		payload       string
		client, model string
	}{
		{event.BeforeShellExecution, `{"command":"git push"}`, "Command execution was blocked by a hook: not here", "The terminal command was rejected by a hook. use gh"},
		{event.BeforeMCPExecution, `{"tool_name":"x"}`, "MCP tool execution was blocked by a hook: not here", "The MCP tool call was rejected by a hook. use gh"},
		{event.PreToolUse, `{"tool_name":"Write"}`, "Tool use was blocked by a hook: not here", "The Write tool call was rejected by a hook. use gh"},
		{event.SubagentStart, `{"subagent_type":"explore"}`, "Subagent creation was blocked by a hook", "Starting the subagent was rejected by a hook."},
		{event.BeforeSubmitPrompt, `{"prompt":"my key is x"}`, "Submission blocked by hook: no secrets in prompts", "The prompt submission was blocked by a hook. no secrets in prompts"},
	}
	for _, c := range cases {
		d := run(t, e, c.step, c.payload)
		if !d.Blocked() {
			t.Fatalf("%s: not blocked (%+v)", c.step, d)
		}
		if d.ClientMessage != c.client {
			t.Errorf("%s: client message %q, want %q", c.step, d.ClientMessage, c.client)
		}
		if !strings.HasPrefix(d.ModelMessage, c.model) || !strings.HasSuffix(d.ModelMessage, "Do not attempt to work around this restriction using alternative methods or commands.") {
			t.Errorf("%s: model message %q, want %q + the no-workaround sentence", c.step, d.ModelMessage, c.model)
		}
	}
}

// TestSubagentStartAskIsDeny: Cursor's hooks documentation says ask is
// treated as deny (docs/semantics.md).
func TestSubagentStartAskIsDeny(t *testing.T) {
	f := newFixture(t)
	f.write(config.User, map[event.Step][]hk{event.SubagentStart: {f.answer("a.sh", `{"permission":"ask","user_message":"why?"}`)}})
	d := run(t, f.engine(), event.SubagentStart, `{"subagent_type":"explore"}`)
	if d.Permission != event.Deny || d.UserMessage != "why?" {
		t.Fatalf("permission %q message %q, want deny with the hook's message", d.Permission, d.UserMessage)
	}
}

func TestSubmitPromptMerge(t *testing.T) {
	f := newFixture(t)
	f.write(config.Enterprise, map[event.Step][]hk{event.BeforeSubmitPrompt: {f.answer("e.sh", `{"continue":true}`)}})
	f.write(config.User, map[event.Step][]hk{event.BeforeSubmitPrompt: {
		f.answer("u1.sh", `{"continue":false,"user_message":"first"}`),
		{"command": f.script("u2.sh", `echo second >&2; exit 2`)},
		f.answer("u3.sh", `{"continue":true,"user_message":"fine by me"}`),
	}})
	d := run(t, f.engine(), event.BeforeSubmitPrompt, `{"prompt":"hello"}`)
	if d.Continue == nil || *d.Continue || d.UserMessage != "first\nsecond" {
		t.Fatalf("continue %v message %q", d.Continue, d.UserMessage)
	}
	if got := d.Response(); got["continue"] != false {
		t.Fatalf("response %v", got)
	}

	g := newFixture(t)
	g.write(config.User, map[event.Step][]hk{event.BeforeSubmitPrompt: {g.answer("ok.sh", `{"continue":true}`)}})
	d = run(t, g.engine(), event.BeforeSubmitPrompt, `{"prompt":"hello"}`)
	if d.Continue == nil || !*d.Continue || d.Blocked() {
		t.Fatalf("continue %v", d.Continue)
	}
}

func TestPostToolUseMerge(t *testing.T) {
	f := newFixture(t)
	f.write(config.Enterprise, map[event.Step][]hk{event.PostToolUse: {f.answer("e.sh", `{"additional_context":"from enterprise","updated_mcp_tool_output":{"v":"enterprise"}}`)}})
	f.write(config.User, map[event.Step][]hk{event.PostToolUse: {f.answer("u.sh", `{"additional_context":"from user","updated_mcp_tool_output":{"v":"user"}}`)}})
	e := f.engine()
	d := run(t, e, event.PostToolUse, `{"tool_name":"MCP:search","tool_output":"{}"}`)
	if d.AdditionalContext != "from enterprise\nfrom user" || string(d.UpdatedMCPToolOutput) != `{"v":"enterprise"}` {
		t.Fatalf("context %q output %s", d.AdditionalContext, d.UpdatedMCPToolOutput)
	}
	d = run(t, e, event.PostToolUse, `{"tool_name":"Shell","tool_output":"{}"}`)
	if d.UpdatedMCPToolOutput != nil {
		t.Fatalf("updated_mcp_tool_output applied to a non-MCP tool: %s", d.UpdatedMCPToolOutput)
	}
}

func TestPreCompactJoinsMessages(t *testing.T) {
	f := newFixture(t)
	f.write(config.Enterprise, map[event.Step][]hk{event.PreCompact: {f.answer("e.sh", `{"user_message":"compacting"}`)}})
	f.write(config.User, map[event.Step][]hk{event.PreCompact: {f.answer("u.sh", `{"user_message":"saved a copy"}`)}})
	d := run(t, f.engine(), event.PreCompact, `{"trigger":"auto"}`)
	if d.UserMessage != "compacting\nsaved a copy" {
		t.Fatalf("message %q", d.UserMessage)
	}
}

// TestSessionStartEnvReachesLaterHooks: env merged key by key, higher
// priority wins, and every later hook of the session sees it; another
// session does not.
func TestSessionStartEnvReachesLaterHooks(t *testing.T) {
	f := newFixture(t)
	out := filepath.Join(f.dir, "seen")
	f.write(config.Enterprise, map[event.Step][]hk{event.SessionStart: {f.answer("e.sh", `{"env":{"A":"enterprise","B":"enterprise"},"additional_context":"ctx-e"}`)}})
	f.write(config.User, map[event.Step][]hk{
		event.SessionStart:         {f.answer("u.sh", `{"env":{"A":"user","C":"user"},"additional_context":"ctx-u"}`)},
		event.BeforeShellExecution: {{"command": f.script("env.sh", `cat >/dev/null; echo "$A $B $C $HOST_VAR" >> `+out)}},
	})
	e := f.engine()
	d := run(t, e, event.SessionStart, `{"session_id":"s1","is_background_agent":false}`)
	if d.Env["A"] != "enterprise" || d.Env["B"] != "enterprise" || d.Env["C"] != "user" || d.AdditionalContext != "ctx-e\nctx-u" {
		t.Fatalf("env %v context %q", d.Env, d.AdditionalContext)
	}
	run(t, e, event.BeforeShellExecution, `{"conversation_id":"s1","command":"ls"}`)
	run(t, e, event.BeforeShellExecution, `{"conversation_id":"other","command":"ls"}`)
	got, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != "enterprise enterprise user host\n   host\n" {
		t.Fatalf("hooks saw %q", got)
	}
	// sessionEnd forgets the session.
	run(t, e, event.SessionEnd, `{"session_id":"s1","reason":"completed"}`)
	run(t, e, event.BeforeShellExecution, `{"conversation_id":"s1","command":"ls"}`)
	got, _ = os.ReadFile(out)
	if !strings.HasSuffix(string(got), "   host\n   host\n") {
		t.Fatalf("after sessionEnd hooks saw %q", got)
	}
}

// TestStopLoop: the follow-up comes from the highest-priority hook whose
// loop_limit allows it; the count is kept per conversation and reset when
// a stop brings no follow-up.
func TestStopLoop(t *testing.T) {
	f := newFixture(t)
	f.write(config.Enterprise, map[event.Step][]hk{event.Stop: {
		{"command": f.script("e.sh", `c=$(sed -n 's/.*"loop_count":\([0-9]*\).*/\1/p'); printf '{"followup_message":"enterprise %s"}\n' "$c"`), "loop_limit": 2},
	}})
	f.write(config.User, map[event.Step][]hk{event.Stop: {
		{"command": f.script("u.sh", `cat >/dev/null; echo '{"followup_message":"user"}'`), "loop_limit": nil},
	}})
	e := f.engine()
	var got []string
	for range 5 {
		d := run(t, e, event.Stop, `{"conversation_id":"c1","status":"completed"}`)
		got = append(got, d.FollowupMessage)
	}
	want := []string{"enterprise 0", "enterprise 1", "user", "user", "user"}
	if !slices.Equal(got, want) {
		t.Fatalf("follow-ups %q, want %q", got, want)
	}
	// A host's loop_count of 0 (a typed input's zero value) cannot switch
	// the limit off; a higher host count is taken.
	if d := run(t, e, event.Stop, `{"conversation_id":"c1","status":"completed","loop_count":0}`); d.FollowupMessage != "user" {
		t.Fatalf("host loop_count 0 gave %q", d.FollowupMessage)
	}
	if d := run(t, e, event.Stop, `{"conversation_id":"fresh","status":"completed","loop_count":1}`); d.FollowupMessage != "enterprise 1" {
		t.Fatalf("host loop_count 1 gave %q", d.FollowupMessage)
	}
}

func TestStopDefaultLoopLimit(t *testing.T) {
	f := newFixture(t)
	f.write(config.User, map[event.Step][]hk{event.Stop: {f.answer("u.sh", `{"followup_message":"again"}`)}})
	e := f.engine()
	n := 0
	for range 8 {
		if run(t, e, event.Stop, `{"conversation_id":"c","status":"completed"}`).FollowupMessage != "" {
			n++
		} else {
			break
		}
	}
	if n != config.DefaultLoopLimit {
		t.Fatalf("%d follow-ups, want %d", n, config.DefaultLoopLimit)
	}
}

func TestSubagentStopFollowupOnlyWhenCompleted(t *testing.T) {
	f := newFixture(t)
	f.write(config.User, map[event.Step][]hk{event.SubagentStop: {f.answer("u.sh", `{"followup_message":"next"}`)}})
	e := f.engine()
	if d := run(t, e, event.SubagentStop, `{"subagent_type":"explore","status":"error"}`); d.FollowupMessage != "" {
		t.Fatalf("follow-up on error: %q", d.FollowupMessage)
	}
	if d := run(t, e, event.SubagentStop, `{"subagent_type":"explore","status":"completed"}`); d.FollowupMessage != "next" {
		t.Fatalf("no follow-up on completed: %q", d.FollowupMessage)
	}
}
