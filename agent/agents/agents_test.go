package agents

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// The agents the command line has always offered stay, first and in this
// order (docs and scripts list them so); an agent added later comes after
// them. Every agent is found by its name.
func TestLookup(t *testing.T) {
	first := []string{"claude", "codex", "gemini", "copilot", "opencode", "contract"}
	if got := Names(); len(got) < len(first) || !slices.Equal(got[:len(first)], first) {
		t.Errorf("Names = %v, want them to start with %v", got, first)
	}
	for _, n := range Names() {
		a, ok := Lookup(n)
		if !ok || a.Name() != n || a.Title() == "" || a.Dialect.Name != n {
			t.Errorf("Lookup(%q) = %+v, %v", n, a, ok)
		}
	}
	if _, ok := Lookup("cursor"); ok {
		t.Error("Lookup(cursor) found a dialect")
	}
}

// notAgents are the folders under agent/ that hold no agent.
var notAgents = []string{"agents", "agenttest"}

// TestEveryAgentIsRegistered: each folder under agent/ is one agent,
// named as its folder, and has its line in All; a forgotten line fails
// here. Names are unique, so a lookup is never ambiguous.
func TestEveryAgentIsRegistered(t *testing.T) {
	entries, err := os.ReadDir("..")
	if err != nil {
		t.Fatal(err)
	}
	names := Names()
	var folders []string
	for _, e := range entries {
		if !e.IsDir() || slices.Contains(notAgents, e.Name()) {
			continue
		}
		if m, _ := filepath.Glob(filepath.Join("..", e.Name(), "*.go")); len(m) == 0 {
			continue
		}
		folders = append(folders, e.Name())
		if !slices.Contains(names, e.Name()) {
			t.Errorf("agent/%s is not in the registry: add its Agent to agents.All", e.Name())
		}
	}
	if len(folders) < 6 {
		t.Fatalf("found only %v under agent/", folders)
	}
	for _, a := range All {
		if a.Install != nil && a.Install.Name != a.Name() || a.Export != nil && a.Export.Name != a.Name() {
			t.Errorf("agent %q: its export or install parts go by another name", a.Name())
		}
	}
	seen := map[string]bool{}
	for _, a := range All {
		switch {
		case a == nil || a.Dialect == nil:
			t.Errorf("an entry of All has no dialect: %+v", a)
		case seen[a.Name()]:
			t.Errorf("two agents are named %q", a.Name())
		case !slices.Contains(folders, a.Name()):
			t.Errorf("agent %q has no folder agent/%s", a.Name(), a.Name())
		}
		if a != nil && a.Dialect != nil {
			seen[a.Name()] = true
		}
	}
}

// TestTablesAgreeAcrossParts: an agent's install wires the events its
// export writes, in the same order, since both read the agent's one
// table.
func TestTablesAgreeAcrossParts(t *testing.T) {
	for _, a := range All {
		if a.Export == nil || a.Install == nil {
			continue
		}
		if !slices.Equal(a.Install.Events, a.Export.EventOrder) {
			t.Errorf("%s: install wires %v, export writes %v", a.Name(), a.Install.Events, a.Export.EventOrder)
		}
		if a.Install.Title == "" || a.Export.Title == "" {
			t.Errorf("%s: a part has no title", a.Name())
		}
	}
}

// TestMayGate: the events that may gate, gathered from every agent, are
// every agent's gates in every spelling, and nothing else.
func TestMayGate(t *testing.T) {
	tools := []string{"PreToolUse", "preToolUse", "BeforeTool", "tool.execute.before", "beforeShellExecution", "beforeMCPExecution", "beforeReadFile"}
	prompts := []string{"UserPromptSubmit", "userPromptSubmitted", "BeforeAgent", "chat.message", "beforeSubmitPrompt"}
	for _, ev := range tools {
		if tool, prompt := MayGate(ev); !tool || prompt {
			t.Errorf("MayGate(%s) = %v, %v; want a tool gate", ev, tool, prompt)
		}
	}
	for _, ev := range prompts {
		if tool, prompt := MayGate(ev); tool || !prompt {
			t.Errorf("MayGate(%s) = %v, %v; want a prompt", ev, tool, prompt)
		}
	}
	for _, ev := range []string{"PostToolUse", "Stop", "sessionStart", "AfterTool", "tool.execute.after"} {
		if tool, prompt := MayGate(ev); tool || prompt {
			t.Errorf("MayGate(%s) = %v, %v; want neither", ev, tool, prompt)
		}
	}
	if tool, prompt := MayGate(""); !tool || !prompt {
		t.Error(`MayGate("") is not both`)
	}
}
