package config

import (
	"bytes"
	"strconv"
	"strings"

	"github.com/agenthooks/agenthooks/event"
	"github.com/agenthooks/agenthooks/internal/jsonscan"
)

// TypeUnloaded marks a stand-in for hooks a file may define but that could
// not be loaded. It never runs: the engine answers it as a hook that
// failed, so a fail-closed hook in a broken file still blocks.
const TypeUnloaded = "unloaded"

// unloaded returns the stand-ins for a file whose hooks could not all be
// loaded: a file that cannot be read may hold a fail-closed hook for any
// gating step; a file that can be read stands in only for the gating
// steps whose broken part says failClosed. A file with no fail-closed
// hook in its broken part gets none: its broken hooks fail open, as any
// failed hook does.
func unloaded(f *File, data []byte, readErr bool) []*Hook {
	if !f.Trusted && f.Source.ProjectLevel() {
		return nil // an untrusted file's hooks do not run at all
	}
	var steps []event.Step
	reason := ""
	for _, p := range f.Problems {
		if p.Severity != Error {
			continue
		}
		if reason == "" {
			reason = p.Error()
		}
		for _, s := range event.Steps {
			if !s.Gating() && s != event.BeforeSubmitPrompt {
				continue
			}
			if readErr || brokenFailClosed(data, p.Pointer, s) {
				steps = appendStep(steps, s)
			}
		}
	}
	out := make([]*Hook, 0, len(steps))
	for _, s := range steps {
		out = append(out, &Hook{Step: s, Type: TypeUnloaded, FailClosed: true, Source: f.Source,
			File: f.Path, Index: -1, Dir: f.Dir, Root: f.Root, Command: reason})
	}
	return out
}

// brokenFailClosed reports whether the broken part of a file (the value at
// pointer; the whole file for "") is about step and says failClosed. The
// text is searched rather than parsed: the part is broken, so it may not
// parse.
func brokenFailClosed(data []byte, pointer string, s event.Step) bool {
	prefix := "/hooks/" + string(s)
	if pointer != "" && pointer != "/hooks" && pointer != prefix && !strings.HasPrefix(pointer, prefix+"/") {
		return false
	}
	// One broken entry of a file that is JSON: that entry's own failClosed.
	if rest, ok := strings.CutPrefix(pointer, prefix+"/"); ok {
		i, _, _ := strings.Cut(rest, "/")
		if fc, ok := entryFailClosed(data, s, i); ok {
			return fc
		}
	}
	return bytes.Contains(data, []byte(`"`+string(s)+`"`)) && bytes.Contains(data, []byte("failClosed"))
}

// entryFailClosed reads hooks.<step>[index].failClosed of a file that is
// JSON; ok is false when the file or the entry cannot be read that way.
func entryFailClosed(data []byte, s event.Step, index string) (failClosed, ok bool) {
	n, err := strconv.Atoi(index)
	if err != nil || n < 0 {
		return false, false
	}
	top, err := jsonscan.Object(data)
	if err != nil {
		return false, false
	}
	hooks, err := jsonscan.Object(top["hooks"])
	if err != nil {
		return false, false
	}
	entries, err := jsonscan.Array(hooks[string(s)])
	if err != nil || n >= len(entries) {
		return false, false
	}
	entry, err := jsonscan.Object(entries[n])
	if err != nil {
		return false, false
	}
	return string(bytes.TrimSpace(entry["failClosed"])) == "true", true
}

func appendStep(steps []event.Step, s event.Step) []event.Step {
	for _, x := range steps {
		if x == s {
			return steps
		}
	}
	return append(steps, s)
}
