package layers

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"
)

// oneAgent reports whether pkg is one agent's package (agent/<name> or
// below it), not the registry, the shared agent package or a test helper.
func oneAgent(pkg string) (name string, ok bool) {
	rest, ok := strings.CutPrefix(pkg, "agent/")
	if !ok {
		return "", false
	}
	name, _, _ = strings.Cut(rest, "/")
	switch name {
	case "agents", "agenttest":
		return "", false
	}
	return name, true
}

// agentPeerImports returns one message per agent package that imports
// another agent's package: what several agents share lives in package
// agent, and only the registry (agent/agents) gathers them.
func agentPeerImports(graph map[string][]string) []string {
	var bad []string
	for _, pkg := range slices.Sorted(maps.Keys(graph)) {
		name, ok := oneAgent(pkg)
		if !ok {
			continue
		}
		for _, imp := range graph[pkg] {
			if other, ok := oneAgent(imp); ok && other != name {
				bad = append(bad, fmt.Sprintf("%s imports %s: an agent package imports no other agent package (move what they share to package agent)", pkg, imp))
			}
		}
	}
	return bad
}

// TestAgentImportsNoOtherAgent: no agent's package imports another's, on
// any supported system.
func TestAgentImportsNoOtherAgent(t *testing.T) {
	root := moduleRoot(t)
	for _, goos := range []string{"linux", "darwin", "windows"} {
		t.Run(goos, func(t *testing.T) {
			for _, msg := range agentPeerImports(importGraph(t, root, goos)) {
				t.Error(msg)
			}
		})
	}
}

// TestAgentPeerImportsFindsBreaches shows the rule names an agent that
// imports another, and lets the registry, the shared package and an
// agent's own subpackage be.
func TestAgentPeerImportsFindsBreaches(t *testing.T) {
	graph := map[string][]string{
		"agent/codex":        {"agent", "agent/claude"},
		"agent/claude":       {"agent", "agent/claude/inner", "config"},
		"agent/claude/inner": {"agent"},
		"agent/agents":       {"agent/claude", "agent/codex"},
		"agent/gemini":       {"agent/agenttest"},
		"host":               {"agent/agents"},
	}
	got := agentPeerImports(graph)
	want := []string{"agent/codex imports agent/claude: an agent package imports no other agent package (move what they share to package agent)"}
	if !slices.Equal(got, want) {
		t.Errorf("found:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
