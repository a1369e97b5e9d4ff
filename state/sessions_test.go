package state

import (
	"context"
	"maps"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/agenthooks/agenthooks/agent/agents"
	"github.com/agenthooks/agenthooks/config"
	"github.com/agenthooks/agenthooks/session"
)

// claudeProject and claudeUser are the sources of Claude Code's project
// and user settings files, as the registry defines them.
var (
	claude, _     = agents.Lookup("claude")
	sources       = agents.Sources()
	claudeProject = sources.File(claude.Settings, 1)
	claudeUser    = sources.File(claude.Settings, 2)
)

// TestSessionEnvSourceRoundTrip: each variable's source is stored beside
// it, readable by another Store, and decides which hooks see it.
func TestSessionEnvSourceRoundTrip(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	s := openTest(t, Options{Dir: dir})
	want := session.Session{
		Env:       map[string]string{"MODE": "strict", "PATH": "/proj/bin:/usr/bin", "U": "u"},
		EnvSource: map[string]string{"MODE": "enterprise", "PATH": "project", "U": "user"},
	}
	if err := s.Update(ctx, "c1", func(sess *session.Session) { *sess = want }); err != nil {
		t.Fatal(err)
	}
	var data string
	if err := s.db.QueryRowContext(ctx, `SELECT data FROM sessions WHERE conversation_id = 'c1'`).Scan(&data); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(data, `"env_source":{"MODE":"enterprise","PATH":"project","U":"user"}`) {
		t.Fatalf("stored %s", data)
	}
	got, err := openTest(t, Options{Dir: dir}).Get(ctx, "c1")
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("Get = %+v, want %+v", got, want)
	}
	for src, env := range map[config.Source]map[string]string{
		config.Enterprise: {"MODE": "strict"},
		config.Team:       {"MODE": "strict"},
		config.Project:    {"MODE": "strict", "PATH": "/proj/bin:/usr/bin"},
		config.User:       {"MODE": "strict", "PATH": "/proj/bin:/usr/bin", "U": "u"},
		claudeUser:        {"MODE": "strict", "PATH": "/proj/bin:/usr/bin", "U": "u"},
	} {
		if e := got.EnvFor(src, sources); !maps.Equal(e, env) {
			t.Errorf("EnvFor(%s) = %v, want %v", src, e, env)
		}
	}
}

// TestSessionStoredWithoutEnvSource: a session an older version stored
// has no sources; its variables count as the lowest source's, and a
// loader variable among them reaches no hook.
func TestSessionStoredWithoutEnvSource(t *testing.T) {
	ctx := context.Background()
	s := openTest(t, Options{})
	if _, err := s.db.ExecContext(ctx, `INSERT INTO sessions (conversation_id, data, updated_at) VALUES (?, ?, ?)`,
		"old", `{"env":{"OLD":"1","LD_PRELOAD":"/evil.so"},"loop_counts":{"stop":1}}`, time.Now().UnixNano()); err != nil {
		t.Fatal(err)
	}
	got, err := s.Get(ctx, "old")
	if err != nil {
		t.Fatal(err)
	}
	if got.LoopCounts["stop"] != 1 || got.Env["OLD"] != "1" {
		t.Fatalf("Get = %+v", got)
	}
	for _, src := range []config.Source{config.Enterprise, config.Team, config.Project, config.User, claudeProject} {
		if e := got.EnvFor(src, sources); len(e) != 0 {
			t.Errorf("EnvFor(%s) = %v, want nothing", src, e)
		}
	}
	if e := got.EnvFor(claudeUser, sources); !maps.Equal(e, map[string]string{"OLD": "1"}) {
		t.Errorf("EnvFor(claude-user) = %v, want OLD only", e)
	}
}
