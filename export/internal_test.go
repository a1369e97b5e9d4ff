package export

// SplitNames gives the external tests the names a matcher lists
// (splitNames), by their text.
func SplitNames(pattern string) ([]string, bool) {
	alts, ok := splitNames(pattern)
	out := make([]string, len(alts))
	for i, a := range alts {
		out[i] = a.text
	}
	return out, ok
}
