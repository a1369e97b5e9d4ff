package team

import (
	"fmt"
	"strings"

	"github.com/agenthooks/agenthooks/internal/printable"
	"github.com/agenthooks/agenthooks/internal/shellquote"
)

// The operating system names of the team API, as Cursor's
// (docs/team-sync.md).
const (
	Windows   = "Windows"
	Macintosh = "Macintosh"
	Linux     = "Linux"
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

// HookLabel is how messages name a team hook. The script name is quoted
// and the step escaped, as both are the server's and may hold anything.
func HookLabel(id int64, scriptName, step string) string {
	return fmt.Sprintf("hook %d (%q, %s)", id, scriptName, printable.Line(step))
}
