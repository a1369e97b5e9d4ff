package config

import (
	"strconv"
	"strings"
)

// marker marks, in test sources, the place a problem must be reported at.
const marker = "‸"

// unmark removes the markers from src and returns the "line:col" of each,
// computed independently of lineIndex: lines split at '\n', columns count
// characters, both 1-based.
func unmark(src string) (clean string, positions []string) {
	var b strings.Builder
	line, col := 1, 1
	for _, r := range src {
		if string(r) == marker {
			positions = append(positions, strconv.Itoa(line)+":"+strconv.Itoa(col))
			continue
		}
		b.WriteRune(r)
		if r == '\n' {
			line, col = line+1, 1
		} else {
			col++
		}
	}
	return b.String(), positions
}

// problemStrings formats problems with Error, for comparison.
func problemStrings(ps []Problem) []string {
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = p.Error()
	}
	return out
}
