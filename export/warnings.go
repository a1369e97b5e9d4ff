package export

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/agenthooks/agenthooks/config"
	"github.com/agenthooks/agenthooks/event"
)

// warnings says what an exported hook loses or does differently in the
// target, beyond its matcher and timeout.
func (x *exporter) warnings(h *config.Hook, m stepMap) {
	t := x.t
	x.payload(h, m)
	if h.Type == config.TypePrompt && h.Model != "" && !claudeModel(h.Model) {
		x.warn(h, KindPrompt, fmt.Sprintf("model %s is passed on as written, and Claude Code knows only its own models", quote(h.Model)),
			"name a Claude model (such as haiku), or remove model to use Claude Code's default")
	}
	if h.FailClosed {
		x.warn(h, KindFailClosed, t.title+" has no failClosed: when the hook crashes, times out or answers nonsense, the action goes ahead",
			t.failClosedFix()+", or keep failClosed by running it through "+t.install())
	}
	if h.Step == event.Stop || h.Step == event.SubagentStop {
		x.loopLimit(h)
	}
	if h.Step == event.BeforeShellExecution || h.Step == event.BeforeMCPExecution {
		switch t.name {
		case "codex":
			x.warn(h, KindAsk, "Codex cannot ask the user: it rejects an ask answer as invalid and the action goes ahead",
				"answer deny, with a reason telling the model to get the user's confirmation")
		case "copilot":
			x.warn(h, KindAsk, "the Copilot cloud agent cannot ask the user and treats ask as deny (the CLI asks)",
				"answer deny or allow where the hook must work in the cloud agent")
		}
	}
	x.exitCodes(h, m)
	if h.Step == event.BeforeReadFile {
		x.warn(h, KindContent, t.title+" sends no file content: a script that reads content gets nothing",
			"read the file at the path the payload names")
	}
	x.eventWarnings(h, m)
}

// payload warns that the script gets the target's payload and must answer
// in the target's format: the one thing export cannot change.
func (x *exporter) payload(h *config.Hook, m stepMap) {
	t := x.t
	if h.Type == config.TypePrompt {
		x.warn(h, KindPayload, fmt.Sprintf("the model is shown %s's %s payload as $ARGUMENTS, not Cursor's", t.title, m.event),
			"check the prompt does not rely on Cursor's field names")
		return
	}
	in, out := t.shape(h.Step)
	msg := fmt.Sprintf("the script gets %s's %s payload, not Cursor's (%s)", t.title, m.event, in)
	if out != "" {
		msg += fmt.Sprintf(", and %s reads only its own answer (%s)", t.title, out)
	}
	x.warn(h, KindPayload, msg, "adapt the script to "+t.title+"'s format, or run it unchanged through "+t.install())
}

// loopLimit warns that the stop loop's limit changes.
func (x *exporter) loopLimit(h *config.Hook) {
	t := x.t
	limit := "no loop_limit"
	switch {
	case h.LoopLimit.Unlimited:
		limit = "loop_limit null (no limit)"
	case h.LoopLimit.N == config.DefaultLoopLimit:
		limit = "loop_limit " + strconv.Itoa(h.LoopLimit.N) + " (Cursor's default)"
	default:
		limit = "loop_limit " + strconv.Itoa(h.LoopLimit.N)
	}
	if t.name == "claude" {
		if !h.LoopLimit.Unlimited && h.LoopLimit.N == 8 {
			return
		}
		x.warn(h, KindLoopLimit, fmt.Sprintf("Claude Code has no per-hook loop limit: %s is lost, and Claude Code ends the loop after 8 follow-ups in a row", limit),
			"count follow-ups in the script if the limit matters; stop_hook_active says one is under way")
		return
	}
	fix := "make the script stop asking for follow-ups; stop_hook_active says one is under way"
	if t.name == "copilot" {
		fix = "count follow-ups in the script itself"
	}
	x.warn(h, KindLoopLimit, fmt.Sprintf("%s has no loop limit: %s is lost, and a hook that keeps asking for a follow-up keeps the agent going", t.title, limit), fix)
}

// exitCodes warns where the target reads exit codes otherwise than
// Cursor (0 uses the answer, 2 denies, others fail open).
func (x *exporter) exitCodes(h *config.Hook, m stepMap) {
	t := x.t
	switch {
	case t.name == "copilot" && m.event == "preToolUse":
		x.warn(h, KindExitCode, "GitHub Copilot takes exit code 2 as a warning, not a deny: a script that blocks with exit 2 no longer blocks",
			`print {"permissionDecision":"deny","permissionDecisionReason":"…"} and exit 0 instead`)
	case t.name == "codex" && m.event == "PreToolUse":
		x.warn(h, KindExitCode, "Codex blocks on exit code 2 only with a reason on stderr; with stderr empty the hook counts as failed and the action goes ahead",
			"write the reason to stderr before exiting 2")
	case t.name == "gemini" && (m.event == "BeforeTool" || m.event == "BeforeAgent" || m.event == "AfterAgent"):
		what := "a script that fails that way blocks"
		if m.event == "AfterAgent" {
			what = "a script that fails that way makes Gemini CLI go on with the error output as its next prompt"
		}
		x.warn(h, KindExitCode, "Gemini CLI takes any exit code but 0 and 1, without JSON on stdout, as a deny (Cursor denies only on 2): "+what,
			"exit 0 or 1 unless the hook means to block, or print JSON")
	case t.name == "claude" && m.event == "PreCompact":
		x.warn(h, KindExitCode, "Claude Code stops the compaction when the script exits 2 (Cursor's preCompact cannot block)",
			"exit 0 or 1 unless the hook means to stop compaction")
	}
}

// eventWarnings warns where the target's event does less or more than the step.
func (x *exporter) eventWarnings(h *config.Hook, m stepMap) {
	t := x.t
	switch {
	case t.name == "gemini" && h.Step == event.PostToolUseFailure:
		x.warn(h, KindEvent, "Gemini CLI has no event for failed tool calls: the hook now runs after every call of its tools, failed or not",
			"return at once unless tool_response.error is set")
	case t.name == "copilot" && h.Step == event.BeforeSubmitPrompt:
		x.warn(h, KindEvent, "GitHub Copilot does not read answers to userPromptSubmitted: the hook can no longer block a prompt",
			"keep prompt checks in Cursor, or gate the tools the prompt leads to in preToolUse")
	case h.Step == event.SessionStart && (t.name == "gemini" || t.name == "copilot"):
		lost := "Gemini CLI has no session environment for hooks: the env the hook returns is lost"
		if t.name == "copilot" {
			lost = "GitHub Copilot does not read answers to sessionStart: the env and additional_context the hook returns are lost"
		}
		x.warn(h, KindEvent, lost,
			"have the hooks that need the values compute them themselves")
	}
}

// failClosedFix says how a script can refuse on its own failures.
func (t *target) failClosedFix() string {
	switch t.name {
	case "copilot":
		return `make the script print a deny answer when it fails (GitHub Copilot ignores exit code 2)`
	case "codex":
		return "make the script exit 2 with a reason on stderr when it fails"
	}
	return "make the script exit 2 when it fails, for example from a trap"
}

// claudeModel reports whether a prompt hook's model is one Claude Code
// knows by name.
func claudeModel(m string) bool {
	m = strings.ToLower(m)
	for _, s := range []string{"claude", "haiku", "sonnet", "opus"} {
		if strings.Contains(m, s) {
			return true
		}
	}
	return false
}

// shape says how the target's payload for step differs from Cursor's, and
// what answer it reads ("" when the step's answer says nothing).
func (t *target) shape(step event.Step) (in, out string) {
	s := t.shapes[step]
	return s[0], s[1]
}

// The answers a Claude-shaped gate reads.
const (
	claudeGate = "hookSpecificOutput.permissionDecision deny, ask or allow with permissionDecisionReason, not permission, user_message and agent_message; exit code 2 still blocks"
	claudeStop = `decision "block" with a reason, not followup_message`
	codexGate  = `hookSpecificOutput.permissionDecision "deny" with a permissionDecisionReason, not permission; Codex rejects ask, and allow without updatedInput; exit code 2 still blocks`
)

var claudeShapes = map[event.Step][2]string{
	event.PreToolUse:           {"Claude Code's tool names (Bash, Edit, …, not Shell, Write) and tool inputs; session_id, not conversation_id", claudeGate + "; updatedInput, not updated_input"},
	event.PostToolUse:          {"Claude Code's tool names and inputs; tool_response, not tool_output", "hookSpecificOutput.additionalContext, not additional_context"},
	event.PostToolUseFailure:   {"Claude Code's tool names and inputs; error, not error_message and failure_type", ""},
	event.BeforeShellExecution: {"the command is in tool_input.command, not command; no cwd of the command, no sandbox", claudeGate},
	event.AfterShellExecution:  {"tool_input.command and tool_response, not command and output", ""},
	event.BeforeMCPExecution:   {"tool_name is mcp__<server>__<tool> and tool_input an object; no url or command of the server", claudeGate},
	event.AfterMCPExecution:    {"tool_name is mcp__<server>__<tool>; tool_response, not result_json", ""},
	event.BeforeReadFile:       {"the path is tool_input.file_path; no content, no attachments", claudeGate},
	event.AfterFileEdit:        {"tool_input holds file_path with content, or old_string and new_string, not edits", ""},
	event.SubagentStart:        {"a PreToolUse of the Task or Agent tool: tool_input.subagent_type and tool_input.prompt, not subagent_type and task", claudeGate},
	event.SubagentStop:         {"agent_type, stop_hook_active and last_assistant_message, not subagent_type, status, summary and loop_count", claudeStop},
	event.Stop:                 {"stop_hook_active and last_assistant_message, not status and loop_count", claudeStop},
	event.BeforeSubmitPrompt:   {"prompt, without attachments; session_id, not conversation_id", `decision "block" with a reason, not continue false and user_message`},
	event.SessionStart:         {"source, not is_background_agent and composer_mode", "hookSpecificOutput.additionalContext, not additional_context; env as export lines appended to $CLAUDE_ENV_FILE, not env"},
	event.SessionEnd:           {"Claude Code's own reason values; no duration_ms or final_status", ""},
	event.PreCompact:           {"trigger and custom_instructions, not the context_* counts", "systemMessage, not user_message"},
}

var geminiShapes = map[event.Step][2]string{
	event.PreToolUse:           {"Gemini CLI's tool names (run_shell_command, write_file, …, not Shell, Write) and tool inputs; session_id, not conversation_id", `decision "deny" or "ask" with a reason, not permission; hookSpecificOutput.tool_input, not updated_input`},
	event.PostToolUse:          {"Gemini CLI's tool names and inputs; tool_response {llmContent, returnDisplay, error}, not tool_output", "hookSpecificOutput.additionalContext, not additional_context"},
	event.PostToolUseFailure:   {"Gemini CLI's tool names and inputs; the error is tool_response.error, not error_message", ""},
	event.BeforeShellExecution: {"the command is in tool_input.command, not command", `decision "deny" or "ask" with a reason, not permission; exit code 2 still blocks`},
	event.AfterShellExecution:  {"tool_input.command and tool_response, not command and output", ""},
	event.BeforeMCPExecution:   {"the server and tool are in mcp_context and tool_input is an object; no url or command of the server", `decision "deny" or "ask" with a reason, not permission; exit code 2 still blocks`},
	event.AfterMCPExecution:    {"tool_response, not result_json", ""},
	event.BeforeReadFile:       {"the path is in tool_input; no content, no attachments", `decision "deny" with a reason, not permission; exit code 2 still blocks`},
	event.AfterFileEdit:        {"tool_input holds file_path with content, or old_string and new_string, not edits", ""},
	event.Stop:                 {"prompt, prompt_response and stop_hook_active, not status and loop_count", `decision "deny" with a reason, which Gemini CLI sends as the next prompt, not followup_message`},
	event.BeforeSubmitPrompt:   {"prompt, without attachments; session_id, not conversation_id", `decision "deny" with a reason, not continue false and user_message`},
	event.SessionStart:         {"source, not is_background_agent and composer_mode", "hookSpecificOutput.additionalContext, not additional_context"},
	event.SessionEnd:           {"Gemini CLI's own reason values", ""},
	event.PreCompact:           {"trigger, not the context_* counts", "systemMessage, not user_message"},
}

var codexShapes = map[event.Step][2]string{
	event.PreToolUse:           {"Codex's tool names (Bash, apply_patch, mcp__…, not Shell, Write) and tool inputs; session_id, not conversation_id", codexGate + "; allow with updatedInput, not updated_input"},
	event.PostToolUse:          {"Codex's tool names and inputs; tool_response, not tool_output", "hookSpecificOutput.additionalContext, not additional_context"},
	event.BeforeShellExecution: {"the command is in tool_input.command, not command", codexGate},
	event.AfterShellExecution:  {"tool_input.command and tool_response, not command and output", ""},
	event.BeforeMCPExecution:   {"tool_name is mcp__<server>__<tool> and tool_input an object; no url or command of the server", codexGate},
	event.AfterMCPExecution:    {"tool_name is mcp__<server>__<tool>; tool_response, not result_json", ""},
	event.AfterFileEdit:        {"a PostToolUse of apply_patch: the patch text is in tool_input.command, not file_path and edits", ""},
	event.SubagentStop:         {"stop_hook_active and last_assistant_message, not subagent_type, status, summary and loop_count", claudeStop},
	event.Stop:                 {"stop_hook_active and last_assistant_message, not status and loop_count", claudeStop},
	event.BeforeSubmitPrompt:   {"prompt, without attachments; session_id, not conversation_id", `decision "block" with a reason, not continue false and user_message`},
	event.SessionStart:         {"source, not is_background_agent and composer_mode", "hookSpecificOutput.additionalContext, not additional_context; env as export lines appended to $CODEX_ENV_FILE, not env"},
	event.SessionEnd:           {"Codex's own reason values", ""},
	event.PreCompact:           {"trigger, not the context_* counts", "systemMessage, not user_message"},
}

// The answer a Copilot preToolUse hook gives.
const copilotGate = "permissionDecision allow, deny or ask with permissionDecisionReason, not permission, user_message and agent_message"

var copilotShapes = map[event.Step][2]string{
	event.PreToolUse:           {"camelCase fields: toolName is GitHub Copilot's (bash, edit, view, …, not Shell, Write) and toolArgs a JSON string, not tool_name and tool_input; sessionId, not conversation_id", copilotGate + "; modifiedArgs, not updated_input"},
	event.PostToolUse:          {"toolName, toolArgs (a JSON string) and toolResult, not tool_name, tool_input and tool_output", "nothing: GitHub Copilot does not read the answers of command hooks here, so additional_context is lost"},
	event.PostToolUseFailure:   {"toolName, toolArgs (a JSON string) and error, not tool_name, tool_input and error_message", ""},
	event.BeforeShellExecution: {"a preToolUse of bash or powershell: the command is inside toolArgs, a JSON string, not command", copilotGate},
	event.AfterShellExecution:  {"a postToolUse of bash or powershell: toolArgs and toolResult, not command and output", ""},
	event.BeforeReadFile:       {"a preToolUse of view: the path is inside toolArgs, a JSON string; no content, no attachments", copilotGate},
	event.AfterFileEdit:        {"a postToolUse of create or edit: the path and text are inside toolArgs, a JSON string, not file_path and edits", ""},
	event.SubagentStart:        {"a preToolUse of the task tool: the subagent is described inside toolArgs, not subagent_type and task", copilotGate},
	event.SubagentStop:         {"GitHub Copilot's own fields (agentName), not subagent_type, status, summary and loop_count", claudeStop},
	event.Stop:                 {"stopReason, not status and loop_count", claudeStop},
	event.BeforeSubmitPrompt:   {"prompt and sessionId, not conversation_id; no attachments", ""},
	event.SessionStart:         {"source and initialPrompt, not is_background_agent and composer_mode", ""},
	event.SessionEnd:           {"reason, GitHub Copilot's own values", ""},
	event.PreCompact:           {"trigger, not the context_* counts", "nothing: GitHub Copilot does not read the answer, so user_message is lost"},
}
