package policy

import (
	"strconv"
	"strings"
)

// Problem is one thing wrong with a policy file: where (1-based line and
// column, 0 when it concerns the whole file), which field, what is wrong,
// and how to fix it. It prints as `file:line:col: field: message (fix:
// …)`, the form `agenthooks validate` uses for hooks files.
type Problem struct {
	File      string
	Line, Col int
	Field     string // e.g. "rules[2].when"; "" for the file as a whole
	Message   string
	Fix       string
}

func (p Problem) Error() string {
	var b strings.Builder
	b.WriteString(p.File)
	if p.Line > 0 {
		b.WriteString(":" + strconv.Itoa(p.Line))
		if p.Col > 0 {
			b.WriteString(":" + strconv.Itoa(p.Col))
		}
	}
	b.WriteString(": ")
	if p.Field != "" {
		b.WriteString(p.Field + ": ")
	}
	b.WriteString(p.Message)
	if p.Fix != "" {
		b.WriteString(" (fix: " + p.Fix + ")")
	}
	return b.String()
}

// Errors is every problem found in a policy file, in file order. Compile
// returns all of them rather than the first, so one `agenthooks policy
// check` shows everything to fix.
type Errors []Problem

func (e Errors) Error() string {
	lines := make([]string, len(e))
	for i, p := range e {
		lines[i] = p.Error()
	}
	return strings.Join(lines, "\n")
}
