package claude

import (
	"github.com/agenthooks/agenthooks/agent"
)

// Dialect is Claude Code's: `agenthooks run --from claude` as a
// command hook in ~/.claude/settings.json (or a project's
// .claude/settings.json) for the events below.
//
// In: the payload of Claude Code's hooks reference (session_id,
// transcript_path, cwd, hook_event_name and the event's fields;
// docs/dialects.md).
//
//	PreToolUse         preToolUse, + beforeShellExecution (Bash),
//	                   beforeReadFile (Read), beforeMCPExecution
//	                   (mcp__server__tool), subagentStart (Task/Agent)
//	PostToolUse        postToolUse, + afterShellExecution (Bash),
//	                   afterFileEdit (Write/Edit/MultiEdit/NotebookEdit),
//	                   afterMCPExecution
//	PostToolUseFailure postToolUseFailure
//	UserPromptSubmit   beforeSubmitPrompt
//	Stop, SubagentStop stop, subagentStop
//	SessionStart, SessionEnd, PreCompact  sessionStart, sessionEnd, preCompact
//	anything else      no hooks (no Cursor counterpart)
//
// Out: JSON on stdout and exit 0, Claude's preferred form:
// hookSpecificOutput.permissionDecision deny (permissionDecisionReason
// reaches the model) or ask (Claude has ask); allow only with
// --allow-means=approve; updatedInput for a rewrite; decision "block" with
// a reason for a blocked prompt or a follow-up at Stop/SubagentStop;
// additionalContext at SessionStart and PostToolUse; the sessionStart env
// appended to $CLAUDE_ENV_FILE. A payload agenthooks cannot read exits 1
// with the error on stderr: Claude treats that as a non-blocking error,
// its convention for every failing hook (fail-open), gating events
// included.
var Dialect = &agent.Dialect{
	Name:           "claude",
	GateEvents:     eventsOfKind(agent.Tool),
	PromptEvents:   eventsOfKind(agent.Prompt),
	Title:          "Claude Code",
	EnvFileVars:    []string{"CLAUDE_ENV_FILE"},
	ProjectDirVars: []string{"CLAUDE_PROJECT_DIR"},
	// Claude Code runs its own settings files' hooks.
	RunsItself: []string{"claude"},
	ParseFn:    claudeShaped.Parse,
	AnswerFn:   answerClaude,
}

// claudeTools and claudeEvents are the tables (tables.go) as the dialect
// reads them.
var (
	claudeTools  = tools.Specs()
	claudeEvents = eventKinds()
)

var claudeShaped = &agent.PayloadShape{Agent: "Claude Code", Generation: "prompt_id", Model: true, Events: claudeEvents,
	Tool: func(c agent.Common, f *agent.Fields, r *agent.Request) {
		agent.ToolEvent(c, f, r, agent.ToolOf(c, f, claudeTools))
	}}

func answerClaude(r *agent.Request, v *agent.Verdict, o agent.Options) agent.Answer {
	return agent.AnswerShaped(r, v, func(hso map[string]any) {
		agent.Decide(hso, "permissionDecision", "permissionDecisionReason", v, o)
		// Without a decision an updatedInput is still applied, and
		// Claude's own permission rules judge the rewritten input.
		if in := r.Rewrite(v); in != nil {
			hso["updatedInput"] = in
		}
	})
}
