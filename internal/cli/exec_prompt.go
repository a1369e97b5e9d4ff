package cli

import "strings"

// execQuestion is the question shown: the command and the hooks' messages.
func execQuestion(command string, why []string) string {
	var b strings.Builder
	b.WriteString("agenthooks: a hook asks before this command runs:\n")
	for _, line := range strings.Split(command, "\n") {
		b.WriteString("    " + line + "\n")
	}
	for _, w := range why {
		b.WriteString("  " + strings.ReplaceAll(w, "\n", "\n  ") + "\n")
	}
	b.WriteString("Run it? [y/N] ")
	return b.String()
}
