package state

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// payloadOf is what the default options store of payload raw.
func payloadOf(t *testing.T, o Options, raw string) (map[string]any, string) {
	t.Helper()
	o, err := o.withDefaults()
	if err != nil {
		t.Fatal(err)
	}
	o.Dir = ""
	out, _ := o.payload(json.RawMessage(raw), false)
	var m map[string]any
	if err := json.Unmarshal(out, &m); err != nil {
		t.Fatalf("stored payload is not a JSON object: %v\n%s", err, out)
	}
	return m, string(out)
}

func TestEnvFileReadIsRedacted(t *testing.T) {
	content := "# keys\nDB_HOST=db.internal\nAPI_KEY=abc123\nexport DEBUG=true\n"
	raw := fmt.Sprintf(`{"conversation_id":"c","hook_event_name":"beforeReadFile","file_path":"/p/.env.local","content":%q,"attachments":[{"type":"file","file_path":"/p/a.ts"}]}`, content)
	m, out := payloadOf(t, Options{}, raw)
	want := "# keys\nDB_HOST=[REDACTED:env-value]\nAPI_KEY=[REDACTED:env-value]\nexport DEBUG=[REDACTED:env-value]\n"
	if m["content"] != want {
		t.Errorf("content = %q, want %q", m["content"], want)
	}
	if m["file_path"] != "/p/.env.local" || m["conversation_id"] != "c" {
		t.Errorf("other fields changed: %s", out)
	}
	for _, leak := range []string{"db.internal", "abc123", "true"} {
		if strings.Contains(out, leak) {
			t.Errorf("%q left in %s", leak, out)
		}
	}
	// The same content read from another file: only the secret-looking
	// name's value goes.
	m, _ = payloadOf(t, Options{}, strings.Replace(raw, "/p/.env.local", "/p/config.txt", 1))
	if want := "# keys\nDB_HOST=db.internal\nAPI_KEY=[REDACTED:secret-value]\nexport DEBUG=true\n"; m["content"] != want {
		t.Errorf("content of a non-.env file = %q, want %q", m["content"], want)
	}
	// A response of that run (a hook redacting the file itself) is an
	// .env file's content too.
	o, _ := Options{}.withDefaults()
	resp := o.response(json.RawMessage(`{"permission":"allow","new_content":"DB_HOST=db.internal\n"}`), true)
	if strings.Contains(string(resp), "db.internal") {
		t.Errorf("response of an .env read keeps its value: %s", resp)
	}
}

func TestSecretNamedMembers(t *testing.T) {
	o, _ := Options{}.withDefaults()
	resp := o.response(json.RawMessage(`{"env":{"GITHUB_TOKEN":"x1","MODE":"strict","API_KEY":""},"n":{"token":5}}`), false)
	want := `{"env":{"GITHUB_TOKEN":"[REDACTED:secret-value]","MODE":"strict","API_KEY":""},"n":{"token":5}}`
	if string(resp) != want {
		t.Errorf("response = %s\nwant %s", resp, want)
	}
}

func TestBigFieldsAreCapped(t *testing.T) {
	const size = 10 << 20
	content := strings.Repeat("0123456789abcdef", size/16)
	raw := fmt.Sprintf(`{"file_path":"/p/big.bin","content":%q,"prompt":%q}`, content, strings.Repeat("p", 100))
	m, out := payloadOf(t, Options{}, raw)
	got := m["content"].(string)
	want := content[:DefaultTruncateBytes] + cutMarker(size-DefaultTruncateBytes)
	if got != want {
		t.Errorf("content is %d bytes ending %q, want %d ending %q", len(got), got[len(got)-30:], len(want), want[len(want)-30:])
	}
	if m["file_path"] != "/p/big.bin" || m["prompt"] != strings.Repeat("p", 100) {
		t.Errorf("the rest of the payload was not kept: %.200s", out)
	}
	// Other strings are capped at a larger size.
	other := strings.Repeat("q", 200_000)
	m, _ = payloadOf(t, Options{}, fmt.Sprintf(`{"prompt":%q}`, other))
	if want := other[:otherCapFactor*DefaultTruncateBytes] + cutMarker(len(other)-otherCapFactor*DefaultTruncateBytes); m["prompt"] != want {
		t.Errorf("prompt is %d bytes, want %d", len(m["prompt"].(string)), len(want))
	}
	// The cap is a setting, and each capped field has its own.
	m, _ = payloadOf(t, Options{TruncateBytes: 10},
		`{"edits":[{"old_string":"aaaaaaaaaaaaaaa","new_string":"bbbbbbbbbbbbbbbbbbbb"}],"output":"ccccccccccc"}`)
	edit := m["edits"].([]any)[0].(map[string]any)
	if edit["old_string"] != "aaaaaaaaaa"+cutMarker(5) || edit["new_string"] != "bbbbbbbbbb"+cutMarker(10) || m["output"] != "cccccccccc"+cutMarker(1) {
		t.Errorf("edits and output not capped at 10: %v", m)
	}
	// Keep keeps it all.
	m, _ = payloadOf(t, Options{Redact: RedactKeep}, raw)
	if m["content"] != content {
		t.Errorf("keep cut the content")
	}
}

func TestCapNeverSplitsASecret(t *testing.T) {
	for _, at := range []int{4000, 4080, 4090, 4095, 4096, 4100} {
		content := strings.Repeat("x", at) + " " + fakeGitHub + " " + strings.Repeat("y", 10_000)
		m, out := payloadOf(t, Options{}, fmt.Sprintf(`{"content":%q}`, content))
		got := m["content"].(string)
		if strings.Contains(out, fakeGitHub[:8]) {
			t.Errorf("token at %d: part of it is stored: %s", at, got[len(got)-80:])
		}
		// The cut is at the cap, or before the token when the cap falls
		// inside it; the marker counts the bytes after the cut.
		cut := DefaultTruncateBytes
		if tokenEnd := at + 1 + len(fakeGitHub); at+1 < cut && tokenEnd > cut {
			cut = at + 1
		}
		if !strings.HasSuffix(got, cutMarker(len(content)-cut)) {
			t.Errorf("token at %d: marker does not count the %d cut bytes: %q", at, len(content)-cut, got[len(got)-60:])
		}
	}
	// A private key that the cap cuts is redacted from its first line.
	content := strings.Repeat("x", 4000) + "\n" + fakePEM + strings.Repeat("\nMIIEpAIBAAKCAQEA1c7", 1000)
	_, out := payloadOf(t, Options{}, fmt.Sprintf(`{"content":%q}`, content))
	if strings.Contains(out, "MIIE") {
		t.Errorf("a cut private key leaks: %.100s", out[len(out)-100:])
	}
}

func TestEscapedStrings(t *testing.T) {
	// Escapes, non-ASCII and surrogate pairs decode, are redacted and
	// cut by their decoded bytes, and encode back to valid JSON.
	content := strings.Repeat("é\n\t\"\\😀<>&", 1000) + "\x00 TOKEN=abc"
	enc, _ := json.Marshal(content)
	asciiEnc := strings.ReplaceAll(string(enc), "é", `\u00e9`)
	asciiEnc = strings.ReplaceAll(asciiEnc, "😀", `\ud83d\ude00`)
	for _, lit := range []string{string(enc), asciiEnc} {
		if n := decodedLen([]byte(lit[1 : len(lit)-1])); n != len(content) {
			t.Errorf("decodedLen = %d, want %d", n, len(content))
		}
		m, _ := payloadOf(t, Options{TruncateBytes: 100_000}, `{"content":`+lit+`}`)
		if want := strings.Replace(content, "abc", "[REDACTED:secret-value]", 1); m["content"] != want {
			t.Errorf("content not decoded and redacted whole")
		}
		m, _ = payloadOf(t, Options{TruncateBytes: 1001}, `{"content":`+lit+`}`)
		got := m["content"].(string)
		kept := strings.TrimSuffix(got, cutMarker(len(content)-strings.Index(got, "…")))
		if kept == got || !strings.HasPrefix(content, kept) || len(kept) > 1001 || len(kept) < 990 {
			t.Errorf("cut at 1001 bytes keeps %d bytes: %q…", len(kept), got[len(got)-40:])
		}
	}
}

func TestUnchangedJSONIsKeptAsIs(t *testing.T) {
	raw := "{\n  \"command\": \"git status\",\n  \"n\": [1, 2.5e3, true, null, {\"a\": \"\\u00e9\"}]\n}"
	o, _ := Options{}.withDefaults()
	if got, _ := o.payload(json.RawMessage(raw), false); string(got) != raw {
		t.Errorf("payload rewritten:\n%s\nwant\n%s", got, raw)
	}
	// A string that is not JSON is stored as a JSON string, redacted.
	if got, _ := o.payload(json.RawMessage("TOKEN=abc not json"), false); string(got) != `"TOKEN=[REDACTED:secret-value] not json"` {
		t.Errorf("invalid JSON stored as %s", got)
	}
}

func TestRewriteStringsKeys(t *testing.T) {
	doc := `{"a":"1","b":["2",{"c":"3"},"4"],"d":{"e":["5"]},"f":"6"}`
	var got []string
	rewriteStrings([]byte(doc), func(key string, lit []byte) ([]byte, bool) {
		got = append(got, key+"="+string(lit))
		return nil, false
	})
	want := `a="1" b="2" c="3" b="4" e="5" f="6"`
	if strings.Join(got, " ") != want {
		t.Errorf("keys %v, want %s", got, want)
	}
	top := rewriteStrings([]byte(`"x"`), func(key string, lit []byte) ([]byte, bool) { return []byte(`"y"`), key == "" })
	if string(top) != `"y"` {
		t.Errorf("top-level string: %s", top)
	}
}

func FuzzRedactJSON(f *testing.F) {
	for _, s := range []string{`{"content":"API_KEY=x\n"}`, `["a\"b",{"k":"v"}]`, `"\ud83d"`, `{"file_path":".env","content":"A=\"b"}`} {
		f.Add(s, 8)
	}
	f.Fuzz(func(t *testing.T, doc string, limit int) {
		if !json.Valid([]byte(doc)) || limit < 1 || limit > 1<<16 {
			return
		}
		r := &redactor{limit: limit, otherLimit: 2 * limit, budget: 8 * limit, env: true}
		if out := r.json(json.RawMessage(doc)); !json.Valid(out) || string(out) == `"[REDACTED:unreadable]"` {
			t.Errorf("redacting %q gives %q", doc, out)
		}
	})
}

func TestDocumentBudget(t *testing.T) {
	// 2000 edits of 4000 bytes each: 8 MB of strings, each under its cap.
	edits := make([]map[string]string, 2000)
	for i := range edits {
		edits[i] = map[string]string{"old_string": strings.Repeat("o", 4000), "new_string": strings.Repeat("n", 4000)}
	}
	raw, _ := json.Marshal(map[string]any{"file_path": "/p/a.go", "edits": edits})
	m, out := payloadOf(t, Options{}, string(raw))
	budget := budgetFactor * DefaultTruncateBytes
	if len(out) > budget+len(edits)*2*40 {
		t.Errorf("stored %d bytes of an %d-byte payload; want about the budget, %d", len(out), len(raw), budget)
	}
	got := m["edits"].([]any)
	if first := got[0].(map[string]any)["old_string"]; first != strings.Repeat("o", 4000) {
		t.Errorf("the first edit was cut: %.40q", first)
	}
	if last := got[len(got)-1].(map[string]any)["new_string"]; last != cutMarker(4000) {
		t.Errorf("the last edit is %.40q, want only the marker", last)
	}
	if m["file_path"] != "/p/a.go" || len(got) != len(edits) {
		t.Errorf("the payload's shape was not kept")
	}
}
