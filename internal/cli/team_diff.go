package cli

import (
	"fmt"
	"strings"
)

// maxDiffCells bounds the table of a line diff (old lines × new lines
// once the common head and tail are set aside); beyond it the middle is
// shown as all removed, then all added.
const maxDiffCells = 4 << 20

// unifiedDiff is a unified diff of two texts, by lines, with three lines
// of context, under the headers ---/+++ oldName and newName; "" when the
// texts are equal.
func unifiedDiff(oldName, newName, a, b string) string {
	if a == b {
		return ""
	}
	x, y := splitLines(a), splitLines(b)
	ops := diffLines(x, y)
	var out strings.Builder
	fmt.Fprintf(&out, "--- %s\n+++ %s\n", oldName, newName)
	const context = 3
	// Group the edits into hunks with their context.
	i := 0
	for i < len(ops) {
		if ops[i].kind == ' ' {
			i++
			continue
		}
		start := max(i-context, 0)
		end := i
		for end < len(ops) {
			if ops[end].kind != ' ' {
				end++
				continue
			}
			run := end
			for run < len(ops) && ops[run].kind == ' ' {
				run++
			}
			if run == len(ops) || run-end > 2*context {
				break
			}
			end = run
		}
		stop := min(end+context, len(ops))
		oldStart, newStart := ops[start].oldLine, ops[start].newLine
		var oldN, newN int
		for _, op := range ops[start:stop] {
			if op.kind != '+' {
				oldN++
			}
			if op.kind != '-' {
				newN++
			}
		}
		fmt.Fprintf(&out, "@@ -%s +%s @@\n", hunkRange(oldStart, oldN), hunkRange(newStart, newN))
		for _, op := range ops[start:stop] {
			out.WriteByte(op.kind)
			out.WriteString(op.text)
			if !strings.HasSuffix(op.text, "\n") {
				out.WriteString("\n\\ No newline at end of file\n")
			}
		}
		i = stop
	}
	return out.String()
}

func hunkRange(start, n int) string {
	if n == 0 {
		return fmt.Sprintf("%d,0", start)
	}
	if n == 1 {
		return fmt.Sprint(start + 1)
	}
	return fmt.Sprintf("%d,%d", start+1, n)
}

// splitLines splits s into lines, each with its line break (the last
// one may have none).
func splitLines(s string) []string {
	if s == "" {
		return nil
	}
	lines := strings.SplitAfter(s, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}

// lineOp is one line of a diff: ' ' kept, '-' removed, '+' added, with
// the 0-based line it is at in the old and the new text.
type lineOp struct {
	kind             byte
	text             string
	oldLine, newLine int
}

// diffLines is a shortest edit of x into y: the common head and tail,
// and a longest common subsequence of the middle.
func diffLines(x, y []string) []lineOp {
	head := 0
	for head < len(x) && head < len(y) && x[head] == y[head] {
		head++
	}
	tail := 0
	for tail < len(x)-head && tail < len(y)-head && x[len(x)-1-tail] == y[len(y)-1-tail] {
		tail++
	}
	var ops []lineOp
	for k := range head {
		ops = append(ops, lineOp{' ', x[k], k, k})
	}
	mx, my := x[head:len(x)-tail], y[head:len(y)-tail]
	if len(mx)*len(my) > maxDiffCells {
		for k, l := range mx {
			ops = append(ops, lineOp{'-', l, head + k, head})
		}
		for k, l := range my {
			ops = append(ops, lineOp{'+', l, head + len(mx), head + k})
		}
	} else {
		// lcs[i][j]: the longest common subsequence of mx[i:] and my[j:].
		lcs := make([][]int32, len(mx)+1)
		for i := range lcs {
			lcs[i] = make([]int32, len(my)+1)
		}
		for i := len(mx) - 1; i >= 0; i-- {
			for j := len(my) - 1; j >= 0; j-- {
				if mx[i] == my[j] {
					lcs[i][j] = lcs[i+1][j+1] + 1
				} else {
					lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
				}
			}
		}
		i, j := 0, 0
		for i < len(mx) || j < len(my) {
			switch {
			case i < len(mx) && j < len(my) && mx[i] == my[j]:
				ops = append(ops, lineOp{' ', mx[i], head + i, head + j})
				i++
				j++
			case i < len(mx) && (j == len(my) || lcs[i+1][j] >= lcs[i][j+1]):
				ops = append(ops, lineOp{'-', mx[i], head + i, head + j})
				i++
			default:
				ops = append(ops, lineOp{'+', my[j], head + i, head + j})
				j++
			}
		}
	}
	for k := range tail {
		ops = append(ops, lineOp{' ', x[len(x)-tail+k], len(x) - tail + k, len(y) - tail + k})
	}
	return ops
}
