//go:build windows

package proc

import "strings"

// directExec is false on Windows: PowerShell aliases (ls, cat, echo),
// cmdlets and PATHEXT give a plain word a meaning a bare exec would not
// reproduce, so every command goes through the shell.
const directExec = false

func directCommand(words []string, dir string, env []string) (string, bool) {
	return "", false
}

// envKey is how Windows compares variable names: without case.
func envKey(name string) string { return strings.ToUpper(name) }

// pwdVar is empty: Windows has no PWD convention.
const pwdVar = ""
