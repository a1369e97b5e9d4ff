package config

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/agenthooks/agenthooks/event"
	"github.com/agenthooks/agenthooks/internal/suggest"
)

// The limits past which a mistake is taken to disarm a guard
// (Problem.Disarms) rather than to be a choice.
const (
	// nearEdits is how far a step name or a key may be from a known one
	// and still be a typo of it: one or two edits, or a case away.
	nearEdits = 2
	// maxSensibleTimeout is the longest timeout taken at its word: more
	// than an hour is seconds written as milliseconds ("timeout": 5000).
	maxSensibleTimeout = 3600
	// minSensibleTimeout is the shortest timeout a hook can keep: under a
	// tenth of a second no process starts and answers in time, so the
	// hook is killed at every run.
	minSensibleTimeout = 0.1
)

// Disarming returns the problems that disarm a guard (Problem.Disarms):
// what validate, trust, list and the team server refuse.
func Disarming(problems []Problem) []Problem {
	var out []Problem
	for _, p := range problems {
		if p.Disarms {
			out = append(out, p)
		}
	}
	return out
}

// nearName returns the known name word is a typo of (nearEdits), if any.
func nearName(word string, known []string) (string, bool) {
	return suggest.Near(word, known, nearEdits)
}

// followupSteps are the steps whose answers may send a follow-up, the only
// ones loop_limit counts.
var followupSteps = []event.Step{event.Stop, event.SubagentStop}

// checkLoopLimit reports a loop_limit on a step that sends no follow-ups:
// the author meant to bound a loop that cannot happen there.
func (p hookParse) checkLoopLimit() {
	for _, s := range followupSteps {
		if p.h.Step == s {
			return
		}
	}
	p.r.disarmAt(p.m.keyOff, p.ptr(), fmt.Sprintf("loop_limit has no effect on %s: only stop and subagentStop send follow-ups", p.h.Step),
		"remove it, or move the hook to stop or subagentStop")
}

// checkTimeout reports a timeout that disarms the hook (timeoutMistake).
func (p hookParse) checkTimeout(secs float64) {
	if msg, fix, bad := timeoutMistake(secs); bad {
		p.r.disarmAt(p.m.value.off, p.ptr(), msg, fix)
	}
}

// timeoutMistake reports a timeout of secs that disarms its hook: over an
// hour is milliseconds written for seconds (the hook would hold its step
// that long), under minSensibleTimeout kills the hook at every run.
func timeoutMistake(secs float64) (msg, fix string, bad bool) {
	n := func() string { return strconv.FormatFloat(secs, 'f', -1, 64) }
	switch {
	case secs > maxSensibleTimeout:
		return fmt.Sprintf("is %s seconds, over an hour: timeout is in seconds, not milliseconds", n()),
			fmt.Sprintf(`write seconds, e.g. "timeout": %s`, strconv.FormatFloat(secs/1000, 'f', -1, 64)), true
	case secs < minSensibleTimeout:
		return fmt.Sprintf("is %s seconds: no hook starts and answers that fast, so it is killed at every run, which lets the step through", n()),
			`write seconds, e.g. "timeout": 5`, true
	}
	return "", "", false
}

// checkMatcherReach reports a matcher that cannot match the one value its
// step is tested against (event.FixedTarget): beforeReadFile's matcher
// is tested against "Read", not the file's path, so "\.env$" never fires.
func (p hookParse) checkMatcherReach(pattern string) {
	target, ok := event.FixedTarget(p.h.Step)
	// A pattern that names the value as one of its alternatives
	// (Read|TabRead, ^Read$) matches it without being compiled here:
	// matchers compile on first use, and loading must not pay for each.
	if !ok || p.h.Match == nil || namesAlternative(pattern, target) || p.h.Match.MatchString(target) {
		return
	}
	p.r.disarmAt(p.m.value.off, p.ptr(), fmt.Sprintf("%s never matches: %s's matcher is tested against %q alone, so the hook never runs", pattern, p.h.Step, target),
		fmt.Sprintf(`remove the matcher and check the payload in the hook, or match %q`, target))
}

// Concerns reports whether problem p is about hook h: at h's entry in its
// file (the entry or one of its keys), or naming it as MissingPrograms
// does ("beforeShellExecution[0]: …").
func (p Problem) Concerns(h *Hook) bool {
	if p.File != h.File {
		return false
	}
	entry := pointerIndex(pointerJoin("/hooks", string(h.Step)), h.Index)
	return p.Pointer == entry || strings.HasPrefix(p.Pointer, entry+"/") ||
		(p.Pointer == "" && strings.HasPrefix(p.Message, string(h.Step)+"["+strconv.Itoa(h.Index)+"]: "))
}

// FileHooks are the hooks of every file of the set, whether they run or
// not (an untrusted project file's too): what validate and list check.
func (s *Set) FileHooks() []*Hook {
	var out []*Hook
	for _, f := range s.Files {
		out = append(out, f.Hooks...)
	}
	return out
}

// namesAlternative reports whether one of pattern's |-separated
// alternatives is value itself, anchored or not.
func namesAlternative(pattern, value string) bool {
	for rest := pattern; ; {
		alt, more, found := strings.Cut(rest, "|")
		if strings.TrimSuffix(strings.TrimPrefix(alt, "^"), "$") == value {
			return true
		}
		if !found {
			return false
		}
		rest = more
	}
}
