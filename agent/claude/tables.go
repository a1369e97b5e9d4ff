package claude

import (
	"github.com/agenthooks/agenthooks/agent"
	"github.com/agenthooks/agenthooks/event"
)

// Claude Code's events and tools, written once: the dialect (`run --from
// claude`), the hooks of its own settings files (Settings, Shape) and
// their messages all read these tables (Claude Code's hooks reference;
// Cursor's page on its third-party hooks; docs/dialects.md).

// eventRow is one Claude Code event with a Cursor counterpart.
type eventRow struct {
	// Name is Claude Code's event; Step the Cursor step its settings
	// hooks run as; Kind what the dialect answers to it.
	Name string
	Step event.Step
	Kind agent.Kind
	// Prompt: Claude Code runs prompt hooks at the event.
	Prompt bool
}

// Events are the Claude Code events with a Cursor counterpart, in the
// order of a session. PostToolUseFailure is not in Cursor's own table
// but has an exact counterpart, so it is mapped too.
var events = []eventRow{
	{"SessionStart", event.SessionStart, agent.SessionStart, false},
	{"UserPromptSubmit", event.BeforeSubmitPrompt, agent.Prompt, true},
	{"PreToolUse", event.PreToolUse, agent.Tool, true},
	{"PostToolUse", event.PostToolUse, agent.PostTool, true},
	{"PostToolUseFailure", event.PostToolUseFailure, agent.ToolFailure, true},
	{"Stop", event.Stop, agent.Stop, true},
	{"SubagentStop", event.SubagentStop, agent.SubagentStop, true},
	{"PreCompact", event.PreCompact, agent.Compact, false},
	{"SessionEnd", event.SessionEnd, agent.SessionEnd, false},
}

// eventsOfKind lists the events the dialect answers as kind k.
func eventsOfKind(k agent.Kind) []string {
	var out []string
	for _, e := range events {
		if e.Kind == k {
			out = append(out, e.Name)
		}
	}
	return out
}

// promptEvents are the events where Claude Code runs prompt hooks.
func promptEvents() []string {
	var out []string
	for _, e := range events {
		if e.Prompt {
			out = append(out, e.Name)
		}
	}
	return out
}

// KnownEvents lists Claude Code events that exist but have no Cursor
// step, so their hooks never run here; validate names them.
var KnownEvents = []string{
	"Notification", "PermissionRequest", "PermissionDenied", "Setup",
	"UserPromptExpansion", "PostToolBatch", "SubagentStart", "TaskCreated",
	"TaskCompleted", "TeammateIdle", "ConfigChange", "InstructionsLoaded",
	"MessageDisplay", "StopFailure", "CwdChanged", "DirectoryAdded",
	"FileChanged", "PostCompact", "WorktreeCreate", "WorktreeRemove",
	"Elicitation", "ElicitationResult",
}

// tools are Claude Code's tools with a Cursor counterpart (Bash→Shell,
// Edit→Write, …); for one Cursor tool, the first is the one Claude Code
// names it by. Tools not listed keep their name both ways.
var tools = agent.ToolTable{
	{Name: "Bash", Cursor: agent.ToolShell, Role: agent.RoleShell},
	{Name: "Read", Cursor: agent.ToolRead, Role: agent.RoleRead},
	{Name: "Write", Cursor: agent.ToolWrite, Role: agent.RoleWrite},
	{Name: "Edit", Cursor: agent.ToolWrite, Role: agent.RoleEdit},
	{Name: "MultiEdit", Cursor: agent.ToolWrite, Role: agent.RoleEdit},
	{Name: "NotebookEdit", Cursor: agent.ToolWrite, Role: agent.RoleEdit},
	{Name: "Grep", Cursor: agent.ToolGrep, Role: agent.RoleOther},
	{Name: "Glob", Cursor: agent.ToolGlob, Role: agent.RoleOther},
	{Name: "Task", Cursor: agent.ToolTask, Role: agent.RoleTask},
	{Name: "Agent", Cursor: agent.ToolTask, Role: agent.RoleTask},
	{Name: "WebFetch", Cursor: "WebFetch", Role: agent.RoleOther},
	{Name: "WebSearch", Cursor: "WebSearch", Role: agent.RoleOther},
	{Name: "LS", Cursor: "LS", Role: agent.RoleOther},
}

// otherTools are Claude Code's tools with no Cursor counterpart: a
// matcher that names one keeps it as written.
var otherTools = []string{"TodoWrite", "BashOutput", "KillShell", "ExitPlanMode", "SlashCommand", "Skill"}

// eventKinds is events as the dialect reads them.
func eventKinds() map[string]agent.Kind {
	m := make(map[string]agent.Kind, len(events))
	for _, e := range events {
		m[e.Name] = e.Kind
	}
	return m
}
