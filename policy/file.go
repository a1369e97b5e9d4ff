package policy

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/agenthooks/agenthooks/event"
	"github.com/agenthooks/agenthooks/internal/lazyre"
)

// The decisions a rule may give.
var decisions = []string{"deny", "ask", "allow"}

// ruleDef is one rule as written, with the YAML nodes kept for positions.
type ruleDef struct {
	index        int
	name         string
	description  string
	steps        []event.Step
	when         string
	decision     event.Permission
	userMessage  string
	agentMessage string
	node         *yaml.Node // the rule's mapping
	whenNode     *yaml.Node
}

// fileDef is a policy file as written.
type fileDef struct {
	vars  map[string]any
	rules []*ruleDef
}

// parser reads one file and collects its problems.
type parser struct {
	file     string
	problems Errors
}

func (p *parser) add(n *yaml.Node, field, msg, fix string) {
	pr := Problem{File: p.file, Field: field, Message: msg, Fix: fix}
	if n != nil {
		pr.Line, pr.Col = n.Line, n.Column
	}
	p.problems = append(p.problems, pr)
}

var yamlLine = lazyre.New(`^yaml: line (\d+): `)

// yamlProblem turns a YAML syntax error into a Problem with its line.
func yamlProblem(file string, err error) Problem {
	msg := err.Error()
	pr := Problem{File: file, Message: "not valid YAML: " + strings.TrimPrefix(msg, "yaml: "), Fix: "correct the YAML syntax"}
	if m := yamlLine().FindStringSubmatch(msg); m != nil {
		pr.Line, _ = strconv.Atoi(m[1])
		pr.Message = "not valid YAML: " + msg[len(m[0]):]
	}
	return pr
}

// parseFile reads a policy file's YAML: the top level, each rule's
// fields, their types and values. Conditions are compiled later.
func parseFile(file string, src []byte) (*fileDef, Errors) {
	p := &parser{file: file}
	var doc yaml.Node
	if err := yaml.Unmarshal(src, &doc); err != nil {
		return nil, Errors{yamlProblem(file, err)}
	}
	if doc.Kind == 0 || len(doc.Content) == 0 {
		return nil, Errors{{File: file, Message: "the file is empty", Fix: "add a rules: list; see docs/policies.md"}}
	}
	root := deref(doc.Content[0])
	if root.Kind != yaml.MappingNode {
		fix := "start the file with rules:"
		if root.Kind == yaml.SequenceNode {
			fix += "; a list is a cases file, for agenthooks policy test --cases"
		}
		p.add(root, "", "the top level must be a mapping with a rules: list, not a "+kindName(root), fix)
		return nil, p.problems
	}
	def := &fileDef{}
	var rulesNode *yaml.Node
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := root.Content[i], deref(root.Content[i+1])
		switch k.Value {
		case "version":
			if v.Kind != yaml.ScalarNode || v.Value != "1" {
				p.add(v, "version", fmt.Sprintf("unsupported version %q", v.Value), "write version: 1, or leave it out")
			}
		case "vars":
			if v.Kind != yaml.MappingNode {
				p.add(v, "vars", "must be a mapping of names to values, not a "+kindName(v), "write vars: followed by name: value lines")
				continue
			}
			if err := v.Decode(&def.vars); err != nil {
				p.add(v, "vars", err.Error(), "")
			}
		case "rules":
			rulesNode = v
		default:
			p.add(k, k.Value, "unknown field"+suggest(k.Value, []string{"version", "vars", "rules"}), "the top level holds version, vars and rules")
		}
	}
	switch {
	case rulesNode == nil:
		p.add(root, "rules", "missing", "add a rules: list; see docs/policies.md")
	case rulesNode.Kind != yaml.SequenceNode:
		p.add(rulesNode, "rules", "must be a list of rules, not a "+kindName(rulesNode), "write each rule as a list item starting with - name:")
	case len(rulesNode.Content) == 0:
		p.add(rulesNode, "rules", "empty: this policy would never decide anything", "add a rule")
	default:
		names := map[string]int{}
		for i, n := range rulesNode.Content {
			r := p.rule(i, deref(n))
			if r == nil {
				continue
			}
			if first, dup := names[r.name]; dup && r.name != "" {
				p.add(r.node, fmt.Sprintf("rules[%d].name", i), fmt.Sprintf("%q is also the name of rules[%d]", r.name, first), "give every rule its own name")
			}
			names[r.name] = i
			def.rules = append(def.rules, r)
		}
	}
	return def, p.problems
}

// ruleFields are the keys a rule may have.
var ruleFields = []string{"name", "description", "steps", "when", "decision", "user_message", "agent_message"}

func (p *parser) rule(i int, n *yaml.Node) *ruleDef {
	at := fmt.Sprintf("rules[%d]", i)
	if n.Kind != yaml.MappingNode {
		p.add(n, at, "must be a mapping with name, steps, when and decision, not a "+kindName(n), "")
		return nil
	}
	r := &ruleDef{index: i, node: n}
	seen := map[string]*yaml.Node{}
	for j := 0; j+1 < len(n.Content); j += 2 {
		k, v := n.Content[j], deref(n.Content[j+1])
		field := at + "." + k.Value
		if !slices.Contains(ruleFields, k.Value) {
			p.add(k, field, "unknown field"+suggest(k.Value, ruleFields), "a rule holds "+strings.Join(ruleFields, ", "))
			continue
		}
		seen[k.Value] = v
		if k.Value == "steps" {
			r.steps = p.steps(field, v)
			continue
		}
		if v.Kind != yaml.ScalarNode {
			p.add(v, field, "must be a string, not a "+kindName(v), "")
			continue
		}
		switch k.Value {
		case "name":
			r.name = v.Value
		case "description":
			r.description = v.Value
		case "when":
			r.when, r.whenNode = v.Value, v
		case "decision":
			if !slices.Contains(decisions, v.Value) {
				p.add(v, field, fmt.Sprintf("unknown decision %q", v.Value)+suggest(v.Value, decisions), "write deny, ask or allow")
				continue
			}
			r.decision = event.Permission(v.Value)
		case "user_message":
			r.userMessage = v.Value
		case "agent_message":
			r.agentMessage = v.Value
		}
	}
	for _, req := range []struct{ key, fix string }{
		{"name", "name the rule: it is what check, test and the log show"},
		{"steps", "list the steps it applies to, e.g. steps: [beforeShellExecution, preToolUse]"},
		{"when", "write the condition in CEL, e.g. when: commands(command).exists(c, c.name == \"rm\")"},
		{"decision", "write decision: deny, ask or allow"},
	} {
		if seen[req.key] == nil {
			p.add(n, at+"."+req.key, "missing", req.fix)
		}
	}
	if r.name == "" && seen["name"] != nil {
		p.add(seen["name"], at+".name", "empty", "name the rule")
	}
	if strings.TrimSpace(r.when) == "" && r.whenNode != nil {
		p.add(r.whenNode, at+".when", "empty", "write the condition in CEL")
		r.whenNode = nil
	}
	if r.decision == event.Ask && slices.Contains(r.steps, event.BeforeSubmitPrompt) {
		p.add(seen["decision"], at+".decision", "beforeSubmitPrompt cannot ask: a prompt is submitted or blocked", "use deny, or a separate rule for beforeSubmitPrompt")
	}
	return r
}

// steps reads a rule's steps: a list of step names (or one name).
func (p *parser) steps(field string, v *yaml.Node) []event.Step {
	var items []*yaml.Node
	switch v.Kind {
	case yaml.ScalarNode:
		items = []*yaml.Node{v}
	case yaml.SequenceNode:
		items = v.Content
	default:
		p.add(v, field, "must be a list of step names, not a "+kindName(v), "write steps: [beforeShellExecution]")
		return nil
	}
	if len(items) == 0 {
		p.add(v, field, "empty: the rule would never apply", "list at least one step")
	}
	var out []event.Step
	for i, it := range items {
		it = deref(it)
		at := fmt.Sprintf("%s[%d]", field, i)
		s := event.Step(it.Value)
		switch {
		case it.Kind != yaml.ScalarNode:
			p.add(it, at, "must be a step name, not a "+kindName(it), "")
		case !s.Known():
			hint := ""
			if near, ok := event.SuggestStep(it.Value); ok {
				hint = fmt.Sprintf(" (did you mean %q?)", near)
			}
			p.add(it, at, fmt.Sprintf("unknown step %q%s", it.Value, hint), "use one of the steps listed in docs/policies.md")
		case !decidable(s):
			p.add(it, at, fmt.Sprintf("%s cannot be decided: its hooks observe, they do not allow or deny", s),
				"policies apply to "+strings.Join(decidableNames(), ", "))
		case slices.Contains(out, s):
			p.add(it, at, fmt.Sprintf("%s is listed twice", s), "list each step once")
		default:
			out = append(out, s)
		}
	}
	return out
}

// decidable reports whether a policy's decision means something for the
// step: the gating steps, and prompt submission (deny blocks it).
func decidable(s event.Step) bool { return s.Gating() || s == event.BeforeSubmitPrompt }

func decidableNames() []string {
	var out []string
	for _, s := range event.Steps {
		if decidable(s) {
			out = append(out, string(s))
		}
	}
	return out
}

func deref(n *yaml.Node) *yaml.Node {
	for n != nil && n.Kind == yaml.AliasNode && n.Alias != nil {
		n = n.Alias
	}
	return n
}

func kindName(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "mapping"
	case yaml.SequenceNode:
		return "list"
	case yaml.ScalarNode:
		return "scalar"
	}
	return "node"
}

// suggest returns ` (did you mean "x"?)` for a near miss.
func suggest(s string, known []string) string {
	best, bestD := "", 3
	for _, k := range known {
		if d := distance(strings.ToLower(s), strings.ToLower(k)); d < bestD {
			best, bestD = k, d
		}
	}
	if best == "" {
		return ""
	}
	return fmt.Sprintf(" (did you mean %q?)", best)
}

// distance is the Levenshtein distance between a and b.
func distance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}
