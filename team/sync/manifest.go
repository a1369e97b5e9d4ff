package sync

import (
	"fmt"
	"strings"

	"github.com/agenthooks/agenthooks/config"
	"github.com/agenthooks/agenthooks/internal/jsonplain"
	"github.com/agenthooks/agenthooks/internal/shellquote"
)

// Command is the hooks.json command that runs the script name from the
// hooks folder (where team hooks run). On Unix it is ./name, which runs
// the script through its shebang (the file is written executable). On
// Windows, where hooks run through PowerShell, a .ps1 script goes through
// powershell -ExecutionPolicy Bypass -File, as the machine's execution
// policy would otherwise refuse an unsigned script; anything else (.exe,
// .cmd, .bat) is run as it is. A name the shell would split or expand is
// quoted.
func Command(name, osName string) string {
	path := "./" + name
	if osName != Windows {
		return shellquote.POSIXCommand([]string{path})
	}
	if strings.HasSuffix(strings.ToLower(name), ".ps1") {
		return "powershell -NoProfile -ExecutionPolicy Bypass -File " + shellquote.PowerShell(path)
	}
	return shellquote.PowerShellCommand([]string{path})
}

// manifest renders the hooks.json that runs hooks, in Cursor's format.
// Steps are keys (written sorted); inside a step the server's order is
// kept, as it is the hooks' priority.
func manifest(hooks []Hook) ([]byte, error) {
	doc := config.Document{Version: 1, Hooks: config.StepHooks{}}
	for _, h := range hooks {
		doc.Hooks[string(h.Step)] = append(doc.Hooks[string(h.Step)], config.HookDef{
			Command:    h.Command,
			Matcher:    h.Matcher,
			Timeout:    h.Timeout,
			FailClosed: h.FailClosed,
		})
	}
	b, err := jsonplain.MarshalIndent(doc, "", "  ") // matchers such as "<|>" stay readable
	if err != nil {
		return nil, fmt.Errorf("render %s: %w", ManifestName, err)
	}
	return append(b, '\n'), nil
}
