package event

import (
	"encoding/json"
	"reflect"
	"sort"
	"strings"
	"testing"
)

// jsonKeys lists the JSON keys of a struct type's fields.
func jsonKeys(t reflect.Type) []string {
	var keys []string
	for f := range t.Fields() {
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		keys = append(keys, name)
	}
	sort.Strings(keys)
	return keys
}

// keys lists every key the schema reads, permission first.
func (s schema) keys() []string {
	var keys []string
	if s.permissions != nil {
		keys = append(keys, "permission")
	}
	for _, f := range s.fields {
		keys = append(keys, f.key)
	}
	return keys
}

// TestOutputTypesMatchSchemas keeps the typed outputs and the validator in
// step: each output struct has exactly the keys ParseResponse reads.
func TestOutputTypesMatchSchemas(t *testing.T) {
	for _, step := range Steps {
		out := NewOutput(step)
		if out == nil {
			t.Fatalf("NewOutput(%s) = nil", step)
		}
		if out.Step() != step {
			t.Errorf("NewOutput(%s).Step() = %s", step, out.Step())
		}
		got := jsonKeys(reflect.TypeOf(out).Elem())
		want := schemaFor(step).keys()
		sort.Strings(want)
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: output type has keys %v, validator reads %v", step, got, want)
		}
		b, err := json.Marshal(out)
		if err != nil || string(b) != "{}" {
			t.Errorf("zero %T marshals to %s (%v), want {}", out, b, err)
		}
	}
	if NewOutput("nope") != nil {
		t.Error("NewOutput(unknown) != nil")
	}
}

// TestOutputsParse marshals filled-in outputs and checks that ParseResponse
// accepts them and reads every field back.
func TestOutputsParse(t *testing.T) {
	cases := []struct {
		out  Output
		want Response
	}{
		{SessionStartOutput{Env: map[string]string{"A": "1"}, AdditionalContext: "ctx", Continue: ptr(true), UserMessage: "u"},
			Response{Env: map[string]string{"A": "1"}, AdditionalContext: "ctx", Continue: ptr(true), UserMessage: "u"}},
		{PreToolUseOutput{Permission: Deny, UserMessage: "u", AgentMessage: "a", UpdatedInput: json.RawMessage(`{"command":"npm ci"}`)},
			Response{Permission: Deny, UserMessage: "u", AgentMessage: "a", UpdatedInput: json.RawMessage(`{"command":"npm ci"}`)}},
		{PostToolUseOutput{UpdatedMCPToolOutput: json.RawMessage(`{"modified":"output"}`), AdditionalContext: "c"},
			Response{UpdatedMCPToolOutput: json.RawMessage(`{"modified":"output"}`), AdditionalContext: "c"}},
		{SubagentStartOutput{Permission: Allow, UserMessage: "u", AgentMessage: "a"},
			Response{Permission: Allow, UserMessage: "u", AgentMessage: "a"}},
		{SubagentStopOutput{FollowupMessage: "f"}, Response{FollowupMessage: "f"}},
		{BeforeShellExecutionOutput{Permission: Ask, UserMessage: "u", AgentMessage: "a"},
			Response{Permission: Ask, UserMessage: "u", AgentMessage: "a"}},
		{BeforeMCPExecutionOutput{Permission: Deny, UserMessage: "u", AgentMessage: "a"},
			Response{Permission: Deny, UserMessage: "u", AgentMessage: "a"}},
		{BeforeReadFileOutput{Permission: Allow, UserMessage: "u", NewContent: ptr("")},
			Response{Permission: Allow, UserMessage: "u", NewContent: ptr("")}},
		{BeforeSubmitPromptOutput{Continue: ptr(false), UserMessage: "u"}, Response{Continue: ptr(false), UserMessage: "u"}},
		{PreCompactOutput{UserMessage: "u"}, Response{UserMessage: "u"}},
		{StopOutput{FollowupMessage: "f"}, Response{FollowupMessage: "f"}},
		{BeforeTabFileReadOutput{Permission: Deny}, Response{Permission: Deny}},
		{AfterFileEditOutput{}, Response{}},
	}
	for _, c := range cases {
		t.Run(string(c.out.Step()), func(t *testing.T) {
			b, err := json.Marshal(c.out)
			if err != nil {
				t.Fatal(err)
			}
			resp, err := ParseResponse(c.out.Step(), b)
			if err != nil {
				t.Fatalf("%s rejected: %v", b, err)
			}
			c.want.Raw = b
			sameResponse(t, resp, &c.want)
		})
	}
}
