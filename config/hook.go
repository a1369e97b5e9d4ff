package config

import (
	"encoding/json"
	"strconv"
	"time"

	"github.com/agenthooks/agenthooks/event"
	"github.com/agenthooks/agenthooks/hookshape"
	"github.com/agenthooks/agenthooks/match"
)

// Hook types.
const (
	TypeCommand = "command"
	TypePrompt  = "prompt"
)

// DefaultLoopLimit is the number of stop/subagentStop follow-ups a Cursor
// hook may trigger in a row when its definition does not say.
const DefaultLoopLimit = 5

// LoopLimit caps the follow-ups one hook may trigger. Unlimited is what
// `"loop_limit": null` says.
type LoopLimit struct {
	N         int
	Unlimited bool
}

// Allows reports whether a follow-up is still allowed after loopCount
// follow-ups have already happened.
func (l LoopLimit) Allows(loopCount int) bool { return l.Unlimited || loopCount < l.N }

// Hook is one hook definition, resolved: where it came from, where it
// runs, and its matcher checked. The matcher is compiled the first time
// it is used (match.Prepare), so hooks of steps that never run cost no
// compilation; one that cannot be compiled then answers MatchValue with
// an error, which the engine counts as a failed hook.
type Hook struct {
	Step       event.Step
	Type       string // TypeCommand or TypePrompt
	Command    string
	Prompt     string
	Model      string
	Timeout    time.Duration // zero: the engine's default for the type
	LoopLimit  LoopLimit
	FailClosed bool
	Matcher    string         // as written; "" or "*" matches everything
	Match      *match.Matcher // nil matches everything; shared by hooks with the same pattern

	Source Source
	File   string // the hooks file it was defined in
	Index  int    // position inside the step's array in that file
	Dir    string // working directory the hook runs from
	// Root is the workspace root the hook belongs to (project-level
	// sources), or the first workspace root; it becomes CURSOR_PROJECT_DIR.
	Root string

	// Shape marks a hook from another agent's settings file (Groups): it
	// is matched by that agent's rule against that agent's names, reads
	// the payload that agent would send and answers as to that agent. nil
	// for a Cursor hook.
	Shape hookshape.Shape

	// Extra keeps per-hook keys this version does not know, untouched.
	Extra map[string]json.RawMessage

	// Env is the env block of the hook's settings file (another agent's,
	// such as Claude Code's "env"): set for its hooks, screened as a
	// sessionStart env of the same source is. Nil for a Cursor hook.
	Env map[string]string
	// Vars are NAME=value pairs the loader sets for the hook whatever its
	// file says (a plugin's root, CLAUDE_PLUGIN_ROOT): not screened, as
	// they come from where the hook was found.
	Vars []string

	// rootVars are the variables that hold Root for the hook
	// (Sources.ProjectDirVars, set by Sources.Parse); nil is Cursor's
	// alone. Pinning expands them as the engine sets them.
	rootVars []string
}

// Matches reports whether the hook applies to the step's match value.
func (h *Hook) Matches(value string) bool {
	return h.Match == nil || h.Match.MatchString(value)
}

// MatchValue is Matches with the matcher's undecided case: an error when
// the matcher ran out of time on value.
func (h *Hook) MatchValue(value string) (bool, error) {
	if h.Match == nil {
		return true, nil
	}
	return h.Match.Match(value)
}

// ID is a stable, human-readable name for the hook: file, step and index.
func (h *Hook) ID() string {
	return h.File + "#" + string(h.Step) + "[" + strconv.Itoa(h.Index) + "]"
}

// ProjectDirVars are the variables that hold the hook's Root: those its
// Sources set (Sources.ProjectDirVars), else Cursor's alone.
func (h *Hook) ProjectDirVars() []string {
	if h.rootVars == nil {
		return []string{cursorProjectDirVar}
	}
	return h.rootVars
}
