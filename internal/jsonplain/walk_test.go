package jsonplain

import (
	"bytes"
	"encoding/json"
	"math"
	"strings"
	"testing"
)

// reference is what Marshal and MarshalIndent wrote when they were
// encoding/json alone: the output they must keep.
func reference(v any, prefix, indent string) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if indent != "" || prefix != "" {
		enc.SetIndent(prefix, indent)
	}
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(b.Bytes(), "\n"), nil
}

type edit struct {
	Old string `json:"old_string"`
	New string `json:"new_string,omitempty"`
}

// corpus holds ordinary values of the shapes hooks are given and
// answered with.
var corpus = []any{
	nil, true, 1.5, "a 2>&1 <b> & \u2028\u2029 \x01\x7f \xff é 😀 \"\\\t\n",
	map[string]any{}, map[string]any(nil), []any{}, []any(nil), map[string]json.RawMessage(nil),
	map[string]any{
		"command": "git push 2>&1 | tee <log>", "n": 1e21, "small": 1e-7, "neg": math.Copysign(0, -1),
		"big": float64(1 << 62), "int": 42, "f32": float32(0.1), "list": []any{1.0, "x", nil, false, []any{}, map[string]any{}},
		"nested": map[string]any{"b": map[string]any{"z": 1.0, "a": []any{map[string]any{"k": "v"}}}},
		"strs":   []string{"a", "<b>"}, "edits": []edit{{Old: "a", New: "b"}, {Old: "c"}},
		"raw": json.RawMessage(" { \"b\" : [ 1 , 2 ] ,\n \"a\" : \"<&>\" } "), "nilraw": json.RawMessage(nil),
		"typed": map[string]string{"z": "1", "a": "2"}, "ptr": new(int), "zkey\u2028": "x", "\xffkey": 1.0,
	},
	map[string]json.RawMessage{"b": json.RawMessage(`[1, 2]`), "a": json.RawMessage(`"x"`), "c": nil, "d": json.RawMessage("\t{ }\n")},
	[]any{map[string]json.RawMessage{"k": json.RawMessage(`{"x" : 1}`)}, json.RawMessage(` 7 `)},
	json.RawMessage(` {"a" : [ ] } `),
	struct {
		A string         `json:"a"`
		M map[string]any `json:"m"`
	}{"<x>", map[string]any{"r": json.RawMessage(`[ 1 ]`)}},
}

func TestMarshalMatchesEncodingJSON(t *testing.T) {
	for i, v := range corpus {
		for _, ind := range [][2]string{{"", ""}, {"", "  "}, {"> ", "\t"}} {
			want, wantErr := reference(v, ind[0], ind[1])
			got, err := MarshalIndent(v, ind[0], ind[1])
			if wantErr != nil || err != nil || !bytes.Equal(got, want) {
				t.Errorf("corpus[%d] %q: got %s, %v\nwant %s, %v", i, ind, got, err, want, wantErr)
			}
		}
		want, _ := reference(v, "", "")
		if got, err := Marshal(v); err != nil || !bytes.Equal(got, want) {
			t.Errorf("Marshal(corpus[%d]) = %s, %v; want %s", i, got, err, want)
		}
	}
}

func TestMarshalErrorsAsEncodingJSON(t *testing.T) {
	for i, v := range []any{
		func() {}, math.NaN(), math.Inf(1),
		map[string]any{"f": func() {}}, []any{1.0, math.Inf(-1)},
		map[string]any{"r": json.RawMessage(`{"a":`)}, json.RawMessage(`[1,]`), json.RawMessage{},
		map[string]json.RawMessage{"a": json.RawMessage(`nul`)},
	} {
		if _, err := reference(v, "", ""); err == nil {
			t.Fatalf("case %d: encoding/json encodes it; not an error case", i)
		}
		if b, err := Marshal(v); err == nil {
			t.Errorf("case %d: Marshal = %s, want an error", i, b)
		}
	}
}

func TestMarshalCycleIsAnError(t *testing.T) {
	m := map[string]any{}
	m["self"] = m
	if _, err := Marshal(m); err == nil {
		t.Fatal("a map that holds itself encoded")
	}
	l := []any{nil}
	l[0] = l
	if _, err := Marshal(l); err == nil {
		t.Fatal("a slice that holds itself encoded")
	}
}

func TestMarshalDeepRawMessage(t *testing.T) {
	for _, n := range []int{10_001, 100_000} {
		deep := strings.Repeat("[ ", n) + `"<&>"` + strings.Repeat(" ]", n)
		compact := strings.Repeat("[", n) + `"<&>"` + strings.Repeat("]", n)
		in := map[string]any{"command": "git push", "x": json.RawMessage(deep)}
		v := map[string]any{"tool_name": "Shell", "tool_input": in, "list": []any{json.RawMessage(deep)}}
		if _, err := reference(v, "", ""); err == nil {
			t.Fatalf("%d: encoding/json encodes it; the test does not test depth", n)
		}
		got, err := Marshal(v)
		want := `{"list":[` + compact + `],"tool_input":{"command":"git push","x":` + compact + `},"tool_name":"Shell"}`
		if err != nil || string(got) != want {
			t.Fatalf("%d: Marshal: %v", n, err)
		}
		fields := map[string]json.RawMessage{"b": json.RawMessage(deep), "a": json.RawMessage(`1`)}
		got, err = Marshal(fields)
		if err != nil || string(got) != `{"a":1,"b":`+compact+`}` {
			t.Fatalf("%d: Marshal of fields: %v", n, err)
		}
		got, err = MarshalIndent(fields, ">", "")
		if err != nil || !strings.HasPrefix(string(got), "{\n>\"a\": 1,\n>\"b\": [\n>[") {
			t.Fatalf("%d: MarshalIndent: %.40q, %v", n, got, err)
		}
	}
}

// FuzzMarshalMatchesEncodingJSON: a document decoded with encoding/json,
// or split into its fields, encodes as encoding/json encodes it.
func FuzzMarshalMatchesEncodingJSON(f *testing.F) {
	for _, s := range []string{`{}`, `{"a":[1,{"b":"<&>"}],"c":1e21}`, `[1, "x", null]`, `" \u2028 "`, `{"z":1,"a":{"y":2,"b":3}}`, `1e-7`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var v any
		if json.Unmarshal(data, &v) == nil {
			want, wantErr := reference(v, "", "\t")
			got, err := MarshalIndent(v, "", "\t")
			if (err == nil) != (wantErr == nil) || !bytes.Equal(got, want) {
				t.Fatalf("%q: got %q, %v; want %q, %v", data, got, err, want, wantErr)
			}
		}
		var fields map[string]json.RawMessage
		if json.Unmarshal(data, &fields) == nil {
			want, wantErr := reference(fields, "", "")
			got, err := Marshal(fields)
			if (err == nil) != (wantErr == nil) || !bytes.Equal(got, want) {
				t.Fatalf("%q fields: got %q, %v; want %q, %v", data, got, err, want, wantErr)
			}
		}
	})
}

// FuzzStringMatchesEncodingJSON: strings, which Marshal writes itself,
// come out as encoding/json writes them, invalid UTF-8 included.
func FuzzStringMatchesEncodingJSON(f *testing.F) {
	for _, s := range []string{"", "plain ascii text, long enough for the fast path", "a 2>&1 <b> & \u2028\u2029 \x01\x7f \xff é 😀 \"\\\t\n\b\f\r", "\xed\xa0\x80", "日本\x80"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want, _ := reference(s, "", "")
		if got := appendString([]byte("x"), s); !bytes.Equal(got[1:], want) || got[0] != 'x' {
			t.Fatalf("%q: got %s, want %s", s, got, want)
		}
		if got, err := Marshal(map[string]any{s: s}); err != nil || !bytes.Equal(got, []byte("{"+string(want)+":"+string(want)+"}")) {
			t.Fatalf("%q as key and value: got %s, %v", s, got, err)
		}
	})
}
