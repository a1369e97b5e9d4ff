package policy

import (
	"errors"
	"strings"
	"testing"
	"unicode/utf8"
)

// posOf is the 1-based line and column (in characters) of the n-th
// occurrence (from 1) of marker in src.
func posOf(t *testing.T, src, marker string, n int) (int, int) {
	t.Helper()
	off := -1
	for range n {
		i := strings.Index(src[off+1:], marker)
		if i < 0 {
			t.Fatalf("marker %q not found %d times", marker, n)
		}
		off += 1 + i
	}
	line := strings.Count(src[:off], "\n") + 1
	start := strings.LastIndexByte(src[:off], '\n') + 1
	return line, utf8.RuneCountInString(src[start:off]) + 1
}

func compileErrs(t *testing.T, src string) Errors {
	t.Helper()
	p, err := Compile("p.yaml", []byte(src))
	if err == nil {
		t.Fatalf("compiled without error: %d rules", len(p.Rules))
	}
	var errs Errors
	if !errors.As(err, &errs) {
		t.Fatalf("error is %T, not Errors: %v", err, err)
	}
	return errs
}

const ruleHead = `rules:
  - name: r
    steps: [beforeShellExecution]
    decision: deny
`

// TestCompileCELPositions: a CEL error points at the character of the
// condition, in the file's coordinates, whatever the YAML style.
func TestCompileCELPositions(t *testing.T) {
	cases := []struct {
		name   string
		when   string // the when: line(s), indented for the rule
		marker string // where the error must point
		nth    int
		msg    string
	}{
		// CEL places a call's errors at its opening parenthesis.
		{"plain", `    when: command == "x" && nosuch(command)` + "\n", "(command)", 1, "undeclared reference to 'nosuch'"},
		{"double quoted", `    when: "command == 'x' && bogus"` + "\n", "bogus", 1, "undeclared reference to 'bogus'"},
		{"single quoted", `    when: 'command == ''x'' && bogus'` + "\n", "bogus", 1, "undeclared reference to 'bogus'"},
		{"literal block", "    when: |\n      command == \"x\" &&\n        undefinedThing\n", "undefinedThing", 1, "undeclared reference"},
		{"folded block", "    when: >\n      command == \"x\" &&\n      missingVar\n", "missingVar", 1, "undeclared reference"},
		{"syntax error", "    when: commands(command).exists(c, c.name == )\n", ")", 2, "Syntax error"},
		{"unicode before", "    when: command == \"é\" && oops\n", "oops", 1, "undeclared reference"},
		{"wrong argument type", "    when: glob(1, \"x\")\n", "(1,", 1, "found no matching overload"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			src := ruleHead + c.when
			errs := compileErrs(t, src)
			line, col := posOf(t, src, c.marker, c.nth)
			p := errs[0]
			if p.Line != line || p.Col != col || p.Field != "rules[0].when" || !strings.Contains(p.Message, c.msg) {
				t.Errorf("got %s\nwant p.yaml:%d:%d: rules[0].when: …%s…", p.Error(), line, col, c.msg)
			}
		})
	}
}

func TestCompileNotBool(t *testing.T) {
	src := ruleHead + "    when: command\n"
	errs := compileErrs(t, src)
	line, col := posOf(t, src, "command\n", 1)
	if p := errs[0]; p.Line != line || p.Col != col || !strings.Contains(p.Message, "gives a string, not true or false") {
		t.Errorf("got %s", p.Error())
	}
}

// TestCompileStructure: every problem of the file's structure, each at
// its key or value.
func TestCompileStructure(t *testing.T) {
	src := `version: 2
extra: 1
rulez: []
rules:
  - name: a
    steps: [beforeShelExecution, afterFileEdit, beforeShellExecution, beforeShellExecution]
    when: "true"
    decision: block
  - name: a
    stepz: [beforeShellExecution]
    when: "true"
    decision: deny
  - name: p
    steps: beforeSubmitPrompt
    when: "true"
    decision: ask
  - name: ""
    steps: []
    when: " "
    decision: deny
  - just a string
  - steps: [preToolUse]
`
	errs := compileErrs(t, src)
	want := []struct {
		marker string
		nth    int
		text   string
	}{
		{"2\n", 1, `version: unsupported version "2"`},
		{"extra", 1, "extra: unknown field"},
		{"rulez", 1, `rulez: unknown field (did you mean "rules"?)`},
		{"beforeShelExecution", 1, `rules[0].steps[0]: unknown step "beforeShelExecution" (did you mean "beforeShellExecution"?)`},
		{"afterFileEdit", 1, "rules[0].steps[1]: afterFileEdit cannot be decided"},
		{"beforeShellExecution]", 1, "rules[0].steps[3]: beforeShellExecution is listed twice"},
		{"block", 1, `rules[0].decision: unknown decision "block"`},
		{"name: a", 2, `rules[1].name: "a" is also the name of rules[0]`},
		{"stepz", 1, `rules[1].stepz: unknown field (did you mean "steps"?)`},
		{"name: a", 2, "rules[1].steps: missing"},
		{"ask", 1, "rules[2].decision: beforeSubmitPrompt cannot ask"},
		{`""`, 1, "rules[3].name: empty"},
		{"[]\n    when", 1, "rules[3].steps: empty"},
		{`" "`, 1, "rules[3].when: empty"},
		{"just a string", 1, "rules[4]: must be a mapping"},
		{"steps: [preToolUse]", 1, "rules[5].name: missing"},
		{"steps: [preToolUse]", 1, "rules[5].when: missing"},
		{"steps: [preToolUse]", 1, "rules[5].decision: missing"},
	}
	for _, w := range want {
		line, col := posOf(t, src, w.marker, w.nth)
		found := false
		for _, p := range errs {
			if p.Line == line && p.Col == col && strings.HasPrefix(p.Error(), "p.yaml:") && strings.Contains(p.Error(), w.text) {
				found = true
			}
		}
		if !found {
			t.Errorf("missing p.yaml:%d:%d: %s\nall:\n%s", line, col, w.text, errs.Error())
		}
	}
	if len(errs) != len(want) {
		t.Errorf("%d problems, want %d:\n%s", len(errs), len(want), errs.Error())
	}
	for i := 1; i < len(errs); i++ {
		if errs[i].Line < errs[i-1].Line {
			t.Errorf("problems not in file order:\n%s", errs.Error())
		}
	}
}

func TestCompileFileLevel(t *testing.T) {
	cases := []struct{ src, want string }{
		{"", "p.yaml: the file is empty"},
		{"rules: [\n  - a\n", "p.yaml:"},
		{"- a\n- b\n", "p.yaml:1:1: the top level must be a mapping"},
		{"vars: {}\n", "p.yaml:1:1: rules: missing"},
		{"rules: []\n", "p.yaml:1:8: rules: empty"},
		{"rules: {}\n", "p.yaml:1:8: rules: must be a list"},
		{"vars: [1]\nrules: []\n", "p.yaml:1:7: vars: must be a mapping"},
	}
	for _, c := range cases {
		errs := compileErrs(t, c.src)
		if !strings.HasPrefix(errs.Error(), c.want) {
			t.Errorf("Compile(%q) = %q, want prefix %q", c.src, errs.Error(), c.want)
		}
	}
	// A YAML syntax error says its line.
	errs := compileErrs(t, "rules:\n  - name: a\n    when: \"unterminated\n")
	if errs[0].Line == 0 || !strings.Contains(errs[0].Message, "not valid YAML") {
		t.Errorf("YAML error: %s", errs.Error())
	}
}

func TestCompileExamples(t *testing.T) {
	for _, f := range []string{"git", "network", "secrets", "rm"} {
		p, err := Load("../examples/policies/" + f + ".yaml")
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		if len(p.Rules) == 0 {
			t.Errorf("%s: no rules", f)
		}
	}
	if _, err := Load("../examples/policies/nosuch.yaml"); err == nil || !strings.Contains(err.Error(), "cannot read") {
		t.Errorf("missing file: %v", err)
	}
}

// TestVarsAndAliases: vars reach conditions, and YAML anchors work.
func TestVarsAndAliases(t *testing.T) {
	src := `vars:
  blocked: &b [rm, dd]
rules:
  - name: r
    steps: &s [beforeShellExecution]
    when: commands(command).exists(c, c.name in vars.blocked)
    decision: deny
  - name: r2
    steps: *s
    when: command == "mkfs"
    decision: ask
`
	p, err := Compile("p.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	for cmd, want := range map[string]string{"sudo dd if=/dev/zero": "deny", "mkfs": "ask", "ls": ""} {
		v, err := p.Decide(t.Context(), "beforeShellExecution", map[string]any{"command": cmd})
		if err != nil || string(v.Decision) != want {
			t.Errorf("%q: %q, %v; want %q", cmd, v.Decision, err, want)
		}
	}
}
