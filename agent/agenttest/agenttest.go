// Package agenttest has the table tests every agent dialect runs: its
// payloads parsed into Cursor steps (RunParseCases), the payloads it
// refuses (RunErrorCases) and its answers (RunAnswerCases).
package agenttest

import (
	"encoding/json"
	"errors"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/agenthooks/agenthooks/agent"
	"github.com/agenthooks/agenthooks/event"
)

// ParseCase is one agent payload and what it must translate to.
type ParseCase struct {
	Name    string
	Payload string
	Arg     string
	Kind    agent.Kind
	Steps   []event.Step
	// fields are expected payload fields, per step: a JSON value each.
	Fields map[event.Step]map[string]string
	// absent are payload fields that must not be there, per step.
	Absent map[event.Step][]string
}

func RunParseCases(t *testing.T, d *agent.Dialect, cases []ParseCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.Name, func(t *testing.T) {
			r, err := d.Parse([]byte(tc.Payload), tc.Arg)
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			if r.Agent != d.Name {
				t.Errorf("Agent = %q, want %q", r.Agent, d.Name)
			}
			if r.Kind != tc.Kind {
				t.Errorf("Kind = %v, want %v", r.Kind, tc.Kind)
			}
			if got := StepsOf(r.Calls); !slices.Equal(got, tc.Steps) {
				t.Fatalf("steps = %v, want %v", got, tc.Steps)
			}
			for step, want := range tc.Fields {
				p := PayloadOf(t, r.Calls, step)
				for k, w := range want {
					JSONEqual(t, string(step)+"."+k, p[k], w)
				}
			}
			for step, keys := range tc.Absent {
				p := PayloadOf(t, r.Calls, step)
				for _, k := range keys {
					if v, ok := p[k]; ok {
						t.Errorf("%s.%s = %v, want it absent", step, k, v)
					}
				}
			}
			for _, c := range r.Calls {
				if _, err := c.JSON(); err != nil {
					t.Errorf("%s payload does not encode: %v", c.Step, err)
				}
			}
		})
	}
}

// ErrorCase is a payload a dialect must refuse, and how.
type ErrorCase struct {
	Name    string
	Payload string
	Arg     string
	// contains is a part of the error message that says what is wrong.
	Contains string
	Gating   bool
}

func RunErrorCases(t *testing.T, d *agent.Dialect, cases []ErrorCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.Name, func(t *testing.T) {
			r, err := d.Parse([]byte(tc.Payload), tc.Arg)
			if err == nil {
				t.Fatalf("Parse succeeded (%v, %v), want an error", r.Kind, StepsOf(r.Calls))
			}
			var pe *agent.ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("error %T is not a *ParseError: %v", err, err)
			}
			if !strings.Contains(err.Error(), tc.Contains) {
				t.Errorf("error %q does not contain %q", err, tc.Contains)
			}
			if pe.Gating != tc.Gating {
				t.Errorf("Gating = %v, want %v", pe.Gating, tc.Gating)
			}
		})
	}
}

// AnswerCase is a verdict on an agent event and the exact answer.
type AnswerCase struct {
	Name    string
	Payload string
	Arg     string
	Verdict agent.Verdict
	Approve bool
	Stdout  string // exact, without the newline; "" means empty
	Stderr  string // a part of stderr; "" means empty
	Code    int
	Env     map[string]string
}

func RunAnswerCases(t *testing.T, d *agent.Dialect, cases []AnswerCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.Name, func(t *testing.T) {
			r, err := d.Parse([]byte(tc.Payload), tc.Arg)
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			v := tc.Verdict
			a := d.Answer(r, &v, agent.Options{Approve: tc.Approve})
			CheckAnswer(t, a, tc.Stdout, tc.Stderr, tc.Code)
			if !reflect.DeepEqual(a.Env, tc.Env) {
				t.Errorf("Env = %v, want %v", a.Env, tc.Env)
			}
		})
	}
}

func CheckAnswer(t *testing.T, a agent.Answer, stdout, stderr string, code int) {
	t.Helper()
	want := stdout
	if want != "" {
		want += "\n"
	}
	if string(a.Stdout) != want {
		t.Errorf("stdout = %q\n      want %q", a.Stdout, want)
	}
	if stderr == "" && a.Stderr != "" {
		t.Errorf("stderr = %q, want it empty", a.Stderr)
	}
	if !strings.Contains(a.Stderr, stderr) {
		t.Errorf("stderr = %q, want it to contain %q", a.Stderr, stderr)
	}
	if a.Code != code {
		t.Errorf("exit code = %d, want %d", a.Code, code)
	}
}

func StepsOf(calls []agent.Call) []event.Step {
	out := make([]event.Step, len(calls))
	for i, c := range calls {
		out[i] = c.Step
	}
	return out
}

func PayloadOf(t *testing.T, calls []agent.Call, step event.Step) map[string]any {
	t.Helper()
	for _, c := range calls {
		if c.Step == step {
			return c.Payload
		}
	}
	t.Fatalf("no %s call in %v", step, StepsOf(calls))
	return nil
}

// JSONEqual compares a payload value with the JSON text it must encode to.
func JSONEqual(t *testing.T, what string, got any, want string) {
	t.Helper()
	gb, err := json.Marshal(got)
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	var g, w any
	if err := json.Unmarshal(gb, &g); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(want), &w); err != nil {
		t.Fatalf("%s: bad expectation %q: %v", what, want, err)
	}
	if !reflect.DeepEqual(g, w) {
		t.Errorf("%s = %s, want %s", what, gb, want)
	}
}

// Deny is a verdict of a hook's deny, as Merge words it.
func Deny(reason string) agent.Verdict {
	return agent.Verdict{Permission: event.Deny, Reason: reason, UserMessage: "Command execution was blocked by a hook: no"}
}
