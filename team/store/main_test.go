package store

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/agenthooks/agenthooks/team/internal/pgtest"
)

func TestMain(m *testing.M) { os.Exit(pgtest.Main(m)) }

// backend opens a fresh, empty store of one kind.
type backend struct {
	name string
	// url returns a new empty database's URL for the test.
	url func(t testing.TB) string
}

var backends = []backend{
	{"sqlite", func(t testing.TB) string { return "sqlite:" + filepath.Join(t.TempDir(), "team.db") }},
	{"postgres", func(t testing.TB) string { return pgtest.URL(t) }},
}

// each runs test against every backend, each with its own new database.
func each(t *testing.T, test func(t *testing.T, s Store)) {
	eachURL(t, func(t *testing.T, url string) {
		test(t, openT(t, url, Options{}))
	})
}

// eachURL runs test with a new database URL of every backend.
func eachURL(t *testing.T, test func(t *testing.T, url string)) {
	for _, b := range backends {
		t.Run(b.name, func(t *testing.T) { test(t, b.url(t)) })
	}
}

func openT(t testing.TB, url string, o Options) Store {
	t.Helper()
	s, err := Open(context.Background(), url, o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := s.Close(); err != nil {
			t.Error(err)
		}
	})
	return s
}

func mustTeam(t testing.TB, s Store, name string) Team {
	t.Helper()
	team, err := s.CreateTeam(context.Background(), name)
	if err != nil {
		t.Fatal(err)
	}
	return team
}

// mustAuditTeam makes a team whose audit is on, keeping days.
func mustAuditTeam(t testing.TB, s Store, name string, days int) Team {
	t.Helper()
	team := mustTeam(t, s, name)
	if _, err := s.SetTeamAudit(context.Background(), team.ID, true, days); err != nil {
		t.Fatal(err)
	}
	return team
}

func sampleHook(name string) Hook {
	return Hook{
		Step:             "beforeShellExecution",
		ScriptName:       name,
		OperatingSystems: []string{"Linux", "Macintosh"},
		Active:           true,
		ScriptContent:    "#!/bin/sh\necho '{\"permission\":\"deny\"}'\n",
		Matcher:          "^git push",
		TimeoutSeconds:   2.5,
		FailClosed:       true,
	}
}
