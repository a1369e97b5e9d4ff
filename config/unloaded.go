package config

import (
	"bytes"
	"strings"

	"github.com/agenthooks/agenthooks/event"
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
	if pointer != "" && pointer != "/hooks" && !strings.HasPrefix(pointer, "/hooks/"+string(s)) {
		return false
	}
	return bytes.Contains(data, []byte(`"`+string(s)+`"`)) && bytes.Contains(data, []byte("failClosed"))
}

func appendStep(steps []event.Step, s event.Step) []event.Step {
	for _, x := range steps {
		if x == s {
			return steps
		}
	}
	return append(steps, s)
}
