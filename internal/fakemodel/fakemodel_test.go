package fakemodel

import (
	"bufio"
	"encoding/json"
	"net/http"
	"reflect"
	"strings"
	"testing"
)

var script = Script{Steps: []Step{
	Call("shell", map[string]any{"command": "git push"}),
	Call("shell", map[string]any{"command": "ls"}),
	Say("All done here."),
}}

// post sends body to url and returns the response, failing on transport
// errors.
func post(t *testing.T, url, body string) *http.Response {
	t.Helper()
	resp, err := http.Post(url, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	return resp
}

// events reads a server-sent event stream: the data of each event, up to
// a "[DONE]".
func events(t *testing.T, resp *http.Response) []map[string]any {
	t.Helper()
	if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Fatalf("Content-Type %q, want text/event-stream", ct)
	}
	var out []map[string]any
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		data, ok := strings.CutPrefix(sc.Text(), "data: ")
		if !ok {
			if sc.Text() != "" {
				t.Fatalf("unexpected line %q", sc.Text())
			}
			continue
		}
		if data == "[DONE]" {
			break
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(data), &m); err != nil {
			t.Fatalf("event %q: %v", data, err)
		}
		out = append(out, m)
	}
	return out
}

func decode(t *testing.T, resp *http.Response) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.NewDecoder(resp.Body).Decode(&m); err != nil {
		t.Fatal(err)
	}
	return m
}

// jsonPath walks m by keys and indexes ("candidates", 0, "content").
func jsonPath(m any, path ...any) any {
	for _, p := range path {
		switch k := p.(type) {
		case string:
			mm, _ := m.(map[string]any)
			m = mm[k]
		case int:
			a, _ := m.([]any)
			if k >= len(a) {
				return nil
			}
			m = a[k]
		}
	}
	return m
}

const geminiTools = `"tools":[{"functionDeclarations":[{"name":"shell"}]}]`

func TestGeminiScript(t *testing.T) {
	g := NewGemini(script)
	defer g.Close()
	stream := g.URL() + "/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse"

	// The first turn: the first step's call.
	ev := events(t, post(t, stream, `{"contents":[{"role":"user","parts":[{"text":"push"}]}],`+geminiTools+`}`))
	if len(ev) != 1 {
		t.Fatalf("%d events, want 1: %v", len(ev), ev)
	}
	call := jsonPath(ev[0], "candidates", 0, "content", "parts", 0, "functionCall")
	want := map[string]any{"name": "shell", "args": map[string]any{"command": "git push"}}
	if !reflect.DeepEqual(call, want) {
		t.Errorf("functionCall %v, want %v", call, want)
	}
	if f := jsonPath(ev[0], "candidates", 0, "finishReason"); f != "STOP" {
		t.Errorf("finishReason %v", f)
	}
	if m := jsonPath(ev[0], "modelVersion"); m != "gemini-2.5-flash" {
		t.Errorf("modelVersion %v", m)
	}

	// With one result: the second step.
	oneResult := `{"contents":[{"role":"user","parts":[{"text":"push"}]},` +
		`{"role":"model","parts":[{"functionCall":{"name":"shell","args":{"command":"git push"}}}]},` +
		`{"role":"user","parts":[{"functionResponse":{"name":"shell","response":{"error":"denied MARK"}}}]}],` + geminiTools + `}`
	ev = events(t, post(t, stream, oneResult))
	if c := jsonPath(ev[0], "candidates", 0, "content", "parts", 0, "functionCall", "args", "command"); c != "ls" {
		t.Errorf("second step's command %v, want ls", c)
	}

	// With two: the text, streamed in parts.
	twoResults := strings.Replace(oneResult, `]}],"tools"`,
		`]},{"role":"model","parts":[{"functionCall":{"name":"shell","args":{"command":"ls"}}}]},`+
			`{"role":"user","parts":[{"functionResponse":{"name":"shell","response":{"output":"a b"}}}]}],"tools"`, 1)
	ev = events(t, post(t, stream, twoResults))
	var text strings.Builder
	for _, e := range ev {
		s, _ := jsonPath(e, "candidates", 0, "content", "parts", 0, "text").(string)
		text.WriteString(s)
	}
	if text.String() != "All done here." || len(ev) < 2 {
		t.Errorf("text %q in %d events", text.String(), len(ev))
	}
	if f := jsonPath(ev[len(ev)-1], "candidates", 0, "finishReason"); f != "STOP" {
		t.Errorf("last event's finishReason %v", f)
	}

	// Past the end: Done.
	threeResults := strings.Replace(twoResults, `]}],"tools"`,
		`]},{"role":"user","parts":[{"functionResponse":{"name":"shell","response":{}}}]}],"tools"`, 1)
	resp := post(t, g.URL()+"/v1beta/models/m:generateContent", threeResults)
	if s := jsonPath(decode(t, resp), "candidates", 0, "content", "parts", 0, "text"); s != "Done." {
		t.Errorf("past the end: %v, want Done.", s)
	}

	// The tool results, each once, in order.
	if got, want := g.ToolResults(), []string{`{"error":"denied MARK"}`, `{"output":"a b"}`, `{}`}; !reflect.DeepEqual(got, want) {
		t.Errorf("ToolResults %q, want %q", got, want)
	}
	if n := len(g.Requests()); n != 4 {
		t.Errorf("%d requests recorded, want 4", n)
	}
	if n := len(g.Find("streamGenerateContent", "denied MARK")); n != 2 {
		t.Errorf("Find: %d requests, want 2", n)
	}
}

func TestGeminiUtility(t *testing.T) {
	g := NewGemini(script)
	defer g.Close()
	gen := g.URL() + "/v1beta/models/gemini-2.5-flash-lite:generateContent"

	// Without tools, JSON with the schema's fields.
	resp := post(t, gen, `{"contents":[{"role":"user","parts":[{"text":"who next?"}]}],"generationConfig":{"responseMimeType":"application/json",`+
		`"responseJsonSchema":{"type":"object","properties":{"reasoning":{"type":"string"},"next_speaker":{"type":"string"},"complexity_score":{"type":"integer"},"n":{"type":"number"}}}}}`)
	text, _ := jsonPath(decode(t, resp), "candidates", 0, "content", "parts", 0, "text").(string)
	var got map[string]any
	if err := json.Unmarshal([]byte(text), &got); err != nil {
		t.Fatalf("utility answer %q: %v", text, err)
	}
	want := map[string]any{"reasoning": "ok", "next_speaker": "user", "complexity_score": 10.0, "n": 1.0}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("utility answer %v, want %v", got, want)
	}
	// Plain text otherwise.
	resp = post(t, gen, `{"contents":[{"role":"user","parts":[{"text":"hi"}]}]}`)
	if s := jsonPath(decode(t, resp), "candidates", 0, "content", "parts", 0, "text"); s != "OK" {
		t.Errorf("plain utility answer %v", s)
	}

	resp = post(t, g.URL()+"/v1beta/models/m:countTokens", `{"contents":[]}`)
	if n, _ := jsonPath(decode(t, resp), "totalTokens").(float64); n < 1 {
		t.Errorf("countTokens %v", n)
	}

	for _, path := range []string{"/v1beta/models/m:embedContent", "/v1internal:loadCodeAssist"} {
		resp = post(t, g.URL()+path, `{}`)
		if resp.StatusCode != http.StatusNotFound {
			t.Errorf("%s: status %d, want 404", path, resp.StatusCode)
		}
		if s := jsonPath(decode(t, resp), "error", "status"); s != "NOT_FOUND" {
			t.Errorf("%s: error status %v", path, s)
		}
	}
	if resp := post(t, gen, `not json`); resp.StatusCode != http.StatusBadRequest {
		t.Errorf("bad body: status %d", resp.StatusCode)
	}
}

const openaiTools = `"tools":[{"type":"function","function":{"name":"shell","parameters":{}}}]`

func TestOpenAIScript(t *testing.T) {
	o := NewOpenAI(script)
	defer o.Close()
	chat := o.URL() + "/v1/chat/completions"

	// The first turn, streamed: one tool call, then finish, then usage.
	ev := events(t, post(t, chat, `{"model":"fake","stream":true,"messages":[{"role":"user","content":"push"}],`+openaiTools+`}`))
	if len(ev) != 3 {
		t.Fatalf("%d events, want 3: %v", len(ev), ev)
	}
	fn := jsonPath(ev[0], "choices", 0, "delta", "tool_calls", 0, "function")
	if name := jsonPath(fn, "name"); name != "shell" {
		t.Errorf("tool %v", name)
	}
	var args map[string]any
	if err := json.Unmarshal([]byte(jsonPath(fn, "arguments").(string)), &args); err != nil || args["command"] != "git push" {
		t.Errorf("arguments %v (%v)", jsonPath(fn, "arguments"), err)
	}
	if id, _ := jsonPath(ev[0], "choices", 0, "delta", "tool_calls", 0, "id").(string); id == "" {
		t.Error("tool call without an id")
	}
	if f := jsonPath(ev[1], "choices", 0, "finish_reason"); f != "tool_calls" {
		t.Errorf("finish_reason %v", f)
	}
	if u := jsonPath(ev[2], "usage", "total_tokens"); u == nil {
		t.Errorf("no usage in the last event: %v", ev[2])
	}

	// With one result: the second step, not streamed.
	oneResult := `{"model":"fake","messages":[{"role":"user","content":"push"},` +
		`{"role":"assistant","tool_calls":[{"id":"c1","type":"function","function":{"name":"shell","arguments":"{}"}}]},` +
		`{"role":"tool","tool_call_id":"c1","content":"denied MARK"}],` + openaiTools + `}`
	m := decode(t, post(t, chat, oneResult))
	if f := jsonPath(m, "choices", 0, "finish_reason"); f != "tool_calls" {
		t.Errorf("finish_reason %v", f)
	}
	if a, _ := jsonPath(m, "choices", 0, "message", "tool_calls", 0, "function", "arguments").(string); !strings.Contains(a, `"ls"`) {
		t.Errorf("second step's arguments %q", a)
	}

	// With two: the text, streamed in two parts.
	twoResults := strings.Replace(oneResult, `"model":"fake",`, `"model":"fake","stream":true,`, 1)
	twoResults = strings.Replace(twoResults, `"content":"denied MARK"}]`,
		`"content":"denied MARK"},{"role":"tool","tool_call_id":"c2","content":[{"type":"text","text":"a b"}]}]`, 1)
	ev = events(t, post(t, chat, twoResults))
	var text strings.Builder
	for _, e := range ev {
		s, _ := jsonPath(e, "choices", 0, "delta", "content").(string)
		text.WriteString(s)
	}
	if text.String() != "All done here." {
		t.Errorf("text %q", text.String())
	}
	if f := jsonPath(ev[len(ev)-2], "choices", 0, "finish_reason"); f != "stop" {
		t.Errorf("finish_reason %v", f)
	}

	// A request without tools (a title): text, whatever the script.
	m = decode(t, post(t, chat, `{"model":"fake","messages":[{"role":"user","content":"title?"}]}`))
	if s := jsonPath(m, "choices", 0, "message", "content"); s != "Fake session" {
		t.Errorf("title %v", s)
	}

	if got, want := o.ToolResults(), []string{"denied MARK", `[{"type":"text","text":"a b"}]`}; !reflect.DeepEqual(got, want) {
		t.Errorf("ToolResults %q, want %q", got, want)
	}
	if n := len(o.Find("/chat/completions", "denied MARK")); n != 2 {
		t.Errorf("Find: %d requests, want 2", n)
	}
}

func TestOpenAIOther(t *testing.T) {
	o := NewOpenAI(script)
	defer o.Close()
	resp, err := http.Get(o.URL() + "/v1/models")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if id := jsonPath(decode(t, resp), "data", 0, "id"); id != "fake" {
		t.Errorf("models: %v", id)
	}
	resp2 := post(t, o.URL()+"/v1/responses", `{}`)
	if resp2.StatusCode != http.StatusNotFound {
		t.Errorf("responses: status %d, want 404", resp2.StatusCode)
	}
	if msg, _ := jsonPath(decode(t, resp2), "error", "message").(string); msg == "" {
		t.Error("404 without an error message")
	}
	if resp := post(t, o.URL()+"/v1/chat/completions", `{`); resp.StatusCode != http.StatusBadRequest {
		t.Errorf("bad body: status %d", resp.StatusCode)
	}
	if got := o.Requests(); len(got) != 3 || got[0].Method != http.MethodGet || got[0].Path != "/v1/models" {
		t.Errorf("requests %+v", got)
	}
}
