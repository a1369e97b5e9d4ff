package engine_test

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"
	"unsafe"

	"github.com/agenthooks/agenthooks/config"
	"github.com/agenthooks/agenthooks/engine"
	"github.com/agenthooks/agenthooks/event"
	"github.com/agenthooks/agenthooks/runner"
)

// A payload read once with ParsePayload reaches the hooks byte for byte
// as the same bytes handed to Run do, however often it is run: the
// engine's own fields do not stick to it.
func TestParsedPayloadRunsAsBytes(t *testing.T) {
	f := newFixture(t)
	f.write(config.User, map[event.Step][]hk{event.Stop: {{"command": "in-process"}}})
	var seen [][]byte
	e := f.engine(func(o *engine.Options) {
		o.Runners = map[string]runner.Runner{config.TypeCommand: runner.Func(func(_ context.Context, req runner.Request) runner.Result {
			seen = append(seen, req.Payload)
			return runner.Result{Response: &event.Response{}}
		})}
	})
	raw := []byte(`{"conversation_id":"c","status":"completed","deep":` + strings.Repeat("[", 20000) + strings.Repeat("]", 20000) + `}`)
	parsed, err := engine.ParsePayload(raw)
	if err != nil {
		t.Fatal(err)
	}
	if v, ok := parsed.Field("status"); !ok || string(v) != `"completed"` {
		t.Errorf(`Field("status") = %s, %v`, v, ok)
	}
	for _, p := range []any{json.RawMessage(raw), parsed, parsed} {
		if _, err := e.Run(t.Context(), event.Stop, p); err != nil {
			t.Fatal(err)
		}
	}
	if len(seen) != 3 {
		t.Fatalf("%d runs seen, want 3", len(seen))
	}
	for i, b := range seen[1:] {
		if !bytes.Equal(b, seen[0]) {
			t.Errorf("run %d with the parsed payload got\n%.300s\nwant\n%.300s", i+2, b, seen[0])
		}
	}
	if !bytes.Contains(seen[0], []byte(`"loop_count":0`)) || !bytes.HasPrefix(seen[0], raw[:len(raw)-1]) {
		t.Errorf("payload %.200s… lacks the host's bytes or the engine's fields", seen[0])
	}
	if _, ok := parsed.Field("loop_count"); ok {
		t.Error("Run added its fields to the caller's Payload")
	}
}

// ParsePayload refuses what Run refuses, with Run's words.
func TestParsePayloadErrors(t *testing.T) {
	e := newFixture(t).engine()
	for _, raw := range []string{`[1,2]`, `{"a":`, `"text"`, `{"a":1}x`} {
		_, perr := engine.ParsePayload([]byte(raw))
		_, rerr := e.Run(t.Context(), event.Stop, []byte(raw))
		if perr == nil || rerr == nil || !strings.HasSuffix(rerr.Error(), perr.Error()) {
			t.Errorf("%s: ParsePayload says %v, Run says %v", raw, perr, rerr)
		}
	}
	for _, raw := range []string{``, ` `, `null`} {
		p, err := engine.ParsePayload([]byte(raw))
		if err != nil {
			t.Errorf("%q: %v", raw, err)
			continue
		}
		if _, ok := p.Field("conversation_id"); ok {
			t.Errorf("%q has fields", raw)
		}
		if _, err := e.Run(t.Context(), event.Stop, p); err != nil {
			t.Errorf("%q: Run: %v", raw, err)
		}
	}
	if _, err := e.Run(t.Context(), event.Stop, &engine.Payload{}); err != nil {
		t.Errorf("zero Payload: %v", err)
	}
}

// A payload that carries every common field, as Cursor's do, reaches the
// hooks as the host's own bytes when the host read it with ParsePayload
// (which says they must not change): a file read's megabytes are not
// copied. Bytes handed to Run as they are may be reused by the caller
// once it returns, and are copied.
func TestFullPayloadNotCopied(t *testing.T) {
	f := newFixture(t)
	f.write(config.User, map[event.Step][]hk{event.BeforeReadFile: {{"command": "in-process"}}})
	var seen []byte
	e := f.engine(func(o *engine.Options) {
		o.Runners = map[string]runner.Runner{config.TypeCommand: runner.Func(func(_ context.Context, req runner.Request) runner.Result {
			seen = req.Payload
			return runner.Result{Response: &event.Response{}}
		})}
	})
	full := []byte(`{"conversation_id":"c","generation_id":"g","model":"m","hook_event_name":"beforeReadFile","cursor_version":"2.0",` +
		`"workspace_roots":["/w"],"user_email":null,"transcript_path":null,"file_path":"/w/big.txt","content":"` + strings.Repeat("x", 1<<20) + `","attachments":[]}`)
	for _, raw := range [][]byte{full, append(bytes.Clone(full), '\n')} {
		parsed, err := engine.ParsePayload(raw)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := e.Run(t.Context(), event.BeforeReadFile, parsed); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(seen, full) || unsafe.SliceData(seen) != unsafe.SliceData(raw) {
			t.Errorf("the hook got %d bytes, a copy or not the host's", len(seen))
		}
		if _, err := e.Run(t.Context(), event.BeforeReadFile, json.RawMessage(raw)); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(seen, full) || unsafe.SliceData(seen) == unsafe.SliceData(raw) {
			t.Errorf("bytes handed to Run as they are: the hook got %d bytes, not a copy of them", len(seen))
		}
	}
	// One field short, and the engine adds it to a copy.
	short := bytes.Replace(full, []byte(`"model":"m",`), nil, 1)
	if _, err := e.Run(t.Context(), event.BeforeReadFile, json.RawMessage(short)); err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(seen, short[:len(short)-1]) || !bytes.HasSuffix(seen, []byte(`,"model":""}`)) {
		t.Errorf("the hook got %.100s…%s", seen, seen[len(seen)-40:])
	}
}
