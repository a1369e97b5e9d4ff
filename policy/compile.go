package policy

import (
	"cmp"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"slices"
	"strings"

	"cel.dev/cel-go/cel"
	"cel.dev/cel-go/common"
	"cel.dev/cel-go/common/types"
	"cel.dev/cel-go/common/types/ref"

	"github.com/agenthooks/agenthooks/event"
	"github.com/agenthooks/agenthooks/internal/jsonplain"
)

// Policy is a compiled policy file: rules whose conditions are ready to
// evaluate. It is immutable and safe for concurrent use.
type Policy struct {
	// File is the path the policy was read from, as given.
	File  string
	Rules []*Rule

	byStep [event.NumSteps][]*Rule
	vars   ref.Val
}

// Rule is one compiled rule.
type Rule struct {
	Name         string
	Description  string
	Steps        []event.Step
	When         string
	Decision     event.Permission
	UserMessage  string
	AgentMessage string
	// Line and Col locate the rule in its file; WhenLine and WhenCol its
	// condition.
	Line, Col         int
	WhenLine, WhenCol int

	prg cel.Program
	// answers holds, per step, what the rule answers when it decides
	// alone: the Cursor-shaped JSON and the response parsed from it.
	answers [event.NumSteps]*answer
}

// at is the policy as read from file: the same compiled rules, which are
// immutable and so shared, under another path (the one its errors name).
func (p *Policy) at(file string) *Policy {
	if p.File == file {
		return p
	}
	q := *p
	q.File = file
	return &q
}

// answer is a rule's prepared response for one step.
type answer struct {
	stdout []byte
	resp   event.Response
}

// Load reads and compiles a policy file.
func Load(file string) (*Policy, error) {
	src, err := os.ReadFile(file)
	if err != nil {
		return nil, Errors{{File: file, Message: "cannot read: " + unwrapPathErr(err), Fix: "check the path (relative paths start at the hook's folder)"}}
	}
	return Compile(file, src)
}

func unwrapPathErr(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}

// Compile parses and compiles a policy file's content; file names it in
// positions. Every problem found is returned, as Errors.
func Compile(file string, src []byte) (*Policy, error) {
	env, err := mustEnv()
	if err != nil {
		return nil, err
	}
	def, problems := parseFile(file, src)
	if def == nil {
		return nil, problems
	}
	p := &Policy{File: file}
	p.vars = types.DefaultTypeAdapter.NativeToValue(def.vars)
	if def.vars == nil {
		p.vars = types.DefaultTypeAdapter.NativeToValue(map[string]any{})
	}
	for _, d := range def.rules {
		r := &Rule{
			Name: d.name, Description: d.description, Steps: d.steps, When: d.when,
			Decision: d.decision, UserMessage: d.userMessage, AgentMessage: d.agentMessage,
			Line: d.node.Line, Col: d.node.Column,
		}
		if d.whenNode != nil {
			r.WhenLine, r.WhenCol = d.whenNode.Line, d.whenNode.Column
			prg, probs := compileWhen(env, file, src, d)
			problems = append(problems, probs...)
			r.prg = prg
		}
		for _, s := range r.Steps {
			if r.Decision == "" {
				break
			}
			a, err := prepare(s, r)
			if err != nil {
				problems = append(problems, Problem{File: file, Line: r.Line, Col: r.Col,
					Field: fmt.Sprintf("rules[%d]", d.index), Message: err.Error()})
				continue
			}
			r.answers[event.Index(s)] = a
		}
		p.Rules = append(p.Rules, r)
	}
	if len(problems) > 0 {
		slices.SortStableFunc(problems, func(a, b Problem) int {
			return cmp.Or(cmp.Compare(a.Line, b.Line), cmp.Compare(a.Col, b.Col))
		})
		return nil, problems
	}
	for _, r := range p.Rules {
		for _, s := range r.Steps {
			i := event.Index(s)
			p.byStep[i] = append(p.byStep[i], r)
		}
	}
	return p, nil
}

// compileWhen compiles a rule's condition, mapping CEL's positions
// (inside the expression) to the file's.
func compileWhen(env *cel.Env, file string, src []byte, d *ruleDef) (cel.Program, Errors) {
	field := fmt.Sprintf("rules[%d].when", d.index)
	ast, iss := env.CompileSource(common.NewTextSource(d.when))
	if iss != nil && iss.Err() != nil {
		var out Errors
		for _, e := range iss.Errors() {
			off := exprOffset(d.when, e.Location.Line(), e.Location.Column())
			line, col := scalarPos(src, d.whenNode, d.when, off)
			out = append(out, Problem{File: file, Line: line, Col: col, Field: field,
				Message: e.Message, Fix: "see docs/policies.md for the variables and functions a condition can use"})
		}
		return nil, out
	}
	if t := ast.OutputType(); !t.IsExactType(cel.BoolType) && !t.IsExactType(cel.DynType) {
		return nil, Errors{{File: file, Line: d.whenNode.Line, Col: d.whenNode.Column, Field: field,
			Message: fmt.Sprintf("gives a %s, not true or false", cel.FormatCELType(t)),
			Fix:     "compare it, e.g. x != \"\" or size(x) > 0"}}
	}
	prg, err := env.Program(ast,
		cel.EvalOptions(cel.OptOptimize),
		cel.InterruptCheckFrequency(64),
	)
	if err != nil {
		return nil, Errors{{File: file, Line: d.whenNode.Line, Col: d.whenNode.Column, Field: field, Message: err.Error()}}
	}
	return prg, nil
}

// exprOffset turns CEL's location (1-based line, 0-based column in
// characters) into a character offset in the expression.
func exprOffset(expr string, line, col int) int {
	off := 0
	for i, l := range strings.Split(expr, "\n") {
		if i+1 == line {
			return off + min(col, len([]rune(l)))
		}
		off += len([]rune(l)) + 1
	}
	return off
}

// prepare builds a rule's answer for one step: the JSON a hook process
// would print, and the response the engine parses from it (the same
// parser, so the in-process path cannot answer differently).
func prepare(step event.Step, r *Rule) (*answer, error) {
	var out event.Output
	switch o := event.NewOutput(step).(type) {
	case *event.BeforeShellExecutionOutput:
		o.Permission, o.UserMessage, o.AgentMessage = r.Decision, r.UserMessage, r.AgentMessage
		out = o
	case *event.BeforeMCPExecutionOutput:
		o.Permission, o.UserMessage, o.AgentMessage = r.Decision, r.UserMessage, r.AgentMessage
		out = o
	case *event.PreToolUseOutput:
		o.Permission, o.UserMessage, o.AgentMessage = r.Decision, r.UserMessage, r.AgentMessage
		out = o
	case *event.SubagentStartOutput:
		o.Permission, o.UserMessage, o.AgentMessage = r.Decision, r.UserMessage, r.AgentMessage
		out = o
	case *event.BeforeReadFileOutput:
		o.Permission, o.UserMessage = r.Decision, r.UserMessage
		out = o
	case *event.BeforeTabFileReadOutput:
		o.Permission = r.Decision
		out = o
	case *event.BeforeSubmitPromptOutput:
		cont := r.Decision != event.Deny
		o.Continue = &cont
		if !cont {
			o.UserMessage = r.UserMessage
		}
		out = o
	default:
		return nil, fmt.Errorf("%s cannot be decided", step)
	}
	stdout, err := jsonplain.Marshal(out)
	if err != nil {
		return nil, err
	}
	resp, err := event.ParseResponse(step, stdout)
	if err != nil || resp == nil {
		return nil, fmt.Errorf("%s: the answer %s is not valid: %v", step, stdout, err)
	}
	return &answer{stdout: stdout, resp: *resp}, nil
}
