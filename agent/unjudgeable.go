package agent

import (
	"fmt"
	"maps"
	"slices"
	"strings"
)

// unjudgeable reports a tool input the hooks cannot judge: a shell
// command that is not a string, or a file tool's input that names more
// than one file under the keys a path may be given by (PathKeys, in any
// spelling: file_path, filePath). The agent reads one of those, and which
// one is the agent's business, not agenthooks': judging the other would
// check a file the tool never touches, so such a call is not judged.
func unjudgeable(t *ToolCall) error {
	if t == nil {
		return nil
	}
	if t.Kind == KindShell {
		// A command that is not a string is no command the hooks could
		// judge (Str reads it as absent).
		for _, k := range []string{"command", "cmd"} {
			if v, ok := t.AgentInput[k]; ok && v != nil {
				if _, isString := v.(string); !isString {
					return fmt.Errorf("the %s call's %q is not a string", t.AgentName, k)
				}
			}
		}
		return nil
	}
	if t.Kind != KindRead && t.Kind != KindWrite {
		return nil
	}
	found := map[string]string{} // key as the agent sent it → path
	for k, v := range t.AgentInput {
		if s, ok := v.(string); ok && s != "" && isPathKey(k) {
			found[k] = s
		}
	}
	paths := map[string]bool{}
	for _, p := range found {
		paths[p] = true
	}
	if len(paths) < 2 {
		return nil
	}
	var named []string
	for _, k := range slices.Sorted(maps.Keys(found)) {
		named = append(named, fmt.Sprintf("%s %q", k, found[k]))
	}
	return fmt.Errorf("the %s call names more than one file (%s): which one the tool reads cannot be told, so the call is not judged", t.AgentName, strings.Join(named, ", "))
}

// isPathKey reports whether k spells one of PathKeys (file_path, filePath).
func isPathKey(k string) bool {
	n := strings.ToLower(strings.ReplaceAll(k, "_", ""))
	for _, p := range PathKeys {
		if n == strings.ReplaceAll(p, "_", "") {
			return true
		}
	}
	return false
}
