package teamsync_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/agenthooks/agenthooks/config"
	"github.com/agenthooks/agenthooks/engine"
	"github.com/agenthooks/agenthooks/event"
	"github.com/agenthooks/agenthooks/team/teamsync/faketeam"
)

// TestEngineLoadsTheSyncedSet: what the sync writes is the team source
// of the real loader (between enterprise and user, running from the
// hooks folder) and the engine runs it.
func TestEngineLoadsTheSyncedSet(t *testing.T) {
	skipOnWindows(t)
	srv := newServer(t)
	guard := faketeam.Hook(1, "beforeShellExecution", "guard.sh",
		"#!/bin/sh\ncat >/dev/null\nprintf '{\"permission\":\"deny\",\"user_message\":\"team guard in %s\"}\\n' \"$(pwd)\"\n")
	guard.Matcher = "^git push"
	guard.TimeoutSeconds = 5
	srv.SetHooks(guard, goodSet()[1])

	dir := t.TempDir()
	home := filepath.Join(dir, "home")
	ws := filepath.Join(dir, "ws")
	ent := filepath.Join(dir, "etc", "hooks.json")
	writeFile(t, ent, `{"version":1,"hooks":{"beforeShellExecution":[{"command":"true"}]}}`)
	writeFile(t, config.UserFile(home), `{"version":1,"hooks":{"beforeShellExecution":[{"command":"true"}]}}`)
	if err := os.MkdirAll(ws, 0o755); err != nil {
		t.Fatal(err)
	}
	mustSync(t, newClient(t, srv.URL, home))

	loc := config.Locations{EnterpriseFile: ent, Home: home, WorkspaceRoots: []string{ws}}
	set := config.Load(loc, nil)
	if len(set.Problems) > 0 {
		t.Fatalf("problems: %v", set.Problems)
	}
	var sources []config.Source
	for _, h := range set.Hooks {
		sources = append(sources, h.Source)
	}
	want := []config.Source{config.Enterprise, config.Team, config.Team, config.User}
	if len(sources) != len(want) {
		t.Fatalf("sources %v, want %v", sources, want)
	}
	for i := range want {
		if sources[i] != want[i] {
			t.Fatalf("sources %v, want %v", sources, want)
		}
	}
	var team *config.Hook
	for _, h := range set.Hooks[1:3] {
		if h.Step == event.BeforeShellExecution {
			team = h
		}
	}
	if team == nil {
		t.Fatal("no team beforeShellExecution hook")
	}
	if team.Step != event.BeforeShellExecution || team.Command != "./guard.sh" || team.Matcher != "^git push" ||
		team.Timeout.Seconds() != 5 || team.Dir != hooksDir(home) || team.File != filepath.Join(hooksDir(home), "hooks.json") {
		t.Fatalf("team hook %+v", team)
	}

	eng, err := engine.Load(engine.Options{Locations: loc})
	if err != nil {
		t.Fatal(err)
	}
	d, err := eng.Run(context.Background(), event.BeforeShellExecution, &event.BeforeShellExecutionInput{Command: "git push origin main", Cwd: ws})
	if err != nil {
		t.Fatal(err)
	}
	if d.Permission != event.Deny || d.UserMessage != "team guard in "+hooksDir(home) {
		t.Fatalf("decision %s %q; hooks %+v", d.Permission, d.UserMessage, d.Hooks)
	}
	// The matcher came through: other commands pass the team hook by.
	d, err = eng.Run(context.Background(), event.BeforeShellExecution, &event.BeforeShellExecutionInput{Command: "ls", Cwd: ws})
	if err != nil || d.Permission == event.Deny {
		t.Fatalf("ls: %v %v", d.Permission, err)
	}
}

// TestWatchingEngineSeesAnUpdate: an engine watching its sources reloads
// when a sync swaps the hooks folder.
func TestWatchingEngineSeesAnUpdate(t *testing.T) {
	skipOnWindows(t)
	srv := newServer(t)
	dir := t.TempDir()
	home := filepath.Join(dir, "home")
	c := newClient(t, srv.URL, home)
	mustSync(t, c)
	eng, err := engine.Load(engine.Options{Locations: config.Locations{EnterpriseFile: filepath.Join(dir, "none.json"), Home: home}})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	reloaded := make(chan struct{}, 16)
	done := make(chan error, 1)
	go func() { done <- eng.Watch(ctx, func() { reloaded <- struct{}{} }) }()
	defer func() { cancel(); <-done }()

	// The watch starts in the background: sync new sets until it has
	// seen one (the first sync may come before it watches).
	set := goodSet()
	for attempt := 0; ; attempt++ {
		if attempt == 10 {
			t.Fatal("the watching engine never reloaded after a sync")
		}
		msg := fmt.Sprintf("guard v%d", attempt+2)
		set[0].ScriptContent = script("deny", msg)
		srv.SetHooks(set[0]) // audit.sh removed
		mustSync(t, c)
		select {
		case <-reloaded:
		case <-time.After(2 * time.Second):
			continue
		}
		if n := len(eng.Hooks()); n != 1 {
			t.Fatalf("after the reload the engine has %d hooks, want 1", n)
		}
		d, err := eng.Run(context.Background(), event.BeforeShellExecution, &event.BeforeShellExecutionInput{Command: "git push", Cwd: dir})
		if err != nil || d.UserMessage != msg {
			t.Fatalf("decision %q, %v; want %q", d.UserMessage, err, msg)
		}
		return
	}
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}
