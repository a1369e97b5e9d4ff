// Package agent is what the agents share: the translation between an
// agent's hook format and agenthooks' native (Cursor) steps, in both
// directions, and the Agent descriptor that gathers one agent's parts.
// Each agent's own format lives in its package under agent/ (its
// Dialect); the registry, package agent/agents, lists them.
//
// An agent (Claude Code, Gemini CLI, Codex, GitHub Copilot, OpenCode, or a
// host speaking the cross-agent hook contract of docs/dialects.md) runs
// `agenthooks run --from AGENT` as one of its own hooks. A Dialect's Parse turns the
// payload that agent writes on the hook's stdin into the Cursor steps the
// action means (a Claude PreToolUse of Bash is preToolUse and
// beforeShellExecution); the caller runs them through the engine; Merge
// folds the engine's decisions into one Verdict; Answer renders the
// Verdict as that agent expects to read it: stdout bytes, stderr text and
// an exit code. Parse, Merge and Answer are pure, so every mapping is
// covered by table tests; reading a file for beforeReadFile and writing an
// agent's env file are left to the caller (LoadContents, EnvFileLines).
//
// Where the agents differ from Cursor, the choices are written down beside
// the code and in docs/dialects.md.
package agent

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/agenthooks/agenthooks/event"
	"github.com/agenthooks/agenthooks/internal/jsonplain"
	"github.com/agenthooks/agenthooks/internal/jsonscan"
)

// Dialect is one agent's hook format.
type Dialect struct {
	// Name is the --from value.
	Name string
	// Title is the agent's name in messages.
	Title string
	// EnvFileVars name the environment variables through which the agent
	// hands its SessionStart hooks a file to append `export K=V` lines to,
	// in order of preference; empty when the agent has none.
	EnvFileVars []string
	// ProjectDirVars name the environment variables that hold the project
	// root the agent runs its hooks for, in order of preference; the
	// workspace roots come from them when --workspace is not given.
	ProjectDirVars []string
	// RunsItself names the settings files whose hooks this agent runs
	// itself, so agenthooks must not run them again for it
	// (config.Locations.Skip): an agent's Name for every file of its and
	// the plugins they enable, or one file's source name
	// (config.SettingsFile.Name) for that file's own hooks. The registry
	// resolves the names (agents.SkipOf), so no agent's package imports
	// another's. What the agent does not run itself is not named:
	// agenthooks runs it, or its guard would run nowhere.
	RunsItself []string

	// ParseFn reads the agent's payload (Parse); AnswerFn renders a
	// verdict in its format (Answer).
	ParseFn  func(payload []byte, event string) (*Request, error)
	AnswerFn func(req *Request, v *Verdict, o Options) Answer
	// FailFn renders the answer to a payload that could not be read or
	// hooks that could not run; nil means exit 1 with the message on
	// stderr, the "non-blocking error" of most agents.
	FailFn func(msg string, gating bool) Answer
	// RefuseFn renders the agent's strongest "no" (Refuse); nil means
	// exit 2 with the message on stderr.
	RefuseFn func(msg string) Answer
	// GateEvents and PromptEvents are the agent's events, in every
	// spelling, that gate a tool call or a prompt submission: a payload of
	// one that cannot be read could still be an action a hook would block.
	GateEvents, PromptEvents []string
}

// Options are the caller's choices for an answer.
type Options struct {
	// Approve passes a hook's explicit allow on as an approval of the
	// agent's own permission check (--allow-means=approve). By default an
	// allow is "no objection": the agent still asks or checks its rules.
	Approve bool
}

// Answer is what agenthooks says back to the agent.
type Answer struct {
	Stdout []byte
	Stderr string
	Code   int
	// Env is the session environment a sessionStart hook set, for the
	// caller to write to the agent's env file (EnvFileVars).
	Env map[string]string
}

// Kind says what sort of answer an agent event expects.
type Kind int

// The kinds of agent events.
const (
	// None: no Cursor counterpart; no hooks run, the answer is empty.
	None Kind = iota
	// Tool: before a tool runs; a gate.
	Tool
	// PostTool: after a tool ran; context may be added.
	PostTool
	// ToolFailure: after a tool failed; observed only.
	ToolFailure
	// Prompt: a prompt is submitted; it may be blocked.
	Prompt
	// Stop and SubagentStop: the agent (or a subagent) stops; a follow-up
	// keeps it going.
	Stop
	SubagentStop
	// SessionStart: context and env for the session.
	SessionStart
	// SessionEnd: observed only.
	SessionEnd
	// Compact: before compaction; a message for the user.
	Compact
)

// Call is one Cursor step to run for an agent event: the step and its
// input in Cursor's shape. Fields the engine fills in (hook_event_name,
// workspace_roots, cursor_version, …) are left out.
type Call struct {
	Step    event.Step
	Payload map[string]any
}

// JSON encodes the payload without HTML escaping: hooks that grep for
// "2>&1" must find it.
func (c Call) JSON() (json.RawMessage, error) {
	return Encode(c.Payload)
}

// Request is an agent event translated: the steps to run and what the
// answer needs to know about the event.
type Request struct {
	// Agent is the dialect's name; Event the agent's event name.
	Agent string
	Event string
	Kind  Kind
	// Calls are the steps to run, all of them, as one decision.
	Calls []Call
	// Cwd is the payload's working directory, if it has one.
	Cwd string
	// Note says why no hooks run, for --verbose.
	Note string

	ToolUse *ToolCall
	// shared are the fields every step of the event carries, for the
	// calls of a recheck.
	Shared Common
	// pascal marks a Copilot payload in the VS Code compatible format.
	Variant bool
}

// ParseError is a payload the dialect cannot read.
type ParseError struct {
	Agent string
	// Event is the agent's event, when it was found.
	Event string
	// Gating reports that the event decides whether an action runs.
	Gating bool
	Err    error
}

func (e *ParseError) Error() string {
	if e.Event != "" {
		return fmt.Sprintf("%s %s payload: %v", e.Agent, e.Event, e.Err)
	}
	return fmt.Sprintf("%s payload: %v", e.Agent, e.Err)
}

func (e *ParseError) Unwrap() error { return e.Err }

// Parse translates an agent's hook payload into the steps to run. ev, when
// not empty, is the agent's event name from the command line: it is used
// when the payload does not name its event (Copilot's camelCase payloads),
// and a payload that names another event wins. Errors are *ParseError.
func (d *Dialect) Parse(payload []byte, ev string) (*Request, error) {
	r, err := d.ParseFn(payload, ev)
	if err != nil {
		return nil, err
	}
	if err := unjudgeable(r.ToolUse); err != nil {
		return nil, &ParseError{Agent: d.Title, Event: r.Event, Gating: r.Kind == Tool, Err: err}
	}
	r.Agent = d.Name
	return r, nil
}

// Answer renders the verdict on the request's steps in the agent's output
// format and exit-code convention.
func (d *Dialect) Answer(req *Request, v *Verdict, o Options) Answer {
	if v == nil {
		v = &Verdict{}
	}
	return d.AnswerFn(req, v, o)
}

// Fail renders the answer when the payload could not be read or the hooks
// could not run, honouring the agent's fail-open or fail-closed
// convention: gating tells whether the event decides an action.
func (d *Dialect) Fail(err error) Answer {
	msg := "agenthooks: " + err.Error()
	gating := false
	var pe *ParseError
	if errors.As(err, &pe) {
		gating = pe.Gating
	}
	if d.FailFn != nil {
		return d.FailFn(msg, gating)
	}
	return Answer{Stderr: msg, Code: 1}
}

// NoneRequest is the request for an agent event with no Cursor counterpart.
func NoneRequest(ev, why string) *Request {
	return &Request{Event: ev, Kind: None, Note: why}
}

// Encode marshals v on one line without HTML escaping.
func Encode(v any) ([]byte, error) { return jsonplain.Marshal(v) }

// JSONLine encodes an answer object followed by a newline. The values are
// maps of strings, booleans and JSON the engine already validated, which
// always encode; a failure leaves stdout empty rather than half-written.
func JSONLine(v any) []byte {
	b, err := Encode(v)
	if err != nil {
		return nil
	}
	return append(b, '\n')
}

// Object splits a payload that must be one JSON object into its fields.
// The payload is read with jsonscan, as everything here is: a tool input
// is the model's to write, and encoding/json gives up on one nested past
// 10000 levels, which would fail the hook open.
func Object(agent string, payload []byte) (map[string]json.RawMessage, error) {
	trimmed := bytes.TrimSpace(payload)
	if len(trimmed) == 0 {
		return nil, &ParseError{Agent: agent, Err: fmt.Errorf("stdin is empty; %s writes the hook's JSON payload there", agent)}
	}
	m, err := jsonscan.Object(trimmed)
	var syntax *jsonscan.SyntaxError
	switch {
	case errors.As(err, &syntax):
		return nil, &ParseError{Agent: agent, Err: fmt.Errorf("not a JSON object: %v", err)}
	case err != nil: // valid JSON of another kind: it says which
		return nil, &ParseError{Agent: agent, Err: err}
	case m == nil:
		return nil, &ParseError{Agent: agent, Err: fmt.Errorf("not a JSON object: it is null")}
	}
	return m, nil
}

// Fields reads typed top-level fields of a payload, reporting the first
// field of the wrong type by name.
type Fields struct {
	M     map[string]json.RawMessage
	Agent string
	Event string
	Gate  bool
	Err   error
}

func (f *Fields) Fail(err error) {
	if f.Err == nil {
		f.Err = &ParseError{Agent: f.Agent, Event: f.Event, Gating: f.Gate, Err: err}
	}
}

// Str returns a string field; absent or null is "".
func (f *Fields) Str(k string) string {
	raw, ok := f.M[k]
	if !ok || string(raw) == "null" {
		return ""
	}
	s, ok := jsonscan.String(raw)
	if !ok {
		f.Fail(fmt.Errorf("field %q must be a string, got %s", k, Clip(raw)))
	}
	return s
}

// Need returns a string field that must be present and not empty.
func (f *Fields) Need(k string) string {
	s := f.Str(k)
	if s == "" && f.Err == nil {
		f.Fail(fmt.Errorf("field %q is missing or empty", k))
	}
	return s
}

// Bool returns a boolean field; absent or null is false.
func (f *Fields) Bool(k string) bool {
	raw, ok := f.M[k]
	if !ok || string(raw) == "null" {
		return false
	}
	if string(raw) != "true" && string(raw) != "false" {
		f.Fail(fmt.Errorf("field %q must be true or false, got %s", k, Clip(raw)))
	}
	return string(raw) == "true"
}

// Number returns a numeric field; absent or null is 0.
func (f *Fields) Number(k string) float64 {
	raw, ok := f.M[k]
	if !ok || string(raw) == "null" {
		return 0
	}
	v, _ := jsonscan.Decode(raw)
	n, ok := v.(float64)
	if !ok {
		f.Fail(fmt.Errorf("field %q must be a number, got %s", k, Clip(raw)))
	}
	return n
}

// Obj returns an object field; absent or null is an empty map. Its
// values are what json.Unmarshal gives, but for a value it cannot decode
// (nested past its limit, a number beyond float64), which stays a
// json.RawMessage: see jsonscan.DecodeObject.
func (f *Fields) Obj(k string) map[string]any {
	raw, ok := f.M[k]
	if !ok || string(raw) == "null" {
		return map[string]any{}
	}
	m, err := jsonscan.DecodeObject(raw)
	if err != nil {
		f.Fail(fmt.Errorf("field %q must be a JSON object, got %s", k, Clip(raw)))
		return map[string]any{}
	}
	return m
}

// NeedObj returns an object field that must be present.
func (f *Fields) NeedObj(k string) map[string]any {
	if raw, ok := f.M[k]; !ok || string(raw) == "null" {
		f.Fail(fmt.Errorf("field %q is missing; it holds the tool's arguments", k))
		return map[string]any{}
	}
	return f.Obj(k)
}

// Raw returns a field's JSON as it was sent; absent is nil.
func (f *Fields) Raw(k string) json.RawMessage {
	return f.M[k]
}

// Clip shortens a value for an error message.
func Clip(raw []byte) string {
	const max = 40
	s := string(raw)
	if len(s) > max {
		return s[:max] + "…"
	}
	return s
}

// Str reads a string from a decoded JSON object.
func Str(m map[string]any, keys ...string) string {
	for _, k := range keys {
		if s, ok := m[k].(string); ok && s != "" {
			return s
		}
	}
	return ""
}

// EventList is a dialect's known events, for messages.
func EventList(names []string) string {
	s := slices.Clone(names)
	slices.Sort(s)
	return strings.Join(s, ", ")
}
