package policy

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"slices"

	"go.yaml.in/yaml/v3"

	"github.com/agenthooks/agenthooks/event"
)

// Case is one expectation of a cases file: this payload at this step
// gets this decision.
//
//   - name: push to main
//     step: beforeShellExecution      # the default when command is given
//     command: git push origin main   # shorthand for the shell command
//     input: {cwd: /src/app}          # the payload (merged with command)
//     expect: deny                    # deny, ask, allow or none
//     rule: protected-branch          # optional: the rule that decides
type Case struct {
	Name   string
	Step   event.Step
	Input  map[string]any // as the JSON payload decodes
	Expect event.Permission
	Rule   string
	Line   int
}

// Payload is the case's input as the JSON a host sends.
func (c Case) Payload() []byte {
	b, _ := json.Marshal(c.Input)
	return b
}

// CaseResult is how a case fared.
type CaseResult struct {
	Case
	Got Verdict
	Err error
}

// Pass reports whether the policy decided as the case expects.
func (r CaseResult) Pass() bool {
	if r.Err != nil || r.Got.Decision != r.Expect {
		return false
	}
	return r.Rule == "" || r.Got.Rule != nil && r.Got.Rule.Name == r.Rule
}

// RunCases evaluates every case.
func (p *Policy) RunCases(ctx context.Context, cases []Case) []CaseResult {
	out := make([]CaseResult, len(cases))
	for i, c := range cases {
		out[i].Case = c
		out[i].Got, out[i].Err = p.DecideJSON(ctx, c.Step, c.Payload())
	}
	return out
}

var caseFields = []string{"name", "step", "command", "input", "expect", "rule"}

// LoadCases reads a cases file: a YAML list of cases.
func LoadCases(file string) ([]Case, error) {
	src, err := os.ReadFile(file)
	if err != nil {
		return nil, Errors{{File: file, Message: "cannot read: " + unwrapPathErr(err)}}
	}
	return ParseCases(file, src)
}

// ParseCases reads a cases file's content.
func ParseCases(file string, src []byte) ([]Case, error) {
	p := &parser{file: file}
	var doc yaml.Node
	if err := yaml.Unmarshal(src, &doc); err != nil {
		return nil, Errors{yamlProblem(file, err)}
	}
	if len(doc.Content) == 0 || deref(doc.Content[0]).Kind != yaml.SequenceNode {
		return nil, Errors{{File: file, Line: 1, Message: "must be a list of cases", Fix: "write each case as - name: …, step: …, input: …, expect: …"}}
	}
	var cases []Case
	for i, n := range deref(doc.Content[0]).Content {
		if c, ok := p.testCase(i, deref(n)); ok {
			cases = append(cases, c)
		}
	}
	if len(p.problems) > 0 {
		return nil, p.problems
	}
	return cases, nil
}

func (p *parser) testCase(i int, n *yaml.Node) (Case, bool) {
	at := fmt.Sprintf("[%d]", i)
	if n.Kind != yaml.MappingNode {
		p.add(n, at, "must be a mapping", "")
		return Case{}, false
	}
	c := Case{Line: n.Line, Input: map[string]any{}}
	var command *string
	expect := ""
	before := len(p.problems)
	for j := 0; j+1 < len(n.Content); j += 2 {
		k, v := n.Content[j], deref(n.Content[j+1])
		field := at + "." + k.Value
		switch k.Value {
		case "input":
			var in any
			if err := v.Decode(&in); err != nil {
				p.add(v, field, err.Error(), "")
				continue
			}
			// Through JSON, so the policy sees what a host's payload gives.
			b, err := json.Marshal(in)
			if err == nil {
				err = json.Unmarshal(b, &c.Input)
			}
			if err != nil {
				p.add(v, field, "must be a mapping of the payload's fields", "")
			}
		case "name", "step", "command", "expect", "rule":
			if v.Kind != yaml.ScalarNode {
				p.add(v, field, "must be a string", "")
				continue
			}
			switch k.Value {
			case "name":
				c.Name = v.Value
			case "step":
				c.Step = event.Step(v.Value)
				if !c.Step.Known() {
					p.add(v, field, fmt.Sprintf("unknown step %q", v.Value), "")
				}
			case "command":
				s := v.Value
				command = &s
			case "expect":
				expect = v.Value
				if !slices.Contains([]string{"deny", "ask", "allow", "none"}, v.Value) {
					p.add(v, field, fmt.Sprintf("unknown expectation %q", v.Value), "write deny, ask, allow or none")
				}
			case "rule":
				c.Rule = v.Value
			}
		default:
			p.add(k, field, "unknown field"+suggest(k.Value, caseFields), "a case holds "+fmt.Sprint(caseFields))
		}
	}
	if c.Step == "" && command != nil {
		c.Step = event.BeforeShellExecution
	}
	if c.Step == "" {
		p.add(n, at+".step", "missing", "name the step, e.g. step: beforeReadFile")
	}
	if expect == "" {
		p.add(n, at+".expect", "missing", "write expect: deny, ask, allow or none")
	}
	if c.Name == "" {
		c.Name = fmt.Sprintf("case %d (line %d)", i+1, n.Line)
	}
	if command != nil {
		if c.Step == event.PreToolUse {
			c.Input["tool_name"] = "Shell"
			c.Input["tool_input"] = map[string]any{"command": *command}
		} else {
			c.Input["command"] = *command
		}
	}
	if expect != "none" {
		c.Expect = event.Permission(expect)
	}
	return c, len(p.problems) == before
}
