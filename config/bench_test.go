package config

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// BenchmarkLoad1000 loads four sources of 250 hooks each, every hook
// with a matcher and the usual options.
func BenchmarkLoad1000(b *testing.B) {
	d := b.TempDir()
	ent := filepath.Join(d, "etc", "hooks.json")
	home := filepath.Join(d, "home")
	root := filepath.Join(d, "ws")
	steps := []string{"beforeShellExecution", "preToolUse", "afterFileEdit", "stop", "beforeReadFile"}
	content := func(name string) string {
		var sb strings.Builder
		sb.WriteString("{\n  \"version\": 1,\n  \"hooks\": {\n")
		per := 250 / len(steps)
		for si, s := range steps {
			fmt.Fprintf(&sb, "    %q: [\n", s)
			for i := range per {
				fmt.Fprintf(&sb, `      {"command": "./hooks/%s-%d.sh --flag", "timeout": 30, "failClosed": true, "matcher": "Shell|Read|Write|Stop|MCP:.*%d"}`, name, i, i)
				if i < per-1 {
					sb.WriteString(",")
				}
				sb.WriteString("\n")
			}
			sb.WriteString("    ]")
			if si < len(steps)-1 {
				sb.WriteString(",")
			}
			sb.WriteString("\n")
		}
		sb.WriteString("  }\n}\n")
		return sb.String()
	}
	writeFile(b, ent, content("ent"))
	writeFile(b, filepath.Join(home, ".cursor", "managed", "team_1", "hooks", "hooks.json"), content("team"))
	writeFile(b, ProjectFile(root), content("project"))
	writeFile(b, UserFile(home), content("user"))
	loc := Locations{Settings: testSettings, EnterpriseFile: ent, Home: home, WorkspaceRoots: []string{root}}
	trust := mapTrust{ProjectFile(root): true}

	if set := Load(loc, trust); len(set.Hooks) != 1000 || len(set.Problems) != 0 {
		b.Fatalf("loaded %d hooks, problems %q", len(set.Hooks), problemStrings(set.Problems))
	}
	b.ReportAllocs()
	for b.Loop() {
		Load(loc, trust)
	}
}
