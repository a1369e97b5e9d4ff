package match

import "strings"

// CompileNameList compiles a matcher from a Claude Code settings file, by
// Claude Code's rule: "", "*" (or only spaces around them) match all; a
// string made only of letters, digits, _, -, space, comma and | is a list
// of exact tool names separated by | or comma; anything else is a regular
// expression as in Compile. So "Edit|Write" matches Edit and Write but not
// NotebookEdit, while "Edit.*" matches NotebookEdit too. A list with no
// names in it ("|") matches nothing.
func CompileNameList(pattern string) (*Matcher, error) {
	if t := strings.TrimSpace(pattern); t == "" || t == "*" {
		return nil, nil
	}
	if !isNameList(pattern) {
		return Compile(pattern)
	}
	return &Matcher{source: pattern, program: nameList(pattern)}, nil
}

// nameList is the program of a Claude Code list of exact names.
func nameList(pattern string) *program {
	names := map[string]bool{}
	var kept []string
	for _, n := range strings.FieldsFunc(pattern, func(r rune) bool { return r == '|' || r == ',' }) {
		if n = strings.TrimSpace(n); n != "" && !names[n] {
			names[n] = true
			kept = append(kept, n)
		}
	}
	return &program{
		m:      func(s string) (bool, error) { return names[s], nil },
		engine: engineNames,
		expr:   strings.Join(kept, "|"),
	}
}

func isNameList(s string) bool {
	for _, r := range s {
		if !isASCIIAlnum(r) && !strings.ContainsRune("_- ,|", r) {
			return false
		}
	}
	return true
}
