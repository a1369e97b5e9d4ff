package host_test

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/agenthooks/agenthooks/internal/faultinject"
)

// A hooks set swapped between the step's freshness check and the spawn
// (a team sync renames a script) is no reason to let the step through:
// the hook that was not found runs again from the new set, and denies.
func TestSwappedSetRunsAgain(t *testing.T) {
	h, home := testHost(t, `{"version":1,"hooks":{"beforeShellExecution":[{"command":"./hooks/guard-a.sh"}]}}`)
	deny := "#!/bin/sh\ncat >/dev/null\necho '{\"permission\":\"deny\",\"user_message\":\"guarded\"}'\n"
	dir := filepath.Join(home, ".cursor", "hooks")
	os.MkdirAll(dir, 0o755)
	if err := os.WriteFile(filepath.Join(dir, "guard-a.sh"), []byte(deny), 0o755); err != nil {
		t.Fatal(err)
	}
	if rep := run(h, home, `{"command":"rm x"}`); !rep.Decision.Blocked() {
		t.Fatalf("before the swap: %s", rep.Stdout)
	}
	var once sync.Once
	faultinject.Hook = func(stage string) {
		if stage != "run" {
			return
		}
		once.Do(func() {
			os.Rename(filepath.Join(dir, "guard-a.sh"), filepath.Join(dir, "guard-b.sh"))
			os.WriteFile(filepath.Join(home, ".cursor", "hooks.json"),
				[]byte(`{"version":1,"hooks":{"beforeShellExecution":[{"command":"./hooks/guard-b.sh"}]}}`), 0o644)
		})
	}
	t.Cleanup(func() { faultinject.Hook = nil })
	rep := run(h, home, `{"command":"rm x"}`)
	if !rep.Decision.Blocked() || !strings.Contains(string(rep.Stdout), "guarded") {
		t.Fatalf("a set swapped under the step: %s", rep.Stdout)
	}
}
