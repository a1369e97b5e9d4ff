package sync

import (
	"fmt"
	"strings"

	"github.com/agenthooks/agenthooks/config"
	"github.com/agenthooks/agenthooks/internal/jsonplain"
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
		if plainWord(path) {
			return path
		}
		return "'" + strings.ReplaceAll(path, "'", `'\''`) + "'"
	}
	quoted := path
	if !plainWord(path) {
		quoted = "'" + strings.ReplaceAll(path, "'", "''") + "'"
	}
	if strings.HasSuffix(strings.ToLower(name), ".ps1") {
		return "powershell -NoProfile -ExecutionPolicy Bypass -File " + quoted
	}
	if quoted != path {
		return "& " + quoted // a quoted string alone is a value in PowerShell, not a call
	}
	return path
}

// plainWord reports whether s means itself, unquoted, to both sh and
// PowerShell. The set is small on purpose: quoting costs nothing.
func plainWord(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		case strings.IndexByte("_-./+", c) >= 0:
		default:
			return false
		}
	}
	return true
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
