//go:build windows

package proc

// directExec is false on Windows: PowerShell aliases (ls, cat, echo),
// cmdlets and PATHEXT give a plain word a meaning a bare exec would not
// reproduce, so every command goes through the shell.
const directExec = false

func directCommand(words []string, dir string, env []string) (string, []string, bool) {
	return "", nil, false
}
