package config

import "sort"

// reporter collects the problems of one file, turning byte offsets into
// line:column as they are recorded.
type reporter struct {
	file     string
	lines    *lineIndex
	problems []Problem
	offsets  []int // byte offset of each problem, to sort them into document order
	errors   int
	// groups names the agent whose matcher groups format a hooks.json
	// written in it most likely copies (Sources.Parse); "" when unknown.
	groups string
}

// groupsLook is the hint for a hooks.json written in the matcher groups
// format: it names the agent whose files use it, when known.
func (r *reporter) groupsLook() string {
	if r.groups != "" {
		return "this looks like " + r.groups + "'s format"
	}
	return "this looks like another agent's settings format"
}

func newReporter(file string, data []byte) *reporter {
	return &reporter{file: file, lines: newLineIndex(data)}
}

// raw returns the text of a value as written in the file.
func (r *reporter) raw(n *jsonNode) []byte { return r.lines.data[n.off:n.end] }

func (r *reporter) add(sev Severity, off int, pointer, msg, fix string) {
	line, col := r.lines.position(off)
	r.problems = append(r.problems, Problem{
		File: r.file, Pointer: pointer, Line: line, Col: col,
		Severity: sev, Message: msg, Fix: fix,
	})
	r.offsets = append(r.offsets, off)
	if sev == Error {
		r.errors++
	}
}

func (r *reporter) errAt(off int, pointer, msg, fix string) {
	r.add(Error, off, pointer, msg, fix)
}

// disarmAt reports a mistake that disarms a guard (Problem.Disarms): an
// error, though the hook it concerns still loads.
func (r *reporter) disarmAt(off int, pointer, msg, fix string) {
	line, col := r.lines.position(off)
	r.problems = append(r.problems, Problem{
		File: r.file, Pointer: pointer, Line: line, Col: col,
		Severity: Error, Message: msg, Fix: fix, Disarms: true,
	})
	r.offsets = append(r.offsets, off)
}

func (r *reporter) warnAt(off int, pointer, msg, fix string) {
	r.add(Warning, off, pointer, msg, fix)
}

// sorted returns the problems in document order, so a user fixing them
// top to bottom sees them in the order they appear in the file.
// Problems at the same place keep the order they were found in.
func (r *reporter) sorted() []Problem {
	idx := make([]int, len(r.problems))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return r.offsets[idx[a]] < r.offsets[idx[b]] })
	out := make([]Problem, len(idx))
	for i, j := range idx {
		out[i] = r.problems[j]
	}
	return out
}
