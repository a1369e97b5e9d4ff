package agent

import (
	"strings"
	"unicode"
)

// SnakeCase turns filePath into file_path, and PreToolUse into
// pre_tool_use: how OpenCode's tool arguments and Codex's event keys are
// spelt.
func SnakeCase(s string) string {
	var b strings.Builder
	for i, r := range s {
		if unicode.IsUpper(r) {
			if i > 0 {
				b.WriteByte('_')
			}
			r = unicode.ToLower(r)
		}
		b.WriteRune(r)
	}
	return b.String()
}
