package config

import (
	"bytes"
	"regexp"
	"strconv"
	"strings"

	"github.com/agenthooks/agenthooks/event"
	"github.com/agenthooks/agenthooks/internal/jsonscan"
)

// TypeUnloaded marks a stand-in for hooks a file may define but that could
// not be loaded. It never runs: the engine answers it as a hook that
// failed, so a fail-closed hook in a broken file still blocks.
const TypeUnloaded = "unloaded"

// unloaded returns the stand-ins for hooks of a file that could not be
// loaded, or were stopped (a file they run changed since the workspace
// was trusted: stopped):
//
//   - a file that cannot be read may hold a fail-closed hook for any
//     gating step: one stand-in per gating step;
//   - a file whose JSON cannot be parsed stands in for each gating step
//     whose name its text holds together with "failClosed": true (the
//     part is broken, so only its text can be read);
//   - a file that parses stands in per entry: each entry that says
//     "failClosed": true and did not load (its own part is broken), or was
//     stopped, with the stopped hook's matcher. Its other entries, and a
//     problem elsewhere in the file, stand in for nothing, so one edit
//     stops one hook.
//
// A hook that is not fail-closed gets no stand-in: it fails open, as any
// failed hook does.
func unloaded(f *File, data []byte, readErr bool, stopped map[*Hook]bool) []*Hook {
	if !f.Trusted && f.Source.ProjectLevel() {
		return nil // an untrusted file's hooks do not run at all
	}
	if readErr {
		return standIns(f, gatingSteps(func(event.Step) bool { return true }), firstError(f))
	}
	var out []*Hook
	for _, h := range f.Hooks {
		if stopped[h] && h.FailClosed {
			out = append(out, &Hook{Step: h.Step, Type: TypeUnloaded, FailClosed: true, Source: h.Source,
				File: h.File, Index: h.Index, Dir: h.Dir, Root: h.Root, Matcher: h.Matcher, Match: h.Match,
				Command: stoppedReason(f, h)})
		}
	}
	reason := firstError(f)
	if reason == "" || f.Source.Settings() != nil {
		// Nothing failed to load; or another agent's file, whose hooks
		// have no failClosed.
		return out
	}
	top, err := jsonscan.Object(data)
	if err != nil {
		text := failClosedTrue.Match(data)
		return append(out, standIns(f, gatingSteps(func(s event.Step) bool {
			return text && bytes.Contains(data, []byte(`"`+string(s)+`"`))
		}), reason)...)
	}
	loaded := map[string]bool{}
	for _, h := range f.Hooks {
		loaded[string(h.Step)+"/"+strconv.Itoa(h.Index)] = true
	}
	hooks, _ := jsonscan.Object(top["hooks"])
	for _, s := range gatingSteps(func(event.Step) bool { return true }) {
		entries, err := jsonscan.Array(hooks[string(s)])
		if err != nil {
			if failClosedTrue.Match(hooks[string(s)]) {
				out = append(out, standIns(f, []event.Step{s}, reason)...)
			}
			continue
		}
		for i, e := range entries {
			entry, err := jsonscan.Object(e)
			if err != nil || loaded[string(s)+"/"+strconv.Itoa(i)] || string(bytes.TrimSpace(entry["failClosed"])) != "true" {
				continue
			}
			out = append(out, &Hook{Step: s, Type: TypeUnloaded, FailClosed: true, Source: f.Source,
				File: f.Path, Index: i, Dir: f.Dir, Root: f.Root, Command: entryReason(f, s, i, reason)})
		}
	}
	return out
}

// failClosedTrue finds "failClosed": true in text that may not parse,
// including a file cut short inside it ("failClosed": t at the end): what
// the author wrote there can only have been true or false, and the
// stricter reading keeps a half-written guard closed.
var failClosedTrue = regexp.MustCompile(`"failClosed"\s*:\s*(?:true|(?:t|tr|tru)?\s*\z)`)

// gatingSteps are the steps a stand-in may block, those keep says.
func gatingSteps(keep func(event.Step) bool) []event.Step {
	var out []event.Step
	for _, s := range event.Steps {
		if (s.Gating() || s == event.BeforeSubmitPrompt) && keep(s) {
			out = append(out, s)
		}
	}
	return out
}

// standIns are one stand-in, matching everything, per step.
func standIns(f *File, steps []event.Step, reason string) []*Hook {
	out := make([]*Hook, 0, len(steps))
	for _, s := range steps {
		out = append(out, &Hook{Step: s, Type: TypeUnloaded, FailClosed: true, Source: f.Source,
			File: f.Path, Index: -1, Dir: f.Dir, Root: f.Root, Command: reason})
	}
	return out
}

// firstError is the file's first error, in words; "" when it has none.
func firstError(f *File) string {
	for _, p := range f.Problems {
		if p.Severity == Error {
			return p.Error()
		}
	}
	return ""
}

// stoppedReason is the problem that names h among the hooks a changed
// file stopped.
func stoppedReason(f *File, h *Hook) string {
	id := string(h.Step) + "[" + strconv.Itoa(h.Index) + "]"
	for _, p := range f.Problems {
		if p.Severity == Error && strings.Contains(p.Message, id) {
			return p.Error()
		}
	}
	return firstError(f)
}

// entryReason is the error about hooks.<step>[i], else the file's first.
func entryReason(f *File, s event.Step, i int, first string) string {
	prefix := "/hooks/" + string(s) + "/" + strconv.Itoa(i)
	for _, p := range f.Problems {
		if p.Severity == Error && (p.Pointer == prefix || strings.HasPrefix(p.Pointer, prefix+"/")) {
			return p.Error()
		}
	}
	return first
}
