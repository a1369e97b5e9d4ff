package event

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
)

// schema is the part of a step's response that the engine reads. Keys it
// does not list are legal and ignored (Cursor's own block-git.sh example
// prints "continue" to beforeShellExecution).
type schema struct {
	// permissions are the documented values of "permission", in the order
	// error messages list them; nil when the step has no such field.
	permissions []Permission
	// tolerated is one more permission accepted and returned as is:
	// subagentStart's "ask", which Cursor's schema takes and treats as deny.
	tolerated Permission
	// askDenies: "ask", which the step cannot do, is read as "deny" (the
	// stricter reading of a hook that wanted the read stopped for now).
	askDenies bool
	// fields are the other keys, validated in this order.
	fields []field
}

// A field is one optional response key and how to store it.
type field struct {
	key string
	set func(r *Response, v json.RawMessage) error
}

var (
	allowDenyAsk = []Permission{Allow, Deny, Ask}
	allowDeny    = []Permission{Allow, Deny}

	fieldUserMessage       = field{"user_message", setString(func(r *Response) *string { return &r.UserMessage })}
	fieldAgentMessage      = field{"agent_message", setString(func(r *Response) *string { return &r.AgentMessage })}
	fieldFollowupMessage   = field{"followup_message", setString(func(r *Response) *string { return &r.FollowupMessage })}
	fieldAdditionalContext = field{"additional_context", setString(func(r *Response) *string { return &r.AdditionalContext })}
	fieldNewContent        = field{"new_content", setNewContent}
	fieldContinue          = field{"continue", setContinue}
	fieldEnv               = field{"env", setEnv}
	fieldUpdatedInput      = field{"updated_input", setUpdatedInput}
	fieldUpdatedMCPOutput  = field{"updated_mcp_tool_output", setUpdatedMCPToolOutput}

	schemaCommand = schema{
		permissions: allowDenyAsk,
		fields:      []field{fieldUserMessage, fieldAgentMessage},
	}
	schemaPreToolUse = schema{
		permissions: allowDenyAsk,
		fields:      []field{fieldUserMessage, fieldAgentMessage, fieldUpdatedInput},
	}
	schemaSubagentStart = schema{
		permissions: allowDeny,
		tolerated:   Ask,
		fields:      []field{fieldUserMessage, fieldAgentMessage},
	}
	schemaReadFile = schema{
		permissions: allowDeny,
		askDenies:   true,
		fields:      []field{fieldUserMessage, fieldNewContent},
	}
	schemaTabRead     = schema{permissions: allowDeny, askDenies: true}
	schemaPrompt      = schema{fields: []field{fieldContinue, fieldUserMessage}}
	schemaSession     = schema{fields: []field{fieldEnv, fieldAdditionalContext, fieldContinue, fieldUserMessage}}
	schemaPostToolUse = schema{fields: []field{fieldUpdatedMCPOutput, fieldAdditionalContext}}
	schemaPreCompact  = schema{fields: []field{fieldUserMessage}}
	schemaFollowup    = schema{fields: []field{fieldFollowupMessage}}
)

// schemaFor returns the response schema of step. Steps without output
// fields, and unknown steps (a newer host's), get the empty schema: any
// JSON object is valid and only Response.Raw is filled.
func schemaFor(step Step) schema {
	switch step {
	case BeforeShellExecution, BeforeMCPExecution:
		return schemaCommand
	case PreToolUse:
		return schemaPreToolUse
	case SubagentStart:
		return schemaSubagentStart
	case BeforeReadFile:
		return schemaReadFile
	case BeforeTabFileRead:
		return schemaTabRead
	case BeforeSubmitPrompt:
		return schemaPrompt
	case SessionStart:
		return schemaSession
	case PostToolUse:
		return schemaPostToolUse
	case PreCompact:
		return schemaPreCompact
	case Stop, SubagentStop:
		return schemaFollowup
	}
	return schema{}
}

// permission validates a "permission" value against the schema.
func (s schema) permission(v json.RawMessage) (Permission, error) {
	var str string
	if err := decodeString(v, &str); err != nil {
		return NoOpinion, err
	}
	p := Permission(str)
	for _, allowed := range s.permissions {
		if p == allowed {
			return p, nil
		}
	}
	if s.tolerated != NoOpinion && p == s.tolerated {
		return p, nil
	}
	if s.askDenies && p == Ask {
		return Deny, nil
	}
	return NoOpinion, fmt.Errorf("must be %s, got %s", quoteList(s.permissions), quoteShort(str))
}

func setString(dst func(*Response) *string) func(*Response, json.RawMessage) error {
	return func(r *Response, v json.RawMessage) error {
		return decodeString(v, dst(r))
	}
}

func setNewContent(r *Response, v json.RawMessage) error {
	var s string
	if err := decodeString(v, &s); err != nil {
		return err
	}
	r.NewContent = &s
	return nil
}

func setContinue(r *Response, v json.RawMessage) error {
	if k := kindOf(v); k != kindBoolean {
		return fmt.Errorf("must be a boolean, got %s", k)
	}
	var b bool
	if err := json.Unmarshal(v, &b); err != nil {
		return err
	}
	r.Continue = &b
	return nil
}

// setEnv also refuses names and values that no process environment can
// hold (an empty name, "=" in a name, NUL anywhere): they would make every
// later hook of the session fail to start.
func setEnv(r *Response, v json.RawMessage) error {
	if k := kindOf(v); k != kindObject {
		return fmt.Errorf("must be an object of strings, got %s", k)
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(v, &raw); err != nil {
		return err
	}
	names := make([]string, 0, len(raw))
	for name := range raw {
		names = append(names, name)
	}
	sort.Strings(names)
	env := make(map[string]string, len(raw))
	for _, name := range names {
		switch {
		case name == "":
			return fmt.Errorf("empty variable name")
		case strings.IndexByte(name, '=') >= 0:
			return fmt.Errorf(`variable name %s contains "="`, quoteShort(name))
		case strings.IndexByte(name, 0) >= 0:
			return fmt.Errorf("variable name %s contains a NUL byte", quoteShort(name))
		}
		var value string
		if err := decodeString(raw[name], &value); err != nil {
			return fmt.Errorf("value of %s %w", quoteShort(name), err)
		}
		if strings.IndexByte(value, 0) >= 0 {
			return fmt.Errorf("value of %s contains a NUL byte", quoteShort(name))
		}
		env[name] = value
	}
	r.Env = env
	return nil
}

func setUpdatedInput(r *Response, v json.RawMessage) error {
	if k := kindOf(v); k != kindObject {
		return fmt.Errorf("must be an object, got %s", k)
	}
	r.UpdatedInput = v
	return nil
}

// setUpdatedMCPToolOutput takes any value: the documents say "object", but
// an MCP tool's output may be any JSON, and replacing it with the same
// kind of value the tool returned is legitimate.
func setUpdatedMCPToolOutput(r *Response, v json.RawMessage) error {
	r.UpdatedMCPToolOutput = v
	return nil
}

// decodeString stores the JSON string v in dst, or says what v is instead.
func decodeString(v json.RawMessage, dst *string) error {
	if k := kindOf(v); k != kindString {
		return fmt.Errorf("must be a string, got %s", k)
	}
	return json.Unmarshal(v, dst)
}

// quoteList renders ["allow" "deny" "ask"] as `"allow", "deny" or "ask"`.
func quoteList(ps []Permission) string {
	var b strings.Builder
	for i, p := range ps {
		switch {
		case i == 0:
		case i == len(ps)-1:
			b.WriteString(" or ")
		default:
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%q", string(p))
	}
	return b.String()
}

// quoteShort quotes s for an error message, cutting it short so that a
// megabyte of garbage does not end up in the log line.
func quoteShort(s string) string {
	const limit = 40
	n := 0
	for i := range s {
		if n == limit {
			return fmt.Sprintf("%q… (%d bytes)", s[:i], len(s))
		}
		n++
	}
	return fmt.Sprintf("%q", s)
}
