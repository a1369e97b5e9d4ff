package host_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agenthooks/agenthooks/event"
	"github.com/agenthooks/agenthooks/host"
)

// The payload is read once for its workspace_roots and for the run: the
// roots it names win over --workspace, a workspace_roots of the wrong type
// falls back to --workspace with a warning, and a payload that is not JSON
// is a fault that still blocks on a fail-closed hook.
func TestCursorPayloadRoots(t *testing.T) {
	out := filepath.Join(t.TempDir(), "dir")
	hooks := `{"version":1,"hooks":{"beforeReadFile":[{"command":"printf %s \"$CURSOR_PROJECT_DIR\" > ` + out + `","failClosed":true}]}}`
	h, home := testHost(t, hooks)
	flag := filepath.Join(home, "flag")
	for _, c := range []struct {
		name, payload, dir, warning string
	}{
		{"payload roots", `{"file_path":"/a/f","content":"x","workspace_roots":["/from/payload"]}`, "/from/payload", ""},
		{"no roots", `{"file_path":"/a/f","content":"x"}`, flag, ""},
		{"bad roots", `{"file_path":"/a/f","content":"x","workspace_roots":7}`, flag, "workspace_roots is not a list of paths"},
	} {
		os.Remove(out)
		rep := h.Run(context.Background(), host.Request{Step: event.BeforeReadFile, Payload: []byte(c.payload), Workspaces: []string{flag}})
		if rep.Fault != nil {
			t.Errorf("%s: fault %v", c.name, rep.Fault)
			continue
		}
		if got, _ := os.ReadFile(out); string(got) != c.dir {
			t.Errorf("%s: the hook ran in project %q, want %q", c.name, got, c.dir)
		}
		if warned := strings.Contains(strings.Join(rep.Warnings, "\n"), "workspace_roots"); warned != (c.warning != "") ||
			(c.warning != "" && !strings.Contains(strings.Join(rep.Warnings, "\n"), c.warning)) {
			t.Errorf("%s: warnings %q, want %q", c.name, rep.Warnings, c.warning)
		}
	}
	rep := h.Run(context.Background(), host.Request{Step: event.BeforeReadFile, Payload: []byte(`{"file_path":`), Workspaces: []string{flag}})
	if rep.Fault == nil || !strings.Contains(rep.Fault.Error(), "payload is not a JSON object") || !rep.Decision.Blocked() {
		t.Errorf("broken payload: fault %v, blocked %v; want a fault that blocks", rep.Fault, rep.Decision != nil && rep.Decision.Blocked())
	}
}
