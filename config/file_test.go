package config

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/agenthooks/agenthooks/event"
)

// TestValidation checks each validation rule: the problems (position,
// path, message and fix, in document order) and which hooks survive.
func TestValidation(t *testing.T) {
	tests := []struct {
		name  string
		src   string   // ‸ marks each problem's position, in order
		want  []string // each problem's Error() after "file:line:col: "
		hooks int
	}{
		{
			name:  "valid file",
			src:   `{"version": 1, "hooks": {"stop": [{"command": "./a.sh", "loop_limit": 10}], "sessionStart": [{"command": "b"}]}}`,
			hooks: 2,
		},
		{
			name: "negative timeout (the documented example)",
			src: "{\n  \"version\": 1,\n  \"hooks\": {\n    \"beforeShellExecution\": [\n      {\"command\": \"./a.sh\"},\n" +
				"      {\"command\": \"./b.sh\",\n       \"timeout\": ‸-3}\n    ]\n  }\n}",
			want:  []string{`hooks.beforeShellExecution[1].timeout: must be a positive number of seconds, got -3 (fix: use e.g. "timeout": 30)`},
			hooks: 1,
		},
		{
			name: "top level not an object",
			src:  `‸[{"command": "a"}]`,
			want: []string{`the file must hold a JSON object, got an array (fix: write {"version": 1, "hooks": { … }})`},
		},
		{
			name: "hooks missing",
			src:  `‸{"version": 1}`,
			want: []string{`missing "hooks" (fix: add "hooks": {"beforeShellExecution": [{"command": "./script.sh"}]} with your steps)`},
		},
		{
			name: "hooks not an object",
			src:  `{"version": 1, "hooks": ‸"none"}`,
			want: []string{`hooks: must be an object mapping step names to arrays of hooks, got a string (fix: write "hooks": {"<step>": [{"command": "…"}]})`},
		},
		{
			name: "hooks an array",
			src:  `{"version": 1, "hooks": ‸[{"command": "a"}]}`,
			want: []string{`hooks: must be an object mapping step names to arrays of hooks, got an array (fix: "hooks" maps step names to arrays of hooks: write "hooks": {"<step>": [{"command": "…"}]})`},
		},
		{
			name:  "version missing is a warning",
			src:   `‸{"hooks": {"stop": [{"command": "a"}]}}`,
			want:  []string{`warning: missing "version"; treating it as 1 (fix: add "version": 1)`},
			hooks: 1,
		},
		{
			name:  "version zero",
			src:   `{"version": ‸0, "hooks": {"stop": [{"command": "a"}]}}`,
			want:  []string{`version: must be a positive integer, got 0 (fix: write "version": 1)`},
			hooks: 1,
		},
		{
			name: "version fractional",
			src:  `{"version": ‸1.5, "hooks": {}}`,
			want: []string{`version: must be a positive integer, got 1.5 (fix: write "version": 1)`},
		},
		{
			name: "version quoted",
			src:  `{"version": ‸"1", "hooks": {}}`,
			want: []string{`version: must be a positive integer, got "1" (fix: write "version": 1 (a number, without quotes))`},
		},
		{
			name: "unknown top-level keys",
			src:  `{"version": 1, ‸"stop": [], ‸"hook": {}, ‸"comment": "x", "hooks": {}}`,
			want: []string{
				`warning: stop: unknown top-level key "stop"; ignored (fix: move it inside "hooks")`,
				`hook: unknown top-level key "hook"; ignored (fix: did you mean "hooks"?)`,
				`warning: comment: unknown top-level key "comment"; ignored (fix: remove it; only "version" and "hooks" are read)`,
			},
		},
		{
			name: "unknown steps",
			src:  `{"version": 1, "hooks": {‸"beforeShellExec": [{"command": "a"}], ‸"PreToolUse": [], ‸"onSave": [], "stop": [{"command": "b"}]}}`,
			want: []string{
				`warning: hooks.beforeShellExec: unknown step "beforeShellExec"; its hooks are skipped (fix: did you mean beforeShellExecution?)`,
				`hooks.PreToolUse: unknown step "PreToolUse"; its hooks are skipped (fix: did you mean preToolUse?)`,
				`warning: hooks.onSave: unknown step "onSave"; its hooks are skipped (fix: use one of: ` + strings.Join(stepNames, ", ") + `)`,
			},
			hooks: 1,
		},
		{
			name: "step not an array",
			src:  `{"version": 1, "hooks": {"stop": ‸{"command": "a"}, "sessionEnd": ‸"b"}}`,
			want: []string{
				`hooks.stop: must be an array of hooks, got an object (fix: wrap the hook in [ ]: "stop": [ { … } ])`,
				`hooks.sessionEnd: must be an array of hooks, got a string (fix: write "sessionEnd": [{"command": "…"}])`,
			},
		},
		{
			name: "hook not an object",
			src:  `{"version": 1, "hooks": {"stop": [‸"./a.sh", ‸3]}}`,
			want: []string{
				`hooks.stop[0]: each hook must be an object, got a string (fix: write {"command": "./a.sh"})`,
				`hooks.stop[1]: each hook must be an object, got a number (fix: write {"command": "./script.sh"})`,
			},
		},
		{
			name: "bad types",
			src:  `{"version": 1, "hooks": {"stop": [{"type": ‸"Command", "command": "a"}, {"type": ‸"script", "command": "a"}, {"type": ‸1}]}}`,
			want: []string{
				`hooks.stop[0].type: must be "command" or "prompt", got "Command" (fix: write it in lowercase: "command")`,
				`hooks.stop[1].type: must be "command" or "prompt", got "script" (fix: use "command" or "prompt")`,
				`hooks.stop[2].type: must be a string ("command" or "prompt"), got 1 (fix: write it in double quotes)`,
			},
		},
		{
			name: "command missing, empty, blank, not a string",
			src:  `{"version": 1, "hooks": {"stop": [‸{}, {"command": ‸""}, {"command": ‸"  "}, {"command": ‸42}, ‸{"timeout": 3}]}}`,
			want: []string{
				`hooks.stop[0]: missing "command" (fix: add "command": "./script.sh")`,
				`hooks.stop[1].command: must not be empty (fix: write the command to run, e.g. "./hooks/check.sh")`,
				`hooks.stop[2].command: must not be empty (fix: write the command to run, e.g. "./hooks/check.sh")`,
				`hooks.stop[3].command: must be a string (a command line or script path), got 42 (fix: write it in double quotes)`,
				`hooks.stop[4]: missing "command" (fix: add "command": "./script.sh")`,
			},
		},
		{
			name: "prompt without type",
			src:  `{"version": 1, "hooks": {"stop": [‸{"prompt": "ok?"}]}}`,
			want: []string{`hooks.stop[0]: missing "command" (fix: add "type": "prompt" for a prompt hook, or "command": "./script.sh")`},
		},
		{
			name: "claude code shape",
			src:  `{"version": 1, "hooks": {"preToolUse": [‸{"matcher": "Shell", ‸"hooks": [{"type": "command", "command": "a"}]}]}}`,
			want: []string{
				`hooks.preToolUse[0]: missing "command" (fix: this looks like Claude Code's format; write {"command": "…"} directly in the step's array)`,
				`warning: hooks.preToolUse[0].hooks: unknown key "hooks"; ignored (fix: this looks like Claude Code's format; in hooks.json each hook is {"command": "…"} directly in the step's array)`,
			},
		},
		{
			name: "prompt hooks",
			src: `{"version": 1, "hooks": {"beforeShellExecution": [` +
				`{"type": "prompt", "prompt": "safe?", "model": "fast", "timeout": 10}, ` +
				`‸{"type": "prompt"}, ` +
				`{"type": "prompt", "prompt": ‸" "}, ` +
				`{"type": "prompt", "prompt": "ok?", ‸"command": "a"}]}}`,
			want: []string{
				`hooks.beforeShellExecution[1]: missing "prompt" (fix: add "prompt": "Is this command safe? …")`,
				`hooks.beforeShellExecution[2].prompt: must not be empty (fix: write the condition the model should check)`,
				`warning: hooks.beforeShellExecution[3].command: ignored: "command" is not used by prompt hooks (fix: remove it)`,
			},
			hooks: 2,
		},
		{
			name: "prompt-only fields on a command hook",
			src:  `{"version": 1, "hooks": {"stop": [{"command": "a", ‸"prompt": "x", ‸"model": "m"}]}}`,
			want: []string{
				`warning: hooks.stop[0].prompt: ignored: "prompt" is used only by prompt hooks (fix: remove it, or set "type": "prompt" and remove "command")`,
				`warning: hooks.stop[0].model: ignored: "model" is used only by prompt hooks (fix: remove it)`,
			},
			hooks: 1,
		},
		{
			name: "timeouts",
			src: `{"version": 1, "hooks": {"stop": [` +
				`{"command": "a", "timeout": ‸0}, ` +
				`{"command": "a", "timeout": ‸"30"}, ` +
				`{"command": "a", "timeout": ‸1e999}, ` +
				`{"command": "a", "timeout": ‸1e-300}, ` +
				`{"command": "a", "timeout": ‸null}, ` +
				`{"command": "a", "timeout": 1.5}]}}`,
			want: []string{
				`hooks.stop[0].timeout: must be a positive number of seconds, got 0 (fix: use e.g. "timeout": 30)`,
				`hooks.stop[1].timeout: must be a positive number of seconds, got "30" (fix: write the number without quotes, e.g. "timeout": 30)`,
				`hooks.stop[2].timeout: is too large, got 1e999 seconds (fix: use e.g. "timeout": 30)`,
				`hooks.stop[3].timeout: is too small, got 1e-300 seconds (fix: use e.g. "timeout": 30)`,
				`hooks.stop[4].timeout: must be a positive number of seconds, got null (fix: use e.g. "timeout": 30)`,
			},
			hooks: 1,
		},
		{
			name: "loop limits",
			src: `{"version": 1, "hooks": {"stop": [` +
				`{"command": "a", "loop_limit": ‸-1}, ` +
				`{"command": "a", "loop_limit": ‸2.5}, ` +
				`{"command": "a", "loop_limit": ‸"5"}, ` +
				`{"command": "a", "loop_limit": ‸1e300}, ` +
				`{"command": "a", "loop_limit": 0}, {"command": "a", "loop_limit": null}]}}`,
			want: []string{
				`hooks.stop[0].loop_limit: must be a non-negative integer or null, got -1 (fix: use e.g. "loop_limit": 5, or null for no limit)`,
				`hooks.stop[1].loop_limit: must be a non-negative integer or null, got 2.5 (fix: use e.g. "loop_limit": 5, or null for no limit)`,
				`hooks.stop[2].loop_limit: must be a non-negative integer or null, got "5" (fix: use e.g. "loop_limit": 5, or null for no limit)`,
				`hooks.stop[3].loop_limit: must be a non-negative integer or null, got 1e300 (fix: use e.g. "loop_limit": 5, or null for no limit)`,
			},
			hooks: 2,
		},
		{
			name: "failClosed",
			src:  `{"version": 1, "hooks": {"stop": [{"command": "a", "failClosed": ‸"true"}, {"command": "a", "failClosed": ‸1}]}}`,
			want: []string{
				`hooks.stop[0].failClosed: must be true or false, got "true" (fix: write "failClosed": true (without quotes))`,
				`hooks.stop[1].failClosed: must be true or false, got 1 (fix: use "failClosed": true or false)`,
			},
		},
		{
			name: "matcher not a string",
			src:  `{"version": 1, "hooks": {"preToolUse": [{"command": "a", "matcher": ‸["Shell"]}]}}`,
			want: []string{`hooks.preToolUse[0].matcher: must be a string (a regular expression), got an array (fix: write it in double quotes)`},
		},
		{
			name:  "matcher on a step that ignores matchers is kept silently",
			src:   `{"version": 1, "hooks": {"sessionStart": [{"command": "a", "matcher": "x"}]}}`,
			hooks: 1,
		},
		{
			name: "unknown hook keys",
			src:  `{"version": 1, "hooks": {"stop": [{"command": "a", ‸"fail_closed": true, ‸"timeout_ms": 5, ‸"owner": "sec"}]}}`,
			want: []string{
				`hooks.stop[0].fail_closed: unknown key "fail_closed"; ignored (fix: did you mean "failClosed"?)`,
				`hooks.stop[0].timeout_ms: unknown key "timeout_ms"; ignored (fix: did you mean "timeout"?)`,
				`warning: hooks.stop[0].owner: unknown key "owner"; ignored (fix: remove it if it is a typo; it is kept but not used)`,
			},
			hooks: 1,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src, pos := unmark(tt.src)
			if len(pos) != len(tt.want) {
				t.Fatalf("test has %d markers for %d problems", len(pos), len(tt.want))
			}
			f := testSources.Parse("h.json", []byte(src), Project, "/d", "/r")
			var want []string
			for i, w := range tt.want {
				want = append(want, "h.json:"+pos[i]+": "+w)
			}
			got := problemStrings(f.Problems)
			if !slices.Equal(got, want) {
				t.Errorf("problems:\n got  %s\n want %s", strings.Join(got, "\n      "), strings.Join(want, "\n      "))
			}
			if len(f.Hooks) != tt.hooks {
				t.Errorf("got %d hooks, want %d", len(f.Hooks), tt.hooks)
			}
			for _, h := range f.Hooks {
				if h.Command == "" && h.Prompt == "" {
					t.Errorf("hook %s has neither command nor prompt", h.ID())
				}
			}
		})
	}
}

// TestHookFields checks that every field of a valid hook is resolved.
func TestHookFields(t *testing.T) {
	src := `{"version": 1, "hooks": {
  "stop": [{"command": "./a.sh", "timeout": 1.5, "loop_limit": null, "failClosed": true, "matcher": "Stop", "x-owner": {"team": "sec"}}],
  "beforeShellExecution": [{"type": "prompt", "prompt": "safe?", "model": "fast"}, {"command": "b"}],
  "subagentStop": [{"command": "c", "loop_limit": 0, "matcher": "*"}]
}}`
	f := ParseFile("/p/.cursor/hooks.json", []byte(src), Project, "/p", "/p")
	if len(f.Problems) != 1 || f.Problems[0].Pointer != "/hooks/stop/0/x-owner" {
		t.Fatalf("problems: %q", problemStrings(f.Problems))
	}
	if len(f.Hooks) != 4 {
		t.Fatalf("got %d hooks", len(f.Hooks))
	}
	stop := f.Hooks[0]
	if stop.Step != event.Stop || stop.Type != TypeCommand || stop.Command != "./a.sh" ||
		stop.Timeout != 1500*time.Millisecond || !stop.LoopLimit.Unlimited || !stop.FailClosed ||
		stop.Matcher != "Stop" || stop.Match == nil || !stop.Matches("Stop") || stop.Matches("Other") {
		t.Errorf("stop hook resolved wrong: %+v", stop)
	}
	if got := string(stop.Extra["x-owner"]); got != `{"team": "sec"}` {
		t.Errorf("Extra[x-owner] = %q", got)
	}
	var owner map[string]string
	if err := json.Unmarshal(stop.Extra["x-owner"], &owner); err != nil || owner["team"] != "sec" {
		t.Errorf("Extra is not valid JSON: %v", err)
	}
	prompt := f.Hooks[1]
	if prompt.Type != TypePrompt || prompt.Prompt != "safe?" || prompt.Model != "fast" || prompt.Command != "" ||
		prompt.LoopLimit != (LoopLimit{N: DefaultLoopLimit}) || prompt.Timeout != 0 || prompt.Match != nil {
		t.Errorf("prompt hook resolved wrong: %+v", prompt)
	}
	if cmd := f.Hooks[2]; cmd.Index != 1 || cmd.Command != "b" || cmd.Type != TypeCommand {
		t.Errorf("second beforeShellExecution hook: %+v", cmd)
	}
	sub := f.Hooks[3]
	if sub.LoopLimit != (LoopLimit{N: 0}) || sub.Matcher != "*" || sub.Match != nil || !sub.Matches("anything") {
		t.Errorf("subagentStop hook: %+v", sub)
	}
	for _, h := range f.Hooks {
		if h.Source != Project || h.File != "/p/.cursor/hooks.json" || h.Dir != "/p" || h.Root != "/p" {
			t.Errorf("hook %s: source fields %v %q %q %q", h.ID(), h.Source, h.File, h.Dir, h.Root)
		}
	}
	if f.Version != 1 || f.Trusted || f.Dir != "/p" || f.Root != "/p" || f.Source != Project {
		t.Errorf("file fields: %+v", f)
	}
}

// TestDocumentOrder checks that hooks come in the order they are written,
// whatever their steps, and that Index counts dropped entries too.
func TestDocumentOrder(t *testing.T) {
	src := `{"version": 2, "hooks": {
  "stop": [{"command": "1"}],
  "sessionStart": [{"command": "2"}, {"timeout": -1}, {"command": "4"}],
  "afterFileEdit": [{"command": "5"}]
}}`
	f := ParseFile("h.json", []byte(src), Enterprise, "/etc/cursor", "")
	var got []string
	for _, h := range f.Hooks {
		got = append(got, h.ID())
	}
	want := []string{"h.json#stop[0]", "h.json#sessionStart[0]", "h.json#sessionStart[2]", "h.json#afterFileEdit[0]"}
	if !slices.Equal(got, want) {
		t.Errorf("order = %q, want %q", got, want)
	}
	if f.Version != 2 || !f.Trusted || !f.HasErrors() {
		t.Errorf("version %d, trusted %v, errors %v", f.Version, f.Trusted, f.HasErrors())
	}
}

func TestInvalidMatcher(t *testing.T) {
	src, pos := unmark(`{"version": 1, "hooks": {"preToolUse": [{"command": "a", "matcher": ‸"Shell("}, {"command": "b", "matcher": "Shell|Read"}]}}`)
	f := ParseFile("h.json", []byte(src), User, "", "")
	if len(f.Problems) != 1 {
		t.Fatalf("problems: %q", problemStrings(f.Problems))
	}
	p := f.Problems[0]
	// The message itself is the match package's; it must name the pattern.
	prefix := "h.json:" + pos[0] + ": hooks.preToolUse[0].matcher: "
	got := p.Error()
	if !strings.HasPrefix(got, prefix) || !strings.Contains(got, "regular expression") || !strings.Contains(got, `"Shell("`) ||
		!strings.HasSuffix(got, `(fix: correct the pattern; matchers are JavaScript regular expressions, and in JSON a backslash is written twice, as in "\\(")`) ||
		p.Severity != Error {
		t.Errorf("got %s\nwant prefix %s", got, prefix)
	}
	if len(f.Hooks) != 1 || f.Hooks[0].Command != "b" || !f.Hooks[0].Matches("Read") || f.Hooks[0].Matches("Grep") {
		t.Errorf("the valid hook must load with its matcher: %+v", f.Hooks)
	}
}

func TestSHA256(t *testing.T) {
	a := ParseFile("h.json", []byte(`{"hooks": {}}`), User, "", "")
	b := ParseFile("h.json", []byte(`{"hooks": {} }`), User, "", "")
	if a.SHA256 == b.SHA256 || a.SHA256 == ([32]byte{}) {
		t.Error("SHA256 must identify the content")
	}
}
