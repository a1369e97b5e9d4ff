package teamsync_test

import (
	"context"
	"net/http"
	"path/filepath"
	"testing"
	"time"

	"github.com/agenthooks/agenthooks/team/teamsync"
)

func TestNextDelayStaysWithinTheJitter(t *testing.T) {
	for _, u := range []float64{0, 0.25, 0.5, 0.999999} {
		d := teamsync.NextDelay(30*time.Minute, u)
		if d < 27*time.Minute || d > 33*time.Minute {
			t.Fatalf("u=%v: %s is outside 30m ±10%%", u, d)
		}
	}
	if lo, hi := teamsync.NextDelay(time.Minute, 0), teamsync.NextDelay(time.Minute, 0.999); hi-lo < 11*time.Second {
		t.Fatalf("no jitter: %s..%s", lo, hi)
	}
}

// TestWatchSyncsOnASchedule: rounds follow the interval; a changed set
// is installed, an unchanged one reported, a failing server keeps the
// set and the next round recovers; cancelling ends the watch.
func TestWatchSyncsOnASchedule(t *testing.T) {
	srv := newSwitchServer(t)
	dir := t.TempDir()
	home := filepath.Join(dir, "home")
	c := newClient(t, srv.URL, home)
	rounds := make(chan teamsync.Round, 100)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- c.Watch(ctx, 30*time.Millisecond, teamsync.AcceptAll, func(r teamsync.Round) { rounds <- r })
	}()
	next := func() teamsync.Round {
		t.Helper()
		select {
		case r := <-rounds:
			return r
		case <-time.After(10 * time.Second):
			t.Fatal("no round within 10s")
		}
		return teamsync.Round{}
	}

	if r := next(); r.Err != nil || !r.Result.Changed {
		t.Fatalf("first round: %+v", r)
	}
	if r := next(); r.Err != nil || r.Result.Changed {
		t.Fatalf("second round: %+v", r)
	}
	before := snapshot(t, hooksDir(home))
	fake := srv.h.Load()
	srv.use(raw(http.StatusInternalServerError, "text/plain", []byte("down")))
	for r := next(); r.Err == nil; r = next() {
		// a round that began before the switch
	}
	sameSnapshot(t, "the hooks folder during an outage", before, snapshot(t, hooksDir(home)))
	set := goodSet()
	set[0].ScriptContent = script("deny", "guard v2")
	srv.Fake.SetHooks(set...)
	srv.use(*fake)
	for r := next(); ; r = next() {
		if r.Err == nil && r.Result.Changed {
			break
		}
	}
	if got := readDir(t, hooksDir(home)); got["guard.sh"] != set[0].ScriptContent {
		t.Fatalf("not updated: %v", got)
	}
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Watch did not end with its context")
	}
}
