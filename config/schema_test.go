package config

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/agenthooks/agenthooks/event"
)

// schemaErrors validates data against the schema with a complete JSON
// Schema validator (the reference the in-house checker is compared with),
// reading it with encoding/json as any other tool would, and returns the
// instance pointers of the failing leaves (nil when valid).
func schemaErrors(t *testing.T, data []byte) []string {
	t.Helper()
	sch, err := referenceSchema()
	if err != nil {
		t.Fatal(err)
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("test document is not JSON: %v", err)
	}
	return referencePointers(t, sch, inst)
}

func TestSchemaShape(t *testing.T) {
	b, err := schemaOnce()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(Schema(), b) {
		t.Fatal("Schema() differs from the generated schema")
	}
	if !bytes.HasPrefix(b, []byte("{\n  \"$schema\": \""+SchemaURL+"\",\n")) {
		t.Errorf("schema does not start with an indented $schema: %.80s", b)
	}
	var doc struct {
		Schema string `json:"$schema"`
		Defs   map[string]struct {
			Properties map[string]struct {
				Description string `json:"description"`
				Ref         string `json:"$ref"`
			} `json:"properties"`
		} `json:"$defs"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	steps := doc.Defs["StepHooks"].Properties
	if len(steps) != len(event.Steps) {
		t.Errorf("schema lists %d steps, want %d", len(steps), len(event.Steps))
	}
	for _, s := range event.Steps {
		p, ok := steps[string(s)]
		if !ok || p.Ref != "#/$defs/HookList" || p.Description == "" {
			t.Errorf("step %s: %+v, %v; want a described reference to HookList", s, p, ok)
		}
	}
	// Every per-hook option the loader reads is in the schema, and
	// nothing else: adding an option to one without the other fails here.
	var opts []string
	for k := range doc.Defs["HookDef"].Properties {
		opts = append(opts, k)
	}
	if !sameSet(opts, hookKeys) {
		t.Errorf("schema options %v, loader options %v", opts, hookKeys)
	}
	// The schema is itself a valid 2020-12 schema: a complete validator
	// compiles it (checking it against the meta-schema), and so does the
	// in-house checker, which knows every keyword it uses.
	if _, err := referenceSchema(); err != nil {
		t.Fatal(err)
	}
	if _, err := compiledSchema(); err != nil {
		t.Fatal(err)
	}
	// Callers may modify what they get.
	Schema()[0] = 'x'
	if Schema()[0] != '{' {
		t.Error("Schema returns shared bytes")
	}
}

func sameSet(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	in := map[string]bool{}
	for _, s := range a {
		in[s] = true
	}
	for _, s := range b {
		if !in[s] {
			return false
		}
	}
	return true
}

// TestSchemaAcceptsExamples checks every example hooks file shipped in
// the repository and every one in Cursor's documentation: the loader finds
// no error in them, and neither does the schema.
func TestSchemaAcceptsExamples(t *testing.T) {
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
	files = append(files, seeds...)
	if len(seeds) < 12 || !contains(files, filepath.Join("..", "examples", "workspace", ".cursor", "hooks.json")) {
		t.Fatalf("examples not found: %v", files)
	}
	for _, p := range files {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if f := ParseFile(p, data, User, ".", "."); f.HasErrors() {
			t.Errorf("%s: the loader rejects it: %v", p, f.Problems)
		}
		if errs := schemaErrors(t, data); errs != nil {
			t.Errorf("%s: the schema rejects it at %v", p, errs)
		}
		if ps := SchemaProblems(p, data, nil); len(ps) != 0 {
			t.Errorf("%s: SchemaProblems = %v", p, ps)
		}
	}
}

func contains(list []string, s string) bool {
	for _, e := range list {
		if e == s {
			return true
		}
	}
	return false
}

// schemaCases pairs documents with what the loader and the schema each
// say. For structural errors the two must agree, at the same place; the
// few rows where only the loader objects are checks a schema cannot
// express (JavaScript regular expressions, durations below a nanosecond).
var schemaCases = []struct {
	name              string
	doc               string
	loaderErr, schErr bool
	at                string // the pointer both report, when they do
}{
	{"minimal", `{"version":1,"hooks":{}}`, false, false, ""},
	{"all options", `{"version":1,"hooks":{"stop":[{"command":"./a.sh","type":"command","timeout":1.5,"loop_limit":0,"failClosed":true,"matcher":"Stop"}]}}`, false, false, ""},
	{"prompt hook", `{"hooks":{"beforeShellExecution":[{"type":"prompt","prompt":"Safe? $ARGUMENTS","model":"fast","timeout":10}]}}`, false, false, ""},
	{"loop_limit null", `{"version":1,"hooks":{"subagentStop":[{"command":"x","loop_limit":null}]}}`, false, false, ""},
	{"integral float loop_limit", `{"version":1,"hooks":{"stop":[{"command":"x","loop_limit":5.0}]}}`, false, false, ""},
	{"unknown step, anything inside", `{"version":1,"hooks":{"beforeFoo":{"not":"an array"}}}`, false, false, ""},
	{"unknown keys kept", `{"version":1,"extra":true,"hooks":{"stop":[{"command":"x","colour":"blue"}]}}`, false, false, ""},
	{"prompt ignored on a command hook", `{"version":1,"hooks":{"stop":[{"command":"x","prompt":"p","model":"m"}]}}`, false, false, ""},
	{"empty command ignored on a prompt hook", `{"version":1,"hooks":{"stop":[{"type":"prompt","prompt":"p","command":""}]}}`, false, false, ""},

	{"top level not an object", `[1]`, true, true, ""},
	{"hooks missing", `{"version":1}`, true, true, ""},
	{"hooks an array", `{"version":1,"hooks":[]}`, true, true, "/hooks"},
	{"version zero", `{"version":0,"hooks":{}}`, true, true, "/version"},
	{"version a string", `{"version":"1","hooks":{}}`, true, true, "/version"},
	{"version fractional", `{"version":1.5,"hooks":{}}`, true, true, "/version"},
	{"step not an array", `{"version":1,"hooks":{"stop":{"command":"x"}}}`, true, true, "/hooks/stop"},
	{"hook a string", `{"version":1,"hooks":{"stop":["./x.sh"]}}`, true, true, "/hooks/stop/0"},
	{"missing command", `{"version":1,"hooks":{"stop":[{"timeout":5}]}}`, true, true, "/hooks/stop/0"},
	{"missing command, explicit type", `{"version":1,"hooks":{"stop":[{"type":"command"}]}}`, true, true, "/hooks/stop/0"},
	{"blank command", `{"version":1,"hooks":{"stop":[{"command":"  "}]}}`, true, true, "/hooks/stop/0/command"},
	{"command a number", `{"version":1,"hooks":{"stop":[{"command":5}]}}`, true, true, "/hooks/stop/0/command"},
	{"command null", `{"version":1,"hooks":{"stop":[{"command":null}]}}`, true, true, "/hooks/stop/0/command"},
	{"missing prompt", `{"version":1,"hooks":{"stop":[{"type":"prompt"}]}}`, true, true, "/hooks/stop/0"},
	{"blank prompt", `{"version":1,"hooks":{"stop":[{"type":"prompt","prompt":""}]}}`, true, true, "/hooks/stop/0/prompt"},
	{"model a number", `{"version":1,"hooks":{"stop":[{"type":"prompt","prompt":"p","model":4}]}}`, true, true, "/hooks/stop/0/model"},
	{"bad type enum", `{"version":1,"hooks":{"stop":[{"type":"Command","command":"x"}]}}`, true, true, "/hooks/stop/0/type"},
	{"bad type, no command", `{"version":1,"hooks":{"stop":[{"type":"script"}]}}`, true, true, "/hooks/stop/0/type"},
	{"type not a string", `{"version":1,"hooks":{"stop":[{"type":1,"command":"x"}]}}`, true, true, "/hooks/stop/0/type"},
	{"negative timeout", `{"version":1,"hooks":{"stop":[{"command":"x","timeout":-3}]}}`, true, true, "/hooks/stop/0/timeout"},
	{"zero timeout", `{"version":1,"hooks":{"stop":[{"command":"x","timeout":0}]}}`, true, true, "/hooks/stop/0/timeout"},
	{"timeout a string", `{"version":1,"hooks":{"stop":[{"command":"x","timeout":"30"}]}}`, true, true, "/hooks/stop/0/timeout"},
	{"huge timeout", `{"version":1,"hooks":{"stop":[{"command":"x","timeout":1e400}]}}`, true, true, "/hooks/stop/0/timeout"},
	{"negative loop_limit", `{"version":1,"hooks":{"stop":[{"command":"x","loop_limit":-1}]}}`, true, true, "/hooks/stop/0/loop_limit"},
	{"fractional loop_limit", `{"version":1,"hooks":{"stop":[{"command":"x","loop_limit":2.5}]}}`, true, true, "/hooks/stop/0/loop_limit"},
	{"loop_limit a string", `{"version":1,"hooks":{"stop":[{"command":"x","loop_limit":"5"}]}}`, true, true, "/hooks/stop/0/loop_limit"},
	{"failClosed a string", `{"version":1,"hooks":{"stop":[{"command":"x","failClosed":"true"}]}}`, true, true, "/hooks/stop/0/failClosed"},
	{"matcher a number", `{"version":1,"hooks":{"stop":[{"command":"x","matcher":1}]}}`, true, true, "/hooks/stop/0/matcher"},
	{"second hook broken", `{"version":1,"hooks":{"preToolUse":[{"command":"ok"},{"command":"x","timeout":-1}]}}`, true, true, "/hooks/preToolUse/1/timeout"},

	// Checks beyond a schema: the loader alone objects.
	{"matcher not a JavaScript regexp", `{"version":1,"hooks":{"stop":[{"command":"x","matcher":"(a"}]}}`, true, false, ""},
	{"timeout below a nanosecond", `{"version":1,"hooks":{"stop":[{"command":"x","timeout":1e-12}]}}`, true, false, ""},
}

// TestSchemaAgreesWithLoader runs every case through the loader and a
// real JSON Schema validator and checks each says what the table says;
// where both object, they object at the same JSON pointer, so
// SchemaProblems adds nothing to the loader's report.
func TestSchemaAgreesWithLoader(t *testing.T) {
	for _, c := range schemaCases {
		t.Run(c.name, func(t *testing.T) {
			data := []byte(c.doc)
			f := ParseFile("hooks.json", data, User, ".", ".")
			if f.HasErrors() != c.loaderErr {
				t.Errorf("loader error = %v, want %v: %v", f.HasErrors(), c.loaderErr, f.Problems)
			}
			sch := schemaErrors(t, data)
			if (sch != nil) != c.schErr {
				t.Errorf("schema error = %v (at %q), want %v", sch != nil, sch, c.schErr)
			}
			if c.schErr {
				if !contains(sch, c.at) {
					t.Errorf("schema errors at %q, want one at %q", sch, c.at)
				}
				var loaderAt []string
				for _, p := range f.Problems {
					if p.Severity == Error {
						loaderAt = append(loaderAt, p.Pointer)
					}
				}
				if !contains(loaderAt, c.at) {
					t.Errorf("loader errors at %q, want one at %q", loaderAt, c.at)
				}
			}
			if extra := SchemaProblems("hooks.json", data, f.Problems); len(extra) != 0 {
				t.Errorf("schema finds what the loader did not: %v", extra)
			}
			if got := SchemaProblems("hooks.json", data, nil); (len(got) > 0) != c.schErr {
				t.Errorf("SchemaProblems alone = %v, want problems: %v", got, c.schErr)
			}
		})
	}
}

func TestSchemaProblemsLocated(t *testing.T) {
	data := []byte("{\n  \"version\": 1,\n  \"hooks\": {\n    \"stop\": [\n      { \"command\": \"x\", \"timeout\": -3 },\n      { \"type\": \"prompt\" }\n    ]\n  }\n}\n")
	got := SchemaProblems("/h/hooks.json", data, nil)
	if len(got) != 2 {
		t.Fatalf("got %d problems, want 2: %v", len(got), got)
	}
	want := []struct {
		line, col int
		ptr, text string
	}{
		{5, 36, "/hooks/stop/0/timeout", "/h/hooks.json:5:36: hooks.stop[0].timeout: does not match the schema: must be greater than 0, got -3"},
		{6, 7, "/hooks/stop/1", `/h/hooks.json:6:7: hooks.stop[1]: does not match the schema: missing required property "prompt"`},
	}
	for i, w := range want {
		p := got[i]
		if p.Line != w.line || p.Col != w.col || p.Pointer != w.ptr || p.Severity != Error {
			t.Errorf("problem %d at %d:%d %s (%v), want %d:%d %s error", i, p.Line, p.Col, p.Pointer, p.Severity, w.line, w.col, w.ptr)
		}
		if !strings.HasPrefix(p.Error(), w.text) || !strings.Contains(p.Error(), "agenthooks schema") {
			t.Errorf("problem %d: %s\nwant it to start %s and name the fix", i, p.Error(), w.text)
		}
	}

	// The loader reports the same two places at the same positions.
	loader := ParseFile("/h/hooks.json", data, User, "/h", "/h").Problems
	for i, w := range want {
		found := false
		for _, p := range loader {
			found = found || (p.Pointer == w.ptr && p.Line == w.line && p.Col == w.col)
		}
		if !found {
			t.Errorf("problem %d: the loader reports %v, nothing at %d:%d %s", i, loader, w.line, w.col, w.ptr)
		}
	}

	// A problem already reported at a pointer hides the schema's there,
	// and only there.
	rest := SchemaProblems("/h/hooks.json", data, []Problem{{Pointer: "/hooks/stop/1"}})
	if len(rest) != 1 || rest[0].Pointer != "/hooks/stop/0/timeout" {
		t.Errorf("with one covered: %v", rest)
	}

	// Not JSON: the loader's syntax error stands alone.
	if ps := SchemaProblems("x.json", []byte(`{"hooks":`), nil); ps != nil {
		t.Errorf("syntax error: %v", ps)
	}
	// Read like the loader reads: the last duplicate wins, a BOM is skipped.
	if ps := SchemaProblems("x.json", []byte("\xef\xbb\xbf{\"hooks\":{\"stop\":[{\"command\":5,\"command\":\"ok\"}]}}"), nil); ps != nil {
		t.Errorf("duplicate key: %v", ps)
	}
}

// Types with broken tags, to show the reflector refuses them rather than
// emitting a schema that says something else.
type (
	badKeyword struct {
		A int `json:"a" schema:"minimun=1"`
	}
	badNumber struct {
		A int `json:"a" schema:"maximum=lots"`
	}
	badDefault struct {
		A bool `json:"a" schema:"default=yes"`
	}
	badNoValue struct {
		A string `json:"a" schema:"pattern"`
	}
	badKind struct {
		A chan int `json:"a"`
	}
	badMap struct {
		A map[int]string `json:"a"`
	}
)

func TestSchemaReflectorRejectsBadTags(t *testing.T) {
	for _, typ := range []reflect.Type{typeOf[badKeyword](), typeOf[badNumber](), typeOf[badDefault](),
		typeOf[badNoValue](), typeOf[badKind](), typeOf[badMap]()} {
		if b, err := generateSchema(typ); err == nil {
			t.Errorf("%v: no error, schema %s", typ, b)
		}
	}
}

func TestSchemaReflectorKinds(t *testing.T) {
	type inner struct {
		N *float64 `json:"n,omitempty" desc:"a number" schema:"exclusiveMinimum=0"`
	}
	type outer struct {
		Name  string           `json:"name"`
		Tags  []string         `json:"tags,omitempty"`
		Inner inner            `json:"inner"`
		Map   map[string]bool  `json:"map,omitempty"`
		Skip  int              `json:"-"`
		Plain uint8            `schema:"enum=1|2"`
		Refs  map[string]inner `json:"refs,omitempty"`
	}
	b, err := generateSchema(typeOf[outer]())
	if err != nil {
		t.Fatal(err)
	}
	var got any
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	want := map[string]any{
		"$schema": SchemaURL,
		"type":    "object",
		"properties": map[string]any{
			"name":  map[string]any{"type": "string"},
			"tags":  map[string]any{"type": "array", "items": map[string]any{"type": "string"}},
			"inner": map[string]any{"$ref": "#/$defs/inner"},
			"map":   map[string]any{"type": "object", "additionalProperties": map[string]any{"type": "boolean"}},
			"Plain": map[string]any{"type": "integer", "enum": []any{1.0, 2.0}},
			"refs":  map[string]any{"type": "object", "additionalProperties": map[string]any{"$ref": "#/$defs/inner"}},
		},
		"required": []any{"name", "inner", "Plain"},
		"$defs": map[string]any{
			"inner": map[string]any{
				"type": "object",
				"properties": map[string]any{
					"n": map[string]any{"description": "a number", "type": []any{"number", "null"}, "exclusiveMinimum": 0.0},
				},
			},
		},
	}
	if !reflect.DeepEqual(got, want) {
		gb, _ := json.MarshalIndent(got, "", " ")
		t.Errorf("got %s", gb)
	}
}

// FuzzSchemaProblemsAfterLoader checks that for any input the schema
// objects to nothing the loader let pass: SchemaProblems after ParseFile
// stays empty. (The table above covers the other direction.)
func FuzzSchemaProblemsAfterLoader(f *testing.F) {
	for _, c := range schemaCases {
		f.Add([]byte(c.doc))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		file := ParseFile("h.json", data, User, "/d", "/r")
		if ps := SchemaProblems("h.json", data, file.Problems); len(ps) != 0 {
			t.Errorf("%q: the loader said %v; the schema adds %v", data, file.Problems, ps)
		}
	})
}

func TestFileSchemaProblems(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "hooks.json")
	data := []byte(`{"version":1,"hooks":{"stop":[{"command":"x","timeout":-3}]}}`)
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	f := ParseFile(p, data, User, dir, dir)
	if ps := f.SchemaProblems(); len(ps) != 0 {
		t.Errorf("covered by the loader, yet: %v", ps)
	}
	// Without the loader's report, the schema's own is there, located.
	bare := *f
	bare.Problems = nil
	ps := bare.SchemaProblems()
	if len(ps) != 1 || ps[0].File != p || ps[0].Pointer != "/hooks/stop/0/timeout" || ps[0].Line != 1 || ps[0].Col != 56 {
		t.Errorf("got %v", ps)
	}
	// Claude Code settings have another format.
	claude := bare
	claude.Source = ClaudeProject
	if ps := claude.SchemaProblems(); ps != nil {
		t.Errorf("Claude settings checked: %v", ps)
	}
	// Changed since loaded: left to the next load.
	if err := os.WriteFile(p, []byte(`{"hooks":[]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if ps := bare.SchemaProblems(); ps != nil {
		t.Errorf("changed file checked: %v", ps)
	}
}

// BenchmarkSchemaProblems measures what validate pays per file for the
// schema check on top of the loader: the largest example of Cursor's hooks
// documentation.
func BenchmarkSchemaProblems(b *testing.B) {
	p := filepath.Join("testdata", "seed-examples", "004-examples-all-steps.json")
	data, err := os.ReadFile(p)
	if err != nil {
		b.Fatal(err)
	}
	problems := ParseFile(p, data, User, ".", ".").Problems
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if ps := SchemaProblems(p, data, problems); len(ps) != 0 {
			b.Fatal(ps)
		}
	}
}
