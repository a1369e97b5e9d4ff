package config

import (
	"bytes"
	"encoding/json"
	"errors"
	"io/fs"
	"math/big"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// The in-house checker is compared with santhosh-tekuri/jsonschema, a
// complete draft 2020-12 validator, which the program itself no longer
// links: on the loader agreement table, on every example file, and on
// fuzzed documents, both must find the same documents invalid and at the
// same set of JSON pointers.

// referenceCompile compiles a schema with the reference validator.
func referenceCompile(schema []byte) (*jsonschema.Schema, error) {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(schema))
	if err != nil {
		return nil, err
	}
	const url = "urn:agenthooks:test.schema.json"
	c := jsonschema.NewCompiler()
	if err := c.AddResource(url, doc); err != nil {
		return nil, err
	}
	return c.Compile(url)
}

// referenceSchema is Schema compiled by the reference validator.
var referenceSchema = sync.OnceValues(func() (*jsonschema.Schema, error) {
	return referenceCompile(Schema())
})

// referencePointers validates inst with the reference validator and
// returns the sorted, distinct instance pointers of its failing leaves.
func referencePointers(t testing.TB, sch *jsonschema.Schema, inst any) []string {
	t.Helper()
	err := sch.Validate(inst)
	if err == nil {
		return nil
	}
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		t.Fatal(err)
	}
	var ptrs []string
	for _, l := range referenceLeaves(ve, nil) {
		ptrs = append(ptrs, referencePointer(l.InstanceLocation))
	}
	slices.Sort(ptrs)
	return slices.Compact(ptrs)
}

// referenceLeaves returns the innermost errors: the ones that name a
// keyword the value failed, rather than a schema whose parts failed.
func referenceLeaves(e *jsonschema.ValidationError, acc []*jsonschema.ValidationError) []*jsonschema.ValidationError {
	if len(e.Causes) == 0 {
		return append(acc, e)
	}
	for _, c := range e.Causes {
		acc = referenceLeaves(c, acc)
	}
	return acc
}

// referencePointer joins the reference validator's instance location
// into a JSON pointer.
func referencePointer(loc []string) string {
	ptr := ""
	for _, seg := range loc {
		ptr = pointerJoin(ptr, seg)
	}
	return ptr
}

// checkPointers returns the sorted, distinct pointers of the in-house
// checker's violations.
func checkPointers(s *schemaNode, doc *jsonNode) []string {
	var ptrs []string
	for _, v := range s.check(doc) {
		ptrs = append(ptrs, v.pointer)
	}
	slices.Sort(ptrs)
	return slices.Compact(ptrs)
}

// value converts the tree into the form the reference validator reads:
// numbers keep their literal text, so no precision is lost, and both
// validators see the same values.
func (n *jsonNode) value() any {
	switch n.kind {
	case jsonBool:
		return n.boolean
	case jsonNumber:
		return json.Number(n.str)
	case jsonString:
		return n.str
	case jsonArray:
		a := make([]any, len(n.elems))
		for i, e := range n.elems {
			a[i] = e.value()
		}
		return a
	case jsonObject:
		m := make(map[string]any, len(n.members))
		for _, mb := range n.members {
			m[mb.key] = mb.value.value()
		}
		return m
	}
	return nil
}

// referenceCanRead reports whether every number in n is one the reference
// validator can handle: it computes with big.Rat, which refuses exponents
// beyond about a million (and then dereferences nil comparing a bound),
// where the in-house checker compares decimal exponents.
func referenceCanRead(n *jsonNode) bool {
	switch n.kind {
	case jsonNumber:
		_, ok := new(big.Rat).SetString(n.str)
		return ok
	case jsonArray:
		for _, e := range n.elems {
			if !referenceCanRead(e) {
				return false
			}
		}
	case jsonObject:
		for _, m := range n.members {
			if !referenceCanRead(m.value) {
				return false
			}
		}
	}
	return true
}

// agree checks that the in-house checker and the reference validator say
// the same of data under the compiled pair of schemas, and returns the
// pointers (nil when valid). ok is false when data is not something to
// compare: not JSON, or a number the reference cannot read.
func agree(t testing.TB, mine *schemaNode, ref *jsonschema.Schema, data []byte) (ptrs []string, ok bool) {
	t.Helper()
	doc, ok := parseJSON(data, newReporter("h.json", data))
	if !ok || !referenceCanRead(doc) {
		return nil, false
	}
	got := checkPointers(mine, doc)
	want := referencePointers(t, ref, doc.value())
	if !slices.Equal(got, want) {
		t.Errorf("%s:\nin-house checker fails at %q\nreference fails at       %q", data, got, want)
	}
	return got, true
}

// schemas compiles Schema with both validators.
func schemas(t testing.TB) (*schemaNode, *jsonschema.Schema) {
	t.Helper()
	mine, err := compiledSchema()
	if err != nil {
		t.Fatal(err)
	}
	ref, err := referenceSchema()
	if err != nil {
		t.Fatal(err)
	}
	return mine, ref
}

func TestSchemaCheckAgreesOnTable(t *testing.T) {
	mine, ref := schemas(t)
	for _, c := range schemaCases {
		t.Run(c.name, func(t *testing.T) {
			ptrs, ok := agree(t, mine, ref, []byte(c.doc))
			if !ok {
				t.Fatal("not compared")
			}
			if (ptrs != nil) != c.schErr || (c.schErr && !contains(ptrs, c.at)) {
				t.Errorf("fails at %q, want error %v at %q", ptrs, c.schErr, c.at)
			}
		})
	}
}

// exampleFiles lists every hooks file the repository ships as an example.
func exampleFiles(t testing.TB) []string {
	t.Helper()
	var files []string
	err := filepath.WalkDir(filepath.Join("..", "examples"), func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && d.Name() == "hooks.json" {
			files = append(files, p)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	seeds, err := filepath.Glob(filepath.Join("testdata", "seed-examples", "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 || len(seeds) < 12 {
		t.Fatalf("examples not found: %v %v", files, seeds)
	}
	return append(files, seeds...)
}

func TestSchemaCheckAgreesOnExamples(t *testing.T) {
	mine, ref := schemas(t)
	for _, p := range exampleFiles(t) {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if ptrs, ok := agree(t, mine, ref, data); !ok || ptrs != nil {
			t.Errorf("%s: compared %v, fails at %q", p, ok, ptrs)
		}
		// Broken on purpose, each hook the same way: both must agree on
		// every place.
		for _, bad := range []struct{ from, to string }{
			{`"command":`, `"command": 7, "x":`},
			{`"timeout":`, `"timeout": "s", "x":`},
			{`"type": "command"`, `"type": "prompt"`},
			{`"version": 1`, `"version": 1.5`},
		} {
			broken := bytes.ReplaceAll(data, []byte(bad.from), []byte(bad.to))
			if bytes.Equal(broken, data) {
				continue
			}
			if ptrs, ok := agree(t, mine, ref, broken); !ok || ptrs == nil {
				t.Errorf("%s with %s: compared %v, fails at %q; want failures", p, bad.to, ok, ptrs)
			}
		}
	}
}

// FuzzSchemaCheckAgrees checks the in-house checker against the reference
// validator on any document.
func FuzzSchemaCheckAgrees(f *testing.F) {
	for _, c := range schemaCases {
		f.Add([]byte(c.doc))
	}
	for _, p := range exampleFiles(f) {
		data, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte(`{"hooks":{"stop":[{"command":"x","timeout":9223372035.99999999999999999,"loop_limit":9007199254740991.0e0}]}}`))
	mine, ref := schemas(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		agree(t, mine, ref, data)
	})
}

// TestSchemaCheckKeywords runs the keywords the generated schema does not
// use today but the reflector can write (additionalProperties, boolean
// schemas), and the rest in combinations, against the reference.
func TestSchemaCheckKeywords(t *testing.T) {
	schema := `{
	  "$schema": "https://json-schema.org/draft/2020-12/schema",
	  "$id": "urn:x",
	  "type": "object",
	  "properties": {
	    "m": {"type": "object", "additionalProperties": {"$ref": "#/$defs/n"}},
	    "closed": {"type": "object", "properties": {"a": true}, "additionalProperties": false},
	    "never": false,
	    "list": {"type": "array", "items": {"type": ["string", "integer"], "enum": ["a", 1, 2.0]}},
	    "c": {"const": {"k": [1, null, true]}},
	    "r": {"type": "number", "minimum": -1.5, "maximum": 1e2, "exclusiveMinimum": -2, "exclusiveMaximum": 100.0},
	    "e": {"if": {"type": "string"}, "then": {"pattern": "^x"}, "else": {"type": "boolean"}}
	  },
	  "$defs": {"n": {"type": "integer", "minimum": 0}}
	}`
	mine, err := compileSchema([]byte(schema))
	if err != nil {
		t.Fatal(err)
	}
	ref, err := referenceCompile([]byte(schema))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		doc  string
		want []string
	}{
		{`{}`, nil},
		{`[]`, []string{""}},
		{`{"m":{"a":1,"b":2.0,"c":1e3}}`, nil},
		{`{"m":{"a":-1,"b":2.5,"c":"x","d/~":0.5}}`, []string{"/m/a", "/m/b", "/m/c", "/m/d~1~0"}},
		{`{"closed":{"a":{},"b":1,"c":2}}`, []string{"/closed"}},
		{`{"never":null}`, []string{"/never"}},
		{`{"list":["a",1,2,1.0,"b",3,true]}`, []string{"/list/4", "/list/5", "/list/6"}},
		{`{"c":{"k":[1.0,null,true]}}`, nil},
		{`{"c":{"k":[1,null,false]}}`, []string{"/c"}},
		{`{"c":{"k":[1,null,true],"l":1}}`, []string{"/c"}},
		{`{"r":-1.5}`, nil},
		{`{"r":99.99999999999999999999}`, nil},
		{`{"r":-1.50000000000000000001}`, []string{"/r"}},
		{`{"r":100}`, []string{"/r"}},
		{`{"r":1e-400}`, nil},
		{`{"e":"xa"}`, nil},
		{`{"e":"a"}`, []string{"/e"}},
		{`{"e":false}`, nil},
		{`{"e":1}`, []string{"/e"}},
	} {
		ptrs, ok := agree(t, mine, ref, []byte(c.doc))
		if !ok || !slices.Equal(ptrs, c.want) {
			t.Errorf("%s: compared %v, fails at %q, want %q", c.doc, ok, ptrs, c.want)
		}
	}
}

// TestCompileSchemaRejects shows that a keyword the checker does not
// interpret, or one in a form it does not expect, stops compilation: a
// change to the reflector cannot be silently ignored.
func TestCompileSchemaRejects(t *testing.T) {
	for _, c := range []struct{ schema, want string }{
		{`{"type":"string","minLength":1}`, `at /minLength: keyword "minLength" is not supported`},
		{`{"$defs":{"A":{"properties":{"x":{"oneOf":[true]}}}}}`, `at /$defs/A/properties/x/oneOf: keyword "oneOf"`},
		{`{"allOf":[{"unevaluatedProperties":false}]}`, `at /allOf/0/unevaluatedProperties`},
		{`{"$schema":"http://json-schema.org/draft-07/schema#"}`, "only the root may name a dialect"},
		{`{"items":{"$schema":"https://json-schema.org/draft/2020-12/schema"}}`, "only the root may name a dialect"},
		{`{"items":{"$id":"x"}}`, "only the root may have an $id"},
		{`{"items":{"$defs":{}}}`, "only the root may have $defs"},
		{`{"$ref":"other.json#/$defs/A"}`, `only references of the form "#/$defs/<name>"`},
		{`{"$ref":"#"}`, `only references of the form`},
		{`{"$ref":"#/$defs/B","$defs":{"A":true}}`, `$ref to "B", which $defs does not define`},
		{`{"$ref":"#/$defs/A","$defs":{"A":{"allOf":[{"$ref":"#/$defs/A"}]}}}`, "$ref cycle"},
		{`{"type":"strin"}`, `type must be a type name`},
		{`{"type":["string","string"]}`, `type must be a type name`},
		{`{"type":[]}`, `type must list at least one type`},
		{`{"required":["a",1]}`, `required must list strings`},
		{`{"minimum":"1"}`, `minimum must be a number`},
		{`{"enum":[]}`, `enum must be a non-empty array`},
		{`{"pattern":"(a"}`, `at /pattern: error parsing regexp`},
		{`{"pattern":"(?=a)"}`, `at /pattern: error parsing regexp`},
		{`{"properties":{"a":5}}`, `at /properties/a: a schema must be an object or a boolean`},
		{`{"description":1}`, `description must be a string`},
		{`[]`, `at the root: a schema must be an object`},
		{`{"a":`, `invalid JSON`},
	} {
		_, err := compileSchema([]byte(c.schema))
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), "hooks.json schema: ") {
			t.Errorf("%s: error %v, want one containing %q", c.schema, err, c.want)
		}
	}
}

// TestSchemaCheckMessages pins what each kind of violation says, through
// SchemaProblems, where they appear.
func TestSchemaCheckMessages(t *testing.T) {
	for _, c := range []struct{ doc, ptr, msg string }{
		{`{"version":"1","hooks":{}}`, "/version", `must be an integer, got "1"`},
		{`{"version":1.5,"hooks":{}}`, "/version", `must be an integer, got 1.5`},
		{`{"version":0,"hooks":{}}`, "/version", `must be at least 1, got 0`},
		{`{"version":2147483648,"hooks":{}}`, "/version", `must be at most 2147483647, got 2147483648`},
		{`{"hooks":{"stop":[{"command":"x","timeout":0}]}}`, "/hooks/stop/0/timeout", `must be greater than 0, got 0`},
		{`{"hooks":{"stop":[{"command":"x","timeout":1e9999999}]}}`, "/hooks/stop/0/timeout", `must be less than 9223372036, got 1e9999999`},
		{`{"hooks":{"stop":[{"command":"x","loop_limit":"5"}]}}`, "/hooks/stop/0/loop_limit", `must be an integer or null, got "5"`},
		{`{"hooks":{"stop":[{"command":"x","type":"Command"}]}}`, "/hooks/stop/0/type", `must be one of "command", "prompt", got "Command"`},
		// A value of the wrong type is told that alone, not also that it
		// is not in the enum.
		{`{"hooks":{"stop":[{"command":"x","type":1}]}}`, "/hooks/stop/0/type", `must be a string, got 1`},
		{`{"hooks":{"stop":[{"command":" "}]}}`, "/hooks/stop/0/command", `must match the regular expression \S, got " "`},
		{`{"hooks":{"stop":[{"type":"prompt"}]}}`, "/hooks/stop/0", `missing required property "prompt"`},
		{`{"hooks":{"stop":[[]]}}`, "/hooks/stop/0", `must be an object, got an array`},
		{`{}`, "", `missing required property "hooks"`},
	} {
		ps := SchemaProblems("h.json", []byte(c.doc), nil)
		if len(ps) != 1 || ps[0].Pointer != c.ptr || ps[0].Message != "does not match the schema: "+c.msg || ps[0].Fix != schemaFix || ps[0].Severity != Error {
			t.Errorf("%s: got %v\nwant one error at %q: %s", c.doc, problemStrings(ps), c.ptr, c.msg)
		}
	}
}

func TestDecimal(t *testing.T) {
	for _, c := range []struct {
		a, b  string
		cmp   int
		aInt  bool
		bInts bool
	}{
		{"0", "-0.0e5", 0, true, true},
		{"1", "1.0", 0, true, true},
		{"100", "1E+2", 0, true, true},
		{"0.1e1", "1", 0, true, true},
		{"1.5", "2", -1, false, true},
		{"-1.5", "-2", 1, false, true},
		{"-3", "0", -1, true, true},
		{"9223372035.99999999999999999", "9223372036", -1, false, true},
		{"9223372036.00000000000000001", "9223372036", 1, false, true},
		{"0.123", "0.13", -1, false, false},
		{"1e400", "1e399", 1, true, true},
		{"1e-400", "0", 1, false, true},
		{"-1e-400", "0", -1, false, true},
		{"12e-1", "1.2", 0, false, false},
		{"1e99999999999999999999", "1e9999999", 1, true, true},
		{"1e-99999999999999999999", "1e-9999999", -1, false, false},
		{"1500e-3", "15e-1", 0, false, false},
		{"1500e-2", "15", 0, true, true},
	} {
		a, okA := parseDecimal(c.a)
		b, okB := parseDecimal(c.b)
		if !okA || !okB {
			t.Fatalf("%s, %s: not parsed", c.a, c.b)
		}
		if got := a.cmp(b); got != c.cmp {
			t.Errorf("cmp(%s, %s) = %d, want %d", c.a, c.b, got, c.cmp)
		}
		if got := b.cmp(a); got != -c.cmp {
			t.Errorf("cmp(%s, %s) = %d, want %d", c.b, c.a, got, -c.cmp)
		}
		if a.isInt() != c.aInt || b.isInt() != c.bInts {
			t.Errorf("isInt(%s), isInt(%s) = %v, %v; want %v, %v", c.a, c.b, a.isInt(), b.isInt(), c.aInt, c.bInts)
		}
	}
	for _, bad := range []string{"", "-", "1.", ".5", "1e", "1e+", "x", "1e5.0", "0x10"} {
		if _, ok := parseDecimal(bad); ok {
			t.Errorf("parseDecimal(%q) accepted", bad)
		}
	}
}

// FuzzDecimal compares the decimal reading of numbers with big.Rat's
// exact one, where big.Rat can compute it.
func FuzzDecimal(f *testing.F) {
	f.Add("1.5", "2e0")
	f.Add("-0.001", "-1e-3")
	f.Add("9223372035.99999999999999999", "9223372036")
	f.Fuzz(func(t *testing.T, a, b string) {
		x, okX := parseDecimal(a)
		y, okY := parseDecimal(b)
		// Only JSON numbers are compared; the parser never passes others.
		if !okX || !okY || !isJSONNumber(a) || !isJSONNumber(b) || len(a) > 64 || len(b) > 64 {
			return
		}
		rx, ok1 := new(big.Rat).SetString(a)
		ry, ok2 := new(big.Rat).SetString(b)
		if !ok1 || !ok2 {
			return
		}
		if got, want := x.cmp(y), rx.Cmp(ry); got != want {
			t.Errorf("cmp(%s, %s) = %d, big.Rat says %d", a, b, got, want)
		}
		if x.isInt() != rx.IsInt() {
			t.Errorf("isInt(%s) = %v, big.Rat says %v", a, x.isInt(), rx.IsInt())
		}
	})
}

// isJSONNumber reports whether s is exactly one JSON number, as the
// loader's parser reads it.
func isJSONNumber(s string) bool {
	if s == "" || (s[0] != '-' && (s[0] < '0' || s[0] > '9')) {
		return false
	}
	doc, ok := parseJSON([]byte(s), newReporter("n", []byte(s)))
	return ok && doc.kind == jsonNumber && doc.str == s
}

// BenchmarkCompileSchema measures what the first check in a process pays
// to compile the schema (its generation by reflection excluded).
func BenchmarkCompileSchema(b *testing.B) {
	schema := Schema()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := compileSchema(schema); err != nil {
			b.Fatal(err)
		}
	}
}
