package event

import (
	"bytes"
	"errors"
	"reflect"
	"strings"
	"testing"
)

func ptr[T any](v T) *T { return &v }

// sameResponse compares two responses field by field, Raw included.
func sameResponse(t *testing.T, got, want *Response) {
	t.Helper()
	if (got == nil) != (want == nil) {
		t.Fatalf("response = %+v, want %+v", got, want)
	}
	if got == nil {
		return
	}
	if !reflect.DeepEqual(*got, *want) {
		t.Errorf("response mismatch\n got: %s\nwant: %s", describe(got), describe(want))
	}
}

func describe(r *Response) string {
	var b strings.Builder
	b.WriteString("{permission=" + string(r.Permission))
	if r.Continue != nil {
		b.WriteString(" continue=" + map[bool]string{true: "true", false: "false"}[*r.Continue])
	}
	b.WriteString(" user_message=" + r.UserMessage + " agent_message=" + r.AgentMessage)
	b.WriteString(" updated_input=" + string(r.UpdatedInput))
	if r.NewContent != nil {
		b.WriteString(" new_content=" + *r.NewContent)
	}
	b.WriteString(" followup=" + r.FollowupMessage + " context=" + r.AdditionalContext)
	b.WriteString(" mcp_output=" + string(r.UpdatedMCPToolOutput) + " raw=" + string(r.Raw))
	for k, v := range r.Env {
		b.WriteString(" env." + k + "=" + v)
	}
	return b.String() + "}"
}

// TestParseResponseEnvelope checks the rules that hold for every step:
// blank is no opinion, anything but exactly one object in UTF-8 is an error.
func TestParseResponseEnvelope(t *testing.T) {
	deep := `{"x":` + strings.Repeat("[", 100000) + strings.Repeat("]", 100000) + `}`
	cases := []struct {
		name    string
		stdout  string
		raw     string // the expected Raw when valid
		wantErr string // substring of the error; "" means valid
	}{
		{name: "nil", stdout: ""},
		{name: "whitespace", stdout: " \n\t\r\n "},
		{name: "bom only", stdout: "\xEF\xBB\xBF\n"},
		{name: "empty object", stdout: "{}", raw: "{}"},
		{name: "surrounding whitespace", stdout: "\n  {\"a\": 1}\n\n", raw: `{"a": 1}`},
		{name: "bom", stdout: "\xEF\xBB\xBF{\"a\":1}\r\n", raw: `{"a":1}`},
		{name: "unknown keys", stdout: `{"zzz":[1,{"y":null}],"k":"v"}`, raw: `{"zzz":[1,{"y":null}],"k":"v"}`},
		{name: "moderate nesting is fine", stdout: `{"x":` + strings.Repeat("[", 500) + strings.Repeat("]", 500) + `}`,
			raw: `{"x":` + strings.Repeat("[", 500) + strings.Repeat("]", 500) + `}`},

		{name: "array", stdout: `[{"permission":"deny"}]`, wantErr: "not a JSON object: got an array"},
		{name: "string", stdout: `"deny"`, wantErr: "not a JSON object: got a string"},
		{name: "number", stdout: `2`, wantErr: "not a JSON object: got a number"},
		{name: "boolean", stdout: `true`, wantErr: "not a JSON object: got a boolean"},
		{name: "null", stdout: `null`, wantErr: "not a JSON object: got null"},
		{name: "two objects", stdout: `{"a":1}{"b":2}`, wantErr: "trailing data after the JSON object at byte 7"},
		{name: "two objects on two lines", stdout: "{\"a\":1}\n{\"b\":2}\n", wantErr: "trailing data after the JSON object at byte 8"},
		{name: "trailing garbage", stdout: `  {"permission":"deny"} ok`, wantErr: "trailing data after the JSON object at byte 24"},
		{name: "text", stdout: "allowed\n", wantErr: "invalid JSON at byte 0"},
		{name: "unquoted key", stdout: `{permission:"deny"}`, wantErr: "invalid JSON at byte 1"},
		{name: "truncated", stdout: `{"permission":`, wantErr: "invalid JSON: unexpected end of input"},
		{name: "raw newline in string", stdout: "{\"agent_message\":\"a\nb\"}", wantErr: "invalid JSON at byte 19"},
		{name: "invalid UTF-8", stdout: "{\"user_message\":\"\xff\"}", wantErr: "invalid UTF-8 at byte 17"},
		{name: "invalid UTF-8 after bom and space", stdout: "\xEF\xBB\xBF {\"k\":\"\xc3\"}", wantErr: "invalid UTF-8 at byte 10"},
		{name: "invalid UTF-8 in garbage", stdout: "{}\xfe", wantErr: "invalid UTF-8 at byte 2"},
		{name: "huge nesting", stdout: deep, wantErr: "exceeded max depth"},
		{name: "nesting without object", stdout: strings.Repeat("[", 200000), wantErr: "invalid JSON"},
	}
	for _, step := range append(Steps[:], Step("notAStep")) {
		for _, tc := range cases {
			t.Run(string(step)+"/"+tc.name, func(t *testing.T) {
				resp, err := ParseResponse(step, []byte(tc.stdout))
				if tc.wantErr != "" {
					if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
						t.Fatalf("err = %v, want it to contain %q", err, tc.wantErr)
					}
					var re *ResponseError
					if !errors.As(err, &re) || re.Step != step {
						t.Errorf("err is %T with step %v, want *ResponseError for %s", err, re, step)
					}
					if resp != nil {
						t.Errorf("got a response alongside the error: %s", describe(resp))
					}
					return
				}
				if err != nil {
					t.Fatalf("unexpected error: %v", err)
				}
				if tc.raw == "" {
					if resp != nil {
						t.Fatalf("blank stdout gave %s, want no opinion (nil)", describe(resp))
					}
					return
				}
				if resp == nil || string(resp.Raw) != tc.raw {
					t.Fatalf("Raw = %v, want %q", resp, tc.raw)
				}
			})
		}
	}
}

// TestParseResponseFields is the per-step accept/reject table.
func TestParseResponseFields(t *testing.T) {
	type tc struct {
		name    string
		step    Step
		stdout  string
		want    *Response // Raw is filled in from stdout
		wantErr string    // the exact error message when invalid
		// form is how ParseAnswer says it read words not the step's own.
		form string
	}
	// Cursor's block-git.sh and kube_guard.py answers (examples of its hooks
	// documentation, in config/testdata), with the
	// shell variables expanded.
	blockGitAllow := `{ "continue": true, "permission": "allow" }`
	blockGitAsk := `{ "continue": true, "permission": "ask", "user_message": "GitHub CLI command requires permission: gh pr list", "agent_message": "The command 'gh pr list' uses the GitHub CLI (gh) which can interact with your GitHub repositories and account. Please review and approve this command if you want to proceed." }`
	kubeGuard := `{"continue": true, "permission": "ask", "user_message": "kubectl apply to prod requires manual approval.", "agent_message": "prod.yaml includes protected namespaces; confirm with your team before continuing."}`

	cases := []tc{
		// beforeShellExecution
		{name: "block-git allow", step: BeforeShellExecution, stdout: blockGitAllow, want: &Response{Permission: Allow}},
		{name: "block-git ask", step: BeforeShellExecution, stdout: blockGitAsk, want: &Response{
			Permission:   Ask,
			UserMessage:  "GitHub CLI command requires permission: gh pr list",
			AgentMessage: "The command 'gh pr list' uses the GitHub CLI (gh) which can interact with your GitHub repositories and account. Please review and approve this command if you want to proceed.",
		}},
		{name: "kube_guard ask", step: BeforeShellExecution, stdout: kubeGuard, want: &Response{
			Permission:   Ask,
			UserMessage:  "kubectl apply to prod requires manual approval.",
			AgentMessage: "prod.yaml includes protected namespaces; confirm with your team before continuing.",
		}},
		{name: "deny with messages", step: BeforeShellExecution, stdout: `{"permission":"deny","user_message":"no","agent_message":"stop"}`,
			want: &Response{Permission: Deny, UserMessage: "no", AgentMessage: "stop"}},
		{name: "messages only", step: BeforeShellExecution, stdout: `{"user_message":"fyi"}`, want: &Response{UserMessage: "fyi"}},
		{name: "null permission is absent", step: BeforeShellExecution, stdout: `{"permission":null,"user_message":null}`, want: &Response{}},
		{name: "foreign fields ignored", step: BeforeShellExecution,
			stdout: `{"followup_message":"again","new_content":"x","updated_input":{"a":1},"env":{"A":"1"},"continue":true}`, want: &Response{}},
		// What stops the action in words the step does not take is read
		// the stricter way (docs/semantics.md).
		{name: "continue false denies", step: BeforeShellExecution, stdout: `{"continue":false,"user_message":"no"}`,
			want: &Response{Permission: Deny, UserMessage: "no", AgentMessage: "no"}, form: `"continue": false, which beforeShellExecution does not take`},
		{name: "Claude's decision block denies", step: BeforeShellExecution, stdout: `{"decision":"block","reason":"no"}`,
			want: &Response{Permission: Deny, UserMessage: "no", AgentMessage: "no"}, form: `"decision": "block"`},
		{name: "escaped unicode", step: BeforeShellExecution, stdout: `{"user_message":"caf\u00e9 \ud83d\ude00"}`, want: &Response{UserMessage: "café 😀"}},
		{name: "duplicate key keeps the last", step: BeforeShellExecution, stdout: `{"permission":"allow","permission":"deny"}`, want: &Response{Permission: Deny}},
		{name: "bad permission value", step: BeforeShellExecution, stdout: `{"permission":"maybe"}`,
			wantErr: `invalid beforeShellExecution response: field "permission": must be "allow", "deny" or "ask", got "maybe"`},
		{name: "permission is case-sensitive", step: BeforeShellExecution, stdout: `{"permission":"Deny"}`,
			wantErr: `invalid beforeShellExecution response: field "permission": must be "allow", "deny" or "ask", got "Deny"`},
		{name: "empty permission", step: BeforeShellExecution, stdout: `{"permission":""}`,
			wantErr: `invalid beforeShellExecution response: field "permission": must be "allow", "deny" or "ask", got ""`},
		{name: "permission number", step: BeforeShellExecution, stdout: `{"permission":2}`,
			wantErr: `invalid beforeShellExecution response: field "permission": must be a string, got number`},
		{name: "permission boolean", step: BeforeShellExecution, stdout: `{"permission":false}`,
			wantErr: `invalid beforeShellExecution response: field "permission": must be a string, got boolean`},
		{name: "user_message object", step: BeforeShellExecution, stdout: `{"permission":"deny","user_message":{"text":"x"}}`,
			wantErr: `invalid beforeShellExecution response: field "user_message": must be a string, got object`},
		{name: "every problem reported", step: BeforeShellExecution, stdout: `{"agent_message":[],"permission":"no","user_message":1}`,
			wantErr: `invalid beforeShellExecution response: field "permission": must be "allow", "deny" or "ask", got "no"; field "user_message": must be a string, got number; field "agent_message": must be a string, got array`},

		// beforeMCPExecution
		{name: "ask", step: BeforeMCPExecution, stdout: `{"permission":"ask","agent_message":"confirm"}`, want: &Response{Permission: Ask, AgentMessage: "confirm"}},
		{name: "deny", step: BeforeMCPExecution, stdout: `{"permission":"deny"}`, want: &Response{Permission: Deny}},
		{name: "bad value", step: BeforeMCPExecution, stdout: `{"permission":"block"}`,
			wantErr: `invalid beforeMCPExecution response: field "permission": must be "allow", "deny" or "ask", got "block"`},
		{name: "agent_message number", step: BeforeMCPExecution, stdout: `{"agent_message":1.5}`,
			wantErr: `invalid beforeMCPExecution response: field "agent_message": must be a string, got number`},

		// preToolUse
		{name: "seed example", step: PreToolUse, stdout: `{ "permission": "allow", "user_message": "", "agent_message": "", "updated_input": {"command":"npm ci"} }`,
			want: &Response{Permission: Allow, UpdatedInput: []byte(`{"command":"npm ci"}`)}},
		{name: "ask accepted", step: PreToolUse, stdout: `{"permission":"ask"}`, want: &Response{Permission: Ask}},
		{name: "deny with messages", step: PreToolUse, stdout: `{"permission":"deny","user_message":"u","agent_message":"a"}`,
			want: &Response{Permission: Deny, UserMessage: "u", AgentMessage: "a"}},
		{name: "updated_input null", step: PreToolUse, stdout: `{"updated_input":null}`, want: &Response{}},
		{name: "updated_input empty object", step: PreToolUse, stdout: `{"updated_input":{}}`, want: &Response{UpdatedInput: []byte(`{}`)}},
		{name: "updated_input array", step: PreToolUse, stdout: `{"updated_input":["npm","ci"]}`,
			wantErr: `invalid preToolUse response: field "updated_input": must be an object, got array`},
		{name: "updated_input string", step: PreToolUse, stdout: `{"updated_input":"{\"command\":\"npm ci\"}"}`,
			wantErr: `invalid preToolUse response: field "updated_input": must be an object, got string`},
		{name: "bad value", step: PreToolUse, stdout: `{"permission":"yes"}`,
			wantErr: `invalid preToolUse response: field "permission": must be "allow", "deny" or "ask", got "yes"`},

		// subagentStart
		{name: "allow", step: SubagentStart, stdout: `{"permission":"allow"}`, want: &Response{Permission: Allow}},
		{name: "deny", step: SubagentStart, stdout: `{"permission":"deny","user_message":"no explore"}`, want: &Response{Permission: Deny, UserMessage: "no explore"}},
		{name: "ask kept as is", step: SubagentStart, stdout: `{"permission":"ask"}`, want: &Response{Permission: Ask}},
		{name: "agent_message", step: SubagentStart, stdout: `{"permission":"deny","agent_message":"a"}`, want: &Response{Permission: Deny, AgentMessage: "a"}},
		{name: "bad value", step: SubagentStart, stdout: `{"permission":"maybe"}`,
			wantErr: `invalid subagentStart response: field "permission": must be "allow" or "deny", got "maybe"`},
		{name: "followup ignored", step: SubagentStart, stdout: `{"followup_message":"x"}`, want: &Response{}},

		// beforeReadFile
		{name: "deny", step: BeforeReadFile, stdout: `{"permission":"deny","user_message":"secret file"}`, want: &Response{Permission: Deny, UserMessage: "secret file"}},
		{name: "redact", step: BeforeReadFile, stdout: `{"permission":"allow","new_content":"API_KEY=***\n"}`,
			want: &Response{Permission: Allow, NewContent: ptr("API_KEY=***\n")}},
		{name: "empty new_content is a replacement", step: BeforeReadFile, stdout: `{"new_content":""}`, want: &Response{NewContent: ptr("")}},
		{name: "null new_content is absent", step: BeforeReadFile, stdout: `{"new_content":null}`, want: &Response{}},
		{name: "ask, which a read cannot do, denies", step: BeforeReadFile, stdout: `{"permission":"ask"}`,
			want: &Response{Permission: Deny}, form: `"permission": "ask", which beforeReadFile cannot do`},
		{name: "new_content array", step: BeforeReadFile, stdout: `{"new_content":["a"]}`,
			wantErr: `invalid beforeReadFile response: field "new_content": must be a string, got array`},
		{name: "agent_message ignored", step: BeforeReadFile, stdout: `{"agent_message":"x"}`, want: &Response{}},

		// beforeTabFileRead
		{name: "deny", step: BeforeTabFileRead, stdout: `{"permission":"deny"}`, want: &Response{Permission: Deny}},
		{name: "only permission is read", step: BeforeTabFileRead, stdout: `{"permission":"allow","new_content":"x","user_message":"m"}`,
			want: &Response{Permission: Allow}},
		{name: "ask, which a read cannot do, denies", step: BeforeTabFileRead, stdout: `{"permission":"ask"}`,
			want: &Response{Permission: Deny}, form: `"permission": "ask", which beforeTabFileRead cannot do`},

		// beforeSubmitPrompt
		{name: "block", step: BeforeSubmitPrompt, stdout: `{"continue":false,"user_message":"no secrets in prompts"}`,
			want: &Response{Continue: ptr(false), UserMessage: "no secrets in prompts"}},
		{name: "continue", step: BeforeSubmitPrompt, stdout: `{"continue":true}`, want: &Response{Continue: ptr(true)}},
		{name: "null continue is absent", step: BeforeSubmitPrompt, stdout: `{"continue":null}`, want: &Response{}},
		{name: "permission deny blocks", step: BeforeSubmitPrompt, stdout: `{"permission":"deny"}`, want: &Response{Continue: ptr(false)}, form: `"permission": "deny", which beforeSubmitPrompt does not take`},
		{name: "permission allow ignored", step: BeforeSubmitPrompt, stdout: `{"permission":"allow"}`, want: &Response{}},
		{name: "continue string", step: BeforeSubmitPrompt, stdout: `{"continue":"false"}`,
			wantErr: `invalid beforeSubmitPrompt response: field "continue": must be a boolean, got string`},
		{name: "continue number", step: BeforeSubmitPrompt, stdout: `{"continue":0}`,
			wantErr: `invalid beforeSubmitPrompt response: field "continue": must be a boolean, got number`},

		// sessionStart
		{name: "seed example", step: SessionStart, stdout: `{ "env": { "FOO": "bar", "EMPTY": "" }, "additional_context": "repo uses pnpm" }`,
			want: &Response{Env: map[string]string{"FOO": "bar", "EMPTY": ""}, AdditionalContext: "repo uses pnpm"}},
		{name: "continue and user_message", step: SessionStart, stdout: `{"continue":false,"user_message":"hi"}`,
			want: &Response{Continue: ptr(false), UserMessage: "hi"}},
		{name: "empty env", step: SessionStart, stdout: `{"env":{}}`, want: &Response{Env: map[string]string{}}},
		{name: "env number value", step: SessionStart, stdout: `{"env":{"A":"1","PORT":8080}}`,
			wantErr: `invalid sessionStart response: field "env": value of "PORT" must be a string, got number`},
		{name: "env null value", step: SessionStart, stdout: `{"env":{"A":null}}`,
			wantErr: `invalid sessionStart response: field "env": value of "A" must be a string, got null`},
		{name: "env array", step: SessionStart, stdout: `{"env":["A=1"]}`,
			wantErr: `invalid sessionStart response: field "env": must be an object of strings, got array`},
		{name: "env name with =", step: SessionStart, stdout: `{"env":{"A=B":"1"}}`,
			wantErr: `invalid sessionStart response: field "env": variable name "A=B" contains "="`},
		{name: "env empty name", step: SessionStart, stdout: `{"env":{"":"1"}}`,
			wantErr: `invalid sessionStart response: field "env": empty variable name`},
		{name: "env NUL in name", step: SessionStart, stdout: `{"env":{"A\u0000":"1"}}`,
			wantErr: `invalid sessionStart response: field "env": variable name "A\x00" contains a NUL byte`},
		{name: "env NUL in value", step: SessionStart, stdout: `{"env":{"A":"x\u0000y"}}`,
			wantErr: `invalid sessionStart response: field "env": value of "A" contains a NUL byte`},
		{name: "additional_context number", step: SessionStart, stdout: `{"additional_context":42}`,
			wantErr: `invalid sessionStart response: field "additional_context": must be a string, got number`},

		// postToolUse
		{name: "seed example", step: PostToolUse, stdout: `{ "updated_mcp_tool_output": {"modified":"output"}, "additional_context": "Test coverage report attached." }`,
			want: &Response{UpdatedMCPToolOutput: []byte(`{"modified":"output"}`), AdditionalContext: "Test coverage report attached."}},
		{name: "output array", step: PostToolUse, stdout: `{"updated_mcp_tool_output":[1,2]}`, want: &Response{UpdatedMCPToolOutput: []byte(`[1,2]`)}},
		{name: "output string", step: PostToolUse, stdout: `{"updated_mcp_tool_output":"redacted"}`, want: &Response{UpdatedMCPToolOutput: []byte(`"redacted"`)}},
		{name: "output false", step: PostToolUse, stdout: `{"updated_mcp_tool_output":false}`, want: &Response{UpdatedMCPToolOutput: []byte(`false`)}},
		{name: "output null is absent", step: PostToolUse, stdout: `{"updated_mcp_tool_output":null}`, want: &Response{}},
		{name: "permission ignored", step: PostToolUse, stdout: `{"permission":"deny"}`, want: &Response{}},
		{name: "additional_context object", step: PostToolUse, stdout: `{"additional_context":{}}`,
			wantErr: `invalid postToolUse response: field "additional_context": must be a string, got object`},

		// preCompact
		{name: "user_message", step: PreCompact, stdout: `{"user_message":"compacting"}`, want: &Response{UserMessage: "compacting"}},
		{name: "continue ignored", step: PreCompact, stdout: `{"continue":false}`, want: &Response{}},
		{name: "user_message boolean", step: PreCompact, stdout: `{"user_message":true}`,
			wantErr: `invalid preCompact response: field "user_message": must be a string, got boolean`},

		// stop and subagentStop
		{name: "followup", step: Stop, stdout: `{"followup_message":"Automated retry triggered after two failures."}`,
			want: &Response{FollowupMessage: "Automated retry triggered after two failures."}},
		{name: "track-stop empty answer", step: Stop, stdout: "{}\n", want: &Response{}},
		{name: "permission ignored", step: Stop, stdout: `{"permission":"deny","user_message":"x"}`, want: &Response{}},
		{name: "followup number", step: Stop, stdout: `{"followup_message":1}`,
			wantErr: `invalid stop response: field "followup_message": must be a string, got number`},
		{name: "followup", step: SubagentStop, stdout: `{"followup_message":"next"}`, want: &Response{FollowupMessage: "next"}},
		{name: "followup array", step: SubagentStop, stdout: `{"followup_message":["next"]}`,
			wantErr: `invalid subagentStop response: field "followup_message": must be a string, got array`},
	}

	// Steps without output fields take any object and copy nothing.
	anything := `{"permission":"maybe","continue":"x","env":5,"user_message":[],"followup_message":{},"updated_input":1}`
	for _, step := range []Step{SessionEnd, PostToolUseFailure, AfterShellExecution, AfterMCPExecution,
		AfterFileEdit, AfterAgentResponse, AfterAgentThought, AfterTabFileEdit, Step("futureStep")} {
		cases = append(cases, tc{name: "any object", step: step, stdout: anything, want: &Response{}})
	}

	for _, c := range cases {
		t.Run(string(c.step)+"/"+c.name, func(t *testing.T) {
			resp, rd, err := ParseAnswer(c.step, []byte(c.stdout))
			if rd.Form != c.form {
				t.Errorf("read as %q, want %q", rd.Form, c.form)
			}
			if c.wantErr != "" {
				if err == nil || err.Error() != c.wantErr {
					t.Fatalf("err = %v\nwant %s", err, c.wantErr)
				}
				if resp != nil {
					t.Errorf("got a response alongside the error: %s", describe(resp))
				}
				return
			}
			if err != nil {
				t.Fatalf("unexpected error: %v", err)
			}
			want := *c.want
			want.Raw = []byte(strings.TrimSpace(c.stdout))
			sameResponse(t, resp, &want)
		})
	}
}

func TestParseResponseCopiesInput(t *testing.T) {
	stdout := []byte(`{"permission":"deny","updated_input":{"a":1}}`)
	resp, err := ParseResponse(PreToolUse, stdout)
	if err != nil {
		t.Fatal(err)
	}
	for i := range stdout {
		stdout[i] = 'x'
	}
	if string(resp.Raw) != `{"permission":"deny","updated_input":{"a":1}}` || string(resp.UpdatedInput) != `{"a":1}` {
		t.Errorf("response aliases the caller's buffer: raw %q, updated_input %q", resp.Raw, resp.UpdatedInput)
	}
}

func TestParseResponseShortensLongValues(t *testing.T) {
	long := strings.Repeat("é", 100000)
	_, err := ParseResponse(BeforeShellExecution, []byte(`{"permission":"`+long+`"}`))
	if err == nil {
		t.Fatal("accepted a bogus permission")
	}
	msg := err.Error()
	if len(msg) > 300 || !strings.Contains(msg, "… (200000 bytes)") {
		t.Errorf("error not shortened (%d bytes): %.300s", len(msg), msg)
	}
}

func TestParseResponseLargeObject(t *testing.T) {
	content := bytes.Repeat([]byte("a"), 8<<20)
	stdout := append(append([]byte(`{"permission":"allow","new_content":"`), content...), `"}`...)
	resp, err := ParseResponse(BeforeReadFile, stdout)
	if err != nil {
		t.Fatal(err)
	}
	if resp.NewContent == nil || len(*resp.NewContent) != len(content) {
		t.Errorf("new_content lost or truncated")
	}
}

func TestResponseErrorWithoutStep(t *testing.T) {
	err := &ResponseError{Problems: []string{"a", "b"}}
	if got := err.Error(); got != "invalid response: a; b" {
		t.Errorf("Error() = %q", got)
	}
}
