package teamsync_test

import (
	"context"
	"errors"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/agenthooks/agenthooks/config"
	"github.com/agenthooks/agenthooks/team/teamsync"
	"github.com/agenthooks/agenthooks/team/teamsync/faketeam"
	"github.com/agenthooks/agenthooks/team/teamv1"
)

// TestReaderNeverSeesHalfASet: while two clients sync a team whose set
// flips between A and B, a reader loading the configuration always sees
// all of A or all of B: never a mix, never a parse error, never (where
// the swap is atomic) nothing.
func TestReaderNeverSeesHalfASet(t *testing.T) {
	srv := newServer(t)
	setA := goodSet()
	b1 := faketeam.Hook(1, "beforeShellExecution", "guard.sh", script("deny", "guard B"))
	b2 := faketeam.Hook(3, "beforeReadFile", "secrets.sh", "#!/bin/sh\necho B\n")
	b3 := faketeam.Hook(4, "stop", "stop.sh", "#!/bin/sh\necho B\n")
	setB := []*teamv1.TeamHook{b1, b2, b3}
	srv.SetHooks(setA...)
	dir := t.TempDir()
	home := filepath.Join(dir, "home")
	clients := []*teamsync.Client{newClient(t, srv.URL, home), newClient(t, srv.URL, home)}
	mustSync(t, clients[0])

	// What a reader may see: each set's commands, in load order, and
	// its files.
	wantA, wantB := commands(setA), commands(setB)
	filesA, filesB := files(setA), files(setB)
	loc := config.Locations{EnterpriseFile: filepath.Join(dir, "none.json"), Home: home}
	atomicSwap := runtime.GOOS == "linux" || runtime.GOOS == "darwin"

	ctx, stop := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	var seenA, seenB, loads atomic.Int64
	failures := make(chan string, 16)
	fail := func(msg string) {
		select {
		case failures <- msg:
		default:
		}
	}
	wg.Add(1)
	go func() { // the reader
		defer wg.Done()
		for ctx.Err() == nil {
			loads.Add(1)
			set := config.Load(loc, nil)
			if len(set.Problems) > 0 {
				fail("load problems: " + set.Problems[0].Error())
				return
			}
			var got []string
			for _, h := range set.Hooks {
				got = append(got, string(h.Step)+" "+h.Command)
			}
			switch {
			case slices.Equal(got, wantA):
				seenA.Add(1)
			case slices.Equal(got, wantB):
				seenB.Add(1)
			case len(got) == 0 && !atomicSwap:
			case len(got) == 0:
				fail("no team hooks at all: the hooks folder was missing")
				return
			default:
				fail("a mixed set: " + strings.Join(got, ", "))
				return
			}
			// Through one handle on the folder, the files belong to
			// one set too (a replaced folder may be emptied meanwhile).
			if msg := readThroughHandle(hooksDir(home), filesA, filesB); msg != "" {
				fail(msg)
				return
			}
		}
	}()
	var syncs atomic.Int64
	for _, c := range clients { // two writers at once
		wg.Add(1)
		go func() {
			defer wg.Done()
			for ctx.Err() == nil {
				if _, err := c.Sync(ctx, teamsync.AcceptAll); err != nil && ctx.Err() == nil {
					fail("sync: " + err.Error())
					return
				}
				syncs.Add(1)
			}
		}()
	}
	for i := 0; i < 40 && len(failures) == 0; i++ {
		if i%2 == 0 {
			srv.SetHooks(setB...)
		} else {
			srv.SetHooks(setA...)
		}
		// Let both writers sync this revision before the next flip.
		for n := syncs.Load(); syncs.Load() < n+2 && len(failures) == 0; {
			time.Sleep(time.Millisecond)
		}
	}
	stop()
	wg.Wait()
	close(failures)
	for msg := range failures {
		t.Fatal(msg)
	}
	if seenA.Load() == 0 || seenB.Load() == 0 {
		t.Fatalf("the reader saw A %d times and B %d times in %d loads; it should have seen both", seenA.Load(), seenB.Load(), loads.Load())
	}
	t.Logf("%d loads (A %d, B %d), %d syncs", loads.Load(), seenA.Load(), seenB.Load(), syncs.Load())

	// At rest, the folder is the server's set, without leftovers.
	mustSync(t, clients[0])
	entries, _ := os.ReadDir(filepath.Dir(hooksDir(home)))
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if strings.Join(names, " ") != "hooks sync.json sync.lock" {
		t.Fatalf("team folder holds %v", names)
	}
	if got := readDir(t, hooksDir(home)); len(got) != len(filesA)+1 && len(got) != len(filesB)+1 {
		t.Fatalf("hooks folder %v", got)
	}
}

// commands are what a reader of a set loads: step and command, in the
// loader's order (steps as the manifest sorts them, then server order).
func commands(set []*teamv1.TeamHook) []string {
	var out []string
	steps := map[string]bool{}
	for _, h := range set {
		steps[h.HookStep] = true
	}
	var sorted []string
	for s := range steps {
		sorted = append(sorted, s)
	}
	slices.Sort(sorted)
	for _, s := range sorted {
		for _, h := range set {
			if h.HookStep == s {
				out = append(out, s+" ./"+h.ScriptName)
			}
		}
	}
	return out
}

func files(set []*teamv1.TeamHook) map[string]string {
	m := map[string]string{}
	for _, h := range set {
		m[h.ScriptName] = h.ScriptContent
	}
	return m
}

// readThroughHandle opens the hooks folder once and reads its scripts
// through that handle: whatever it reads must be one set's.
func readThroughHandle(dir string, sets ...map[string]string) string {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return "" // between the renames of a non-atomic swap, or already replaced
	}
	defer root.Close()
	got := map[string]string{}
	entries, err := fs.ReadDir(root.FS(), ".")
	if err != nil {
		return ""
	}
	for _, e := range entries {
		if e.Name() == "hooks.json" {
			continue
		}
		data, err := root.ReadFile(e.Name())
		if errors.Is(err, fs.ErrNotExist) {
			return "" // the replaced folder is being removed
		}
		if err != nil {
			return "read " + e.Name() + ": " + err.Error()
		}
		got[e.Name()] = string(data)
	}
	if len(got) == 0 {
		return ""
	}
	for _, want := range sets {
		match := true
		for name, content := range got {
			if want[name] != content {
				match = false
			}
		}
		if match {
			return ""
		}
	}
	return "files of no single set: " + strings.Join(slices.Sorted(maps.Keys(got)), ", ")
}
