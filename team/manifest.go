package team

import (
	"fmt"

	"github.com/agenthooks/agenthooks/config"
	"github.com/agenthooks/agenthooks/event"
	"github.com/agenthooks/agenthooks/internal/jsonplain"
)

// ManifestName is the manifest's file name inside the hooks folder; no
// script may take it.
const ManifestName = "hooks.json"

// MaxTimeoutSeconds bounds a team hook's timeout: it is the largest
// timeout hooks.json accepts.
const MaxTimeoutSeconds = 9223372036

// Entry is one hook of a manifest: a step and how the hooks folder's
// hooks.json runs its script.
type Entry struct {
	Step       event.Step
	Command    string
	Matcher    string
	Timeout    float64 // seconds; 0 means the engine's default
	FailClosed bool
}

// Manifest renders the hooks.json that runs entries, in Cursor's format.
// Steps are keys (written sorted); inside a step the order of entries is
// kept, as it is the hooks' priority.
func Manifest(entries []Entry) ([]byte, error) {
	doc := config.Document{Version: 1, Hooks: config.StepHooks{}}
	for _, e := range entries {
		doc.Hooks[string(e.Step)] = append(doc.Hooks[string(e.Step)], config.HookDef{
			Command:    e.Command,
			Matcher:    e.Matcher,
			Timeout:    e.Timeout,
			FailClosed: e.FailClosed,
		})
	}
	b, err := jsonplain.MarshalIndent(doc, "", "  ") // matchers such as "<|>" stay readable
	if err != nil {
		return nil, fmt.Errorf("render %s: %w", ManifestName, err)
	}
	return append(b, '\n'), nil
}
