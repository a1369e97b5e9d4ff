package dialect

import (
	"encoding/json"
	"errors"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/agenthooks/agenthooks/event"
)

// parseCase is one agent payload and what it must translate to.
type parseCase struct {
	name    string
	payload string
	arg     string
	kind    Kind
	steps   []event.Step
	// fields are expected payload fields, per step: a JSON value each.
	fields map[event.Step]map[string]string
	// absent are payload fields that must not be there, per step.
	absent map[event.Step][]string
}

func runParseCases(t *testing.T, d *Dialect, cases []parseCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r, err := d.Parse([]byte(tc.payload), tc.arg)
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			if r.Agent != d.Name {
				t.Errorf("Agent = %q, want %q", r.Agent, d.Name)
			}
			if r.Kind != tc.kind {
				t.Errorf("Kind = %v, want %v", r.Kind, tc.kind)
			}
			if got := stepsOf(r.Calls); !slices.Equal(got, tc.steps) {
				t.Fatalf("steps = %v, want %v", got, tc.steps)
			}
			for step, want := range tc.fields {
				p := payloadOf(t, r.Calls, step)
				for k, w := range want {
					jsonEqual(t, string(step)+"."+k, p[k], w)
				}
			}
			for step, keys := range tc.absent {
				p := payloadOf(t, r.Calls, step)
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

// errorCase is a payload a dialect must refuse, and how.
type errorCase struct {
	name    string
	payload string
	arg     string
	// contains is a part of the error message that says what is wrong.
	contains string
	gating   bool
}

func runErrorCases(t *testing.T, d *Dialect, cases []errorCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r, err := d.Parse([]byte(tc.payload), tc.arg)
			if err == nil {
				t.Fatalf("Parse succeeded (%v, %v), want an error", r.Kind, stepsOf(r.Calls))
			}
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("error %T is not a *ParseError: %v", err, err)
			}
			if !strings.Contains(err.Error(), tc.contains) {
				t.Errorf("error %q does not contain %q", err, tc.contains)
			}
			if pe.Gating != tc.gating {
				t.Errorf("Gating = %v, want %v", pe.Gating, tc.gating)
			}
		})
	}
}

// answerCase is a verdict on an agent event and the exact answer.
type answerCase struct {
	name    string
	payload string
	arg     string
	verdict Verdict
	approve bool
	stdout  string // exact, without the newline; "" means empty
	stderr  string // a part of stderr; "" means empty
	code    int
	env     map[string]string
}

func runAnswerCases(t *testing.T, d *Dialect, cases []answerCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r, err := d.Parse([]byte(tc.payload), tc.arg)
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			v := tc.verdict
			a := d.Answer(r, &v, Options{Approve: tc.approve})
			checkAnswer(t, a, tc.stdout, tc.stderr, tc.code)
			if !reflect.DeepEqual(a.Env, tc.env) {
				t.Errorf("Env = %v, want %v", a.Env, tc.env)
			}
		})
	}
}

func checkAnswer(t *testing.T, a Answer, stdout, stderr string, code int) {
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

func stepsOf(calls []Call) []event.Step {
	out := make([]event.Step, len(calls))
	for i, c := range calls {
		out[i] = c.Step
	}
	return out
}

func payloadOf(t *testing.T, calls []Call, step event.Step) map[string]any {
	t.Helper()
	for _, c := range calls {
		if c.Step == step {
			return c.Payload
		}
	}
	t.Fatalf("no %s call in %v", step, stepsOf(calls))
	return nil
}

// jsonEqual compares a payload value with the JSON text it must encode to.
func jsonEqual(t *testing.T, what string, got any, want string) {
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

// deny is a verdict of a hook's deny, as Merge words it.
func deny(reason string) Verdict {
	return Verdict{Permission: event.Deny, Reason: reason, UserMessage: "Command execution was blocked by a hook: no"}
}
