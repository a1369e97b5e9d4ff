package client

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"
)

// refuse answers a step that no hooks could decide at all (the full
// binary is missing, would not start, or died without answering) with
// the agent's strongest "no" that needs no knowledge of the event: what
// each dialect's Refuse renders, and a test holds the two to the same
// bytes. Exit 2 with the reason on stderr blocks in Cursor, Claude Code,
// Codex and Gemini CLI; Copilot reads exit 2 as a mere warning and needs
// its deny on stdout, OpenCode and the contract their JSON as well.
func refuse(args []string, msg string, stdout, stderr io.Writer) int {
	out, code := refusal(fromAgent(args), msg)
	if len(out) > 0 {
		_, _ = stdout.Write(out)
	}
	fmt.Fprintln(stderr, msg)
	return code
}

// refusal is the blocking answer of the agent named by --from ("" for
// Cursor's shape): its stdout and exit code.
func refusal(from, msg string) ([]byte, int) {
	switch from {
	case "copilot":
		deny := map[string]any{"permissionDecision": "deny", "permissionDecisionReason": msg}
		return jsonLine(map[string]any{"permissionDecision": "deny", "permissionDecisionReason": msg, "hookSpecificOutput": deny}), 0
	case "opencode":
		return jsonLine(map[string]any{"error": msg}), 2
	case "contract":
		return jsonLine(map[string]any{"decision": "deny", "reason": msg}), 2
	}
	return nil, 2
}

// fromAgent is the value of run's --from flag, or "".
func fromAgent(args []string) string {
	if len(args) == 0 || args[0] != "run" {
		return ""
	}
	for i, a := range args[1:] {
		if a == "--" {
			break
		}
		if v, ok := strings.CutPrefix(a, "--from="); ok {
			return v
		}
		if a == "--from" && i+2 < len(args) {
			return args[i+2]
		}
	}
	return ""
}

// jsonLine encodes v as the agents' dialects do: keys sorted, <, > and &
// as they are, and a newline.
func jsonLine(v any) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if enc.Encode(v) != nil {
		return nil
	}
	return b.Bytes()
}
