package store

import (
	"errors"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/agenthooks/agenthooks/event"
	"github.com/agenthooks/agenthooks/match"
	"github.com/agenthooks/agenthooks/team"
)

// DefaultMaxScriptBytes is the largest script a hook may carry unless
// Options say otherwise: hook scripts are small programs, and every
// member machine downloads every script at each change.
const DefaultMaxScriptBytes = 1 << 20

// MaxNameBytes bounds team and token names, and ScriptNameMax script
// names (the common file-name limit of Linux, macOS and Windows).
const (
	MaxNameBytes  = 200
	ScriptNameMax = 255
)

// OperatingSystems are those a hook may target: the names Cursor's API uses.
var OperatingSystems = []string{team.Windows, team.Macintosh, team.Linux}

// ValidateHook checks a hook as the server receives it: a known step, a
// script name that is a plain file name on every system it targets,
// known operating systems, a script within maxScriptBytes, a matcher
// that compiles, a timeout the loader takes. The last rules are the
// members' own (package team): a hook the server accepts and its members
// refuse would hold every member on its last good set until an
// administrator removed it.
func ValidateHook(h Hook, maxScriptBytes int) error {
	if !event.Step(h.Step).Known() {
		return &ValidationError{Field: "hook_step", Problem: fmt.Sprintf("%q is not a hook step", h.Step), Fix: "use one of " + stepList()}
	}
	if err := validateOperatingSystems(h.OperatingSystems); err != nil {
		return err
	}
	if err := validateScriptName(h.ScriptName, h.OperatingSystems); err != nil {
		return err
	}
	if n := len(h.ScriptContent); n > maxScriptBytes {
		return &ValidationError{Field: "script_content", Problem: fmt.Sprintf("%d bytes, over the server's limit of %d", n, maxScriptBytes), Fix: "make the script smaller, or start the server with a larger --max-script-bytes"}
	}
	if !utf8.ValidString(h.ScriptContent) {
		return &ValidationError{Field: "script_content", Problem: "not valid UTF-8", Fix: "send the script as UTF-8 text"}
	}
	if strings.IndexByte(h.ScriptContent, 0) >= 0 {
		return &ValidationError{Field: "script_content", Problem: "contains a NUL byte", Fix: "send a text script; a binary can be fetched by a small script instead"}
	}
	if _, err := match.Compile(h.Matcher); err != nil {
		return &ValidationError{Field: "matcher", Problem: err.Error(), Fix: `write a JavaScript regular expression, e.g. "^git push", or leave it empty to match everything`}
	}
	const timeoutFix = "use 0 for the engine's default, or a number of seconds such as 30"
	if err := team.CheckTimeout(h.TimeoutSeconds); err != nil {
		return &ValidationError{Field: "timeout_seconds", Problem: err.Error(), Fix: timeoutFix}
	}
	if err := team.CheckEntry(event.Step(h.Step), h.ScriptName, h.Matcher, h.TimeoutSeconds, h.FailClosed, h.OperatingSystems); err != nil {
		ve := &ValidationError{Field: "hook", Problem: err.Error()}
		var ee *team.EntryError
		if errors.As(err, &ee) {
			ve.Field, ve.Problem, ve.Fix = apiField(ee.Key), ee.Message, ee.Fix
		}
		return ve
	}
	return nil
}

// apiField names, in the API's words, the field behind a manifest key.
func apiField(key string) string {
	switch key {
	case "timeout":
		return "timeout_seconds"
	case "failClosed":
		return "fail_closed"
	case "command":
		return "script_name"
	case "matcher":
		return "matcher"
	}
	return "hook"
}

// validateScriptName applies the members' own name rules (package team)
// for the systems the hook targets, and two more whatever the systems:
// nothing Windows cannot hold but its device names, and no ".." anywhere,
// so that a name stays valid when the hook is later aimed at every system.
func validateScriptName(name string, systems []string) error {
	bad := func(problem string) error {
		return &ValidationError{Field: "script_name", Problem: problem,
			Fix: `use a plain file name such as "block-push.sh"`}
	}
	forWindows := team.MayReachWindows(systems)
	if err := team.CheckScriptName(name, forWindows); err != nil {
		if forWindows && team.CheckScriptName(name, false) == nil {
			// A name only Windows refuses (a device name such as CON).
			return &ValidationError{Field: "script_name", Problem: err.Error(),
				Fix: `use a plain file name such as "block-push.sh", or give operating_systems without "windows" if the hook never runs there`}
		}
		return bad(err.Error())
	}
	switch {
	case strings.Contains(name, ".."):
		return bad(fmt.Sprintf(`the script name %q contains ".."`, name))
	case strings.ContainsAny(name, `<>:"|?*`):
		return bad(fmt.Sprintf(`the script name %q contains one of <>:"|?*, which Windows does not allow in file names`, name))
	case strings.HasSuffix(name, " ") || strings.HasSuffix(name, "."):
		return bad(fmt.Sprintf("the script name %q ends with a space or a dot, which Windows drops", name))
	}
	return nil
}

func validateOperatingSystems(systems []string) error {
	seen := map[string]bool{}
	for _, s := range systems {
		known := false
		for _, k := range OperatingSystems {
			known = known || s == k
		}
		if !known {
			return &ValidationError{Field: "operating_systems", Problem: fmt.Sprintf("%q is not an operating system", s), Fix: `use "Windows", "Macintosh" and "Linux" (spelt so), or none for every system`}
		}
		if seen[s] {
			return &ValidationError{Field: "operating_systems", Problem: fmt.Sprintf("%q is listed twice", s), Fix: "list each system once"}
		}
		seen[s] = true
	}
	return nil
}

// validateName checks a team or token name: what an administrator types
// and reads back in lists and in the history.
func validateName(field, name string) error {
	bad := func(problem string) error {
		return &ValidationError{Field: field, Problem: problem, Fix: fmt.Sprintf("use a short printable name (1 to %d bytes), e.g. \"platform\"", MaxNameBytes)}
	}
	switch {
	case strings.TrimSpace(name) == "":
		return bad("is empty")
	case strings.TrimSpace(name) != name:
		return bad(fmt.Sprintf("%q starts or ends with spaces", name))
	case len(name) > MaxNameBytes:
		return bad(fmt.Sprintf("is %d bytes long", len(name)))
	case !utf8.ValidString(name):
		return bad("is not valid UTF-8")
	}
	for _, r := range name {
		if unicode.IsControl(r) {
			return bad(fmt.Sprintf("%q contains a control character", name))
		}
	}
	return nil
}

func stepList() string {
	names := make([]string, len(event.Steps))
	for i, s := range event.Steps {
		names[i] = string(s)
	}
	return strings.Join(names, ", ")
}
