package export_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/agenthooks/agenthooks/agent/agents"
	"github.com/agenthooks/agenthooks/config"
	"github.com/agenthooks/agenthooks/event"
	"github.com/agenthooks/agenthooks/export"
)

// Where the test hooks come from.
const (
	projectRoot = "/w/app"
	userDir     = "/home/u/.cursor"
)

// hooksOf parses a hooks.json document as a file of src.
func hooksOf(t *testing.T, src config.Source, doc string) []*config.Hook {
	t.Helper()
	path, dir, root := projectRoot+"/.cursor/hooks.json", projectRoot, projectRoot
	switch src {
	case config.User:
		path, dir, root = userDir+"/hooks.json", userDir, ""
	case config.Enterprise:
		path, dir, root = "/etc/cursor/hooks.json", "/etc/cursor", ""
	case config.Team:
		path, dir, root = "/home/u/.cursor/managed/team_1/hooks/hooks.json", "/home/u/.cursor/managed/team_1/hooks", ""
	}
	f := config.ParseFile(path, []byte(doc), src, dir, root)
	// A mistake that disarms a hook (a matcher its step never reaches)
	// is an error, but the hook loads: export still has it to translate.
	if len(config.Disarming(f.Problems)) < errorCount(f.Problems) {
		t.Fatalf("test hooks do not parse: %v", f.Problems)
	}
	return f.Hooks
}

// one is a hooks.json with one hook at step.
func one(step event.Step, hook string) string {
	return `{"version":1,"hooks":{"` + string(step) + `":[` + hook + `]}}`
}

// mustExport exports and fails the test on an error.
func mustExport(t *testing.T, agent string, hooks []*config.Hook) export.Result {
	t.Helper()
	r, err := targets.To(agent, hooks)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasSuffix(r.Document, []byte("}\n")) || bytes.HasSuffix(r.Document, []byte("\n\n")) {
		t.Fatalf("document does not end in one newline: %q", r.Document)
	}
	if !json.Valid(r.Document) {
		t.Fatalf("document is not JSON: %s", r.Document)
	}
	return r
}

// entry is one exported handler with the event and matcher it sits under.
type entry struct {
	event, matcher string
	handler        map[string]any
}

// entries decodes a document into its handlers, in document order, for
// the Claude-shaped targets and Copilot alike.
func entries(t *testing.T, r export.Result) []entry {
	t.Helper()
	var doc struct {
		Hooks orderedEvents `json:"hooks"`
	}
	if err := json.Unmarshal(r.Document, &doc); err != nil {
		t.Fatalf("decode: %v\n%s", err, r.Document)
	}
	var out []entry
	for _, ev := range doc.Hooks.order {
		for _, raw := range doc.Hooks.lists[ev] {
			if r.Agent == "copilot" {
				var h map[string]any
				if err := json.Unmarshal(raw, &h); err != nil {
					t.Fatal(err)
				}
				m, _ := h["matcher"].(string)
				out = append(out, entry{ev, m, h})
				continue
			}
			var g struct {
				Matcher string           `json:"matcher"`
				Hooks   []map[string]any `json:"hooks"`
			}
			if err := json.Unmarshal(raw, &g); err != nil {
				t.Fatal(err)
			}
			for _, h := range g.Hooks {
				out = append(out, entry{ev, g.Matcher, h})
			}
		}
	}
	return out
}

// orderedEvents decodes the "hooks" object keeping the order of its keys.
type orderedEvents struct {
	order []string
	lists map[string][]json.RawMessage
}

func (o *orderedEvents) UnmarshalJSON(b []byte) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	o.lists = map[string][]json.RawMessage{}
	if _, err := dec.Token(); err != nil { // {
		return err
	}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		key := tok.(string)
		var list []json.RawMessage
		if err := dec.Decode(&list); err != nil {
			return err
		}
		o.order = append(o.order, key)
		o.lists[key] = list
	}
	return nil
}

// warningsOf returns the warnings of one kind.
func warningsOf(r export.Result, kind export.Kind) []export.Warning {
	var out []export.Warning
	for _, w := range r.Warnings {
		if w.Kind == kind {
			out = append(out, w)
		}
	}
	return out
}

func has(ks []export.Kind, k export.Kind) bool {
	for _, x := range ks {
		if x == k {
			return true
		}
	}
	return false
}

func dump(r export.Result) string {
	var b strings.Builder
	b.Write(r.Document)
	for _, w := range r.Warnings {
		b.WriteString("warning: " + w.String() + "\n")
	}
	return b.String()
}

// jsonString quotes s as a JSON string.
func jsonString(s string) string {
	b, err := json.Marshal(s)
	if err != nil {
		panic(err)
	}
	return string(b)
}

func unmarshal(b []byte, v any) error { return json.Unmarshal(b, v) }

// targets are the agents' export targets, as the registry gathers them.
var targets = agents.Export()

// errorCount counts the errors among problems.
func errorCount(problems []config.Problem) int {
	n := 0
	for _, p := range problems {
		if p.Severity == config.Error {
			n++
		}
	}
	return n
}
