package jsonscan

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

// deepArray is n nested arrays around v: [[[...v...]]].
func deepArray(n int, v string) string {
	return strings.Repeat("[", n) + v + strings.Repeat("]", n)
}

// deepObject is n nested objects: {"a":{"a":...v...}}.
func deepObject(n int, v string) string {
	return strings.Repeat(`{"a":`, n) + v + strings.Repeat("}", n)
}

// deepPayload is a hook payload whose tool input holds n nested arrays,
// the shape that made encoding/json give up past 10000 levels.
func deepPayload(n int) string {
	return `{"tool_name":"Bash","tool_input":{"command":"git push","x":` + deepArray(n, "1") + `}}`
}

func TestDeepDocumentsAreValid(t *testing.T) {
	for _, n := range []int{10_001, 100_000} {
		for name, doc := range map[string]string{
			"arrays":  deepArray(n, `"x"`),
			"objects": deepObject(n, `null`),
			"mixed":   strings.Repeat(`[{"k":`, n/2) + `[]` + strings.Repeat(`}]`, n/2),
			"payload": deepPayload(n),
		} {
			if err := Check([]byte(doc)); err != nil {
				t.Errorf("%d %s: Check = %v", n, name, err)
			}
			if json.Valid([]byte(doc)) {
				t.Errorf("%d %s: encoding/json reads it too; the test does not test depth", n, name)
			}
		}
	}
}

func TestDeepDocumentsAreChecked(t *testing.T) {
	const n = 100_000
	for name, tc := range map[string]struct {
		doc    string
		offset int64
	}{
		"unclosed":          {strings.Repeat("[", n), n},
		"one short":         {deepArray(n, "1")[:2*n], 2 * n},
		"wrong closer":      {strings.Repeat("[", n) + "}" + strings.Repeat("]", n-1), n},
		"bad value deep in": {strings.Repeat("[", n) + "tru" + strings.Repeat("]", n), n + 3},
		"one too many":      {deepArray(n, "1") + "]", 2*n + 1},
		"object missing :":  {strings.Repeat(`{"a":`, n-1) + `{"a" 1` + strings.Repeat("}", n), int64(5*(n-1) + 5)},
	} {
		err := Check([]byte(tc.doc))
		var se *SyntaxError
		if !errors.As(err, &se) {
			t.Errorf("%s: Check = %v, want a SyntaxError", name, err)
			continue
		}
		if se.Offset != tc.offset {
			t.Errorf("%s: offset %d, want %d (%v)", name, se.Offset, tc.offset, err)
		}
		if !strings.Contains(err.Error(), "at byte") {
			t.Errorf("%s: %q does not say where", name, err)
		}
	}
}

func TestObjectOfDeepPayload(t *testing.T) {
	for _, n := range []int{10_001, 100_000} {
		doc := []byte(deepPayload(n))
		if err := json.Unmarshal(doc, new(map[string]json.RawMessage)); err == nil {
			t.Fatalf("%d: encoding/json reads it; the test does not test depth", n)
		}
		m, err := Object(doc)
		if err != nil {
			t.Fatalf("%d: Object: %v", n, err)
		}
		if string(m["tool_name"]) != `"Bash"` || len(m) != 2 {
			t.Fatalf("%d: fields %v", n, keys(m))
		}
		want := `{"command":"git push","x":` + deepArray(n, "1") + `}`
		if string(m["tool_input"]) != want {
			t.Fatalf("%d: tool_input is not the bytes sent", n)
		}
		in, err := DecodeObject(m["tool_input"])
		if err != nil {
			t.Fatalf("%d: DecodeObject: %v", n, err)
		}
		if in["command"] != "git push" {
			t.Errorf("%d: command = %#v", n, in["command"])
		}
		raw, ok := in["x"].(json.RawMessage)
		if !ok || string(raw) != deepArray(n, "1") {
			t.Errorf("%d: x = %T, want the deep array as json.RawMessage", n, in["x"])
		}
		list, ok := AsArray(raw)
		if !ok || len(list) != 1 {
			t.Fatalf("%d: AsArray = %v %v", n, len(list), ok)
		}
		// One level in, what encoding/json can decode is decoded.
		switch inner := list[0].(type) {
		case json.RawMessage:
			if n-1 <= 10_000 || string(inner) != deepArray(n-1, "1") {
				t.Errorf("%d: one level in: kept raw", n)
			}
		case []any:
			if n-1 > 10_000 {
				t.Errorf("%d: one level in: decoded past encoding/json's limit", n)
			}
		default:
			t.Errorf("%d: one level in: %T", n, list[0])
		}
	}
}

func keys(m map[string]json.RawMessage) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

func TestObject(t *testing.T) {
	for _, tc := range []struct {
		doc  string
		want map[string]string
		err  string // a part of the error; "" for none
	}{
		{doc: `{}`, want: map[string]string{}},
		{doc: " \n{ \"a\" : 1 , \"b\":[ 1, {\"c\" :2} ] }\t", want: map[string]string{"a": "1", "b": `[ 1, {"c" :2} ]`}},
		{doc: `{"a":1,"a":"last"}`, want: map[string]string{"a": `"last"`}},
		{doc: `{"a\u0062":1,"\ud83d\ude00":2,"\ud800x":3,"\/":4}`, want: map[string]string{"ab": "1", "😀": "2", "\ufffdx": "3", "/": "4"}},
		{doc: "{\"\xff\":1}", want: map[string]string{"\ufffd": "1"}},
		{doc: `null`, want: nil},
		{doc: ` null `, want: nil},
		{doc: `[1]`, err: "not a JSON object: it is an array"},
		{doc: `"x"`, err: "not a JSON object: it is a string"},
		{doc: `1`, err: "not a JSON object"},
		{doc: `true`, err: "not a JSON object"},
		{doc: ``, err: "unexpected end of JSON input (at byte 0)"},
		{doc: `  `, err: "unexpected end of JSON input"},
		{doc: `{"a":1} x`, err: "invalid character 'x' after top-level value (at byte 8)"},
		{doc: `{"a":1,}`, err: "looking for beginning of object key string (at byte 7)"},
		{doc: `{"a" 1}`, err: "after object key (at byte 5)"},
		{doc: `{"a":1 "b":2}`, err: "after object key:value pair (at byte 7)"},
		{doc: `{"a":[1,]}`, err: "looking for beginning of value (at byte 8)"},
		{doc: `[1,`, err: "unexpected end of JSON input"},
		{doc: `nul`, err: "unexpected end of JSON input"},
	} {
		m, err := Object([]byte(tc.doc))
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("Object(%q) error = %v, want %q", tc.doc, err, tc.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("Object(%q): %v", tc.doc, err)
			continue
		}
		if (m == nil) != (tc.want == nil) || len(m) != len(tc.want) {
			t.Errorf("Object(%q) = %v, want %v", tc.doc, m, tc.want)
			continue
		}
		for k, v := range tc.want {
			if string(m[k]) != v {
				t.Errorf("Object(%q)[%q] = %s, want %s", tc.doc, k, m[k], v)
			}
		}
	}
}

func TestArray(t *testing.T) {
	a, err := Array([]byte(` [ 1 , "b" , [2] ] `))
	if err != nil || len(a) != 3 || string(a[0]) != "1" || string(a[1]) != `"b"` || string(a[2]) != "[2]" {
		t.Errorf("Array = %q, %v", a, err)
	}
	if a, err := Array([]byte(`[]`)); err != nil || a == nil || len(a) != 0 {
		t.Errorf("Array([]) = %#v, %v", a, err)
	}
	if a, err := Array([]byte(`null`)); err != nil || a != nil {
		t.Errorf("Array(null) = %#v, %v", a, err)
	}
	if _, err := Array([]byte(`{}`)); err == nil || !strings.Contains(err.Error(), "not a JSON array") {
		t.Errorf("Array({}) error = %v", err)
	}
}

func TestDecode(t *testing.T) {
	m, err := DecodeObject([]byte(` {"s":"a\nb","n":1.5,"t":true,"f":false,"z":null,"l":[1,"x"],"o":{"k":"v"},"big":1e400} `))
	if err != nil {
		t.Fatal(err)
	}
	if m["s"] != "a\nb" || m["n"] != 1.5 || m["t"] != true || m["f"] != false || m["z"] != nil {
		t.Errorf("scalars: %#v", m)
	}
	if l, ok := m["l"].([]any); !ok || len(l) != 2 || l[0] != 1.0 || l[1] != "x" {
		t.Errorf("l = %#v", m["l"])
	}
	if o, ok := m["o"].(map[string]any); !ok || o["k"] != "v" {
		t.Errorf("o = %#v", m["o"])
	}
	if big, ok := m["big"].(json.RawMessage); !ok || string(big) != "1e400" {
		t.Errorf("1e400 decoded as %#v", m["big"])
	}
	// encoding/json cannot decode the whole object (1e400), so Decode
	// keeps it raw; AsObject opens it one level down.
	whole, err := Decode([]byte(`{"big":1e400,"a":{"b":1}}`))
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := whole.(json.RawMessage); !ok {
		t.Fatalf("Decode = %#v, want json.RawMessage", whole)
	}
	obj, ok := AsObject(whole)
	if !ok || string(obj["big"].(json.RawMessage)) != "1e400" {
		t.Fatalf("AsObject = %#v %v", obj, ok)
	}
	if inner, ok := AsObject(obj["a"]); !ok || inner["b"] != 1.0 {
		t.Errorf("a = %#v", obj["a"])
	}
	if _, ok := AsObject("x"); ok {
		t.Error("a string is an object")
	}
	if _, ok := AsArray(json.RawMessage(`{}`)); ok {
		t.Error("an object is an array")
	}
	if _, err := Decode([]byte(`{"a":}`)); err == nil {
		t.Error("invalid JSON decoded")
	}
	if m, err := DecodeObject([]byte(`null`)); err != nil || m != nil {
		t.Errorf("DecodeObject(null) = %v, %v", m, err)
	}
	if _, err := DecodeObject([]byte(`[]`)); err == nil {
		t.Error("DecodeObject([]) gave no error")
	}
}

func TestString(t *testing.T) {
	for doc, want := range map[string]string{`"a"`: "a", ` "a\u00e9\n" `: "aé\n", `"\ud800"`: "\ufffd"} {
		if s, ok := String([]byte(doc)); !ok || s != want {
			t.Errorf("String(%s) = %q %v", doc, s, ok)
		}
	}
	for _, doc := range []string{``, `1`, `"a" "b"`, `"a`, `["a"]`, `"\x"`} {
		if s, ok := String([]byte(doc)); ok {
			t.Errorf("String(%s) = %q", doc, s)
		}
	}
}

func TestAppendCompact(t *testing.T) {
	src := " { \"a\" : [ 1 , 2 ] ,\n\t\"b c\" : \"x y <&>\" , \"d\":{ } } "
	got, err := AppendCompact([]byte("pre:"), []byte(src))
	if err != nil || string(got) != `pre:{"a":[1,2],"b c":"x y <&>","d":{}}` {
		t.Errorf("AppendCompact = %s, %v", got, err)
	}
	got, err = AppendCompact([]byte("pre:"), []byte(`{"a":`))
	if err == nil || string(got) != "pre:" {
		t.Errorf("AppendCompact of invalid JSON = %q, %v", got, err)
	}
	const n = 100_000
	deep := strings.Repeat("[ ", n) + "1" + strings.Repeat(" ]", n)
	got, err = AppendCompact(nil, []byte(deep))
	if err != nil || string(got) != deepArray(n, "1") {
		t.Errorf("AppendCompact of a deep document failed: %v", err)
	}
}

func TestAppendIndent(t *testing.T) {
	for _, src := range []string{
		`{"a":[1,2,{}],"b":{"c":[]},"d":"x, y: {z}"}`,
		" [ 1 , [ ] , { \"k\" : null } ] \n",
		`"s"`, `1`, `{}`,
		deepArray(2000, `{"a":[1,2]}`),
	} {
		for _, ind := range [][2]string{{"", "  "}, {">", "\t"}, {"", ""}} {
			var want bytes.Buffer
			if err := json.Indent(&want, []byte(src), ind[0], ind[1]); err != nil {
				t.Fatal(err)
			}
			got, err := AppendIndent(nil, []byte(src), ind[0], ind[1])
			if err != nil || string(got) != want.String() {
				t.Errorf("AppendIndent(%.40q, %q, %q) = %.80q, %v; want %.80q", src, ind[0], ind[1], got, err, want.String())
			}
		}
	}
	const n = 100_000
	got, err := AppendIndent(nil, []byte(deepArray(n, "1")), "", "")
	if err != nil {
		t.Fatal(err)
	}
	if back, err := AppendCompact(nil, got); err != nil || string(back) != deepArray(n, "1") {
		t.Errorf("indented deep document does not compact back: %v", err)
	}
	if _, err := AppendIndent(nil, []byte(`[1,]`), "", " "); err == nil {
		t.Error("AppendIndent took invalid JSON")
	}
}

func TestStackCrossesWords(t *testing.T) {
	// Objects and arrays alternate across the 64-bit words of the stack,
	// so a kind read from the wrong bit closes the wrong container.
	var b strings.Builder
	for i := range 300 {
		if i%3 == 0 {
			b.WriteString(`{"k":`)
		} else {
			b.WriteString(`[`)
		}
	}
	b.WriteString("0")
	for i := 299; i >= 0; i-- {
		if i%3 == 0 {
			b.WriteString(`}`)
		} else {
			b.WriteString(`]`)
		}
	}
	if err := Check([]byte(b.String())); err != nil {
		t.Fatal(err)
	}
	if !json.Valid([]byte(b.String())) {
		t.Fatal("the test document is invalid")
	}
	bad := []byte(b.String())
	bad[len(bad)-200] ^= '}' ^ ']' // swap one closer's kind
	if Valid(bad) || json.Valid(bad) {
		t.Fatal("a swapped closer was taken")
	}
}

// CheckDepth refuses what encoding/json refuses for its depth, and takes
// what it takes.
func TestCheckDepth(t *testing.T) {
	for _, depth := range []int{1, 9999, 10000, 10001, 20000} {
		for _, inner := range []string{"1", `{"a":1}`, "[]", "{}"} {
			doc := []byte(strings.Repeat("[", depth) + inner + strings.Repeat("]", depth))
			want := json.Valid(doc)
			if got := CheckDepth(doc, 10000) == nil; got != want {
				t.Errorf("depth %d around %s: CheckDepth says %v, encoding/json %v", depth, inner, got, want)
			}
			if err := Check(doc); err != nil {
				t.Errorf("depth %d: Check: %v", depth, err)
			}
		}
	}
}

// notPlain agrees with the byte table on every byte in every position.
func TestPlainWord(t *testing.T) {
	for c := range 256 {
		for pos := range 8 {
			w := make([]byte, 8)
			for k := range w {
				w[k] = 'a'
			}
			w[pos] = byte(c)
			x := uint64(0)
			for k := 7; k >= 0; k-- {
				x = x<<8 | uint64(w[k])
			}
			if got := notPlain(x) == 0; got != plain[c] {
				t.Errorf("byte %#x at %d: notPlain %v, table %v", c, pos, got, plain[c])
			}
		}
	}
}

// ObjectDepth bounds a document as CheckDepth does, the object itself
// being its first level, and takes whatever CheckDepth takes.
func TestObjectDepth(t *testing.T) {
	for _, limit := range []int{1, 2, 3, 10000} {
		for _, depth := range []int{0, 1, 2, limit - 2, limit - 1, limit, limit + 1} {
			if depth < 0 {
				continue
			}
			for _, inner := range []string{"1", `{"a":1}`, "[]", "{}"} {
				doc := []byte(`{"x":` + strings.Repeat("[", depth) + inner + strings.Repeat("]", depth) + `}`)
				want := CheckDepth(doc, limit) == nil
				_, err := ObjectDepth(doc, limit)
				if (err == nil) != want {
					t.Errorf("limit %d, %d arrays around %s: ObjectDepth says %v, CheckDepth %v", limit, depth, inner, err, want)
				}
				if se, ok := err.(*SyntaxError); err != nil && (!ok || !se.TooDeep) {
					t.Errorf("limit %d, %d arrays around %s: %v is not marked too deep", limit, depth, inner, err)
				}
			}
		}
	}
	if _, err := ObjectDepth([]byte(`{"x":[1,}`), 10); err == nil || err.(*SyntaxError).TooDeep {
		t.Errorf("a syntax error: %v, marked too deep", err)
	}
	deep := []byte(`{"x":` + strings.Repeat("[", 20000) + strings.Repeat("]", 20000) + `}`)
	if _, err := Object(deep); err != nil {
		t.Errorf("Object has no bound: %v", err)
	}
}

// plainRun stops at the first byte that is not plain, wherever it falls in
// the words and blocks it tests, and after a run of any length; and
// skipString then agrees with encoding/json on whether the whole is one
// string.
func TestPlainRun(t *testing.T) {
	for _, c := range []byte{'"', '\\', 0x00, 0x1f, '\n', 'a', 0x7f, 0x80, 0xff} {
		for n := range 80 {
			data := []byte(strings.Repeat("x", n) + string(c) + strings.Repeat("y", 40))
			want := n
			if plain[c] {
				want = len(data)
			}
			if got := plainRun(data, 0); got != want {
				t.Errorf("byte %#x after %d plain bytes: plainRun %d, want %d", c, n, got, want)
			}
			doc := append(append([]byte(`"`), data...), '"')
			end, err := skipString(doc, 0)
			if whole := err == nil && end == len(doc); whole != json.Valid(doc) {
				t.Errorf("byte %#x after %d plain bytes: skipString to %d of %d, %v; json.Valid %v", c, n, end, len(doc), err, json.Valid(doc))
			}
		}
	}
}
