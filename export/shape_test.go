package export_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/agenthooks/agenthooks/config"
	"github.com/agenthooks/agenthooks/event"
)

// allSteps has one command hook and one prompt hook at every step, with
// options set, so every target writes every field it has.
func allSteps() string {
	var b strings.Builder
	b.WriteString(`{"version":1,"hooks":{`)
	for i, s := range event.Steps {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString(`"` + string(s) + `":[{"command":"./h.sh","timeout":12,"failClosed":true},{"type":"prompt","prompt":"ok?","timeout":9}]`)
	}
	b.WriteString("}}")
	return b.String()
}

// The events each agent reads hooks for (the agents' hooks documentation;
// docs/dialects.md, Events).
var agentEvents = map[string][]string{
	"claude": {"SessionStart", "UserPromptSubmit", "PreToolUse", "PermissionRequest", "PostToolUse", "PostToolUseFailure",
		"Stop", "SubagentStop", "PreCompact", "SessionEnd", "Notification", "SubagentStart"},
	"gemini": {"BeforeTool", "AfterTool", "BeforeAgent", "AfterAgent", "BeforeModel", "AfterModel", "BeforeToolSelection",
		"SessionStart", "SessionEnd", "PreCompress", "Notification"},
	"codex": {"SessionStart", "SubagentStart", "PreToolUse", "PermissionRequest", "PostToolUse", "PreCompact", "PostCompact",
		"UserPromptSubmit", "SubagentStop", "Stop", "SessionEnd"},
	"copilot": {"sessionStart", "sessionEnd", "userPromptSubmitted", "preToolUse", "postToolUse", "postToolUseFailure",
		"permissionRequest", "notification", "agentStop", "subagentStart", "subagentStop", "preCompact", "errorOccurred"},
}

// strict decodes b into v, refusing fields v does not name.
func strict(t *testing.T, b []byte, v any) {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		t.Fatalf("%v\n%s", err, b)
	}
}

// The documents have the shapes the agents read, with only the fields
// the agents' hooks documentation lists for them (docs/export.md).
func TestExportDocumentShapes(t *testing.T) {
	hooks := hooksOf(t, config.Project, allSteps())
	for _, agent := range targets.Agents() {
		t.Run(agent, func(t *testing.T) {
			r := mustExport(t, agent, hooks)
			if agent == "copilot" {
				var doc struct {
					Version *int `json:"version"`
					Hooks   map[string][]struct {
						Type       string  `json:"type"`
						Bash       *string `json:"bash"`
						PowerShell *string `json:"powershell"`
						Command    string  `json:"command"`
						Cwd        string  `json:"cwd"`
						Env        any     `json:"env"`
						TimeoutSec *int    `json:"timeoutSec"`
						Matcher    string  `json:"matcher"`
					} `json:"hooks"`
				}
				strict(t, r.Document, &doc)
				if doc.Version == nil || *doc.Version != 1 || !bytes.HasPrefix(r.Document, []byte("{\n  \"version\": 1,\n  \"hooks\": {\n")) {
					t.Fatalf("version: %s", r.Document)
				}
				for ev, list := range doc.Hooks {
					if !slices.Contains(agentEvents[agent], ev) {
						t.Errorf("unknown event %s", ev)
					}
					for _, h := range list {
						if h.Type != "command" || h.Bash == nil || *h.Bash != "./h.sh" || h.PowerShell == nil || h.TimeoutSec == nil || *h.TimeoutSec != 12 || h.Cwd != "." {
							t.Errorf("%s handler: %+v", ev, h)
						}
					}
				}
				return
			}
			var doc struct {
				Hooks map[string][]struct {
					Matcher *string `json:"matcher"`
					Hooks   []struct {
						Name            string `json:"name"`
						Type            string `json:"type"`
						Command         string `json:"command"`
						Prompt          string `json:"prompt"`
						Model           string `json:"model"`
						Timeout         *int   `json:"timeout"`
						ContinueOnBlock *bool  `json:"continueOnBlock"`
					} `json:"hooks"`
				} `json:"hooks"`
			}
			strict(t, r.Document, &doc)
			for ev, groups := range doc.Hooks {
				if !slices.Contains(agentEvents[agent], ev) {
					t.Errorf("unknown event %s", ev)
				}
				for _, g := range groups {
					if g.Matcher != nil && *g.Matcher == "" {
						t.Errorf("%s: empty matcher written", ev)
					}
					if len(g.Hooks) == 0 {
						t.Errorf("%s: empty group", ev)
					}
					for _, h := range g.Hooks {
						if h.Timeout == nil {
							t.Errorf("%s: no timeout", ev)
							continue
						}
						switch {
						case h.Type == "prompt" && agent == "claude":
							if h.Prompt != "ok?" || h.Command != "" || *h.Timeout != 9 {
								t.Errorf("%s prompt handler: %+v", ev, h)
							}
						case h.Type == "command":
							if !strings.HasSuffix(h.Command, "; ./h.sh") || h.Prompt != "" || h.ContinueOnBlock != nil {
								t.Errorf("%s handler: %+v", ev, h)
							}
							want := 12
							if agent == "gemini" {
								want = 12000
							}
							if *h.Timeout != want {
								t.Errorf("%s timeout %d, want %d", ev, *h.Timeout, want)
							}
						default:
							t.Errorf("%s: %s cannot run %s hooks", ev, agent, h.Type)
						}
						if (agent == "gemini") != (h.Name != "") {
							t.Errorf("%s: name %q", ev, h.Name)
						}
					}
				}
			}
		})
	}
}

// The document seen whole, for one realistic file: the hooks.json of the
// quickstart and all-steps examples of Cursor's hooks documentation.
func TestExportSeedExamples(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "config", "testdata", "seed-examples", "*.json"))
	if err != nil || len(files) == 0 {
		t.Skip("no seed examples")
	}
	checked := 0
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		f := config.ParseFile(file, data, config.Project, projectRoot, projectRoot)
		if f.HasErrors() || len(f.Hooks) == 0 {
			continue
		}
		checked++
		for _, agent := range targets.Agents() {
			r := mustExport(t, agent, f.Hooks)
			if r.Exported+r.Skipped != len(f.Hooks) {
				t.Errorf("%s %s: %d + %d hooks of %d", filepath.Base(file), agent, r.Exported, r.Skipped, len(f.Hooks))
			}
			skips := 0
			for _, w := range r.Warnings {
				if w.Skipped {
					skips++
				}
				if w.File != file || !strings.HasPrefix(w.String(), file) {
					t.Errorf("warning names %q", w.File)
				}
			}
			if skips != r.Skipped {
				t.Errorf("%s %s: %d skip warnings for %d skipped hooks", filepath.Base(file), agent, skips, r.Skipped)
			}
			if got := len(entries(t, r)); got != r.Exported {
				t.Errorf("%s %s: %d handlers for %d exported hooks", filepath.Base(file), agent, got, r.Exported)
			}
		}
	}
	if checked == 0 {
		t.Errorf("none of the %d seed examples parsed with hooks: nothing was checked", len(files))
	}
}
