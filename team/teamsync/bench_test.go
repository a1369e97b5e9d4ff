package teamsync_test

import (
	"context"
	"testing"

	"github.com/agenthooks/agenthooks/team"
	"github.com/agenthooks/agenthooks/team/teamsync"
	"github.com/agenthooks/agenthooks/team/teamsync/faketeam"
)

// BenchmarkSyncUnchanged is a watch round when nothing changed: one
// request answered "unchanged", the folder verified, sync.json updated.
func BenchmarkSyncUnchanged(b *testing.B) {
	srv := faketeam.New(b, teamID, "Acme", testToken)
	srv.SetHooks(goodSet()...)
	c, err := teamsync.New(teamsync.Options{Server: srv.URL, Token: testToken, Home: b.TempDir(), OS: team.Linux})
	if err != nil {
		b.Fatal(err)
	}
	if _, err := c.Sync(context.Background(), teamsync.AcceptAll); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if res, err := c.Sync(context.Background(), nil); err != nil || res.Changed {
			b.Fatalf("%+v %v", res, err)
		}
	}
}

// BenchmarkSyncChanged is a round that installs a new set: the full
// answer checked, every file written and flushed, the folder swapped.
func BenchmarkSyncChanged(b *testing.B) {
	srv := faketeam.New(b, teamID, "Acme", testToken)
	setA, setB := goodSet(), goodSet()
	setB[0].ScriptContent = script("deny", "guard v2")
	srv.SetHooks(setA...)
	c, err := teamsync.New(teamsync.Options{Server: srv.URL, Token: testToken, Home: b.TempDir(), OS: team.Linux})
	if err != nil {
		b.Fatal(err)
	}
	i := 0
	for b.Loop() {
		b.StopTimer()
		if i++; i%2 == 0 {
			srv.SetHooks(setA...)
		} else {
			srv.SetHooks(setB...)
		}
		b.StartTimer()
		if res, err := c.Sync(context.Background(), teamsync.AcceptAll); err != nil || !res.Changed {
			b.Fatalf("%+v %v", res, err)
		}
	}
}
