package client_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// With a state store that cannot be used (the state folder is a file),
// every step still gets its hooks' answer, from a process of its own, and
// the steps start one engine between them, not one each: the engine
// listens, says why it runs no step, and starts running them once the
// store opens.
func TestUnusableStoreStartsOneEngine(t *testing.T) {
	w := newWorld(t)
	w.userHooks(denyPush)
	state := filepath.Join(t.TempDir(), "state")
	if err := os.WriteFile(state, []byte("not a folder"), 0o644); err != nil {
		t.Fatal(err)
	}
	w.env = append(w.env, "AGENTHOOKS_STATE_DIR="+state)

	for i := range 6 {
		if r := w.run(pushPayload, nil, "run", "beforeShellExecution"); !strings.Contains(r.out, `"deny"`) {
			t.Fatalf("step %d with the store unusable: %+v", i, r)
		}
	}
	st := w.waitEngine()
	if !strings.Contains(st.Waiting, "state") {
		t.Errorf("the engine's status does not say it waits for its state store: %+v", st)
	}
	// An engine started by two steps at once leaves as soon as it sees
	// the other one listen.
	deadline := time.Now().Add(15 * time.Second)
	for n := len(processesWith(w.socket())); n != 1; n = len(processesWith(w.socket())) {
		if time.Now().After(deadline) {
			t.Fatalf("%d engines run for one socket, want 1", n)
		}
		time.Sleep(50 * time.Millisecond)
	}
	if r := w.run(pushPayload, nil, "run", "beforeShellExecution"); !strings.Contains(r.out, `"deny"`) {
		t.Fatalf("step with the engine waiting: %+v", r)
	}
	if got := w.status().Engine; got == nil || got.Steps != 0 {
		t.Errorf("a waiting engine ran a step: %+v", got)
	}

	// The disk is mended: the same engine runs the next steps.
	if err := os.Remove(state); err != nil {
		t.Fatal(err)
	}
	deadline = time.Now().Add(20 * time.Second)
	for w.status().Engine.Waiting != "" {
		if time.Now().After(deadline) {
			t.Fatal("the engine still waits after its state folder was mended")
		}
		time.Sleep(100 * time.Millisecond)
	}
	if r := w.run(pushPayload, nil, "run", "beforeShellExecution"); !strings.Contains(r.out, `"deny"`) {
		t.Fatalf("step after the store was mended: %+v", r)
	}
	if got := w.status().Engine; got == nil || got.PID != st.PID || got.Steps != 1 {
		t.Errorf("after the store was mended, engine %+v, want engine %d with 1 step served", got, st.PID)
	}
}

// processesWith lists the live processes that have arg among their
// arguments.
func processesWith(arg string) []string {
	entries, _ := os.ReadDir("/proc")
	var pids []string
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err != nil {
			continue
		}
		for a := range bytes.SplitSeq(b, []byte{0}) {
			if string(a) == arg {
				pids = append(pids, e.Name())
				break
			}
		}
	}
	return pids
}
