package event

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// commonExample is the "Common schema" example of Cursor's hooks
// documentation with its type placeholders replaced by values.
const commonExample = `{
  "conversation_id": "conv-456",
  "generation_id": "gen-001",
  "model": "claude-sonnet-4-20250514",
  "hook_event_name": "STEP",
  "cursor_version": "1.7.2",
  "workspace_roots": ["/project"],
  "user_email": "dev@example.com",
  "transcript_path": null
}`

// inputExamples are the "// Input" examples of the per-event sections of
// Cursor's hooks documentation, copied as printed. Where the docs show
// alternatives ("completed" | "error") one was picked, and empty
// placeholders ("") were given values so that every field is exercised.
var inputExamples = []struct {
	step    Step
	name    string
	payload string
}{
	{PreToolUse, "seed", `{ "tool_name": "Shell", "tool_input": { "command": "npm install", "working_directory": "/project" }, "tool_use_id": "abc123", "cwd": "/project", "model": "claude-sonnet-4-20250514", "agent_message": "Installing dependencies..." }`},
	{PostToolUse, "seed", `{ "tool_name": "Shell", "tool_input": { "command": "npm test" }, "tool_output": "{\"exitCode\":0,\"stdout\":\"All tests passed\"}", "tool_use_id": "abc123", "cwd": "/project", "duration": 5432, "model": "claude-sonnet-4-20250514" }`},
	{PostToolUseFailure, "seed", `{ "tool_name": "Shell", "tool_input": { "command": "npm test" }, "tool_use_id": "abc123", "cwd": "/project", "error_message": "Command timed out after 30s", "failure_type": "timeout", "duration": 5000, "is_interrupt": false }`},
	{SubagentStart, "seed", `{ "subagent_id": "abc-123", "subagent_type": "generalPurpose", "task": "Explore the authentication flow", "parent_conversation_id": "conv-456", "tool_call_id": "tc-789", "subagent_model": "claude-sonnet-4-20250514", "is_parallel_worker": false, "git_branch": "feature/auth" }`},
	{SubagentStop, "seed", `{ "subagent_type": "generalPurpose", "status": "completed", "task": "Explore the authentication flow", "description": "Exploring auth flow", "summary": "Auth goes through middleware.ts", "duration_ms": 45000, "message_count": 12, "tool_call_count": 8, "loop_count": 0, "modified_files": ["src/auth.ts"], "agent_transcript_path": "/path/to/subagent/transcript.txt" }`},
	{SubagentStop, "null transcript", `{ "subagent_type": "explore", "status": "aborted", "task": "t", "description": "d", "summary": "", "duration_ms": 10.5, "message_count": 1, "tool_call_count": 0, "loop_count": 2, "modified_files": [], "agent_transcript_path": null }`},
	{BeforeShellExecution, "seed", `{ "command": "git push origin main", "cwd": "/project", "sandbox": false }`},
	{BeforeMCPExecution, "url", `{ "tool_name": "search_issues", "tool_input": "{\"query\":\"bug\"}", "url": "https://mcp.example.com/sse" }`},
	{BeforeMCPExecution, "command", `{ "tool_name": "search_issues", "tool_input": "{\"query\":\"bug\"}", "command": "npx -y @example/mcp" }`},
	{AfterShellExecution, "seed", `{ "command": "npm test", "output": "All tests passed\n", "duration": 1234, "sandbox": false }`},
	{AfterMCPExecution, "seed", `{ "tool_name": "search_issues", "tool_input": "{\"query\":\"bug\"}", "result_json": "{\"issues\":[]}", "duration": 1234 }`},
	{AfterFileEdit, "seed", `{ "file_path": "/project/src/a.ts", "edits": [{ "old_string": "let x = 1", "new_string": "const x = 1" }] }`},
	{BeforeReadFile, "seed", `{ "file_path": "/project/.env", "content": "API_KEY=secret\n", "attachments": [ { "type": "file", "file_path": "/project/src/a.ts" }, { "type": "rule", "file_path": "/project/.cursor/rules/style.mdc" } ] }`},
	{BeforeTabFileRead, "seed", `{ "file_path": "/project/.env", "content": "API_KEY=secret\n" }`},
	{AfterTabFileEdit, "seed", `{ "file_path": "/project/src/a.ts", "edits": [ { "old_string": "fo", "new_string": "foo", "range": { "start_line_number": 10, "start_column": 5, "end_line_number": 10, "end_column": 20 }, "old_line": "  fo(bar)", "new_line": "  foo(bar)" } ] }`},
	{BeforeSubmitPrompt, "seed", `{ "prompt": "Refactor the auth flow", "attachments": [ { "type": "rule", "file_path": "/project/.cursor/rules/style.mdc" } ] }`},
	{AfterAgentResponse, "seed", `{ "text": "Done: the auth flow now uses middleware." }`},
	{AfterAgentThought, "seed", `{ "text": "The user wants...", "duration_ms": 5000 }`},
	{Stop, "seed", `{ "status": "completed", "loop_count": 0 }`},
	{SessionStart, "seed", `{ "session_id": "conv-456", "is_background_agent": false, "composer_mode": "agent" }`},
	{SessionEnd, "seed", `{ "session_id": "conv-456", "reason": "error", "duration_ms": 45000, "is_background_agent": true, "final_status": "error", "error_message": "backend unavailable" }`},
	{PreCompact, "seed", `{ "trigger": "auto", "context_usage_percent": 85, "context_tokens": 120000, "context_window_size": 128000, "message_count": 45, "messages_to_compact": 30, "is_first_compaction": true }`},
}

// withCommon merges the common example into a step payload (the step's
// own keys win, as preToolUse's example repeats "model").
func withCommon(t *testing.T, step Step, payload string) map[string]any {
	t.Helper()
	merged := map[string]any{}
	for _, doc := range []string{strings.Replace(commonExample, "STEP", string(step), 1), payload} {
		var m map[string]any
		if err := json.Unmarshal([]byte(doc), &m); err != nil {
			t.Fatalf("example is not JSON: %v\n%s", err, doc)
		}
		for k, v := range m {
			merged[k] = v
		}
	}
	return merged
}

// TestInputRoundTrip decodes every documented example strictly (an
// unmodelled key fails), re-encodes it and expects the same JSON back, so
// every field's name, type and omitempty-ness is checked.
func TestInputRoundTrip(t *testing.T) {
	covered := map[Step]bool{}
	for _, ex := range inputExamples {
		t.Run(string(ex.step)+"/"+ex.name, func(t *testing.T) {
			covered[ex.step] = true
			want := withCommon(t, ex.step, ex.payload)
			doc, err := json.Marshal(want)
			if err != nil {
				t.Fatal(err)
			}

			in := NewInput(ex.step)
			dec := json.NewDecoder(bytes.NewReader(doc))
			dec.DisallowUnknownFields()
			if err := dec.Decode(in); err != nil {
				t.Fatalf("decoding the example: %v", err)
			}
			if in.Step() != ex.step {
				t.Errorf("Step() = %s", in.Step())
			}

			out, err := json.Marshal(in)
			if err != nil {
				t.Fatal(err)
			}
			var got map[string]any
			if err := json.Unmarshal(out, &got); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("re-encoded payload differs\n got: %s\nwant: %s", out, doc)
			}

			again := NewInput(ex.step)
			if err := json.Unmarshal(out, again); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(again, in) {
				t.Errorf("struct changed over a round trip\n got: %+v\nwant: %+v", again, in)
			}
		})
	}
	for _, step := range Steps {
		if !covered[step] {
			t.Errorf("no input example for %s", step)
		}
	}
}

// example returns the payload of the named input example.
func example(t *testing.T, step Step, name string) string {
	t.Helper()
	for _, ex := range inputExamples {
		if ex.step == step && ex.name == name {
			return ex.payload
		}
	}
	t.Fatalf("no example %s/%s", step, name)
	return ""
}

func TestInputFieldValues(t *testing.T) {
	var pre PreToolUseInput
	if err := json.Unmarshal([]byte(example(t, PreToolUse, "seed")), &pre); err != nil {
		t.Fatal(err)
	}
	if pre.ToolName != "Shell" || pre.Model != "claude-sonnet-4-20250514" || pre.ToolUseID != "abc123" ||
		string(pre.ToolInput) != `{ "command": "npm install", "working_directory": "/project" }` {
		t.Errorf("preToolUse decoded as %+v", pre)
	}

	var tab AfterTabFileEditInput
	if err := json.Unmarshal([]byte(example(t, AfterTabFileEdit, "seed")), &tab); err != nil {
		t.Fatal(err)
	}
	wantEdit := TabEdit{OldString: "fo", NewString: "foo", OldLine: "  fo(bar)", NewLine: "  foo(bar)",
		Range: EditRange{StartLineNumber: 10, StartColumn: 5, EndLineNumber: 10, EndColumn: 20}}
	if len(tab.Edits) != 1 || tab.Edits[0] != wantEdit {
		t.Errorf("afterTabFileEdit edits = %+v", tab.Edits)
	}

	var mcp BeforeMCPExecutionInput
	if err := json.Unmarshal([]byte(example(t, BeforeMCPExecution, "url")), &mcp); err != nil {
		t.Fatal(err)
	}
	if mcp.ToolInput != `{"query":"bug"}` || mcp.URL != "https://mcp.example.com/sse" {
		t.Errorf("beforeMCPExecution decoded as %+v", mcp)
	}
}

func TestCommonEncoding(t *testing.T) {
	out, err := json.Marshal(StopInput{Common: Common{HookEventName: Stop, WorkspaceRoots: []string{}}})
	if err != nil {
		t.Fatal(err)
	}
	want := `{"conversation_id":"","generation_id":"","model":"","hook_event_name":"stop","cursor_version":"",` +
		`"workspace_roots":[],"user_email":null,"transcript_path":null,"status":"","loop_count":0}`
	if string(out) != want {
		t.Errorf("got  %s\nwant %s", out, want)
	}

	var c Common
	if err := json.Unmarshal([]byte(strings.Replace(commonExample, "STEP", "stop", 1)), &c); err != nil {
		t.Fatal(err)
	}
	if c.UserEmail == nil || *c.UserEmail != "dev@example.com" || c.TranscriptPath != nil || c.HookEventName != Stop {
		t.Errorf("decoded %+v", c)
	}
}

func TestNewInput(t *testing.T) {
	for _, step := range Steps {
		in := NewInput(step)
		if in == nil {
			t.Fatalf("NewInput(%s) = nil", step)
		}
		if in.Step() != step {
			t.Errorf("NewInput(%s).Step() = %s", step, in.Step())
		}
		if v := reflect.ValueOf(in); v.Kind() != reflect.Pointer || !v.Elem().IsZero() {
			t.Errorf("NewInput(%s) = %#v, want a pointer to a zero struct", step, in)
		}
		b, ok := in.(interface{ Base() *Common })
		if !ok {
			t.Fatalf("%T does not embed Common", in)
		}
		b.Base().HookEventName = step
		out, _ := json.Marshal(in)
		if !bytes.Contains(out, []byte(`"hook_event_name":"`+string(step)+`"`)) {
			t.Errorf("setting the common field through Base had no effect: %s", out)
		}
	}
	if in := NewInput("beforeEverything"); in != nil {
		t.Errorf("NewInput(unknown) = %#v, want nil", in)
	}
}

func TestAttachmentSpellings(t *testing.T) {
	cases := []struct {
		doc  string
		want Attachment
	}{
		{`{"type":"file","file_path":"/a"}`, Attachment{Type: AttachmentFile, FilePath: "/a"}},
		{`{"type":"rule","filePath":"/r"}`, Attachment{Type: AttachmentRule, FilePath: "/r"}},
		{`{"type":"file","filePath":"/old","file_path":"/new"}`, Attachment{Type: AttachmentFile, FilePath: "/new"}},
		{`{"type":"file"}`, Attachment{Type: AttachmentFile}},
	}
	for _, c := range cases {
		var a Attachment
		if err := json.Unmarshal([]byte(c.doc), &a); err != nil {
			t.Fatalf("%s: %v", c.doc, err)
		}
		if a != c.want {
			t.Errorf("%s decoded as %+v, want %+v", c.doc, a, c.want)
		}
	}
	var a Attachment
	if err := json.Unmarshal([]byte(`{"type":1}`), &a); err == nil {
		t.Error("a numeric type was accepted")
	}
	out, _ := json.Marshal(Attachment{Type: AttachmentRule, FilePath: "/r"})
	if string(out) != `{"type":"rule","file_path":"/r"}` {
		t.Errorf("marshalled as %s", out)
	}
}

// TestInputOptionalFields checks omitempty: a zero input carries every
// documented key except the optional ones, so hooks can index required
// keys without checking for them.
func TestInputOptionalFields(t *testing.T) {
	optional := map[Step][]string{
		SessionStart:        {"composer_mode"},
		SessionEnd:          {"error_message"},
		PreToolUse:          {"agent_message"},
		SubagentStart:       {"git_branch"},
		AfterShellExecution: {"cwd"},
		BeforeMCPExecution:  {"url", "command"},
		AfterMCPExecution:   {"url", "command"},
		AfterAgentThought:   {"duration_ms"},
	}
	for _, step := range Steps {
		want := map[string]bool{}
		for _, ex := range inputExamples {
			if ex.step == step {
				for k := range withCommon(t, step, ex.payload) {
					want[k] = true
				}
			}
		}
		for _, k := range optional[step] {
			delete(want, k)
		}
		out, err := json.Marshal(NewInput(step))
		if err != nil {
			t.Fatal(err)
		}
		var got map[string]json.RawMessage
		if err := json.Unmarshal(out, &got); err != nil {
			t.Fatal(err)
		}
		for k := range want {
			if _, ok := got[k]; !ok {
				t.Errorf("%s: required key %q missing from the zero input", step, k)
			}
		}
		for k := range got {
			if !want[k] {
				t.Errorf("%s: optional or unknown key %q present in the zero input", step, k)
			}
		}
	}
}
