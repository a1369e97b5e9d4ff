package config

import (
	"testing"
)

func FuzzParseFile(f *testing.F) {
	seeds := []string{
		``,
		`{}`,
		`{"version": 1, "hooks": {}}`,
		`{"version": 1, "hooks": {"stop": [{"command": "a", "loop_limit": null, "timeout": 1.5, "failClosed": true}]}}`,
		`{"hooks": {"beforeShellExecution": [{"type": "prompt", "prompt": "ok?", "model": "m", "matcher": "curl|wget"}]}}`,
		`{"hooks": {"preToolUse": [{"matcher": "Shell", "hooks": [{"type": "command", "command": "x"}]}]}}`,
		`{"hooks": {"stop": [{"command": "a", "x": 1, "x": {"y": [1, 2, {"z": "\u00e9"}]}}]}}`,
		"\uFEFF{\"hooks\": {\"stop\": [\"a\", 1, null, true]}}",
		`{"version": 01, "hooks": {"stop": [{"command": "a"},]}}`,
		`{"hooks": {"stop": [{"command": "C:\Users", "timeout": 1e999}]}}`,
		"{\n// c\n\"hooks\": {}}",
		`[[[[[[[[[[`,
		`{"hooks": {"sessionStart": [{"command": "a", "matcher": "("}]}}`,
	}
	for _, s := range seeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		file := ParseFile("h.json", data, Project, "/d", "/r")
		for _, p := range file.Problems {
			if p.File != "h.json" {
				t.Errorf("problem names file %q", p.File)
			}
			if len(data) > 0 && (p.Line < 1 || p.Col < 1) {
				t.Errorf("problem without a position: %s", p.Error())
			}
			if p.Message == "" {
				t.Errorf("problem without a message: %+v", p)
			}
		}
		for _, h := range file.Hooks {
			if h.Command == "" && h.Prompt == "" {
				t.Errorf("hook %s has neither command nor prompt", h.ID())
			}
			if (h.Type == TypeCommand) == (h.Command == "") {
				t.Errorf("hook %s: type %q with command %q", h.ID(), h.Type, h.Command)
			}
			if !h.Step.Known() || h.Timeout < 0 || h.LoopLimit.N < 0 {
				t.Errorf("hook %s resolved to invalid values: %+v", h.ID(), h)
			}
		}
	})
}
