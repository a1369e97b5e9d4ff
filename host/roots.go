package host

import (
	"encoding/json"
	"fmt"

	"github.com/agenthooks/agenthooks/engine"
)

// payloadRoots reads a Cursor payload's workspace_roots, without decoding
// anything else. A payload that could not be read (nil) has none: that is
// the engine's to report.
func payloadRoots(payload *engine.Payload) ([]string, error) {
	if payload == nil {
		return nil, nil
	}
	raw, ok := payload.Field("workspace_roots")
	if !ok || string(raw) == "null" {
		return nil, nil
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
