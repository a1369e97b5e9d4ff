package runner

import "strings"

// argumentsPlaceholder is replaced by the hook input JSON, as in Cursor's
// prompt hooks (docs/prompt-hooks.md).
const argumentsPlaceholder = "$ARGUMENTS"

// buildPrompt puts the hook input into the condition: every $ARGUMENTS is
// replaced by the input JSON; without one, the input is appended under a
// heading so that the model can tell the condition from the data.
func buildPrompt(condition string, payload []byte) string {
	input := strings.TrimSpace(string(payload))
	if strings.Contains(condition, argumentsPlaceholder) {
		return strings.ReplaceAll(condition, argumentsPlaceholder, input)
	}
	return strings.TrimRight(condition, " \t\r\n") + "\n\nHook input (JSON):\n" + input
}
