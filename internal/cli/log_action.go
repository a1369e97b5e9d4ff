package cli

import (
	"encoding/json"
	"strings"

	"github.com/agenthooks/agenthooks/event"
	"github.com/agenthooks/agenthooks/internal/jsonscan"
	"github.com/agenthooks/agenthooks/state"
)

// promptWords is how many of a prompt's words the log shows.
const promptWords = 8

// toolArgs are the fields of a tool's input that say what it acts on, in
// the order they are looked for: the one argument log shows beside the
// tool's name.
var toolArgs = []string{"command", "file_path", "path", "pattern", "url", "query", "description", "prompt"}

// actionOf is what the agent tried, as log shows it beside the hook: the
// command, the file, the tool and its main argument, the prompt's first
// words; after the agent's name when the step came from another agent
// than Cursor (run --from). It is read from the payload as the log stored it, redacted
// (AGENTHOOKS_REDACT); "" when the payload was not kept or says nothing
// of the kind.
func actionOf(e state.Entry) string {
	a := stepAction(e)
	if a != "" && e.Agent != "" {
		// The agent that tried it, when it was not Cursor.
		return e.Agent + ": " + a
	}
	return a
}

// stepAction is actionOf without the agent.
func stepAction(e state.Entry) string {
	if len(e.Payload) == 0 {
		return ""
	}
	f, err := jsonscan.Object(e.Payload)
	if err != nil || f == nil {
		return ""
	}
	str := func(m map[string]json.RawMessage, k string) string {
		var s string
		if raw, ok := m[k]; ok && json.Unmarshal(raw, &s) == nil {
			return s
		}
		return ""
	}
	switch event.Step(e.Step) {
	case event.BeforeSubmitPrompt:
		return firstWords(str(f, "prompt"), promptWords)
	case event.AfterAgentResponse, event.AfterAgentThought:
		return firstWords(str(f, "text"), promptWords)
	case event.Stop, event.SubagentStop:
		if s := str(f, "status"); s != "" {
			return "status " + s
		}
	}
	if tool := str(f, "tool_name"); tool != "" {
		return strings.TrimSpace(tool + " " + toolArg(f["tool_input"]))
	}
	for _, k := range []string{"command", "file_path", "prompt"} {
		if s := str(f, k); s != "" {
			if k == "prompt" {
				return firstWords(s, promptWords)
			}
			return s
		}
	}
	return ""
}

// toolArg is the main argument of a tool's input: an object, or (MCP
// steps) a string holding one.
func toolArg(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		raw = json.RawMessage(s)
	}
	in, err := jsonscan.Object(raw)
	if err != nil || in == nil {
		return ""
	}
	for _, k := range toolArgs {
		var v string
		if r, ok := in[k]; ok && json.Unmarshal(r, &v) == nil && v != "" {
			if k == "prompt" || k == "description" {
				return firstWords(v, promptWords)
			}
			return v
		}
	}
	return ""
}

// firstWords is s's first n words, with "…" when there are more.
func firstWords(s string, n int) string {
	w := strings.Fields(s)
	if len(w) <= n {
		return strings.Join(w, " ")
	}
	return strings.Join(w[:n], " ") + " …"
}
