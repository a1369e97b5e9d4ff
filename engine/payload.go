package engine

import (
	"bytes"
	"encoding/json"
	"errors"
	"strconv"

	"github.com/agenthooks/agenthooks/event"
)

// payloadFields decodes a payload into its top-level fields, keeping each
// value's bytes as they were so that nothing the host sent is reshaped.
func payloadFields(payload any) (map[string]json.RawMessage, error) {
	var raw []byte
	switch p := payload.(type) {
	case nil:
		return map[string]json.RawMessage{}, nil
	case json.RawMessage:
		raw = p
	case []byte:
		raw = p
	default:
		b, err := json.Marshal(p)
		if err != nil {
			return nil, err
		}
		raw = b
	}
	if len(bytes.TrimSpace(raw)) == 0 {
		return map[string]json.RawMessage{}, nil
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(raw, &fields); err != nil {
		return nil, errors.New("payload is not a JSON object: " + err.Error())
	}
	if fields == nil { // the payload was JSON null
		fields = map[string]json.RawMessage{}
	}
	return fields, nil
}

// fillCommon sets the common input fields a payload lacks, so hooks always
// see the full common schema of seed 004.
func (e *Engine) fillCommon(step event.Step, f map[string]json.RawMessage) {
	f["hook_event_name"] = quote(string(step))
	if _, ok := f["conversation_id"]; !ok {
		if id, ok := f["session_id"]; ok {
			f["conversation_id"] = id // sessionStart/End: session_id is the conversation id
		} else {
			f["conversation_id"] = quote("")
		}
	}
	setDefault(f, "generation_id", quote(""))
	setDefault(f, "model", quote(""))
	setDefault(f, "cursor_version", quote(e.opts.CursorVersion))
	if _, ok := f["workspace_roots"]; !ok {
		roots := e.opts.Locations.WorkspaceRoots
		if roots == nil {
			roots = []string{}
		}
		b, _ := json.Marshal(roots)
		f["workspace_roots"] = b
	}
	setDefault(f, "user_email", json.RawMessage("null"))
	setDefault(f, "transcript_path", json.RawMessage("null"))
}

func setDefault(f map[string]json.RawMessage, k string, v json.RawMessage) {
	if _, ok := f[k]; !ok {
		f[k] = v
	}
}

func quote(s string) json.RawMessage {
	return json.RawMessage(strconv.Quote(s))
}

// stringField returns a top-level string field, or "" when it is absent or
// not a string.
func stringField(f map[string]json.RawMessage, k string) string {
	raw, ok := f[k]
	if !ok {
		return ""
	}
	var s string
	if json.Unmarshal(raw, &s) != nil {
		return ""
	}
	return s
}

// loopKey names the follow-up counter a stop or subagentStop belongs to;
// "" for other steps.
func loopKey(step event.Step, f map[string]json.RawMessage) string {
	switch step {
	case event.Stop:
		return "stop"
	case event.SubagentStop:
		id := stringField(f, "subagent_id")
		if id == "" {
			id = stringField(f, "subagent_type")
		}
		return "subagentStop:" + id
	}
	return ""
}
