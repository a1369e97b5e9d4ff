package team

import (
	"fmt"
	"math"
	"path/filepath"
	"strings"

	"github.com/agenthooks/agenthooks/config"
	"github.com/agenthooks/agenthooks/event"
	"github.com/agenthooks/agenthooks/sandbox"
)

// MaxSandboxBytes bounds a team's sandbox.json.
const MaxSandboxBytes = 64 << 10

// CheckSandbox reports why data cannot be a team's sandbox.json, in the
// words of the sandbox's own parser (which every member's engine uses to
// load it), as an *EntryError whose Key is the JSON pointer.
func CheckSandbox(data []byte) error {
	if len(data) > MaxSandboxBytes {
		return &EntryError{Message: fmt.Sprintf("is %d bytes, over the limit of %d", len(data), MaxSandboxBytes), Fix: "keep the team's sandbox.json small: folders and hosts, not data"}
	}
	dir := filepath.Join(string(filepath.Separator)+"team", "hooks")
	f := sandbox.Parse(filepath.Join(dir, config.SandboxName), data, sandbox.Team, "")
	for _, p := range f.Problems {
		if p.Severity == config.Error {
			return &EntryError{Key: p.Pointer, Message: p.Message, Fix: p.Fix}
		}
	}
	return nil
}

// The rules below are what every member's sync (team/teamsync) applies
// to a hook the server sends. The server applies them too, when a hook is
// created or changed (team/store.ValidateHook), so that it never accepts
// a hook its members would refuse: a refused hook keeps every member on
// the last good set until an administrator removes it.

// CheckTimeout reports why seconds cannot be a team hook's
// timeout_seconds.
func CheckTimeout(seconds float64) error {
	if math.IsNaN(seconds) || seconds < 0 || seconds >= MaxTimeoutSeconds {
		return fmt.Errorf("must be 0 (the default) or a positive number of seconds below %d, got %v", MaxTimeoutSeconds, seconds)
	}
	return nil
}

// ScriptNameKey is what two script names must not share: case-insensitive
// file systems (macOS's and Windows' defaults) would merge their files.
func ScriptNameKey(name string) string { return strings.ToLower(name) }

// NameTaken says why a hook cannot have the script name of the hook
// other (a HookLabel) in any case.
func NameTaken(other string) string {
	return "script name already used by " + other + " (each hook needs its own file, and macOS and Windows do not tell names apart by case)"
}

// MayReachWindows reports whether a hook for these operating systems
// (none: every system) is installed on Windows machines.
func MayReachWindows(systems []string) bool {
	if len(systems) == 0 {
		return true
	}
	for _, s := range systems {
		if strings.EqualFold(s, Windows) {
			return true
		}
	}
	return false
}

// EntryError is a problem the engine's loader finds in a hook's manifest
// entry, in the loader's words.
type EntryError struct {
	// Key is the manifest key the problem is about ("timeout", "matcher",
	// …), empty when it is about the entry as a whole.
	Key     string
	Message string
	Fix     string
}

func (e *EntryError) Error() string {
	msg := e.Message
	if e.Key != "" {
		msg = e.Key + " " + msg
	}
	if e.Fix != "" {
		msg += " (fix: " + e.Fix + ")"
	}
	return msg
}

// CheckEntry renders the manifest entry of one hook as a member on each of
// the systems it targets would, and parses it with the engine's own
// loader, which is what a sync does with the whole set. It returns the
// loader's first error as an *EntryError.
func CheckEntry(step event.Step, scriptName, matcher string, timeout float64, failClosed bool, systems []string) error {
	if len(systems) == 0 {
		systems = []string{Linux, Macintosh, Windows}
	}
	dir := filepath.Join(string(filepath.Separator)+"team", "hooks")
	for _, osName := range systems {
		e := Entry{Step: step, Command: Command(scriptName, osName),
			Matcher: matcher, Timeout: timeout, FailClosed: failClosed}
		data, err := Manifest([]Entry{e})
		if err != nil {
			return &EntryError{Message: err.Error()}
		}
		parsed := config.ParseFile(filepath.Join(dir, ManifestName), data, config.Team, dir, "")
		for _, pr := range parsed.Problems {
			if pr.Severity == config.Error {
				return &EntryError{Key: keyOf(pr.Pointer), Message: pr.Message, Fix: pr.Fix}
			}
		}
	}
	return nil
}

// keyOf names the hook key a manifest problem is about, from its JSON
// pointer (/hooks/STEP/0/timeout).
func keyOf(pointer string) string {
	parts := strings.Split(pointer, "/")
	if len(parts) >= 5 {
		return parts[4]
	}
	return ""
}
