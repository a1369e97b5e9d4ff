package config

import (
	"sync"

	"github.com/agenthooks/agenthooks/event"
)

// SchemaURL is the JSON Schema dialect Schema is written in.
const SchemaURL = "https://json-schema.org/draft/2020-12/schema"

// Document is the hooks.json file format as Go types. The JSON Schema that
// Schema returns is generated from these types by reflection, so the
// format is described in exactly one place; they also serve code that
// writes a hooks file (agenthooks init), which then cannot drift from it.
//
// Struct tags drive the schema: `json` names a property (without
// omitempty it is required), `desc` is its description, and `schema` holds
// comma-separated keywords: minimum, maximum, exclusiveMinimum,
// exclusiveMaximum, default, enum (values separated by |), pattern,
// format. A pointer field also accepts null. The descriptions come from
// Cursor's hooks documentation (its option tables; docs/semantics.md, the
// hooks file).
type Document struct {
	Version int       `json:"version,omitempty" desc:"Config schema version. Only 1 exists; a file without it is read as version 1 (with a warning)." schema:"minimum=1,maximum=2147483647,default=1"`
	Hooks   StepHooks `json:"hooks" desc:"Maps hook names (steps) to arrays of hook definitions. An unknown step is reported as a warning and its hooks are skipped, so a file written for a newer Cursor still loads."`
}

// StepHooks maps step names to the hooks that run at that step. The
// schema lists every known step as a property, for editors' completion;
// other names are allowed, as the loader only warns about them.
type StepHooks map[string]HookList

// HookList is the hooks of one step, run in this order of priority.
type HookList []HookDef

// HookDef is one hook definition, with the per-script options of Cursor's
// hooks documentation (docs/semantics.md). Its zero fields are left out
// when written, meaning "the default".
type HookDef struct {
	Command    string  `json:"command,omitempty" desc:"Script path or command: a shell string, an absolute path, or a path relative to where the hooks of this file run (the project root for project hooks, ~/.cursor for user hooks). Required for command hooks."`
	Type       string  `json:"type,omitempty" desc:"Hook execution type: 'command' runs a program that reads the step's JSON on stdin and answers on stdout; 'prompt' asks an LLM to evaluate a natural-language condition." schema:"enum=command|prompt,default=command"`
	Prompt     string  `json:"prompt,omitempty" desc:"For prompt hooks: the condition the model evaluates. $ARGUMENTS is replaced with the hook input JSON; without it, the input is appended. Required for prompt hooks."`
	Model      string  `json:"model,omitempty" desc:"For prompt hooks: the model that evaluates the prompt, instead of the default fast model."`
	Timeout    float64 `json:"timeout,omitempty" desc:"Execution timeout in seconds (fractions allowed). Default: 60 for command hooks, 30 for prompt hooks." schema:"exclusiveMinimum=0,exclusiveMaximum=9223372036"`
	LoopLimit  *int    `json:"loop_limit,omitempty" desc:"Per-script loop limit for stop/subagentStop hooks: how many automatic follow-ups in a row this hook may trigger. null means no limit. Default is 5 for Cursor hooks, null for Claude Code hooks." schema:"minimum=0,maximum=9007199254740991,default=5"`
	FailClosed bool    `json:"failClosed,omitempty" desc:"When true, hook failures (crash, timeout, invalid JSON) block the action instead of allowing it through. Useful for security-critical hooks." schema:"default=false"`
	Matcher    string  `json:"matcher,omitempty" desc:"Filter for when the hook runs: a JavaScript regular expression tested against the tool name (preToolUse, postToolUse, postToolUseFailure), the subagent type (subagentStart, subagentStop), the command (beforeShellExecution, afterShellExecution), Read/TabRead (beforeReadFile, beforeTabFileRead), Write/TabWrite (afterFileEdit, afterTabFileEdit), UserPromptSubmit, Stop, AgentResponse or AgentThought. Other steps ignore it; empty or * matches everything." schema:"format=regex"`
}

// extendSchema adds what tags cannot say: the rules that depend on the
// hook's type. A command hook (no type, or "command") needs a non-blank
// command; a prompt hook a non-blank prompt. A type that is neither
// requires nothing more, as the loader then reports only the type.
func (HookDef) extendSchema(_ *reflector, s *schemaObject) {
	s.set("allOf", []any{
		requireWhenType(TypeCommand, "command", false),
		requireWhenType(TypePrompt, "prompt", true),
	})
}

// requireWhenType is {"if": type is typ, "then": field is required and
// not blank}. When typeRequired is false a missing type counts as typ.
func requireWhenType(typ, field string, typeRequired bool) *schemaObject {
	cond := newSchemaObject(kv("properties", newSchemaObject(kv("type", newSchemaObject(kv("const", typ))))))
	if typeRequired {
		cond.set("required", []string{"type"})
	}
	then := newSchemaObject(
		kv("required", []string{field}),
		kv("properties", newSchemaObject(kv(field, newSchemaObject(kv("pattern", `\S`))))),
	)
	return newSchemaObject(kv("if", cond), kv("then", then))
}

// extendSchema lists every known step, with what it is for, so editors
// complete and explain step names; unknown names stay allowed.
func (StepHooks) extendSchema(r *reflector, s *schemaObject) {
	list := r.ref(typeOf[HookList]())
	props := &schemaObject{}
	for _, st := range event.Steps {
		props.set(string(st), newSchemaObject(kv("description", stepDescriptions[st]), kv("$ref", list)))
	}
	s.set("properties", props)
	s.del("additionalProperties")
}

// stepDescriptions say when each step runs, after Cursor's hooks
// documentation.
var stepDescriptions = map[event.Step]string{
	event.SessionStart:         "When a new composer conversation is created (fire-and-forget). Can set environment variables for the session's later hooks and add context. Matchers are ignored.",
	event.SessionEnd:           "When a composer conversation ends (fire-and-forget), for logging, analytics or cleanup. Matchers are ignored.",
	event.PreToolUse:           "Before any tool runs (Shell, Read, Write, MCP, Task, …). Can allow, deny or rewrite the tool input. Matcher: the tool name.",
	event.PostToolUse:          "After a tool ran successfully. Can add context, or replace an MCP tool's output. Matcher: the tool name.",
	event.PostToolUseFailure:   "When a tool fails, times out or is denied. Matcher: the tool name.",
	event.SubagentStart:        "Before a subagent (Task tool) is spawned. Can allow or deny it. Matcher: the subagent type.",
	event.SubagentStop:         "When a subagent completes, errors or is aborted. Can trigger a follow-up (see loop_limit). Matcher: the subagent type.",
	event.BeforeShellExecution: "Before a shell command runs. Can allow, deny or ask. Matcher: the command.",
	event.AfterShellExecution:  "After a shell command ran, with its output. Matcher: the command.",
	event.BeforeMCPExecution:   "Before an MCP tool runs. Can allow, deny or ask. Matchers are ignored.",
	event.AfterMCPExecution:    "After an MCP tool ran, with its input and result. Matchers are ignored.",
	event.BeforeReadFile:       "Before the agent reads a file. Can deny the read. Matcher: Read.",
	event.AfterFileEdit:        "After the agent edited a file, e.g. to run a formatter. Matcher: Write.",
	event.BeforeSubmitPrompt:   "After the user hits send, before the prompt is submitted. Can block it. Matcher: UserPromptSubmit.",
	event.PreCompact:           "Before the context window is compacted (observational). Matchers are ignored.",
	event.Stop:                 "When the agent loop ends. Can submit a follow-up message (see loop_limit). Matcher: Stop.",
	event.AfterAgentResponse:   "After the agent completed an assistant message. Matcher: AgentResponse.",
	event.AfterAgentThought:    "After the agent completed a thinking block. Matcher: AgentThought.",
	event.BeforeTabFileRead:    "Before Tab (inline completions) reads a file. Can deny the read. Matcher: TabRead.",
	event.AfterTabFileEdit:     "After Tab (inline completions) edited a file. Matcher: TabWrite.",
}

// schemaOnce generates the schema the first time it is asked for; the
// types do not change while the program runs.
var schemaOnce = sync.OnceValues(func() ([]byte, error) {
	return generateSchema(typeOf[Document](),
		kv("title", "Cursor hooks.json"),
		kv("description", "Hooks run programs (or LLM prompts) before or after steps of the agent loop; they can observe, block or modify what the agent does. Read by Cursor and agenthooks from the enterprise, team, project (.cursor/hooks.json) and user (~/.cursor/hooks.json) sources."),
	)
})

// Schema returns the JSON Schema (draft 2020-12) of hooks.json, indented,
// generated from Document. Editors can use it for completion and
// checking; SchemaProblems checks a file against it.
//
// Generation fails only if a struct tag above is malformed, which the
// package's tests rule out; Schema then returns nil.
func Schema() []byte {
	b, err := schemaOnce()
	if err != nil {
		return nil
	}
	return append([]byte(nil), b...)
}
