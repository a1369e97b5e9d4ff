package dialect

import (
	"encoding/json"
	"fmt"

	"github.com/agenthooks/agenthooks/event"
	"github.com/agenthooks/agenthooks/internal/jsonscan"
)

// Copilot is GitHub Copilot's dialect (the CLI and the cloud agent):
// `agenthooks run --from copilot EVENT` as a command hook in
// .github/hooks/*.json or ~/.copilot/hooks/*.json.
//
// In: both of Copilot's payload formats. An event configured in camelCase
// (preToolUse) gets camelCase fields (sessionId, toolName, toolArgs) and
// no event name, so the event is the EVENT argument, else it is inferred
// from the fields (toolName and toolResult: postToolUse; toolName and
// error: postToolUseFailure; toolName: preToolUse; prompt; stopReason;
// agentName; source; reason; trigger). An event configured in PascalCase
// (PreToolUse) gets hook_event_name and snake_case fields.
//
//	preToolUse           preToolUse, + beforeShellExecution (bash,
//	                     powershell), beforeReadFile (view)
//	postToolUse          postToolUse, + afterShellExecution, afterFileEdit
//	                     (create, edit)
//	postToolUseFailure   postToolUseFailure
//	userPromptSubmitted  beforeSubmitPrompt
//	agentStop / Stop, subagentStop  stop, subagentStop
//	sessionStart, sessionEnd, preCompact  sessionStart, sessionEnd, preCompact
//	subagentStart, permissionRequest, notification, errorOccurred  no hooks
//
// Out: JSON on stdout and exit 0 (Copilot reads exit 2 as a mere warning):
// permissionDecision deny with permissionDecisionReason, ask (the cloud
// agent treats it as deny itself), allow only with --allow-means=approve,
// modifiedArgs for a rewrite; PascalCase payloads also get the same answer
// as hookSpecificOutput, the VS Code form. A follow-up at agentStop or
// subagentStop is decision "block" with the reason as the next prompt.
// Copilot does not read answers to userPromptSubmitted, sessionStart or
// preCompact: a blocked prompt cannot be stopped, so agenthooks exits 2
// with the hook's message on stderr, which Copilot shows as a warning.
// A payload agenthooks cannot read exits 1: Copilot logs failing hooks and
// goes on (fail-open).
var Copilot = &Dialect{
	Name:  "copilot",
	Title: "GitHub Copilot",
	// Copilot CLI reads .claude/settings(.local).json hooks itself.
	ReadsClaudeSettings: true,
	parse:               parseCopilot,
	answer:              answerCopilot,
}

// copilotTools maps Copilot's tool names to Cursor's.
var copilotTools = map[string]toolSpec{
	"bash":       {toolShell, roleShell},
	"powershell": {toolShell, roleShell},
	"view":       {toolRead, roleRead},
	"create":     {toolWrite, roleWrite},
	"edit":       {toolWrite, roleEdit},
	"glob":       {toolGlob, roleOther},
	"grep":       {toolGrep, roleOther},
	"task":       {toolTask, roleTask},
	"web_fetch":  {"WebFetch", roleOther},
}

// copilotEvents maps both spellings of Copilot's events to one name.
var copilotEvents = map[string]string{
	"preToolUse": "preToolUse", "PreToolUse": "preToolUse",
	"postToolUse": "postToolUse", "PostToolUse": "postToolUse",
	"postToolUseFailure": "postToolUseFailure", "PostToolUseFailure": "postToolUseFailure",
	"userPromptSubmitted": "userPromptSubmitted", "UserPromptSubmit": "userPromptSubmitted",
	"agentStop": "agentStop", "Stop": "agentStop",
	"subagentStop": "subagentStop", "SubagentStop": "subagentStop",
	"sessionStart": "sessionStart", "SessionStart": "sessionStart",
	"sessionEnd": "sessionEnd", "SessionEnd": "sessionEnd",
	"preCompact": "preCompact", "PreCompact": "preCompact",
}

func parseCopilot(payload []byte, arg string) (*Request, error) {
	m, err := object("GitHub Copilot", payload)
	if err != nil {
		return nil, err
	}
	f := &fields{m: m, agent: "GitHub Copilot"}
	ev := f.str("hook_event_name")
	_, camel := m["sessionId"]
	pascal := ev != "" && !camel
	if ev == "" {
		ev = arg
	}
	if ev == "" {
		ev = inferCopilot(m)
	}
	if ev == "" {
		f.fail(fmt.Errorf("the payload does not say which event it is; name it after --from copilot, e.g. agenthooks run --from copilot preToolUse"))
		return nil, f.err
	}
	f.event = ev
	key := func(camel, snake string) string {
		if pascal {
			return snake
		}
		return camel
	}
	c := common{
		conversation: f.str(key("sessionId", "session_id")),
		transcript:   f.str(key("transcriptPath", "transcript_path")),
		cwd:          f.str("cwd"),
	}
	r := &Request{Event: ev, Cwd: c.cwd, pascal: pascal, shared: c}
	name, known := copilotEvents[ev]
	if !known {
		return none(ev, fmt.Sprintf("GitHub Copilot event %q has no Cursor counterpart; no hooks ran", ev)), nil
	}
	switch name {
	case "preToolUse", "postToolUse", "postToolUseFailure":
		f.gate = name == "preToolUse"
		t := copilotTool(c, f, key("toolName", "tool_name"), key("toolArgs", "tool_input"))
		if f.err != nil {
			return nil, f.err
		}
		r.tool = t
		switch name {
		case "preToolUse":
			r.Kind, r.Calls = Tool, c.preCalls(t)
		case "postToolUse":
			res := f.obj(key("toolResult", "tool_result"))
			text := str(res, "textResultForLlm", "text_result_for_llm")
			out, _ := encode(text)
			r.Kind, r.Calls = PostTool, c.postCalls(t, out, text, 0)
		default:
			r.Kind, r.Calls = ToolFailure, []Call{c.failureCall(t, errorText(anyField(m, "error")), false, 0)}
		}
	case "userPromptSubmitted":
		r.Kind, r.Calls = Prompt, []Call{c.promptCall(f.str("prompt"))}
	case "agentStop":
		active, known := copilotStopActive(f)
		r.Kind, r.Calls = Stop, []Call{c.stopCall(event.StatusCompleted, active, known)}
	case "subagentStop":
		active, known := copilotStopActive(f)
		r.Kind = SubagentStop
		r.Calls = []Call{c.subagentStopCall("", f.str(key("agentName", "agent_name")), "", "", active, known)}
	case "sessionStart":
		r.Kind, r.Calls = SessionStart, []Call{c.sessionStartCall(f.str("source"))}
	case "sessionEnd":
		r.Kind, r.Calls = SessionEnd, []Call{c.sessionEndCall(f.str("reason"))}
	case "preCompact":
		r.Kind, r.Calls = Compact, []Call{c.compactCall(f.str("trigger"))}
	}
	if f.err != nil {
		return nil, f.err
	}
	return r, nil
}

// inferCopilot names the event of a camelCase payload from its fields,
// for hooks configured without the EVENT argument.
func inferCopilot(m map[string]json.RawMessage) string {
	has := func(k string) bool { _, ok := m[k]; return ok }
	switch {
	case has("toolName") && has("toolResult"):
		return "postToolUse"
	case has("toolName") && has("error"):
		return "postToolUseFailure"
	case has("toolName"):
		return "preToolUse"
	case has("prompt"):
		return "userPromptSubmitted"
	case has("agentName") && has("stopReason"):
		return "subagentStop"
	case has("agentName"):
		return "subagentStart"
	case has("stopReason"):
		return "agentStop"
	case has("errorContext"):
		return "errorOccurred"
	case has("source"):
		return "sessionStart"
	case has("reason"):
		return "sessionEnd"
	case has("trigger"):
		return "preCompact"
	}
	return ""
}

// copilotTool reads the tool's name and arguments; camelCase payloads may
// carry the arguments as a JSON string.
func copilotTool(c common, f *fields, nameKey, argsKey string) *toolCall {
	name := f.need(nameKey)
	var agentInput map[string]any
	raw := f.raw(argsKey)
	if len(raw) == 0 || string(raw) == "null" {
		agentInput = map[string]any{}
	} else if s, isString := jsonscan.String(raw); isString {
		var err error
		if agentInput, err = jsonscan.DecodeObject([]byte(s)); err != nil || agentInput == nil {
			f.fail(fmt.Errorf("field %q is a string that does not hold a JSON object: %s", argsKey, clip([]byte(s))))
			agentInput = map[string]any{}
		}
	} else {
		agentInput = f.obj(argsKey)
	}
	spec := specOf(copilotTools, name)
	return c.describe(name, spec, "", agentInput, clone(agentInput))
}

// anyField decodes one field of a payload (as jsonscan.Decode does), nil
// when absent.
func anyField(m map[string]json.RawMessage, k string) any {
	v, _ := jsonscan.Decode(m[k])
	return v
}

func answerCopilot(r *Request, v *Verdict, o Options) Answer {
	out := map[string]any{}
	switch r.Kind {
	case Tool:
		decide(out, "permissionDecision", "permissionDecisionReason", v, o)
		if in := r.rewrite(v); in != nil {
			out["modifiedArgs"] = in
		}
		if r.pascal && len(out) > 0 {
			hso := map[string]any{"hookEventName": r.Event}
			for k, val := range out {
				if k == "modifiedArgs" {
					k = "updatedInput"
				}
				hso[k] = val
			}
			out["hookSpecificOutput"] = hso
		}
	case Prompt:
		if v.PromptBlocked {
			return Answer{Stderr: orElse(v.PromptMessage, "Submission blocked by hook") +
				" (GitHub Copilot cannot stop a prompt from a hook; the prompt went ahead)", Code: 2}
		}
	case Stop, SubagentStop:
		if v.Followup != "" {
			out["decision"] = "block"
			out["reason"] = v.Followup
		}
	}
	if len(out) == 0 {
		return Answer{}
	}
	return Answer{Stdout: jsonLine(out)}
}

// copilotStopActive reads whether Copilot is already going on because of
// a stop hook's block, which Copilot CLI (1.0.102) says as
// stop_hook_active in both payload forms (stopHookActive is read too, in
// case a camelCase payload spells it so). known is false when the payload
// does not say: the engine's own count of follow-ups in a row then
// stands, so loop_limit still ends the loop.
func copilotStopActive(f *fields) (active, known bool) {
	for _, k := range []string{"stop_hook_active", "stopHookActive"} {
		if raw, ok := f.m[k]; ok && string(raw) != "null" {
			return f.boolean(k), true
		}
	}
	return false, false
}
