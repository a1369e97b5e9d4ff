package config

import (
	"slices"
	"strings"
	"testing"
)

// TestSyntaxErrors checks that every syntax error names its place, says
// what is wrong and how to fix it, and that the file then has no hooks.
func TestSyntaxErrors(t *testing.T) {
	tests := []struct {
		name string
		src  string // ‸ marks where the error must point
		want string // Error() after "file:line:col: "
	}{
		{"empty", "‸", `the file is empty (fix: write {"version": 1, "hooks": {}})`},
		{"only spaces", "  \n ‸", `the file is empty (fix: write {"version": 1, "hooks": {}})`},
		{"trailing comma in object", `{"version": 1‸, }`,
			`invalid JSON: trailing comma before } (fix: remove the comma)`},
		{"trailing comma in array", "{\"hooks\": {\"stop\": [\n  {\"command\": \"a\"}‸,\n]}}",
			`hooks.stop: invalid JSON: trailing comma before ] (fix: remove the comma)`},
		{"missing comma between members", "{\"version\": 1\n ‸\"hooks\": {}}",
			`invalid JSON: missing comma between object members (fix: add a comma after the value that ends at 1:14)`},
		{"missing comma between elements", `{"hooks": {"stop": [{"command": "a"} ‸{"command": "b"}]}}`,
			`hooks.stop: invalid JSON: missing comma between array elements (fix: add a comma after the value that ends at 1:37)`},
		{"comment", "{\n  ‸// audit\n  \"hooks\": {}}",
			`invalid JSON: comments are not allowed in JSON (fix: remove the comment)`},
		{"single quotes value", `{"hooks": {"stop": [{"command": ‸'a'}]}}`,
			`hooks.stop[0].command: invalid JSON: strings must use double quotes, not single quotes (fix: replace ' with ")`},
		{"unquoted key", `{‸version: 1}`,
			`invalid JSON: object keys must be in double quotes (fix: write "version")`},
		{"capitalised literal", `{"hooks": {"stop": [{"command": "a", "failClosed": ‸True}]}}`,
			`hooks.stop[0].failClosed: invalid JSON: "True" is not a JSON value (fix: write it in lowercase: true)`},
		{"unquoted value", `{"version": ‸one}`,
			`version: invalid JSON: unquoted text "one" (fix: put strings in double quotes: "one")`},
		{"NaN", `{"version": ‸NaN}`,
			`version: invalid JSON: NaN is not a JSON value (fix: use null or a number, or remove the entry)`},
		{"unclosed object", "{\"hooks\": ‸{\"stop\": []\n‸",
			`hooks: invalid JSON: unexpected end of file: the { opened at 1:11 is never closed (fix: close it, and check for a missing } or ] before it)`},
		{"unclosed string", `{"version": 1, ‸"hooks`,
			`invalid JSON: string is never closed (fix: end it with ")`},
		{"newline in string", "{\"hooks\": {\"stop\": [{\"command\": ‸\"a\nb\"}]}}",
			`hooks.stop[0].command: invalid JSON: string is not closed before the end of the line (fix: end it with " on the same line; write a line break inside a string as \n)`},
		{"tab in string", "{\"version\": \"a‸\tb\"}",
			`version: invalid JSON: control character in a string (fix: escape it, as in \t or \u0009)`},
		{"windows path escape", `{"hooks": {"stop": [{"command": "C:‸\Users\me"}]}}`,
			`hooks.stop[0].command: invalid JSON: invalid escape \U (fix: write a backslash as \\ (Windows paths: C:\\Users\\…, or use forward slashes))`},
		{"short unicode escape", `{"version": "‸\u12"}`,
			`version: invalid JSON: \u must be followed by four hex digits (fix: write the character as \u followed by its four-digit hex code, e.g. \u00e9)`},
		{"leading zero", `{"version": ‸01}`,
			`version: invalid JSON: numbers cannot have leading zeros (fix: remove the leading zeros)`},
		{"plus sign", `{"version": ‸+1}`,
			`version: invalid JSON: unexpected '+', expected a value (fix: write the number without a plus sign)`},
		{"bare decimal point", `{"version": ‸.5}`,
			`version: invalid JSON: unexpected '.', expected a value (fix: write a leading zero, as in 0.5)`},
		{"decimal point without digits", `{"version": ‸1.}`,
			`version: invalid JSON: a decimal point must be followed by digits (fix: write 1.0 or 1, not 1.)`},
		{"exponent without digits", `{"version": ‸1e}`,
			`version: invalid JSON: an exponent must have digits (fix: write e.g. 1e3)`},
		{"lone minus", `{"version": ‸-}`,
			`version: invalid JSON: '-' must be followed by a digit (fix: write a number such as -1, or remove the '-')`},
		{"text after document", "{\"hooks\": {}}\n‸}",
			`invalid JSON: unexpected text after the end of the JSON document (fix: a hooks file holds a single object; remove what follows its closing })`},
		{"missing colon", `{"version" ‸1}`,
			`invalid JSON: expected ':' after the key "version" (fix: write "version": value)`},
		{"double comma", `{"hooks": {"stop": [{"command": "a"},‸,]}}`,
			`hooks.stop[1]: invalid JSON: unexpected ',', expected a value (fix: remove the extra comma)`},
		{"unexpected character", `{"version": 1 ‸;}`,
			`invalid JSON: unexpected ';', expected ',' or '}' (fix: check the JSON syntax at this position)`},
		{"non-ascii column", `{"hooks": {"stop": [{"command": "é€", ‸x}]}}`,
			`hooks.stop[0]: invalid JSON: object keys must be in double quotes (fix: write "x")`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src, pos := unmark(tt.src)
			f := ParseFile("h.json", []byte(src), User, "/d", "")
			want := "h.json:" + pos[len(pos)-1] + ": " + tt.want
			if got := problemStrings(f.Problems); !slices.Equal(got, []string{want}) {
				t.Errorf("problems:\n got  %q\n want %q", got, want)
			}
			if len(f.Hooks) != 0 {
				t.Errorf("got %d hooks from a file with a syntax error", len(f.Hooks))
			}
		})
	}
}

func TestDeepNesting(t *testing.T) {
	src := `{"hooks": {"stop": [{"command": "a", "x": ` + strings.Repeat("[", 5000) + strings.Repeat("]", 5000) + `}]}}`
	f := ParseFile("h.json", []byte(src), User, "", "")
	if len(f.Problems) != 1 || !strings.Contains(f.Problems[0].Message, "nested more than 1000 levels") {
		t.Fatalf("problems = %q", problemStrings(f.Problems))
	}
}

func TestByteOrderMarkIsSkipped(t *testing.T) {
	f := ParseFile("h.json", []byte("\uFEFF{\"version\": 1, \"hooks\": {\"stop\": [{\"command\": \"a\"}]}}"), User, "", "")
	if len(f.Problems) != 0 || len(f.Hooks) != 1 {
		t.Fatalf("problems %q, %d hooks", problemStrings(f.Problems), len(f.Hooks))
	}
}

func TestStringDecoding(t *testing.T) {
	tests := []struct{ raw, want string }{
		{`"plain"`, "plain"},
		{`"a\"b\\c\/d\n\t"`, "a\"b\\c/d\n\t"},
		{`"\u00e9\ud83d\ude00"`, "é😀"},
		{"\"bad \xff byte\"", "bad \uFFFD byte"},
	}
	for _, tt := range tests {
		r := newReporter("x", []byte(tt.raw))
		n, ok := parseJSON([]byte(tt.raw), r)
		if !ok || n.kind != jsonString || n.str != tt.want {
			t.Errorf("parse %q: ok=%v node=%+v problems=%q", tt.raw, ok, n, problemStrings(r.problems))
		}
	}
}

func TestDuplicateKeys(t *testing.T) {
	src, pos := unmark("{\"version\": 1, \"hooks\": {\"stop\": [{\"command\": \"a\", ‸\"timeout\": 5, ‸\"timeout\": 10}]}}")
	f := ParseFile("h.json", []byte(src), User, "", "")
	want := []string{"h.json:" + pos[1] + `: warning: hooks.stop[0].timeout: duplicate key "timeout": this one replaces the one at ` + pos[0] +
		` (fix: keep only one of them; merge their contents if both are needed)`}
	if got := problemStrings(f.Problems); !slices.Equal(got, want) {
		t.Fatalf("problems:\n got  %q\n want %q", got, want)
	}
	if len(f.Hooks) != 1 || f.Hooks[0].Timeout.Seconds() != 10 {
		t.Fatalf("the last duplicate must win: %+v", f.Hooks)
	}
}

func TestDuplicateKeysInLargeObject(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"hooks": {}, "version": 1, "x": {`)
	for i := range 40 {
		b.WriteString(`"k` + string(rune('a'+i%20)) + `": 1,`)
	}
	b.WriteString(`"last": 2}}`)
	r := newReporter("x", []byte(b.String()))
	doc, ok := parseJSON([]byte(b.String()), r)
	if !ok {
		t.Fatalf("parse failed: %q", problemStrings(r.problems))
	}
	x, _ := doc.get("x")
	if len(x.value.members) != 21 {
		t.Errorf("got %d members, want 20 distinct keys + last", len(x.value.members))
	}
	if len(r.problems) != 20 {
		t.Errorf("got %d duplicate warnings, want 20", len(r.problems))
	}
	// Members stay in document order, each duplicate at its last place.
	for i, m := range x.value.members[:20] {
		if want := "k" + string(rune('a'+i%20)); m.key != want {
			t.Fatalf("member %d is %q, want %q", i, m.key, want)
		}
	}
}
