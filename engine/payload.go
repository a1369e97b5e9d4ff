package engine

import (
	"bytes"
	"encoding/json"
	"errors"
	"maps"
	"slices"
	"strconv"

	"github.com/agenthooks/agenthooks/audit"
	"github.com/agenthooks/agenthooks/event"
	"github.com/agenthooks/agenthooks/internal/jsonplain"
	"github.com/agenthooks/agenthooks/internal/jsonscan"
)

// payload is a step's input: the host's bytes, their top-level fields, and
// the fields the engine adds to them.
type payload struct {
	raw    []byte
	fields map[string]json.RawMessage
	added  map[string]bool // fields set by the engine, not the host
	// replaced is true when the engine changed a field the host sent, so
	// the bytes must be encoded anew rather than extended.
	replaced bool
	// shallow: the host's bytes are nested no deeper than
	// audit.MaxDepth, so the encoded payload is too (Record.Checked).
	shallow bool
	// kept: raw stays as it is after Run returns (a Payload, whose
	// maker promised so, or bytes the engine encoded itself), so the
	// hooks and the log may use it rather than a copy.
	kept bool
}

// set gives a field a value the host's payload must carry.
func (p *payload) set(k string, v json.RawMessage) {
	if old, ok := p.fields[k]; ok && !p.added[k] {
		if bytes.Equal(old, v) {
			return
		}
		p.replaced = true
	}
	p.fields[k] = v
	p.added[k] = true
}

// setDefault gives a field a value when the host did not send it, or
// sent it empty (a typed input marshals unset fields as "" or null).
func (p *payload) setDefault(k string, v json.RawMessage) {
	switch old, ok := p.fields[k]; {
	case !ok, string(old) == `""`, string(old) == "null":
		p.set(k, v)
	}
}

// encode returns the JSON the hooks get. The host's bytes are kept as they
// are and the engine's fields appended, which costs far less than encoding
// the whole object again (a beforeReadFile payload carries a whole file).
func (p *payload) encode() ([]byte, error) {
	if p.replaced {
		return jsonplain.Marshal(p.fields)
	}
	body := bytes.TrimRight(p.raw, " \t\r\n")
	if len(body) == 0 {
		body = []byte("{}")
	}
	if len(p.added) == 0 && p.kept {
		// The host sent every field (as Cursor does): the hooks get its
		// bytes, not a copy of a file read's megabytes.
		return body, nil
	}
	out := make([]byte, 0, len(body)+64*len(p.added))
	out = append(out, body[:len(body)-1]...)
	empty := len(p.fields) == len(p.added)
	keys := make([]string, 0, len(p.added))
	for k := range p.added {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		if !empty {
			out = append(out, ',')
		}
		empty = false
		out = strconv.AppendQuote(out, k)
		out = append(out, ':')
		out = append(out, p.fields[k]...)
	}
	return append(out, '}'), nil
}

// Payload is a step's input read once: the host's bytes and their
// top-level fields. A host that must look into the payload before it runs
// it (at workspace_roots, to choose the configuration) reads it with
// ParsePayload and hands the Payload to Run, so that a payload carrying a
// whole file is scanned once rather than once per reader.
type Payload struct {
	raw     []byte
	fields  map[string]json.RawMessage
	shallow bool
}

// ParsePayload splits a payload into its top-level fields, with the checks
// and errors of Run: it must be one JSON object (empty or null count as
// {}). The bytes are kept, not copied; they must not change while the
// Payload is in use, nor afterwards: the execution records of its runs
// keep them as the hooks' input until they are written.
func ParsePayload(raw []byte) (*Payload, error) {
	if len(bytes.TrimSpace(raw)) == 0 {
		return &Payload{raw: []byte("{}"), fields: map[string]json.RawMessage{}, shallow: true}, nil
	}
	// jsonscan, not encoding/json: the tool input is the model's to
	// write, and encoding/json gives up on one nested past 10000 levels.
	// The scan bounded at that depth tells the log whether it must check
	// the document again; only a payload nested deeper is scanned twice.
	fields, err := jsonscan.ObjectDepth(raw, audit.MaxDepth)
	var syntax *jsonscan.SyntaxError
	shallow := err == nil
	if errors.As(err, &syntax) && syntax.TooDeep {
		fields, err = jsonscan.Object(raw)
	}
	switch {
	case errors.As(err, &syntax):
		return nil, errors.New("payload is not a JSON object: " + err.Error())
	case err != nil:
		return nil, errors.New("payload is " + err.Error()) // not a JSON object: it is an array
	}
	if fields == nil { // the payload was JSON null
		return &Payload{raw: []byte("{}"), fields: map[string]json.RawMessage{}, shallow: true}, nil
	}
	return &Payload{raw: raw, fields: fields, shallow: shallow}, nil
}

// Field returns a top-level field's bytes as the host sent them.
func (p *Payload) Field(name string) (json.RawMessage, bool) {
	v, ok := p.fields[name]
	return v, ok
}

// parsePayload decodes a payload into its top-level fields, keeping each
// value's bytes as they were so that nothing the host sent is reshaped.
// A *Payload is used as it is, its fields copied: the engine adds to them,
// and the host may run the same Payload again.
func parsePayload(in any) (*payload, error) {
	if pp, ok := in.(*Payload); ok {
		if pp != nil && pp.fields != nil {
			return &payload{raw: pp.raw, fields: maps.Clone(pp.fields), added: map[string]bool{}, shallow: pp.shallow, kept: true}, nil
		}
		in = nil // a nil or zero Payload is an empty one
	}
	raw, err := payloadBytes(in)
	if err != nil {
		return nil, err
	}
	pp, err := ParsePayload(raw)
	if err != nil {
		return nil, err
	}
	// The caller's own bytes may be reused once Run returns; bytes the
	// engine encoded are its own.
	_, bytesIn := in.([]byte)
	_, rawIn := in.(json.RawMessage)
	return &payload{raw: pp.raw, fields: pp.fields, added: map[string]bool{}, shallow: pp.shallow, kept: !bytesIn && !rawIn}, nil
}

// payloadBytes is the payload as JSON: bytes as they are, any other value
// encoded as JavaScript's JSON.stringify would (without escaping <, > and
// &, which hooks grepping their stdin for `2>&1` expect).
func payloadBytes(payload any) ([]byte, error) {
	switch p := payload.(type) {
	case nil:
		return nil, nil
	case json.RawMessage:
		return p, nil
	case []byte:
		return p, nil
	}
	return jsonplain.Marshal(payload)
}

// fillCommon sets the common input fields a payload lacks, so hooks always
// see the full common schema of Cursor's hooks documentation
// (docs/semantics.md, one hook).
func (e *Engine) fillCommon(step event.Step, p *payload) {
	p.set("hook_event_name", quote(string(step)))
	if old, ok := p.fields["conversation_id"]; !ok || string(old) == `""` || string(old) == "null" {
		if id, ok := p.fields["session_id"]; ok {
			p.set("conversation_id", id) // sessionStart/End: session_id is the conversation id
		} else {
			p.set("conversation_id", quote(""))
		}
	}
	p.setDefault("generation_id", quote(""))
	p.setDefault("model", quote(""))
	p.setDefault("cursor_version", quote(e.opts.CursorVersion))
	p.setDefault("workspace_roots", e.rootsJSON)
	p.setDefault("user_email", json.RawMessage("null"))
	p.setDefault("transcript_path", json.RawMessage("null"))
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
	// Most strings need no unescaping; take them as they are.
	if n := len(raw); n >= 2 && raw[0] == '"' && raw[n-1] == '"' && bytes.IndexByte(raw[1:n-1], '\\') < 0 && bytes.IndexByte(raw[1:n-1], '"') < 0 {
		return string(raw[1 : n-1])
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

// sessionID is the conversation a payload belongs to, before the common
// fields are filled in: conversation_id, else session_id.
func sessionID(f map[string]json.RawMessage) string {
	// conversation_id wins when it is set; typed inputs marshal it empty.
	if id := stringField(f, "conversation_id"); id != "" {
		return id
	}
	return stringField(f, "session_id")
}
