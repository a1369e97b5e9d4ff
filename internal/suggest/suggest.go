// Package suggest finds the nearest of a list of known names to a
// misspelt one, for "did you mean …?" messages. It imports nothing of the
// project, so the lowest packages (event, config) can share it.
package suggest

import (
	"strings"
	"unicode/utf8"
)

// Closest returns the candidate nearest to word by edit distance, for
// "did you mean …?" fixes. Case, '_' and '-' are ignored when comparing,
// so "PreToolUse" finds preToolUse and "fail_closed" finds failClosed. A
// candidate further away than half its own length is no suggestion at
// all; ok is false then.
func Closest(word string, candidates []string) (best string, ok bool) {
	const maxWord = 64 // longer keys are not typos of ours; skip the work
	if utf8.RuneCountInString(word) > maxWord {
		return "", false
	}
	w := []rune(normalizeName(word))
	bestDist := -1
	for _, c := range candidates {
		cn := []rune(normalizeName(c))
		d := editDistance(w, cn)
		if d*2 > len(cn) {
			continue
		}
		if bestDist < 0 || d < bestDist {
			best, bestDist = c, d
		}
	}
	return best, bestDist >= 0
}

// Near returns the candidate within maxEdits edits of word, ignoring case,
// '_' and '-' (so a case away is 0 edits), when word is not itself a
// candidate: a name that close is a typo of it, not a name of its own.
func Near(word string, candidates []string, maxEdits int) (string, bool) {
	const maxWord = 64
	if utf8.RuneCountInString(word) > maxWord {
		return "", false
	}
	w := []rune(normalizeName(word))
	best, bestDist := "", -1
	for _, c := range candidates {
		if c == word {
			return "", false
		}
		d := editDistance(w, []rune(normalizeName(c)))
		if d <= maxEdits && (bestDist < 0 || d < bestDist) {
			best, bestDist = c, d
		}
	}
	return best, bestDist >= 0
}

func normalizeName(s string) string {
	return strings.ToLower(strings.NewReplacer("_", "", "-", "").Replace(s))
}

// editDistance is the Levenshtein distance between a and b.
func editDistance(a, b []rune) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
