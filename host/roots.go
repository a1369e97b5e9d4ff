package host

import (
	"encoding/json"
	"fmt"

	"github.com/agenthooks/agenthooks/internal/jsonscan"
)

// payloadRoots reads a Cursor payload's workspace_roots, without a depth
// limit and without decoding anything else.
func payloadRoots(payload []byte) ([]string, error) {
	fields, err := jsonscan.Object(payload)
	raw, ok := fields["workspace_roots"]
	if err != nil || !ok || string(raw) == "null" {
		return nil, nil // an unreadable payload is the engine's to report
	}
	var roots []string
	if err := json.Unmarshal(raw, &roots); err != nil {
		return nil, fmt.Errorf("the payload's workspace_roots is not a list of paths (%s)", clip(raw))
	}
	return roots, nil
}

func clip(b []byte) string {
	const max = 80
	if len(b) > max {
		return string(b[:max]) + "…"
	}
	return string(b)
}
