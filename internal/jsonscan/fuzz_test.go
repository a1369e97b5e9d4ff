package jsonscan

import (
	"bytes"
	"encoding/json"
	"errors"
	"reflect"
	"testing"
)

// nesting is how deep data's brackets go outside strings, for skipping
// the documents encoding/json refuses for their depth alone.
func nesting(data []byte) int {
	depth, most, inString := 0, 0, false
	for i := 0; i < len(data); i++ {
		switch c := data[i]; {
		case inString && c == '\\':
			i++
		case c == '"':
			inString = !inString
		case inString:
		case c == '[' || c == '{':
			depth++
			most = max(most, depth)
		case c == ']' || c == '}':
			depth--
		}
	}
	return most
}

var fuzzSeeds = []string{
	``, ` `, `null`, `true`, `false`, `0`, `-0`, `-0.5e-3`, `1E+2`, `01`, `1.`, `-`, `.5`, `1e`, `+1`,
	`"a"`, `"\u00e9\ud83d\ude00\ud800"`, `"\x"`, "\"\x01\"", "\"\xff\xfe\"", `"\/\b\f\n\r\t\\\""`,
	`{}`, `[]`, `{"a":1,"a":2}`, `{"a":[1,{"b":null}],"c":"d"}`, ` { "a" : 1 } `, `{"a":1,}`, `[1,]`,
	`{"a" 1}`, `{1:2}`, `[1 2]`, `{"a":1}}`, `[[[]]`, `{"\u0061":1,"a":2}`, "{\"k\xff\":1}",
	`{"big":1e400,"n":[1e400]}`, `{"tool_name":"Bash","tool_input":{"command":"git push 2>&1 <x>"}}`,
	"[1,\n\t2\r]", `nul`, `tru`, `truex`, `[1]x`, `{"a":"\u00"}`,
}

// FuzzAgreesWithEncodingJSON: on every document encoding/json can read
// (depth up to 10000), Check, Object, AppendCompact, AppendIndent,
// DecodeObject and String give what encoding/json gives.
func FuzzAgreesWithEncodingJSON(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if nesting(data) > 10_000 {
			t.Skip("deeper than encoding/json reads")
		}
		valid := json.Valid(data)
		if err := Check(data); (err == nil) != valid {
			t.Fatalf("Check(%q) = %v, json.Valid = %v", data, err, valid)
		}

		var want map[string]json.RawMessage
		wantErr := json.Unmarshal(data, &want)
		got, err := Object(data)
		if (err == nil) != (wantErr == nil) {
			t.Fatalf("Object(%q) error = %v, json.Unmarshal's = %v", data, err, wantErr)
		}
		if (got == nil) != (want == nil) || len(got) != len(want) {
			t.Fatalf("Object(%q) = %q, json.Unmarshal gives %q", data, got, want)
		}
		for k, w := range want {
			g, ok := got[k]
			if !ok || !bytes.Equal(compact(t, g), compact(t, w)) || !bytes.Equal(g, w) {
				t.Fatalf("Object(%q)[%q] = %q, json.Unmarshal gives %q", data, k, g, w)
			}
		}

		var wantCompact bytes.Buffer
		wantCompactErr := json.Compact(&wantCompact, data)
		gotCompact, err := AppendCompact(nil, data)
		if (err == nil) != (wantCompactErr == nil) || !bytes.Equal(gotCompact, wantCompact.Bytes()) {
			t.Fatalf("AppendCompact(%q) = %q, %v; json.Compact gives %q, %v", data, gotCompact, err, wantCompact.Bytes(), wantCompactErr)
		}

		var wantIndent bytes.Buffer
		wantIndentErr := json.Indent(&wantIndent, data, ">", " ")
		gotIndent, err := AppendIndent(nil, data, ">", " ")
		if (err == nil) != (wantIndentErr == nil) || (err == nil && !bytes.Equal(gotIndent, wantIndent.Bytes())) {
			t.Fatalf("AppendIndent(%q) = %q, %v; json.Indent gives %q, %v", data, gotIndent, err, wantIndent.Bytes(), wantIndentErr)
		}

		var wantAny map[string]any
		wantAnyErr := json.Unmarshal(data, &wantAny)
		gotAny, err := DecodeObject(data)
		switch {
		case wantAnyErr == nil && (err != nil || !reflect.DeepEqual(gotAny, wantAny)):
			t.Fatalf("DecodeObject(%q) = %#v, %v; json.Unmarshal gives %#v", data, gotAny, err, wantAny)
		case wantAnyErr != nil && wantErr == nil && err != nil:
			// A number beyond float64: encoding/json gives up, DecodeObject
			// keeps the field raw.
			t.Fatalf("DecodeObject(%q): %v", data, err)
		}

		var wantStr string
		wantStrErr := json.Unmarshal(data, &wantStr)
		if string(bytes.TrimSpace(data)) == "null" {
			wantStrErr = errNull // json.Unmarshal leaves a string as it is; String says no string
		}
		gotStr, ok := String(data)
		if ok != (wantStrErr == nil) || gotStr != wantStr {
			t.Fatalf("String(%q) = %q, %v; json.Unmarshal gives %q, %v", data, gotStr, ok, wantStr, wantStrErr)
		}
	})
}

var errNull = errors.New("null")

func compact(t *testing.T, raw []byte) []byte {
	var b bytes.Buffer
	if err := json.Compact(&b, raw); err != nil {
		t.Fatalf("compact %q: %v", raw, err)
	}
	return b.Bytes()
}
