//go:build unix

package client_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// execHooks gate commands that mention deny-me and save what the
// after-hooks get into dir.
func execHooks(t *testing.T, w *world, dir string) {
	t.Helper()
	gate := filepath.Join(w.home, ".cursor", "gate.sh")
	script := "#!/bin/sh\ncase \"$(cat)\" in\n*deny-me*) echo '{\"permission\":\"deny\",\"user_message\":\"denied by the gate\"}' ;;\nesac\n"
	if err := os.WriteFile(gate, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	save := func(name string) map[string]string {
		return map[string]string{"command": "cat > " + filepath.Join(dir, name)}
	}
	hooks, _ := json.Marshal(map[string]any{"version": 1, "hooks": map[string]any{
		"beforeShellExecution": []any{map[string]string{"command": gate}},
		"afterShellExecution":  []any{save("after.json")},
		"postToolUseFailure":   []any{save("failure.json")},
	}})
	w.userHooks(string(hooks))
}

// exec through the client runs the command in the client, gated and
// reported by the engine, with the answers of exec in one process:
// the command's output and status, a denial's message and 126, the
// after-hooks' payloads. The $SHELL form passes $0 and $1 on.
func TestExecThroughClient(t *testing.T) {
	w := newWorld(t)
	for _, mode := range []struct {
		name  string
		extra []string
	}{{"engine", nil}, {"own-process", []string{"AGENTHOOKS_ENGINE=off"}}, {"engine-again", nil}} {
		t.Run(mode.name, func(t *testing.T) {
			dir := t.TempDir()
			execHooks(t, w, dir)
			r := w.run("from stdin", mode.extra, "exec", "--", "sh", "-c", "cat; echo ' out'; echo err >&2; exit 3")
			if r.code != 3 || r.out != "from stdin out\n" || !strings.Contains(r.err, "err\n") {
				t.Fatalf("allowed command: %+v", r)
			}
			after := readJSON(t, filepath.Join(dir, "after.json"))
			// Two pipes: the streams interleave as they come.
			if out, _ := after["output"].(string); len(out) != len("from stdin out\nerr\n") || !strings.Contains(out, "err\n") || !strings.Contains(out, "from stdin") {
				t.Fatalf("afterShellExecution got output %q", after["output"])
			}
			if c, _ := after["command"].(string); !strings.HasPrefix(c, "sh -c ") || !strings.Contains(c, "exit 3") {
				t.Fatalf("afterShellExecution got command %q", after["command"])
			}
			marker := filepath.Join(dir, "ran")
			r = w.run("", mode.extra, "-c", "echo deny-me; touch "+marker)
			if r.code != 126 || !strings.Contains(r.err, "denied by the gate") {
				t.Fatalf("denied command: %+v", r)
			}
			if _, err := os.Stat(marker); err == nil {
				t.Fatal("the denied command ran")
			}
			if f := readJSON(t, filepath.Join(dir, "failure.json")); f["failure_type"] != "permission_denied" {
				t.Fatalf("postToolUseFailure got %v", f)
			}
			r = w.run("", mode.extra, "-lc", `printf '%s %s\n' "$0" "$1"`, "zero", "one")
			if r.code != 0 || r.out != "zero one\n" {
				t.Fatalf("-lc STRING ARG0 ARG1: %+v", r)
			}
			r = w.run("", mode.extra, "exec", "--", "no-such-program-here")
			if r.code != 127 || !strings.Contains(r.err, "not found") {
				t.Fatalf("missing program: %+v", r)
			}
		})
	}
	if st := w.status(); !st.Running || st.Engine.Steps == 0 {
		t.Fatalf("the engine served no step: %+v", st)
	}
}

// A command's own arguments never reach the engine as verbs or help:
// `exec -- ls --help` runs ls --help, and exec's help is exec's.
func TestExecHelpAndArguments(t *testing.T) {
	w := newWorld(t)
	w.userHooks(`{"version":1,"hooks":{}}`)
	r := w.run("", nil, "exec", "--", "sh", "-c", "echo $1", "sh", "--help")
	if r.code != 0 || r.out != "--help\n" {
		t.Fatalf("a command's --help: %+v", r)
	}
	r = w.run("", nil, "exec", "--help")
	if r.code != 0 || !strings.Contains(r.out, "Exec gates one command") {
		t.Fatalf("exec --help: %+v", r)
	}
	r = w.run("", nil, "exec")
	if r.code != 64 || !strings.Contains(r.err, "exec needs a command") {
		t.Fatalf("exec without a command: %+v", r)
	}
}

func readJSON(t *testing.T, path string) map[string]any {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("hook did not run: %v", err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatalf("%s: %v: %q", path, err, b)
	}
	return m
}
