package fakemodel

import (
	"bufio"
	"encoding/json"
	"net/http"
	"reflect"
	"strings"
	"testing"
)

// namedEvents reads a stream of named server-sent events: each event's
// name and data.
func namedEvents(t *testing.T, resp *http.Response) (names []string, data []map[string]any) {
	t.Helper()
	if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Fatalf("Content-Type %q, want text/event-stream", ct)
	}
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "event: "):
			names = append(names, strings.TrimPrefix(line, "event: "))
		case strings.HasPrefix(line, "data: "):
			var m map[string]any
			if err := json.Unmarshal([]byte(strings.TrimPrefix(line, "data: ")), &m); err != nil {
				t.Fatalf("event data %q: %v", line, err)
			}
			if m["type"] != names[len(names)-1] {
				t.Errorf("event %s carries type %v", names[len(names)-1], m["type"])
			}
			data = append(data, m)
		case line != "":
			t.Fatalf("unexpected line %q", line)
		}
	}
	return names, data
}

const responsesTools = `"tools":[{"type":"function","name":"shell","parameters":{}}]`

func TestResponsesScript(t *testing.T) {
	r := NewResponses(script)
	defer r.Close()
	url := r.URL() + "/v1/responses"

	names, data := namedEvents(t, post(t, url, `{"model":"fake","stream":true,"input":[{"type":"message","role":"user","content":[{"type":"input_text","text":"push"}]}],`+responsesTools+`}`))
	if names[0] != "response.created" || names[len(names)-1] != "response.completed" {
		t.Errorf("events %v", names)
	}
	done := data[len(data)-2]
	if done["type"] != "response.output_item.done" {
		t.Fatalf("before completed: %v", done["type"])
	}
	item := done["item"].(map[string]any)
	if item["type"] != "function_call" || item["name"] != "shell" || item["arguments"] != `{"command":"git push"}` || item["call_id"] == "" {
		t.Errorf("call %v", item)
	}
	if u := jsonPath(data[len(data)-1], "response", "usage", "total_tokens"); u == nil {
		t.Errorf("no usage in response.completed")
	}

	// With the first result: the second step, not streamed.
	one := `{"model":"fake","input":[{"type":"function_call","call_id":"c1","name":"shell","arguments":"{}"},` +
		`{"type":"function_call_output","call_id":"c1","output":"denied MARK"}],` + responsesTools + `}`
	m := decode(t, post(t, url, one))
	if a := jsonPath(m, "output", 0, "arguments"); a != `{"command":"ls"}` {
		t.Errorf("second step %v", a)
	}
	// With two: the text, in deltas.
	two := strings.Replace(one, `],"tools"`, `,{"type":"function_call_output","call_id":"c2","output":"a b"}],"tools"`, 1)
	two = strings.Replace(two, `{"model":"fake",`, `{"model":"fake","stream":true,`, 1)
	names, data = namedEvents(t, post(t, url, two))
	var text strings.Builder
	for i, n := range names {
		if n == "response.output_text.delta" {
			text.WriteString(data[i]["delta"].(string))
		}
	}
	if text.String() != "All done here." {
		t.Errorf("text %q", text.String())
	}
	// Without tools: a title.
	if s := jsonPath(decode(t, post(t, url, `{"model":"fake","input":[]}`)), "output", 0, "content", 0, "text"); s != "Fake session" {
		t.Errorf("title %v", s)
	}
	if got, want := r.ToolResults(), []string{"denied MARK", "a b"}; !reflect.DeepEqual(got, want) {
		t.Errorf("ToolResults %q, want %q", got, want)
	}
	if resp := post(t, r.URL()+"/v1/chat/completions", `{}`); resp.StatusCode != http.StatusNotFound {
		t.Errorf("chat completions: status %d, want 404", resp.StatusCode)
	}
}

const anthropicTools = `"tools":[{"name":"shell","input_schema":{}}]`

func TestAnthropicScript(t *testing.T) {
	a := NewAnthropic(script)
	defer a.Close()
	url := a.URL() + "/v1/messages?beta=true"

	names, data := namedEvents(t, post(t, url, `{"model":"m","stream":true,"messages":[{"role":"user","content":"push"}],`+anthropicTools+`}`))
	want := []string{"message_start", "content_block_start", "content_block_delta", "content_block_stop", "message_delta", "message_stop"}
	if !reflect.DeepEqual(names, want) {
		t.Errorf("events %v, want %v", names, want)
	}
	if b := jsonPath(data[1], "content_block", "name"); b != "shell" {
		t.Errorf("tool %v", b)
	}
	if p := jsonPath(data[2], "delta", "partial_json"); p != `{"command":"git push"}` {
		t.Errorf("input %v", p)
	}
	if s := jsonPath(data[4], "delta", "stop_reason"); s != "tool_use" {
		t.Errorf("stop_reason %v", s)
	}

	one := `{"model":"m","messages":[{"role":"user","content":"push"},` +
		`{"role":"assistant","content":[{"type":"tool_use","id":"t1","name":"shell","input":{}}]},` +
		`{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"denied MARK","is_error":true}]}],` + anthropicTools + `}`
	if in := jsonPath(decode(t, post(t, url, one)), "content", 0, "input", "command"); in != "ls" {
		t.Errorf("second step %v", in)
	}
	two := strings.Replace(one, `"is_error":true}]}]`, `"is_error":true}]},{"role":"user","content":[{"type":"tool_result","tool_use_id":"t2","content":[{"type":"text","text":"a b"}]}]}]`, 1)
	if s := jsonPath(decode(t, post(t, url, two)), "stop_reason"); s != "end_turn" {
		t.Errorf("stop_reason %v", s)
	}
	if got, want := a.ToolResults(), []string{"denied MARK", `[{"type":"text","text":"a b"}]`}; !reflect.DeepEqual(got, want) {
		t.Errorf("ToolResults %q, want %q", got, want)
	}
	if n := jsonPath(decode(t, post(t, a.URL()+"/v1/messages/count_tokens", `{"messages":[]}`)), "input_tokens"); n == nil {
		t.Error("count_tokens without input_tokens")
	}
	if resp := post(t, a.URL()+"/api/hello", `{}`); resp.StatusCode != http.StatusNotFound {
		t.Errorf("unknown path: status %d", resp.StatusCode)
	}
}
