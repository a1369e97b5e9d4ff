package engine_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/agenthooks/agenthooks/agent/agents"
	"github.com/agenthooks/agenthooks/config"
	"github.com/agenthooks/agenthooks/engine"
	"github.com/agenthooks/agenthooks/event"
)

// fixture is a throwaway machine: an enterprise file, a home with user and
// team hooks, and a workspace root, all under t.TempDir().
type fixture struct {
	t          *testing.T
	dir        string
	enterprise string
	home       string
	root       string
	trusted    map[string]bool // project files trusted by the fake trust store
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	dir := t.TempDir()
	f := &fixture{
		t:          t,
		dir:        dir,
		enterprise: filepath.Join(dir, "etc", "cursor", "hooks.json"),
		home:       filepath.Join(dir, "home"),
		root:       filepath.Join(dir, "ws"),
		trusted:    map[string]bool{},
	}
	for _, d := range []string{filepath.Dir(f.enterprise), f.home, f.root, f.scripts()} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return f
}

func (f *fixture) scripts() string { return filepath.Join(f.dir, "scripts") }

// script writes an executable shell script and returns its absolute path.
func (f *fixture) script(name, body string) string {
	f.t.Helper()
	p := filepath.Join(f.scripts(), name)
	if err := os.WriteFile(p, []byte("#!/bin/sh\n"+body+"\n"), 0o755); err != nil {
		f.t.Fatal(err)
	}
	return p
}

// hk is one hook definition as written in hooks.json.
type hk map[string]any

// write writes the hooks file of a source.
func (f *fixture) write(src config.Source, hooks map[event.Step][]hk) string {
	f.t.Helper()
	var p string
	switch src {
	case config.Enterprise:
		p = f.enterprise
	case config.Team:
		p = filepath.Join(f.home, ".cursor", "managed", "team_1", "hooks", "hooks.json")
	case config.Project:
		p = filepath.Join(f.root, ".cursor", "hooks.json")
		f.trusted[p] = true
	case config.User:
		p = filepath.Join(f.home, ".cursor", "hooks.json")
	default:
		f.t.Fatalf("no path for source %v", src)
	}
	m := map[string]any{}
	for step, hs := range hooks {
		m[string(step)] = hs
	}
	data, err := json.MarshalIndent(map[string]any{"version": 1, "hooks": m}, "", "  ")
	if err != nil {
		f.t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		f.t.Fatal(err)
	}
	if err := os.WriteFile(p, data, 0o644); err != nil {
		f.t.Fatal(err)
	}
	return p
}

// fakeTrust trusts exactly the project files the fixture wrote.
type fakeTrust map[string]bool

func (ft fakeTrust) Check(_, file string, _ []byte) (bool, string) {
	if ft[file] {
		return true, ""
	}
	return false, file + " is not trusted"
}

func (f *fixture) options() engine.Options {
	return engine.Options{
		Locations: config.Locations{
			EnterpriseFile: f.enterprise,
			Home:           f.home,
			WorkspaceRoots: []string{f.root},
			Settings:       agents.Settings(),
		},
		Trust: fakeTrust(f.trusted),
		Env:   []string{"PATH=" + os.Getenv("PATH"), "HOST_VAR=host"},
	}
}

func (f *fixture) engine(mod ...func(*engine.Options)) *engine.Engine {
	f.t.Helper()
	opts := f.options()
	for _, m := range mod {
		m(&opts)
	}
	e, err := engine.Load(opts)
	if err != nil {
		f.t.Fatal(err)
	}
	for _, p := range e.Problems() {
		if p.Severity == config.Error {
			f.t.Fatalf("config problem: %v", p)
		}
	}
	return e
}

// run runs a step with a JSON payload and a generous deadline.
func run(t *testing.T, e *engine.Engine, step event.Step, payload string) *engine.Decision {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	d, err := e.Run(ctx, step, json.RawMessage(payload))
	if err != nil {
		t.Fatalf("Run(%s): %v", step, err)
	}
	return d
}

// said lists what each hook counted as, in priority order.
func said(d *engine.Decision) []string {
	out := make([]string, len(d.Hooks))
	for i, o := range d.Hooks {
		out[i] = o.Said
	}
	return out
}
