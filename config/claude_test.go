package config

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/agenthooks/agenthooks/event"
)

func TestParseClaudeFile(t *testing.T) {
	src := `{
  "permissions": {"allow": ["Bash(npm test)"]},
  "hooks": {
    "PreToolUse": [
      {"matcher": "Bash", "hooks": [{"type": "command", "command": "./check.sh", "timeout": 5}]},
      {"matcher": "Edit|Write", "hooks": [
        {"type": "command", "command": "fmt", "args": ["--file", "a b"]},
        {"type": "prompt", "prompt": "Is this edit safe? $ARGUMENTS"}
      ]}
    ],
    "Stop": [{"hooks": [{"type": "command", "command": "./stop.sh", "async": true}]}],
    ‸"Notification": [{"hooks": [{"type": "command", "command": "notify"}]}],
    ‸"PreToolUze": [],
    "SessionStart": [{"matcher": "startup", "hooks": [
      {"type": ‸"http", "url": "http://127.0.0.1"},
      {"type": "command", "command": "'/usr/local/bin/agenthooks' run --from claude"}
    ]}]
  }
}`
	clean, pos := unmark(src)
	f := ParseClaudeFile("/w/.claude/settings.json", []byte(clean), ClaudeProject, "/w", "/w")
	if f.Trusted {
		t.Error("a project Claude Code file is trusted before the trust check")
	}
	var got []string
	for _, h := range f.Hooks {
		if h.Shape == nil || !h.LoopLimit.Unlimited {
			t.Errorf("%s: Shape %v, loop limit %+v", h.ID(), h.Shape, h.LoopLimit)
		}
		got = append(got, string(h.Step)+" "+h.Type+" "+h.Matcher+" "+h.Command+h.Prompt)
	}
	want := []string{
		"preToolUse command Bash ./check.sh",
		"preToolUse command Edit|Write fmt --file 'a b'",
		"preToolUse prompt Edit|Write Is this edit safe?",
		"stop command  ./stop.sh",
	}
	if !slices.Equal(got, want) {
		t.Errorf("hooks:\n got  %q\n want %q", got, want)
	}
	if f.Hooks[0].Timeout != 5*time.Second || f.Hooks[1].Index != 1 || f.Hooks[0].Dir != "/w" {
		t.Errorf("timeout %v, index %d, dir %q", f.Hooks[0].Timeout, f.Hooks[1].Index, f.Hooks[0].Dir)
	}
	if !f.Hooks[0].Matches("Bash") || f.Hooks[0].Matches("BashX") || !f.Hooks[1].Matches("Write") || f.Hooks[1].Matches("NotebookEdit") {
		t.Error("Claude Code's matcher rule is not applied")
	}
	var warnings []string
	for _, p := range f.Problems {
		if p.Severity != Warning {
			t.Errorf("unexpected error: %v", p)
		}
		warnings = append(warnings, p.Error())
	}
	all := strings.Join(warnings, "\n")
	for i, needle := range []string{"has no Cursor counterpart", `unknown Claude Code event "PreToolUze"`, "hooks do not run under agenthooks"} {
		if !strings.Contains(all, pos[i]+": warning: ") || !strings.Contains(all, needle) {
			t.Errorf("no warning %q at %s in:\n%s", needle, pos[i], all)
		}
	}
	if !strings.Contains(all, "did you mean PreToolUse?") || !strings.Contains(all, `"async" has no effect`) {
		t.Errorf("warnings lack the fix or the async note:\n%s", all)
	}
}

func TestParseClaudeFileErrors(t *testing.T) {
	tests := []struct{ src, want string }{
		{`[]`, "must hold a JSON object"},
		{`{"hooks": []}`, "must be an object mapping Claude Code events"},
		{`{"hooks": {"Stop": {}}}`, "must be an array of matcher groups"},
		{`{"hooks": {"Stop": [{"command": "x"}]}}`, `needs "hooks"`},
		{`{"hooks": {"PreToolUse": [{"matcher": "(", "hooks": []}]}}`, "is not a valid matcher"},
		{`{"hooks": {"Stop": [{"hooks": [{"type": "command"}]}]}}`, `needs a non-empty "command"`},
		{`{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "x", "timeout": -1}]}]}}`, "positive number of seconds"},
	}
	for _, tt := range tests {
		f := ParseClaudeFile("s.json", []byte(tt.src), ClaudeUser, "/h", "")
		if !f.HasErrors() || !strings.Contains(strings.Join(problemStrings(f.Problems), "\n"), tt.want) {
			t.Errorf("%s: problems %q, want %q", tt.src, problemStrings(f.Problems), tt.want)
		}
	}
	// Files without hooks, or with all hooks disabled, are fine and empty.
	for _, src := range []string{`{"model": "x"}`, `{"disableAllHooks": true, "hooks": {"Stop": [{"hooks": [{"type": "command", "command": "x"}]}]}}`} {
		f := ParseClaudeFile("s.json", []byte(src), ClaudeUser, "/h", "")
		if len(f.Problems) != 0 || len(f.Hooks) != 0 {
			t.Errorf("%s: %d hooks, problems %q", src, len(f.Hooks), problemStrings(f.Problems))
		}
	}
}

func TestLoadClaudeSources(t *testing.T) {
	f := newFixture(t)
	claude := func(cmd string) string {
		return `{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "` + cmd + `"}]}]}}`
	}
	writeFile(t, UserFile(f.home), hooksJSON("user"))
	writeFile(t, ProjectFile(f.ws1), hooksJSON("project"))
	writeFile(t, ClaudeUserFile(f.home), claude("claude-user"))
	writeFile(t, ClaudeProjectFile(f.ws1), claude("claude-project"))
	writeFile(t, ClaudeLocalFile(f.ws1), claude("claude-local"))
	trust := mapTrust{ProjectFile(f.ws1): true, ClaudeProjectFile(f.ws1): true}

	set := Load(f.loc(), trust)
	// The local file is not trusted: its hooks stay out, with a warning.
	if got, want := commands(set.Hooks), []string{"project", "user", "claude-project", "claude-user"}; !slices.Equal(got, want) {
		t.Errorf("hooks = %q, want %q", got, want)
	}
	var srcs []string
	for _, h := range set.Hooks {
		srcs = append(srcs, h.Source.String())
	}
	if want := []string{"project", "user", "claude-project", "claude-user"}; !slices.Equal(srcs, want) {
		t.Errorf("sources = %q", srcs)
	}
	if !strings.Contains(strings.Join(problemStrings(set.Problems), "\n"), "settings.local.json: warning: 1 project hook(s) skipped") {
		t.Errorf("no trust warning for the local file: %q", problemStrings(set.Problems))
	}
	for _, h := range set.Hooks {
		if h.Step != event.Stop {
			t.Errorf("%s: step %s", h.ID(), h.Step)
		}
	}

	loc := f.loc()
	names := []string{"claude-project-local", "claude-project", "claude-user"}
	loc.Skip = Skip{Hooks: names, Plugins: names}
	if got := commands(Load(loc, trust).Hooks); !slices.Equal(got, []string{"project", "user"}) {
		t.Errorf("Skip: hooks = %q", got)
	}
}
